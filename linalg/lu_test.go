package linalg_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

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
