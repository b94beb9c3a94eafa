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
