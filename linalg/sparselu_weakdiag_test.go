package linalg

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSparseLUWeakDiagonalFill: when the preferred pivot of a column fails the threshold
// test, the full factorization takes the earliest row in the elimination order among
// those within a factor 10τ of the column's largest, not the largest itself, which may
// lie anywhere along the chain: on the 400-rod 3D chain (singular Euler-parameter mass
// blocks, whose diagonals after elimination are only βh² terms) the largest row carried
// fill along the chain, and nnz(U) of hht's Newton matrix ranged from 34 000 to 330 000
// between full factorizations, growing the factors' storage during steps. Here a chain
// KKT matrix whose mass diagonal is 1e-9 of its size on one coordinate of every body
// factors with nnz(L + U) within 1.2 × twice the Cholesky factor of the symmetrized
// pattern, as with diagonal pivots, and solves to a small backward error.
func TestSparseLUWeakDiagonalFill(t *testing.T) {
	const nb = 400
	rng := rand.New(rand.NewPCG(21, 22))
	sys := kktLU(rng, nb, chainJoints(nb), 0)
	for b := range nb {
		i := 3*b + 2
		sys.A.Set(i, i, 1e-9*sys.A.At(i, i))
	}
	f, err := NewSparseLU(sys.n, sys.pattern)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Factorize(sys.A); err != nil {
		t.Fatal(err)
	}
	chol := 2*f.lEstimate + sys.n
	t.Logf("nnz(L+U) = %d, Cholesky bound %d", f.NNZ(), chol)
	if float64(f.NNZ()) > 1.2*float64(chol) {
		t.Errorf("nnz(L+U) = %d, more than 1.2 × %d (Cholesky of A + Aᵀ)", f.NNZ(), chol)
	}
	b := luRandVec(rng, sys.n)
	x := append([]float64(nil), b...)
	f.Solve(x)
	if e := luBackwardError(sys.A, x, b); e > 1e-13 {
		t.Errorf("backward error %.2e, want ≤ 1e-13", e)
	}
}

// TestSparseLUUnpairedOrdering: rows without diagonal are left unpaired exactly when
// minimum degree on A + Aᵀ eliminates, before each, a neighbour with a diagonal that
// couples to it both ways (diagonalsFilled). A planar chain's KKT pattern [M Gᵀ; G 0]
// (three coordinates per body, two constraint rows per joint) goes unpaired and solves
// to a small backward error, its filled diagonals chosen under sparseLUPartnerTau; a star whose constraint rows each couple
// to one coordinate (minimum degree takes them first, degree 1) stays paired.
func TestSparseLUUnpairedOrdering(t *testing.T) {
	const nb = 200
	nq, nc := 3*nb, 2*nb
	pattern := make([][]int, nq+nc)
	add := func(i, j int) { pattern[i] = append(pattern[i], j) }
	for i := range nq {
		add(i, i)
	}
	for r := range nb { // joint r: body r−1 (ground for r = 0) to body r, rows nq+2r, nq+2r+1
		for _, row := range []int{nq + 2*r, nq + 2*r + 1} {
			var cols []int
			if r > 0 {
				cols = append(cols, 3*(r-1), 3*(r-1)+1, 3*(r-1)+2)
			}
			cols = append(cols, 3*r, 3*r+1, 3*r+2)
			for _, c := range cols {
				add(row, c)
				add(c, row)
			}
		}
	}
	for i := range pattern {
		slices.Sort(pattern[i])
	}
	lu, err := NewSparseLU(nq+nc, pattern)
	if err != nil {
		t.Fatal(err)
	}
	if !lu.unpaired {
		t.Fatalf("chain KKT pattern: paired, want unpaired")
	}
	rng := rand.New(rand.NewPCG(23, 24))
	a := mat.NewDense(nq+nc, nq+nc, nil)
	for i, row := range pattern {
		for _, j := range row {
			v := rng.Float64()*2 - 1
			if i == j {
				v = 1 + rng.Float64()
			}
			a.Set(i, j, v)
		}
	}
	if err := lu.Factorize(a); err != nil {
		t.Fatal(err)
	}
	b := make([]float64, nq+nc)
	for i := range b {
		b[i] = rng.Float64()
	}
	x := slices.Clone(b)
	lu.Solve(x)
	// TestSparseLURandom's bound. Measured: 5.7e-14 (paired 1.8e-14; unpaired with the
	// filled diagonals under τ rather than sparseLUPartnerTau 2.1e-13).
	if be := backwardError(a, x, b); be > 1e-13 {
		t.Errorf("unpaired chain: backward error %.2g", be)
	}

	// The star: hub coordinate 0 couples to coordinates 1..m; constraint row m+k couples
	// to coordinate k alone (both ways).
	const m = 30
	star := make([][]int, 2*m+1)
	star[0] = append(star[0], 0)
	for k := 1; k <= m; k++ {
		star[0] = append(star[0], k)
		star[k] = append(star[k], 0, k, m+k)
		star[m+k] = append(star[m+k], k)
	}
	s, err := NewSparseLU(2*m+1, star)
	if err != nil {
		t.Fatal(err)
	}
	if s.unpaired {
		t.Errorf("star with degree-1 constraint rows: unpaired, want paired")
	}
}
