package modelfile

import (
	"strings"
	"testing"
)

// TestKnifeEdgeExample: examples/chaplygin-sleigh.yaml (a knife-edge joint) against the
// closed form of the Chaplygin sleigh (planar/knife_test.go): forward speed
// u = V tanh s and turning rate ω = (V/k) sech s at t_end, energy m V²/2 constant, with
// the methods that take the knife edge; radau5 in its index3 formulation refuses it,
// naming the capability.
func TestKnifeEdgeExample(t *testing.T) {
	b := loadExample(t, "chaplygin-sleigh")
	for _, c := range []struct {
		method, form string
		tol          float64 // on (u, ω) at t_end and on the energy drift
	}{
		{"dopri5", "", 1e-7},
		{"hht", "", 3e-5},
		{"bdf", "index2", 1e-6},
		{"radau5", "index2", 1e-6},
		{"radau5", "", 1e-6},
	} {
		r := runExample(t, b, RunOptions{Method: c.method, Formulation: c.form})
		eu, ew := sleighGap(r)
		if eu > c.tol || ew > c.tol || r.EnergyDrift > c.tol {
			t.Errorf("%s: |Δu| = %.3g, |Δω| = %.3g, energy drift %.3g J; want ≤ %g", c.method, eu, ew, r.EnergyDrift, c.tol)
		}
		t.Logf("%s: |Δu| = %.3g, |Δω| = %.3g, energy drift %.3g J, max |A v| %.2g", c.method, eu, ew, r.EnergyDrift, r.Solution.MaxResidual.Vel)
	}
	_, err := Run(b, RunOptions{Method: "radau5", Formulation: "index3"})
	if err == nil || !strings.Contains(err.Error(), "nonholonomic") || !strings.Contains(err.Error(), "index3") {
		t.Errorf("radau5 (index3): %v, want a refusal naming the nonholonomic constraints and the formulation", err)
	}
}
