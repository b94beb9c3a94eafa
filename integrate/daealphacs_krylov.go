package integrate

// daeAlphaCM is the CM iteration of daealpha's coordinate-split forms (seed 003, eq. 3.6
// with P(q) from eqs. 3.7-3.9 or 3.10-3.11) on the joint route's Newton-Krylov corrector
// (daeAlphaKrylov): the iteration's own matrix applied in product form, not Newton on the
// projected equations.
//
// The CM iteration solves, at the iterate (q, v),
//
//	[ J  Gᵀ ] (δ, s) = −(Π r, G v + g_t, g),   J = ∂(M w₁ − β̂h² f, M w₂ − γ̂h f)/∂(q, v)
//	[ G  0  ]
//
// (DAEAlpha.factor without (Gᵀν)_q, (Gᵀμ)_q), and discards s. That matrix is the Jacobian
// of index2's residual (eqs. 3.3) at the same (q, v) with zero multipliers, where
// (Gᵀν)_q and (Gᵀμ)_q vanish: so its product with z is the difference of the unprojected
// residual between (q, v, 0, 0) + εz and (q, v, 0, 0), one residual evaluation and no P.
// P enters only the right side, Π r (coordSplit.project: an LU or QR of the nc×nq G, as
// on the dense path), once per iteration. Differencing the projected residual instead
// would give Newton's matrix for eq. 3.6, which keeps d(P r)/dq = P (Gᵀs)_q: the same
// fixed point (P(q) r = 0, the solution of eq. 3.3) by another iteration.
//
// The right side is the projected residual, not the raw one, although in exact arithmetic
// both give the same δ (Π r − r ∈ range Gᵀ moves s only): GMRES stops at a residual
// relative to its right side, and the raw r holds the constraint forces Gᵀν*, which do
// not vanish at the solution, so the forcing term would stall the iteration at a fixed
// fraction of them; Π r → 0 as the iteration converges.
//
// The preconditioner is index2's (daeAlphaKrylovSystem.precondition): its mass part
// [M Gᵀ; G 0] twice lacks (Gᵀν)_q, which the CM matrix lacks too.
type daeAlphaCM struct {
	proj []float64 // the residual of eq. 3.6 (Π r, scaled rows) at the iterate
	raw  bool      // residual evaluates index2's unprojected rows (the products)
}

// newDAEAlphaCM returns the CM products for w's coordinate-split form, or nil when w
// has no Newton-Krylov corrector.
func newDAEAlphaCM(w *daeAlphaWork) *daeAlphaCM {
	if w.kry == nil {
		return nil
	}
	return &daeAlphaCM{proj: make([]float64, w.nx)}
}

// unprojected reports whether the residual is to be evaluated without the CS matrix, as
// index2's rows with the iterate's multipliers (false for a nil c).
func (c *daeAlphaCM) unprojected() bool { return c != nil && c.raw }

// increment applies the CM increment to w.x, (δq, δv) of the system above by GMRES with
// the multipliers held at 0, w.res holding eq. 3.6's residual at w.x.
func (c *daeAlphaCM) increment(w *daeAlphaWork) {
	k, nq := w.kry, w.nq
	copy(c.proj, w.res)
	copy(k.kx, w.x)
	clear(k.kx[2*nq:]) // (Gᵀν)_q = 0: the products are the CM matrix's
	copy(w.x, k.kx)
	c.raw = true
	_ = w.residual() // a non-finite base leaves a non-finite increment, which fails the attempt
	copy(k.kres, w.res)
	for i, r := range c.proj {
		k.kb[i] = -r
	}
	k.mn.solved(k.kr.solve(daeAlphaKrylovSystem{w}, k.kb))
	c.raw = false
	copy(w.dx, k.kb)
	clear(w.dx[2*nq:]) // eq. 3.6 has no multipliers
	copy(w.res, c.proj) // for worstResidual
	for i, d := range w.dx {
		w.x[i] = k.kx[i] + d
	}
}
