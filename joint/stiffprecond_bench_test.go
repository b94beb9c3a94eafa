package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// massOnly hides dae.StiffMassSolver from a joint system and keeps the capabilities the
// Newton-Krylov path reads: the implicit methods then precondition by the mass part
// [c·M Gᵀ; G 0] alone, as before the geometric stiffness (BenchmarkChainStiffPrecond's
// reference).
type massOnly struct {
	dae.System
	dae.LockedMassSolver
	dae.MassMultiplier
	dae.LoopJacobian
	dae.ConstraintForcer
	dae.MassDerivative
	dae.ForceDerivative
	dae.ConstraintForceDerivative
}

// BenchmarkChainStiffPrecond measures the implicit methods' Newton-Krylov corrector on the
// chain of N rods in joint coordinates with the preconditioner's a-block c·M ("M", the
// system as massOnly) and c·M + k·K_g ("M+Kg", the body-level geometric stiffness of
// dae.StiffMassSolver), from the chain's state at t = 0.25 s of a dopri5 run (the rods
// loaded; chainStateAt): hht at fixed steps h = 1 and 3 ms (ctl=h1ms, h3ms), and hht,
// genalpha and bdf under error control at tolerance 1e-4 (ctl=tol, as
// BenchmarkChainImplicitStep). prod/iter is the residual evaluations per Newton iteration
// less one (the GMRES products), cpu-ms/step the process CPU time, h-ms the mean step. Run:
//
//	go test -run X -bench ChainStiffPrecond -benchtime 10x ./joint/
func BenchmarkChainStiffPrecond(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		s := chainStateAt(b, n, 0.25)
		for _, c := range []struct {
			method, ctl string
			h           float64
		}{{"hht", "h1ms", 1e-3}, {"hht", "h3ms", 3e-3}, {"hht", "tol", 0}, {"genalpha", "tol", 0}, {"bdf", "tol", 0}} {
			for _, p := range []string{"M", "M+Kg"} {
				b.Run(fmt.Sprintf("method=%s/ctl=%s/N=%d/P=%s", c.method, c.ctl, n, p), func(b *testing.B) {
					sys, _, err := Chain3D(n)
					if err != nil {
						b.Fatal(err)
					}
					var ds dae.System = sys
					if p == "M" {
						ds = massOnly{sys, sys, sys, sys, sys, sys, sys, sys}
					}
					ctl := integrate.StepControl{FixedH: c.h}
					if c.h == 0 {
						ctl = integrate.StepControl{RTol: 1e-4, ATol: 1e-4}
					}
					m := implicitMethod(c.method)
					benchSteps(b, m, ds, s.Clone(), ctl, 2)
					st := m.Stats()
					b.ReportMetric(float64(st.FuncEvals-st.NewtonIters)/float64(st.NewtonIters), "prod/iter")
				})
			}
		}
	}
}

// TestStiffPrecondStepAllocatesNothing: an hht step on the joint route whose preconditioner
// takes the geometric stiffness (a fresh K_g and factorization every step) allocates
// nothing after warm-up, and the run uses it: its steps at h = 10 ms, 0.4 s into the run,
// take fewer GMRES products than with the mass part alone (measured: 1.45 against 2 per
// Newton iteration on 30 rods).
func TestStiffPrecondStepAllocatesNothing(t *testing.T) {
	sys, s, err := Chain3D(30)
	if err != nil {
		t.Fatal(err)
	}
	sysM := massOnly{sys, sys, sys, sys, sys, sys, sys, sys}
	products := map[string]float64{}
	for _, p := range []string{"M", "M+Kg"} {
		var ds dae.System = sys
		if p == "M" {
			ds = sysM
		}
		m := integrate.DefaultHHT()
		m.Newton.Jacobian = integrate.JacobianEveryStep
		var a float64 // 40 warm-up steps to t = 0.4 s: the rods pull on each other
		a, products[p] = stepCosts(t, &m, ds, s, integrate.StepControl{FixedH: 1e-2}, 40)
		if a != 0 && p == "M+Kg" {
			t.Errorf("hht step with the stiffness preconditioner: %g allocations, want 0", a)
		}
	}
	t.Logf("GMRES products per Newton iteration: M %.3g, M+K_g %.3g", products["M"], products["M+Kg"])
	if products["M+Kg"] >= products["M"] {
		t.Errorf("GMRES products per Newton iteration: %.3g with M+K_g, %.3g with M alone; want fewer", products["M+Kg"], products["M"])
	}
}

// TestStiffPrecondMatchesDense: hht, genalpha and bdf on the 5-rod chain, whose
// preconditioner takes K_g, end at t = 0.5 (tol 1e-8) where the same methods on their
// dense Newton matrices (denseOnly) end, to 1e-6 in every coordinate: the stiffness
// changes the Krylov solves' preconditioner, not the equations solved (measured: hht
// 6.4e-7, genalpha 1.8e-12, bdf 2.7e-10; hht's 6.4e-7 is the same with the mass part
// alone, massOnly: its Krylov and dense paths accept different steps).
func TestStiffPrecondMatchesDense(t *testing.T) {
	sys, s, err := Chain3D(5)
	if err != nil {
		t.Fatal(err)
	}
	if !sys.HasGeometricStiffness() {
		t.Fatal("the chain offers no geometric stiffness")
	}
	const tol, tEnd = 1e-8, 0.5
	for _, method := range []string{"hht", "genalpha", "bdf"} {
		var final [2][]float64
		for k, ds := range []dae.System{sys, denseOnly{sys, sys, sys, sys}} {
			sol, err := integrate.Solve(implicitMethod(method), method, ds, s.Clone(), tEnd, integrate.SolveOptions{
				Control: integrate.StepControl{RTol: tol, ATol: tol}, Output: []float64{tEnd}})
			if err != nil {
				t.Fatalf("%s (route %d): %v", method, k, err)
			}
			final[k] = sol.Final.Q
		}
		var worst float64
		for i := range final[0] {
			worst = math.Max(worst, math.Abs(final[0][i]-final[1][i]))
		}
		t.Logf("%s: max |q_Krylov+K_g − q_dense| = %.1e", method, worst)
		if worst > 1e-6 {
			t.Errorf("%s at t=%g: the Newton-Krylov path with K_g and the dense path differ by %.2e in q", method, float64(tEnd), worst)
		}
	}
}

// TestStiffPrecondOtherMethodsAllocateNothing: genalpha and bdf steps whose preconditioner
// takes K_g (a fresh factorization every step) allocate nothing after warm-up.
func TestStiffPrecondOtherMethodsAllocateNothing(t *testing.T) {
	sys, s, err := Chain3D(10)
	if err != nil {
		t.Fatal(err)
	}
	ga, bdf := integrate.DefaultGenAlpha(), integrate.DefaultBDF()
	ga.Newton.Jacobian, bdf.Newton.Jacobian = integrate.JacobianEveryStep, integrate.JacobianEveryStep
	for name, m := range map[string]integrate.Method{"genalpha": &ga, "bdf": &bdf} {
		if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
			t.Fatal(err)
		}
		if a := stepAllocs(t, m, 20); a != 0 {
			t.Errorf("%s step with the stiffness preconditioner: %g allocations, want 0", name, a)
		}
	}
}
