package main

import (
	"strings"
	"testing"
)

// TestReproduceLongOnlyIFToMM: --long (A01 to 2000 s) belongs to reproduce iftomm; given
// to another experiment it is a usage error (status 2) that says so, before any run.
func TestReproduceLongOnlyIFToMM(t *testing.T) {
	code, _, errOut := runCLI("reproduce", "arnold-ex9", "--long")
	if code != 2 || !strings.Contains(errOut, "--long applies to the iftomm experiment only") {
		t.Errorf("reproduce arnold-ex9 --long: status %d, stderr %q; want 2 and the flag named", code, errOut)
	}
}

// TestReproduceMaxStepsFlag: --max-steps (the step cap of each run of reproduce iftomm,
// iftomm.MaxSteps by default) belongs to reproduce iftomm and must be positive; either
// misuse is a usage error (status 2) naming the flag, before any run.
func TestReproduceMaxStepsFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"reproduce", "arnold-ex9", "--max-steps", "5"}, "--max-steps applies to the iftomm experiment only"},
		{[]string{"reproduce", "iftomm", "--max-steps", "0"}, "--max-steps = 0; want a positive number of steps"},
	} {
		code, _, errOut := runCLI(c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
