package joint_test

import (
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// TestDAEAlphaLoopStiffPrecondLoopedChain: on the looped chain of 100 rods
// (chain3DTipOnPlane, its tip held on a plane by a cut row) daealpha index2 at the fixed
// step 8.8 ms (2 × its adaptive step on the 1000-rod chain) reaches the same state after
// 6 steps with M + β̂h² K_g (with the cut row's load) as with M alone (massOnly), to the
// Newton stop (tol 1e-8), in at most 0.6 × the GMRES products per Newton iteration
// (measured at tol 1e-4: 3.7 → 2.0; at N = 1000 and h = 4.4 ms 12 → 1.5, where M alone
// grew 60 × per decade of N at equal h; BENCHMARKS "The cost per step at fixed h against N"); and
// its step allocates nothing after warm-up.
func TestDAEAlphaLoopStiffPrecondLoopedChain(t *testing.T) {
	sys, s, err := chain3DTipOnPlane(100)
	if err != nil {
		t.Fatal(err)
	}
	if !sys.HasGeometricStiffness() {
		t.Fatal("the looped chain keeps K_g off")
	}
	const h, tol, steps = 8.8e-3, 1e-8, 6
	var prod [2]float64
	var q [2][]float64
	for i, ds := range []dae.System{massOnly{sys, sys, sys, sys, sys, sys, sys, sys}, sys} {
		m := methodFor(t, "daealpha", integrate.Index2)
		if err := m.Init(ds, s.Clone(), integrate.StepControl{FixedH: h, RTol: tol, ATol: tol}); err != nil {
			t.Fatal(err)
		}
		for range steps {
			if err := m.Step(math.Inf(1)); err != nil {
				t.Fatalf("preconditioner %d: %v", i, err)
			}
		}
		st := m.Stats()
		prod[i] = float64(st.FuncEvals-st.NewtonIters) / float64(st.NewtonIters)
		q[i] = m.Current().Q
	}
	var d, qn float64
	for j := range q[0] {
		d, qn = math.Max(d, math.Abs(q[1][j]-q[0][j])), math.Max(qn, math.Abs(q[0][j]))
	}
	t.Logf("products per Newton iteration M %.2f, M+K_g %.2f; max |Δq| %.1e (max |q| %.2g)", prod[0], prod[1], d, qn)
	if prod[1] > 0.6*prod[0] {
		t.Errorf("%.2f GMRES products per Newton iteration with K_g, %.2f with M alone: want at most 0.6 ×", prod[1], prod[0])
	}
	if d > 1e-7*(1+qn) {
		t.Errorf("positions after %d steps differ by %.2e between the preconditioners", steps, d)
	}
	m := integrate.DefaultDAEAlpha()
	m.Newton.Jacobian = integrate.JacobianEveryStep
	small, s10, err := chain3DTipOnPlane(10)
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := stepCosts(t, &m, small, s10, integrate.StepControl{FixedH: 1e-2}, 10); a != 0 {
		t.Errorf("daealpha index2 step on the looped chain with K_g: %g allocations, want 0", a)
	}
}
