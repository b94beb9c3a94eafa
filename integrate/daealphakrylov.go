package integrate

import "linkage/dae"

// daeAlphaKrylov is the Newton-Krylov corrector of daealpha's index-2 form (eqs. 3.3) on
// dae.MassSolver systems: GMRES on differences of the residual (gmres.go), so the
// increments are those of the exact Newton matrix of daeAlphaWork.factor, preconditioned
// by its mass part in the unknowns (q₁, v₁, ν, μ),
//
//	[ A     0  Gᵀ 0  ]
//	[ −κ M  M  0  Gᵀ ]      κ = γ̂/(β̂h),  A = M + β̂h² K_g (stiffen)
//	[ 0     G  0  0  ]
//	[ G     0  0  0  ]
//
// which is two saddle-point systems of massNewton (c = 1): [A Gᵀ; G 0](Δq, ν) from the
// rows of eqs. 3.3a, d, then [M Gᵀ; G 0](Δv − κΔq, μ − κν) from those of eqs. 3.3b, c
// less κ times them, one factorization and two articulated-body solves per application
// (with constraint rows the second block is A too: one factorization of G A⁻¹ Gᵀ serves
// both). The v rows less κ × the q rows are M (w₂ − κ w₁) − (γ̂h − κβ̂h²) f + Gᵀ(μ − κν),
// and γ̂h = κβ̂h², so f, f_q and f_v cancel there exactly and (M w₂ − κ M w₁)_q, (Gᵀ(μ −
// κν))_q vanish as the iterate settles (w₂ ≈ κ w₁, μ ≈ κν): the O(h) coupling γ̂h K Δq of
// the v rows, which grows with the chain's loads, is taken exactly by the −κM block.
// The terms left out are of order h² in the q rows (β̂h² (K − K_g), β̂h² f_v) and
// ∂(G v)/∂q in the velocity-constraint rows, which couples Δq into the second system only
// (a block triangular part GMRES resolves in few products). Measured on the 1000-rod open
// chain at h = 4.4 ms (BenchmarkFixedStepCost, BENCHMARKS.md "K_g at the forward-dynamics
// accelerations in genalpha and daealpha"): 11-12 evaluations per step with the block
// diagonal [M; M] v block, 5 (one product per solve) with this one. The dynamic rows are
// scaled by M(q_F) M(q)⁻¹ as massNewton.scaleRows does for genalpha.
type daeAlphaKrylov struct {
	mn                 *massNewton
	mm                 dae.MassMultiplier
	kr                 *gmres
	kx, kb, kres, kraw []float64  // iterate and residual at the GMRES base point, right side, raw residual
	u                  []float64  // one saddle-point right side (nq + nc)
	rec                *massSchur // index1-proj: [M Gᵀ; G 0] of the projections, eqs. 2.5b-e (nil for index2)
	scaled             bool       // res holds scaled dynamic rows (kraw the raw ones)
	a                  []float64  // the iterate's accelerations (q₁ − q̂_n)/(β̂h²) for K_g (nq)
	lam                []float64  // index2: the iterate's multipliers ν/(β̂h²) for K_g's loop-closure loads (nc)
	r14                []float64  // the q rows' right side (r₁, r₄) of a preconditioner application (nq + nc)
}

// newDAEAlphaKrylov returns the corrector for w's system, or nil when the system has no
// dae.MassSolver and dae.MassMultiplier or has Pfaffian rows. λ-dependent forces it
// takes: the residual carries f_λ pressed by the iterate's μ or ν (reactionLambda), so
// GMRES's difference products hold ∂f_λ/∂λ beside Gᵀ and ∂f_λ/∂q, ∂f_λ/∂v, which the
// preconditioner lacks.
func newDAEAlphaKrylov(w *daeAlphaWork) *daeAlphaKrylov {
	mm, ok := w.sys.(dae.MassMultiplier)
	if !ok || daeAlphaDenseWhy(Index2, w.sys) != "" {
		return nil
	}
	mn := newMassNewtonReaction(w.sys)
	if mn == nil {
		return nil
	}
	vec := func(n int) []float64 { return make([]float64, n) }
	k := &daeAlphaKrylov{mn: mn, mm: mm, kr: newGMRES(w.nx),
		kx: vec(w.nx), kb: vec(w.nx), kres: vec(w.nx), kraw: vec(w.nx), u: vec(w.nq + w.nc), a: vec(w.nq), lam: vec(w.nc), r14: vec(w.nq + w.nc)}
	if w.proj {
		k.rec = massSchurOf(w.sys) // eq. 17 with f_λ by rxa's Newton on λ on it
	}
	return k
}

// scale overwrites the dynamic rows (eqs. 3.3a, b) of w's residual at (t, q) with
// M(q_F) M(q)⁻¹ times them while the preconditioner is the method's factorization,
// keeping the raw residual in kraw for a fresh matrix at this iterate.
func (k *daeAlphaKrylov) scale(w *daeAlphaWork, t float64, q []float64) {
	if k.scaled = k.mn.inUse(); !k.scaled {
		return
	}
	copy(k.kraw, w.res)
	if !w.proj { // index1-proj's second rows (eq. 2.6) have no M
		k.mn.scaleRows(w.res[w.nq:2*w.nq], k.mm, t, q)
	}
	k.mn.scaleRows(w.res[:w.nq], k.mm, t, q) // last: mn.x holds M(q)⁻¹ r₁ for stiffen
}

// unscale restores the raw residual after a fresh matrix at the iterate, where the
// scaling is I.
func (k *daeAlphaKrylov) unscale(res []float64) {
	if k.scaled {
		copy(res, k.kraw)
		k.scaled = false
	}
}

// daeAlphaKrylovSystem adapts daeAlphaWork to krylovSystem.
type daeAlphaKrylovSystem struct{ w *daeAlphaWork }

// increment applies the Newton increment J⁻¹(−res) of the exact matrix to w.x by GMRES.
func (k *daeAlphaKrylov) increment(w *daeAlphaWork) {
	copy(k.kx, w.x)
	copy(k.kres, w.res)
	for i, r := range w.res {
		k.kb[i] = -r
	}
	k.mn.solved(k.kr.solve(daeAlphaKrylovSystem{w}, k.kb))
	copy(w.dx, k.kb)
	copy(w.res, k.kres) // for worstResidual
	for i, d := range w.dx {
		w.x[i] = k.kx[i] + d
	}
}

// jacVec writes J z ≈ (r(x + εz) − r(x))/ε into dst (krylovSystem), ε from perturb on the
// scale 1 + ‖x‖ of the unknowns themselves: x holds q₁ and v₁, not an increment that moves
// them by a factor of h, so no larger position scale applies. The scale (1 + ‖q‖)/h moved
// q₁ by 1/h times its own (230 × at h = 4.4 ms): from the loaded 1000-rod chain index1-proj
// then took 4 Newton iterations and 16 evaluations per step at that h, against 2 and 7
// with this scale, as at N = 100 (BENCHMARKS.md, "gcp-newmark's products on the 1000-rod
// chain").
func (s daeAlphaKrylovSystem) jacVec(dst, z []float64) {
	w, k := s.w, s.w.kry
	eps := perturb(w.x, k.kx, z, 0, k.kr.noise)
	if eps == 0 {
		clear(dst)
		return
	}
	_ = w.residual() // a non-finite product leaves a non-finite increment, which fails the attempt
	for i := range dst {
		dst[i] = (w.res[i] - k.kres[i]) / eps
	}
}

// precondition applies the inverse of the mass part (krylovSystem): the two
// saddle-point systems of daeAlphaKrylov, the second on the v rows less κ × the q rows.
func (s daeAlphaKrylovSystem) precondition(x []float64) {
	w, k := s.w, s.w.kry
	nq, nc := w.nq, w.nc
	if w.proj {
		k.preconditionProj(w, x)
		return
	}
	r3, r4 := x[2*nq:2*nq+nc], x[2*nq+nc:]
	for i := range r3 { // rows (3.3c, d) to the places of their solutions' (μ, ν)
		r3[i], r4[i] = r4[i], r3[i]
	}
	copy(k.r14[:nq], x[:nq])
	copy(k.r14[nq:], r3) // r₄, now in ν's place
	stiff := k.mn.schur.stiff
	kap := w.gammaHat / (w.betaHat * w.hTry)
	for p := range 2 { // (Δq, ν) ← (r₁, r₄), then (Δv, μ) ← (r₂, r₃)
		xs, ys := x[p*nq:(p+1)*nq], x[2*nq+p*nc:2*nq+(p+1)*nc]
		copy(k.u[:nq], xs)
		copy(k.u[nq:], ys)
		if p == 1 { // (Δv − κΔq, μ − κν) ← (r₂ − κr₁, r₃ − κr₄): the v rows less κ × the q rows
			for i, r := range k.r14 {
				k.u[i] -= kap * r
			}
		}
		k.mn.solve(k.u)
		if p == 1 {
			for i := range xs {
				k.u[i] += kap * x[i]
			}
			for i := range ys {
				k.u[nq+i] += kap * x[2*nq+i]
			}
		}
		copy(xs, k.u[:nq])
		copy(ys, k.u[nq:])
		if w.nc == 0 {
			k.mn.schur.stiff = 0 // the v rows' block is M (stiffen: no factor of G to redo)
		}
	}
	k.mn.schur.stiff = stiff
}

// stiffen puts β̂h² K_g beside M in the q rows' block of the next factorization on a
// dae.StiffMassSolver system: eq. 3.3a's derivative in q₁ is M + (M w₁)_q − β̂h² f_q +
// (Gᵀν)_q with w₁ = q₁ − q̂_n ≈ β̂h² a and ν ≈ β̂h² λ, i.e. M + β̂h² K, K = (M a)_q − f_q +
// (Gᵀλ)_q, of which K_g (the geometric stiffness of the loads at the iterate's q₁, v₁ and
// accelerations, with index2's loop-closure loads at λ = ν/(β̂h²)) is the part the
// articulated-body recursion takes (massNewton.stiffen). The accelerations are the
// forward-dynamics ones x = M(q₁)⁻¹(f − Gᵀλ) = a − M(q₁)⁻¹ r₁/(β̂h²), not the iterate's a:
// GMRES differences the scaled rows M(q_F) M(q₁)⁻¹ r₁, whose derivative holds (M x)_q, as
// hht's and genalpha's (massNewton.stiffenFD); M(q₁)⁻¹ r₁ is scale's, or one mass solve at
// an unscaled residual. Without constraint rows the v rows' block stays M (eq. 3.3b in
// v₁); with rows index2 (and cs, cs-qr, which share this corrector) solves both blocks
// with M + β̂h² K_g, as one factorization of G A⁻¹ Gᵀ serves both (on the looped 1000-rod
// chain M alone took 12 GMRES products per Newton iteration, BENCHMARKS "The cost per
// step at fixed h against N"); index1-proj keeps M with rows.
func (k *daeAlphaKrylov) stiffen(w *daeAlphaWork, t float64, q, v []float64) {
	if w.nc > 0 && w.proj {
		return
	}
	c := w.betaHat * w.hTry * w.hTry
	if k.scaled { // M(q₁)⁻¹ r₁: scale left it in mn.x; of raw rows, one mass solve
		copy(k.a, k.mn.x)
	} else {
		k.mn.schur.ms.MassSolve(k.a, t, q, w.res[:w.nq])
	}
	for i, d := range w.w1 {
		k.a[i] = (d - k.a[i]) / c
	}
	var lam []float64
	if w.nc > 0 {
		for i, nu := range w.x[2*w.nq : 2*w.nq+w.nc] {
			k.lam[i] = nu / c
		}
		lam = k.lam
	}
	k.mn.stiffen(t, q, v, k.a, lam, c)
}

// preconditionProj applies the inverse of index1-proj's mass part,
//
//	[ M     0     Gᵀ  0 ]
//	[ −γ̂ I  β̂h I  0   0 ]
//	[ G     0     0   0 ]
//	[ 0     0     0   I ],
//
// which leaves out β̂h² f_q, β̂h² f_v, (M w₁)_q and (Gᵀν)_q in the first rows and (G w₁)_q,
// β̂h² γ_q, β̂h² γ_v in the third (all O(h) or smaller against the kept blocks): (Δq, ν)
// from [M Gᵀ; G 0] with the first and third rows, then Δv = (r₂ + γ̂ Δq)/(β̂h), μ = r₄.
func (k *daeAlphaKrylov) preconditionProj(w *daeAlphaWork, x []float64) {
	nq, nc, h := w.nq, w.nc, w.hTry
	dq, nu := x[:nq], x[2*nq:2*nq+nc]
	copy(k.u[:nq], dq)
	copy(k.u[nq:], nu)
	k.mn.solve(k.u)
	copy(dq, k.u[:nq])
	copy(nu, k.u[nq:])
	for i, d := range dq {
		x[nq+i] = (x[nq+i] + w.gammaHat*d) / (w.betaHat * h)
	}
}

// inUse reports whether the method's current factorization is the preconditioner (false
// for a nil corrector).
func (k *daeAlphaKrylov) inUse() bool { return k != nil && k.mn.inUse() }

// stale reports whether the factorization is not the kind the corrector should use now
// (massNewton.stale; false for a nil corrector).
func (k *daeAlphaKrylov) stale() bool { return k != nil && k.mn.stale() }

// daeAlphaDenseWhy says what keeps daealpha's form on sys off the Newton-Krylov corrector
// (refuseDenseNewton), or "".
func daeAlphaDenseWhy(form Formulation, sys dae.System) string {
	switch form {
	case Index2, Index1Projected:
		return denseWhyTakingReaction(sys)
	}
	return denseWhy(sys) // cs, cs-qr: the CM iteration's products (daeAlphaCM); their λ-dependent forces are refused before
}
