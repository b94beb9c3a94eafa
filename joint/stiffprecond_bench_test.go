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
