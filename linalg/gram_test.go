package linalg_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/linalg"
)

// chainLike returns an m×n matrix whose rows each couple a few neighbouring columns, as
// the rows of G of a chain of bodies do, and whose last row is, when delta ≥ 0, a
// combination of the others plus delta times a row of their size: nearly dependent.
func chainLike(rnd *rand.Rand, m, n int, delta float64) *mat.Dense {
	A := mat.NewDense(m, n, nil)
	for i := range m {
		j0 := i * (n - 4) / m
		for j := j0; j < j0+4; j++ {
			A.Set(i, j, rnd.NormFloat64())
		}
	}
	if delta >= 0 {
		last := A.RawRowView(m - 1)
		clear(last)
		for _, i := range []int{0, m / 3, m / 2, m - 2} {
			c := rnd.NormFloat64()
			for j, x := range A.RawRowView(i) {
				last[j] += c * x
			}
		}
		for j := range last {
			last[j] += delta * rnd.NormFloat64()
		}
	}
	return A
}

// TestPivotedGramMatchesQR: the pivot ratio √(d_{m−1}/d_0) of the pivoted Cholesky of
// A Aᵀ equals |R_{m−1,m−1}|/|R_00| of the column-pivoted QR of Aᵀ (the same pivots in exact
// arithmetic) to the Gram route's rounding, of relative order m ε/ratio², and the
// numerical ranks agree at tolerances away from the ratio; a dependent row gives a ratio
// at rounding, √(mε) for the Gram route, far below the rank test's decisions (≈ 0.05).
func TestPivotedGramMatchesQR(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	const eps = 0x1p-52
	for _, c := range []struct {
		m, n  int
		delta float64 // < 0: random rows
	}{{5, 9, -1}, {40, 60, -1}, {200, 300, -1}, {40, 60, 1}, {40, 60, 1e-2}, {200, 300, 1e-2}, {40, 60, 1e-3}, {200, 300, 1e-4}, {40, 60, 0}} {
		A := chainLike(rnd, c.m, c.n, c.delta)
		qr := linalg.NewPivotedQR(c.n, c.m)
		qr.Factorize(A, true)
		g := linalg.NewPivotedGram(c.m, c.n)
		g.Factorize(A.RawMatrix().Data)
		want := qr.Diag(c.m-1) / qr.Diag(0)
		got := g.Diag(c.m-1) / g.Diag(0)
		bound := 4 * float64(c.m) * eps / (want * want)
		if c.delta == 0 {
			if got > 4*math.Sqrt(float64(c.m)*eps) {
				t.Errorf("m=%d dependent row: Gram ratio %.3g, want rounding (≤ %.3g)", c.m, got, 4*math.Sqrt(float64(c.m)*eps))
			}
			continue
		}
		if rel := math.Abs(got-want) / want; rel > bound {
			t.Errorf("m=%d delta=%g: ratio %.17g, QR %.17g (relative %.3g > %.3g)", c.m, c.delta, got, want, rel, bound)
		}
		for _, tol := range []float64{want / 2, 2 * want, 0.3 * 0.15} {
			if r, rq := g.Rank(tol), qr.Rank(tol); r != rq {
				t.Errorf("m=%d delta=%g: rank at %.3g %d, QR's %d", c.m, c.delta, tol, r, rq)
			}
		}
		t.Logf("m=%d delta=%g: ratio %.6g, relative difference %.2g (bound %.2g)", c.m, c.delta, want, math.Abs(got-want)/want, bound)
	}
}

// TestPivotedGramAllocatesNothing: diagnoseSingular factorizes inside a step.
func TestPivotedGramAllocatesNothing(t *testing.T) {
	A := chainLike(rand.New(rand.NewPCG(7, 8)), 200, 300, -1)
	g := linalg.NewPivotedGram(200, 300)
	if n := testing.AllocsPerRun(3, func() { g.Factorize(A.RawMatrix().Data) }); n != 0 {
		t.Errorf("Factorize allocates %v times, want 0", n)
	}
	if r := g.Rank(1e-6); r != 200 {
		t.Errorf("rank of a random 200×300 chain-like matrix = %d, want 200", r)
	}
}

func TestPivotedGramDegenerate(t *testing.T) {
	g := linalg.NewPivotedGram(2, 3)
	g.Factorize(make([]float64, 6))
	if r := g.Rank(1e-10); r != 0 {
		t.Errorf("zero matrix: rank %d, want 0", r)
	}
	g.Factorize([]float64{0, 0, 3, -4, 0, 0})
	if r, d0 := g.Rank(1e-10), g.Diag(0); r != 2 || d0 != 4 {
		t.Errorf("rows 3e₂, −4e₀: rank %d, first pivot %g; want 2 and 4", r, d0)
	}
}
