package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// ALI3 integrates the index-3 augmented Lagrangian formulation of Bayo and Ledesma as
// used by Cardenal, Cuadrado and Bayo (seed 001, eqs. 8-9) with the trapezoidal rule:
//
//	M q̈ + Φ_qᵀ α Φ + Φ_qᵀ λ* = Q(q, q̇),    λ*ᵢ₊₁ = λ*ᵢ + α Φᵢ₊₁,
//
// where Φ = g and Q = f of dae.System, and λ = λ* + αΦ is the multiplier of M a = f − Gᵀλ.
// The trapezoidal rule writes q̇ₙ₊₁ = (2/h) qₙ₊₁ − (2/h qₙ + q̇ₙ) and
// q̈ₙ₊₁ = (4/h²) qₙ₊₁ − (4/h² qₙ + 4/h q̇ₙ + q̈ₙ), so eq. 8 at tₙ₊₁ (times h²/4) is a
// nonlinear equation in qₙ₊₁ alone. Each Newton iteration solves it with the tangent matrix
//
//	M + (h²/4)((M q̈)_q + (Φ_qᵀ(λ* + αΦ))_q − Q_q + α Φ_qᵀΦ_q) − (h/2) Q_q̇
//
// and then updates λ* by eq. 9: the multiplier iteration runs inside the Newton loop
// (newtonSolver), starting from the λ* of the last step, so that 1-2 iterations suffice
// when h²α/(4m) ≫ 1. The converged q̇ₙ₊₁ and q̈ₙ₊₁ are then projected mass-orthogonally
// onto Φ̇ = 0 and Φ̈ = 0 (projectVelocity, projectAcceleration), which also corrects λ to the
// multiplier of the projected accelerations.
//
// The penalty α is relative: the method multiplies it by the mean diagonal of M at the
// start (the paper's range 1e7-1e9 assumes constraints scaled to unity and masses of
// order 1; this keeps the contraction of the multiplier iteration unit-independent in
// the mass). When αh²/4 is too small against the mass for the step (the crank at
// h = 1e-5: 2.5e-4 of it, a rate of 0.988 per iteration), an attempt that fails while still
// contracting raises the index-3 penalty from its measured rate (raisePenalty) and is
// retried; the raised α stays for the run (the projections keep the given α). It works on
// any dae.System (not only natural coordinates); redundant constraints and singular
// positions need no reduction, since M + αΦ_qᵀΦ_q stays regular when M is positive
// definite, whatever the rank of Φ_q. The linear algebra is dense, except on systems with
// dae.MassSolver and dae.MassMultiplier (the joint route), where GMRES preconditioned by
// M + βΦ_qᵀΦ_q through the recursion (and by M + (h²/4)K_g + βΦ_qᵀΦ_q where GMRES needs
// more than one product per solve, aliStiffness) solves the same Newton increments
// (aliKrylov).
//
// With forces that depend on λ (dae.ReactionForce: joint friction) Q includes f_λ pressed
// by λ̂, the multiplier of eq. 17 at the iterate, not by λ* + αΦ (pressReaction says why),
// and the tangent matrix its derivative through λ̂ (addLambdaHat; on the Newton-Krylov
// path each product adds it, alikrylovreaction.go).
//
// Fixed steps only; the multi-index method (MultiIndex) adds the step-size control.
type ALI3 struct {
	// Alpha is the penalty factor α, relative to the mean mass (see ALI3), in
	// [MinPenalty, MaxPenalty]; zero takes DefaultPenalty.
	Alpha float64
	// Newton holds the corrector knobs (stop rule eqs. 40-47 of seed 004, iteration limit,
	// Jacobian policy).
	Newton NewtonSettings

	aliRun
}

// ALI1 integrates the index-1 augmented Lagrangian formulation (seed 001, eqs. 5-7) with
// the trapezoidal rule:
//
//	[M + Φ_qᵀαΦ_q] q̈ + Φ_qᵀλ* = Q − Φ_qᵀα(Φ̇_q q̇ + Φ̇_t),    λ*ᵢ₊₁ = λ*ᵢ + α Φ̈ᵢ₊₁,
//
// i.e. M q̈ + Φ_qᵀ(λ* + αΦ̈) = Q with Φ̈ = Φ_q q̈ − γ. The Newton unknowns are the
// accelerations q̈ₙ₊₁; qₙ₊₁ = qₙ + h q̇ₙ + h²/4 (q̈ₙ + q̈ₙ₊₁) and q̇ₙ₊₁ = q̇ₙ + h/2 (q̈ₙ + q̈ₙ₊₁).
// The tangent matrix is M + αΦ_qᵀΦ_q + (h²/4)((M q̈)_q + (Φ_qᵀλ)_q − Q_q) − (h/2) Q_q̇
// (the derivatives of αΦ_qᵀΦ̈ through q and q̇ are left out: they change the rate of the
// iteration, not its solution). λ* is updated by eq. 7 after every iteration. The
// converged qₙ₊₁ and q̇ₙ₊₁ are projected mass-orthogonally onto Φ = 0 and Φ̇ = 0
// (projectPosition, projectVelocity). α is relative to the mean mass as in ALI3; the
// linear algebra is dense but on the joint route (aliKrylov, as in ALI3); λ-dependent
// forces as in ALI3. Fixed steps only.
type ALI1 struct {
	// Alpha is the penalty factor α, relative to the mean mass, in [MinPenalty, MaxPenalty];
	// zero takes DefaultPenalty.
	Alpha float64
	// Newton holds the corrector knobs.
	Newton NewtonSettings

	aliRun
}

// Penalty factors of the augmented Lagrangian methods (seed 001: 1e5-1e7 for index 1,
// 1e7-1e9 for index 3, on constraints scaled to unity; Table 1 uses 1e7).
const (
	DefaultPenalty = 1e7
	// MinPenalty: below it the multiplier iteration contracts by m/(m + αh²/4) ≈ 1 per
	// iteration at ordinary steps and needs tens of iterations instead of 1-2.
	MinPenalty = 1e4
	// MaxPenalty: above it M + αΦ_qᵀΦ_q has a condition number near 1/ε·1e-4, and the
	// tangential part of every solve loses more than 12 digits.
	MaxPenalty = 1e12
)

// DefaultALIMaxIters is the iteration limit of the augmented Lagrangian correctors when
// NewtonSettings.MaxIters is 0. Each iteration is also a multiplier update (eqs. 7, 9),
// which contracts by about m/(m + α h²σ²/4) in index 3: 1-2 iterations at the paper's large
// steps, but a rate near 0.4 at α = 1e7, h = 1e-3 on the double pendulum's fast swing
// (t ≈ 1.9 s), where 8 iterations stopped the fixed-step run.
const DefaultALIMaxIters = 25

// aliFamily is what the registry entries of the augmented Lagrangian methods of seed 001
// (aliWork: ali3, ali1, and multi-index, which switches between them) share: the
// trapezoidal rule, second order in every block, and forces that depend on λ, pressed by λ
// of eq. 17 at the iterate (pressReaction). It is no method itself.
var aliFamily = Entry{
	Seed:           "001",
	Order:          Order{Q: 2, V: 2, Lambda: 2},
	ReactionForces: true,
}

var ali3Entry = aliFamily.variant("ali3",
	"augmented Lagrangian index 3, trapezoidal rule, projections of velocities and accelerations",
	"8-9 (multiplier iteration), projections of q̇ and q̈",
	func() Method { return &ALI3{} }).in([]Param{ali3PenaltyParam}, Index3)

var ali1Entry = aliFamily.variant("ali1",
	"augmented Lagrangian index 1, trapezoidal rule, projections of positions and velocities",
	"5-7 (multiplier iteration), projections of q and q̇",
	func() Method { return &ALI1{} }).in([]Param{ali1PenaltyParam}, Index1Projected)

// checkPenalty refuses a penalty factor outside [MinPenalty, MaxPenalty] with the reason.
func checkPenalty(method string, alpha float64) (float64, error) {
	if alpha == 0 {
		return DefaultPenalty, nil
	}
	switch {
	case math.IsNaN(alpha) || alpha < MinPenalty:
		return 0, fmt.Errorf("integrate: %s: penalty factor Alpha = %g below %g: the multiplier iteration (seed 001, eqs. 7, 9) would contract too slowly to converge in a few iterations (the paper uses 1e5-1e9 on constraints scaled to unity)", method, alpha, float64(MinPenalty))
	case alpha > MaxPenalty:
		return 0, fmt.Errorf("integrate: %s: penalty factor Alpha = %g above %g: M + αΦ_qᵀΦ_q would be too ill-conditioned to solve accurately (the paper uses 1e5-1e9 on constraints scaled to unity)", method, alpha, float64(MaxPenalty))
	}
	return alpha, nil
}

// Init checks the options, the fixed step and the consistency of start (|Φ| and
// |Φ̇| ≤ 1e-8 relative), computes the start accelerations and multipliers from eq. 6
// (the index-1 augmented Lagrangian, which needs no independent constraints) and sizes the
// workspace.
func (m *ALI3) Init(sys dae.System, start State, ctl StepControl) error {
	return m.start(newALIRun("ali3", 3, m.Alpha, m.Newton, sys, start, ctl))
}

// Init is ALI3.Init for the index-1 form.
func (m *ALI1) Init(sys dae.System, start State, ctl StepControl) error {
	return m.start(newALIRun("ali1", 1, m.Alpha, m.Newton, sys, start, ctl))
}

// aliRun is the run of an augmented Lagrangian method (ALI3, ALI1, MultiIndex): its
// workspace and accepted states, and the Method calls they all answer alike.
type aliRun struct {
	w         *aliWork
	*accepted // Current, Previous, Stats (method.go)
}

// start makes w, made by Init, the run; err, Init's failure, leaves the run as it was.
func (r *aliRun) start(w *aliWork, err error) error {
	if err != nil {
		return err
	}
	r.w, r.accepted = w, &w.accepted
	return nil
}

// Step takes one accepted step toward tEnd: of size FixedH (shortened to land on tEnd) in
// ALI3 and ALI1, of the size the rule of Fig. 4 chooses in MultiIndex.
func (r *aliRun) Step(tEnd float64) error { return r.w.step(tEnd) }

// Interpolate writes the cubic Hermite dense output at t into dst (hermiteInterpolate).
func (r *aliRun) Interpolate(dst *State, t float64) {
	hermiteInterpolate(dst, &r.w.prev, &r.w.cur, t)
}

// MultiplierIterations returns the largest number of multiplier updates (eq. 9) that an
// accepted step took: the Newton iterations of that step, each of which updates λ*.
func (m *ALI3) MultiplierIterations() int { return m.w.maxIters }

// MultiplierIterations returns the largest number of multiplier updates (eq. 7) that an
// accepted step took.
func (m *ALI1) MultiplierIterations() int { return m.w.maxIters }

// aliWork is the state of an augmented Lagrangian run, sized once by newALIRun.
type aliWork struct {
	name   string
	sys    dae.System
	der    *dae.Derivatives
	sec    *dae.SecondDerivatives // ∂Φ̈/∂q̈ of the index-1 tangent matrix
	nq, nc int
	index  int     // 3 or 1: the formulation of the next attempt
	alpha  float64 // α times the mean mass: index 1 and the projections
	// alpha3 is the penalty of the index-3 corrector (eqs. 8, 9): alpha, raised by
	// raisePenalty when the multiplier iteration contracts too slowly at the step, up to
	// alphaMax (MaxPenalty times the mean mass).
	alpha3, alphaMax float64
	stop             *aliStop
	nw               newtonSolver
	lad              ladder

	// The multi-index method (multiindex.go); nil and zero for ali3 and ali1.
	energy *energyMeter // the energy invariant, the error estimate
	multi  *multiRule   // its step-size and index rule
	report IndexReport  // switches, steps and time per index

	accepted           // cur, prev, stats: Current, Previous, Stats
	q, v, a  []float64 // iterate: positions, velocities, accelerations at tₙ₊₁
	lamStar  []float64 // λ* of the iteration
	phi      []float64 // Φ, Φ̈ or a constraint-level right side (nc)
	gt, gam  []float64 // g_t, γ (nc)
	f, r, dx []float64 // Q, residual, increment (nq)
	xs, rhs  []float64 // projection target and right side (nq)
	sig      []float64 // projection multipliers (nc)
	M, G, T1 *mat.Dense
	Jc, Tc   *mat.Dense // ∂Φ̈/∂q̈ and scratch (nc×nq), index 1
	lu       *linalg.LU // Newton tangent matrix
	plu      *linalg.LU // M + αGᵀG for the projections
	hTry     float64
	// jacobianPolicy is the user's NewtonSettings.Jacobian (attempt sets the solver's
	// per formulation).
	jacobianPolicy JacobianPolicy
	iter           int // iterations of the current attempt
	maxIters       int // largest number of iterations of an accepted step

	// λ-dependent forces (dae.ReactionForce), nil without: eq. 17 with f_λ at the
	// iterate (pressReaction), its solver on M + αGᵀG and its buffers.
	rx     *reactionAccel
	al     aliEq17
	lamHat []float64 // nc: λ of eq. 17 at the iterate, which presses f_λ
	aHat   []float64 // nq: the accelerations of that solve
	// Bq, Bc: the derivative of eq. 17's two block rows along the iterate (addLambdaHat);
	// colQ, dLam: one column and its δλ̂.
	Bq, Bc     *mat.Dense
	colQ, dLam []float64

	// kp is the Newton-Krylov path on dae.MassSolver systems (alikrylov.go): M, T1, lu
	// and plu are nil then. nil on the dense path.
	kp *aliKrylov
}

// newALIRun resolves the options and starts a run of the given index.
func newALIRun(name string, index int, alpha float64, ns NewtonSettings, sys dae.System, start State, ctl StepControl) (*aliWork, error) {
	if err := refuseFirstOrder(name, sys); err != nil {
		return nil, err
	}
	alpha, err := checkPenalty(name, alpha)
	if err != nil {
		return nil, err
	}
	if ctl.FixedH <= 0 {
		return nil, fmt.Errorf("integrate: %s: fixed step only: StepControl.FixedH = %g, want > 0 (the multi-index method controls the step)", name, ctl.FixedH)
	}
	w, err := newALIWork(name, index, alpha, ns, sys, start, ctl)
	if err != nil {
		return nil, err
	}
	return w, nil
}

// aliForm is the Formulation of the augmented Lagrangian method name run in index (3 or
// 1), for messages.
func aliForm(name string, index int) Formulation {
	switch {
	case name == multiIndexEntry.Name:
		return IndexSwitching
	case index == 1:
		return Index1Projected
	}
	return Index3
}

// newALIWork checks start, sizes the workspace and computes the start accelerations.
func newALIWork(name string, index int, alpha float64, ns NewtonSettings, sys dae.System, start State, ctl StepControl) (*aliWork, error) {
	if err := refuseFirstOrder(name, sys); err != nil {
		return nil, err
	}
	if err := refuseNonholonomic(name, sys); err != nil {
		return nil, err
	}
	if err := refuseDenseNewton(name, aliForm(name, index), sys, denseWhyTakingReaction(sys)); err != nil {
		return nil, err
	}
	if ns.MaxIters == 0 {
		ns.MaxIters = DefaultALIMaxIters
	}
	ns, err := ns.Resolve()
	if err != nil {
		return nil, fmt.Errorf("integrate: %s: %w", name, err)
	}
	if _, err := ctl.resolveAt(start.T, len(start.Q)); err != nil {
		return nil, fmt.Errorf("integrate: %s: %w", name, err)
	}
	nq, nc := sys.Size()
	if len(start.Q) != nq || len(start.V) != nq {
		panic(fmt.Sprintf("integrate: %s: Init: start has len(Q) = %d, len(V) = %d, want %d", name, len(start.Q), len(start.V), nq))
	}
	meter := dae.NewResidualMeter(sys)
	r := meter.Measure(start.T, start.Q, start.V, nil)
	if r.Pos > 1e-8*math.Max(1, hhtMaxAbs(start.Q)) || r.Vel > 1e-8*math.Max(1, hhtMaxAbs(start.V)) ||
		math.IsNaN(r.Pos) || math.IsNaN(r.Vel) {
		return nil, fmt.Errorf("integrate: %s: inconsistent start at t=%g: |g| = %.2g at %s, |G v + g_t| = %.2g (want ≤ 1e-8 relative)",
			name, start.T, r.Pos, dae.ConstraintName(sys, max(r.WorstPos, 0)), r.Vel)
	}
	w := &aliWork{name: name, sys: sys, der: dae.NewDerivatives(sys), nq: nq, nc: nc, index: index}
	w.cur, w.prev = NewState(nq, nc), NewState(nq, nc)
	vec := func(k int) []float64 { return make([]float64, k) }
	w.q, w.v, w.a, w.f, w.r, w.dx, w.xs, w.rhs = vec(nq), vec(nq), vec(nq), vec(nq), vec(nq), vec(nq), vec(nq), vec(nq)
	w.lamStar, w.phi, w.gt, w.gam, w.sig = vec(nc), vec(nc), vec(nc), vec(nc), vec(nc)
	if w.kp = newALIKrylov(w, sys); w.kp == nil {
		w.M, w.T1 = mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
		w.lu, w.plu = linalg.NewLU(nq), linalg.NewLU(nq)
	}
	if nc > 0 {
		w.G, w.Jc, w.Tc = mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil)
	}
	w.sec = dae.NewSecondDerivatives(sys)
	if w.kp != nil {
		w.rx = w.kp.newReaction(sys) // f_λ only: no derivative matrices on the path
	} else {
		w.rx = newReactionAccel(sys, nil)
	}
	if w.rx != nil {
		w.lamHat, w.aHat = vec(nc), vec(nq)
		w.al = aliEq17{w: w, rhs: vec(nq), b: vec(nc)}
		w.rx.tol = aliEq17Tol
		if nc > 0 && w.kp == nil {
			w.Bq, w.Bc = mat.NewDense(nq, nq, nil), mat.NewDense(nc, nq, nil)
			w.colQ, w.dLam = vec(nq), vec(nc)
		}
	}
	w.nw = newNewtonSolver(ns, &w.stats)
	w.stop = &aliStop{s: ns, floor: &w.nw.mon.floor}
	w.nw.rule = w.stop
	w.jacobianPolicy = ns.Jacobian
	w.lad = ladder{name: name, m: w, raw: ctl, stats: &w.stats, cur: &w.cur, fc: newFailureContext(sys, &start)}
	w.cur.T = start.T
	copy(w.cur.Q, start.Q)
	copy(w.cur.V, start.V)
	tr := w.massTrace(start.T, start.Q)
	if tr == 0 || math.IsNaN(tr) {
		tr = float64(nq)
	}
	w.alpha = alpha * tr / float64(nq)
	w.alpha3, w.alphaMax = w.alpha, MaxPenalty*tr/float64(nq)
	if err := w.accelerations(start.T, w.cur.Q, w.cur.V, w.cur.A, w.cur.Lambda); err != nil {
		return nil, fmt.Errorf("integrate: %s: start at t=%g: %w", name, start.T, err)
	}
	copy(w.lamStar, w.cur.Lambda)
	w.prev.CopyFrom(&w.cur)
	return w, nil
}

// refuseFirstOrder refuses a dae.FirstOrder system: the augmented Lagrangian methods do
// not integrate first-order states.
func refuseFirstOrder(name string, sys dae.System) error {
	if n := dae.StateSize(sys); n > 0 {
		return fmt.Errorf("integrate: %s: the system has %d first-order states (dae.FirstOrder), which this method does not integrate; use hht or dopri5", name, n)
	}
	return nil
}

// step takes one accepted step toward tEnd through the ladder.
func (w *aliWork) step(tEnd float64) error {
	mustInit(w != nil, "ali")
	return w.lad.step(tEnd)
}

// setup sets the Newton floor and, for multi-index, its step rule (stepper).
func (w *aliWork) setup(tEnd float64) error {
	c := w.lad.c
	w.nw.mon.floor = tenUlpFloor(c.RTol, c.ATol)
	if w.multi != nil && !w.lad.fixed {
		w.multi.setup(c, w.cur.T, tEnd)
		w.lad.rule = w.multi
	}
	return nil
}

// attempt runs the Newton loop for a step of size h with a fresh tangent matrix: the
// penalty terms αΦ_qᵀΦ_q change with q so fast that a matrix kept from the last step
// costs more iterations than its assembly (measured on the pendulum: the first increment
// with a kept matrix is 25 times the fresh one). The paper keeps it constant within a
// step (seed 001, after eq. 7), as JacobianEveryStep does.
//
// Index 1 refreshes the matrix at every iteration: a matrix from an iterate δq away
// couples the tangential block to the penalty by about α·δq·|G_q| (the rotation of G), which
// at α = 1e7 exceeds M once δq passes 1e-7 and stalls the iteration (measured on the
// pendulum: Φ̈ contracted by 0.8 per iteration with the matrix of the first iterate).
// Index 3 scales that coupling by h²/4 and keeps the matrix.
func (w *aliWork) attempt(h float64) (int, error) {
	if w.multi != nil {
		if err := w.multi.applySwitch(); err != nil {
			w.stats.countFailure(err)
			return 0, err
		}
	}
	w.hTry = h
	w.nw.s.Jacobian = w.jacobianPolicy
	if w.index == 1 && w.jacobianPolicy != JacobianEveryStep {
		w.nw.s.Jacobian = JacobianEveryIteration
	}
	used, err := w.nw.attempt(w, h, true)
	for err != nil && w.raisePenalty() {
		u, e := w.nw.attempt(w, h, true)
		used, err = used+u+1, e
	}
	return used, err
}

// Rates of the index-3 multiplier iteration that raisePenalty reads and aims at.
const (
	aliSlowRate   = 0.5 // a failed attempt contracting slower than this raises α
	aliTargetRate = 0.1 // the rate the raised α is computed for
)

// raisePenalty raises the index-3 penalty after a failed attempt whose iteration was still
// contracting, at a rate θ in (aliSlowRate, 1), and reports whether it did. The multiplier
// iteration (eq. 9) contracts by θ ≈ m/(m + αh²σ/4) (σ an eigenvalue of Φ_q M⁻¹Φ_qᵀ times
// m): the seed's α = 1e7 gives αh²/4 = 2.5 m at its Δt = 1e-3 but 2.5e-4 m at 1e-5, where
// the crank's slowest mode contracts by 0.988 per iteration and no stop rule can call it
// converged within MaxIters. Solving the rate for αh²σ/(4m) = 1/θ − 1 gives the α whose
// rate is aliTargetRate: α·(1/aliTargetRate − 1)/(1/θ − 1). The raised α stays for the rest
// of the run (a step's rate changes slowly); runs that converge never see it.
func (w *aliWork) raisePenalty() bool {
	th := w.stop.theta
	if w.index != 3 || !(th > aliSlowRate && th < 1) || w.alpha3 >= w.alphaMax {
		return false
	}
	w.alpha3 = math.Min(w.alpha3*(1/aliTargetRate-1)/(1/th-1), w.alphaMax)
	return true
}

// penalty is the α of the corrector's residual and multiplier update (eqs. 5-9).
func (w *aliWork) penalty() float64 {
	if w.index == 3 {
		return w.alpha3
	}
	return w.alpha
}

// errorNorm is the multi-index method's estimate, the relative change of the energy
// invariant over the attempt (eqs. 11-12) divided by U_r, so that 1 is the limit; the
// fixed-step methods have none (0).
func (w *aliWork) errorNorm(h float64) float64 {
	if w.energy == nil || w.lad.fixed {
		return 0
	}
	e := w.energy.trial(h, w.cur.T+h, w.q, w.v, w.lamStar)
	w.multi.lastE = e
	return e / w.multi.upper
}

// commit makes the projected iterate the current state.
func (w *aliWork) commit(h float64) error {
	w.prev.CopyFrom(&w.cur)
	w.cur.advance(h, w.q, w.v, w.a, w.lamStar)
	w.maxIters = max(w.maxIters, w.iter)
	w.stats.Steps++
	if w.energy != nil {
		if !w.lad.fixed {
			w.energy.accept()
		}
		w.report.count(w.index, h)
	}
	return nil
}

// predict starts from a constant acceleration: a = aₙ (index 1) or
// q = qₙ + h q̇ₙ + h²/2 q̈ₙ (index 3); λ* starts from the last step's.
func (w *aliWork) predict(h float64, _ bool) error {
	w.hTry = h
	w.iter = 0
	s := &w.cur
	copy(w.a, s.A)
	copy(w.lamStar, s.Lambda)
	w.trapezoid(h)
	return nil
}

// trapezoid writes q, v from the accelerations a at tₙ₊₁ (index 1), or v, a from the
// positions q (index 3), by the trapezoidal rule.
func (w *aliWork) trapezoid(h float64) {
	s := &w.cur
	for i := range w.nq {
		w.q[i] = s.Q[i] + h*s.V[i] + h*h/4*(s.A[i]+w.a[i])
		w.v[i] = s.V[i] + h/2*(s.A[i]+w.a[i])
	}
}

// fromPositions writes v and a at tₙ₊₁ from q by the trapezoidal rule (index 3).
func (w *aliWork) fromPositions(h float64) {
	s := &w.cur
	for i := range w.nq {
		w.v[i] = 2/h*(w.q[i]-s.Q[i]) - s.V[i]
		w.a[i] = 4/(h*h)*(w.q[i]-s.Q[i]) - 4/h*s.V[i] - s.A[i]
	}
}

// constraintLevel writes Φ (index 3) or Φ̈ = G a − γ (index 1) at the iterate into w.phi;
// G is evaluated at q.
func (w *aliWork) constraintLevel(t float64) {
	if w.nc == 0 {
		return
	}
	w.sys.ConstraintJacobian(w.G, t, w.q)
	if w.index == 3 {
		w.sys.Constraint(w.phi, t, w.q)
		return
	}
	w.sys.Gamma(w.gam, t, w.q, w.v)
	for i := range w.nc {
		w.phi[i] = dot(w.G.RawRowView(i), w.a) - w.gam[i]
	}
}

// atIterate completes the iterate of an attempt of size h by the trapezoidal rule (v and
// a from q in index 3, q and v from a in index 1) and evaluates its constraint level;
// it returns tₙ₊₁.
func (w *aliWork) atIterate(h float64) float64 {
	t := w.cur.T + h
	if w.index == 3 {
		w.fromPositions(h)
	} else {
		w.trapezoid(h)
	}
	w.constraintLevel(t)
	return t
}

// updateMultipliers is the multiplier iteration λ* += αΦ (eq. 9) or αΦ̈ (eq. 7).
func (w *aliWork) updateMultipliers() {
	alpha := w.penalty()
	for i := range w.nc {
		w.lamStar[i] += alpha * w.phi[i]
	}
}

func dot(x, y []float64) float64 {
	var s float64
	for i, xi := range x {
		s += xi * y[i]
	}
	return s
}

// residual evaluates eq. 8 (index 3, times h²/4) or eq. 5 (index 1) at the iterate; from
// the second iteration on it first updates λ* by eq. 9 or eq. 7.
func (w *aliWork) residual() error {
	h := w.hTry
	t := w.atIterate(h)
	if w.iter > 0 {
		w.updateMultipliers() // eqs. 7, 9
	}
	w.iter++
	w.sys.Force(w.f, t, w.q, w.v)
	w.stats.FuncEvals++
	w.massAt(t, w.q)
	if err := w.pressReaction(t); err != nil {
		return err
	}
	w.mulM(w.r, w.a)
	for i, f := range w.f {
		w.r[i] -= f
	}
	alpha := w.penalty()
	for k := range w.nc {
		mu := w.lamStar[k] + alpha*w.phi[k]
		for j, gkj := range w.G.RawRowView(k) {
			w.r[j] += gkj * mu
		}
	}
	if w.index == 3 {
		for i := range w.r {
			w.r[i] *= h * h / 4
		}
	}
	return finiteResidual(w, w.r)
}

// factor assembles the tangent matrix at the iterate (see ALI3, ALI1) and factorizes it.
func (w *aliWork) factor() error {
	if w.kp != nil {
		return w.kp.factor()
	}
	h := w.hTry
	t := w.cur.T + h
	before := w.der.Evals
	K := w.lu.Matrix().Data
	n := w.nq
	c2 := h * h / 4
	for i := range n {
		copy(K[i*n:(i+1)*n], w.M.RawRowView(i))
	}
	add := func(B *mat.Dense, s float64) {
		for i := range n {
			bi := B.RawRowView(i)
			for j := range n {
				K[i*n+j] += s * bi[j]
			}
		}
	}
	w.der.MassDerivative(w.T1, t, w.q, w.a)
	add(w.T1, c2)
	if w.nc > 0 {
		// (Gᵀλ*)_q, not (Gᵀ(λ* + αΦ))_q: far from the solution αΦ is orders of magnitude
		// above the multiplier it converges to (αΦ̈ = 9e6 against λ = 20 on the pendulum's
		// first index-1 iterate), and the curvature it would add stalls the iteration.
		w.der.ConstraintForceDerivative(w.T1, t, w.q, w.lamStar)
		add(w.T1, c2)
	}
	w.der.ForceDerivativeQ(w.T1, t, w.q, w.v)
	add(w.T1, -c2)
	w.der.ForceDerivativeV(w.T1, t, w.q, w.v)
	add(w.T1, -h/2)
	if w.rx != nil { // ∂f_λ/∂(q, v) at λ̂, and ∂f_λ/∂λ through λ̂(q, v)
		if err := w.addLambdaHat(K, t, h); err != nil {
			return err
		}
	}
	before += w.sec.Evals
	if w.index == 3 {
		w.addGTG(K, w.alpha3*c2)
	} else {
		w.addPhiDDot(K, t, h)
	}
	w.stats.FDEvals += w.der.Evals + w.sec.Evals - before
	w.stats.Jacobians++
	w.stats.Factorizations++
	if err := w.lu.Factor(); err != nil {
		w.noteWorstResidual()
		if !allFinite(K) {
			return ErrNonFinite
		}
		return err
	}
	return nil
}

// addPhiDDot adds αGᵀ ∂Φ̈/∂q̈ to K (index 1): through q = q̂ + h²/4 q̈ and v = v̂ + h/2 q̈,
// ∂Φ̈/∂q̈ = G + h²/4 (∂(G q̈)/∂q − ∂γ/∂q) − h/2 ∂γ/∂v.
func (w *aliWork) addPhiDDot(K []float64, t, h float64) {
	if w.nc == 0 {
		return
	}
	c2 := h * h / 4
	w.Jc.Copy(w.G)
	w.sec.ConstraintJacobianDerivative(w.Tc, t, w.q, w.a)
	addScaled(w.Jc, w.Tc, c2)
	w.sec.GammaDerivativeQ(w.Tc, t, w.q, w.v)
	addScaled(w.Jc, w.Tc, -c2)
	w.sec.GammaDerivativeV(w.Tc, t, w.q, w.v)
	addScaled(w.Jc, w.Tc, -h/2)
	n := w.nq
	for k := range w.nc {
		gk, jk := w.G.RawRowView(k), w.Jc.RawRowView(k)
		for i, gi := range gk {
			if gi == 0 {
				continue
			}
			row := K[i*n : (i+1)*n]
			for j, jj := range jk {
				row[j] += w.alpha * gi * jj
			}
		}
	}
}

// addScaled adds s·B to A (same shape; mat.Dense.Add with aliasing would allocate).
func addScaled(A, B *mat.Dense, s float64) {
	r, _ := A.Dims()
	for i := range r {
		ai, bi := A.RawRowView(i), B.RawRowView(i)
		for j, b := range bi {
			ai[j] += s * b
		}
	}
}

// addGTG adds s·GᵀG to the row-major nq×nq matrix K.
func (w *aliWork) addGTG(K []float64, s float64) {
	n := w.nq
	for k := range w.nc {
		gk := w.G.RawRowView(k)
		for i, gi := range gk {
			if gi == 0 {
				continue
			}
			row := K[i*n : (i+1)*n]
			for j, gj := range gk {
				row[j] += s * gi * gj
			}
		}
	}
}

// increment solves for the Newton increment of q (index 3) or a (index 1), applies it and
// returns the weighted norm of its effect on q.
func (w *aliWork) increment() float64 {
	h := w.hTry
	if w.kp != nil {
		w.kp.increment()
	} else {
		for i := range w.r {
			w.dx[i] = -w.r[i]
		}
		w.lu.Solve(w.dx)
	}
	if w.index == 3 {
		for i := range w.q {
			w.q[i] += w.dx[i]
		}
	} else {
		for i := range w.a {
			w.a[i] += w.dx[i]
			w.dx[i] *= h * h / 4
		}
		w.trapezoid(h)
	}
	return WeightedRMS(w.dx, w.cur.Q, w.q, w.lad.c.RTol, w.lad.c.ATol)
}

// aliStop is the stop rule of the augmented Lagrangian correctors (stopRule): converged
// when a measured rate θ < 1 bounds the iterate's error, θ/(1−θ)·‖Δ‖ ≤ Tol (seed 004, eq.
// 46, as newtonMonitor), or when the increment is at rounding level; diverged after
// aliMaxGrowth increments that grew, at MaxIters, or on a non-finite increment. Unlike
// newtonMonitor it does not give up at the first growth: on the double pendulum's whip
// (seed 001, Table 1, Δt = 1e-2, t = 1.96 s) the index-3 iteration grows once (rate 1.17)
// before it contracts, as the multiplier updates catch up with the penalty forces.
type aliStop struct {
	s           NewtonSettings
	floor       *float64 // newtonMonitor.floor of the solver (set per run by setup)
	iter, grown int
	prev, theta float64
	// eta is θ/(1−θ) of the last converged attempt, which judges the first increment of the
	// next (radau5's FACCON, as newtonMonitor): the paper's 1 iteration per step at small Δt.
	eta float64
}

// aliMaxGrowth is the number of growing increments an attempt tolerates.
const aliMaxGrowth = 3

func (a *aliStop) start() {
	a.iter, a.grown, a.prev, a.theta = 0, 0, 0, 0
	if a.eta == 0 {
		a.eta = 1
	}
	a.eta = math.Pow(math.Max(a.eta, 1e-16), 0.8)
}

func (a *aliStop) rate() float64 { return a.theta }

func (a *aliStop) update(norm float64) newtonStatus {
	a.iter++
	if math.IsNaN(norm) || math.IsInf(norm, 0) {
		return newtonDiverged
	}
	if norm == 0 || (a.iter > 1 && norm <= *a.floor) {
		return newtonConverged
	}
	if a.iter == 1 && a.eta*norm <= a.s.Tol {
		return newtonConverged
	}
	if a.iter > 1 {
		a.theta = norm / a.prev
		if a.theta < 1 && a.theta/(1-a.theta)*norm <= a.s.Tol {
			a.eta = a.theta / (1 - a.theta)
			return newtonConverged
		}
		if a.theta >= 1 {
			a.grown++
		}
	}
	a.prev = norm
	if a.grown >= aliMaxGrowth || a.iter >= a.s.MaxIters {
		return newtonDiverged
	}
	return newtonContinue
}

// converged applies the last multiplier update and the projections of the formulation.
func (w *aliWork) converged() error {
	if w.kp != nil && w.kp.missed {
		return ErrNoConvergence // the last increment's GMRES solve missed: its norm says nothing
	}
	t := w.atIterate(w.hTry)
	w.updateMultipliers()
	if !allFinite(w.q) || !allFinite(w.a) || !allFinite(w.lamStar) {
		return ErrNonFinite
	}
	if w.nc == 0 {
		return nil
	}
	if w.index == 1 {
		if err := w.projectPosition(t); err != nil {
			return err
		}
	}
	if err := w.projectVelocity(t); err != nil {
		return err
	}
	return w.projectAcceleration(t)
}

// diverged names the worst residual of a diverged iteration.
func (w *aliWork) diverged() error { return notedDivergence(w, w.dx) }

// noteWorstResidual records the largest residual component with its coordinate for a report, in
// force units: index 3 iterates on eq. 8 times h²/4, which at h = 1e-5 would report an
// unbalanced force of 0.06 N as 1.4e-12, a value that reads as rounding.
func (w *aliWork) noteWorstResidual() {
	bi := largest(w.r)
	v := w.r[bi]
	if w.index == 3 {
		v /= w.hTry * w.hTry / 4
	}
	w.lad.worst = Residual{Block: "equation of motion", Index: bi, Value: v, Owner: dae.CoordinateName(w.sys, bi)}
}

// Projections (Bayo and Ledesma 1996, as used by seed 001): the mass-orthogonal
// projection of x* onto G x = b minimizes (x − x*)ᵀM(x − x*) subject to G x = b. The
// augmented Lagrangian iteration
//
//	(M + αGᵀG) xₖ₊₁ = M x* + Gᵀ(α b − σₖ),    σₖ₊₁ = σₖ + α(G xₖ₊₁ − b),
//
// converges to it (σ to its multiplier) with the rate of the multiplier iteration, whatever
// the rank of G, so redundant constraints and singular positions need no reduction. It
// stops when |G x − b| ≤ projTol relative to the scale of G x.

// projTol is the constraint residual a projection stops at, relative to max(1, |G||x|).
const projTol = 1e-13

// projMaxIters bounds the projection iterations; at α = 1e7 relative to the mass, 2-3
// suffice (contraction m/(m + ασ²) per iteration, σ the smallest nonzero singular value
// of G).
const projMaxIters = 30

// factorProjection assembles and factorizes M + αGᵀG at t, q (G and M already evaluated
// there).
func (w *aliWork) factorProjection() error {
	if w.kp != nil {
		return w.kp.factorProjection()
	}
	n := w.nq
	P := w.plu.Matrix().Data
	for i := range n {
		copy(P[i*n:(i+1)*n], w.M.RawRowView(i))
	}
	w.addGTG(P, w.alpha)
	w.stats.Factorizations++
	if err := w.plu.Factor(); err != nil {
		return err
	}
	return nil
}

// solveProjected runs the iteration above in increment form: rhs0 is M x* (or any fixed
// right side), b the constraint level; x holds a first guess on entry and the result on
// return, σ starts from sig and ends as the multiplier. It returns ErrNoConvergence when
// |G x − b| stays above the tolerance.
//
// Each iteration solves (M + αGᵀG) Δ = rhs0 − M xₖ + Gᵀ(α(b − G xₖ) − σₖ) for the change
// Δ = xₖ₊₁ − xₖ, the same iterate as solving for xₖ₊₁ itself, but the solve's rounding,
// which M + αGᵀG (condition near α) amplifies by α, now lands on the small Δ instead of
// on x: solving for x added a tangential error of about αε|x| at every step, a drift that
// grew with the number of steps and with α (seed 001, Table 1: the energy error of both
// methods rose from 5e-9 to 5e-8 J over 0.1 s as Δt fell from 1e-4 to 1e-6, and by 10×
// per decade of α).
func (w *aliWork) solveProjected(x, rhs0, b []float64) error {
	prev := math.Inf(1)
	d := w.dx
	for it := 0; it < projMaxIters; it++ {
		w.mulM(d, x)
		for i, r := range rhs0 {
			d[i] = r - d[i]
		}
		for k := range w.nc {
			row := w.G.RawRowView(k)
			c := w.alpha*(b[k]-dot(row, x)) - w.sig[k]
			for j, gkj := range row {
				d[j] += gkj * c
			}
		}
		w.solveProjection(d)
		w.stats.Solves++
		for i, di := range d {
			x[i] += di
		}
		worst, scale := 0.0, 1.0
		for k := range w.nc {
			row := w.G.RawRowView(k)
			e := dot(row, x) - b[k]
			w.sig[k] += w.alpha * e
			worst = math.Max(worst, math.Abs(e))
			scale = math.Max(scale, math.Abs(b[k]))
			for j, gkj := range row {
				scale = math.Max(scale, math.Abs(gkj*x[j]))
			}
		}
		if !(worst == worst) || math.IsInf(worst, 0) {
			return ErrNonFinite
		}
		if projDone(worst, prev, scale) {
			return nil
		}
		prev = worst
	}
	return ErrNoConvergence
}

// projDone says whether a projection with residual worst (prev at the iteration before,
// +Inf at the first) relative to scale has converged: below projTol, or stalled by
// rounding below projFloor (at α = 1e9 on a light body, M + αGᵀG has a condition number
// near 1e11 and the last digits of G x − b are noise).
func projDone(worst, prev, scale float64) bool {
	return worst <= projTol*scale || (worst > 0.5*prev && worst <= projFloor*scale)
}

// projFloor is the residual, relative to the scale of G x, that a stalled projection
// accepts: a tenth of the 1e-10 the methods promise.
const projFloor = 1e-11

// projectVelocity projects v onto G v + g_t = 0 at (t, q) (M and G evaluated at q).
func (w *aliWork) projectVelocity(t float64) error {
	w.massAt(t, w.q)
	w.sys.ConstraintJacobian(w.G, t, w.q)
	if err := w.factorProjection(); err != nil {
		return err
	}
	w.sys.ConstraintTimeDerivative(w.gt, t, w.q)
	for k := range w.gt {
		w.gt[k] = -w.gt[k]
	}
	w.mulM(w.rhs, w.v)
	clear(w.sig)
	w.stats.Projections++
	return w.solveProjected(w.v, w.rhs, w.gt)
}

// projectAcceleration makes q̈ and λ satisfy eq. 6 at the projected (q, q̇), with the
// factorization of projectVelocity: the mass-orthogonal projection onto Φ̈ = 0 of the
// acceleration M⁻¹Q(q, q̇), which is the projection of the corrector's q̈* when its
// residual M q̈* + Φ_qᵀλ − Q vanishes. Projecting q̈* itself would carry the corrector's
// residual into λ amplified by α (measured on the pendulum at the default tolerance: λ
// errors of 0.3 against 2e-3 here); λ is the converged multiplier of eq. 7.
func (w *aliWork) projectAcceleration(t float64) error {
	w.sys.Force(w.f, t, w.q, w.v)
	w.stats.FuncEvals++
	w.sys.Gamma(w.gam, t, w.q, w.v)
	w.stats.Projections++
	return w.solveEq17(t, w.q, w.v, w.a, w.lamStar)
}

// solveEq17 overwrites a and lambda with the solution of eq. 17, M a + Gᵀλ = Q + f_λ(λ),
// G a = γ, at (t, q, v), with Q in w.f, γ in w.gam, M and G evaluated at q and M + αGᵀG
// factorized there: the projection of solveProjected (a is its first guess) without
// λ-dependent forces, Newton on λ (reactionAccel) around it with them.
func (w *aliWork) solveEq17(t float64, q, v, a, lambda []float64) error {
	if w.rx == nil {
		clear(w.sig)
		if err := w.solveProjected(a, w.f, w.gam); err != nil {
			return err
		}
		copy(lambda, w.sig)
		return nil
	}
	if w.kp != nil {
		return w.kp.solveEq17(t, q, v, a, lambda)
	}
	copy(a, w.f)
	copy(lambda, w.gam)
	w.al.err = nil
	if err := w.rx.solve(&w.al, a, lambda, t, q, v, &w.stats); err != nil {
		return err
	}
	return w.al.err
}

// pressReaction adds f_λ(t, q, v, λ̂) to w.f at the iterate, where λ̂ is the multiplier of
// eq. 17 at (q, v) with f_λ (M and G evaluated at q). Not λ* + αΦ (or λ* + αΦ̈): that is
// the multiplier of the trapezoidal q̈ₙ₊₁ = 4/h²(qₙ₊₁ − qₙ − h q̇ₙ) − q̈ₙ, which is O(h)
// off along Gᵀ (−h/3 of ⃛q there, as q̈ₙ is the projected one), harmless while λ acts along
// Gᵀ. Measured on the pendulum of testsys_test.go at t = 0.5: λ* + αΦ − λ = −3.5e-2,
// −1.75e-2 at h = 4e-3, 2e-3, of one sign from step to step (a bias, not an oscillation
// that a mean over the step would cancel), while the projected λ converges with order 2.
// Friction turns that bias into a tangential force error O(h), v's local error O(h²):
// order 1 (measured |Δq(0.5)| = 6.0e-5, 3.1e-5, 1.6e-5 at h = 2e-3, 1e-3, 5e-4 on the
// friction pendulum). λ̂ is O(h²) accurate with the iterate's (q, v) (v off Φ̇ = 0 by
// O(h²)), as the trapezoidal rule needs: order 2 (TestALIReactionOrders).
func (w *aliWork) pressReaction(t float64) error {
	if w.rx == nil {
		return nil
	}
	if w.nc > 0 {
		if err := w.factorProjection(); err != nil {
			return err
		}
		w.sys.Gamma(w.gam, t, w.q, w.v)
		if err := w.solveEq17(t, w.q, w.v, w.aHat, w.lamHat); err != nil {
			return err
		}
	}
	w.rx.rx.add(w.f, t, w.q, w.v, w.lamHat)
	return nil
}

// addLambdaHat adds to the tangent matrix K the derivative of −f_λ(q, v, λ̂(q, v)) along
// the iterate (x = q in index 3, scaled by h²/4, or x = q̈ in index 1; in both
// ∂q/∂x = h²/4 and ∂v/∂x = h/2 after the scaling): −(h²/4 ∂f_λ/∂q + h/2 ∂f_λ/∂v) and
// −∂f_λ/∂λ ∂λ̂/∂x. λ̂ depends on the iterate as the solution of eq. 17 does; its derivative
// δλ̂ solves the linearized eq. 17,
//
//	M δa + Gᵀδλ − ∂f_λ/∂λ δλ = Bq δx,   G δa = Bc δx,
//	Bq = h²/4 (∂(f + f_λ)/∂q − (M â)_q − (Gᵀλ̂)_q) + h/2 ∂(f + f_λ)/∂v,
//	Bc = −h²/4 (∂(G â)/∂q − ∂γ/∂q) + h/2 ∂γ/∂v,
//
// column by column with reactionAccel's Newton matrix (I − S⁻¹ G M⁻¹ ∂f_λ/∂λ) on eq. 17's
// solve: nq solves per matrix, affordable at the sizes of dense ALI. Without it the
// iteration converged linearly (rate 0.87 on the 10-bar chain with pin friction at
// h = 2e-3, which stopped at 25 iterations), since λ̂ moves with the iterate.
func (w *aliWork) addLambdaHat(K []float64, t, h float64) error {
	n, c2 := w.nq, h*h/4
	rx := w.rx.rx
	rx.derivatives(t, w.q, w.v, w.lamHat)
	w.stats.Jacobians++
	rx.addDense(K, n, 0, 0, 0, 0, -c2, -h/2, 0)
	if w.nc == 0 {
		return nil
	}
	w.Bq.Zero()
	addScaled(w.Bq, rx.Fq, c2)
	addScaled(w.Bq, rx.Fv, h/2)
	w.der.ForceDerivativeQ(w.T1, t, w.q, w.v)
	addScaled(w.Bq, w.T1, c2)
	w.der.ForceDerivativeV(w.T1, t, w.q, w.v)
	addScaled(w.Bq, w.T1, h/2)
	w.der.MassDerivative(w.T1, t, w.q, w.aHat)
	addScaled(w.Bq, w.T1, -c2)
	w.der.ConstraintForceDerivative(w.T1, t, w.q, w.lamHat)
	addScaled(w.Bq, w.T1, -c2)
	w.Bc.Zero()
	w.sec.ConstraintJacobianDerivative(w.Tc, t, w.q, w.aHat)
	addScaled(w.Bc, w.Tc, -c2)
	w.sec.GammaDerivativeQ(w.Tc, t, w.q, w.v)
	addScaled(w.Bc, w.Tc, c2)
	w.sec.GammaDerivativeV(w.Tc, t, w.q, w.v)
	addScaled(w.Bc, w.Tc, h/2)
	// M + αGᵀG at the iterate, factorized again: pressReaction's factorization at the
	// same iterate is not relied on (one more nq×nq factorization per tangent matrix)
	if err := w.factorProjection(); err != nil {
		return err
	}
	if err := w.rx.newtonMatrix(&w.al, t, w.q, w.v, &w.stats); err != nil {
		return err
	}
	rx.derivatives(t, w.q, w.v, w.lamHat) // newtonMatrix evaluated them at its own λ
	w.al.err = nil
	for j := range n {
		for i := range n {
			w.colQ[i] = w.Bq.At(i, j)
		}
		for k := range w.nc {
			w.dLam[k] = w.Bc.At(k, j)
		}
		w.al.Solve(w.colQ, w.dLam)
		w.rx.jac.Solve(w.dLam)
		w.stats.Solves++
		for i := range n {
			K[i*n+j] -= dot(rx.Fl.RawRowView(i), w.dLam)
		}
	}
	return w.al.err
}

// aliEq17Tol is the relative accuracy of λ from the projection of solveProjected, where
// the Newton iteration on λ of eq. 17 stops: σ converges to about α·projTol·|G||a|
// (measured 9e-9 relative on the friction pendulum, whose λ is about 10).
const aliEq17Tol = 1e-8

// aliEq17 solves eq. 17 without f_λ for reactionAccel (its Solve(x, y): x = Q, y = γ on
// entry, a and λ on return) by the projection of solveProjected on the factorization of
// M + αGᵀG, which needs no independent constraints; err keeps its first failure.
type aliEq17 struct {
	w      *aliWork
	rhs, b []float64
	err    error
}

func (e *aliEq17) Solve(x, y []float64) {
	copy(e.rhs, x)
	copy(e.b, y)
	clear(x)
	clear(e.w.sig)
	if err := e.w.solveProjected(x, e.rhs, e.b); err != nil && e.err == nil {
		e.err = err
	}
	copy(y, e.w.sig)
}

// projectPosition projects q onto Φ(q) = 0 mass-orthogonally (index 1): the nonlinear
// form of the iteration above, with M + αGᵀG refactorized at every iterate after the first
// (kept at q*, the iteration diverged on the double pendulum's whip at Δt = 1e-2),
//
//	(M + αGᵀG) Δq = −M(q − q*) − Gᵀ(σₖ + αΦ(qₖ)),    σₖ₊₁ = σₖ + αΦ(qₖ₊₁).
func (w *aliWork) projectPosition(t float64) error {
	w.massAt(t, w.q)
	if err := w.factorProjection(); err != nil {
		return err
	}
	copy(w.xs, w.q)
	clear(w.sig)
	w.stats.Projections++
	scale := math.Max(1, hhtMaxAbs(w.q))
	prev := math.Inf(1)
	for it := 0; it < projMaxIters; it++ {
		w.sys.Constraint(w.phi, t, w.q)
		worst := 0.0
		for k := range w.nc {
			if it > 0 {
				w.sig[k] += w.alpha * w.phi[k] // σₖ₊₁ = σₖ + αΦ(qₖ₊₁)
			}
			worst = math.Max(worst, math.Abs(w.phi[k]))
		}
		if !(worst == worst) || math.IsInf(worst, 0) {
			return ErrNonFinite
		}
		w.sys.ConstraintJacobian(w.G, t, w.q)
		if projDone(worst, prev, scale) {
			return nil
		}
		prev = worst
		for i := range w.nq {
			w.dx[i] = w.xs[i] - w.q[i]
		}
		if it > 0 { // Newton on the augmented Lagrangian: the matrix at the iterate
			if err := w.factorProjection(); err != nil {
				return err
			}
		}
		w.mulM(w.rhs, w.dx)
		for k := range w.nc {
			c := w.sig[k] + w.alpha*w.phi[k]
			for j, gkj := range w.G.RawRowView(k) {
				w.rhs[j] -= gkj * c
			}
		}
		w.solveProjection(w.rhs)
		w.stats.Solves++
		for i := range w.nq {
			w.q[i] += w.rhs[i]
		}
	}
	return ErrNoConvergence
}

// massAt evaluates M at (t, q) for mulM and the projections' matrix (on the Krylov path
// it keeps the point for dae.MassMultiplier and dae.MassSolver).
func (w *aliWork) massAt(t float64, q []float64) {
	if w.kp != nil {
		w.kp.mt = t
		copy(w.kp.mq, q)
		return
	}
	w.sys.Mass(w.M, t, q)
}

// massTrace is trace(M(t, q)), the scale of the penalty.
func (w *aliWork) massTrace(t float64, q []float64) float64 {
	if w.kp != nil {
		return w.kp.meanMassTrace(t, q)
	}
	w.sys.Mass(w.M, t, q)
	var tr float64
	for i := range w.nq {
		tr += math.Abs(w.M.At(i, i))
	}
	return tr
}

// solveProjection overwrites d with (M + αGᵀG)⁻¹ d (factorProjection).
func (w *aliWork) solveProjection(d []float64) {
	if w.kp != nil {
		w.kp.solveProjection(d)
		return
	}
	w.plu.Solve(d)
}

// mulM writes M x into dst, M at the point of massAt.
func (w *aliWork) mulM(dst, x []float64) {
	if w.kp != nil {
		w.kp.mm.MassMul(dst, w.kp.mt, w.kp.mq, x)
		return
	}
	for i := range w.nq {
		dst[i] = dot(w.M.RawRowView(i), x)
	}
}

// accelerations solves eq. 6 with the multiplier iteration eq. 7 at (t, q, v): the
// accelerations a and multipliers λ of the index-1 augmented Lagrangian, with
// Φ̈ = G a − γ driven below projTol. It needs no independent constraints (redundant ones
// share the multiplier). Used at the start and before a switch to index 1 (seed 001,
// after Fig. 4).
func (w *aliWork) accelerations(t float64, q, v, a, lambda []float64) error {
	copy(w.q, q)
	w.massAt(t, q)
	w.sys.Force(w.f, t, q, v)
	w.stats.FuncEvals++
	if w.nc == 0 {
		if w.rx != nil {
			w.rx.rx.add(w.f, t, q, v, lambda)
		}
		w.stats.Factorizations++
		w.stats.Solves++
		if w.kp != nil {
			w.kp.ms.MassSolve(a, t, q, w.f)
			return nil
		}
		if err := w.plu.Factorize(w.M); err != nil {
			return err
		}
		copy(a, w.f)
		w.plu.Solve(a)
		return nil
	}
	w.sys.ConstraintJacobian(w.G, t, q)
	w.sys.Gamma(w.gam, t, q, v)
	if err := w.factorProjection(); err != nil {
		return err
	}
	return w.solveEq17(t, q, v, a, lambda)
}
