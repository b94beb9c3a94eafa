package integrate

import (
	"errors"
	"fmt"
	"math"
)

// ladder is the one step loop of integrate: attempt → error test → accept or reject →
// next h, with one failure policy, shaped like IDA's IDAStep and IDAHandleNFlag. Every
// method's workspace holds one (a named field, not embedded), made by Init with the
// workspace as its stepper m, and its Step calls ladder.step; the step-size rule
// (elementary or PI controller, RADAU5's, IDA's order and step selection) is the
// method's stepRule.
//
// The failure policy (doc.go, "Failure ladder"): an attempt whose corrector failed with a
// reused iteration matrix is first retried at the same h with a fresh one (by the Newton
// solver, newtonSolver.attempt; explicit methods have nothing to refresh); then the rule
// cuts h (stepRule.cut); an error-test failure shrinks h by the rule (stepRule.judge).
// Fixed steps (StepControl.FixedH) have no smaller step: a failure ends the run, as does
// a converged fixed step that diverged (fixedStepDiverged). Below HMin or past MaxSteps
// it returns a *StepError saying what was tried; after an accepted step of an undamped
// index-3 α-method, when index3Watch fires.
type ladder struct {
	name string
	m    stepper     // the method's workspace: attempt, error norm, commit
	raw  StepControl // as given to Init
	// c is raw resolved by begin at the first Step against end (resolveForStep: Init does
	// not know the end of the run); a method's setup may refine it (radau5's tolerances).
	c    StepControl
	end  float64 // tEnd of the first Step, or a unit span past t for tEnd = +Inf
	rule stepRule
	// second, when set, becomes rule at the first Step: the controller of a second-order
	// method (hht, genalpha, lie-genalpha, daealpha, gcp), made by begin with its first
	// step from firstStep, or from HNW's starting step (startStep) when that is nil.
	second    *controller
	firstStep func(end float64) float64
	// fixed: steps of c.FixedH, no error test (bdf's start-up steps at FixedH are not
	// fixed: they run under error control toward the next grid point).
	fixed bool
	// constant: the method has constant steps only (rk4, gcp-abm): its failure report
	// offers no error control (constantStepFailure).
	constant bool
	// explicit: no iteration matrix, so the report counts no fresh Jacobians.
	explicit   bool
	fc         failureContext // set by Init: the report of a failed Step (errors.go)
	newton     *newtonSolver  // the implicit method's Newton solver, for its SingularPassages
	watch      *index3Watch   // the undamped index-3 α-methods' check after every accepted step, or nil
	stats      *Stats
	cur        *State // the last accepted state
	attempts   int    // accepted and rejected attempts since Init, for MaxSteps
	resolved   bool   // setup has run
	worst      Residual
	causeWorst Residual // worst residual of the attempt whose failure is reported
}

// stepper is what ladder.step needs from a method; a method with a Newton stop or a
// controller of its own to set adds stepSetup, one that adapts to failures adds stepFailed.
type stepper interface {
	// attempt predicts and corrects (or computes the stages of) a step of size h from the
	// current state; nil when it produced a solution. usedFresh counts the fresh-Jacobian
	// retries it made; every failed corrector run is counted by Stats.countFailure, and
	// ladder.worst names the worst residual of a failure.
	attempt(h float64) (usedFresh int, err error)
	// errorNorm is the scaled local error of the attempt (≤ 1 passes); with FixedH it is
	// only checked for divergence (fixedStepDiverged). It sets ladder.worst when it fails.
	errorNorm(h float64) float64
	// commit accepts the attempt as the new current state and counts it in Stats.Steps.
	// An error (dopri5's projection) counts as a failed attempt with no estimate.
	commit(h float64) error
}

// stepSetup is the stepper of a method that sets what depends on the step control, which
// begin has resolved into ladder.c against ladder.end at the first Step toward tEnd: the
// Newton stop, its own controller and first step (a second-order controller is begin's,
// ladder.second).
type stepSetup interface {
	setup(tEnd float64) error
}

// stepFailed is the stepper of a method that adapts after a failed attempt: its corrector
// failed (newton) or its error test (the predictor degree of hht, a fresh matrix).
type stepFailed interface {
	failed(newton bool)
}

// stepRule is the step-size strategy of a method.
type stepRule interface {
	size() float64 // the size of the next attempt, before HMax, FixedH and landing on tEnd
	// judge is the error test of a converged attempt of size h with scaled error e; it sets
	// the size of the next attempt. nef counts the error-test failures of this Step before
	// it (IDA escalates with it).
	judge(h, e float64, nef int) bool
	cut(h float64) // the size after an attempt that gave no estimate (Newton failure, NaN)
}

// floorRule is a stepRule that can tell, after a rejection, that its error estimate has
// a floor the step size does not reduce (ErrEstimateFloor): the Step stops there instead
// of cutting h to HMin.
type floorRule interface {
	floor() error
}

// errErrorTest is the cause recorded when the last attempt failed the error test.
var errErrorTest = errors.New("error test failed")

// next returns the size of the next attempt toward tEnd from t: the rule's (or FixedH),
// at most HMax, shortened to land on tEnd (and stretched to tEnd when the remainder would
// be a sliver), or ErrStepSizeTooSmall below HMin.
func (l *ladder) next(t, tEnd float64) (float64, error) {
	h := l.c.FixedH
	if !l.fixed {
		h = math.Min(l.rule.size(), l.c.HMax)
	}
	rest := tEnd - t
	sliver := 1e-10 * h
	if l.fixed {
		sliver = fixedSliver * h
	}
	if h >= rest || rest-h < sliver { // avoid a sliver of a last step
		h = rest
	}
	if h < l.c.HMin && h < rest {
		return h, ErrStepSizeTooSmall
	}
	return h, nil
}

// fixedSliver is the remainder, relative to FixedH, below which a fixed-step run takes its
// last step stretched to tEnd instead of adding a sliver. t accumulates by t += h, whose
// rounding after N steps reaches about N·ε·t: 2e-12 s after 1e5 steps of 1e-5 s, 1e-9 s
// after 1e6 steps to 10 s, i.e. up to 1e-4 of the step; a sliver step of 1e-13 s divides the
// rounding of q by h² in the index-3 trapezoidal rule (fromPositions) and wrecked the last
// state of seed 001's Table 1 runs (an energy error of 8.7e-4 J from that step alone).
const fixedSliver = 1e-3

// begin is the preamble of every Step: tEnd must lie ahead (notAhead), and the first
// Step resolves the step control and runs the method's setup. FixedH makes the ladder take
// fixed steps; a constant-step method takes them always.
func (l *ladder) begin(tEnd float64) error {
	if err := notAhead(l.name, l.cur.T, tEnd); err != nil {
		return err
	}
	if !l.resolved {
		c, end, err := l.raw.resolveForStep(l.name, l.cur.T, tEnd)
		if err != nil {
			return err
		}
		l.c, l.end, l.fixed = c, end, l.constant || c.FixedH > 0
		if l.second != nil {
			*l.second = l.secondOrderController()
			l.rule = l.second
		}
		if s, ok := l.m.(stepSetup); ok {
			if err := s.setup(tEnd); err != nil {
				return err
			}
		}
		l.resolved = true
	}
	return nil
}

// step takes one accepted step from the current state toward tEnd (see ladder), after
// begin.
func (l *ladder) step(tEnd float64) error {
	m := l.m
	if err := l.begin(tEnd); err != nil {
		return err
	}
	t := l.cur.T
	var cause error
	cuts, fresh, nef := 0, 0, 0
	fail := func(h float64, err, cause error) error {
		return l.fail(t, h, err, cause, cuts, fresh)
	}
	for {
		h, err := l.next(t, tEnd)
		if err != nil {
			return fail(h, err, cause)
		}
		if l.attempts >= l.c.MaxSteps {
			return fail(h, ErrMaxSteps, cause)
		}
		l.attempts++
		l.worst = Residual{} // a report names only what the attempt it reports found
		usedFresh, st := m.attempt(h)
		fresh += usedFresh
		if st == nil {
			e := m.errorNorm(h)
			switch {
			case l.fixed && fixedStepDiverged(e, l.c.RTol):
				l.stats.Rejected++
				l.causeWorst = l.worst
				return fail(h, ErrDiverged, nil)
			case l.fixed || l.rule.judge(h, e, nef):
				if st = m.commit(h); st == nil {
					if l.newton != nil {
						l.newton.watchStep(m, l.cur, &l.fc)
					}
					return l.watch.check(l.name, l.cur, h)
				}
				l.stats.countFailure(st)
			default:
				l.stats.Rejected++
				l.failed(false)
				cause = errErrorTest
				nef++
				cuts++
				if f, ok := l.rule.(floorRule); ok {
					if err := f.floor(); err != nil {
						return fail(h, err, cause)
					}
				}
				continue
			}
		}
		l.failed(true)
		if cause != ErrNonFinite || st == ErrNonFinite {
			// A NaN or Inf met in this Step stays the reported cause: the attempts cut
			// toward HMin after it may fail only because the scaled forms amplify rounding.
			cause = st
			l.causeWorst = l.worst
		}
		if l.fixed {
			l.causeWorst = l.worst
			return fail(h, st, nil)
		}
		l.rule.cut(h)
		cuts++
	}
}

// failed tells a stepFailed method that an attempt failed.
func (l *ladder) failed(newton bool) {
	if f, ok := l.m.(stepFailed); ok {
		f.failed(newton)
	}
}

// end is the time reached by a step of size h from t toward tEnd: tEnd itself when next
// landed on it (t + h may round past or short of it).
func end(t, h, tEnd float64) float64 {
	if h == tEnd-t {
		return tEnd
	}
	return t + h
}

// fail builds the StepError of a Step that gives up at t with last step h, wrapping the
// cause of the failed attempts (errors.Is finds both) and naming the worst residual of the
// attempt whose failure is reported (none for a MaxSteps failure before any attempt),
// explained by failureContext (a singular position; a fixed step too large).
func (l *ladder) fail(t, h float64, err, cause error, cuts, fresh int) error {
	if cause != nil && cause != errErrorTest && !errors.Is(err, cause) {
		err = fmt.Errorf("%w after %w", err, cause)
	}
	worst := l.worst
	if (cause != nil && cause != errErrorTest) || err == ErrDiverged || l.fixed {
		worst = l.causeWorst
	}
	if err == ErrMaxSteps && cause == nil {
		worst = Residual{}
	}
	tried := fmt.Sprintf("%d fresh Jacobians, %d step cuts", fresh, cuts)
	switch {
	case l.constant:
		tried = "constant step"
	case l.explicit:
		tried = fmt.Sprintf("%d step cuts", cuts)
	}
	se := &StepError{Method: l.name, T: t, H: h, Worst: worst, Tried: tried, Err: err}
	if l.constant {
		return l.fc.constantStepFailure(se, l.cur)
	}
	explained := l.fc.explain(se, l.cur, l.fixed)
	if p, ok := l.singularMode(); ok && !errors.Is(explained, ErrSingularPosition) && !errors.Is(err, ErrMaxSteps) {
		return singularFailure(se, p)
	}
	return explained
}

// singularMode returns the last SingularPassage of a method whose Newton iteration was in
// its singular mode when the Step gave up.
func (l *ladder) singularMode() (SingularPassage, bool) {
	n := l.newton
	if n == nil || !n.singular || len(n.passages) == 0 {
		return SingularPassage{}, false
	}
	return n.passages[len(n.passages)-1], true
}

// firstStepSize is the first step of a run: FixedH, else H0, else the method's starting
// step (start, evaluated only then).
func firstStepSize(c StepControl, start func() float64) float64 {
	switch {
	case c.FixedH > 0:
		return c.FixedH
	case c.H0 > 0:
		return c.H0
	}
	return start()
}

// secondOrderController is the step-size rule of a second-order method (δ_q ~ h³: the
// elementary controller of exponent 1/3, seed 004 eq. 38b), whose first step is FixedH,
// H0 or else l.firstStep(end) (startStep when nil), evaluated only then.
func (l *ladder) secondOrderController() controller {
	firstStep := l.firstStep
	if firstStep == nil {
		firstStep = l.startStep
	}
	return newController(l.c, 2, firstStepSize(l.c, func() float64 { return firstStep(l.end) }))
}

// startStep is secondOrderStartStep from the current state: the first step of hht, gcp and
// daealpha.
func (l *ladder) startStep(end float64) float64 { return secondOrderStartStep(l.cur, l.c, end) }

// secondOrderStartStep proposes the first step of a second-order method (hht, gcp) from the
// scales of q, v and a at the start s (Hairer, Nørsett & Wanner 1993, II.4, starting step
// with d₀ = ‖q‖, d₁ = ‖v‖, d₂ = ‖a‖ in the weighted norm of c):
// h = 0.01·min(d₀/d₁, sqrt(d₀/d₂)), within [100·HMin, HMax] and the span to end.
func secondOrderStartStep(s *State, c StepControl, end float64) float64 {
	nq := len(s.Q)
	d0 := c.weightedRMS(s.Q, s.Q, s.Q, nq, 1)
	d1 := c.weightedRMS(s.V, s.Q, s.Q, nq, 1)
	d2 := c.weightedRMS(s.A, s.Q, s.Q, nq, 1)
	d0 = math.Max(d0, 1e-5/math.Max(c.RTol, c.ATol)) // ‖q‖ = 0 at the origin: use the tolerance scale
	h := math.Abs(end - s.T)
	if d1 > 0 {
		h = math.Min(h, 0.01*d0/d1)
	}
	if d2 > 0 {
		h = math.Min(h, 0.01*math.Sqrt(d0/d2))
	}
	return math.Min(c.HMax, math.Max(h, 100*c.HMin))
}

// index3Watch detects the drift of an index-3 form without numerical damping (Newmark's
// trapezoidal rule, γ = 1/2): the position error left by each corrector reaches λ
// amplified by 1/(βh²), is not damped, and feeds the acceleration error estimate an
// h-independent part, so the controller shrinks h step after step while λ grows like
// 1/h² (measured on the crank with newmark, index3: h from 7e-5 to 5e-11 and ‖λ‖∞ from
// 4e2 to 1e14 over 10⁶ accepted steps, about one rejection in all). It fires when, for
// index3Persist accepted steps in a row, h is below index3HDrop times the largest step
// taken and ‖λ‖∞ above index3LamGrow times its largest value over the steps of at least a
// tenth of that size.
type index3Watch struct {
	hPeak  float64 // largest accepted step
	lamRef float64 // largest ‖λ‖∞ over the accepted steps of size ≥ hPeak/10
	hRef   float64 // the step at which lamRef was measured
	count  int     // consecutive accepted steps in the pattern
	lam, h float64 // the last step's ‖λ‖∞ and h
}

// Thresholds of index3Watch: two orders of magnitude in h and λ, sustained over 50 steps,
// separate the drift (on the crank it reaches them after about 1000 steps) from transients.
const (
	index3HDrop   = 1e-2
	index3LamGrow = 1e2
	index3Persist = 50
)

// observe records an accepted step of size h ending with multipliers lambda and
// reports whether the drift has persisted index3Persist steps.
func (x *index3Watch) observe(h float64, lambda []float64) bool {
	l := hhtMaxAbs(lambda)
	x.lam, x.h = l, h
	x.hPeak = math.Max(x.hPeak, h)
	if h >= 0.1*x.hPeak && l >= x.lamRef {
		x.lamRef, x.hRef = l, h
	}
	if h < index3HDrop*x.hPeak && l > index3LamGrow*x.lamRef {
		x.count++
	} else {
		x.count = 0
	}
	return x.count >= index3Persist
}

// fail is the StepError of a run stopped by the watch at t (after the step of size h).
func (x *index3Watch) fail(method string, t, h float64) *StepError {
	return &StepError{Method: method, T: t, H: h,
		Err: fmt.Errorf("%w: ‖λ‖∞ grew from %.3g (h = %.3g) to %.3g while h fell to %.3g, for %d accepted steps in a row: without numerical damping the index-3 form amplifies the position errors into λ by 1/h²",
			ErrIndex3Instability, x.lamRef, x.hRef, x.lam, x.h, x.count),
		Hint: "use hht or genalpha, whose numerical damping removes it, or the ggl formulation"}
}
