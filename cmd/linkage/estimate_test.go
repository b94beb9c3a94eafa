package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const doublePendulum = "../../examples/double-pendulum.yaml"

// TestRunEstimateErrorJSON: --estimate-error --json carries what tol controls and, for
// every output channel, the estimated global error at t_end and the worst one with its
// time, from a reference run at tol/100 (hht is of order 2).
func TestRunEstimateErrorJSON(t *testing.T) {
	code, out, errOut := runCLI("run", doublePendulum, "--json", "--method", "hht", "--tol", "1e-6", "--t-end", "1", "--estimate-error")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sum struct {
		TolControls string `json:"tol_controls"`
		Estimate    *struct {
			Reference    string  `json:"reference"`
			ReferenceTol float64 `json:"reference_tol"`
			Order        int     `json:"order"`
			Channels     []struct {
				Channel string   `json:"channel"`
				AtEnd   *float64 `json:"at_t_end"`
				Worst   *float64 `json:"worst"`
				WorstT  *float64 `json:"worst_t"`
			} `json:"channels"`
		} `json:"error_estimate"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	if !strings.Contains(sum.TolControls, "tol bounds the local error per step, not the global error") {
		t.Errorf("tol_controls = %q, want the statement of what tol bounds", sum.TolControls)
	}
	e := sum.Estimate
	if e == nil {
		t.Fatalf("JSON lacks error_estimate:\n%s", out)
	}
	// 1e-6/100 in floating point: compare relatively.
	if e.Order != 2 || !(e.ReferenceTol > 0.99e-8 && e.ReferenceTol < 1.01e-8) {
		t.Errorf("reference order %d tol %g, want order 2 at tol 1e-8 (%s)", e.Order, e.ReferenceTol, e.Reference)
	}
	names := map[string]bool{}
	for _, c := range e.Channels {
		names[c.Channel] = true
		if c.AtEnd == nil || c.Worst == nil || c.WorstT == nil {
			t.Errorf("channel %q lacks at_t_end, worst or worst_t", c.Channel)
			continue
		}
		if !(*c.Worst >= *c.AtEnd && *c.WorstT >= 0 && *c.WorstT <= 1) {
			t.Errorf("channel %q: worst %g at t = %g, at t_end %g: want worst >= at t_end, t in [0, 1]", c.Channel, *c.Worst, *c.WorstT, *c.AtEnd)
		}
	}
	// The pendulum's angles move by radians in a second: an order-2 method at tol 1e-6
	// has a global error well above zero and far below 1 rad.
	for _, c := range e.Channels {
		if c.Channel == "bar2.theta" && !(*c.Worst > 1e-9 && *c.Worst < 1e-1) {
			t.Errorf("bar2.theta: estimated worst error %g rad, want in (1e-9, 0.1)", *c.Worst)
		}
	}
	for _, want := range []string{"bar1.theta", "bar2.theta", "energy.invariant"} {
		if !names[want] {
			t.Errorf("error_estimate lacks channel %q (has %v)", want, names)
		}
	}
}

// TestRunEstimateErrorText: every text summary states what tol controls; with
// --estimate-error it prints the table of channels; fixed steps say they have no error
// control and are estimated at h/4.
func TestRunEstimateErrorText(t *testing.T) {
	code, out, errOut := runCLI("run", doublePendulum, "--t-end", "0.5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "tol bounds the local error per step, not the global error; use --estimate-error") {
		t.Errorf("summary does not say what tol bounds:\n%s", out)
	}
	if strings.Contains(out, "estimate global error") {
		t.Errorf("summary has an estimate that was not asked for:\n%s", out)
	}
	code, out, errOut = runCLI("run", doublePendulum, "--t-end", "0.5", "--method", "hht", "--h", "0.01", "--estimate-error")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"fixed steps: no error control", "estimate global error, from a second run at fixed h 0.0025 (h/4)",
		"at t_end", "worst", "bar2.theta"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// TestRunEstimateErrorTooTight: a tolerance whose reference run would be asked for less than
// double precision can meet is refused with the numbers, after the summary of the run.
func TestRunEstimateErrorTooTight(t *testing.T) {
	code, out, errOut := runCLI("run", doublePendulum, "--t-end", "0.01", "--tol", "5e-12", "--estimate-error")
	if code != 1 || !strings.Contains(errOut, "tol 5e-12 needs a reference run at tol/100") {
		t.Errorf("exit %d, stderr %q; want 1 and the reason", code, errOut)
	}
	if !strings.Contains(out, "model") {
		t.Errorf("the run's summary is missing:\n%s", out)
	}
}
