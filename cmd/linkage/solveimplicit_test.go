package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveImplicitProblem: `linkage solve` runs a problem defined as a
// dae.LinearlyImplicit system with radau5 and bdf (scd against the test set's reference,
// CSV of y with the system's variable names) and refuses other methods and formulations.
func TestSolveImplicitProblem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "y.csv")
	code, out, errOut := runCLI("solve", "andrews-implicit", "--method", "radau5", "--json", "--out", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	// radau5 at the problem's tol 1e-6 (h0 by radau5's default, 1e-6): measured scd 3.48
	// (4.54 before radau5's first-iterate bound, radauMonitor.staleFirst). At one
	// tolerance the scd of this index-3 form is erratic: at 21 tolerances 10^-5.5 …
	// 10^-6.5 radau5 ends between 3.09 and 5.24 (median 3.70-3.74), before that bound
	// between 3.02 and 6.76 (median 3.65-4.07), with h0 = tol or by default (BENCHMARKS.md,
	// "radau5's first iterate"). So this test of the command asks the 3 digits every one
	// of those runs met; problems' TestImplicitAndrews checks the accuracy against the
	// published run over 5 tolerances.
	if scd, _ := m["scd"].(float64); !(scd >= 3) {
		t.Errorf("scd = %v, want ≥ 3", m["scd"])
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// t and the 27 variables, named by the system (dae.VariableNamer).
	if h := strings.SplitN(string(b), "\n", 2)[0]; len(strings.Split(h, ",")) != 28 || !strings.HasPrefix(h, "t,beta,theta,") ||
		!strings.Contains(h, ",beta'',") || !strings.Contains(h, ",lambda:") {
		t.Errorf("CSV header %q, want t and 27 named variables", h)
	}
	code, out, _ = runCLI("solve", "andrews-implicit", "--method", "bdf")
	if code != 0 || !strings.Contains(out, "scd") {
		t.Errorf("bdf: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"--method", "hht"}, {"--method", "radau5", "--formulation", "index3"}} {
		code, _, errOut := runCLI(append([]string{"solve", "andrews-implicit"}, args...)...)
		if code != 2 || !strings.Contains(errOut, "linearly implicit") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message naming the linearly implicit system", args, code, errOut)
		}
	}
}
