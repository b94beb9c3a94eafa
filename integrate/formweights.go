package integrate

import "linkage/dae"

// bdfKrylovForm reports whether bdf's Newton-Krylov corrector (bdfMassPrecond) takes
// formulation form: ggl, index2, index3 and index2-baumgarte, whose accelerations are
// index-2 or -3 variables. index1 and baumgarte, whose accelerations are index-1
// variables that bdf's Newton stop weighs in full, are not on it: with the same
// preconditioner (λ rows G δa, plus 2α G δv + β G δq) bdf stopped at t = 0 with h below
// HMin on the joint route's planar 6-bar chain released from rest, whose dense path runs
// (measured 2026-11-26; at bdfGMRESRTol = 1e-9 too, so not the forcing term: most
// likely the forward differences of bdf's residual in unscaled variables, in which the
// short first steps' q and v parts of a product are lost against a's). Above
// massNewtonDenseMax coordinates they are refused (refuseDenseNewton, bdfRefuseDense).
func bdfKrylovForm(form Formulation) bool {
	switch form {
	case StabilizedIndex2, Index2, Index3, Index2Baumgarte:
		return true
	}
	return false
}

// constraintWeights are the weights of the first-order form's λ rows (semiExplicit's
// constraintRow) on δq and δv in the mass part of bdf's Newton matrix, ∂c/∂(q, v) ≈
// G·(w_q, w_v), leaving out the derivatives of G as bdfMassPrecond leaves out ∂(G v)/∂q:
//
//	index3 g: (1, 0);   index2 G v + g_t: (0, 1);   index2-baumgarte G v + g_t + α₀ g: (α₀, 1).
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
	switch form {
	case Index3:
		return constraintWeights{1, 0}
	case Index2Baumgarte:
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
		why = "its accelerations are index-1 variables there, see bdfKrylovForm"
	}
	return refuseDenseNewton("bdf", form, sys, why)
}
