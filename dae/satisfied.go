package dae

import "fmt"

// Satisfied reports whether the guess (q, v) already satisfies every position and velocity
// constraint (eq. 19) within Initialize's default tolerances (InitOptions.Tol):
//
//	|g_i(t0, q)| ≤ 1e-12·max(1, s_q)   and   |(G v + g_t)_i| ≤ 1e-12·max(1, s_v)
//
// for every row i, redundant ones included. From such a guess Initialize takes no Newton
// step (its Q is q) and its velocity solve (step 4) changes v by rounding only, so a caller
// that needs no more than the consistent positions and velocities may take the guess and
// skip the partition and eq. 17, whose dense path costs O((nq + nc)³). The work here is
// one evaluation of g, g_t and G (on its pattern for a large SparseEvaluator, as
// Initialize's). A system with nonholonomic constraints, or a non-finite guess, is
// reported unsatisfied: Initialize decides those. len(q) or len(v) other than nq panics.
func Satisfied(sys System, t0 float64, q, v []float64) bool {
	nq, nc := sys.Size()
	if len(q) != nq || len(v) != nq {
		panic(fmt.Sprintf("dae: Satisfied: len(q) = %d, len(v) = %d, want nq = %d", len(q), len(v), nq))
	}
	if HasNonholonomic(sys) || checkGuess(sys, t0, q, v) != nil {
		return false
	}
	if nc == 0 {
		return true
	}
	G := newJacobianValues(sys)
	if G == nil {
		return false
	}
	G.eval(t0, q)
	g := make([]float64, nc)
	sys.Constraint(g, t0, q)
	all := seq(nc)
	sq := positionScale(G, nc, q)
	if !finite(sq) || worstAbove(g, all, defaultInitTol*sq) >= 0 {
		return false
	}
	gt := make([]float64, nc)
	sys.ConstraintTimeDerivative(gt, t0, q)
	res := make([]float64, nc)
	sv := velocityResiduals(res, G, gt, v)
	return finite(sv) && worstAbove(res, all, defaultInitTol*sv) < 0
}
