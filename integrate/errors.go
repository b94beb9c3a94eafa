package integrate

import (
	"errors"
	"fmt"
	"strings"
)

// Causes of a failed step, reached through StepError.Unwrap.
var (
	ErrStepSizeTooSmall = errors.New("step size below HMin")
	ErrNoConvergence    = errors.New("no convergence of the Newton iteration")
	ErrNonFinite        = errors.New("NaN or Inf in the solution")
	ErrMaxSteps         = errors.New("more than MaxSteps steps")
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
	Err    error    // ErrStepSizeTooSmall, ErrNoConvergence, ErrNonFinite, ErrMaxSteps, linalg.ErrSingular
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
	return b.String()
}

func (e *StepError) Unwrap() error { return e.Err }
