package modelfile

import (
	"fmt"
	"io"
	"math"

	"linkage/integrate"
)

// estimate.go: (Built, Result) ⇒ ErrorEstimate, the global error of a run estimated by a
// second, more accurate run of the same method and formulation.
//
// tol bounds the local error of each step, not the global error: on an oscillation a
// second-order method ends 1e3-1e5 × tol away from the exact solution (BENCHMARKS.md). With
// the local error held at tol by steps h ∝ tol^(1/(p+1)) (order p), the global error
// scales as tol^(p/(p+1)), so a reference run at tol/F has a global error smaller by
// F^(p/(p+1)). F is chosen so that this is at least 20 — the estimate y − y_ref is then
// within 5 % of the true error y − y_exact:
//
//	p ≥ 2:  F = 100    (100^(2/3) = 22; more for higher p)
//	p = 1:  F = 1000   (1000^(1/2) = 32)
//
// p is the smaller of the method's orders in q and v (integrate.Entry.Order). Channels
// computed from λ of methods whose λ is one order lower (hht, genalpha in index 3) are
// estimated within about 10 % (100^(1/2)).
//
// A fixed-step run of order p is compared with a run at h/4, whose error is 4^p times
// smaller, and the difference is extrapolated (Richardson):
//
//	e(h) ≈ (y_h − y_{h/4}) · 4^p / (4^p − 1).

// TolControls states what the tolerance of an error-controlled run bounds, for summaries.
const TolControls = "tol bounds the local error per step, not the global error; use --estimate-error"

// fixedStepControls is the same statement for a fixed-step run.
const fixedStepControls = "fixed steps: no error control; use --estimate-error"

// minReferenceTol is the tightest tolerance a reference run is asked for: a few hundred
// units of rounding (2.2e-16) on the scaled error norm, below which the step-size control
// chases rounding noise and the reference is no longer more accurate than the run.
const minReferenceTol = 1e-13

// tolControls returns TolControls, the method's own statement (integrate.Entry.Tolerance:
// multi-index), or the fixed-step statement when r took fixed steps.
func (r *Result) tolControls() string {
	if r.H > 0 {
		return fixedStepControls
	}
	if e, err := integrate.Lookup(r.Method); err == nil && e.Tolerance != "" {
		return e.Tolerance
	}
	return TolControls
}

// ErrorEstimate is the estimated global error of a run in every output channel.
type ErrorEstimate struct {
	// Reference describes the second run, e.g. "tol 1e-08 (tol/100, order 2)".
	Reference    string         `json:"reference"`
	ReferenceTol float64        `json:"reference_tol,omitempty"`
	ReferenceH   float64        `json:"reference_h,omitempty"`
	Order        int            `json:"order"` // p of the method, which chose the reference
	Channels     []ChannelError `json:"channels"`
	Steps        int            `json:"reference_steps"` // accepted steps of the reference run
}

// ChannelError is the estimated global error of one output channel: its absolute value at
// t_end and the largest over the output times, with the time where it occurs.
type ChannelError struct {
	Channel string  `json:"channel"`
	AtEnd   float64 `json:"at_t_end"`
	Worst   float64 `json:"worst"`
	WorstT  float64 `json:"worst_t"`
}

// referenceFactor returns F for a method of order p (see the file's comment).
func referenceFactor(p int) float64 {
	if p >= 2 {
		return 100
	}
	return 1000
}

// EstimateError estimates the global error of the completed run r of b by a second run of
// the same method and formulation, at tol/F when r was error-controlled or at h/4 when r
// took fixed steps (see the file's comment). It returns an error when the reference run
// fails or would need a tolerance below what double precision can meet.
func EstimateError(b *Built, r *Result) (*ErrorEstimate, error) {
	entry, err := integrate.Lookup(r.Method)
	if err != nil {
		return nil, err
	}
	p := min(entry.Order.Q, entry.Order.V)
	// The reference takes more steps than r (F^(1/(p+1)) or 4 times as many): give it ten
	// times r's step cap.
	opt := RunOptions{Method: r.Method, Formulation: string(r.Formulation), TEnd: r.TEnd, MaxSteps: 10 * r.MaxSteps}
	est := &ErrorEstimate{Order: p}
	richardson := 1.0
	if r.H > 0 {
		opt.H = r.H / 4
		est.ReferenceH = opt.H
		q := math.Pow(4, float64(p))
		richardson = q / (q - 1)
		est.Reference = fmt.Sprintf("fixed h %.6g (h/4), Richardson extrapolation with order %d", opt.H, p)
	} else {
		f := referenceFactor(p)
		opt.Tol = r.Tol / f
		if opt.Tol < minReferenceTol {
			return nil, fmt.Errorf("error estimate: tol %g needs a reference run at tol/%g = %g, below %g, which double precision cannot meet; estimate at a looser tol",
				r.Tol, f, opt.Tol, minReferenceTol)
		}
		est.ReferenceTol = opt.Tol
		est.Reference = fmt.Sprintf("tol %.3g (tol/%g for a method of order %d)", opt.Tol, f, p)
	}
	ref, err := Run(b, opt)
	if err != nil {
		return nil, fmt.Errorf("error estimate: reference run at %s failed: %w", est.Reference, err)
	}
	if len(ref.Data[0]) != len(r.Data[0]) || len(ref.Channels) != len(r.Channels) {
		return nil, fmt.Errorf("error estimate: reference run has %d samples of %d channels, the run %d of %d",
			len(ref.Data[0]), len(ref.Channels), len(r.Data[0]), len(r.Channels))
	}
	est.Steps = ref.Solution.Stats.Steps
	times := r.Data[0]
	for c, name := range r.Channels[1:] {
		x, y := r.Data[c+1], ref.Data[c+1]
		if x == nil {
			return nil, fmt.Errorf("error estimate: channel %q of the run was not kept in memory (RunOptions.Keep must name every output channel)", name)
		}
		ce := ChannelError{Channel: name}
		for k := range x {
			e := richardson * math.Abs(x[k]-y[k])
			if e > ce.Worst || math.IsNaN(e) {
				ce.Worst, ce.WorstT = e, times[k]
			}
		}
		ce.AtEnd = richardson * math.Abs(x[len(x)-1]-y[len(y)-1])
		est.Channels = append(est.Channels, ce)
	}
	return est, nil
}

// WriteText prints the estimate as a table under a line naming the reference run.
func (e *ErrorEstimate) WriteText(w io.Writer) {
	fmt.Fprintf(w, "estimate global error, from a second run at %s:\n", e.Reference)
	width := len("channel")
	for _, c := range e.Channels {
		width = max(width, len(c.Channel))
	}
	fmt.Fprintf(w, "  %-*s  %10s  %10s  %s\n", width, "channel", "at t_end", "worst", "at t")
	for _, c := range e.Channels {
		fmt.Fprintf(w, "  %-*s  %10.3e  %10.3e  %.6g\n", width, c.Channel, c.AtEnd, c.Worst, c.WorstT)
	}
}
