package integrate

// constraintWeights are the weights of the first-order form's λ rows (semiExplicit's
// constraintRow) on δq, δv and δa in the mass part of bdf's Newton matrix, ∂c/∂(q, v, a)
// ≈ G·(w_q, w_v, w_a), leaving out the derivatives of G and γ as bdfMassPrecond leaves out
// ∂(G v)/∂q:
//
//	index3 g: (1, 0, 0);   index2 G v + g_t: (0, 1, 0);   index2-baumgarte + α₀ g: (α₀, 1, 0);
//	index1 G a − γ: (0, 0, 1);   baumgarte G a − γ + 2α(G v + g_t) + β g: (β, 2α, 1).
//
// With δv = (δa + r_v)/c and δq = (δa + w)/c² (the q and v rows, w = c r_q + r_v − c Gᵀδμ),
// the λ rows −G(w_q δq + w_v δv + w_a δa) = r_λ become G δa = s (accelRow), the right side
// of the constraint rows of bdfMassPrecond's [M Gᵀ; G 0] (index2: s = −c r_λ − G r_v).
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

// accelRow returns s of constraint row g in the accelerations' saddle-point system
// G δa = s (bdfMassPrecond.solve) for w = c r_q + r_v − c Gᵀδμ, r_v, r_λ and c = c_j:
// with δv = (δa + r_v)/c and δq = (δa + w)/c², the row −g·(w_q δq + w_v δv + w_a δa) = r_λ
// times c² reads (w_q + c w_v + c² w_a) g·δa = −c² r_λ − w_q g·w − c w_v g·r_v.
func (w constraintWeights) accelRow(g, wv, rv []float64, rl, c float64) float64 {
	num := -c * c * rl
	if w.q != 0 {
		num -= w.q * dot(g, wv)
	}
	if w.v != 0 {
		num -= c * w.v * dot(g, rv)
	}
	return num / (w.q + c*w.v + c*c*w.a)
}
