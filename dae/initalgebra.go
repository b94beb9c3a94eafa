package dae

import "fmt"

// InitFactorization chooses the linear algebra of Initialize.
type InitFactorization int

const (
	// InitAuto takes the sparse path for a SparseEvaluator with nq + nc ≥
	// sparseInitMinSize, the dense path otherwise.
	InitAuto InitFactorization = iota
	// InitDense partitions by pivoted QR factorizations of G (nc×nq) and solves eq. 17 with
	// the dense KKT matrix (nq + nc)²: O((nq + nc)²) memory, O((nq + nc)³) work.
	InitDense
	// InitSparse works on the patterns of a SparseEvaluator: linalg.SparseRankLU
	// partitions, linalg.SparseLU solves with G_red P̂ (the pivot sequence kept between
	// Newton iterations) and linalg.SparseKKT solves eq. 17; memory and work grow with the
	// nonzeros. Its choice of dependent coordinates can differ from the dense path's (both
	// give a non-singular G_red P̂), and with it the consistent position reached from a
	// guess that violates the constraints. Of each dependency among the rows, the row of
	// highest index it involves is named redundant where that keeps the rest independent:
	// for a duplicated joint the copy, as on the dense path; for the parallelogram's third
	// crank the crank listed last, where the dense pivoted QR names the row of smallest
	// weight after orthogonalization. A system that is not a SparseEvaluator is an error.
	InitSparse
)

// sparseInitMinSize is nq + nc from which InitAuto takes the sparse path. Below it the
// dense matrices take at most a few megabytes and the dense factorizations milliseconds,
// and the small models (the examples, the test problems) keep the partition the dense
// pivoted QR chooses. A chain of 200 bars (nq + nc = 1000) is the first to go sparse.
const sparseInitMinSize = 1000

// initAlgebra is what Initialize does with matrices, dense or sparse: G at the current
// position by rows, the partition of steps 1 and 2, the factorization of G_red P̂, the rank
// and the combinations of rows, and the solve of eq. 17.
type initAlgebra interface {
	// eval evaluates G(t, q).
	eval(t float64, q []float64)
	// row returns the columns and values of row i of G (shared; the dense path lists every
	// column).
	row(i int) (cols []int, vals []float64)
	// partition finds the independent rows (increasing), the redundant rows (increasing)
	// and the dependent columns (increasing) of G, avoiding keep. On error rows and
	// redundant are still set.
	partition(rankTol float64, keep []bool) (rows, redundant, dep []int, err error)
	// prepareDep sizes the factorization of G[rows, dep].
	prepareDep(rows, dep []int) error
	// factorDep factorizes G[rows, dep] at the current G; solveDep solves with it (b in the
	// order of rows, the solution in the order of dep).
	factorDep() error
	solveDep(b []float64)
	// rankRows returns the numerical rank of the rows of G.
	rankRows(rows []int, rankTol float64) int
	// combination returns the rows among rows whose gradients make up that of row w: those
	// with a coefficient not negligible (above 1e-8 of the largest; smaller ones are
	// rounding), all of rows when the coefficients cannot be found.
	combination(rows []int, w int) []int
	// solve17 overwrites a (holding f) and lred (holding γ_red) with the solution of eq. 17
	// restricted to rows.
	solve17(t float64, q []float64, rows []int, a, lred []float64) error
}

// newJacobian returns the algebra path asks for.
func newJacobian(sys System, path InitFactorization) (initAlgebra, error) {
	nq, nc := sys.Size()
	se, sparse := sys.(SparseEvaluator)
	switch path {
	case InitSparse:
		if !sparse {
			return nil, fmt.Errorf("dae: initialize: Factorization = InitSparse, but %T does not implement SparseEvaluator", sys)
		}
	case InitAuto:
		sparse = sparse && nq+nc >= sparseInitMinSize
	default:
		sparse = false
	}
	if sparse {
		return newSparseInit(sys, se, nq, nc)
	}
	return newDenseInit(sys, nq, nc), nil
}

// newJacobianValues is newJacobian(sys, InitAuto) for eval and row only: on the sparse
// path without the rank-revealing factorization's analysis, which Satisfied never runs.
// Like newJacobian it refuses (nil) a constraint pattern whose rows are not strictly
// increasing columns in [0, nq).
func newJacobianValues(sys System) initAlgebra {
	nq, nc := sys.Size()
	se, ok := sys.(SparseEvaluator)
	if !ok || nq+nc < sparseInitMinSize {
		return newDenseInit(sys, nq, nc)
	}
	s := newSparseG(sys, se, nq, nc)
	for i := range nc {
		cols, _ := s.row(i)
		for k, j := range cols {
			if j < 0 || j >= nq || k > 0 && j <= cols[k-1] {
				return nil
			}
		}
	}
	return s
}
