package integrate

import "math"

// hht's forward-dynamics Newton iteration (fdIter, fditer.go): on the joint route's trees
// its Newton matrix is the mass part M(q₁)/(1+α) of eq. 14 at the iterate itself, so that
// the increment Δa = −(1+α) M(q₁)⁻¹ e₁ is what the residual's own forward-dynamics pass
// already computes (fdRows). The terms it leaves out are the stiffness and damping ones,
// βh²(1+α)·M⁻¹∂(Ma − f)/∂q and γh(1+α)·M⁻¹∂(Ma − f)/∂v, which set its rate θ.

// fdReady reports whether the next attempt takes the forward-dynamics iteration.
func (w *hhtWork) fdReady() bool { return w.fdn.ready(w.mn) }

// fdRows writes the residual's dynamic rows scaled by M(q₁)⁻¹, x = ã − M(q₁)⁻¹(f + b), into
// e1 and w.e1x by one forward-dynamics pass, as scaledRows leaves x in w.e1x: the rows
// whose increment is −(1+α)x (fdIncrement), and from which fdIter.leave factorizes.
func (w *hhtWork) fdRows(e1 []float64, t1 float64, a, lambda []float64) {
	w.accelerationRows(e1, nil, t1, a, lambda)
	x := w.e1x[:w.nq]
	copy(e1, x)
	w.fdn.keep(&w.nw.mon, w.u, x)
	w.scaled, w.scaledFD = false, false
	w.stats.FuncEvals++
}

// fdIncrement turns the rows fdRows left in w.du (negated by increment) into the
// increment −(1+α)x and applies it, returning its norm and true; or, when its rate θ
// against the attempt's previous increment exceeds fdRate, leaves the iteration for the
// factorized one (fdIter.leave) and returns false, w.du then holding −e = −M(q₁)x for that
// one's increment, a chord step of the fresh matrix; when that factorization fails, a NaN
// norm and true, which the monitor calls divergence.
func (w *hhtWork) fdIncrement(h float64) (norm float64, taken bool) {
	s, du := 1+w.k.alpha, w.du[:w.nq]
	for i := range du {
		du[i] *= s
	}
	if mon := &w.nw.mon; fdRated(mon) && w.fdn.poor(mon, w.incrementNorm(h)) {
		if err := w.fdn.leave(&w.nw, w); err != nil {
			return math.NaN(), true
		}
		w.chordSlow = false
		for i, e := range w.du {
			w.du[i] = -e
		}
		return 0, false
	}
	return w.apply(h), true
}

// fdRestore is fdIteration's: back at the predicted unknowns and their rows when
// predicted, and the rows marked as scaledRows' (factor writes the rows M(q₁)x from
// w.e1x into w.du).
func (w *hhtWork) fdRestore(predicted bool) {
	if predicted {
		copy(w.u, w.fdn.u0)
		w.newmark(w.hTry)
		copy(w.e1x, w.fdn.x0)
	}
	w.scaled, w.scaledFD = true, true
}
