package linalg

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// luShapes are the mechanisms of the comparisons with dense LU: chains of 1 to 50
// bodies, a binary tree and a ladder (11 closed loops).
var luShapes = []struct {
	name   string
	nb     int
	joints []joint
}{
	{"chain1", 1, chainJoints(1)},
	{"chain2", 2, chainJoints(2)},
	{"chain10", 10, chainJoints(10)},
	{"chain50", 50, chainJoints(50)},
	{"tree31", 31, treeJoints(31)},
	{"ladder12", 24, ladderJoints(12)},
}

// luScaling names how a test matrix is scaled: well (entries O(1), c and c² in BDF),
// stiff (masses, stiffnesses and dampings of 10^U(−6, 6) per body and joint) or units
// (the well-scaled matrix with rows and columns rescaled by 10^U(−3, 3)); the last two
// give entries spanning 1e-6..1e6.
type luScaling int

const (
	luWell luScaling = iota
	luStiff
	luUnits
)

func (s luScaling) String() string { return [...]string{"well", "stiff", "units"}[s] }

// luDraw draws a KKT-like (bdf false) or BDF-like matrix of a shape with a scaling.
func luDraw(rng *rand.Rand, nb int, joints []joint, bdf bool, sc luScaling) luSystem {
	span := 0.0
	if sc == luStiff {
		span = 6
	}
	var s luSystem
	if bdf {
		s = bdfLU(rng, nb, joints, span)
	} else {
		s = kktLU(rng, nb, joints, span)
	}
	if sc == luUnits {
		s = rescaled(rng, s, 6)
	}
	return s
}

func luRandVec(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	return x
}

// luBackwardError returns ‖A x − b‖∞ / (‖A‖∞‖x‖∞ + ‖b‖∞), computed densely.
func luBackwardError(A *mat.Dense, x, b []float64) float64 {
	n, _ := A.Dims()
	var r, xn, bn float64
	for i := range n {
		s := -b[i]
		for j := range n {
			s += A.At(i, j) * x[j]
		}
		r = max(r, math.Abs(s))
		bn = max(bn, math.Abs(b[i]))
		xn = max(xn, math.Abs(x[i]))
	}
	return r / (mat.Norm(A, math.Inf(1))*xn + bn)
}

// luRelDiff returns ‖a − b‖∞ / ‖b‖∞.
func luRelDiff(a, b []float64) float64 {
	var num, den float64
	for i := range b {
		num = max(num, math.Abs(a[i]-b[i]))
		den = max(den, math.Abs(b[i]))
	}
	return num / den
}

// luSparseSolve factorizes s with a new SparseLU and solves for b.
func luSparseSolve(t *testing.T, s luSystem, b []float64) ([]float64, *SparseLU) {
	t.Helper()
	f, err := NewSparseLU(s.n, s.pattern)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Factorize(s.A); err != nil {
		t.Fatal(err)
	}
	x := slices.Clone(b)
	f.Solve(x)
	return x, f
}

// luDenseSolve solves with the dense LU (partial pivoting, LAPACK's getrf).
func luDenseSolve(t *testing.T, A *mat.Dense, b []float64) []float64 {
	t.Helper()
	n, _ := A.Dims()
	d := NewLU(n)
	if err := d.Factorize(A); err != nil {
		t.Fatal(err)
	}
	x := slices.Clone(b)
	d.Solve(x)
	return x
}

// TestSparseLUMatchesDense compares SparseLU with the dense LU on KKT-like and BDF-like
// matrices of chains, trees and ladders (brief: normwise backward error ≤ 1e-14 well
// scaled, ≤ 1e-11 with entries spanning 1e-6..1e6; measured worst 1.7e-16 in both).
// Well scaled, the solutions agree with dense LU's within 1e-9 (κ₁ up to 1e10 for
// these draws; measured worst difference 9.9e-12). With entries spanning 1e-6..1e6
// they are not compared: κ₁ reaches 1e15 (stiff) to 1e20 (units) and both solutions
// are then off by up to 2e-7; TestSparseLURefine checks accuracy there against an
// accurate reference.
func TestSparseLUMatchesDense(t *testing.T) {
	for _, sh := range luShapes {
		for _, bdf := range []bool{false, true} {
			for _, sc := range []luScaling{luWell, luStiff, luUnits} {
				name := fmt.Sprintf("%s/bdf=%v/%v", sh.name, bdf, sc)
				t.Run(name, func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(sh.nb), uint64(sc)))
					worst, worstDiff := 0.0, 0.0
					for range 5 {
						s := luDraw(rng, sh.nb, sh.joints, bdf, sc)
						b := luRandVec(rng, s.n)
						x, _ := luSparseSolve(t, s, b)
						worst = max(worst, luBackwardError(s.A, x, b))
						if sc == luWell {
							worstDiff = max(worstDiff, luRelDiff(x, luDenseSolve(t, s.A, b)))
						}
					}
					t.Logf("worst backward error %.3g, relative difference to dense LU %.3g", worst, worstDiff)
					tol := 1e-14
					if sc != luWell {
						tol = 1e-11
					}
					if worst > tol {
						t.Errorf("backward error %.3g, want ≤ %g", worst, tol)
					}
					if worstDiff > 1e-9 {
						t.Errorf("relative difference to dense LU %.3g, want ≤ 1e-9", worstDiff)
					}
				})
			}
		}
	}
}

// dot2Residual returns b − A x with every row summed by Dot2 of Ogita, Rump & Oishi,
// "Accurate sum and dot product", SIAM J. Sci. Comput. 26 (2005): as accurate as if
// computed in twice the working precision, then rounded.
func dot2Residual(A *mat.Dense, x, b []float64) []float64 {
	n := len(b)
	r := make([]float64, n)
	for i := range n {
		s, c := b[i], 0.0
		for j := range n {
			a := A.At(i, j)
			if a == 0 {
				continue
			}
			p := -a * x[j]
			pl := math.FMA(-a, x[j], -p) // the rounding error of p, exactly
			u := s + p
			z := u - s
			c += (s - (u - z)) + (p - z) + pl // the rounding error of s + p, exactly
			s = u
		}
		r[i] = s + c
	}
	return r
}

// luReference solves A x = b accurately: dense LU refined with residuals in twice the
// working precision, which converges to the correctly rounded solution when κε < 1
// (Higham, "Accuracy and Stability of Numerical Algorithms", 2002, sec. 12.1). It
// reports whether the last correction was below 1e-15 relative.
func luReference(t *testing.T, A *mat.Dense, b []float64) ([]float64, bool) {
	t.Helper()
	n := len(b)
	d := NewLU(n)
	if err := d.Factorize(A); err != nil {
		t.Fatal(err)
	}
	x := slices.Clone(b)
	d.Solve(x)
	last := math.Inf(1)
	for range 10 {
		r := dot2Residual(A, x, b)
		d.Solve(r)
		var dn, xn float64
		for i := range x {
			x[i] += r[i]
			dn, xn = max(dn, math.Abs(r[i])), max(xn, math.Abs(x[i]))
		}
		last = dn / xn
	}
	return x, last <= 1e-15
}

// TestSparseLURefine: on the matrices with entries spanning 1e-6..1e6 the plain solve
// has a normwise backward error of a few ε but, κ₁ being up to 1e20, a forward error
// up to 1e-7 (measured 3.4e-8 on these 120 systems; 9.7e-8 on 480 such, dense LU
// 1.8e-7). One step of refinement (Refine = 1) makes the solution componentwise
// backward stable, and its forward error against an accurate reference (dense LU
// refined in twice the working precision) falls to 1e-13 (measured worst 1.3e-13):
// the sparse solution then agrees with the accurate dense one far within 1e-9.
func TestSparseLURefine(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	worstPlain, worstRefined := 0.0, 0.0
	for _, sh := range luShapes {
		for _, bdf := range []bool{false, true} {
			for _, sc := range []luScaling{luStiff, luUnits} {
				for range 5 {
					s := luDraw(rng, sh.nb, sh.joints, bdf, sc)
					b := luRandVec(rng, s.n)
					ref, ok := luReference(t, s.A, b)
					if !ok {
						t.Fatalf("%s bdf=%v %v: reference did not converge", sh.name, bdf, sc)
					}
					x, f := luSparseSolve(t, s, b)
					worstPlain = max(worstPlain, luRelDiff(x, ref))
					f.Refine = 1
					copy(x, b)
					f.Solve(x)
					worstRefined = max(worstRefined, luRelDiff(x, ref))
				}
			}
		}
	}
	t.Logf("forward error: plain %.3g, one refinement step %.3g", worstPlain, worstRefined)
	if worstRefined > 1e-12 {
		t.Errorf("forward error after one refinement step %.3g, want ≤ 1e-12", worstRefined)
	}
	if worstPlain > 1e-6 {
		t.Errorf("forward error without refinement %.3g, want ≤ 1e-6 (κε of these matrices)", worstPlain)
	}
}

// TestSparseLURandom: random sparse patterns, unsymmetric, with and without diagonal
// entries, n = 1..60, against dense LU; this exercises the depth-first search and
// off-diagonal pivots on structures no mechanism has. Unlike the mechanisms' matrices,
// these random ones show the price of threshold pivoting: entries of L up to 1/τ = 1000
// let the backward error reach 3.3e-14 (measured; dense LU 2.3e-16; 1.7e-15 with τ =
// 0.1, 1.9e-16 with τ = 1), bounded here by 1e-13; one refinement step brings it to
// 1.1e-16 (bound 1e-15). Solutions are compared where the dense estimate of κ₁ is below
// 1e5 (differences ≲ nκε ≤ 1e-9).
func TestSparseLURandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	compared := 0
	worst, worstRefined := 0.0, 0.0
	for trial := range 300 {
		n := 1 + rng.IntN(60)
		density := 0.02 + 0.2*rng.Float64()
		b := newLUBuilder(n)
		perm := rng.Perm(n) // a transversal so that most draws are nonsingular
		for i := range n {
			b.add(i, perm[i], 2*rng.Float64()-1)
			for j := range n {
				if rng.Float64() < density {
					b.add(i, j, 2*rng.Float64()-1)
				}
			}
		}
		s := b.system()
		d := NewLU(n)
		anorm := mat.Norm(s.A, 1)
		if d.Factorize(s.A) != nil {
			continue
		}
		rcond := d.RCond(anorm)
		f, err := NewSparseLU(n, s.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Factorize(s.A); err != nil {
			if rcond > 1e-12 {
				t.Errorf("trial %d (n = %d, rcond %.2g): %v", trial, n, rcond, err)
			}
			continue
		}
		rhs := luRandVec(rng, n)
		x := slices.Clone(rhs)
		f.Solve(x)
		worst = max(worst, luBackwardError(s.A, x, rhs))
		f.Refine = 1
		xr := slices.Clone(rhs)
		f.Solve(xr)
		worstRefined = max(worstRefined, luBackwardError(s.A, xr, rhs))
		if rcond < 1e-5 {
			continue
		}
		compared++
		if e := luRelDiff(x, luDenseSolve(t, s.A, rhs)); e > 1e-9 {
			t.Errorf("trial %d (n = %d, rcond %.2g): relative difference to dense LU %.3g, want ≤ 1e-9", trial, n, rcond, e)
		}
	}
	t.Logf("worst backward error %.3g, after one refinement step %.3g", worst, worstRefined)
	if worst > 1e-13 {
		t.Errorf("backward error %.3g, want ≤ 1e-13", worst)
	}
	if worstRefined > 1e-15 {
		t.Errorf("backward error after one refinement step %.3g, want ≤ 1e-15", worstRefined)
	}
	if compared < 150 {
		t.Errorf("only %d of 300 draws compared with dense LU, want ≥ 150", compared)
	}
}

// perturbed returns a copy of A with every entry multiplied by 1 + δ·U(−1, 1).
func perturbed(rng *rand.Rand, A *mat.Dense, delta float64) *mat.Dense {
	B := mat.DenseCopyOf(A)
	raw := B.RawMatrix()
	for i, v := range raw.Data {
		raw.Data[i] = v * (1 + delta*(2*rng.Float64()-1))
	}
	return B
}

// TestSparseLURefactor: a mild change of the values (1 ± 1e-3 per entry) takes the
// refactorization path, allocation-free, with the same accuracy; a change that makes a
// diagonal pivot collapse (its entry set so that the eliminated pivot is 1e-12 of its
// former value) takes the full path, which pivots off the diagonal there and is as
// accurate; the next mild change refactorizes with the new pivot sequence.
func TestSparseLURefactor(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	s := kktLU(rng, 20, chainJoints(20), 0)
	f, err := NewSparseLU(s.n, s.pattern)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, A *mat.Dense, full, refactor int) {
		t.Helper()
		if err := f.Factorize(A); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if f.FullFactorizations() != full || f.Refactorizations() != refactor {
			t.Errorf("%s: %d full factorizations and %d refactorizations, want %d and %d",
				what, f.FullFactorizations(), f.Refactorizations(), full, refactor)
		}
		b := luRandVec(rng, s.n)
		x := slices.Clone(b)
		f.Solve(x)
		if be := luBackwardError(A, x, b); be > 1e-14 {
			t.Errorf("%s: backward error %.3g, want ≤ 1e-14", what, be)
		}
		if e := luRelDiff(x, luDenseSolve(t, A, b)); e > 1e-9 {
			t.Errorf("%s: relative difference to dense LU %.3g, want ≤ 1e-9", what, e)
		}
	}
	check("first", s.A, 1, 0)
	A1 := perturbed(rng, s.A, 1e-3)
	check("mild change", A1, 1, 1)

	b := luRandVec(rng, s.n)
	if n := testing.AllocsPerRun(20, func() {
		if err := f.Factorize(A1); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("refactorization allocates %v times per call, want 0", n)
	}
	f.Refine = 2
	if n := testing.AllocsPerRun(20, func() { f.Solve(b) }); n != 0 {
		t.Errorf("Solve allocates %v times per call, want 0", n)
	}
	f.Refine = 0
	if f.FullFactorizations() != 1 {
		t.Fatalf("%d full factorizations after refactorizing the same values, want 1", f.FullFactorizations())
	}

	// A diagonal pivot with entries below it: changing C(k,k) by δ changes the
	// eliminated pivot by δ, so subtracting (1 − 1e-12) of the pivot leaves 1e-12 of it.
	k := -1
	for c := range f.n {
		if f.prow[c] == c && f.lp[c+1] > f.lp[c] && slices.Contains(s.pattern[f.perm[c]], f.perm[c]) {
			k = c
			break
		}
	}
	if k < 0 {
		t.Fatal("no diagonal pivot with a nonempty column of L")
	}
	A2 := mat.DenseCopyOf(A1)
	i := f.perm[k]
	A2.Set(i, i, A2.At(i, i)-(1-1e-12)*f.udiag[k])
	refactors := f.Refactorizations()
	check("collapsed pivot", A2, 2, refactors)
	if f.prow[k] == k {
		t.Errorf("step %d still pivots on the diagonal after it collapsed", k)
	}
	check("mild change after the new pivot sequence", perturbed(rng, A2, 1e-3), 2, refactors+1)
}

// TestSparseLUSingular: data errors of Factorize, on a fresh SparseLU and on one that
// holds a factorization (refactorization path), which must both return ErrSingular and
// recover on the next regular matrix.
func TestSparseLUSingular(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	s := kktLU(rng, 6, chainJoints(6), 0)
	nq := 18
	zeroRow := mat.DenseCopyOf(s.A)
	zeroRow.SetRow(4, make([]float64, s.n))
	// The two rows of a revolute joint share their pattern: copying one onto the other
	// duplicates a row without changing the pattern.
	dupRow := mat.DenseCopyOf(s.A)
	dupRow.SetRow(nq+3, mat.Row(nil, nq+2, s.A))
	nan := mat.DenseCopyOf(s.A)
	nan.Set(nq+2, 3, math.NaN())
	inf := mat.DenseCopyOf(s.A)
	inf.Set(5, 4, math.Inf(1))
	cases := []struct {
		name string
		A    *mat.Dense
	}{{"zero row", zeroRow}, {"duplicated row", dupRow}, {"NaN", nan}, {"Inf", inf}}
	for _, c := range cases {
		for _, warm := range []bool{false, true} {
			f, err := NewSparseLU(s.n, s.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if warm {
				if err := f.Factorize(s.A); err != nil {
					t.Fatal(err)
				}
			}
			if err := f.Factorize(c.A); !errors.Is(err, ErrSingular) {
				t.Errorf("%s (warm %v): err %v, want ErrSingular", c.name, warm, err)
			}
			luMustPanic(t, c.name+": Solve after a failed Factorize", func() { f.Solve(make([]float64, s.n)) })
			if err := f.Factorize(s.A); err != nil {
				t.Errorf("%s (warm %v): regular matrix after the singular one: %v", c.name, warm, err)
			}
		}
	}
	// Structurally singular: row 2 has no entry at all.
	pat := slices.Clone(s.pattern)
	pat[2] = nil
	f, err := NewSparseLU(s.n, pat)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Factorize(s.A); !errors.Is(err, ErrSingular) {
		t.Errorf("empty pattern row: err %v, want ErrSingular", err)
	}
}

// TestSparseLUFill: on the chain KKT matrix nnz(L + U) grows linearly with the number
// of bodies (measured 5706 for N = 100, 56036 for N = 1000: 9.8×), allowed up to 12×;
// and it stays within 1.2 of twice the Cholesky factor of the symmetrized pattern
// (measured 1.04 and 1.02), the size of L + U if every pivot were diagonal.
func TestSparseLUFill(t *testing.T) {
	var nnz [2]int
	for s, nb := range []int{100, 1000} {
		sys := kktLU(rand.New(rand.NewPCG(13, uint64(nb))), nb, chainJoints(nb), 0)
		f, err := NewSparseLU(sys.n, sys.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Factorize(sys.A); err != nil {
			t.Fatal(err)
		}
		nnz[s] = f.NNZ()
		t.Logf("N = %d: nnz(L+U) / (2 nnz(L_chol) + n) = %.3f", nb, float64(nnz[s])/float64(2*f.lEstimate+sys.n))
		if chol := 2*f.lEstimate + sys.n; float64(nnz[s]) > 1.2*float64(chol) {
			t.Errorf("N = %d: nnz(L+U) = %d, more than 1.2 × %d (Cholesky of A + Aᵀ)", nb, nnz[s], chol)
		}
	}
	t.Logf("nnz(L+U): N = 100: %d, N = 1000: %d", nnz[0], nnz[1])
	if r := float64(nnz[1]) / float64(nnz[0]); r > 12 {
		t.Errorf("nnz(L+U) grows by %.2f from N = 100 to 1000, want ≤ 12 (linear)", r)
	}
}

// TestSparseLUInputForms: the At path (any mat.Matrix) and Values/Factor give exactly
// the results of the *mat.Dense path, and entries outside the pattern are ignored.
func TestSparseLUInputForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	s := bdfLU(rng, 8, treeJoints(8), 0)
	b := luRandVec(rng, s.n)
	want, f := luSparseSolve(t, s, b)
	garbage := mat.DenseCopyOf(s.A)
	for i, row := range s.pattern {
		if len(row) < s.n && !slices.Contains(row, (i+1)%s.n) {
			garbage.Set(i, (i+1)%s.n, 1e300)
		}
	}
	for _, c := range []struct {
		name string
		A    mat.Matrix
	}{{"At", struct{ mat.Matrix }{s.A}}, {"outside the pattern", garbage}} {
		g, err := NewSparseLU(s.n, s.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Factorize(c.A); err != nil {
			t.Fatal(err)
		}
		x := slices.Clone(b)
		g.Solve(x)
		if !slices.Equal(x, want) {
			t.Errorf("%s: solution differs from the *mat.Dense path by %.3g", c.name, luRelDiff(x, want))
		}
	}
	vals := f.Values()
	clear(vals)
	t0 := 0
	for i, row := range s.pattern {
		for _, j := range row {
			vals[t0] = s.A.At(i, j)
			t0++
		}
	}
	if err := f.Factor(); err != nil {
		t.Fatal(err)
	}
	x := slices.Clone(b)
	f.Solve(x)
	if !slices.Equal(x, want) {
		t.Errorf("Values/Factor: solution differs from Factorize by %.3g", luRelDiff(x, want))
	}
}

// TestSparseLUPatternErrors: every bad pattern is a *PatternError naming the row.
func TestSparseLUPatternErrors(t *testing.T) {
	cases := []struct {
		name    string
		pattern [][]int
		row     int
		text    string
	}{
		{"column out of range", [][]int{{0}, {1, 3}, {2}}, 1, "row 1: column 3 outside [0, 3)"},
		{"negative column", [][]int{{0}, {1}, {-1, 2}}, 2, "row 2: column -1"},
		{"unsorted", [][]int{{1, 0}, {1}, {2}}, 0, "row 0: columns not strictly increasing (0 after 1)"},
		{"duplicate", [][]int{{0}, {1, 2, 2}, {2}}, 1, "row 1: columns not strictly increasing (2 after 2)"},
		{"wrong row count", [][]int{{0}, {1}}, -1, "2 rows, want 3"},
	}
	for _, c := range cases {
		_, err := NewSparseLU(3, c.pattern)
		var pe *PatternError
		if !errors.As(err, &pe) {
			t.Errorf("%s: err %v, want *PatternError", c.name, err)
			continue
		}
		if pe.Block != "A" || pe.Row != c.row || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %q (block %s row %d), want block A row %d and %q", c.name, err, pe.Block, pe.Row, c.row, c.text)
		}
	}
	if _, err := NewSparseLU(0, nil); err == nil {
		t.Error("n = 0: no error")
	}
}

// TestSparseLUPanics: wrong sizes and Solve without a factorization are programming
// errors.
func TestSparseLUPanics(t *testing.T) {
	f, err := NewSparseLU(2, [][]int{{0, 1}, {0}})
	if err != nil {
		t.Fatal(err)
	}
	if f.NNZ() != 0 {
		t.Errorf("NNZ before Factorize = %d, want 0", f.NNZ())
	}
	luMustPanic(t, "Solve before Factorize", func() { f.Solve(make([]float64, 2)) })
	luMustPanic(t, "A 3×3", func() { _ = f.Factorize(mat.NewDense(3, 3, nil)) })
	if err := f.Factorize(mat.NewDense(2, 2, []float64{0, 2, 3, 0})); err != nil {
		t.Fatal(err)
	}
	// [0 2; 3 0] x = (4, 9): x = (3, 2), with the zero diagonal pivoted off.
	x := []float64{4, 9}
	f.Solve(x)
	if x[0] != 3 || x[1] != 2 {
		t.Errorf("solution %v, want [3 2]", x)
	}
	if f.NNZ() != 3 {
		t.Errorf("NNZ = %d, want 3 (U = diag(3, 2) after the row swap, and the entry 0/3 of L that the pattern holds)", f.NNZ())
	}
	luMustPanic(t, "len(b) 3", func() { f.Solve(make([]float64, 3)) })
}

func luMustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", name)
		}
	}()
	f()
}

// TestSparseLUZerosInPattern: a pattern that declares entries whose values are zero (as
// the Newton matrices' patterns do) stores only the nonzeros of L and U as values, and the
// full factorization, a refactorization and one where a declared zero became nonzero all
// solve as accurately as a pattern without those entries.
func TestSparseLUZerosInPattern(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	s := kktLU(rng, 30, chainJoints(30), 0)
	pattern := make([][]int, s.n) // every row also declares the columns within 4 of its own
	for i, row := range s.pattern {
		band := []int{}
		for j := max(0, i-4); j < min(s.n, i+5); j++ {
			band = append(band, j)
		}
		pattern[i] = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(row), band...))))
	}
	f, err := NewSparseLU(s.n, pattern)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, A *mat.Dense, full, refactor int) {
		t.Helper()
		if err := f.Factorize(A); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if f.FullFactorizations() != full || f.Refactorizations() != refactor {
			t.Errorf("%s: %d full factorizations and %d refactorizations, want %d and %d",
				what, f.FullFactorizations(), f.Refactorizations(), full, refactor)
		}
		b := luRandVec(rng, s.n)
		x := slices.Clone(b)
		f.Solve(x)
		if be := luBackwardError(A, x, b); be > 1e-14 {
			t.Errorf("%s: backward error %.3g, want ≤ 1e-14", what, be)
		}
		if e := luRelDiff(x, luDenseSolve(t, A, b)); e > 1e-9 {
			t.Errorf("%s: relative difference to dense LU %.3g, want ≤ 1e-9", what, e)
		}
	}
	check("first", s.A, 1, 0)
	if values := len(f.lnz) + len(f.unz) + s.n; values >= f.NNZ() {
		t.Errorf("%d values stored for L + U, want fewer than the %d entries of their patterns", values, f.NNZ())
	}
	A1 := perturbed(rng, s.A, 1e-3)
	check("mild change", A1, 1, 1)
	// A declared zero next to the diagonal of a coordinate row becomes nonzero.
	i := 0
	for slices.Contains(s.pattern[i], i+1) {
		i++
	}
	A1.Set(i, i+1, 1e-3*A1.At(i, i))
	check("a declared zero set", A1, 1, 2)

	// Every declared zero set, right after the first factorization: the nonzeros of L and
	// U fill their patterns, which the capacity of the values holds (sizeFactors), so the
	// refactorization allocates nothing.
	if f, err = NewSparseLU(s.n, pattern); err != nil {
		t.Fatal(err)
	}
	check("first (again)", s.A, 1, 0)
	A2 := mat.DenseCopyOf(A1)
	for r, cols := range pattern {
		for _, c := range cols {
			if A2.At(r, c) == 0 {
				A2.Set(r, c, 1e-6*A2.At(r, r)+1e-9)
			}
		}
	}
	before := len(f.lnz) + len(f.unz)
	var m0, m1 runtime.MemStats // the first such call: AllocsPerRun would warm up with it
	runtime.ReadMemStats(&m0)
	err = f.Factorize(A2)
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	if n := m1.Mallocs - m0.Mallocs; n != 0 {
		t.Errorf("refactorization with every declared zero set: %d allocations, want 0", n)
	}
	if f.FullFactorizations() != 1 || len(f.lnz)+len(f.unz) <= before {
		t.Errorf("every declared zero set: %d full factorizations (want 1), %d stored values of L + U (want more than %d)",
			f.FullFactorizations(), len(f.lnz)+len(f.unz), before)
	}
}

// TestLargestMagnitude: the real loop of largestMagnitude agrees with the builtin max
// over magnitude that the complex loop keeps, NaN included wherever it falls.
func TestLargestMagnitude(t *testing.T) {
	nan := math.NaN()
	for _, x := range [][]float64{
		{0, -3, 2, 0}, {math.Copysign(0, -1), 0}, {1, math.Inf(-1), 2}, {nan, 1, 2}, {1, nan, 2}, {1, 2, nan}, {},
	} {
		rows := make([]int32, len(x))
		want := 0.0
		for i, v := range x {
			rows[i] = int32(len(x) - 1 - i) // any order
			want = max(want, magnitude(v))
		}
		got := largestMagnitude(x, rows)
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("largestMagnitude(%v) = %v, want %v", x, got, want)
		}
		xc := make([]complex128, len(x))
		for i, v := range x {
			xc[i] = complex(0, v)
		}
		if gc := largestMagnitude(xc, rows); gc != want && !(math.IsNaN(gc) && math.IsNaN(want)) {
			t.Errorf("largestMagnitude(i·%v) = %v, want %v", x, gc, want)
		}
	}
}
