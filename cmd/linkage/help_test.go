package main

import (
	"strings"
	"testing"
)

// -h and --help print a command's help everywhere (exit 0); the fixed step stays --h and
// is also --step. `linkage run -h` was read as the step flag missing its value (exit 2).
func TestDashHIsHelpEverywhere(t *testing.T) {
	for _, cmd := range []string{"run", "solve", "workprecision", "reproduce", "check", "view", "import"} {
		for _, flag := range []string{"-h", "--help", "-help"} {
			code, out, errOut := runCLI(cmd, flag)
			if code != 0 || !strings.Contains(out+errOut, "usage: linkage "+cmd) {
				t.Errorf("linkage %s %s: exit %d, want 0 and the usage:\n%s%s", cmd, flag, code, out, errOut)
			}
		}
	}
	code, out, errOut := runCLI("run", "../../examples/slider-crank.yaml", "-h")
	if code != 0 || !strings.Contains(out+errOut, "usage: linkage run") {
		t.Errorf("linkage run MODEL -h: exit %d, want the help:\n%s%s", code, out, errOut)
	}
}

func TestStepFlagSpellings(t *testing.T) {
	for _, flag := range []string{"--h", "--step", "-step"} {
		code, out, errOut := runCLI("run", "../../examples/slider-crank.yaml", "--method", "hht", flag, "0.001", "--t-end", "0.05")
		if code != 0 || !strings.Contains(out, "fixed h 0.001") {
			t.Errorf("linkage run %s 0.001: exit %d, want a fixed-step run:\n%s%s", flag, code, out, errOut)
		}
	}
}

// solve prints the reference's whole source (it cut it at the first period: "exact
// solution of eq").
func TestSolveShowsWholeReferenceSource(t *testing.T) {
	code, out, errOut := runCLI("solve", "pendulum", "--method", "hht", "--tol", "1e-6")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "exact solution of eq. 5 by Jacobi elliptic functions, sin(α/2) = k·cd(ω t, k)"
	if !strings.Contains(out, want) {
		t.Errorf("summary lacks the reference's source %q:\n%s", want, out)
	}
}
