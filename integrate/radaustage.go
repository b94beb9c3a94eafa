package integrate

import (
	"fmt"
	"math"
	"slices"

	"linkage/dae"
)

// radauStageRTol is the forcing term of the coupled stage solves, relative in the
// scaled norm of the Newton test, and then the floor of the rate θ in its attempts
// (rateFloor; the frozen iteration keeps radauGMRESRTol's). The iteration is
// Newton's, whose rate is the forcing term: with 1e-2 (as hht's and bdf's) instead of
// radau5's 1e-3 the 1000-rod chain took 15-24 % fewer evaluations over 20 ms, with the
// same tip errors at tol 1e-5 and longer steps with 1.5-1.8 × the error at 1e-4; at the
// fixed h = 1.3 ms 1e-3 took 8-17 % more evaluations, but 3 % fewer from the loaded
// 1000-rod state (BENCHMARKS.md, "radau5's Newton iteration on the coupled stage system").
const radauStageRTol = 1e-2

// radauIteration is the Newton iteration of radau5's Newton-Krylov path
// (Radau5.Newton.Jacobian).
type radauIteration int

const (
	// radauSwitch (JacobianAuto): radauFrozen until a Newton failure, then radauCoupled
	// for radauCoupledSteps accepted steps (radauWork.switchIteration).
	radauSwitch radauIteration = iota
	// radauFrozen (JacobianEveryStep): RADAU5's simplified Newton iteration, J at
	// (t₀, y₀) for the three stages, decoupled into the real and the complex system.
	radauFrozen
	// radauCoupled (JacobianEveryIteration): the inexact Newton iteration on the coupled
	// stage system (radauStages).
	radauCoupled
)

// radauCoupledSteps is the number of accepted steps radauSwitch keeps the coupled
// iteration after a Newton failure before it returns to the frozen one. Measured on the
// 1000-rod chain over 0.1 s at tol 1e-5: 10 steps took 5 failures and 5 % more
// evaluations than 50, which took 1 and were the same run as never returning
// (BENCHMARKS.md, "radau5's coupled stage iteration after a frozen failure").
const radauCoupledSteps = 50

// chooseIteration sets the iteration from ns.Jacobian on the Newton-Krylov path (see
// Radau5.Newton), where it makes the coupled stage solver; the solver's own policy becomes
// JacobianEveryStep for the coupled iteration, whose J(t₀, y₀) is that of the
// preconditioner. Off that path JacobianEveryIteration is refused.
func (w *radauWork) chooseIteration(ns *NewtonSettings) error {
	if w.kry == nil || w.approx {
		if ns.Jacobian == JacobianEveryIteration {
			return fmt.Errorf("integrate: radau5: Newton.Jacobian = %v needs the Newton-Krylov path (a dae.MassSolver system, without ApproxJacobian); want auto or every-step (simplified Newton)", ns.Jacobian)
		}
		return nil
	}
	w.stg = newRadauStages(w)
	switch ns.Jacobian {
	case JacobianEveryIteration:
		w.iteration = radauCoupled
		ns.Jacobian = JacobianEveryStep
	case JacobianEveryStep:
		w.iteration = radauFrozen
	}
	return nil
}

// coupledMode reports whether the iteration of the next attempts is the coupled one.
func (w *radauWork) coupledMode() bool {
	return w.stg != nil && (w.iteration == radauCoupled || w.coupledLeft > 0)
}

// switchIteration is radauSwitch's rule after a failed attempt: a Newton failure of the
// frozen iteration on the Newton-Krylov path (not on a dense fallback, not in the
// singular mode or its index-3 rows) starts radauCoupledSteps accepted steps of the
// coupled one, and one of the coupled iteration restarts the count. It reports whether
// it switched.
func (w *radauWork) switchIteration() bool {
	if w.stg == nil || w.iteration != radauSwitch || !w.mn().inUse() || w.i3.on || w.nw.singular {
		return false
	}
	switched := w.coupledLeft == 0
	w.coupledLeft = radauCoupledSteps
	return switched
}

// rateFloor is the floor of the rate θ of an attempt (radauMonitor.minRate): the forcing
// term of the iteration's GMRES solves.
func (s *radauStages) rateFloor(coupled bool) float64 {
	if coupled {
		return s.gm.rtol
	}
	return radauGMRESRTol
}

// radauStages is radau5's inexact Newton iteration on the coupled stage system on the
// Newton-Krylov path (radauCoupled, and radauSwitch after a failure). RADAU5's simplified
// Newton iteration takes one J = ∂φ/∂y at (t₀, y₀) for the three stages, which the transformation
// W = (T⁻¹ ⊗ I) Z decouples into the real and the complex system (see Radau5). Here the
// matrix of the stage equations (A⁻¹ ⊗ K) Z = h Φ(Z) is the true one, each stage's block
// at its current iterate Y_i = y₀ + z_i (Hairer & Wanner 1996, IV.8, before the
// simplification), in the same variables W:
//
//	(Λ/h ⊗ K − (T⁻¹ ⊗ I) diag(J₁, J₂, J₃) (T ⊗ I)) ΔW = (T⁻¹ ⊗ I) Φ − (Λ ⊗ K) W / h,
//
// J_i = ∂φ/∂y at (t₀ + c_i h, Y_i), Λ = [γ 0 0; 0 α −β; 0 β α]: the right side is that
// of the decoupled systems, and with J_i = J the matrix is theirs. GMRES (3n unknowns, the
// three blocks of ΔW in radau5's scaled variables ΔW/sc, so that its relative residual is
// measured in the norm of the stopping rule) solves it with three products per Krylov
// vector, one per stage, the cost of one real and one complex product of the decoupled
// solves. Its preconditioner is theirs, the mass parts of the real system (block 1) and of
// the complex system (blocks 2 + i·3) (radauKrylov.solveMass), which equal the matrix's
// mass part since the stages' a-blocks are all M(q₀) (radauMassRows).
//
// Products, exact (dae.DirectionalDerivatives) or forward differences of the stage's
// residual. The dynamic rows that radau5 solves are scaled, φ_a = M(q₀) M(q)⁻¹
// (f − Gᵀλ − M(q) a) = M(q₀)(a_fd − a) with a_fd = M(q)⁻¹(f − Gᵀλ) the forward dynamics'
// accelerations at the stage point, so their derivative is
//
//	δφ_a = M(q₀) (M(q)⁻¹ (−δR − δ(Gᵀλ)) − δa),   δR = (M a_fd − f)_q δq − f_v δv,
//
// the inverse-dynamics direction at a_fd (not at the stage's a, where the two terms of
// the product rule would not cancel), one articulated-body solve at the stage's q and one
// product with M(q₀): about the work of one residual evaluation, counted as one in
// FuncEvals. a_fd comes with the stage residual (radauMassRows keeps M(q)⁻¹φ_a). The
// product with M(q₀) is skipped where the preconditioner would undo it (its a-block is
// M(q₀), and T⁻¹'s mixing of the stages commutes with it): the solve then carries the
// force rows as M(q₀)⁻¹ times them (radauKrylov.accel, massSchur.SolveAccelerations; the
// right side's by three articulated-body solves at q₀ per Newton iteration), which leaves
// GMRES's preconditioned vectors as they were and saves one product with M and one
// articulated-body solve per stage product.
type radauStages struct {
	k     *radauKrylov
	w     *radauWork // its yt, ph and residualAt (difference products)
	ms    dae.MassSolver
	rows  *radauMassRows
	gm    *gmres // 3n unknowns
	sys   radauStageSystem
	n, nq int

	t   [3]float64   // the stage times t₀ + c_i h
	y   [3][]float64 // the stage points Y_i of the current iterate (n)
	afd [3][]float64 // a_fd at Y_i (nq)
	dz  [3][]float64 // ΔZ_i = (T ⊗ I) ΔW of a product (n)
	jz  []float64    // J_i ΔZ_i (n)
	u   []float64    // nq: −δR − δ(Gᵀλ), then M(q)⁻¹ of it less δa
	da0 []float64    // nq zeros: δa of the inverse-dynamics direction
	b   []float64    // the right side and solution (3n)
}

// newRadauStages returns the coupled stage solver on w's Newton-Krylov systems.
func newRadauStages(w *radauWork) *radauStages {
	k, rows := w.kry, w.rows
	n, nq := k.n, k.nq
	vec := func(m int) []float64 { return make([]float64, m) }
	s := &radauStages{k: k, w: w, ms: rows.ms, rows: rows, gm: newGMRES(3 * n), n: n, nq: nq,
		jz: vec(n), u: vec(nq), da0: vec(nq), b: vec(3 * n)}
	for j := range 3 {
		s.y[j], s.afd[j], s.dz[j] = vec(n), vec(nq), vec(n)
	}
	s.gm.rtol = radauStageRTol
	s.gm.noise, s.gm.measures = k.re.noise, false
	s.sys.s = s
	return s
}

// StageKrylovCounts returns the GMRES work of the coupled stage solves (Newton.Jacobian,
// see Radau5; zero where they did not run): one solve per Newton iteration, each product three evaluations (one
// per stage).
func (m *Radau5) StageKrylovCounts() KrylovCounts {
	if m.w == nil || m.w.stg == nil {
		return KrylovCounts{}
	}
	return m.w.stg.gm.total
}

// coupled reports whether the current Newton increment is the coupled stage solve: the
// Newton-Krylov path in use with its GMRES products (not ApproxJacobian's mass parts, not
// the index-3 rows of the singular mode).
func (w *radauWork) coupled() bool {
	return w.coupledMode() && w.mn().inUse() && !w.i3.on && !w.nw.singular
}

// noteStage records stage j's point (t, y) and its a_fd after residualAt wrote the
// scaled residual phi there (radauMassRows.scale left M(q)⁻¹φ_a in rows.x unless q = q₀).
func (s *radauStages) noteStage(j int, t float64, y, y0, phi []float64) {
	s.t[j] = t
	copy(s.y[j], y)
	se := s.k.se
	q, a := y[:s.nq], y[se.ia():se.il()]
	if slices.Equal(q, y0[:s.nq]) {
		s.ms.MassSolve(s.afd[j], t, q, phi[se.ia():se.il()])
	} else {
		copy(s.afd[j], s.rows.x)
	}
	for i, x := range a {
		s.afd[j][i] += x
	}
}

// solve overwrites (d1, crhs) = ((T⁻¹Φ)₁ − γ/h K W₁, the complex right side) with the
// increments (ΔW₁, ΔW₂ + iΔW₃) of the coupled system, and records whether GMRES reached
// its tolerance (massNewton.solved).
func (s *radauStages) solve(d1 []float64, crhs []complex128) {
	k, n := s.k, s.n
	k.beginSolve()
	copy(s.b[:n], d1)
	for i, c := range crhs {
		s.b[n+i], s.b[2*n+i] = real(c), imag(c)
	}
	if k.accel = k.mn.schur.solvesAccelerations() && k.stiff == nil; k.accel {
		se := k.se
		for j := range 3 {
			a := s.b[j*n+se.ia() : j*n+se.il()]
			k.mn.schur.massSolve(s.u, a, nil)
			copy(a, s.u)
		}
	}
	ok := s.gm.solve(&s.sys, s.b)
	k.accel = false
	k.mn.solved(ok)
	k.missRel = s.gm.rel
	for i, sc := range k.scal {
		d1[i] = sc * s.b[i]
		crhs[i] = complex(sc*s.b[n+i], sc*s.b[2*n+i])
	}
}

// jv writes J_j x into dst, J_j = ∂φ/∂y at stage j's point (scaled dynamic rows, see
// radauStages).
func (s *radauStages) jv(dst []float64, j int, x []float64) {
	k := s.k
	if k.dd == nil {
		s.jvDifference(dst, j, x)
		return
	}
	se, t := k.se, s.t[j]
	k.stats.FuncEvals++
	q, v, _, lam, mu := se.blocks(s.y[j])
	dq, dv, da, dl, dm := se.blocks(x)
	rq, rv, ra, rl, rm := se.blocks(dst)
	copy(rq, dv)
	copy(rv, da)
	k.dd.InverseDynamicsDirection(s.u, t, q, v, s.afd[j], dq, dv, s.da0)
	if k.nc > 0 {
		k.dd.ConstraintForceDirection(k.tq, t, q, lam, dq, dl)
		for i, r := range s.u {
			s.u[i] = -r - k.tq[i]
		}
	} else {
		for i, r := range s.u {
			s.u[i] = -r
		}
	}
	s.ms.MassSolve(ra, t, q, s.u)
	for i := range ra {
		ra[i] -= da[i]
	}
	if !k.accel {
		copy(s.u, ra)
		k.mm.MassMul(ra, k.t0, k.y0[:s.nq], s.u)
	}
	if k.nc == 0 {
		return
	}
	k.constraintRowsDirection(rq, rl, rm, t, q, v, mu, dq, dv, dm)
}

// jvDifference is jv by a forward difference of stage j's residual, at the increment of
// the decoupled solves' products (radauKrylov.jv): φ_j(Y_j + σx) − φ_j(Y_j) over σ, with
// φ_j(Y_j) the stage residual the iteration holds.
func (s *radauStages) jvDifference(dst []float64, j int, x []float64) {
	k, w := s.k, s.w
	var zn float64
	for i, sc := range k.scal {
		r := x[i] / sc
		zn += r * r
	}
	zn = math.Sqrt(zn / float64(s.n))
	if zn == 0 {
		clear(dst)
		return
	}
	sigma := k.re.noise.increment(1+k.yw, zn)
	for i, y := range s.y[j] {
		w.yt[i] = y + sigma*x[i]
	}
	w.residualAt(dst, s.t[j], w.yt)
	k.stats.FuncEvals++
	for i, f := range w.ph[j] {
		dst[i] = (dst[i] - f) / sigma
	}
	if k.accel { // the force rows as M(q₀)⁻¹ times them, as the solve carries them
		ra := dst[k.se.ia():k.se.il()]
		k.mn.schur.massSolve(s.u, ra, nil)
		copy(ra, s.u)
	}
}

// radauStageSystem is the coupled stage system in the scaled variables as GMRES sees it.
type radauStageSystem struct{ s *radauStages }

// jacVec writes the coupled matrix times sc·z into dst (krylovSystem).
func (p *radauStageSystem) jacVec(dst, z []float64) {
	s := p.s
	k, n := s.k, s.n
	c := &radauCoef
	z1, z2, z3 := z[:n], z[n:2*n], z[2*n:]
	for i, sc := range k.scal {
		w1, w2, w3 := sc*z1[i], sc*z2[i], sc*z3[i]
		s.dz[0][i] = c.t[0][0]*w1 + c.t[0][1]*w2 + c.t[0][2]*w3
		s.dz[1][i] = c.t[1][0]*w1 + c.t[1][1]*w2 + c.t[1][2]*w3
		s.dz[2][i] = w1 + w2 // T's last row is (1, 1, 0)
		kk := k.kdiag[i]
		dst[i] = k.fr * kk * w1
		dst[n+i] = kk * (k.ar*w2 - k.br*w3)
		dst[2*n+i] = kk * (k.br*w2 + k.ar*w3)
	}
	for j := range 3 {
		s.jv(s.jz, j, s.dz[j])
		t0, t1, t2 := c.ti[0][j], c.ti[1][j], c.ti[2][j]
		for i, x := range s.jz {
			dst[i] -= t0 * x
			dst[n+i] -= t1 * x
			dst[2*n+i] -= t2 * x
		}
	}
}

// precondition applies the real and the complex mass parts' inverses, then 1/sc
// (krylovSystem).
func (p *radauStageSystem) precondition(x []float64) {
	s := p.s
	k, n := s.k, s.n
	k.solveMass(x[:n], nil, complex(k.fr, 0))
	k.solveMass(x[n:2*n], x[2*n:], complex(k.ar, k.br))
	for i, sc := range k.scal {
		x[i] /= sc
		x[n+i] /= sc
		x[2*n+i] /= sc
	}
}
