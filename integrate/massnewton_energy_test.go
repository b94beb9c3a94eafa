package integrate

import (
	"math"
	"testing"
)

// TestMassNewtonKeepsEnergy: hht with the Newton-Krylov corrector on the undamped joint
// route 3D chain of 1000 slender rods (roll inertia 5e-5 kg·m², 500 m turning at 1 rad/s)
// for 12 steps from the start: the energy T + V stays within the tolerance 1e-4 of its
// start (measured 3.1e-5 over 12 steps to t = 0.034 s, the local errors of the error
// control; before hht scaled its dynamic rows, massNewton.scaleRows, the 12 steps reached
// 0.0019 s with 1.9e-6, the same 1e-3 per simulated second). Accepting an iteration after
// a GMRES solve that missed its tolerance (massNewton.distrusted) let steps grow to a
// second and the energy by orders of magnitude on this chain (the test then fails).
func TestMassNewtonKeepsEnergy(t *testing.T) {
	sys, s := jointChain3D(t, 1000, 0.01, 0)
	m := DefaultHHT()
	if err := m.Init(sys, s, StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
		t.Fatal(err)
	}
	t0, v0 := sys.Energy(0, s.Q, s.V)
	e0 := t0 + v0
	for range 12 {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	c := m.Current()
	tk, v := sys.Energy(c.T, c.Q, c.V)
	t.Logf("t = %.3g after 12 steps: E − E₀ = %.3g (E₀ = %.3g)", c.T, tk+v-e0, e0)
	if d := (tk + v - e0) / math.Abs(e0); !(d < 1e-4) {
		t.Errorf("energy changed by %.3g relative over 12 steps to t = %.3g", d, c.T)
	}
}
