package integrate

import "math"

// genalpha's forward-dynamics Newton iteration (fdIter, fditer.go): on the joint route's
// trees the Newton matrix of eq. 70 is C·M(q₁) + h²(∂(M q̈)/∂q − ∂f/∂q) − h(γ/β) ∂f/∂v,
// C = (1 − α_m)/(β(1 − α_f)), and the iteration takes its mass part C·M(q₁) at the
// iterate itself: the increment of the scaled unknowns Δq is −C⁻¹ M(q₁)⁻¹ r_h, where
// M(q₁)⁻¹ r_h = h (q̈₁ − M(q₁)⁻¹(f + b)) is what the residual's forward-dynamics pass
// computes (fdRows). The terms it leaves out, h²C⁻¹M⁻¹K and h(γ/β)C⁻¹M⁻¹D, set its rate θ.

// fdRows writes the residual's dynamic rows scaled by M(q₁)⁻¹, h (q̈₁ − M(q₁)⁻¹(f + b)),
// into w.fdx and res by one forward-dynamics pass (scaledRows without its product with
// M(q_F)): the rows whose increment is −w.fdx/C (fdIncrement), and from which
// fdIter.leave factorizes. A failure report then names a row of M⁻¹ r_h (worstResidual).
func (w *genAlphaWork) fdRows(h, t1 float64) {
	w.accelerationRows(h, t1)
	copy(w.res[:w.nq], w.fdx)
	w.fdn.keep(&w.nw.mon, w.x, w.fdx)
	w.scaled, w.scaledFD = false, false
}

// fdIncrement applies the increment −w.fdx/C of the rows fdRows left and returns the
// norm and rounding level of incrementNorm and true; or, when its rate θ against the
// attempt's previous increment exceeds fdRate, restores the iterate, leaves the
// iteration for the factorized one (fdIter.leave) and returns false, res then holding the
// rows M(q₁)·w.fdx of the fresh matrix for that one's increment (krylov); when that
// factorization fails, a NaN norm and true, which the monitor calls divergence.
func (w *genAlphaWork) fdIncrement() (norm, roundoff float64, taken bool) {
	s := -1 / w.cM
	x, dx, fdx := w.x[:w.nq], w.dx[:w.nq], w.fdx[:w.nq]
	copy(w.kx, w.x) // the iterate, should the increment not be taken
	for i, r := range fdx {
		dx[i] = s * r
		x[i] += dx[i]
	}
	norm, roundoff = w.incrementNorm(w.hTry)
	if mon := &w.nw.mon; fdRated(mon) && w.fdn.poor(mon, norm) {
		copy(w.x, w.kx)
		if err := w.fdn.leave(&w.nw, w); err != nil {
			return math.NaN(), 0, true
		}
		return 0, 0, false
	}
	return norm, roundoff, true
}

// fdRestore is fdIteration's: back at the predicted unknowns and their rows when
// predicted (residualState at them: q₁, v₁, q̈₁ as the residual left them), and the rows
// marked as scaledRows' (factor writes the rows M(q₁)·w.fdx into res, and K_g takes its
// loads from w.fdx, loadAccel).
func (w *genAlphaWork) fdRestore(predicted bool) {
	if predicted {
		copy(w.x, w.fdn.u0)
		w.residualState(w.hTry)
		copy(w.fdx, w.fdn.x0)
	}
	w.scaled, w.scaledFD = true, true
}

// fdQuadratic raises the linear prediction a_{n+1} = a_n + h q⃛_n of the forward-dynamics
// iteration's attempts (predict) to the quadratic through the last three a, adding
// h(h + h_n)·(q⃛_n − q⃛_{n−1})/(h_n + h_{n−1}), the Newton form's third term, to a_{n+1}
// (hβ times it to Δq), from the third step on and when the linear prediction came closer
// than the constant one at the last step (constA false: hht's choice of its degree, raised
// by one, seed 004, prediction stage). The iteration converges linearly, at its rate θ,
// so its iterations follow the predictor's error where Newton's own hardly do: on
// Exudyn's revolute chain at h = 1 ms the linear prediction's first increment was 16 in
// the Newton norm against a Tol of 1e-3 at θ ≈ 0.013, which asks a third iteration; with
// the quadratic one 2.0 iterations per step, as hht's cubic one (BENCHMARKS.md,
// "genalpha's forward-dynamics Newton iteration"). The factorized iteration keeps the
// linear prediction.
func (w *genAlphaWork) fdQuadratic(h float64) {
	if !w.fdn.on || w.stats.Steps < 2 || w.constA {
		return
	}
	c := h * h * w.p.Beta * (h + w.hA) / (w.hA + w.hP)
	x, j, jp := w.x[:w.nq], w.jerk[:w.nq], w.jerkP[:w.nq]
	for i := range x {
		x[i] += c * (j[i] - jp[i])
	}
}
