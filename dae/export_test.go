package dae

// Routes of the large-model paths, forced on the tests' small systems.
var (
	ConstraintRankSparse = func(sys System, t float64, q []float64, tol float64) RankReport {
		return constraintRankSparse(sys, sys.(SparseEvaluator), t, q, tol)
	}
	ReduceLarge = func(sys System, keep []int) System { return reduce(sys, keep, true) }
)
