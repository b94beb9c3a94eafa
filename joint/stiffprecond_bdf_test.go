package joint_test

import (
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// TestStiffPrecondKrylovMatchesDense: on the 3D chain of 4 rods, bdf (ggl) and daealpha
// (index2, index1-proj), whose Newton-Krylov preconditioners take the geometric stiffness
// (dae.StiffMassSolver), and radau5 (the mass part alone) follow the same methods on their
// dense Newton matrices (MassSolve hidden, denseOnly) to the integration tolerance: at
// t = 0.3 (tol 1e-8) the coordinates and velocities agree to 1e-6 (the preconditioner
// changes the Newton increments only by GMRES's forcing term; measured 1.7e-11 and
// 7.9e-11 for bdf).
func TestStiffPrecondKrylovMatchesDense(t *testing.T) {
	const tEnd, tol = 0.3, 1e-8
	for _, mf := range []struct {
		method string
		form   integrate.Formulation
	}{{"bdf", ""}, {"radau5", ""}, {"daealpha", integrate.Index2}, {"daealpha", integrate.Index1Projected}} {
		method := mf.method
		run := func(dense bool) integrate.State {
			sys, s, err := Chain3D(4)
			if err != nil {
				t.Fatal(err)
			}
			var ds dae.System = sys
			if dense {
				ds = denseOnly{sys, sys, sys, sys}
			}
			e, err := integrate.Lookup(method)
			if err != nil {
				t.Fatal(err)
			}
			m, err := e.NewMethod(mf.form)
			if err != nil {
				t.Fatal(err)
			}
			sol, err := integrate.Solve(m, method, ds, s, tEnd, integrate.SolveOptions{
				Control: integrate.StepControl{RTol: tol, ATol: tol}, Output: []float64{tEnd}})
			if err != nil {
				t.Fatalf("%s %s (dense %v): %v", method, mf.form, dense, err)
			}
			return sol.Final
		}
		kry, den := run(false), run(true)
		var dq, dv float64
		for i := range kry.Q {
			dq = math.Max(dq, math.Abs(kry.Q[i]-den.Q[i]))
			dv = math.Max(dv, math.Abs(kry.V[i]-den.V[i]))
		}
		t.Logf("%s %s: |Krylov − dense| at t = %g: q %.1e, v %.1e", method, mf.form, tEnd, dq, dv)
		if !(dq <= 1e-6 && dv <= 1e-6) {
			t.Errorf("%s %s: |Krylov − dense| at t = %g: q %.2e, v %.2e, want ≤ 1e-6", method, mf.form, tEnd, dq, dv)
		}
	}
}

// TestStiffPrecondBDFStepAllocatesNothing: a bdf step on the joint route whose
// preconditioner takes the geometric stiffness (a fresh K_g and factorization at every
// matrix) allocates nothing after warm-up, and the run uses it: from the 30-rod chain's
// start its Newton iterations take fewer GMRES products than with the mass part alone.
func TestStiffPrecondBDFStepAllocatesNothing(t *testing.T) {
	sys, s, err := Chain3D(30)
	if err != nil {
		t.Fatal(err)
	}
	products := map[string]float64{}
	for _, p := range []string{"M", "M+Kg"} {
		var ds dae.System = sys
		if p == "M" {
			ds = massOnly{sys, sys, sys, sys, sys, sys, sys, sys}
		}
		m := integrate.DefaultBDF()
		m.Newton.Jacobian = integrate.JacobianEveryStep
		var a float64
		a, products[p] = stepCosts(t, &m, ds, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 30)
		if a != 0 && p == "M+Kg" {
			t.Errorf("bdf step with the stiffness preconditioner: %g allocations, want 0", a)
		}
	}
	t.Logf("GMRES products per Newton iteration: M %.3g, M+K_g %.3g", products["M"], products["M+Kg"])
	if products["M+Kg"] >= products["M"] {
		t.Errorf("GMRES products per Newton iteration: %.3g with M+K_g, %.3g with M alone; want fewer", products["M+Kg"], products["M"])
	}
}

// stepCosts initializes m on sys at s, takes warm steps, and returns the allocations per
// step and the residual evaluations per Newton iteration less one (the GMRES products of
// a one-residual corrector) over 20 further steps.
func stepCosts(t *testing.T, m integrate.Method, sys dae.System, s integrate.State, ctl integrate.StepControl, warm int) (allocs, products float64) {
	t.Helper()
	if err := m.Init(sys, s, ctl); err != nil {
		t.Fatal(err)
	}
	step := func() {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	for range warm {
		step()
	}
	st0 := m.Stats()
	allocs = testing.AllocsPerRun(20, step)
	st := m.Stats()
	iters := st.NewtonIters - st0.NewtonIters
	return allocs, float64(st.FuncEvals-st0.FuncEvals-iters) / float64(iters)
}

// TestStiffPrecondDAEAlphaStepAllocatesNothing: daealpha's index2 and index1-proj steps
// on the joint route, their q rows' block M + β̂h² K_g refactorized at every step,
// allocate nothing after warm-up (30-rod chain, tol 1e-4).
func TestStiffPrecondDAEAlphaStepAllocatesNothing(t *testing.T) {
	for _, form := range []integrate.Formulation{integrate.Index2, integrate.Index1Projected} {
		sys, s, err := Chain3D(30)
		if err != nil {
			t.Fatal(err)
		}
		m := integrate.DefaultDAEAlpha()
		m.Formulation = form
		m.Newton.Jacobian = integrate.JacobianEveryStep
		if a, _ := stepCosts(t, &m, sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 10); a != 0 {
			t.Errorf("daealpha %s step with the stiffness preconditioner: %g allocations, want 0", form, a)
		}
	}
}
