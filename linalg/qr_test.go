package linalg_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/linalg"
)

// smallestSV returns σ_min/σ_max of the columns cols of A.
func smallestSV(A *mat.Dense, cols []int) float64 {
	r, _ := A.Dims()
	S := mat.NewDense(r, len(cols), nil)
	for k, j := range cols {
		for i := range r {
			S.Set(i, k, A.At(i, j))
		}
	}
	var svd mat.SVD
	svd.Factorize(S, mat.SVDNone)
	s := svd.Values(nil)
	return s[len(s)-1] / s[0]
}

// TestPivotedQRRank: A = [c0, 2c0, c1, c0 + c1, c2 − c1] with random c0, c1, c2 has rank 3,
// and the first three pivots are independent columns.
func TestPivotedQRRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const m = 6
	c := randDense(rng, m, 3)
	A := mat.NewDense(m, 5, nil)
	for i := range m {
		c0, c1, c2 := c.At(i, 0), c.At(i, 1), c.At(i, 2)
		A.SetRow(i, []float64{c0, 2 * c0, c1, c0 + c1, c2 - c1})
	}
	f := linalg.NewPivotedQR(m, 5)
	f.Factorize(A, false)
	// 1e-10: dependent columns leave |R_kk| at rounding level (~1e-16·|R_00|); independent
	// random columns are O(1).
	if r := f.Rank(1e-10); r != 3 {
		t.Errorf("rank %d, want 3 (RDiag %v)", r, f.RDiag(nil))
	}
	perm := f.Perm()
	if p := slices.Sorted(slices.Values(perm)); !slices.Equal(p, []int{0, 1, 2, 3, 4}) {
		t.Errorf("Perm %v is not a permutation", perm)
	}
	// σ_min/σ_max of three random independent columns is O(0.1); 1e-6 separates it from
	// the ~1e-16 of a dependent set.
	if s := smallestSV(A, perm[:3]); s < 1e-6 {
		t.Errorf("leading pivots %v are dependent: σ ratio %.3g", perm[:3], s)
	}
	d := f.RDiag(nil)
	for k := 1; k < len(d); k++ {
		if d[k] > d[k-1]*(1+1e-12) {
			t.Errorf("|R_kk| increases at %d: %v", k, d)
		}
	}
}

// TestPivotedQRRows: transpose finds independent rows. G has rows r0, r1, r0 + r1, 3·r1:
// rank 2, and (as in dae.Initialize) the leading pivots are two independent rows.
func TestPivotedQRRows(t *testing.T) {
	G := mat.NewDense(4, 3, []float64{
		1, 2, 0,
		0, 1, -1,
		1, 3, -1,
		0, 3, -3,
	})
	f := linalg.NewPivotedQR(3, 4)
	f.Factorize(G, true)
	// Same threshold as TestPivotedQRRank.
	if r := f.Rank(1e-10); r != 2 {
		t.Fatalf("rank %d, want 2 (RDiag %v)", r, f.RDiag(nil))
	}
	p := f.Perm()[:2]
	var GT mat.Dense
	GT.CloneFrom(G.T())
	if s := smallestSV(&GT, p); s < 1e-6 {
		t.Errorf("leading rows %v are dependent (σ ratio %.3g)", p, s)
	}
	// Ties: 3·r1 has the largest norm (√18), so it is the first pivot.
	if f.Perm()[0] != 3 {
		t.Errorf("first pivot row %d, want 3 (largest norm)", f.Perm()[0])
	}
}

func TestPivotedQRDegenerate(t *testing.T) {
	f := linalg.NewPivotedQR(3, 2)
	f.Factorize(mat.NewDense(3, 2, nil), false)
	if r := f.Rank(1e-10); r != 0 {
		t.Errorf("zero matrix: rank %d, want 0", r)
	}
	I := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0, 0})
	f.Factorize(I, false)
	if r := f.Rank(1e-10); r != 2 {
		t.Errorf("full column rank: rank %d, want 2", r)
	}
	// Refactorizing reuses the storage.
	if n := testing.AllocsPerRun(10, func() { f.Factorize(I, false) }); n != 0 {
		t.Errorf("Factorize allocates %v times, want 0", n)
	}
}

// TestPivotedQRAllocatesNothing: the rank test of a Newton failure (integrate's
// diagnoseSingular) factorizes Gᵀ of models with hundreds of rows inside a step, which
// must not allocate. Blocked Householder updates run through gonum's dgemm, which
// allocates for large matrices; the unblocked factorization does not.
func TestPivotedQRAllocatesNothing(t *testing.T) {
	const m, n = 350, 200 // Gᵀ of a 50-rod spatial chain
	rnd := rand.New(rand.NewPCG(3, 4))
	A := mat.NewDense(m, n, nil)
	for i := range m {
		for j := range n {
			A.Set(i, j, rnd.NormFloat64())
		}
	}
	f := linalg.NewPivotedQR(m, n)
	f.Factorize(A, false)
	if allocs := testing.AllocsPerRun(3, func() { f.Factorize(A, false) }); allocs != 0 {
		t.Errorf("Factorize of a %d×%d matrix allocates %v times, want 0", m, n, allocs)
	}
	if r := f.Rank(1e-12); r != n {
		t.Errorf("rank of a random %d×%d matrix = %d, want %d", m, n, r, n)
	}
}
