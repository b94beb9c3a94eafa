package joint_test

import (
	"math"
	"testing"

	"linkage/integrate"
)

// TestALIStepsLongSlenderChain: ali3 and ali1 take Chain3D(300) (900 joint coordinates,
// slender rods, no constraint rows) at the fixed step 0.8 ms for 20 steps, one Newton
// iteration and at most 3.5 force evaluations (GMRES products included; measured 3.05) per step, and
// land on hht's α = 0 run (the same trapezoidal rule) within 1e-7 rad. Before the
// Krylov path solved the forward-dynamics residual M(q)⁻¹R (alikrylov.go) both stopped
// there with a Newton failure (ali3 at the third step, ali1 at the eighth), and on the
// 200-rod chain they took 188-225 evaluations and 34-42 Newton iterations for the 20 steps
// (BENCHMARKS.md, "ali3 and ali1 on the forward-dynamics residual"). With
// GeometricStiffness the rule buys K_g (its loads at the forward-dynamics accelerations)
// where M alone takes 2 GMRES products per solve, and the steps take one product each: at
// most 2.25 evaluations per step, and the trapezoidal rule's motion to 2e-7 rad (measured
// 1.23e-7, the one Newton step's own error, the same with GMRES to 1e-3; M alone's 5.6e-8
// has part of it cancelled by the rougher solve; BENCHMARKS.md, "ali3 and ali1 with K_g at
// the forward-dynamics accelerations").
func TestALIStepsLongSlenderChain(t *testing.T) {
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
	for _, c := range []struct {
		name          string
		m             integrate.Method
		perStep, dist float64
	}{
		{"ali3", methodFor(t, "ali3", ""), 3.5, 1e-7},
		{"ali1", methodFor(t, "ali1", ""), 3.5, 1e-7},
		{"ali3 with K_g", &integrate.ALI3{GeometricStiffness: true}, 2.25, 2e-7},
		{"ali1 with K_g", &integrate.ALI1{GeometricStiffness: true}, 2.25, 2e-7},
	} {
		name, m := c.name, c.m
		st := run(m)
		var d float64
		for i, q := range m.Current().Q {
			d = math.Max(d, math.Abs(q-want[i]))
		}
		perStep := float64(st.FuncEvals) / steps
		t.Logf("%s: %d steps, %.2f evaluations and %d Newton iterations; |q − q_trapezoidal| %.1e", name, st.Steps, perStep, st.NewtonIters, d)
		if st.NewtonIters != steps {
			t.Errorf("%s: %d Newton iterations in %d steps, want one per step", name, st.NewtonIters, steps)
		}
		if perStep > c.perStep {
			t.Errorf("%s: %.2f force evaluations per step, want at most %g", name, perStep, c.perStep)
		}
		if !(d <= c.dist) {
			t.Errorf("%s: max |q − q_trapezoidal| = %.2e after %d steps, want at most %g", name, d, steps, c.dist)
		}
	}
}
