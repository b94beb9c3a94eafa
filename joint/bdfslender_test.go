package joint_test

import (
	"math"
	"testing"

	"linkage/integrate"
)

// TestBDFGGLLoadedSlenderChain: from the loaded state (t = 0.25 s) of the 20-rod chain,
// bdf (ggl) on the Newton-Krylov path reaches t = 0.26 s within its tolerance of dopri5's
// reference in as many steps with rods of radius 1e-4 m (M's condition number 3e12) as
// with rods of 0.01 m, with at most 2 Newton failures. The slender rods' spin inertia makes M⁻¹
// amplify the dynamic rows' rounding, so ggl's increments stalled above the 10-ulp floor in
// the h-scaled accelerations and its rate θ ≈ 1 failed the iteration at every other
// step: 96 steps with 43 Newton failures (r = 1e-5 m: steps of 1e-12 s), as the 1000-rod
// chain of radius 0.01 m went to 15 µs steps ("bdf's rounding floor in every form",
// BENCHMARKS.md). bdf now measures the rounding level in every form on this path, from
// an attempt's first failure or third iteration on (newBDFRounding): one failure here.
// Its steps allocate nothing.
func TestBDFGGLLoadedSlenderChain(t *testing.T) {
	var steps [2]int
	for k, r := range []float64{1e-2, 1e-4} {
		sys, s := slenderChain3D(t, 20, r)
		s = stateAt(t, sys, s, 0.25)
		ref := stateAt(t, sys, s, 0.26)
		m := &integrate.BDF{Formulation: integrate.StabilizedIndex2}
		if err := m.Init(sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4, H0: 1e-6}); err != nil {
			t.Fatal(err)
		}
		for m.Current().T < 0.26 && m.Stats().Steps < 1000 {
			if err := m.Step(0.26); err != nil {
				t.Fatalf("r = %g: %v", r, err)
			}
		}
		var worst float64
		for i, q := range m.Current().Q {
			worst = math.Max(worst, math.Abs(q-ref.Q[i]))
		}
		st := m.Stats()
		steps[k] = st.Steps
		t.Logf("r = %g: t = %.4g in %d steps, %d Newton failures, %d evaluations, max |q − q_ref| = %.2e",
			r, m.Current().T, st.Steps, st.NewtonFailures, st.FuncEvals, worst)
		if m.Current().T < 0.26 || worst > 1e-4 {
			t.Errorf("r = %g: t = %.4g, max |q − q_ref| = %.2e; want t = 0.26 within 1e-4 (tol)", r, m.Current().T, worst)
		}
		if k == 1 && (st.Steps > steps[0]*3/2 || st.NewtonFailures > 2) {
			t.Errorf("r = %g: %d steps (%d at r = 0.01), %d Newton failures; want at most 1.5 × and 2", r, st.Steps, steps[0], st.NewtonFailures)
		}
		if a := stepAllocs(t, m, 0); k == 1 && a != 0 {
			t.Errorf("r = %g: a step with the rounding measurement armed allocates %g times, want 0", r, a)
		}
	}
}
