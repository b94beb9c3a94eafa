package linalg

import (
	"math/rand/v2"
	"testing"
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
