package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSolveSizedChains (issue 15, item 4): solve takes chain-bars:N and chain3d:N, with scd
// against the reference where there is one (hht at tol 1e-6 on 3 bars: measured scd 1.75)
// and the energy T + V at both ends; without a reference it says so and reports residuals
// and energy; a bad N is a usage error (exit 2) naming the range.
func TestSolveSizedChains(t *testing.T) {
	code, out, errOut := runCLI("solve", "chain-bars:3", "--method", "hht", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep solveReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("output is not a solve report: %v\n%s", err, out)
	}
	if rep.Problem != "chain-bars:3" || rep.SCD == nil || *rep.SCD < 1.5 || rep.EnergyStart == nil || rep.EnergyEnd == nil {
		t.Errorf("report %+v, want chain-bars:3 with scd ≥ 1.5 and energies", rep)
	} else if d := *rep.EnergyEnd - *rep.EnergyStart; d > 1e-2 || d < -1e-2 {
		// 3 bars fall 0.75 m on average: 22 J exchanged; hht at 1e-6 keeps T + V to 1e-3 J.
		t.Errorf("energy changes by %.3g J, want |change| ≤ 1e-2", d)
	}
	code, out, errOut = runCLI("solve", "chain3d:3", "--method", "dopri5")
	if code != 0 || !strings.Contains(out, "scd      3.") || !strings.Contains(out, "energy   T + V = 0 J at the start") {
		t.Errorf("chain3d:3 with dopri5: exit %d, %s\n%s\nwant scd 3.x and the energy", code, errOut, out)
	}
	code, out, errOut = runCLI("solve", "chain-bars:21", "--method", "hht", "--tol", "1e-4")
	if code != 0 || !strings.Contains(out, "scd      n/a (no reference solution: none: the reference ODE costs O(N³)") ||
		!strings.Contains(out, "max |g|") || !strings.Contains(out, "energy   T + V") {
		t.Errorf("chain-bars:21: exit %d, %s\n%s\nwant no scd, said why, with residuals and energy", code, errOut, out)
	}
	for _, c := range []struct{ name, want string }{
		{"chain-bars:0", `N = "0"; want a whole number of bodies in [1, 10000]`},
		{"chain3d:x", `N = "x"; want a whole number of bodies in [1, 10000]`},
		{"chainz:3", `unknown problem family "chainz"`},
	} {
		code, _, errOut = runCLI("solve", c.name)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("solve %s: exit %d, %q; want exit 2 and %q", c.name, code, errOut, c.want)
		}
	}
}

// TestWorkPrecisionSizedChain: workprecision runs on chain-bars:N with a reference, and
// refuses one without, saying why.
func TestWorkPrecisionSizedChain(t *testing.T) {
	code, out, errOut := runCLI("workprecision", "chain-bars:3", "--methods", "hht", "--tols", "1e-4", "--repeat", "1")
	if code != 0 || !strings.Contains(out, "work-precision: chain-bars:3") || !strings.Contains(out, "hht") {
		t.Errorf("exit %d, %s\n%s", code, errOut, out)
	}
	code, _, errOut = runCLI("workprecision", "chain3d:25", "--methods", "hht", "--tols", "1e-4", "--repeat", "1")
	if code == 0 || !strings.Contains(errOut, "problem chain3d:25 has no reference solution (none: the reference ODE") {
		t.Errorf("chain3d:25: exit %d, %q; want a refusal that says why", code, errOut)
	}
}

// TestProblemsListsSized: `linkage problems` names the sized problems and their ranges.
func TestProblemsListsSized(t *testing.T) {
	code, out, _ := runCLI("problems")
	for _, want := range []string{"chain-bars:N  1 ≤ N ≤ 10000", "chain3d:N     1 ≤ N ≤ 10000", "chainN        2 ≤ N ≤ 50"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("problems: exit %d, output lacks %q", code, want)
		}
	}
}
