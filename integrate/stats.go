package integrate

import (
	"errors"

	"linkage/linalg"
)

// Stats counts the work of a run, in the units of the IVP test-set reports. Every counter
// has one meaning in every method; doc.go's table points here.
//
// An attempt is one try at a step of size h: one corrector run (implicit methods; a retry
// at the same h with a fresh Jacobian is a new corrector run) or one set of stages
// (explicit methods). Every attempt that is not accepted counts in exactly one of the four
// failure counters, by the cause the method reports in its *StepError, including the
// attempt whose failure ends the run:
//
//	Steps + Rejected + NewtonFailures + Singular + NonFinite = attempts
//
// Failures that make no attempt (HMin, MaxSteps, ErrNoProgress) count nowhere.
type Stats struct {
	Steps int `json:"steps"` // accepted steps
	// Rejected: attempts that produced a finite solution and were refused by their local
	// error estimate: the error test (e > 1) or, with FixedH, the divergence test
	// (ErrDiverged). Nothing else.
	Rejected int `json:"rejected"`
	// NewtonFailures: attempts abandoned because a Newton iteration (the corrector, a
	// projection, the position recovery of seed 000) did not converge (ErrNoConvergence:
	// rate θ ≥ 1, too slow, MaxIters). Not singular matrices, not NaN.
	NewtonFailures int `json:"newton_failures"`
	// Singular: attempts abandoned because an iteration or KKT matrix, or G in a
	// partition, was singular (linalg.ErrSingular).
	Singular int `json:"singular"`
	// NonFinite: attempts abandoned because a NaN or Inf appeared in a stage, a residual,
	// an iterate or an estimate (ErrNonFinite).
	NonFinite      int `json:"non_finite"`
	NewtonIters    int `json:"newton_iters"`   // all Newton iterations, rejected attempts included
	FuncEvals      int `json:"f_evals"`        // right-side evaluations (one: M, f, G, γ at one point), not counting FD Jacobians
	FDEvals        int `json:"fd_evals"`       // System evaluations spent on finite-difference Jacobians (of φ and of K for a dae.LinearlyImplicit system)
	Jacobians      int `json:"jacobians"`      // iteration-matrix assemblies, analytic or FD
	Factorizations int `json:"factorizations"` // LU factorizations (iteration and KKT matrices)
	Solves         int `json:"solves"`         // forward/back substitutions
	Projections    int `json:"projections"`    // position/velocity projections onto the constraint manifold
	// Repartitions: changes of the dependent/independent partition (seed 000, eqs. 7-8;
	// coordinate-partitioning methods gcp-newmark, gcp-fv, gcp-abm); 0 elsewhere.
	Repartitions int `json:"repartitions"`
	// Regularized: Newton iterations that failed with a fresh matrix and were retried with
	// the regularized saddle-point matrix (newtonRegEps; near a singular position or with
	// redundant constraints, issue 17). Each is a SingularPassage of the method.
	Regularized int `json:"regularized"`
	// DenseFallbacks: Newton iterations that failed with a fresh simplified mass matrix
	// (massNewton: systems with dae.MassSolver) and were retried with the exact dense
	// iteration matrix, which the method then keeps for massNewtonDenseSteps steps.
	DenseFallbacks int `json:"dense_fallbacks"`
}

// countFailure counts an attempt abandoned before its error test by its cause: NaN or Inf
// (ErrNonFinite), a singular matrix (linalg.ErrSingular), else a Newton iteration that did
// not converge. A cause wrapping both a NaN and a singular matrix counts as NonFinite,
// the first thing that went wrong.
func (s *Stats) countFailure(cause error) {
	switch {
	case errors.Is(cause, ErrNonFinite):
		s.NonFinite++
	case errors.Is(cause, linalg.ErrSingular):
		s.Singular++
	default:
		s.NewtonFailures++
	}
}

// Add returns the sum of s and o.
func (s Stats) Add(o Stats) Stats {
	return Stats{
		Steps: s.Steps + o.Steps, Rejected: s.Rejected + o.Rejected,
		NewtonFailures: s.NewtonFailures + o.NewtonFailures, Singular: s.Singular + o.Singular,
		NonFinite: s.NonFinite + o.NonFinite, NewtonIters: s.NewtonIters + o.NewtonIters,
		FuncEvals: s.FuncEvals + o.FuncEvals, FDEvals: s.FDEvals + o.FDEvals,
		Jacobians: s.Jacobians + o.Jacobians, Factorizations: s.Factorizations + o.Factorizations,
		Solves: s.Solves + o.Solves, Projections: s.Projections + o.Projections,
		Repartitions: s.Repartitions + o.Repartitions, Regularized: s.Regularized + o.Regularized,
		DenseFallbacks: s.DenseFallbacks + o.DenseFallbacks,
	}
}
