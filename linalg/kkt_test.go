package linalg_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/linalg"
)

// assemble returns [A Bᵀ; C d·I] as a dense matrix, independently of KKT.
func assemble(A, B, C mat.Matrix, d float64) *mat.Dense {
	nq, _ := A.Dims()
	nc, _ := C.Dims()
	K := mat.NewDense(nq+nc, nq+nc, nil)
	K.Slice(0, nq, 0, nq).(*mat.Dense).Copy(A)
	K.Slice(0, nq, nq, nq+nc).(*mat.Dense).Copy(B.T())
	K.Slice(nq, nq+nc, 0, nq).(*mat.Dense).Copy(C)
	for i := range nc {
		K.Set(nq+i, nq+i, d)
	}
	return K
}

func TestKKTSolveSym(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const nq, nc = 7, 3
	R := randDense(rng, nq, nq)
	var M mat.Dense
	M.Mul(R.T(), R) // symmetric positive definite (almost surely)
	for i := range nq {
		M.Set(i, i, M.At(i, i)+1)
	}
	G := randDense(rng, nc, nq)
	k := linalg.NewKKT(nq, nc)
	if err := k.FactorizeSym(&M, G); err != nil {
		t.Fatal(err)
	}
	r, s := randVec(rng, nq), randVec(rng, nc)
	x, y := append([]float64(nil), r...), append([]float64(nil), s...)
	k.Solve(x, y)
	// Backward stable LU: relative residual ~ n·ε; 1e-12 leaves two orders of margin.
	if res := relResidual(assemble(&M, G, G, 0), append(x, y...), append(r, s...)); res > 1e-12 {
		t.Errorf("relative residual %.3g, want < 1e-12", res)
	}
	if n := testing.AllocsPerRun(20, func() {
		if err := k.FactorizeSym(&M, G); err != nil {
			t.Fatal(err)
		}
		k.Solve(x, y)
	}); n != 0 {
		t.Errorf("FactorizeSym+Solve allocate %v times, want 0", n)
	}
}

// TestKKTSingularMass: M = diag(2, 3, 0) with G = (0 0 1) is positive definite on
// ker G = span(e0, e1), so the KKT matrix is non-singular (seed 002, Lemma 1) and the
// solution is x = (r0/2, r1/3, s), y = r2. With G = (1 0 0) instead, M vanishes on
// e2 ∈ ker G and the matrix is singular.
func TestKKTSingularMass(t *testing.T) {
	M := mat.NewDense(3, 3, []float64{2, 0, 0, 0, 3, 0, 0, 0, 0})
	G := mat.NewDense(1, 3, []float64{0, 0, 1})
	k := linalg.NewKKT(3, 1)
	if err := k.FactorizeSym(M, G); err != nil {
		t.Fatalf("M positive definite on ker G: %v", err)
	}
	x, y := []float64{1, 4, -5}, []float64{0.25}
	k.Solve(x, y)
	want := []float64{0.5, 4.0 / 3, 0.25, -5}
	got := append(x, y...)
	for i := range want {
		// One division or copy per entry: exact to an ulp.
		if math.Abs(got[i]-want[i]) > 1e-15*math.Abs(want[i]) {
			t.Errorf("solution %v, want %v", got, want)
			break
		}
	}
	bad := mat.NewDense(1, 3, []float64{1, 0, 0})
	if err := k.FactorizeSym(M, bad); !errors.Is(err, linalg.ErrSingular) {
		t.Errorf("M zero on ker G: err %v, want ErrSingular", err)
	}
}

// TestKKTGeneral: the unsymmetric, regularized form [A Bᵀ; C d·I] of implicit methods.
func TestKKTGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	const nq, nc = 5, 2
	A := randDense(rng, nq, nq)
	for i := range nq {
		A.Set(i, i, A.At(i, i)+4)
	}
	B, C := randDense(rng, nc, nq), randDense(rng, nc, nq)
	const d = -1e-3
	k := linalg.NewKKT(nq, nc)
	if n, m := k.Size(); n != nq || m != nc {
		t.Errorf("Size = (%d, %d), want (%d, %d)", n, m, nq, nc)
	}
	if err := k.Factorize(A, B, C, d); err != nil {
		t.Fatal(err)
	}
	r, s := randVec(rng, nq), randVec(rng, nc)
	x, y := append([]float64(nil), r...), append([]float64(nil), s...)
	k.Solve(x, y)
	// Same backward-error bound as TestKKTSolveSym.
	if res := relResidual(assemble(A, B, C, d), append(x, y...), append(r, s...)); res > 1e-12 {
		t.Errorf("relative residual %.3g, want < 1e-12", res)
	}
	// nc = 0 is a plain LU of A.
	k0 := linalg.NewKKT(nq, 0)
	if err := k0.Factorize(A, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	x = append(x[:0], r...)
	k0.Solve(x, nil)
	if res := relResidual(A, x, r); res > 1e-12 {
		t.Errorf("nc = 0: relative residual %.3g, want < 1e-12", res)
	}
}
