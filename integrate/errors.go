package integrate

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"linkage/dae"
)

// Causes of a failed step, reached through StepError.Unwrap.
var (
	ErrStepSizeTooSmall = errors.New("step size below HMin")
	ErrNoConvergence    = errors.New("no convergence of the Newton iteration")
	ErrNonFinite        = errors.New("NaN or Inf in the solution")
	ErrMaxSteps         = errors.New("more than MaxSteps steps")
	// ErrFixedStepTooLarge wraps the failure of a step of StepControl.FixedH: no smaller
	// step is tried, so a Newton failure or a diverging step ends the run.
	ErrFixedStepTooLarge = errors.New("fixed step too large")
	// ErrDiverged is a converged step of StepControl.FixedH whose local error estimate
	// exceeds the size of the solution itself (fixedStepDiverged): the corrector found a
	// root of the discrete equations that the step cannot represent.
	ErrDiverged = errors.New("diverging step: local error estimate larger than the solution")
	// ErrIndex3Instability is the drift of an undamped index-3 form (index3Watch): λ grows
	// by orders of magnitude while the step size collapses.
	ErrIndex3Instability = errors.New("undamped index-3 instability")
	// ErrSingularPosition is a failure at a configuration where G lost rank (a dead point,
	// a toggle, a lock-up): the constraints cannot be satisfied beyond it, or λ is not
	// determined at it.
	ErrSingularPosition = errors.New("mechanism reached a singular position")
	// ErrNoProgress is a Step asked for a tEnd that does not lie ahead of the current
	// time (tEnd ≤ t, or NaN): no step is taken (see Method).
	ErrNoProgress = errors.New("tEnd not ahead of t: no step taken")
	// ErrEstimateFloor is a Step whose error estimate failed the test and did not shrink
	// while the rejections cut h by decades (MultiIndex: the change of the energy
	// invariant over the step): the estimate has a part that is not the step's integration
	// error, and cutting h on to HMin would not pass it.
	ErrEstimateFloor = errors.New("error estimate does not shrink with the step size")
)

// notAhead returns the *StepError of a Step(tEnd) that cannot move forward from t (see
// Method), or nil when tEnd lies ahead. Every method calls it first, before it resolves
// its StepControl against tEnd, so a refused call changes nothing.
func notAhead(method string, t, tEnd float64) error {
	if tEnd > t {
		return nil
	}
	return &StepError{Method: method, T: t, Err: fmt.Errorf("%w (tEnd = %.10g)", ErrNoProgress, tEnd)}
}

// Advice of a StepError from a fixed step: for a method with error control, and for one
// that has constant steps only (rk4, gcp-abm).
const (
	fixedStepHint    = "use error control (no fixed step) or a smaller fixed step"
	constantStepHint = "use a smaller fixed step or a method with error control"
)

// Residual names the component that was worst when a step failed.
type Residual struct {
	Block string  // "position", "velocity", "acceleration", "lambda", "position constraint", ...
	Index int     // component within the block
	Value float64 // its (weighted) value
	Owner string  // the coordinate or constraint name (dae.Namer), when known
}

// StepError is the error of a Step that could not be completed: where (T, H), what (Worst)
// and what was tried before giving up.
type StepError struct {
	Method string
	T, H   float64  // start of the failed attempt; last h tried
	Worst  Residual // largest component of the failing test
	Tried  string   // e.g. "fresh Jacobian; 7 step cuts"
	Hint   string   // what to change, e.g. fixedStepHint
	// Err is the cause: ErrStepSizeTooSmall, ErrNoConvergence, ErrNonFinite, ErrMaxSteps,
	// linalg.ErrSingular, ErrDiverged, ErrIndex3Instability, possibly wrapped by
	// ErrFixedStepTooLarge or ErrSingularPosition (errors.Is finds each).
	Err error
}

func (e *StepError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "integrate: %s: t=%.10g h=%.3g: %v", e.Method, e.T, e.H, e.Err)
	if e.Worst.Block != "" {
		fmt.Fprintf(&b, ": %s %d", e.Worst.Block, e.Worst.Index)
		if e.Worst.Owner != "" {
			fmt.Fprintf(&b, " (%s)", e.Worst.Owner)
		}
		fmt.Fprintf(&b, " = %.2g", e.Worst.Value)
	}
	if e.Tried != "" {
		fmt.Fprintf(&b, "; tried %s", e.Tried)
	}
	if e.Hint != "" {
		fmt.Fprintf(&b, "; %s", e.Hint)
	}
	return b.String()
}

func (e *StepError) Unwrap() error { return e.Err }

// fixedStepFailure marks a StepError from a step of StepControl.FixedH: its cause is
// wrapped in ErrFixedStepTooLarge and the hint suggests error control or a smaller step.
// A MaxSteps failure is left as it is.
func fixedStepFailure(e *StepError) *StepError {
	if errors.Is(e.Err, ErrMaxSteps) || errors.Is(e.Err, ErrFixedStepTooLarge) {
		return e
	}
	e.Err = fmt.Errorf("%w: %w", ErrFixedStepTooLarge, e.Err)
	e.Hint = fixedStepHint
	return e
}

// constantStepFailure is explain for the methods with constant steps only: the hint of a
// fixed step too large cannot offer their own error control.
func (fc *failureContext) constantStepFailure(err error, cur *State) error {
	err = fc.explain(err, cur, true)
	if se, ok := err.(*StepError); ok && se.Hint == fixedStepHint {
		se.Hint = constantStepHint
	}
	return err
}

// fixedStepDiverged reports whether a converged step of StepControl.FixedH diverged: its
// local error estimate e (the method's weighted RMS norm with relative tolerance rtol,
// computed as in error-controlled mode) is larger than the solution, e·rtol > 1, i.e.
// |δ_i| > ATol/RTol + |y_i| in the mean. Accurate fixed-step runs have e·rtol ≪ 1
// (measured 0.014 at most with gcp-newmark at h = 0.01 on the stiff double pendulum of
// seed 000, whose h = 0.05 run, which grows to NaN, has 216 at its first step). NaN counts
// as diverged.
func fixedStepDiverged(e, rtol float64) bool { return !(e*rtol <= 1) }

// singularRankDrop is the loss of rank that makes a failure a singular position: the
// smallest pivot of the pivoted QR of Gᵀ (dae.ConstraintRank), relative to the largest,
// fell below singularRankDrop times its value at the start of the run. At the last
// accepted state before a four-bar's toggle the methods measured 4e-8 to 5e-6 against
// 0.19 at the start (ratio 2e-7 to 3e-5); the examples start between 8e-3 (Andrews) and
// 0.45, and a regular motion does not move the ratio by orders of magnitude.
const singularRankDrop = 1e-4

// singularFailure rewrites se as a failure near the singular position p, where the
// method's Newton iteration entered its singular mode and which it could not pass,
// although G at the last accepted state has not lost enough rank for explain: the
// residual of an iteration on a nearly rank-deficient G says nothing and is dropped.
func singularFailure(se *StepError, p SingularPassage) error {
	se.Err = fmt.Errorf("%w at t=%.10g: rank of G dropped to %d of %d rows; joints involved: %s; the step failed with: %w",
		ErrSingularPosition, p.T, p.Rank, p.Rows, joinNames(p.Joints), se.Err)
	se.Worst = Residual{}
	se.Hint = "try a tighter or looser tol, or another formulation or method (dopri5 and bdf pass the singular positions of the IFToMM N-four-bar)"
	return se
}

// singularHint is the advice of a StepError at a singular position.
const singularHint = "the constraints cannot be met past this pose: check the motions (a driven joint beyond the range its geometry allows) and the dimensions"

// failureContext turns the StepError of a failed Step into the report the user needs
// (explain). It keeps the start of the run (t, q), against which a loss of rank of G is
// judged; the copy is made once in Init.
type failureContext struct {
	sys dae.System
	t0  float64
	q0  []float64
	// The rank test of diagnoseSingular, made at the first Newton failure: G at the
	// start, its pivot ratios, and the storage.
	rank gramRank
}

func newFailureContext(sys dae.System, start *State) failureContext {
	return failureContext{sys: sys, t0: start.T, q0: slices.Clone(start.Q)}
}

// explain completes err, the error of a failed Step whose last accepted state is cur:
//
//   - when G(cur) has lost rank against the start (singularRankDrop), the cause is
//     wrapped in ErrSingularPosition, naming the time, the rank and the joints that own
//     the dependent rows (dae.ConstraintOwner), and the meaningless residual is dropped;
//   - otherwise, with fixed steps (fixed), the cause is wrapped in ErrFixedStepTooLarge
//     (fixedStepFailure).
//
// MaxSteps failures and errors that are not a *StepError pass unchanged. It allocates,
// once per failed run.
func (fc *failureContext) explain(err error, cur *State, fixed bool) error {
	var se *StepError
	if !errors.As(err, &se) || errors.Is(se.Err, ErrMaxSteps) || errors.Is(se.Err, ErrSingularPosition) {
		return err
	}
	if fc.singular(se, cur) {
		return se
	}
	if fixed {
		return fixedStepFailure(se)
	}
	return se
}

// singular rewrites se as a singular position when G(cur) has lost rank (see explain).
func (fc *failureContext) singular(se *StepError, cur *State) bool {
	if fc.sys == nil {
		return false
	}
	if _, nc := fc.sys.Size(); nc == 0 {
		return false
	}
	start := dae.ConstraintRank(fc.sys, fc.t0, fc.q0, 0)
	if !(start.Ratio > 0) {
		return false // singular from the start: no loss of rank to report
	}
	now := dae.ConstraintRank(fc.sys, cur.T, cur.Q, singularRankDrop*start.Ratio)
	if now.Rank == now.Rows {
		return false
	}
	var owners []string
	for _, i := range now.Involved {
		if o := dae.ConstraintOwner(fc.sys, i); !slices.Contains(owners, o) {
			owners = append(owners, o)
		}
	}
	se.Err = fmt.Errorf("%w at t=%.10g: rank of G dropped to %d of %d rows (smallest pivot %.2g of the largest, %.2g at the start); joints involved: %s; the step failed with: %w",
		ErrSingularPosition, cur.T, now.Rank, now.Rows, now.Ratio, start.Ratio, strings.Join(owners, ", "), se.Err)
	se.Worst = Residual{}
	se.Hint = singularHint
	return true
}
