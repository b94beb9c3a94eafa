package integrate

import (
	"errors"
	"fmt"
	"math"
)

// ladder is the step-size control and retry ladder of a Step shared by the one-step
// implicit methods with a local error estimate (hht, gcp): attempt, error test, and on
// failure the escalation of IDA's IDAHandleNFlag. It is embedded in their work structs,
// so its fields read as the method's own (w.c, w.ctl, w.worst).
type ladder struct {
	name       string
	c          StepControl // resolved at the first Step
	ctl        controller
	fc         failureContext // set by Init: the report of a failed Step (errors.go)
	attempts   int            // accepted and rejected attempts since Init, for MaxSteps
	worst      Residual       // worst residual of the last attempt, set by the method
	causeWorst Residual       // worst residual of the attempt whose failure is reported
}

// stepper is what ladder.step needs from a method.
type stepper interface {
	// attempt predicts and corrects a step of size h from the current state; nil when the
	// corrector converged. usedFresh counts the fresh-Jacobian retries it made; every
	// corrector run that failed is counted by Stats.countFailure.
	attempt(h float64) (usedFresh int, err error)
	errorNorm(h float64) float64 // the scaled local error of the converged attempt (≤ 1 passes)
	commit(h float64)            // accept the attempt as the new current state
	failed(newton bool)          // an attempt failed its corrector (newton) or error test
}

// errErrorTest is the cause recorded when the last attempt failed the error test.
var errErrorTest = errors.New("error test failed")

// step takes one accepted step from cur toward tEnd: an error-test failure shrinks h from
// the estimate; a corrector failure (after the method's own fresh-Jacobian retry) cuts h
// by 0.25, as IDA and radau5 do; both count as step cuts. Below HMin, past MaxSteps, on
// any corrector failure with FixedH, or when a converged fixed step diverged
// (fixedStepDiverged) it returns a *StepError saying what was tried, explained by
// failureContext (a singular position; a fixed step too large).
func (l *ladder) step(m stepper, stats *Stats, cur *State, tEnd float64) error {
	t := cur.T
	fixed := l.c.FixedH > 0
	var cause error
	cuts, fresh := 0, 0
	fail := func(h float64, err, cause error) error {
		return l.fc.explain(l.fail(t, h, err, cause, cuts, fresh), cur, fixed)
	}
	for {
		h, err := l.ctl.next(t, tEnd)
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
			if fixed && fixedStepDiverged(e, l.c.RTol) {
				stats.Rejected++
				l.causeWorst = l.worst
				return fail(h, ErrDiverged, nil)
			}
			if l.ctl.accept(h, e) {
				m.commit(h)
				return nil
			}
			stats.Rejected++
			m.failed(false)
			cause = errErrorTest
			cuts++
			continue
		}
		m.failed(true) // attempt counted the failure (Stats.countFailure)
		if cause != ErrNonFinite || st == ErrNonFinite {
			// A NaN or Inf met in this Step stays the reported cause: the attempts cut
			// toward HMin after it may fail only because the scaled forms amplify rounding.
			cause = st
			l.causeWorst = l.worst
		}
		if fixed {
			l.causeWorst = l.worst
			return fail(h, st, nil)
		}
		l.ctl.cut(h, 0.25)
		cuts++
	}
}

// fail builds the StepError of a Step that gives up at t with last step h, wrapping the
// cause of the failed attempts (errors.Is finds both) and naming the worst residual of the
// attempt whose failure is reported (none for a MaxSteps failure before any attempt).
func (l *ladder) fail(t, h float64, err, cause error, cuts, fresh int) *StepError {
	if cause != nil && cause != errErrorTest && !errors.Is(err, cause) {
		err = fmt.Errorf("%w after %w", err, cause)
	}
	worst := l.worst
	if (cause != nil && cause != errErrorTest) || err == ErrDiverged || l.c.FixedH > 0 {
		worst = l.causeWorst
	}
	if err == ErrMaxSteps && cause == nil {
		worst = Residual{}
	}
	return &StepError{Method: l.name, T: t, H: h, Worst: worst,
		Tried: fmt.Sprintf("%d fresh Jacobians, %d step cuts", fresh, cuts), Err: err}
}

// secondOrderStartStep proposes the first step of a second-order method (hht, gcp) from the
// scales of q, v and a at the start s (Hairer, Nørsett & Wanner 1993, II.4, starting step
// with d₀ = ‖q‖, d₁ = ‖v‖, d₂ = ‖a‖ in the weighted norm of c):
// h = 0.01·min(d₀/d₁, sqrt(d₀/d₂)), within [100·HMin, HMax] and the span to end.
func secondOrderStartStep(s *State, c StepControl, end float64) float64 {
	d0 := WeightedRMS(s.Q, s.Q, s.Q, c.RTol, c.ATol)
	d1 := WeightedRMS(s.V, s.Q, s.Q, c.RTol, c.ATol)
	d2 := WeightedRMS(s.A, s.Q, s.Q, c.RTol, c.ATol)
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
