package integrate

import "linkage/dae"

// bdfKrylovForm reports whether bdf's Newton-Krylov corrector (bdfMassPrecond) takes
// formulation form: ggl, index2 and index2-baumgarte, whose accelerations and
// multipliers are index-2 variables. The others are not on it (measured 2026-11-26, each
// with its λ rows in the preconditioner: G δa for index1, plus 2α G δv + β G δq for
// baumgarte, G δq for index3): index1 and baumgarte stopped at t = 0 with h below HMin on
// the joint route's planar 6-bar chain released from rest, index3 at t = 2.5e-9 on the
// RSSR four-bar closed by a revolute cut joint (joint/krylov_test.go's model) and at
// t = 1.1e-3 on the 1000-rod chain, where their dense paths run; index1 also with
// bdfGMRESRTol = 1e-9, so not the forcing term. Most likely cause, not isolated: bdf's
// forward differences in unscaled variables (bdfWork.jacVec), in which a short step's q
// and v parts of a product are lost against the a and λ parts, which are larger by
// 1/h^(k−1); radau5's differences in the scaled variables (radauKrylov) do not have it.
// Above massNewtonDenseMax coordinates these forms are refused (bdfRefuseDense).
func bdfKrylovForm(form Formulation) bool {
	switch form {
	case StabilizedIndex2, Index2, Index2Baumgarte:
		return true
	}
	return false
}

// constraintWeights are the weights of the first-order form's λ rows (semiExplicit's
// constraintRow) on δq and δv in the mass part of bdf's Newton matrix, ∂c/∂(q, v) ≈
// G·(w_q, w_v), leaving out the derivatives of G as bdfMassPrecond leaves out ∂(G v)/∂q:
//
//	index2 G v + g_t: (0, 1);   index2-baumgarte G v + g_t + α₀ g: (α₀, 1).
//
// With δv = c δq − r_q (the q rows), the λ rows −G(w_q δq + w_v δv) = r_λ become G δq = s,
//
//	s = (w_v G r_q − r_λ)/(w_q + c w_v),
//
// the right side of the constraint rows of [c² M Gᵀ; G 0] (index2: s = (G r_q − r_λ)/c).
// The GGL form has its own (the μ rows, bdfMassPrecond).
type constraintWeights struct{ q, v float64 }

// newConstraintWeights returns the weights of form (one of bdfKrylovForm's) with the α₀ of
// seed 002, eq. 87c.
func newConstraintWeights(form Formulation, alpha0 float64) constraintWeights {
	if form == Index2Baumgarte {
		return constraintWeights{alpha0, 1}
	}
	return constraintWeights{0, 1} // index2 (and GGL's velocity rows)
}

// schurRow returns s of constraint row g for the right sides r_q, r_λ and c = c_j.
func (w constraintWeights) schurRow(g, rq []float64, rl, c float64) float64 {
	return (w.v*dot(g, rq) - rl) / (w.q + c*w.v)
}

// bdfRefuseDense refuses bdf in form on a dae.MassSolver system above massNewtonDenseMax
// coordinates when it would take the dense Newton matrix there (refuseDenseNewton).
func bdfRefuseDense(sys dae.System, form Formulation) error {
	why := denseWhy(sys)
	if why == "" && !bdfKrylovForm(form) {
		why = "its corrector takes ggl, index2 and index2-baumgarte, see bdfKrylovForm"
	}
	return refuseDenseNewton("bdf", form, sys, why)
}
