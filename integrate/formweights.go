package integrate

// constraintWeights are the weights of the first-order form's λ rows (semiExplicit's
// constraintRow) on δq, δv and δa in the mass part of bdf's Newton matrix, ∂c/∂(q, v, a)
// ≈ G·(w_q, w_v, w_a), leaving out the derivatives of G and γ as bdfMassPrecond leaves out
// ∂(G v)/∂q:
//
//	index3 g: (1, 0, 0);   index2 G v + g_t: (0, 1, 0);   index2-baumgarte + α₀ g: (α₀, 1, 0);
//	index1 G a − γ: (0, 0, 1);   baumgarte G a − γ + 2α(G v + g_t) + β g: (β, 2α, 1).
//
// With δv = c δq − r_q and δa = c δv − r_v (the q and v rows), the λ rows
// −G(w_q δq + w_v δv + w_a δa) = r_λ become G δq = s,
//
//	s = (G((w_v + c w_a) r_q + w_a r_v) − r_λ)/(w_q + c w_v + c² w_a),
//
// the right side of the constraint rows of [c² M Gᵀ; G 0] (index2: s = (G r_q − r_λ)/c).
// The GGL form has its own (the μ rows, bdfMassPrecond).
type constraintWeights struct{ q, v, a float64 }

// newConstraintWeights returns the weights of se's form: α, β of seed 000 eq. 5 and α₀ of
// seed 002 eq. 87c come from se.
func newConstraintWeights(se *semiExplicit) constraintWeights {
	switch se.form {
	case Index3:
		return constraintWeights{1, 0, 0}
	case Index2Baumgarte:
		return constraintWeights{se.alpha0, 1, 0}
	case Index1:
		return constraintWeights{0, 0, 1}
	case Baumgarte:
		return constraintWeights{se.baumBeta, 2 * se.baumAlpha, 1}
	}
	return constraintWeights{0, 1, 0} // index2 (and GGL's velocity rows)
}

// schurRow returns s of constraint row g for the right sides r_q, r_v, r_λ and c = c_j.
func (w constraintWeights) schurRow(g, rq, rv []float64, rl, c float64) float64 {
	num := (w.v+c*w.a)*dot(g, rq) - rl
	if w.a != 0 {
		num += w.a * dot(g, rv)
	}
	return num / (w.q + c*w.v + c*c*w.a)
}
