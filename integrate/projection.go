package integrate

import (
	"fmt"
	"math"

	"linkage/dae"
)

// projectPositions is the simplified Newton iteration of the position projection onto
// g(q) = 0 (seed 002 eq. 89, seed 003 eq. 2.5b): q ← q + Δq with [M Gᵀ; G 0](Δq, ν) =
// (0, −g(q)) on one factorization of the KKT matrix at the unprojected q, until every
// |Δq_i| ≤ tol·(1 + |q_i|). It reports false when maxIters iterations did not get there or
// q is no longer finite, leaving g(q) in r for the caller's verdict (projectionFailure).
// r has the size of g, dq that of q.
func projectPositions(sys dae.System, kkt interface{ Solve(x, y []float64) }, t float64, q, r, dq []float64,
	tol float64, maxIters int, stats *Stats) bool {
	for it := 1; ; it++ {
		sys.Constraint(r, t, q)
		for k := range r {
			r[k] = -r[k]
		}
		clear(dq)
		kkt.Solve(dq, r)
		stats.Solves++
		done := true
		for i, d := range dq {
			q[i] += d
			done = done && math.Abs(d) <= tol*(1+math.Abs(q[i]))
		}
		if done {
			return true
		}
		if it == maxIters || !allFinite(q) {
			sys.Constraint(r, t, q)
			return false
		}
	}
}

// projectionFailure is the error of a position projection that did not converge; it names
// the equation eq and records the worst constraint of g(q) (in r) as the step's residual.
func projectionFailure(sys dae.System, q, r []float64, worst *Residual, eq string) error {
	*worst = worstConstraint(sys, r)
	if !allFinite(q) {
		return ErrNonFinite
	}
	return fmt.Errorf("position projection (%s): %w", eq, ErrNoConvergence)
}
