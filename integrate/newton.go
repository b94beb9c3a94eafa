package integrate

import (
	"errors"
	"fmt"
	"math"
)

// JacobianPolicy says when an implicit method re-evaluates its iteration matrix.
type JacobianPolicy int

const (
	// JacobianAuto keeps the iteration matrix (and its factorization) across iterations
	// and steps while Newton converges with rate θ ≤ ReuseRate and h stays within the
	// deadband; after a failure with a stale matrix it retries once with a fresh one.
	JacobianAuto JacobianPolicy = iota
	// JacobianEveryStep evaluates and factorizes the matrix once per attempt.
	JacobianEveryStep
	// JacobianEveryIteration evaluates and factorizes the matrix at every iteration (full Newton).
	JacobianEveryIteration
)

func (p JacobianPolicy) String() string {
	switch p {
	case JacobianAuto:
		return "auto"
	case JacobianEveryStep:
		return "every-step"
	case JacobianEveryIteration:
		return "every-iteration"
	}
	return fmt.Sprintf("JacobianPolicy(%d)", int(p))
}

// NewtonSettings are the corrector knobs shared by the implicit methods. Zero fields take
// the defaults in brackets.
type NewtonSettings struct {
	MaxIters  int            // iterations per attempt before giving up [8]
	Tol       float64        // stop when θ/(1−θ)·‖Δ‖ ≤ Tol, ‖·‖ the weighted RMS norm [1e-3: seed 004, eq. 46, c = 1e-3]
	Jacobian  JacobianPolicy // when to refresh the iteration matrix [JacobianAuto]
	ReuseRate float64        // JacobianAuto keeps the matrix while θ ≤ ReuseRate [0.1]
	Deadband  [2]float64     // JacobianAuto keeps the matrix while h_new/h_J is in this interval [0.5, 2]
}

// Default values of NewtonSettings.
const (
	DefaultNewtonMaxIters  = 8
	DefaultNewtonTol       = 1e-3
	DefaultNewtonReuseRate = 0.1
)

// Resolve returns s with zero fields replaced by defaults, or an error naming a bad field.
func (s NewtonSettings) Resolve() (NewtonSettings, error) {
	if s.MaxIters < 0 {
		return s, fmt.Errorf("integrate: NewtonSettings.MaxIters = %d, want >= 0", s.MaxIters)
	}
	if s.Tol < 0 || math.IsNaN(s.Tol) || s.ReuseRate < 0 || s.ReuseRate >= 1 {
		return s, fmt.Errorf("integrate: NewtonSettings Tol = %g, ReuseRate = %g: want Tol >= 0 and ReuseRate in [0, 1)", s.Tol, s.ReuseRate)
	}
	if s.Jacobian < JacobianAuto || s.Jacobian > JacobianEveryIteration {
		return s, fmt.Errorf("integrate: NewtonSettings.Jacobian = %v, unknown policy", s.Jacobian)
	}
	s.MaxIters = orDefault(s.MaxIters, DefaultNewtonMaxIters)
	s.Tol = orDefault(s.Tol, DefaultNewtonTol)
	s.ReuseRate = orDefault(s.ReuseRate, DefaultNewtonReuseRate)
	if s.Deadband == [2]float64{} {
		s.Deadband = [2]float64{0.5, 2}
	}
	if !(s.Deadband[0] > 0 && s.Deadband[0] <= 1 && s.Deadband[1] >= 1) {
		return s, fmt.Errorf("integrate: NewtonSettings.Deadband = %v, want [lo, hi] with 0 < lo <= 1 <= hi", s.Deadband)
	}
	return s, nil
}

// newtonStatus is the verdict of the convergence monitor after an iteration.
type newtonStatus int

const (
	newtonContinue  newtonStatus = iota // iterate again
	newtonConverged                     // the estimated error of the iterate is below Tol
	newtonDiverged                      // θ ≥ 1, a non-finite increment, or no convergence predicted within MaxIters
)

// newtonMonitor decides convergence from the norms of successive increments, as radau5,
// IDA and seed 004 (eqs. 40-47) do: the rate θ_k = ‖Δ_k‖/‖Δ_{k−1}‖ estimates the
// contraction, the error of the iterate is bounded by θ/(1−θ)·‖Δ_k‖, and an iteration that
// cannot reach Tol within MaxIters at the current rate is abandoned early.
type newtonMonitor struct {
	s     NewtonSettings
	iter  int
	prev  float64 // ‖Δ_{k−1}‖
	theta float64 // latest rate estimate (0 before the second iteration)
	eta   float64 // θ/(1−θ) carried from the previous attempt for the first iteration's test

	// floor is the weighted norm of an increment at rounding level, set by the method
	// (0: none). From the second iteration on, an increment at or below it counts as
	// converged: the iterate only moves by a few ulps and its rate θ is noise that must
	// not read as divergence.
	floor float64
	// needRate makes the current attempt stop only once a rate has been measured in it,
	// i.e. never after its first iteration (seed 004, after eq. 46). Without it the rate
	// carried from the previous attempt judges the first increment (radau5), which lets a
	// stale-matrix first iterate through; the index-3 forms amplify that error by 1/(βh²)
	// in λ. Set it before the first update of each attempt.
	needRate bool
}

// start begins an attempt; the rate of the previous converged attempt (eta) is kept so that
// the first increment can already be tested, as in Hairer-Wanner's radau5.
func (m *newtonMonitor) start() {
	m.iter = 0
	m.prev = 0
	m.theta = 0
	if m.eta == 0 {
		m.eta = 1 // first attempt of a run: no rate known, as radau5's FACCON = 1
	}
	m.eta = math.Pow(math.Max(m.eta, 1e-16), 0.8) // radau5: FACCON = MAX(FACCON, UROUND)**0.8
}

// restart begins the rate measurement again within an attempt whose iteration changed
// (the α-methods' switch from their forward-dynamics iteration, fdIter.leave): the next
// increment is judged as an attempt's first, with the rate carried from the previous
// attempt.
func (m *newtonMonitor) restart() {
	m.iter, m.prev, m.theta = 0, 0, 0
}

// update takes the weighted norm of the latest increment and returns the verdict.
func (m *newtonMonitor) update(norm float64) newtonStatus {
	m.iter++
	if math.IsNaN(norm) || math.IsInf(norm, 0) {
		return newtonDiverged
	}
	if norm == 0 || (m.iter > 1 && norm <= m.floor) {
		return newtonConverged
	}
	if m.iter > 1 {
		m.theta = norm / m.prev
		if m.theta >= 1 {
			return newtonDiverged
		}
		// Predicted error after the remaining iterations: θ^(left)/(1−θ)·‖Δ‖.
		left := m.s.MaxIters - m.iter
		if math.Pow(m.theta, float64(left))/(1-m.theta)*norm > m.s.Tol {
			if left <= 0 {
				return newtonDiverged
			}
			if math.Pow(m.theta, float64(left))/(1-m.theta)*norm > 1e3*m.s.Tol {
				return newtonDiverged // hopeless: cut h now rather than iterate on
			}
		}
		m.eta = m.theta / (1 - m.theta)
	}
	m.prev = norm
	if m.eta*norm <= m.s.Tol && (m.iter > 1 || !m.needRate) {
		return newtonConverged
	}
	if m.iter >= m.s.MaxIters {
		return newtonDiverged
	}
	return newtonContinue
}

// stopRule is the convergence verdict of the Newton loop, a strategy of newtonSolver:
// newtonMonitor (seed 004, eqs. 40-47; the default), fullNewton (gcp's full Newton) and
// radauMonitor (RADAU5's FACCON and θ rules, Hairer & Wanner 1996, IV.8).
type stopRule interface {
	start()                           // begin an attempt
	update(norm float64) newtonStatus // judge the weighted norm of the latest increment
	rate() float64                    // the latest rate estimate θ (0 when none)
}

// rate is the latest rate estimate (stopRule).
func (m *newtonMonitor) rate() float64 { return m.theta }

// wouldDiverge reports, without changing m, whether update(norm) would declare divergence
// by the rate: θ = norm/‖Δ_{k−1}‖ ≥ 1, or convergence hopeless within MaxIters. It is false
// at an attempt's first increment (no rate yet) and for increments update would accept.
// hht asks it of a chord increment, which it then replaces by a GMRES one from the same
// iterate (hhtWork.increment).
func (m *newtonMonitor) wouldDiverge(norm float64) bool {
	it := m.iter + 1
	if it <= 1 || m.prev == 0 || math.IsNaN(norm) || math.IsInf(norm, 0) {
		return it > 1 && m.prev != 0 // a non-finite chord increment is redone too
	}
	if norm == 0 || norm <= m.floor {
		return false
	}
	theta := norm / m.prev
	if theta >= 1 {
		return true
	}
	left := m.s.MaxIters - it
	pred := math.Pow(theta, float64(left)) / (1 - theta) * norm
	return pred > m.s.Tol && (left <= 0 || pred > 1e3*m.s.Tol)
}

// newtonIteration is what the one Newton loop (newtonSolver) needs from a method: its
// prediction, its residual, its iteration matrix and the increment, and nothing of the
// loop. The iterate, the residual and the factorization live in the method's workspace.
type newtonIteration interface {
	// predict writes the starting iterate of an attempt of size h; an error (a failed
	// position recovery of gcp) ends the attempt. freshJ says whether factor will assemble
	// the matrix from a fresh Jacobian in this attempt; otherwise a method whose matrix
	// depends on h keeps its Jacobian and refactorizes for h here (radau5).
	predict(h float64, freshJ bool) error
	// residual evaluates the residual at the iterate; an error (ErrNonFinite, a failed
	// evaluation) ends the attempt.
	residual() error
	// factor assembles the iteration matrix at the iterate and factorizes it; an error
	// (linalg.ErrSingular, ErrNonFinite) ends the attempt.
	factor() error
	// increment solves for the Newton increment, applies it to the iterate and returns
	// its weighted norm, the quantity the monitor's rate and stop rule measure.
	increment() float64
	// converged finishes a converged iterate (nil, or ErrNonFinite when it is not finite).
	converged() error
	// diverged names the worst residual of a diverged iteration and returns its cause
	// (ErrNoConvergence, or ErrNonFinite for a non-finite increment).
	diverged() error
}

// finiteIterate is the converged hook of a method whose iterate x needs only to be finite.
func finiteIterate(x []float64) error {
	if !allFinite(x) {
		return ErrNonFinite
	}
	return nil
}

// divergence is the cause of a diverged iteration whose last increment is dx:
// ErrNonFinite when it is not finite, else ErrNoConvergence.
func divergence(dx []float64) error {
	if !allFinite(dx) {
		return ErrNonFinite
	}
	return ErrNoConvergence
}

// worstNoter is a newtonIteration that records the largest component of its last residual,
// with its owner, as the ladder's worst for a failure report.
type worstNoter interface {
	noteWorstResidual()
}

// finiteResidual ends a residual hook: ErrNonFinite, with the worst component of w's
// residual r noted, when r holds a NaN or Inf.
func finiteResidual(w worstNoter, r []float64) error {
	if !allFinite(r) {
		w.noteWorstResidual()
		return ErrNonFinite
	}
	return nil
}

// notedDivergence is the diverged hook of a method that names its worst residual: it
// notes it and returns divergence(dx) for the last increment dx.
func notedDivergence(w worstNoter, dx []float64) error {
	w.noteWorstResidual()
	return divergence(dx)
}

// trustedIterate is the converged hook of a method with massNewton's Krylov fallback mn
// whose iterate x needs only to be finite: a verdict mn distrusts (massNewton.distrusted)
// is refused as ErrNoConvergence with the worst residual noted.
func trustedIterate(w worstNoter, mn *massNewton, x []float64) error {
	if mn.distrusted() {
		w.noteWorstResidual()
		return ErrNoConvergence
	}
	return finiteIterate(x)
}

// newtonSolver is the one Newton loop of the implicit methods (in the sense of
// OrdinaryDiffEq's nlsolve!): iterate residual → (matrix) → increment until newtonMonitor
// (seed 004, eqs. 40-47) declares convergence or divergence, with the Jacobian reuse
// policy of NewtonSettings and the retry with a fresh matrix after a failure with a
// reused one. The method assembles and factorizes its matrix (dense or sparse behind
// newtonFactor) and counts its evaluations; the solver counts iterations, solves and
// failed attempts.
type newtonSolver struct {
	s     NewtonSettings
	mon   newtonMonitor
	stats *Stats
	// rule replaces mon as the verdict when set: fullNewton under JacobianEveryIteration
	// (gcp, whose explicit predictor starts far away), radauMonitor (radau5).
	rule   stopRule
	haveJ  bool    // the method's factorization is valid
	fresh  bool    // ... and was made during the current attempt
	thetaJ float64 // largest rate measured with it
	hJ     float64 // the step size it was assembled for
	h      float64 // the step size of the attempt under way
	// refresh makes the next attempt start from a fresh matrix whatever the reuse test
	// says; the α-methods set it after a failed corrector (refreshAfter).
	refresh bool
	// passages lists the regularizations (SingularPassage); regSteps counts the attempts
	// converged since the last, up to regRearm, when the unregularized matrix returns.
	passages []SingularPassage
	regSteps int
	// singular is set from a regularization to its rearming: the method's matrix is
	// regularized (when it has a newtonFactor) and its convergence and error norms leave
	// out λ and μ, which are not unique where G loses rank (seed 002 §2.3, Theorem 2).
	singular bool
	watch    implicitWatch // the singular positions passed (singularwatch.go)
	// staleHold, when set by a method, is the number of converged attempts that start
	// from a fresh matrix after a reused one failed for the second time within that many
	// attempts (0: none; noReuse counts them down; a lone failure holds nothing).
	// Where the matrix changes faster from step to step than the rate θ of the step that
	// made it shows (the Euler-parameter chains: a reused matrix failed at 29 of 33 steps,
	// each failure an iteration or two thrown away before the fresh retry), the reuse
	// test would otherwise keep choosing a matrix that fails.
	staleHold int
	noReuse   int
	attempts  int // attempts since Init
	lastStale int // the attempt whose reused matrix last failed
}

// regularizable is a newtonIteration that can go on past a singular position: it returns
// its factorization to regularize (newtonReg; nil when it has no newtonFactor: radau5
// regularizes its own in decompose, reading newtonSolver.singular) and where
// the last accepted step ended, for the diagnosis, and reads newtonSolver.singular in its
// norms.
type regularizable interface {
	regularization() (lu *newtonFactor, fc *failureContext, cur *State)
}

// regRearm is the number of converged attempts after which a regularized Newton matrix
// returns to the unregularized factorization, so that the next singular position is
// detected (and reported) again and full-rank stretches get the exact Jacobian.
const regRearm = 50

func newNewtonSolver(s NewtonSettings, stats *Stats) newtonSolver {
	return newtonSolver{s: s, mon: newtonMonitor{s: s}, stats: stats}
}

// reusable reports whether JacobianAuto may keep the matrix for the next attempt: it is
// valid and converged fast (θ ≤ ReuseRate). The method adds its own test of the step
// (Deadband on h, IDA's c_j ratio).
func (n *newtonSolver) reusable() bool {
	return n.haveJ && n.s.Jacobian == JacobianAuto && n.thetaJ <= n.s.ReuseRate
}

// keeps reports whether JacobianAuto may keep the matrix for an attempt of size h: it is
// reusable, no refresh is pending, and h/h_J lies in the Deadband (a far step size changes
// the matrix M/(βh²) + … too much for the old factorization to contract fast).
func (n *newtonSolver) keeps(h float64) bool {
	db := n.s.Deadband
	return n.noReuse == 0 && !n.refresh && n.reusable() && !(h/n.hJ < db[0] || h/n.hJ > db[1])
}

// refreshAfter is the failed hook of the α-methods (stepper): after a failed corrector
// (newton) the next attempt starts from a fresh matrix, after an error-test failure the
// reuse test decides.
func (n *newtonSolver) refreshAfter(newton bool) {
	if newton {
		n.refresh = true
	}
}

// attempt predicts and corrects a step of size h, with a fresh matrix when needJ. A
// failure with a reused matrix is retried once with a fresh one (not after NaN or Inf,
// which a new matrix does not cure). Every failed corrector run is counted by
// Stats.countFailure; usedFresh counts the retries.
func (n *newtonSolver) attempt(p newtonIteration, h float64, needJ bool) (usedFresh int, err error) {
	n.h = h
	n.attempts++
	for {
		if err = p.predict(h, needJ); err == nil {
			err = n.solve(p, needJ)
		}
		if err == nil {
			n.rearm(p)
			if n.noReuse > 0 && needJ {
				n.noReuse--
			}
			return usedFresh, nil
		}
		n.stats.countFailure(err)
		if needJ && n.fallback(p) {
			usedFresh++
			continue // a fresh simplified matrix failed: retry with the exact one
		}
		if needJ && n.regularize(p, err) {
			usedFresh++
			continue // a fresh matrix failed: retry with the regularized one
		}
		if needJ || n.s.Jacobian != JacobianAuto || errors.Is(err, ErrNonFinite) {
			return usedFresh, err
		}
		needJ = true // stale matrix: retry once with a fresh one
		usedFresh++
		if n.staleHold > 0 && n.attempts-n.lastStale <= n.staleHold {
			n.noReuse = n.staleHold // the second such failure within the hold: hold
		}
		n.lastStale = n.attempts
	}
}

// solve runs the iteration from the predicted iterate, assembling the matrix at the first
// iterate when fresh and at every iterate under JacobianEveryIteration.
func (n *newtonSolver) solve(p newtonIteration, fresh bool) error {
	var rule stopRule = &n.mon
	if n.rule != nil {
		rule = n.rule
	}
	rule.start()
	n.fresh = false
	judge, _ := p.(residualJudge)
	for it := 0; ; it++ {
		if err := p.residual(); err != nil {
			return err
		}
		if it > 0 && judge != nil && judge.acceptsResidual() {
			return p.converged()
		}
		if (it == 0 && fresh) || n.s.Jacobian == JacobianEveryIteration {
			if err := p.factor(); err != nil {
				n.haveJ = false
				return err
			}
			n.factored()
		}
		norm := p.increment()
		n.stats.Solves++
		n.stats.NewtonIters++
		st := rule.update(norm)

		n.thetaJ = math.Max(n.thetaJ, rule.rate())
		switch st {
		case newtonConverged:
			return p.converged()
		case newtonDiverged:
			return p.diverged()
		}
	}
}

// factored records a new factorization of the iteration matrix for the step size of the
// attempt under way: solve's at the first iterate, or one a method makes at a later
// iterate when it leaves a cheaper iteration within the attempt (hht's forward-dynamics
// iteration, fdIter).
func (n *newtonSolver) factored() {
	n.haveJ, n.fresh, n.thetaJ, n.hJ, n.refresh = true, true, 0, n.h, false
}

// residualJudge is a newtonIteration whose stop rule may leave its verdict on an
// increment to the residual at the new iterate (bdfStop): acceptsResidual, asked after
// each residual but the first of an attempt, reports whether that iterate is converged.
type residualJudge interface {
	acceptsResidual() bool
}

// simplifiable is a newtonIteration whose matrix may be the simplified mass matrix of
// massNewton: fallback switches it to its exact matrix and reports whether it did (false
// when the exact one was in use).
type simplifiable interface {
	fallback() bool
}

// fallback switches p to its exact matrix after a failure with a fresh simplified one,
// counting it in Stats.DenseFallbacks; it reports false when p has none to leave.
func (n *newtonSolver) fallback(p newtonIteration) bool {
	f, ok := p.(simplifiable)
	if !ok || !f.fallback() {
		return false
	}
	n.haveJ = false
	n.stats.DenseFallbacks++
	return true
}

// regularize switches p to its singular mode (newtonSolver.singular) after a failure err
// with a fresh matrix, and records the passage; it reports false when p cannot go on
// past a singular position, already is in that mode, or err is a NaN (which nothing
// cures).
func (n *newtonSolver) regularize(p newtonIteration, err error) bool {
	r, ok := p.(regularizable)
	if !ok || errors.Is(err, ErrNonFinite) {
		return false
	}
	if n.singular {
		return false
	}
	lu, fc, cur := r.regularization()
	passage, ok := fc.diagnoseSingular(cur)
	if !ok {
		return false // G keeps its rank: a step too long, which a cut cures
	}
	if p, ok := fc.rekeep(cur); ok {
		n.haveJ = false
		n.passages = append(n.passages, p)
		return true // other rows of G are independent here: retry with them
	}
	if lu != nil {
		lu.regularize()
	}
	n.singular = true
	n.haveJ = false
	n.regSteps = 0
	n.stats.Regularized++
	n.passages = append(n.passages, passage)
	return true
}

// rearm counts a converged attempt with a regularized matrix and returns to the
// unregularized one after regRearm of them.
func (n *newtonSolver) rearm(p newtonIteration) {
	if !n.singular {
		return
	}
	if n.regSteps++; n.regSteps < regRearm {
		return
	}
	n.singular, n.haveJ = false, false
	if lu, _, _ := p.(regularizable).regularization(); lu != nil {
		lu.reg.on = false
	}
}
