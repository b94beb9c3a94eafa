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
	attempts   int      // accepted and rejected attempts since Init, for MaxSteps
	worst      Residual // worst residual of the last attempt, set by the method
	causeWorst Residual // worst residual of the attempt whose failure is reported
}

// stepper is what ladder.step needs from a method.
type stepper interface {
	// attempt predicts and corrects a step of size h from the current state; nil when the
	// corrector converged. usedFresh counts the fresh-Jacobian retries it made.
	attempt(h float64) (usedFresh int, err error)
	errorNorm(h float64) float64 // the scaled local error of the converged attempt (≤ 1 passes)
	commit(h float64)            // accept the attempt as the new current state
	failed(newton bool)          // an attempt failed its corrector (newton) or error test
}

// errErrorTest is the cause recorded when the last attempt failed the error test.
var errErrorTest = errors.New("error test failed")

// step takes one accepted step from t toward tEnd: an error-test failure shrinks h from the
// estimate; a corrector failure (after the method's own fresh-Jacobian retry) cuts h by
// 0.25, as IDA and radau5 do; below HMin, past MaxSteps, or on any corrector failure with
// FixedH it returns a *StepError saying what was tried.
func (l *ladder) step(m stepper, stats *Stats, t, tEnd float64) error {
	var cause error
	cuts, fresh := 0, 0
	for {
		h, err := l.ctl.next(t, tEnd)
		if err != nil {
			return l.fail(t, h, err, cause, cuts, fresh)
		}
		if l.attempts >= l.c.MaxSteps {
			return l.fail(t, h, ErrMaxSteps, cause, cuts, fresh)
		}
		l.attempts++
		usedFresh, st := m.attempt(h)
		fresh += usedFresh
		if st == nil {
			if l.ctl.accept(h, m.errorNorm(h)) {
				m.commit(h)
				return nil
			}
			stats.Rejected++
			m.failed(false)
			cause = errErrorTest
			continue
		}
		stats.NewtonFailures++
		m.failed(true)
		if cause != ErrNonFinite || st == ErrNonFinite {
			// A NaN or Inf met in this Step stays the reported cause: the attempts cut
			// toward HMin after it may fail only because the scaled forms amplify rounding.
			cause = st
			l.causeWorst = l.worst
		}
		if l.c.FixedH > 0 {
			l.causeWorst = l.worst
			return l.fail(t, h, st, nil, cuts, fresh)
		}
		l.ctl.cut(h, 0.25)
		cuts++
	}
}

// fail builds the StepError of a Step that gives up at t with last step h, wrapping the
// cause of the failed attempts (errors.Is finds both) and naming the worst residual.
func (l *ladder) fail(t, h float64, err, cause error, cuts, fresh int) error {
	if cause != nil && cause != errErrorTest && !errors.Is(err, cause) {
		err = fmt.Errorf("%w after %w", err, cause)
	}
	worst := l.worst
	if cause != nil && cause != errErrorTest {
		worst = l.causeWorst
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
