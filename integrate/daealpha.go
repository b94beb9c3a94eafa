package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// The coordinate-split formulations of seed 003 (section 3.1), integrated by the CM
// iteration.
const (
	CoordinateSplit   Formulation = "cs"    // P(q)·(eq. 3.3a, b), G v = 0, g = 0 with P from an LU of Gᵀ (seed 003, eqs. 3.6-3.9)
	CoordinateSplitQR Formulation = "cs-qr" // eq. 3.6 with P from a QR factorization of Gᵀ (seed 003, eqs. 3.10-3.11)
)

// DAEAlpha integrates M(q) q̈ = f − Gᵀλ, g(q) = 0 by the DAE α-method of seed 003 (Yen,
// Petzold and Raha 1998) with the generalized-α parameters of its section 4:
// α_m = (2ρ−1)/(ρ+1), α_f = ρ/(ρ+1), γ = 1/2 − α_m + α_f, β = (1 − α_m + α_f)²/4 (eq. 4.2's
// parameters, GenAlphaFromRhoInf). One step solves, for q₁, v₁ at t₁ = t_n + h,
//
//	M₁(q₁ − q̂_n) − β̂ h² f₁ + G₁ᵀ ν = 0                                          (eq. 3.3a)
//	M₁(v₁ − v̂_n) − γ̂ h f₁ + G₁ᵀ μ = 0                                            (eq. 3.3b)
//	G₁ v₁ + g_t = 0,   g(q₁) = 0                                                   (eqs. 3.3c, d)
//
//	q̂_n = q_n + h v_n + h²[(1/2 − β/(1−α_m)) a_n + β α_f/(1−α_m) φ_n]              (eq. 4.2a)
//	v̂_n = v_n + h[(1 − γ/(1−α_m)) a_n + γ α_f/(1−α_m) φ_n]                          (eq. 4.2b)
//	β̂ = β(1−α_f)/(1−α_m),   γ̂ = γ(1−α_f)/(1−α_m)
//
// Eq. 4.2 prints −β α_f/(1−α_m) φ_n and −γ α_f/(1−α_m) φ_n: that is eq. 3.4's sign for the
// HHT parameter α = −α_f carried over unchanged. Substituting eq. 4.1,
// a_{n+1} = ((1−α_f) φ_{n+1} + α_f φ_n − α_m a_n)/(1−α_m), into the Newmark updates (eqs.
// 2.6) gives +; with − a constant acceleration c moves q by h²c(1/2 − 2βα_f/(1−α_m))
// instead of h²c/2, and the method does not converge (measured with the printed sign on
// the conformance pendulum: errors in q of 1.24, 1.35, 1.41 at 64, 128, 256 steps).
//
// φ_n is the acceleration of the underlying ODE (eq. 2.2) at the accepted state: after
// each converged step φ₁ and λ₁ solve [M Gᵀ; G 0](φ₁, λ₁) = (f, γ) at (t₁, q₁, v₁) (seed
// 002, eq. 17; the seed leaves open how λ_{n+1} of eq. 3.1 is obtained), and a_{n+1}
// follows from eq. 4.1 (in the index1-proj form from φ̃ of the unprojected iterate, eq.
// 2.5a); a_0 = φ_0 (after eq. 3.4). So q₁, v₁ are the generalized-α
// solution of the underlying ODE projected along M⁻¹Gᵀ (the reading of eq. 3.3 after
// Theorem 3.1), and λ is a function of the second-order accurate state.
//
// By Formulation:
//
//   - Index1Projected (eqs. 2.5-2.6): the α-method on the underlying ODE, then the
//     projections of eqs. 2.3-2.4. Newton's method solves for (q̃, ṽ, ν) with
//     ν = β̂h²λ̃ the multiplier of the underlying ODE (eq. 2.2) in its index-1 form,
//
//     M(q̃)(q̃ − q̂) − β̂h² f + G(q̃)ᵀ ν = 0,   β̂h(ṽ − v̂) − γ̂(q̃ − q̂) = 0,
//     G(q̃)(q̃ − q̂) − β̂h² γ(q̃, ṽ) = 0      (G φ̃ = γ for φ̃ = (q̃ − q̂)/(β̂h²)),
//
//     so that a_{n+1} of eq. 2.5a follows from φ̃ = φ(q̃, ṽ); then q̃ is projected onto
//     g = 0 by eq. 2.5b, e (simplified Newton with [M Gᵀ; G 0] at q̃) and ṽ onto G v = 0
//     by eq. 2.5c, d with M and G at the projected q (the variant the seed allows after
//     Remark 2.2), whose factorization also gives φ_{n+1}, λ_{n+1} (eq. 17). The
//     Jacobian's constraint rows use (G w)_q, γ_q and γ_v (dae.SecondDerivatives).
//
//   - Index2 (eq. 3.3): Newton's method on (q₁, v₁, ν, μ) with the exact Jacobian, the
//     terms ∂(Gᵀν)/∂q and ∂(Gᵀμ)/∂q included and ∂(G v)/∂q from −γ_v/2
//     (dae.SecondDerivatives); the convergence test measures ν/(β̂h²) and μ/(γ̂h) with the
//     weights of λ besides q and v.
//
//   - CoordinateSplit, CoordinateSplitQR (eq. 3.6): eqs. 3.3a, b premultiplied by the CS
//     matrix P(q₁) (coordsplit.go, Definition 3.1) and solved by the CM iteration, the
//     modified Newton iteration that drops d(P(q) r)/dq = P (dGᵀ s/dq) from the Jacobian.
//     Since ker P(q) = range G(q)ᵀ, its Newton system is the one of Index2 with the
//     residual Π(q) r (coordSplit) and without ∂(Gᵀν)/∂q, ∂(Gᵀμ)/∂q; the multipliers
//     of the solve are discarded each iteration (ν, μ are eliminated from eq. 3.6) and
//     only q and v enter the convergence test.
//
// Large models (dae.SparseEvaluator, sparseEval): M, G and the coupling derivatives are
// pattern values, the Newton matrix of order 2nq + 2nc is a sparse LU filled value by
// value, the constraint rows' derivatives are central differences over groups of columns
// (daealphasparse.go), and the CS matrix factorizes Gᵀ from G's values by
// linalg.SparseRankLU; the dense QR form is refused there. Both paths take the same
// steps to rounding.
//
// Joint-coordinate models (dae.MassSolver and dae.MassMultiplier, no λ-dependent forces):
// Index2 and Index1Projected take the exact Newton increments by GMRES on residual
// differences preconditioned by the mass part of the matrix through the articulated-body
// recursion, and never form M (daeAlphaKrylov); the coordinate-split forms take the CM
// iteration's increments the same way, from index2's rows with a running estimate of the
// multipliers and ∂(Gᵀν)/∂q left out of the products (daeAlphaCM: the CM increment does
// not depend on P, which is not formed there).
//
// Error estimate (variable steps): as GenAlpha's, the leading local error of the Newmark
// position update, e_q = h²(β − γ/2 + 1/12)(a_{n+1} − a_n), measured with WeightedRMS on
// q: the step is the α-method on the underlying ODE followed by a projection whose change
// of q is of the order of the local error itself (Theorem 2.1), so the estimate of the
// unprojected update measures the projected one. a_n is shifted to the abscissa of a new
// step size as in GenAlpha.
//
// Current holds t_n, q_n, v_n, φ_n = q̈_n (not a_n) in A, and λ_n.
type DAEAlpha struct {
	// RhoInf is ρ, the spectral radius at infinity in [0, 1] (seed 003, eq. 4.2): 1 no
	// numerical damping, 0 the most; 0 is valid, so start from DefaultDAEAlpha() [0.9].
	RhoInf float64
	// Formulation is Index2 (eq. 3.3), CoordinateSplit or CoordinateSplitQR (eq. 3.6 by the
	// CM iteration), or Index1Projected (eqs. 2.5-2.6) [Index2].
	Formulation
	// Newton is the corrector stop and Jacobian policy [NewtonSettings defaults].
	Newton NewtonSettings

	w         *daeAlphaWork
	*accepted // Current, Previous, Stats (method.go)
}

// DefaultDAEAlpha returns the DAE α-method on the index-2 form with ρ = 0.9.
func DefaultDAEAlpha() DAEAlpha { return DAEAlpha{RhoInf: DefaultRhoInf, Formulation: Index2} }

var daeAlphaEntry = Entry{
	Name:         "daealpha",
	Title:        "DAE α-method (Yen-Petzold-Raha, ρ = 0.9): index 2 with ν, μ, coordinate split with the CM iteration, or ODE α-method with projections",
	Seed:         "003",
	Equations:    "3.3-3.4 (index2), 3.6-3.11 and CM (cs, cs-qr), 2.5-2.6 (index1-proj); parameters 4.1-4.2",
	Formulations: []Formulation{Index2, CoordinateSplit, CoordinateSplitQR, Index1Projected},
	Order:        Order{Q: 2, V: 2, Lambda: 2},
	Adaptive:     true,
	Params:       []Param{daeAlphaRhoParam},
	// ReactionForces: index2 presses f_λ with μ/(γ̂h), index1-proj with ν/(β̂h²)
	// (reactionLambda); eq. 3.6 eliminates the multipliers.
	ReactionForces:  true,
	ReactionRefused: []Formulation{CoordinateSplit, CoordinateSplitQR},
	New:             func() Method { m := DefaultDAEAlpha(); return &m },
}

// daeAlphaWork is the per-run state of DAEAlpha, sized once by Init.
type daeAlphaWork struct {
	name   string
	sys    dae.System
	der    *dae.Derivatives
	sec    *dae.SecondDerivatives
	nq, nc int
	nx     int  // unknowns (q₁, v₁, ν, μ); index1-proj: (q̃, ṽ, ν, unused)
	proj   bool // index1-proj (eqs. 2.5-2.6)
	split  *coordSplit
	p      GenAlphaParams
	// coefficients of eqs. 4.2: q̂ = q + h v + h²(cqa a + cqp φ), v̂ = v + h(cva a + cvp φ)
	cqa, cqp, cva, cvp float64
	betaHat, gammaHat  float64
	dAlpha             float64 // α_m − α_f
	cErr               float64 // β − γ/2 + 1/12
	nw                 newtonSolver
	full               *fullNewton // the stop rule under JacobianEveryIteration, else nil

	lad ladder
	ctl controller
	acc *eq17

	accepted           // cur, prev, stats: Current, Previous, Stats
	aN       []float64 // a_n of eq. 4.1 (for step hA)
	hA       float64
	jerk     []float64 // (a_{n+1} − a_n)/h of the last step

	// attempt
	an, qHat, vHat []float64
	x, dx, res     []float64 // (q₁, v₁, ν, μ), increment, residual
	phi1, lam1, a1 []float64
	f, w1, w2, gt  []float64
	mw1, mw2       []float64       // M w₁, M w₂
	M, K, F, D     *mat.Dense      // dense path: M(q₁), derivative scratch, f_q or f_v, constraint-row derivative
	G              *mat.Dense      // dense path: G(q₁)
	sp             *sparseEval     // the sparse evaluation path (M, K, F, D, G, der, sec nil), or nil
	kry            *daeAlphaKrylov // the Newton-Krylov corrector on dae.MassSolver systems, or nil
	cm             *daeAlphaCM     // cs, cs-qr on it: the CM iteration's products (daealphacs_krylov.go), or nil
	spx            *daeAlphaSparse // its Newton-matrix maps
	lu             *newtonFactor
	kkt            linalg.SaddlePoint // [M Gᵀ; G 0] of the projections (index1-proj)
	// rx is the λ-dependent force (dae.ReactionForce) or nil; lstar the λ it is pressed by
	// at the iterate (reactionLambda); rxa solves eq. 17 with it in project.
	rx     *reaction
	lstar  []float64
	rxa    *reactionAccel
	dq, dl []float64 // projection increments
	hTry   float64
}

// Init checks the options and the start (g and G v + g_t within ATol), computes φ_0 = q̈_0
// and λ_0 from eq. 17 and sizes all workspace; after Init, Step does not allocate.
func (m *DAEAlpha) Init(sys dae.System, start State, ctl StepControl) error {
	name := "daealpha"
	form, err := daeAlphaEntry.formulation(m.Formulation)
	if err != nil {
		return err
	}
	p, err := GenAlphaFromRhoInf(m.RhoInf)
	if err != nil {
		return fmt.Errorf("integrate: %s: RhoInf = %g outside [0, 1]", name, m.RhoInf)
	}
	if nd := dae.StateSize(sys); nd > 0 {
		return fmt.Errorf("integrate: %s: the system has %d first-order states (dae.FirstOrder), which this method does not integrate; use dopri5 or hht", name, nd)
	}
	if (form == CoordinateSplit || form == CoordinateSplitQR) && dae.HasReactionForce(sys) {
		return fmt.Errorf("integrate: %s: formulation %s: %T has forces that depend on the multipliers (dae.ReactionForce, e.g. joint friction), which eq. 3.6 cannot take: it eliminates the multipliers, and P(q) f_λ(λ) needs them; use %q or %q",
			name, form, sys, Index2, Index1Projected)
	}
	if err := refuseNonholonomic(name, sys); err != nil {
		return err
	}
	if err := refuseDenseNewton(name, form, sys, daeAlphaDenseWhy(form, sys)); err != nil {
		return err
	}
	nw, err := m.Newton.Resolve()
	if err != nil {
		return err
	}
	rc, err := ctl.Resolve(start.T, start.T+1)
	if err != nil {
		return err
	}
	nq, nc := sys.Size()
	if len(start.Q) != nq || len(start.V) != nq || len(start.Lambda) != nc || len(start.A) != nq {
		panic(fmt.Sprintf("integrate: %s: Init: start sizes (q %d, v %d, a %d, λ %d) do not match the system (nq %d, nc %d)",
			name, len(start.Q), len(start.V), len(start.A), len(start.Lambda), nq, nc))
	}
	w := &daeAlphaWork{name: name, sys: sys, nq: nq, nc: nc, nx: 2*nq + 2*nc, p: p}
	w.proj = form == Index1Projected
	w.sp = newSparseEval(sys, true)
	w.rx = newReactionDeferred(sys, w.sp) // the dense matrices wait for the dense path
	if w.sp != nil && form == CoordinateSplitQR {
		return fmt.Errorf("integrate: %s: formulation %s: the QR form of the CS matrix is dense and %T takes the sparse path (nq + nc = %d): use %q",
			name, form, sys, nq+nc, CoordinateSplit)
	}
	if w.sp == nil {
		w.kry = newDAEAlphaKrylov(w)
	}
	if w.proj {
		if w.kry == nil { // the Newton-Krylov path projects through dae.MassSolver
			w.kkt = newSaddlePoint(sys)
		}
		w.dq, w.dl = make([]float64, nq), make([]float64, nc)
		if w.rxa = newReactionAccel(sys, w.sp); w.kry != nil {
			w.rxa = newReactionAccelFD(sys)
		}
	}
	w.lstar = make([]float64, nc)
	if form == CoordinateSplit || form == CoordinateSplitQR {
		if w.split, err = newCoordSplit(sys, form == CoordinateSplitQR); err != nil {
			return fmt.Errorf("integrate: %s: formulation %s: %w", name, form, err)
		}
		w.cm = newDAEAlphaCM(w)
	}
	w.setCoefficients()
	w.nw = newNewtonSolver(nw, &w.stats)
	w.acc = newEq17(sys).newtonOnLambda()
	vec := func(n int) []float64 { return make([]float64, n) }
	w.cur, w.prev = NewState(nq, nc), NewState(nq, nc)
	w.aN, w.jerk, w.an, w.qHat, w.vHat = vec(nq), vec(nq), vec(nq), vec(nq), vec(nq)
	w.x, w.dx, w.res = vec(w.nx), vec(w.nx), vec(w.nx)
	w.phi1, w.lam1, w.a1 = vec(nq), vec(nc), vec(nq)
	w.f, w.w1, w.w2, w.gt = vec(nq), vec(nq), vec(nq), vec(nc)
	w.mw1, w.mw2 = vec(nq), vec(nq)
	switch {
	case w.sp != nil:
		w.spx = newDAEAlphaSparse(w)
	case w.kry != nil && nq > massNewtonDenseMax: // no dense fallback (massNewton.fallback)
		if nc > 0 {
			w.G = mat.NewDense(nc, nq, nil)
		}
	default:
		w.der, w.sec = dae.NewDerivatives(sys), dae.NewSecondDerivatives(sys)
		w.M, w.K, w.F = mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
		w.rx.allocDense(nq, nc)
		if nc > 0 {
			w.G, w.D = mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil)
		}
		w.lu = newNewtonFactor(w.nx, nil)
	}

	w.cur.T = start.T
	copy(w.cur.Q, start.Q)
	copy(w.cur.V, start.V)
	if err := w.checkStart(rc.ATol); err != nil {
		return err
	}
	if err := w.acc.solve(w.cur.A, w.cur.Lambda, start.T, start.Q, start.V, &w.stats); err != nil {
		return startError(name, start.T, err)
	}
	copy(w.aN, w.cur.A) // a_0 = φ_0 (seed 003, after eq. 3.4)
	w.prev.CopyFrom(&w.cur)
	w.lad = ladder{name: name, m: w, raw: ctl, second: &w.ctl, stats: &w.stats, cur: &w.cur, fc: newFailureContext(sys, &start)}
	m.w, m.accepted = w, &w.accepted
	return nil
}

// setCoefficients sets the coefficients of eqs. 4.1-4.2 from α_m, α_f, β, γ.
func (w *daeAlphaWork) setCoefficients() {
	p := w.p
	c := 1 - p.AlphaM
	w.cqa, w.cqp = 0.5-p.Beta/c, p.Beta*p.AlphaF/c
	w.cva, w.cvp = 1-p.Gamma/c, p.Gamma*p.AlphaF/c
	w.betaHat, w.gammaHat = p.Beta*(1-p.AlphaF)/c, p.Gamma*(1-p.AlphaF)/c
	w.dAlpha, _, w.cErr = p.newmarkCoefficients()
}

// checkStart refuses a start that is not finite or lies off the constraint manifold at
// position or velocity level.
func (w *daeAlphaWork) checkStart(atol float64) error {
	t, q, v := w.cur.T, w.cur.Q, w.cur.V
	for i := range w.nq {
		if math.IsNaN(q[i]) || math.IsInf(q[i], 0) || math.IsNaN(v[i]) || math.IsInf(v[i], 0) {
			return fmt.Errorf("integrate: %s: start %s = (q %g, v %g) is not finite", w.name, dae.CoordinateName(w.sys, i), q[i], v[i])
		}
	}
	if w.nc == 0 {
		return nil
	}
	w.sys.Constraint(w.gt, t, q)
	if i, r := worstAbs(w.gt); r > atol {
		return fmt.Errorf("integrate: %s: inconsistent start: position constraint %d (%s) = %.3g exceeds ATol = %g",
			w.name, i, dae.ConstraintName(w.sys, i), w.gt[i], atol)
	}
	w.sys.ConstraintTimeDerivative(w.gt, t, q)
	w.evalG(t, q)
	w.gxPlus(w.gt, v, w.gt)
	if i, r := worstAbs(w.gt); r > atol {
		return fmt.Errorf("integrate: %s: inconsistent start: velocity constraint %d (%s) G v + g_t = %.3g exceeds ATol = %g",
			w.name, i, dae.ConstraintName(w.sys, i), w.gt[i], atol)
	}
	return nil
}

// Step takes one accepted step toward tEnd (never past it).
func (m *DAEAlpha) Step(tEnd float64) error {
	mustInit(m.w != nil, "daealpha")
	return m.w.lad.step(tEnd)
}

// setup sets the Newton stop (stepper).
func (w *daeAlphaWork) setup(float64) error {
	if w.krylovNewton() && w.nw.s.Jacobian != JacobianEveryIteration {
		w.nw.rule = &krylovGrowthRule{m: &w.nw.mon}
	}
	if w.nw.s.Jacobian == JacobianEveryIteration {
		// Newton's method proper (index2) and the CM iteration with their matrices at
		// every iterate, as in seed 003: they fail only after MaxIters (fullNewton); the
		// rate test of newtonMonitor, made for simplified Newton, would abandon a full
		// Newton iteration whose increments shrink slowly before its quadratic phase.
		w.full = &fullNewton{s: w.nw.s}
		w.nw.rule = w.full
	}
	return nil
}

// krylovNewton reports whether the corrector is index2's Newton-Krylov one (daeAlphaKrylov),
// whose products difference the residual itself: its iteration is Newton's method
// whatever the age of the preconditioner (krylovGrowthRule).
func (w *daeAlphaWork) krylovNewton() bool { return w.kry != nil && !w.proj && w.cm == nil }

// krylovGrowthRule is newtonMonitor's stop for a Newton iteration with exact products: a
// second increment up to krylovGrowth times the first is Newton's far start, not a stale
// matrix, and the rate is judged from the third on. From the 1000-rod chain's start at
// h = 4.4 ms daealpha index2's second step went 76 → 96 → 0.08 (then quadratic); the
// rate test took θ = 1.3 for divergence and the fixed-step run stopped, where 30 rods
// converge at θ ≈ 5e-4. fullNewton's stop (no rate test before MaxIters) steps there too,
// but its failed attempts run all MaxIters: adaptive on the 1000-rod chain it took 9.5
// evaluations per simulated ms where the rate test takes 6.4.
// The third increment is rated against the grown second (m.prev).
type krylovGrowthRule struct{ m *newtonMonitor }

// krylovGrowth bounds the growth krylovGrowthRule lets pass.
const krylovGrowth = 2

func (r *krylovGrowthRule) start() { r.m.start() }

func (r *krylovGrowthRule) rate() float64 { return r.m.rate() }

func (r *krylovGrowthRule) update(norm float64) newtonStatus {
	m := r.m
	if m.iter == 1 && norm >= m.prev && norm < krylovGrowth*m.prev && norm > m.floor {
		m.iter++
		m.prev = norm
		return newtonContinue
	}
	return m.update(norm)
}

// attempt corrects one step of size h (newtonSolver.attempt), with a fresh matrix after a
// failure or unless JacobianAuto may keep the last one (as GenAlpha).
func (w *daeAlphaWork) attempt(h float64) (usedFresh int, err error) {
	return w.nw.attempt(w, h, !w.nw.keeps(h) || w.kry.stale() || w.cm.aged(w))
}

// fallback leaves the Newton-Krylov corrector for the dense matrix (simplifiable).
func (w *daeAlphaWork) fallback() bool { return w.kry != nil && w.kry.mn.fallback() }

// failed makes the attempt after a corrector failure start from a fresh matrix.
func (w *daeAlphaWork) failed(newton bool) { w.nw.refreshAfter(newton) }

// predict sets a_n (shifted to the abscissa t_n + (α_m − α_f) h), q̂_n, v̂_n (eq. 4.2) and
// the starting iterate from φ_{n+1} ≈ φ_n: q₁ = q̂ + β̂h²φ_n, v₁ = v̂ + γ̂hφ_n, ν = β̂h²λ_n,
// μ = γ̂hλ_n (exact for a constant acceleration).
func (w *daeAlphaWork) predict(h float64, _ bool) error {
	w.hTry = h
	if w.kry != nil {
		w.kry.mn.attempt()
	}
	nq, nc := w.nq, w.nc
	s := w.dAlpha * (h - w.hA)
	if w.stats.Steps == 0 {
		s = 0
	}
	phi := w.cur.A
	for i := range nq {
		an := w.aN[i] + s*w.jerk[i]
		w.an[i] = an
		w.qHat[i] = w.cur.Q[i] + h*w.cur.V[i] + h*h*(w.cqa*an+w.cqp*phi[i])
		w.vHat[i] = w.cur.V[i] + h*(w.cva*an+w.cvp*phi[i])
		w.x[i] = w.qHat[i] + w.betaHat*h*h*phi[i]
		w.x[nq+i] = w.vHat[i] + w.gammaHat*h*phi[i]
	}
	for k := range nc {
		w.x[2*nq+k] = w.betaHat * h * h * w.cur.Lambda[k]
		w.x[2*nq+nc+k] = w.gammaHat * h * w.cur.Lambda[k]
		if w.proj {
			w.x[2*nq+nc+k] = 0 // a placeholder, held at 0 by its row
		}
	}
	return nil
}

// residual evaluates eqs. 3.3 (Index2), 3.6 (coordinate split) or the α-method on the
// underlying ODE (Index1Projected) at the iterate.
func (w *daeAlphaWork) residual() error {
	nq, nc, h := w.nq, w.nc, w.hTry
	t1 := w.cur.T + h
	q1, v1 := w.x[:nq], w.x[nq:2*nq]
	w.stats.FuncEvals++
	if w.kry == nil { // the Newton-Krylov path multiplies by M without forming it
		w.evalM(t1, q1)
	}
	w.sys.Force(w.f, t1, q1, v1)
	if w.rx != nil {
		w.rx.add(w.f, t1, q1, v1, w.reactionLambda())
	}
	for i := range nq {
		w.w1[i] = q1[i] - w.qHat[i]
		w.w2[i] = v1[i] - w.vHat[i]
	}
	w.mulM(w.mw1, w.w1)
	w.mulM(w.mw2, w.w2)
	r1, r2 := w.res[:nq], w.res[nq:2*nq]
	for i := range nq {
		r1[i] = w.mw1[i] - w.betaHat*h*h*w.f[i]
		if w.proj {
			r2[i] = w.betaHat*h*w.w2[i] - w.gammaHat*w.w1[i] // eq. 2.6 for one φ̃
		} else {
			r2[i] = w.mw2[i] - w.gammaHat*h*w.f[i]
		}
	}
	if nc > 0 {
		if err := w.constraintRows(t1, q1, v1); err != nil {
			return err
		}
	}
	if w.kry != nil {
		w.kry.scale(w, t1, q1)
	}
	if !allFinite(w.res) {
		w.lad.worst = w.worstResidual()
		return ErrNonFinite
	}
	return nil
}

// constraintRows adds the constraint forces to (or projects) the first two row blocks and
// writes the last two: G v + g_t and g (Index2, coordinate split), or G w₁ − β̂h²γ and μ
// (Index1Projected, whose μ is not used).
func (w *daeAlphaWork) constraintRows(t1 float64, q1, v1 []float64) error {
	nq, nc, h := w.nq, w.nc, w.hTry
	r1, r2 := w.res[:nq], w.res[nq:2*nq]
	r3, r4 := w.res[2*nq:2*nq+nc], w.res[2*nq+nc:]
	nu, mu := w.x[2*nq:2*nq+nc], w.x[2*nq+nc:]
	w.evalG(t1, q1)
	switch {
	case w.proj:
		w.addGT(r1, nu)
		w.sys.Gamma(r3, t1, q1, v1)
		for k := range r3 {
			r3[k] *= -w.betaHat * h * h
		}
		w.gxPlus(r3, w.w1, r3)
		copy(r4, mu)
		return nil
	case w.split == nil:
		w.addGT(r1, nu)
		w.addGT(r2, mu)
	case w.cm.unprojected(w.kry):
		w.cm.addForces(r1, r2, w.G, nu, mu)
	default:
		if err := w.factorSplit(); err != nil {
			w.lad.worst = Residual{Block: "constraint Jacobian"}
			return err
		}
		w.split.project(r1)
		w.split.project(r2)
	}
	w.sys.ConstraintTimeDerivative(w.gt, t1, q1)
	w.gxPlus(r3, v1, w.gt)
	w.sys.Constraint(r4, t1, q1)
	return nil
}

// factor assembles and factorizes the Newton matrix at the iterate, by blocks of the
// unknowns (q₁, v₁, ν, μ):
//
//	[ M + (M w₁)_q − β̂h² f_q + (Gᵀν)_q    −β̂h² f_v         Gᵀ  0  ]   w₁ = q₁ − q̂
//	[ (M w₂)_q − γ̂h f_q + (Gᵀμ)_q          M − γ̂h f_v       0   Gᵀ ]   w₂ = v₁ − v̂
//	[ ∂(G v + g_t)/∂q = −γ_v/2              G                0   0  ]
//	[ G                                     0                0   0  ]
//
// The CM iteration leaves out (Gᵀν)_q and (Gᵀμ)_q (seed 003, after Remark 3.2; on the
// Newton-Krylov path its products keep (Gᵀμ)_q, daeAlphaCM). For
// Index1Projected the rows after the first are
//
//	[ −γ̂ I                        β̂h I           0   0 ]
//	[ (G w₁)_q + G − β̂h² γ_q       −β̂h² γ_v       0   0 ]
//	[ 0                            0              0   I ].
func (w *daeAlphaWork) factor() error {
	if w.sp != nil {
		return w.factorSparse()
	}
	nq, nc, n, h := w.nq, w.nc, w.nx, w.hTry
	t1 := w.cur.T + h
	q1, v1 := w.x[:nq], w.x[nq:2*nq]
	if w.kry != nil {
		if w.kry.mn.active() {
			w.stats.Jacobians++
			w.stats.Factorizations++
			w.kry.stiffen(w, t1, q1, v1) // before unscale: it reads whether res was scaled
			w.kry.unscale(w.res)         // the new matrix is at this iterate, where the scaling is I
			return w.kry.mn.factor(t1, q1, w.G, 1)
		}
		w.kry.unscale(w.res)
		w.kry.mn.simplified = false
		w.sys.Mass(w.M, t1, q1) // the residual multiplied by M without forming it
	}
	fd0 := w.der.Evals + w.sec.Evals
	w.stats.Jacobians++
	d := w.lu.Matrix()
	clear(d)
	add := func(r0, c0 int, A *mat.Dense, s float64) {
		rows, cols := A.Dims()
		for i := range rows {
			ai := A.RawRowView(i)
			di := d[(r0+i)*n+c0 : (r0+i)*n+c0+cols]
			for j, a := range ai {
				di[j] += s * a
			}
		}
	}
	diag := func(r0, c0, m int, s float64) {
		for i := range m {
			d[(r0+i)*n+c0+i] += s
		}
	}
	add(0, 0, w.M, 1)
	w.der.ForceDerivativeQ(w.F, t1, q1, v1)
	add(0, 0, w.F, -w.betaHat*h*h)
	if !w.proj {
		add(nq, 0, w.F, -w.gammaHat*h)
	}
	w.der.ForceDerivativeV(w.F, t1, q1, v1)
	add(0, nq, w.F, -w.betaHat*h*h)
	w.der.MassDerivative(w.K, t1, q1, w.w1)
	add(0, 0, w.K, 1)
	if w.proj {
		diag(nq, 0, nq, -w.gammaHat)
		diag(nq, nq, nq, w.betaHat*h)
	} else {
		add(nq, nq, w.M, 1)
		add(nq, nq, w.F, -w.gammaHat*h)
		w.der.MassDerivative(w.K, t1, q1, w.w2)
		add(nq, 0, w.K, 1)
	}
	if nc > 0 {
		w.constraintBlocks(d, add, diag, t1, q1, v1)
	}
	if w.rx != nil {
		w.rx.derivatives(t1, q1, v1, w.reactionLambda())
		bh2, ll := w.reactionWeights()
		w.rx.addDense(d, n, 0, 0, nq, ll, -bh2, -bh2, -bh2*w.lambdaScale())
		if !w.proj {
			w.rx.addDense(d, n, nq, 0, nq, ll, -w.gammaHat*h, -w.gammaHat*h, -w.gammaHat*h*w.lambdaScale())
		}
	}
	w.stats.FDEvals += w.der.Evals + w.sec.Evals - fd0
	w.stats.Factorizations++
	return w.lu.Factor()
}

// constraintBlocks writes the blocks of factor that involve the constraints.
func (w *daeAlphaWork) constraintBlocks(d []float64, add func(r0, c0 int, A *mat.Dense, s float64),
	diag func(r0, c0, m int, s float64), t1 float64, q1, v1 []float64) {
	nq, nc, n, h := w.nq, w.nc, w.nx, w.hTry
	if w.split == nil {
		w.der.ConstraintForceDerivative(w.K, t1, q1, w.x[2*nq:2*nq+nc])
		add(0, 0, w.K, 1)
		if !w.proj {
			w.der.ConstraintForceDerivative(w.K, t1, q1, w.x[2*nq+nc:])
			add(nq, 0, w.K, 1)
		}
	}
	for k := range nc {
		for i, g := range w.G.RawRowView(k) {
			d[i*n+2*nq+k] = g // Gᵀ in the ν columns
			if w.proj {
				d[(2*nq+k)*n+i] += g // G in ∂(G w₁)/∂q₁
			} else {
				d[(nq+i)*n+2*nq+nc+k] = g // Gᵀ in the μ columns
				d[(2*nq+k)*n+nq+i] = g    // G v
				d[(2*nq+nc+k)*n+i] = g    // g
			}
		}
	}
	if w.proj {
		w.sec.ConstraintJacobianDerivative(w.D, t1, q1, w.w1)
		add(2*nq, 0, w.D, 1)
		w.sec.GammaDerivativeQ(w.D, t1, q1, v1)
		add(2*nq, 0, w.D, -w.betaHat*h*h)
		w.sec.GammaDerivativeV(w.D, t1, q1, v1)
		add(2*nq, nq, w.D, -w.betaHat*h*h)
		diag(2*nq+nc, 2*nq+nc, nc, 1)
		return
	}
	w.sec.GammaDerivativeV(w.D, t1, q1, v1)
	add(2*nq, 0, w.D, -0.5)
}

// increment solves for the Newton increment, applies it and returns its weighted norm:
// δq and δv with the weights of q and v, and for Index2 δν/(β̂h²), δμ/(γ̂h) with those of
// λ. The coordinate-split forms discard the multipliers of the solve (eq. 3.6 has none).
func (w *daeAlphaWork) increment() float64 {
	switch {
	case w.kry.inUse() && w.cm != nil:
		w.cm.increment(w)
	case w.kry.inUse():
		w.kry.increment(w)
	default:
		for i, r := range w.res {
			w.dx[i] = -r
		}
		w.lu.Solve(w.dx)
		if w.split != nil {
			clear(w.dx[2*w.nq:])
		}
		for i, d := range w.dx {
			w.x[i] += d
		}
	}
	norm, roundoff := w.incrementNorm()
	w.nw.noteIncrement(roundoff)
	if w.full != nil {
		w.full.floor = roundoff
	}
	return norm
}

// incrementNorm returns the weighted RMS norm of the increment, with weights
// ATol + RTol·max(|y_n|, |y|) of the accepted state and the iterate (as WeightedRMS: a
// motion that starts from rest is measured against its size at t_n + h), and that of an
// increment of 10 ulps of the iterate (below it the rate θ is rounding noise).
func (w *daeAlphaWork) incrementNorm() (norm, roundoff float64) {
	const ulps = 10 * 0x1p-52
	nq, nc, h := w.nq, w.nc, w.hTry
	c := w.lad.c
	var s, r float64
	n := 0
	add := func(d, x, y float64) {
		wt := c.ATol + c.RTol*math.Max(math.Abs(y), x)
		s += (d / wt) * (d / wt)
		r += (ulps * x / wt) * (ulps * x / wt)
		n++
	}
	for i := range nq {
		add(w.dx[i], math.Abs(w.x[i]), w.cur.Q[i])
		add(w.dx[nq+i], math.Abs(w.x[nq+i]), w.cur.V[i])
	}
	if w.split == nil {
		// ν and μ are resolved only to the rounding of the residuals they balance,
		// M(q₁ − q̂) and M(v₁ − v̂): ulp(M q) and ulp(M v), amplified by 1/(β̂h²) and 1/(γ̂h)
		// in the λ units of the test.
		mq, mv := w.massScales()
		sn, sm := 1/(w.betaHat*h*h), 1/(w.gammaHat*h)
		for k := range nc {
			add(w.dx[2*nq+k]*sn, (math.Abs(w.x[2*nq+k])+mq)*sn, w.cur.Lambda[k])
			if !w.proj { // index1-proj: μ is a placeholder
				add(w.dx[2*nq+nc+k]*sm, (math.Abs(w.x[2*nq+nc+k])+mv)*sm, w.cur.Lambda[k])
			}
		}
	}
	return math.Sqrt(s / float64(n)), math.Sqrt(r / float64(n))
}

// converged finishes a converged iterate: φ₁, λ₁ from eq. 17 at (t₁, q₁, v₁) and a₁ from
// eq. 4.1. A singular KKT matrix there fails the attempt.
func (w *daeAlphaWork) converged() error {
	if w.kry != nil && w.kry.mn.distrusted() {
		w.lad.worst = w.worstResidual()
		return ErrNoConvergence
	}
	if !allFinite(w.x) {
		return ErrNonFinite
	}
	nq, h := w.nq, w.hTry
	phi := w.phi1
	if w.proj {
		phi = w.w1 // φ̃ = (q̃ − q̂)/(β̂h²) at the unprojected iterate (eq. 2.5a)
		for i := range nq {
			phi[i] = (w.x[i] - w.qHat[i]) / (w.betaHat * h * h)
		}
		if err := w.project(w.cur.T + h); err != nil {
			return err
		}
	} else if err := w.acc.solve(w.phi1, w.lam1, w.cur.T+h, w.x[:nq], w.x[nq:2*nq], &w.stats); err != nil {
		return err
	}
	p := w.p
	for i := range nq {
		w.a1[i] = ((1-p.AlphaF)*phi[i] + p.AlphaF*w.cur.A[i] - p.AlphaM*w.an[i]) / (1 - p.AlphaM)
	}
	return finiteIterate(w.a1)
}

// Limits of the position projection of eq. 2.5b, e: a correction below alphaProjTol relative
// to 1 + |q_i| in every coordinate ends it (below the weighted tolerances of any run,
// which start at 1e-12), and alphaProjMaxIters simplified-Newton iterations without that fail
// the attempt; from a corrector converged to tolerance the correction contracts like
// ‖q̃ − q‖², a few iterations.
const (
	alphaProjTol      = 1e-13
	alphaProjMaxIters = 10
)

// project replaces the converged iterate (q̃, ṽ) by (q₁, v₁) on the constraint manifold,
// eqs. 2.5b-e: simplified Newton for q₁ = q̃ − M(q̃)⁻¹G(q̃)ᵀν̃ with g(q₁) = 0, using the
// factorization of [M Gᵀ; G 0] at q̃, then at q₁ the velocity projection
// [M Gᵀ; G 0](v₁ − ṽ, μ̃) = (0, −(G ṽ + g_t)) and, with the same factorization, φ₁ and λ₁
// of eq. 17.
func (w *daeAlphaWork) project(t1 float64) error {
	nq, nc := w.nq, w.nc
	q, v := w.x[:nq], w.x[nq:2*nq]
	if nc > 0 {
		if err := w.factorKKT(t1, q); err != nil {
			return err
		}
		if !projectPositions(w.sys, w.saddle(), t1, q, w.dl, w.dq, alphaProjTol, alphaProjMaxIters, &w.stats) {
			return projectionFailure(w.sys, q, w.dl, &w.lad.worst, "seed 003, eq. 2.5b, e")
		}
		w.stats.Projections++
	}
	if err := w.factorKKT(t1, q); err != nil {
		return err
	}
	if nc > 0 {
		w.sys.ConstraintTimeDerivative(w.gt, t1, q)
		w.gxPlus(w.dl, v, w.gt)
		for k := range w.dl {
			w.dl[k] = -w.dl[k]
		}
		clear(w.dq)
		w.saddle().Solve(w.dq, w.dl)
		w.stats.Solves++
		w.stats.Projections++
		for i, d := range w.dq {
			v[i] += d
		}
		w.sys.Gamma(w.lam1, t1, q, v)
	}
	w.stats.FuncEvals++
	w.sys.Force(w.phi1, t1, q, v)
	if w.rxa != nil {
		return w.rxa.solve(w.saddle(), w.phi1, w.lam1, t1, q, v, &w.stats) // eq. 17 with f_λ(λ₁)
	}
	w.saddle().Solve(w.phi1, w.lam1) // eq. 17 at (q₁, v₁)
	w.stats.Solves++
	return nil
}

// reactionLambda writes into lstar, and returns, the multipliers that press the
// λ-dependent forces at the iterate: μ/(γ̂h) (index2: the multiplier of eq. 3.3b, which
// balances γ̂h(M φ − f) and so reads λ₁ up to the velocity projection, O(h²)), or
// ν/(β̂h²) (index1-proj: exactly the λ̃ of the underlying ODE's index-1 form).
func (w *daeAlphaWork) reactionLambda() []float64 {
	nq, nc := w.nq, w.nc
	src := w.x[2*nq : 2*nq+nc]
	if !w.proj {
		src = w.x[2*nq+nc:]
	}
	s := w.lambdaScale()
	for k, x := range src {
		w.lstar[k] = s * x
	}
	return w.lstar
}

// lambdaScale is the factor from the unknown that reactionLambda reads to λ: 1/(γ̂h) or
// 1/(β̂h²).
func (w *daeAlphaWork) lambdaScale() float64 {
	if w.proj {
		return 1 / (w.betaHat * w.hTry * w.hTry)
	}
	return 1 / (w.gammaHat * w.hTry)
}

// reactionWeights returns β̂h² and the first column of the unknown reactionLambda reads.
func (w *daeAlphaWork) reactionWeights() (bh2 float64, col int) {
	if w.proj {
		return w.betaHat * w.hTry * w.hTry, 2 * w.nq
	}
	return w.betaHat * w.hTry * w.hTry, 2*w.nq + w.nc
}

// factorKKT evaluates M and G at q and factorizes [M Gᵀ; G 0] (by dae.MassSolver on the
// Newton-Krylov path, which forms no M).
func (w *daeAlphaWork) factorKKT(t float64, q []float64) error {
	w.evalG(t, q)
	w.stats.Factorizations++
	if w.kry != nil {
		return w.kry.rec.factor(t, q, w.G)
	}
	w.evalM(t, q)
	if w.sp != nil {
		return w.kkt.FactorizeSym(w.sp.kktArgs())
	}
	if w.nc == 0 {
		return w.kkt.FactorizeSym(w.M, nil)
	}
	return w.kkt.FactorizeSym(w.M, w.G)
}

// saddle is the factorization of factorKKT.
func (w *daeAlphaWork) saddle() interface{ Solve(x, y []float64) } {
	if w.kry != nil {
		return w.kry.rec
	}
	return w.kkt
}

// The evaluations below serve both paths: dense matrices, or pattern values (sparseEval).

// evalM writes M(t, q).
func (w *daeAlphaWork) evalM(t float64, q []float64) {
	if w.sp != nil {
		w.sp.evalM(t, q)
		return
	}
	w.sys.Mass(w.M, t, q)
}

// evalG writes G(t, q) (nothing without constraints).
func (w *daeAlphaWork) evalG(t float64, q []float64) {
	switch {
	case w.nc == 0:
	case w.sp != nil:
		w.sp.evalG(t, q)
	default:
		w.sys.ConstraintJacobian(w.G, t, q)
	}
}

// mulM writes M x into dst at the iterate.
func (w *daeAlphaWork) mulM(dst, x []float64) {
	if w.kry != nil {
		w.kry.mm.MassMul(dst, w.cur.T+w.hTry, w.x[:w.nq], x)
		return
	}
	if w.sp != nil {
		csrMul(dst, &w.sp.mass, w.sp.M, x)
		return
	}
	for i := range dst {
		dst[i] = dot(w.M.RawRowView(i), x)
	}
}

// addGT adds Gᵀx to dst.
func (w *daeAlphaWork) addGT(dst, x []float64) {
	if w.sp != nil {
		w.sp.addGTx(dst, x, 1)
		return
	}
	addGTx(dst, w.G, x, 1)
}

// gxPlus writes G x + y into dst (which may alias y).
func (w *daeAlphaWork) gxPlus(dst, x, y []float64) {
	if w.sp != nil {
		w.sp.gxPlus(dst, x, y)
		return
	}
	for k := range dst {
		dst[k] = dotRow(w.G, k, x) + y[k]
	}
}

// massScales returns the sizes of M q₁ and M v (v₁ and v̂) whose rounding bounds the
// resolution of ν and μ (incrementNorm): max |M_ii x_i| from the last evalM, or on the
// Newton-Krylov path, which forms no M, max |(M |x|)_i| by dae.MassMultiplier.
func (w *daeAlphaWork) massScales() (mq, mv float64) {
	nq := w.nq
	if w.kry == nil {
		for i := range nq {
			mii := w.massDiag(i)
			mq = math.Max(mq, mii*math.Abs(w.x[i]))
			mv = math.Max(mv, mii*(math.Abs(w.x[nq+i])+math.Abs(w.vHat[i])))
		}
		return mq, mv
	}
	t1, q1 := w.cur.T+w.hTry, w.x[:nq]
	for i := range nq { // w₁, M w₁ are free after the residual
		w.w1[i] = math.Abs(w.x[i])
	}
	w.kry.mm.MassMul(w.mw1, t1, q1, w.w1)
	mq = maxAbs(w.mw1)
	for i := range nq {
		w.w1[i] = math.Abs(w.x[nq+i]) + math.Abs(w.vHat[i])
	}
	w.kry.mm.MassMul(w.mw1, t1, q1, w.w1)
	return mq, maxAbs(w.mw1)
}

// massDiag returns |M_ii| of the last evalM.
func (w *daeAlphaWork) massDiag(i int) float64 {
	if w.sp != nil {
		if k := w.sp.mass.Find(i, i); k >= 0 {
			return math.Abs(w.sp.M[k])
		}
		return 0
	}
	return math.Abs(w.M.At(i, i))
}

// factorSplit factorizes Gᵀ of the last evalG for the CS matrix.
func (w *daeAlphaWork) factorSplit() error {
	if w.sp != nil {
		return w.split.factorValues(w.sp.G)
	}
	return w.split.factorDense(w.G)
}

// diverged names the worst residual of a diverged iteration.
func (w *daeAlphaWork) diverged() error {
	w.lad.worst = w.worstResidual()
	return divergence(w.dx)
}

// worstResidual names the largest residual component of the last evaluation.
func (w *daeAlphaWork) worstResidual() Residual {
	i, v := worstAbs(w.res)
	nq, nc := w.nq, w.nc
	r := Residual{Index: i, Value: v}
	switch {
	case i < nq:
		r.Block, r.Owner = "position equation (3.3a)", dae.CoordinateName(w.sys, i)
	case i < 2*nq && w.proj:
		r.Block, r.Index, r.Owner = "velocity update (2.6b)", i-nq, dae.CoordinateName(w.sys, i-nq)
	case i < 2*nq:
		r.Block, r.Index, r.Owner = "velocity equation (3.3b)", i-nq, dae.CoordinateName(w.sys, i-nq)
	case i < 2*nq+nc:
		r.Block, r.Index = "velocity constraint", i-2*nq
		if w.proj {
			r.Block = "acceleration constraint"
		}
		r.Owner = dae.ConstraintName(w.sys, r.Index)
	default:
		r.Block, r.Index = "position constraint", i-2*nq-nc
		r.Owner = dae.ConstraintName(w.sys, r.Index)
	}
	return r
}

// errorNorm is the weighted RMS of e_q = h²(β − γ/2 + 1/12)(a₁ − a_n) (see DAEAlpha).
func (w *daeAlphaWork) errorNorm(h float64) float64 {
	return newmarkErrorNorm(&w.lad, w.sys, h, w.cErr, w.a1, w.an, w.cur.Q, w.x[:w.nq])
}

// commit makes the converged attempt of size h the current state.
func (w *daeAlphaWork) commit(h float64) error {
	nq := w.nq
	w.prev.CopyFrom(&w.cur)
	for i := range nq {
		w.jerk[i] = (w.a1[i] - w.an[i]) / h
	}
	copy(w.aN, w.a1)
	w.hA = h
	w.cur.advance(h, w.x[:nq], w.x[nq:2*nq], w.phi1, w.lam1)
	w.stats.Steps++
	if w.kry != nil {
		w.kry.mn.accepted()
	}
	return nil
}

// Interpolate writes the dense output at t in [Previous().T, Current().T] into dst by
// cubic Hermite interpolation (hermiteInterpolate).
func (m *DAEAlpha) Interpolate(dst *State, t float64) {
	hermiteInterpolate(dst, &m.w.prev, &m.w.cur, t)
}
