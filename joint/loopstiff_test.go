package joint_test

import (
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
)

// TestLoopStiffPrecondFourBar: on the driven RSSR four-bar closed by a revolute cut joint
// (spatialFourBarRevoluteCut, tol 1e-8 to t = 0.5; genalpha at 1e-9, see below) every form
// that stiffens its preconditioner (hht, genalpha, genalpha-si2, newmark, bdf in all forms)
// runs with K_g holding the cut rows' loads, ends at the kinetic energy of the same run
// with the mass part alone (massOnly) to 1e-6, as TestKrylovFormsMatchBodyCoordinates
// compares the routes (4e-12 or less for the forms whose two runs take the same steps),
// and takes at most 1.25 × its residual evaluations (measured: 1.00-1.16, worst bdf
// baumgarte; without the cut loads bdf index1 stopped at t = 0.134 with h below HMin and
// bdf baumgarte took 39 × the evaluations, the failure that kept K_g off on looped
// models). genalpha's two runs accept different steps, so their difference is its
// integration error, whose kinetic energy at tol 1e-8 scatters by ±1e-6 with the step
// sequence against radau5 at 1e-12 (K_g with the loads at q̈₁: 5.3e-8 at 1e-8, 9.9e-7 at
// 1e-7; at the forward-dynamics accelerations −9.5e-7 at 1e-8, 3.1e-7 at 1e-7; the
// positions within 1.2-1.3e-7 of it in every case): at 1e-9 it is 1.2-1.5e-7 in both, so
// the bound judges the preconditioner rather than that scatter.
func TestLoopStiffPrecondFourBar(t *testing.T) {
	sys, start := fourBarCutStart(t)
	if !sys.HasGeometricStiffness() {
		t.Fatal("the four-bar's cut joint keeps K_g off")
	}
	const tol, tEnd = 1e-8, 0.5
	for _, k := range []struct {
		method string
		form   integrate.Formulation
	}{
		{"hht", ""}, {"genalpha", ""}, {"genalpha-si2", integrate.StabilizedIndex2}, {"newmark", integrate.StabilizedIndex2},
		{"bdf", integrate.StabilizedIndex2}, {"bdf", integrate.Index2Baumgarte}, {"bdf", integrate.Index3},
		{"bdf", integrate.Index1}, {"bdf", integrate.Baumgarte},
	} {
		var evals [2]int
		var ke [2]float64
		for i, ds := range []dae.System{massOnly{sys, sys, sys, sys, sys, sys, sys, sys}, sys} {
			tol := tol
			if k.method == "genalpha" && k.form == "" {
				tol = 1e-9
			}
			sol, err := integrate.Solve(methodFor(t, k.method, k.form), k.method, ds, start.Clone(), tEnd, integrate.SolveOptions{
				Control: integrate.StepControl{RTol: tol, ATol: tol}, Output: []float64{tEnd}})
			if err != nil {
				t.Fatalf("%s %s (preconditioner %d): %v", k.method, k.form, i, err)
			}
			evals[i] = sol.Stats.FuncEvals
			ke[i], _ = sys.Energy(0, sol.Final.Q, sol.Final.V)
		}
		ratio := float64(evals[1]) / float64(evals[0])
		t.Logf("%-12s %-16s f evals M %5d, M+K_g %5d (× %.2f); |Δ kinetic energy| %.1e", k.method, k.form, evals[0], evals[1], ratio, math.Abs(ke[1]-ke[0]))
		if ratio > 1.25 {
			t.Errorf("%s %s: %d residual evaluations with K_g against %d with M alone", k.method, k.form, evals[1], evals[0])
		}
		if d := math.Abs(ke[1] - ke[0]); d > 1e-6 {
			t.Errorf("%s %s at t=%g: kinetic energy differs by %.2e between the preconditioners", k.method, k.form, float64(tEnd), d)
		}
	}
}

// fourBarCutStart returns spatialFourBarRevoluteCut at a consistent start: the crank
// turning at 2π rad/s (dae.Initialize keeping its angle).
func fourBarCutStart(t *testing.T) (*joint.System, integrate.State) {
	t.Helper()
	sys, _ := spatialFourBarRevoluteCut(t)
	nq, _ := sys.Size()
	q, v := make([]float64, nq), make([]float64, nq)
	v[0] = 2 * math.Pi
	c, err := dae.Initialize(sys, 0, q, v, &dae.InitOptions{Keep: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	return sys, integrate.State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
}

// methodFor returns a fresh method of the registry's name in form.
func methodFor(tb testing.TB, name string, form integrate.Formulation) integrate.Method {
	tb.Helper()
	e, err := integrate.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := e.NewMethod(form)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestLoopStiffPrecondAllocatesNothing: an hht step on the looped chain (chain3DTipOnPlane,
// 10 rods) whose preconditioner takes K_g with the cut row's load (a fresh K_g and
// factorization every step) allocates nothing after warm-up, and the stiffness is on there.
func TestLoopStiffPrecondAllocatesNothing(t *testing.T) {
	sys, s, err := chain3DTipOnPlane(10)
	if err != nil {
		t.Fatal(err)
	}
	if !sys.HasGeometricStiffness() {
		t.Fatal("the looped chain keeps K_g off")
	}
	m := integrate.DefaultHHT()
	m.Newton.Jacobian = integrate.JacobianEveryStep
	if a, _ := stepCosts(t, &m, sys, s, integrate.StepControl{FixedH: 1e-2}, 20); a != 0 {
		t.Errorf("hht step on the looped chain with K_g: %g allocations, want 0", a)
	}
}
