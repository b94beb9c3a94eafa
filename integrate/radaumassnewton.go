package integrate

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// radauKrylov solves Radau5's two linear systems (Hairer & Wanner 1996, IV.8) on systems
// with dae.MassSolver and dae.MassMultiplier (the joint route) without forming M or an
// n×n matrix: it is the radauSystems of such a run while its massNewton is active.
//
//	(γ/h K − J) x = b                  (real, n unknowns)
//	((α+iβ)/h K − J) x = b             (complex, as 2n real unknowns (Re x, Im x))
//
// Each is solved by GMRES (gmres.go) whose products J z are forward differences of φ at
// the simplified Newton's point (t₀, y₀), one evaluation each (two for a complex z):
//
//	J z ≈ (φ(t₀, y₀ + σz) − φ(t₀, y₀))/σ,
//
// so the increments are those of RADAU5's simplified Newton iteration with the exact J,
// up to the forcing term. GMRES runs in the variables scaled by radau5's error and Newton
// scales sc (z̃ = z/sc): its relative residual is then measured in the norm of the
// stopping rule θ/(1−θ)·‖ΔW‖ ≤ FNEWT, and σ perturbs each component in proportion to
// its scale, σ = √ε(1 + ‖y₀/sc‖)/‖z̃‖ in RMS norms (as dense finite differences
// perturb a column by √ε of its size), so q is moved even where the index-scaled
// multipliers dominate z.
//
// The preconditioner is the mass part of each matrix, the matrix of bdfMassPrecond with
// c = γ/h (real) or c = (α+iβ)/h (complex): of −∂φ/∂y it keeps −I (q' = v, v' = a), M and
// Gᵀ (the force rows), G (the constraint rows, and Gᵀμ in the GGL q rows) and leaves out
// ∂f/∂q, ∂f/∂v and the q derivatives of M a, Gᵀλ, Gᵀμ and G v, of relative order h and h².
// Eliminating δq and δv leaves the real matrix [M Gᵀ; G 0] for (δa, δλ) (solveMass): for a
// complex c the real and imaginary parts are two real solves of eq. 17's matrix
// (massSchur), since M and G are real and c enters only in the right side and the back
// substitution. The complex system thus costs two articulated-body solves per
// preconditioner application, the real one one, and one factorization (nc + 1 solves,
// nc×nc Cholesky) serves both and every h.
//
// Inexact solves and the stopping rule: the increments carry relative errors up to the
// forcing term η = radauGMRESRTol in the scaled norm, so a rate θ below η measured from
// them is not a contraction the iteration can count on. radauMonitor therefore takes
// max(θ, η) as the rate (minRate), and FACCON ≥ η/(1−η): the error bound
// θ/(1−θ)·‖ΔW‖ then covers the inexactness of the last increment. As for hht, an
// iteration whose last GMRES solve missed its tolerance is not declared converged
// (massNewton.distrusted; at FixedH on exact products unless the miss was near,
// radauKrylov.nearMiss),
// and a failed attempt after a miss falls back to the dense
// matrices on systems of at most massNewtonDenseMax coordinates (Stats.DenseFallbacks).
// GMRES's own residual is that of its basis products combined: on the 1000-rod chain the
// increments it returned missed the system by 1e-2 to 0.7 where it reported 5e-4 (the
// products along its basis vectors err by 1e-2 or more at any σ, and the preconditioned
// operator amplifies them), the first cause found of radau5's Newton failures there
// (BENCHMARKS.md, "radau5's Newton iteration on the 1000-rod chain"; not fixed).
//
// On trees without constraint rows whose system offers dae.StiffMassSolver (the joint
// route's open chains) the a-blocks take the geometric stiffness by default, M + K_g/c²
// in both systems, the complex one by a complex articulated-body solve (radauStiff,
// Radau5.Stiffness; session 18): on the 1000-rod chain at the fixed steps 0.65-2.6 ms the
// products per complex solve fall from 3.4-19 to 1.2-1.4 and per real solve from 2.9-6.9
// to 1.0-1.6, the evaluations per step from 31-172 to 19-33 (BENCHMARKS.md, "radau5's
// preconditioner with the geometric stiffness"). Earlier, with K_g h²/|α+iβ|² for both
// systems (the wrong phase for the complex one; commit abdc794) or in the real system
// alone (session 11, commit a5d98db), it did not pay: the complex system's products set
// radau5's cost on the long chain, and the real K_g alone leaves them.
//
// With ApproxJacobian the matrix RADAU5 is given (semiExplicit.approxJacobian, which
// neglects the derivatives of f, M and G) is exactly this mass part, so each system is
// one preconditioner application and no products.
type radauKrylov struct {
	mn     *massNewton // switch state and the factorization of eq. 17's matrix at q₀
	mm     dae.MassMultiplier
	se     *semiExplicit
	stats  *Stats
	nq, nc int
	nh     int // the holonomic rows (nc without Pfaffian rows)
	n      int
	hasMu  bool
	index3 bool // the λ rows are g (index3 form), else G v + g_t
	approx bool
	GGt    []float64 // nh×nh Cholesky factor of G_H G_Hᵀ (GGL only)
	err    error     // of the last factorization

	t0            float64   // the simplified Newton's point (t₀, y₀) and φ(t₀, y₀)
	y0, f0        []float64 // radauWork's, not copies
	scal, kdiag   []float64 // radauWork's
	fr, ar, br    float64   // γ/h, α/h, β/h
	realOK        bool      // the last real solve reached its tolerance
	realRel       float64   // ... and its relative residual (gmres.rel)
	missRel       float64   // the larger relative residual of the last increment's two solves
	re, cx        *gmres    // n and 2n unknowns
	rs            *radauRealKrylov
	cs            *radauComplexKrylov
	b2            []float64 // the complex right side as (Re, Im)
	x, xi, yp, jx []float64 // n: unscaled z (real, imag), the perturbed y, J z
	jxi, im0      []float64 // n: J Im z; a zero imaginary part
	wr, wi        []float64 // nq: c r_q + r_v (index3)
	gmr, gmi      []float64 // nq: Gᵀδμ
	yw            float64   // ‖y₀/sc‖ of the current solve
	// dd gives the products exactly (jvExact) on systems with dae.DirectionalDerivatives,
	// nil: forward differences of φ; tq is its work vector (nq).
	dd dae.DirectionalDerivatives
	tq []float64
	// accel makes solveMass read the force rows r_a as M(q₀)⁻¹ r_a
	// (massSchur.SolveAccelerations), for the coupled stage solves (radauStages).
	accel bool
	// stiff puts the geometric stiffness beside M in the a-blocks (Radau5.Stiffness,
	// radauStiff), or nil.
	stiff *radauStiff
}

// radauGMRESRTol is the forcing term of radau5's GMRES solves, relative in the scaled
// norm of the Newton test; it is also the floor of the rate θ (see radauKrylov).
const radauGMRESRTol = 1e-3

// newRadauKrylov returns the Newton-Krylov systems for the first-order form se of sys, or
// nil when sys lacks dae.MassSolver or dae.MassMultiplier, or se is on the sparse
// evaluation path. Pfaffian rows (dae.PfaffianRows: ggl and index2, the forms that take
// them) join G in the saddle-point solve as in bdfMassPrecond (solveMass). With λ-dependent forces, above
// massNewtonDenseMax coordinates or with reactionKrylov (massNewtonFor), φ carries f_λ at
// the λ of y (semiExplicit.residual), so the differences jv hold its λ columns, which
// solveMass leaves out.
//
// Unless difference is set, the products are exact directional derivatives (jvExact) on a
// system with dae.DirectionalDerivatives, without λ-dependent forces and Pfaffian rows.
func newRadauKrylov(se *semiExplicit, approx, reactionKrylov, difference bool, stats *Stats) *radauKrylov {
	mm, ok := se.sys.(dae.MassMultiplier)
	if !ok || se.sp != nil {
		return nil
	}
	mn := massNewtonFor(se.sys, reactionKrylov)
	if mn == nil {
		return nil
	}
	nq, nc, n := se.nq, se.nc, se.n
	vec := func(k int) []float64 { return make([]float64, k) }
	k := &radauKrylov{mn: mn, mm: mm, se: se, stats: stats, nq: nq, nc: nc, n: n,
		nh: se.ncH, hasMu: se.hasMu, index3: se.form == Index3, approx: approx,
		re: newGMRES(n), cx: newGMRES(2 * n), b2: vec(2 * n),
		x: vec(n), xi: vec(n), yp: vec(n), jx: vec(n), jxi: vec(n), im0: vec(n),
		wr: vec(nq), wi: vec(nq), gmr: vec(nq), gmi: vec(nq)}
	k.re.rtol, k.cx.rtol = radauGMRESRTol, radauGMRESRTol
	k.re.noise.rms = true
	k.cx.noise, k.cx.measures = k.re.noise, false
	if k.hasMu {
		k.GGt = vec(se.ncH * se.ncH)
	}
	k.rs, k.cs = &radauRealKrylov{k}, &radauComplexKrylov{k}
	if dd := dae.AsDirectionalDerivatives(se.sys); dd != nil && !difference && se.rx == nil && se.ncH == nc {
		k.dd, k.tq = dd, vec(nq)
		k.re.measures = false // no increment to choose: diffNoise is not read
	}
	// M a by dae.MassMultiplier in φ; M and its work matrix only at a dense fallback.
	se.mm, se.ma = mm, vec(nq)
	se.M, se.work = nil, nil
	return k
}

// KrylovCounts returns the GMRES work of radau5's Newton-Krylov path so far (zero off
// it): real for the real system γ/h K − J (one per Newton iteration and per error
// estimate), cplx for the complex system (α+iβ)/h K − J (one per Newton iteration; each
// of its products takes two residual evaluations).
func (m *Radau5) KrylovCounts() (real, cplx KrylovCounts) {
	if m.w == nil || m.w.kry == nil {
		return KrylovCounts{}, KrylovCounts{}
	}
	return m.w.kry.re.total, m.w.kry.cx.total
}

// active reports whether the next Jacobian is the Newton-Krylov one (nil-safe).
func (k *radauKrylov) active() bool { return k != nil && k.mn.active() }

// factor prepares both systems at (t₀, q₀) with G there (nil when nc = 0).
func (k *radauKrylov) factor(t float64, q []float64, G *mat.Dense) {
	k.t0 = t
	k.err = k.mn.factor(t, q, G, 1)
	if k.err != nil || !k.hasMu || k.nc == 0 {
		return
	}
	k.err = factorGGt(k.GGt, G, k.nh, k.mn)
}

// decompose records γ/h, α/h, β/h (radauSystems): the factorization does not depend on
// h. A singular G M⁻¹ Gᵀ, or the singular mode (reg > 0: its regularized rows, whose
// infinite scales of a, λ, μ the scaled GMRES cannot take), fails as a singular matrix.
func (k *radauKrylov) decompose(_ *mat.Dense, _ []float64, fr, ar, br float64, reg float64) error {
	k.fr, k.ar, k.br = fr, ar, br
	if reg > 0 {
		k.mn.missed = true
		return linalg.ErrSingular
	}
	if k.err != nil {
		return linalg.ErrSingular
	}
	return nil
}

// solveReal overwrites b with (γ/h K − J)⁻¹ b (radauSystems).
func (k *radauKrylov) solveReal(b []float64) {
	if k.approx {
		k.solveMass(b, nil, complex(k.fr, 0))
		k.realOK = true
		return
	}
	k.beginSolve()
	k.realOK = k.re.solve(k.rs, b)
	k.realRel = k.re.rel
	for i, s := range k.scal {
		b[i] *= s
	}
}

// solveComplex overwrites b with (((α+iβ)/h) K − J)⁻¹ b (radauSystems) and records
// whether this and the preceding real solve (one Newton increment) reached their
// tolerance.
func (k *radauKrylov) solveComplex(b []complex128) {
	n := k.n
	br, bi := k.b2[:n], k.b2[n:]
	for i, z := range b {
		br[i], bi[i] = real(z), imag(z)
	}
	if k.approx {
		k.solveMass(br, bi, complex(k.ar, k.br))
	} else {
		k.beginSolve()
		ok := k.cx.solve(k.cs, k.b2)
		k.mn.solved(k.realOK && ok)
		k.missRel = math.Max(k.realRel, k.cx.rel)
		for i, s := range k.scal {
			br[i] *= s
			bi[i] *= s
		}
	}
	for i := range b {
		b[i] = complex(br[i], bi[i])
	}
}

// beginSolve computes ‖y₀/sc‖ (RMS) for the difference increments of a solve.
func (k *radauKrylov) beginSolve() {
	var s float64
	for i, y := range k.y0 {
		r := y / k.scal[i]
		s += r * r
	}
	k.yw = math.Sqrt(s / float64(k.n))
}

// jv writes J x into dst for the unscaled x = sc·z̃, by one evaluation of φ at
// y₀ + σx, σ = diffNoise.increment(1 + ‖y₀/sc‖, ‖z̃‖) (RMS norms; the noise measured by
// the real system's solver, shared by the complex one's), or 0 when z̃ = 0.
func (k *radauKrylov) jv(dst, x, zt []float64) {
	if k.dd != nil {
		k.jvExact(dst, x)
		return
	}
	zn := norm2(zt) / math.Sqrt(float64(k.n))
	if zn == 0 {
		clear(dst)
		return
	}
	sigma := k.re.noise.increment(1+k.yw, zn)
	for i, y := range k.y0 {
		k.yp[i] = y + sigma*x[i]
	}
	k.se.residual(dst, k.t0, k.yp)
	k.stats.FuncEvals++
	for i, f := range k.f0 {
		dst[i] = (dst[i] - f) / sigma
	}
}

// jvExact writes J x = ∂φ/∂y (t₀, y₀) x into dst from the system's directional
// derivatives (dae.DirectionalDerivatives), with x = (δq, δv, δa, δλ[, δμ]):
//
//	q rows: δv [− δ(Gᵀμ)]     v rows: δa     a rows: −δR − δ(Gᵀλ)
//	λ rows: G δq (index3) or δ(G v + g_t) (index2, ggl)     μ rows: G δq
//
// with R = M a − f (semiExplicit's φ). Exact to rounding where the differences of φ
// lose √ε·cond(M) along the slender rods' spins (BENCHMARKS.md, "radau5's Newton iteration
// on the 1000-rod chain"); it counts as one evaluation of φ in FuncEvals, as the
// difference it replaces (its cost in instructions: BENCHMARKS.md, "Exact directional
// derivatives in radau5's Newton-Krylov products").
func (k *radauKrylov) jvExact(dst, x []float64) {
	se, t := k.se, k.t0
	k.stats.FuncEvals++
	q, v, a, lam, mu := se.blocks(k.y0)
	dq, dv, da, dl, dm := se.blocks(x)
	rq, rv, ra, rl, rm := se.blocks(dst)
	copy(rq, dv)
	copy(rv, da)
	k.dd.InverseDynamicsDirection(ra, t, q, v, a, dq, dv, da)
	if k.nc == 0 {
		for i, r := range ra {
			ra[i] = -r
		}
		return
	}
	k.dd.ConstraintForceDirection(k.tq, t, q, lam, dq, dl)
	for i, r := range ra {
		ra[i] = -r - k.tq[i]
	}
	k.constraintRowsDirection(rq, rl, rm, t, q, v, mu, dq, dv, dm)
}

// constraintRowsDirection writes the constraint rows' part of J x at (t, q, v, μ): −δ(Gᵀμ)
// added to the q rows rq (ggl), and the λ rows rl (G δq for index3, δ(G v + g_t) for index2
// and ggl) and μ rows rm (G δq, ggl). Shared by the frozen (jvExact) and the stage
// (radauStages.jv) products.
func (k *radauKrylov) constraintRowsDirection(rq, rl, rm []float64, t float64, q, v, mu, dq, dv, dm []float64) {
	if k.hasMu {
		k.dd.ConstraintForceDirection(k.tq, t, q, mu, dq, dm)
		for i, g := range k.tq {
			rq[i] -= g
		}
		k.dd.ConstraintDirection(rm, rl, t, q, v, dq, dv)
		return
	}
	if k.index3 {
		k.dd.ConstraintDirection(rl, nil, t, q, v, dq, dv)
		return
	}
	k.dd.ConstraintDirection(nil, rl, t, q, v, dq, dv)
}

// radauRealKrylov is the real system in the scaled variables as GMRES sees it.
type radauRealKrylov struct{ k *radauKrylov }

// jacVec writes (γ/h K − J)(sc·z) into dst (krylovSystem).
func (s *radauRealKrylov) jacVec(dst, z []float64) {
	k := s.k
	for i, sc := range k.scal {
		k.x[i] = sc * z[i]
	}
	k.jv(k.jx, k.x, z)
	for i, kk := range k.kdiag {
		dst[i] = k.fr*kk*k.x[i] - k.jx[i]
	}
}

// precondition applies the mass part's inverse, then 1/sc (krylovSystem).
func (s *radauRealKrylov) precondition(x []float64) {
	k := s.k
	k.solveMass(x, nil, complex(k.fr, 0))
	for i, sc := range k.scal {
		x[i] /= sc
	}
}

// radauComplexKrylov is the complex system on (Re z, Im z) in the scaled variables.
type radauComplexKrylov struct{ k *radauKrylov }

// jacVec writes ((α+iβ)/h K − J)(sc·z) into dst on (Re, Im) (krylovSystem): J of the
// real and of the imaginary part, one evaluation each.
func (s *radauComplexKrylov) jacVec(dst, z []float64) {
	k := s.k
	n := k.n
	zr, zi := z[:n], z[n:]
	for i, sc := range k.scal {
		k.x[i], k.xi[i] = sc*zr[i], sc*zi[i]
	}
	k.jv(k.jx, k.x, zr)
	k.jv(k.jxi, k.xi, zi)
	for i, kk := range k.kdiag {
		xr, xi := kk*k.x[i], kk*k.xi[i]
		dst[i] = k.ar*xr - k.br*xi - k.jx[i]
		dst[n+i] = k.br*xr + k.ar*xi - k.jxi[i]
	}
}

// precondition applies the complex mass part's inverse, then 1/sc (krylovSystem).
func (s *radauComplexKrylov) precondition(x []float64) {
	k := s.k
	n := k.n
	k.solveMass(x[:n], x[n:], complex(k.ar, k.br))
	for i, sc := range k.scal {
		x[i] /= sc
		x[n+i] /= sc
	}
}

// solveMass overwrites (ur, ui) = u = (r_q, r_v, r_a, r_λ[, r_μ]) with the solution of
// the mass part of c K − ∂φ/∂y for the complex c (see radauKrylov; ui nil for a real c
// and a real u), with the rows
//
//	c δq − δv + Gᵀδμ = r_q,   c δv − δa = r_v,   M δa + Gᵀδλ = r_a,
//	−G δv = r_λ (ggl, index2) or −G δq = r_λ (index3),   −G δq = r_μ (ggl):
//
// (G Gᵀ) δμ = G r_q − r_λ + c r_μ (ggl); [M Gᵀ; G 0](δa, δλ) = (r_a, s) with
// s = −c r_λ − G r_v (ggl, index2: G δa = c G δv − G r_v) or s = −c² r_λ − G(c r_q + r_v)
// (index3); then δv = (δa + r_v)/c and δq = (δv − Gᵀδμ + r_q)/c. Pfaffian rows A v + b = 0
// are rows of G here (velocity rows in ggl and index2), with μ = 0 in ggl (gglRows). With
// ui nil the imaginary parts are zero throughout, so their solves are skipped.
//
// The unknowns of the saddle-point solve are the accelerations, and δv, δq follow by
// division by c. Solving for c² δq instead (from M(c r_q + r_v) on the right side), with
// δv = c δq − r_q and δa = c δv − r_v after it, subtracts quantities of size c|r_q|
// twice: the round trip M⁻¹(M x) through the articulated-body recursion is exact only to
// ε·cond(M) relative, so δa carried an error of c·ε·cond(M)·|r_q|, as large as a's scale
// (ATol' + RTol'|a|)/h at every h. On the 1000-rod chain from its loaded state (spin
// inertia 5e-5 kg m² against the root joints' 8e7) GMRES converged on that
// noise, the second Newton increment undid the first, and radau5 cut h to HMin
// (BENCHMARKS.md, "Where radau5's … work per step goes"; joint's TestRadau5ShortStepsFromLoadedSlenderChain).
func (k *radauKrylov) solveMass(ur, ui []float64, c complex128) {
	cplx := ui != nil
	if !cplx {
		ui = k.im0
		clear(ui)
	}
	nq, nc := k.nq, k.nc
	cr, ci := real(c), imag(c)
	c2r, c2i := cr*cr-ci*ci, 2*cr*ci
	G := k.mn.G
	qr, vr, ar, lr, mr := k.se.blocks(ur)
	qi, vi, ai, li, mi := k.se.blocks(ui)
	clear(k.gmr)
	clear(k.gmi)
	if k.hasMu {
		k.gglRows(qr, qi, lr, li, mr, mi, c, cplx)
	}
	if k.index3 && nc > 0 { // w = c r_q + r_v
		for i := range nq {
			k.wr[i], k.wi[i] = cr*qr[i]-ci*qi[i]+vr[i], cr*qi[i]+ci*qr[i]+vi[i]
		}
	}
	for j := range nc {
		g := G.RawRowView(j)
		if k.index3 {
			lr[j], li[j] = -(c2r*lr[j]-c2i*li[j])-dot(g, k.wr), -(c2r*li[j]+c2i*lr[j])-dot(g, k.wi)
		} else {
			lr[j], li[j] = -(cr*lr[j]-ci*li[j])-dot(g, vr), -(cr*li[j]+ci*lr[j])-dot(g, vi)
		}
	}
	if k.stiff.applies(cplx) { // nc = 0: no λ rows
		k.stiff.solve(qr, qi, vr, vi, ar, ai, c, cplx)
	} else {
		k.schurSolve(ar, lr) // ar holds δa, lr δλ
		if cplx {
			k.schurSolve(ai, li)
		}
	}
	for i := range nq {
		dvr, dvi := cdiv(ar[i]+vr[i], ai[i]+vi[i], cr, ci)
		qr[i], qi[i] = cdiv(dvr-k.gmr[i]+qr[i], dvi-k.gmi[i]+qi[i], cr, ci)
		vr[i], vi[i] = dvr, dvi
	}
}

// schurSolve solves eq. 17's matrix at q₀ for (x, y), x holding r_a, or M(q₀)⁻¹ r_a
// with accel.
func (k *radauKrylov) schurSolve(x, y []float64) {
	if k.accel {
		k.mn.schur.SolveAccelerations(x, y)
		return
	}
	k.mn.schur.Solve(x, y)
}

// gglRows writes GGL's δμ into (mr, mi) and Gᵀδμ into (gmr, gmi), which solveMass has
// cleared; the λ rows (lr, li) are read, not written. The Pfaffian rows' μ rows read μ = 0
// (semiExplicit), so δμ_P = −r_μ; G_H G_Hᵀ over the holonomic rows then solves for δμ_H
// with G_H Aᵀδμ_P on the right side, as in bdfMassPrecond.gglRows with a complex c.
func (k *radauKrylov) gglRows(qr, qi, lr, li, mr, mi []float64, c complex128, cplx bool) {
	nh, nc, G := k.nh, k.nc, k.mn.G
	cr, ci := real(c), imag(c)
	for j := nh; j < nc; j++ { // δμ_P = −r_μ; gm = Aᵀδμ_P
		mr[j], mi[j] = -mr[j], -mi[j]
		addScaledRow(k.gmr, G.RawRowView(j), mr[j])
		addScaledRow(k.gmi, G.RawRowView(j), mi[j])
	}
	for j := range nh { // δμ_H's right side G r_q − r_λ + c r_μ − G Aᵀδμ_P into r_μ
		g := G.RawRowView(j)
		gr, gi := dot(g, qr)-dot(g, k.gmr), dot(g, qi)-dot(g, k.gmi)
		mr[j], mi[j] = gr-lr[j]+cr*mr[j]-ci*mi[j], gi-li[j]+cr*mi[j]+ci*mr[j]
	}
	linalg.CholeskySolve(k.GGt, nh, mr[:nh])
	if cplx {
		linalg.CholeskySolve(k.GGt, nh, mi[:nh])
	}
	addGTx(k.gmr, G, mr[:nh], 1)
	addGTx(k.gmi, G, mi[:nh], 1)
}

// cdiv returns (a + ib)/(cr + i ci) as its real and imaginary parts.
func cdiv(a, b, cr, ci float64) (float64, float64) {
	d := cr*cr + ci*ci
	return (a*cr + b*ci) / d, (b*cr - a*ci) / d
}

// radauNearMiss is the largest relative residual of a missed GMRES solve whose increment
// may still end radau5's Newton iteration at FixedH on exact products (radauKrylov.nearMiss).
const radauNearMiss = 1e-2

// nearMiss reports whether an iterate whose last increment came from a GMRES solve that
// missed its forcing term may be accepted all the same: on exact products (jvExact), where
// GMRES's residual estimate is that of its products combined and the products are J's,
// a solve that stopped at gmresMaxIter products with relative residual ρ ≤ radauNearMiss
// is an inexact Newton increment of forcing term ρ instead of radauGMRESRTol, so the
// stopping rule holds with ρ as the rate floor: ρ/(1−ρ)·‖ΔW‖ ≤ FNEWT (dyno, fnewt). On
// difference products the estimate is not trusted (it said 5e-4 where the increments missed
// the system by 1e-2 to 0.7: BENCHMARKS.md, "radau5's Newton iteration on the 1000-rod
// chain"), nor above radauNearMiss, where massNewton.distrusted keeps refusing.
//
// Measured (BenchmarkFixedStepCost, radau5 ggl, the 1000-rod chain from its start at the
// fixed h = 2.6 ms): the increments fell 3.7 → 8.2e-3 → 9.6e-6 at θ ≈ 2e-3, but every
// complex solve stopped at 20 products with ρ = 1.2e-3 to 2.9e-3, so the converged
// iterate was refused and the run ended at its first step. radau5 applies the rule at
// FixedH only: in adaptive runs a refusal cuts h, and accepting near misses there took
// longer steps at a larger tip error for equal or more evaluations on the 1000-rod chain
// (BENCHMARKS.md, "radau5's fixed-step stop and Newton failures on exact products").
func (k *radauKrylov) nearMiss(dyno, fnewt float64) bool {
	rho := k.missRel
	return k.dd != nil && rho <= radauNearMiss && rho/(1-rho)*dyno <= fnewt
}

// mn is the Newton-Krylov path's switch state (nil without it).
func (w *radauWork) mn() *massNewton {
	if w.kry == nil {
		return nil
	}
	return w.kry.mn
}

// krylovJacobian takes J at (t₀, y₀) for the Newton-Krylov products and factorizes the
// preconditioner at q₀ (counted as a Jacobian and a factorization).
func (w *radauWork) krylovJacobian() {
	se := w.se
	q := w.y0[:se.nq]
	if se.G != nil {
		w.sys.ConstraintJacobian(se.G, w.cur.T, q)
	}
	w.kry.factor(w.cur.T, q, se.G)
	w.kry.stiff.stiffen(se, w.cur.T, w.y0)
	w.stats.Jacobians++
	w.stats.Factorizations++
	w.lin = w.kry
	w.haveJ, w.jFresh, w.haveLU = true, true, false
}

// fallback leaves the Newton-Krylov path for the dense matrices (simplifiable).
func (w *radauWork) fallback() bool {
	if !w.mn().fallbackTo(w.allocDense) {
		return false
	}
	w.jFresh, w.haveLU = false, false
	return true
}

// estimateNorm is the scaled norm of the error estimate in w.errv, or +Inf (a rejection,
// h cut by MinShrink) when it came from a GMRES solve that missed its tolerance, as a
// converged verdict is refused then (not seen in the measured runs: on the 10- and
// 30-rod slender chains at tol 1e-4 every estimate solve reached it).
func (w *radauWork) estimateNorm() float64 {
	if w.mn().inUse() && !w.kry.realOK {
		return math.Inf(1)
	}
	return w.scaledNorm(w.errv)
}

// Solve applies the real system's mass part alone (linearSolve), for the singular watch's
// probe of the multipliers' block (schurBlock).
func (k *radauKrylov) Solve(b []float64) { k.solveMass(b, nil, complex(k.fr, 0)) }
