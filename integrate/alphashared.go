package integrate

import "gonum.org/v1/gonum/mat"

// The pieces that genalpha (on ℝⁿ) and lie-genalpha (on a Lie group, whose algebra makes
// the same iteration on ℝⁿ) share: written once here, so that the vector-space form and
// the group form of seed 002 eqs. 64, 67-70 cannot drift apart.

// alphaIndex3Entry completes the registry entry e of an α-method on the index-3 form (hht;
// genalpha, from which genalpha-si2, newmark and lie-genalpha derive): it has error control,
// takes forces that depend on λ and nonholonomic constraints, and its orders: q and v
// second order; λ first order over a run started in motion, by the index-3 start-up
// transient of the α-methods (seed 002, Example 8: C₁ n² ρ∞ⁿ |y'_0| h + C₂ h²; measured
// 0.45 → 0.22 → 0.11 for hht on the pendulum of the conformance suite), second order after
// the transient (at a t_end far from t_0) and from rest.
func alphaIndex3Entry(e Entry) Entry {
	e.Formulations = []Formulation{Index3}
	e.Nonholonomic = e.Formulations
	e.Order = Order{Q: 2, V: 2, Lambda: 1}
	e.Adaptive, e.ReactionForces = true, true
	return e
}

// alphaScheme is what the run of genalpha or lie-genalpha derives from its parameters p
// and its form: the unknowns of the Newton system (eqs. 67-70 in (Δq, hλ), and μ in the
// stabilized index-2 form, eqs. 93-94) and the constants of eq. 64.
type alphaScheme struct {
	p      GenAlphaParams
	si2    bool    // the stabilized index-2 form
	nx     int     // unknowns: Δq (Δw on a group), hλ (, μ)
	dAlpha float64 // α_m − α_f
	cM     float64 // (1 − α_m)/(β(1 − α_f)), eq. 70
	cErr   float64 // β − γ/2 + 1/12, local error constant of eq. 64a
}

// newAlphaScheme is the scheme of parameters p in formulation form for n velocity
// unknowns and nc constraints.
func newAlphaScheme(p GenAlphaParams, form Formulation, n, nc int) alphaScheme {
	s := alphaScheme{p: p, si2: form == StabilizedIndex2, nx: n + nc}
	if s.si2 {
		s.nx += nc
	}
	s.dAlpha, s.cM, s.cErr = p.newmarkCoefficients()
	return s
}

// newmarkCoefficients returns the constants of the α-method eqs. 64 that the step uses:
// α_m − α_f (the shift of the acceleration-like a_n), C = (1 − α_m)/(β(1 − α_f)) (the
// mass coefficient of the Newton matrix) and β − γ/2 + 1/12 (the local error constant of
// the position update).
func (p GenAlphaParams) newmarkCoefficients() (dAlpha, cM, cErr float64) {
	return p.AlphaM - p.AlphaF, (1 - p.AlphaM) / (p.Beta * (1 - p.AlphaF)), p.Beta - p.Gamma/2 + 1.0/12
}

// solveIncrement solves the Newton system lu·Δx = −res in dx and applies Δx to x.
func solveIncrement(lu *newtonFactor, res, dx, x []float64) {
	for i, r := range res {
		dx[i] = -r
	}
	lu.Solve(dx)
	for i, d := range dx {
		x[i] += d
	}
}

// noteIncrement tells the convergence monitor the rounding level of the last increment's
// norm and, with a reused matrix, not to trust the first increment alone (needRate; see
// genAlphaWork.increment).
func (n *newtonSolver) noteIncrement(roundoff float64) {
	n.mon.floor = roundoff
	n.mon.needRate = !n.fresh
}

// undampedIndex3 is the watch of an α-method with parameters p: an index3Watch for the
// index-3 form without numerical damping (α_m = α_f: γ = 1/2, ρ∞ = 1), else nil.
func undampedIndex3(index3 bool, p GenAlphaParams) *index3Watch {
	if index3 && p.AlphaM == p.AlphaF {
		return &index3Watch{}
	}
	return nil
}

// check is the test after every accepted step of the undamped index-3 form (observe); a
// nil watch (every other form) passes.
func (x *index3Watch) check(method string, cur *State, h float64) error {
	if x != nil && x.observe(h, cur.Lambda) {
		return x.fail(method, cur.T, h)
	}
	return nil
}

// advance makes (q, v, a, λ) at T + h the state s: the commit of an accepted step of the
// α-methods and the augmented Lagrangian ones, which iterate on their own copies of the
// new state.
func (s *State) advance(h float64, q, v, a, lambda []float64) {
	s.T += h
	copy(s.Q, q)
	copy(s.V, v)
	copy(s.A, a)
	copy(s.Lambda, lambda)
}

// constraintRows writes the constraint part of the α-methods' scaled residual (seed 002,
// eqs. 67-70 in the unknowns (Δq, hλ)): it adds Gᵀ hλ to the n equilibrium rows res[:n]
// (G is nc×n, hλ = hlam) and sets the constraint rows res[n+k] = g_k/h, g_h of eq. 69.
func constraintRows(res []float64, G *mat.Dense, hlam, g []float64, h float64) {
	_, n := G.Dims()
	for k, hl := range hlam {
		for i, gki := range G.RawRowView(k) {
			res[i] += gki * hl
		}
	}
	for k, gk := range g {
		res[n+k] = gk / h
	}
}

// rowProductsPlus sets dst[k] = y[k] + (row k of G)·x for the rows k ≥ from, summed from
// y[k] along the row: the velocity-level rows G v + g_t of the stabilized index-2 form
// (seed 002, eq. 94) and the Pfaffian rows A v + b.
func rowProductsPlus(dst []float64, G *mat.Dense, x, y []float64, from int) {
	for k := from; k < len(y); k++ {
		s := y[k]
		for i, gki := range G.RawRowView(k) {
			s += gki * x[i]
		}
		dst[k] = s
	}
}
