package linalg_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"linkage/linalg"
)

func randDense(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			m.Set(i, j, 2*rng.Float64()-1)
		}
	}
	return m
}

func randVec(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	return x
}

// relResidual returns ‖K x − b‖∞ / (‖K‖∞‖x‖∞ + ‖b‖∞), the normwise backward error.
func relResidual(K mat.Matrix, x, b []float64) float64 {
	n, _ := K.Dims()
	var r, xn, bn float64
	for i := range n {
		s := -b[i]
		for j := range n {
			s += K.At(i, j) * x[j]
		}
		r = math.Max(r, math.Abs(s))
		bn = math.Max(bn, math.Abs(b[i]))
		xn = math.Max(xn, math.Abs(x[i]))
	}
	return r / (mat.Norm(K, math.Inf(1))*xn + bn)
}

func TestLUSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 4, 30} {
		K := randDense(rng, n, n)
		b := randVec(rng, n)
		f := linalg.NewLU(n)
		if err := f.Factorize(K); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		x := append([]float64(nil), b...)
		f.Solve(x)
		// LU with partial pivoting is backward stable: backward error ≈ n·ε·growth, far
		// below 1e-12 for n ≤ 30 random matrices.
		if r := relResidual(K, x, b); r > 1e-12 {
			t.Errorf("n=%d: relative residual %.3g, want < 1e-12", n, r)
		}
	}
}

// TestLURefactorize: refactorizing a same-size matrix and solving reuse the LU's storage.
func TestLURefactorize(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	const n = 12
	K1, K2 := randDense(rng, n, n), randDense(rng, n, n)
	b := randVec(rng, n)
	x := make([]float64, n)
	f := linalg.NewLU(n)
	allocs := testing.AllocsPerRun(20, func() {
		if err := f.Factorize(K1); err != nil {
			t.Fatal(err)
		}
		copy(x, b)
		f.Solve(x)
		if err := f.Factorize(K2); err != nil {
			t.Fatal(err)
		}
		copy(x, b)
		f.Solve(x)
	})
	if allocs != 0 {
		t.Errorf("Factorize+Solve allocate %v times, want 0", allocs)
	}
	// The last factorization is K2's; same backward-error bound as TestLUSolve.
	if r := relResidual(K2, x, b); r > 1e-12 {
		t.Errorf("after refactorization: relative residual %.3g, want < 1e-12", r)
	}
	// Assembling in Matrix() and calling Factor is the copy-free path.
	K := f.Matrix()
	for i := range n {
		for j := range n {
			K.Data[i*K.Stride+j] = K1.At(i, j)
		}
	}
	if err := f.Factor(); err != nil {
		t.Fatal(err)
	}
	copy(x, b)
	f.Solve(x)
	if r := relResidual(K1, x, b); r > 1e-12 {
		t.Errorf("Matrix()+Factor: relative residual %.3g, want < 1e-12", r)
	}
}

func TestLUSingular(t *testing.T) {
	f := linalg.NewLU(3)
	// Row 1 = 2·row 0: elimination with multiplier ½ is exact and leaves a zero row, so
	// the last pivot is exactly 0. (A dependence with inexact multipliers leaves a pivot
	// of rounding size, which Factor does not flag; RCond measures that case.)
	S := mat.NewDense(3, 3, []float64{1, 2, 3, 2, 4, 6, 0, 1, 1})
	if err := f.Factorize(S); !errors.Is(err, linalg.ErrSingular) {
		t.Errorf("singular matrix: err %v, want ErrSingular", err)
	}
	for _, bad := range []float64{math.NaN(), math.Inf(-1)} {
		B := mat.NewDense(3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1})
		B.Set(1, 2, bad)
		if err := f.Factorize(B); !errors.Is(err, linalg.ErrSingular) {
			t.Errorf("matrix with %g: err %v, want ErrSingular", bad, err)
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("Solve after a failed factorization did not panic")
			}
		}()
		f.Solve(make([]float64, 3))
	}()
}

// TestLURCond: the condition estimate of diag(1, 1e-8) in the 1-norm is 1e-8; Gecon's
// estimate is exact for diagonal matrices up to rounding.
func TestLURCond(t *testing.T) {
	f := linalg.NewLU(2)
	D := mat.NewDense(2, 2, []float64{1, 0, 0, 1e-8})
	anorm := mat.Norm(D, 1)
	if err := f.Factorize(D); err != nil {
		t.Fatal(err)
	}
	if rc := f.RCond(anorm); math.Abs(rc-1e-8) > 1e-20 {
		t.Errorf("RCond = %.17g, want 1e-8", rc)
	}
}

// TestLUMatchesGetrf: above n = 64 LU runs its own serial blocked factorization instead of
// gonum's Getrf (whose parallel Dgemm allocates); the factors and solutions must be
// bitwise those of Getrf + Getrs, on dense random matrices, on sparse ones (zero
// multipliers, which both skip) and on a singular one (a repeated row).
func TestLUMatchesGetrf(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, c := range []struct {
		n        int
		density  float64
		singular bool
	}{{30, 1, false}, {64, 1, false}, {65, 1, false}, {130, 1, false}, {200, 0.05, false}, {300, 1, false}, {150, 1, true}} {
		K := randDense(rng, c.n, c.n)
		for i := range c.n {
			for j := range c.n {
				if rng.Float64() > c.density && i != j {
					K.Set(i, j, 0)
				}
			}
		}
		if c.singular {
			K.SetRow(c.n-1, K.RawRowView(c.n/3))
		}
		ref := blas64.General{Rows: c.n, Cols: c.n, Stride: c.n, Data: append([]float64(nil), K.RawMatrix().Data...)}
		ipiv := make([]int, c.n)
		refOK := lapack64.Getrf(ref, ipiv)
		f := linalg.NewLU(c.n)
		err := f.Factorize(K)
		if refOK != (err == nil) {
			t.Fatalf("n=%d: Getrf ok=%v, LU.Factorize err=%v", c.n, refOK, err)
		}
		for i, x := range f.Matrix().Data {
			if x != ref.Data[i] && !(math.IsNaN(x) && math.IsNaN(ref.Data[i])) {
				t.Fatalf("n=%d: factor entry (%d,%d) = %v, Getrf gives %v", c.n, i/c.n, i%c.n, x, ref.Data[i])
			}
		}
		if err != nil {
			continue
		}
		b := randVec(rng, c.n)
		x := append([]float64(nil), b...)
		f.Solve(x)
		lapack64.Getrs(blas.NoTrans, ref, blas64.General{Rows: c.n, Cols: 1, Stride: 1, Data: b}, ipiv)
		for i := range x {
			if x[i] != b[i] {
				t.Fatalf("n=%d: solution %d = %v, Getrs gives %v", c.n, i, x[i], b[i])
			}
		}
	}
}

// TestLUFactorAllocs: factorizing and solving at n > 64, where the factorization is
// blocked, allocates nothing (a Newton step refactorizes its matrix).
func TestLUFactorAllocs(t *testing.T) {
	const n = 150
	K := randDense(rand.New(rand.NewPCG(9, 9)), n, n)
	f := linalg.NewLU(n)
	x := make([]float64, n)
	allocs := testing.AllocsPerRun(3, func() {
		if err := f.Factorize(K); err != nil {
			t.Fatal(err)
		}
		f.Solve(x)
	})
	if allocs != 0 {
		t.Errorf("LU.Factorize + Solve at n=%d: %v allocations, want 0", n, allocs)
	}
}

// BenchmarkLUFactor: LU.Factorize of a dense random n×n matrix (entries uniform in
// [−1, 1]), the copy into the LU's storage included. Above n = 64 the factorization is
// blocked; allocs/op shows whether it runs without allocating.
func BenchmarkLUFactor(b *testing.B) {
	for _, n := range []int{64, 200, 500, 1000} {
		rng := rand.New(rand.NewPCG(5, uint64(n)))
		K := randDense(rng, n, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f := linalg.NewLU(n)
			b.ReportAllocs()
			for b.Loop() {
				if err := f.Factorize(K); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
