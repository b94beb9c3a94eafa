package joint_test

import (
	"math"
	"testing"

	"linkage/integrate"
)

// TestALIGeometricStiffnessLongSlenderChain is TestALIStepsLongSlenderChain with
// GeometricStiffness: on the 300-rod chain at 0.8 ms, where M alone takes 2 GMRES products
// per solve, the rule buys K_g (its loads at the forward-dynamics accelerations) and the
// steps take one product each: at most 2.25 evaluations per step (M alone: 3.05) for the
// trapezoidal rule's motion to 2e-7 rad (measured 1.23e-7; M alone 5.6e-8, the one Newton
// step's error either way; BENCHMARKS.md, "ali3 and ali1 with K_g at the forward-dynamics
// accelerations").
func TestALIGeometricStiffnessLongSlenderChain(t *testing.T) {
	const n, h, steps = 300, 8e-4, 20
	sys, s, err := Chain3D(n)
	if err != nil {
		t.Fatal(err)
	}
	ctl := integrate.StepControl{FixedH: h, RTol: 1e-4, ATol: 1e-4}
	run := func(m integrate.Method) integrate.Stats {
		t.Helper()
		if err := m.Init(sys, s, ctl); err != nil {
			t.Fatal(err)
		}
		for range steps {
			if err := m.Step(math.Inf(1)); err != nil {
				t.Fatalf("%T: %v", m, err)
			}
		}
		return m.Stats()
	}
	trap := &integrate.HHT{Alpha: 0}
	run(trap)
	want := trap.Current().Q
	for _, m := range []integrate.Method{&integrate.ALI3{GeometricStiffness: true}, &integrate.ALI1{GeometricStiffness: true}} {
		st := run(m)
		var d float64
		for i, q := range m.Current().Q {
			d = math.Max(d, math.Abs(q-want[i]))
		}
		perStep := float64(st.FuncEvals) / steps
		t.Logf("%T: %.2f evaluations, %d Newton iterations, %d factorizations; |q − q_trapezoidal| %.2e", m, perStep, st.NewtonIters, st.Factorizations, d)
		if st.NewtonIters != steps {
			t.Errorf("%T: %d Newton iterations in %d steps, want one per step", m, st.NewtonIters, steps)
		}
		if perStep > 2.25 {
			t.Errorf("%T: %.2f force evaluations per step, want at most 2.25", m, perStep)
		}
		if !(d <= 2e-7) {
			t.Errorf("%T: max |q − q_trapezoidal| = %.2e, want at most 2e-7", m, d)
		}
	}
}
