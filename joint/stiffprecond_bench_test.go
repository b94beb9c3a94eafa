package joint_test

import (
	"fmt"
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
// dae.StiffMassSolver), at fixed steps h from the chain's state at t = 0.25 s of a dopri5
// run (the rods loaded; chainStateAt). prod/iter is the residual evaluations per Newton
// iteration less one (the GMRES products), cpu-ms/step the process CPU time. Run:
//
//	go test -run X -bench ChainStiffPrecond -benchtime 10x ./joint/
func BenchmarkChainStiffPrecond(b *testing.B) {
	for _, method := range []string{"hht"} {
		for _, n := range []int{10, 100, 1000} {
			s := chainStateAt(b, n, 0.25)
			for _, h := range []float64{1e-3, 3e-3} {
				for _, p := range []string{"M", "M+Kg"} {
					b.Run(fmt.Sprintf("method=%s/N=%d/h=%g/P=%s", method, n, h, p), func(b *testing.B) {
						sys, _, err := Chain3D(n)
						if err != nil {
							b.Fatal(err)
						}
						var ds dae.System = sys
						if p == "M" {
							ds = massOnly{sys, sys, sys, sys, sys, sys, sys, sys}
						}
						m := implicitMethod(method)
						benchSteps(b, m, ds, s.Clone(), integrate.StepControl{FixedH: h}, 2)
						st := m.Stats()
						b.ReportMetric(float64(st.FuncEvals-st.NewtonIters)/float64(st.NewtonIters), "prod/iter")
					})
				}
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
