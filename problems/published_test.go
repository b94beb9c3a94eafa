package problems

import (
	"math"
	"testing"
)

// TestPublished: the embedded test-set tables carry the runs the issues quote (RADAU on
// Andrews at 1e-4: 96 steps, 56 accepted, 54 Jacobians, 96 LU, scd 1.36; TESTSET2003
// Table II.13.3), the crank's table exists with its note on the reference used, and a
// problem outside the test set has none.
func TestPublished(t *testing.T) {
	a, ok := Published("andrews")
	if !ok || len(a.Rows) == 0 || a.Table == "" || a.Machine == "" {
		t.Fatalf("andrews: %v, %+v", ok, a)
	}
	found := false
	for _, r := range a.Rows {
		if r.Solver == "RADAU" && r.RTol == 1e-4 {
			found = true
			if r.Steps != 96 || r.Accepted != 56 || r.Jacobians != 54 || r.LU != 96 || r.FEvals != 810 || r.SCD != 1.36 || r.H0 != 1e-4 {
				t.Errorf("RADAU at 1e-4: %+v", r)
			}
		}
	}
	if !found {
		t.Error("andrews: no RADAU run at rtol 1e-4")
	}
	c, ok := Published("crank")
	if !ok || len(c.Rows) == 0 || c.Note == "" {
		t.Fatalf("crank: %v, %+v", ok, c)
	}
	for _, r := range c.Rows {
		if r.Solver == "PSIDE-1" && !math.IsNaN(r.H0) {
			t.Errorf("PSIDE-1 h0 = %g, the table gives \"-\"", r.H0)
		}
	}
	if _, ok := Published("pendulum"); ok {
		t.Error("pendulum has published runs, want none")
	}
}
