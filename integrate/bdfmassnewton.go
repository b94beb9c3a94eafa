package integrate

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// bdfMassPrecond is the mass part of bdf's Newton matrix c K − ∂φ/∂y on the first-order
// form y = (q, v, a, λ[, μ]) (semiexplicit.go; seed 002 eqs. 79 and 92) for systems with
// dae.MassSolver and dae.MassMultiplier, solved without forming M. It keeps the terms of
// order 1/h² relative to the dropped ones and leaves out ∂f/∂q, ∂f/∂v, ∂(M a + Gᵀλ)/∂q,
// ∂(Gᵀμ)/∂q and ∂(G v)/∂q, which leaves, with c = c_j,
//
//	[ c I   −I    0    0   Gᵀ ]   (q rows; Gᵀ in the GGL form only)
//	[ 0     c I  −I    0   0  ]   (v rows)
//	[ 0     0     M    Gᵀ  0  ]   (a rows)
//	[ 0    −G     0    0   0  ]   (λ rows: the velocity constraint)
//	[ −G    0     0    0   0  ]   (μ rows: g, GGL only)
//
// Eliminating δq = (δa + w)/c² and δv = (δa + r_v)/c (w = c r_q + r_v − c Gᵀδμ) leaves,
// for the accelerations and multipliers, eq. 17's matrix (massSchur, one articulated-body
// solve per application),
//
//	[ M  Gᵀ ] (δa, δλ) = ( r_a,  s ),
//	[ G  0  ]
//
// with (G_H Gᵀ) δμ = G_H r_q − r_λ,H + c r_μ,H in the GGL form first, and s by each λ row's
// weights on G δq, G δv and G δa (constraintWeights.accelRow, formweights.go; index2 and
// GGL s = −c r_λ − G r_v). With K_g (factorMass) the a-block is M + K_g/c² and K_g w/c²
// moves to the right side (solve). It costs one recursive solve per application (and one
// K_g product when K_g is on), and an nc×nc Cholesky factorization of G Gᵀ per matrix.
//
// It preconditions bdf's GMRES on exact products (dae.DirectionalDerivatives, jvExact) or
// residual differences (krylov below), whose residual takes M a from dae.MassMultiplier
// (semiExplicit.mm), so a product costs O(N).
//
// Pfaffian rows A v + b = 0 (rows nh… of G, dae.WithPfaffianRows) are velocity rows in the
// index2 and ggl forms and acceleration rows A a = γ_A in index1, weighted as G's rows, and
// in the Baumgarte forms G's rows without the position weight (rowWeights), so
// they join G in the saddle-point solve (its Schur complement dense in the number of cut +
// Pfaffian rows). In ggl their μ rows read μ = 0: δμ_P = −r_μ, G Gᵀ shrinks to the
// holonomic rows with G_H Aᵀ δμ_P moved to the right side, and their λ rows take
// s = −c r_λ − A r_v as the holonomic ones.
type bdfMassPrecond struct {
	mn         *massNewton
	nq, nc, nh int // nh: the holonomic rows (nc without Pfaffian rows)
	hasMu      bool
	c          float64
	GGt        []float64 // nh×nh Cholesky factor of G_H G_Hᵀ (GGL only)
	cw         constraintWeights
	w, gm      []float64 // nq: c r_q + r_v − c Gᵀδμ, and Gᵀδμ (0 outside GGL)
}

// newBDFMassPrecond returns the preconditioner for sys in formulation form, or nil when sys
// lacks dae.MassSolver or dae.MassMultiplier, or has λ-dependent forces at no more than massNewtonDenseMax coordinates and not
// reactionKrylov (massNewtonFor). Every form of bdf takes it: index1, baumgarte and
// index3 were kept off it in session 7 after stopping at t ≈ 0 where their dense paths
// ran, before the dynamic rows were scaled (massNewton.scaleRows); they run now
// (TestBDFMassNewtonFormsMatchDense, TestBDFMassNewtonIndex3MatchesDense,
// TestBDFMassNewtonDrivenChain).
func newBDFMassPrecond(sys dae.System, form Formulation, reactionKrylov bool) *bdfMassPrecond {
	if _, ok := sys.(dae.MassMultiplier); !ok { // the residual's M a (semiExplicit.mm)
		return nil
	}
	nq, nc := sys.Size()
	nh := nc
	if pr, pf := sys.(dae.PfaffianRows); pf {
		nh = pr.HolonomicRows()
	}
	mn := massNewtonFor(sys, reactionKrylov)
	if mn == nil {
		return nil
	}
	p := &bdfMassPrecond{mn: mn, nq: nq, nc: nc, nh: nh, hasMu: form == StabilizedIndex2,
		w: make([]float64, nq), gm: make([]float64, nq), cw: constraintWeights{0, 1, 0}}
	if p.hasMu {
		p.GGt = make([]float64, nh*nh)
	}
	return p
}

// massNewtonFor returns the simplified matrix of a first-order form's Newton-Krylov
// corrector (bdf, radau5) on sys, or nil. With λ-dependent forces (dae.ReactionForce,
// joint friction) it is newMassNewtonReaction above massNewtonDenseMax coordinates, or at
// every size with everySize (a test's knob), and nil otherwise: semiExplicit's residual
// carries f_λ at the iterate's λ, so GMRES's difference products hold −∂f_λ/∂λ beside Gᵀ
// and ∂f_λ/∂q, ∂f_λ/∂v, which the mass part leaves out. Below the bound the dense matrix
// with ∂f_λ is kept, as for hht: on the joint route's friction examples it is 1.1 to 2 ×
// cheaper (BENCHMARKS.md, "bdf and radau5 with joint friction on the Newton-Krylov path").
func massNewtonFor(sys dae.System, everySize bool) *massNewton {
	if !dae.HasReactionForce(sys) {
		return newMassNewton(sys)
	}
	if nq, _ := sys.Size(); nq <= massNewtonDenseMax && !everySize {
		return nil
	}
	return newMassNewtonReaction(sys)
}

// size is the dimension of y the preconditioner acts on.
func (p *bdfMassPrecond) size() int {
	if p.hasMu {
		return 3*p.nq + 2*p.nc
	}
	return 3*p.nq + p.nc
}

// factor prepares solve at (t, q) with the constraint Jacobian G there (nil when nc = 0)
// and c = c_j.
func (p *bdfMassPrecond) factor(t float64, q []float64, G *mat.Dense, c float64) error {
	p.c = c
	if err := p.mn.factor(t, q, G, c*c); err != nil {
		return err
	}
	if !p.hasMu || p.nc == 0 {
		return nil
	}
	for i := range p.nh {
		gi := G.RawRowView(i)
		for j := 0; j <= i; j++ {
			p.GGt[i*p.nh+j] = dot(gi, G.RawRowView(j))
		}
	}
	if err := linalg.Cholesky(p.GGt, p.nh); err != nil {
		p.mn.missed = true
		return errSchurSingular
	}
	return nil
}

// solve overwrites u = (r_q, r_v, r_a, r_λ[, r_μ]) with the solution of the matrix above,
// whose rows read
//
//	c δq − δv + Gᵀδμ = r_q,   c δv − δa = r_v,   A δa + K_g(δq − δa/c²) + Gᵀδλ = r_a,
//	−G(w_q δq + w_v δv + w_a δa) = r_λ,   −G_H δq = r_μ (ggl),
//
// A = M + K_g/c² the a-block massNewton factors (K_g: massNewton.stiffen, or 0), the
// weights (w_q, w_v, w_a) of each λ row by form (rowWeights, constraintWeights). δμ comes
// first (gglRows; 0 outside ggl). The q and v rows give δv = (δa + r_v)/c and
// δq = (δa + w)/c², w = c r_q + r_v − c Gᵀδμ, so the a rows read A δa + Gᵀδλ =
// r_a − K_g w/c² and the λ rows G δa = s with
//
//	s = (−c² r_λ − w_q G w − c w_v G r_v) / (w_q + c w_v + c² w_a)
//
// (index2 and ggl, (0, 1, 0): s = −c r_λ − G r_v; index3, (1, 0, 0): s = −c² r_λ − G w;
// index1, (0, 0, 1): s = −r_λ; the Baumgarte forms weigh all three). One saddle-point
// solve [A Gᵀ; G 0](δa, δλ) = (r_a − K_g w/c², s) (massSchur), then the divisions above.
//
// The unknowns are the accelerations, and δv, δq follow by division by c. Solving for
// c² δq instead (with M w on the right side) and recovering δv = c δq + Gᵀδμ − r_q,
// δa = c δv − r_v subtracted quantities of size c|r_q| twice: the articulated-body round
// trip A⁻¹(M w) is exact only to ε·cond(M) relative, so δa carried an error of up to
// ε·cond(M)·|w|: on slender rods (radius 1e-4 m, cond M 2e11-3e12) 3e3-1e8 × the error of
// one articulated-body solve (TestBDFMassPrecondSlenderRods), the noise that stopped
// radau5 from the loaded 1000-rod state (radauKrylov.solveMass). bdf's steps there were
// set by its Newton floor, not by this (newBDFRounding). K_g w is a product
// (dae.StiffMassSolver's AddGeometricStiffnessMul), not a difference of two: its rounding
// is relative to K_g w/c² itself.
func (p *bdfMassPrecond) solve(u []float64) {
	nq, nc, c := p.nq, p.nc, p.c
	rq, rv, ra, rl := u[:nq], u[nq:2*nq], u[2*nq:3*nq], u[3*nq:3*nq+nc]
	G := p.mn.G
	clear(p.gm)
	if p.hasMu {
		p.gglRows(u, G)
	}
	for i := range p.w {
		p.w[i] = c*rq[i] + rv[i] - c*p.gm[i]
	}
	for k := range nc {
		rl[k] = p.rowWeights(k).accelRow(G.RawRowView(k), p.w, rv, rl[k], c)
	}
	if sc := p.mn.schur; sc.stiff > 0 {
		sc.st.AddGeometricStiffnessMul(ra, sc.t, sc.q, p.w, sc.kg, -sc.stiff) // stiff = 1/c² (factor)
	}
	p.mn.schur.Solve(ra, rl) // ra holds δa, rl holds δλ
	for i := range nq {
		dv := (ra[i] + rv[i]) / c
		rq[i], rv[i] = (dv-p.gm[i]+rq[i])/c, dv
	}
}

// rowWeights returns the weights of constraint row k: the form's (cw), but for a Pfaffian
// row (k ≥ nh) in the Baumgarte forms no position weight, as dae.WithPfaffianRows gives
// those rows g = 0: index2-baumgarte reads A v + b = 0 there, baumgarte
// A a − γ_A + 2α(A v + b) = 0.
func (p *bdfMassPrecond) rowWeights(k int) constraintWeights {
	w := p.cw
	if k >= p.nh {
		w.q = 0
	}
	return w
}

// gglRows writes GGL's δμ into u's μ block and Gᵀδμ into gm (cleared by solve): the μ rows
// −G_H δq = r_μ and the λ rows −G δv = r_λ with the q rows' δv − Gᵀδμ = c δq − r_q give
// (G_H Gᵀ) δμ = G_H r_q − r_λ,H + c r_μ,H; the Pfaffian rows' μ rows read μ = 0
// (semiExplicit), δμ_P = −r_μ, moved to the right side as G_H Aᵀδμ_P.
func (p *bdfMassPrecond) gglRows(u []float64, G *mat.Dense) {
	nq, nc, nh, c := p.nq, p.nc, p.nh, p.c
	rq, rl, rm := u[:nq], u[3*nq:3*nq+nc], u[3*nq+nc:3*nq+2*nc]
	for k := nh; k < nc; k++ { // Pfaffian rows: δμ = −r_μ; gm = Aᵀδμ_P
		rm[k] = -rm[k]
		addScaledRow(p.gm, G.RawRowView(k), rm[k])
	}
	for k := range nh { // δμ's right side into rm
		gk := G.RawRowView(k)
		rm[k] = dot(gk, rq) - rl[k] + c*rm[k] - dot(gk, p.gm)
	}
	linalg.CholeskySolve(p.GGt, nh, rm[:nh])
	for k := range nh { // gm = Gᵀδμ
		addScaledRow(p.gm, G.RawRowView(k), rm[k])
	}
}

// addScaledRow adds s·row to dst.
func addScaledRow(dst, row []float64, s float64) {
	for j, r := range row {
		dst[j] += s * r
	}
}

// Solve is solve for the singular watch's probe of the multipliers' block (linearSolve):
// with r in the λ rows alone, δλ = c S⁻¹ r_λ in both forms, S = G M⁻¹ Gᵀ, as with the
// exact matrix to leading order.
func (p *bdfMassPrecond) Solve(b []float64) { p.solve(b) }

// mn is the simplified matrix's switch state (nil without the Newton-Krylov corrector).
func (w *bdfWork) mn() *massNewton {
	if w.pm == nil {
		return nil
	}
	return w.pm.mn
}

// allocDense sizes the dense Newton matrix: at Init, or at the first fallback from the
// Newton-Krylov corrector, whose runs never store an n×n matrix otherwise.
func (w *bdfWork) allocDense() {
	if w.lu != nil {
		return
	}
	if w.se.M == nil {
		w.se.M, w.se.work = mat.NewDense(w.nq, w.nq, nil), mat.NewDense(w.nq, w.nq, nil)
	}
	w.Jm = mat.NewDense(w.se.n, w.se.n, nil)
	w.lu = newNewtonFactor(w.se.n, w.se.newtonPattern())
}

// fallback leaves the preconditioned corrector for the dense matrix (simplifiable).
func (w *bdfWork) fallback() bool { return w.mn().fallbackTo(w.allocDense) }

// factorMass factorizes the preconditioner at the iterate's q with c = c_j. On a
// system with K_g (dae.AsStiffMassSolver: no Pfaffian rows) its a-block is c_j² M + K_g,
// K_g the geometric stiffness of the iterate's loads (its q, v, the forward-dynamics
// accelerations x = M(q)⁻¹(f − Gᵀλ) at its λ, and the loop closures' −Gᵀλ): with the
// iterate's own a instead, the loaded 100-rod chain at h = 1.7 ms took 2 GMRES products per
// Newton iteration instead of 1 (BENCHMARKS.md, "bdf's forms near O(N) on the joint route",
// session 18); eliminating δv and δa from c_j K − ∂φ/∂y leaves c_j² M + c_j C + K on
// δq, and K_g is the part of K = (M a)_q − f_q + (Gᵀλ)_q that the articulated-body
// recursion takes (massNewton.stiffen); on the 3D chain it saves 15-30 % of the GMRES
// products (BENCHMARKS.md, "The geometric stiffness in radau5's and bdf's
// preconditioners"). Without the loads of Gᵀλ, which carry part of each body's load on a
// looped model, the a-block was over-stiff: on the driven RSSR four-bar closed by a cut
// joint bdf took 30 % more residual evaluations (ggl) and its index1 form stopped at
// t = 0.13 after 1404 Newton failures; with them it takes 1.00-1.16 × M alone's there
// (TestLoopStiffPrecondFourBar) and 0.78-0.94 × on the looped chain of 100 and 1000 rods
// (BENCHMARKS.md, "… with the loop closures' loads").
func (w *bdfWork) factorMass() error {
	t, q := w.cur.T+w.hTry, w.yy[:w.nq]
	if w.se.G != nil {
		w.sys.ConstraintJacobian(w.se.G, t, q)
	}
	w.stats.Jacobians++
	w.stats.Factorizations++
	w.cjJ = w.cj
	w.pm.cw = newConstraintWeights(w.se)
	_, v, a, lambda, _ := w.se.blocks(w.yy)
	if mn := w.pm.mn; mn.schur.st != nil { // (off where K_g would miss loads: dae.AsStiffMassSolver)
		// The dynamic rows are M(q_F) M(q)⁻¹ r_a, r_a = M a − f + Gᵀλ (residual, scaleRows),
		// i.e. M(q_F)(a − x) with x = M(q)⁻¹(f − Gᵀλ) the forward-dynamics accelerations:
		// their q-derivative holds (M x)_q, so K_g's d'Alembert loads are taken at x. d =
		// M(q)⁻¹ r_a from the residual at this iterate (factor follows it; raw or scaled).
		ra := w.res[w.se.ia() : w.se.ia()+w.nq]
		if w.scaled {
			ra = w.resRaw
		}
		mn.schur.ms.MassSolve(w.kgD, t, q, ra)
		mn.stiffenFD(t, q, v, a, w.kgD, lambda, 1)
	}
	if err := w.pm.factor(t, q, w.se.G, w.cj); err != nil {
		w.noteWorstResidual()
		return err
	}
	return nil
}

// krylov overwrites w.delta (holding −G(y)) with the Newton increment of bdf's exact
// matrix c_j K − ∂φ/∂y, by GMRES on exact products or residual differences (jacVec)
// preconditioned by bdfMassPrecond: neither M nor the n×n matrix is formed. GMRES runs in the variables of
// bdf's Newton norm, z̃_i = z_i h^(index_i−1) ewt_i (z = sc·z̃), as radau5's does
// (radauKrylov): its relative residual is then measured where the Newton stop measures
// the increment. In the unscaled variables the 2-norm is dominated by δa ≈ c_j² δq, so
// a solve to 1e-4 left δq and δv errors of 1e-4 |δa|, which the next iterate's v and a
// rows amplify by c_j: on the 1000-rod chain at h ≈ 2e-5 s Newton contracted at θ ≈ 0.75
// (8 iterations and 14 failures in 25 steps, BENCHMARKS "bdf on the 1000-rod chain").
// In these variables hht's forcing term gmresRTol = 1e-2 serves: in the unscaled ones
// bdf needed 1e-4 to keep four-bar-joint.yaml's a and λ channels within 1e-6 of the body
// route at tol 1e-8 (9e-6 off at 1e-2), which TestJointEveryPlanarExample now holds at 1e-2.
func (w *bdfWork) krylov() {
	copy(w.kyy, w.yy)
	copy(w.kyPrime, w.yp)
	copy(w.kres, w.res)
	var s float64
	for i, y := range w.kyy {
		w.ksc[i] = 1 / (w.scal[i] * w.ewt[i])
		r := y / w.ksc[i]
		s += r * r
	}
	w.kyw = math.Sqrt(s / float64(w.n))
	if w.ex != nil {
		w.beginExact()
	}

	w.pm.mn.solved(w.kr.solve(w, w.delta))
	for i, sc := range w.ksc {
		w.delta[i] *= sc
	}
	copy(w.yy, w.kyy)
	copy(w.yp, w.kyPrime)
	copy(w.res, w.kres)
}

// jacVec writes J x into dst for x = sc·z̃ (krylovSystem): exactly (jvExact) on a system
// with dae.DirectionalDerivatives, else J x ≈ (G(y + σx) − G(y))/σ with
// y' = y'_pred + c_j(y − y_pred) following y and σ = diffNoise.increment(1 + ‖y/sc‖, ‖z̃‖)
// in RMS norms (each component moved in proportion to its scale, as in radauKrylov.jv):
// one residual evaluation, M x by dae.MassMultiplier.
func (w *bdfWork) jacVec(dst, z []float64) {
	zn := norm2(z) / math.Sqrt(float64(w.n))
	if zn == 0 {
		clear(dst)
		return
	}
	if w.ex != nil {
		x := w.ex.xs
		for i, sc := range w.ksc {
			x[i] = sc * z[i]
		}
		w.jvExact(dst, x, zn)
		return
	}
	sigma := w.kr.noise.increment(1+w.kyw, zn)
	for i, sc := range w.ksc {
		d := sigma * sc * z[i]
		w.yy[i] = w.kyy[i] + d
		w.yp[i] = w.kyPrime[i] + w.cj*d
	}
	_ = w.residual() // a non-finite residual stops GMRES short of its tolerance
	for i := range dst {
		dst[i] = (w.res[i] - w.kres[i]) / sigma
	}
}

// precondition applies bdfMassPrecond, then 1/sc (krylovSystem).
func (w *bdfWork) precondition(x []float64) {
	w.pm.solve(x)
	for i, sc := range w.ksc {
		x[i] /= sc
	}
}

// bdfExact is the exact product of bdf's Newton-Krylov path (bdfWork.jvExact): the
// system's directional derivatives (dae.DirectionalDerivatives) and its work vectors.
type bdfExact struct {
	dd     dae.DirectionalDerivatives
	x      []float64  // nq: the forward-dynamics accelerations M(q)⁻¹(f − Gᵀλ) at the iterate
	xs     []float64  // n: the unscaled direction sc·z̃
	tq, ta []float64  // nq: work
	tc     []float64  // nc: work
	gAlt   *mat.Dense // G at a perturbed q for the differenced acceleration-level rows, or nil
	// atF: the iterate is the factorization's (its residual unscaled, w.scaled false), where
	// the scaling M(q_F) M(q)⁻¹ is I and jvExact skips it.
	atF bool
}

// useExactProducts gives bdf's GMRES exact products (jvExact) in the index1 and baumgarte
// forms (every form with every) when the system has dae.DirectionalDerivatives, no
// λ-dependent forces and no Pfaffian rows, unless difference is set
// (BDF.DifferenceProducts). Its diffNoise then measures nothing. Those two forms weigh
// δa at h⁰ in the Newton norm, where the differences' noise along the slender rods'
// spins held the Newton rate at N = 1000 (2.6-2.9 iterations a step at h = 1.7 ms, 2 with
// exact products); the others weigh δa by h or h², take the same iterations and steps on
// either product, and an exact product costs about 1.3 residual evaluations, so ggl's
// step cost 12-14 % more on them. In index1 too they cost 11-12 % more instructions where
// the differences' noise did not hold the rate (adaptive from the chain's start at tol
// 1e-4 and 1e-6, the same steps and errors): they pay at long steps (BENCHMARKS.md, "bdf
// index1 and baumgarte with exact products on the joint route").
func (w *bdfWork) useExactProducts(difference, every bool) {
	se := w.se
	dd := dae.AsDirectionalDerivatives(se.sys)
	if dd == nil || difference || se.rx != nil || se.ncH != se.nc || w.pm == nil {
		return
	}
	if !every && se.form != Index1 && se.form != Baumgarte {
		return
	}
	w.ex = &bdfExact{dd: dd, x: make([]float64, w.nq), xs: make([]float64, w.n), tq: make([]float64, w.nq),
		ta: make([]float64, w.nq), tc: make([]float64, w.nc)}
	if w.nc > 0 && (se.form == Index1 || se.form == Baumgarte) {
		w.ex.gAlt = mat.NewDense(w.nc, w.nq, nil)
	}
	w.kr.measures = false
}

// beginExact records, for the exact products of a solve at the iterate y, the
// forward-dynamics accelerations x = a − M(q)⁻¹ r_a, r_a = M a − f + Gᵀλ the raw dynamic
// rows of y's residual (one articulated-body solve per Newton iteration), and whether y is
// the factorization's iterate (atF).
func (w *bdfWork) beginExact() {
	ra := w.res[w.se.ia() : w.se.ia()+w.nq]
	if w.scaled {
		ra = w.resRaw
	}
	q, _, a, _, _ := w.se.blocks(w.kyy)
	ex := w.ex
	ex.atF = !w.scaled
	w.pm.mn.schur.ms.MassSolve(ex.x, w.cur.T+w.hTry, q, ra)
	for i, d := range ex.x {
		ex.x[i] = a[i] - d
	}
}

// jvExact writes the derivative of bdf's residual K y' − φ(y) (y' = y'_pred +
// c_j(y − y_pred); its dynamic rows scaled, massNewton.scaleRows) at the iterate y along
// x = (δq, δv, δa, δλ[, δμ]) into dst, from the system's directional derivatives:
//
//	q rows: c_j δq − δv [+ δ(Gᵀμ)]     v rows: c_j δv − δa
//	a rows: M(q_F) M(q)⁻¹ (δR(x) + δ(Gᵀλ)) (I at q = q_F)     μ rows: −G δq (ggl)
//	λ rows: −δc, c the form's constraint row (semiExplicit.constraintRow)
//
// with δR(x) = (M x − f)_q δq − f_v δv + M δa the inverse dynamics' derivative at the
// forward-dynamics accelerations x (beginExact): the scaled rows are M(q_F)(a − x(q, v,
// λ)), whose derivative is M(q_F)(δa − δx), and M δx = −δR(x) − δ(Gᵀλ) + M δa. The
// acceleration-level rows of index1 and baumgarte (G a − γ), whose derivative in q needs
// second derivatives of g, are forward differences of the constraint row alone at the
// increment √ε (1 + ‖y/sc‖)/‖z̃‖ (RMS, in GMRES's variables); the dynamic rows, whose
// differences carry the rounding of M a and f divided by the increment (the slender rods'
// spins: BENCHMARKS.md, "bdf's forms near O(N) on the joint route"), are exact. One
// product counts as one evaluation in FuncEvals, as the difference it replaces.
func (w *bdfWork) jvExact(dst, x []float64, zn float64) {
	se, ex := w.se, w.ex
	t, cj := w.cur.T+w.hTry, w.cj
	w.stats.FuncEvals++
	q, v, _, lam, mu := se.blocks(w.kyy)
	dq, dv, da, dl, dm := se.blocks(x)
	rq, rv, ra, rl, rm := se.blocks(dst)
	for i := range rq {
		rq[i] = cj*dq[i] - dv[i]
		rv[i] = cj*dv[i] - da[i]
	}
	ex.dd.InverseDynamicsDirection(ra, t, q, v, ex.x, dq, dv, da)
	if w.nc > 0 {
		ex.dd.ConstraintForceDirection(ex.tq, t, q, lam, dq, dl)
		for i, f := range ex.tq {
			ra[i] += f
		}
	}
	if !ex.atF { // (at q_F the scaling is I: half the products at two Newton iterations a step)
		w.pm.mn.scaleRows(ra, se.mm, t, q)
	}
	if w.nc == 0 {
		return
	}
	if se.hasMu {
		ex.dd.ConstraintForceDirection(ex.tq, t, q, mu, dq, dm)
		for i, f := range ex.tq {
			rq[i] += f
		}
	}
	switch se.form {
	case Index3:
		ex.dd.ConstraintDirection(rl, nil, t, q, v, dq, dv)
	case Index2:
		ex.dd.ConstraintDirection(nil, rl, t, q, v, dq, dv)
	case StabilizedIndex2:
		ex.dd.ConstraintDirection(rm, rl, t, q, v, dq, dv)
		for i, g := range rm {
			rm[i] = -g
		}
	case Index2Baumgarte:
		ex.dd.ConstraintDirection(ex.tc, rl, t, q, v, dq, dv)
		for i, g := range ex.tc {
			rl[i] += se.alpha0 * g
		}
	default: // Index1, Baumgarte
		w.constraintRowDifference(rl, x, zn)
		return
	}
	for i, c := range rl {
		rl[i] = -c
	}
}

// constraintRowDifference writes −(c(y + σx) − c(y))/σ into rl, c the constraint row of
// the iterate y = kyy (its residual's λ rows hold −c(y)), with σ = √ε (1 + ‖y/sc‖)/zn; G
// at the perturbed q goes to gAlt, so that se.G keeps the iterate's.
func (w *bdfWork) constraintRowDifference(rl, x []float64, zn float64) {
	se, ex := w.se, w.ex
	t := w.cur.T + w.hTry
	sigma := math.Sqrt(epsilon) * (1 + w.kyw) / zn
	q, v, a, _, _ := se.blocks(w.kyy)
	dq, dv, da, _, _ := se.blocks(x)
	qp, vp, ap := ex.tq, ex.ta, w.yy[se.ia():se.ia()+w.nq] // w.yy is restored by krylov
	for i := range qp {
		qp[i] = q[i] + sigma*dq[i]
		vp[i] = v[i] + sigma*dv[i]
		ap[i] = a[i] + sigma*da[i]
	}
	se.G, ex.gAlt = ex.gAlt, se.G
	w.sys.ConstraintJacobian(se.G, t, qp)
	se.constraintRow(rl, t, qp, vp, ap, nil)
	se.G, ex.gAlt = ex.gAlt, se.G
	r0 := w.kres[se.il() : se.il()+w.nc]
	for i, c := range rl {
		rl[i] = -(c + r0[i]) / sigma
	}
}
