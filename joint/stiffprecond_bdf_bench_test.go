package joint_test

import (
	"fmt"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// BenchmarkChainStiffPrecondBDF is BenchmarkChainImplicitStep's joint-route case for
// bdf (ggl) with the preconditioner's a-block c_j² M ("M", the system as massOnly) and
// c_j² M + K_g ("M+Kg", dae.StiffMassSolver), both in one run at tol 1e-4 after 5 warm-up
// steps, from the chain's start (t0=0, the rods nearly in free fall) and from its loaded
// state at t = 0.25 s of a dopri5 run (t0=0.25, chainStateAt). prod/iter is the residual
// evaluations per Newton iteration over the whole run, less bdf's one: the GMRES
// products. radau5 ran here too while its preconditioner took K_g (commit abdc794, as
// BenchmarkChainStiffPrecondRadauBDF; BENCHMARKS.md gives its numbers). Run:
//
//	go test -run X -bench ChainStiffPrecondBDF -benchtime 20x ./joint/
func BenchmarkChainStiffPrecondBDF(b *testing.B) {
	for _, method := range []string{"bdf"} {
		for _, t0 := range []float64{0, 0.25} {
			for _, n := range []int{10, 100, 1000} {
				s := chainStateAt(b, n, t0)
				for _, p := range []string{"M", "M+Kg"} {
					b.Run(fmt.Sprintf("method=%s/t0=%g/N=%d/P=%s", method, t0, n, p), func(b *testing.B) {
						benchStiffPrecond(b, method, n, p, s.Clone())
					})
				}
			}
		}
	}
}

// chainWithPrecond returns the 3D chain of n rods and its start, as massOnly for p = "M"
// (the preconditioner's mass part alone), else with dae.StiffMassSolver.
func chainWithPrecond(b *testing.B, n int, p string) (dae.System, integrate.State) {
	sys, s, err := Chain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	if p == "M" {
		return massOnly{sys, sys, sys, sys, sys, sys, sys, sys}, s
	}
	return sys, s
}

// benchStiffPrecond is one case of BenchmarkChainStiffPrecondBDF.
func benchStiffPrecond(b *testing.B, method string, n int, p string, s integrate.State) {
	ds, _ := chainWithPrecond(b, n, p)
	m := implicitMethod(method)
	benchSteps(b, m, ds, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
	st := m.Stats()
	b.ReportMetric(float64(st.FuncEvals-st.NewtonIters)/float64(st.NewtonIters), "prod/iter")
}

// BenchmarkChainStiffPrecondDAEAlpha is BenchmarkChainDAEAlphaStep's joint route (index2
// and index1-proj, tol 1e-4) with the q rows' block M ("M", the system as massOnly) and
// M + β̂h² K_g ("M+Kg", dae.StiffMassSolver), in one run. Run:
//
//	go test -run X -bench ChainStiffPrecondDAEAlpha -benchtime 20x ./joint/
func BenchmarkChainStiffPrecondDAEAlpha(b *testing.B) {
	for _, form := range []integrate.Formulation{integrate.Index2, integrate.Index1Projected} {
		for _, n := range []int{10, 100, 1000} {
			for _, p := range []string{"M", "M+Kg"} {
				b.Run(fmt.Sprintf("form=%s/N=%d/P=%s", form, n, p), func(b *testing.B) {
					ds, s := chainWithPrecond(b, n, p)
					m := integrate.DefaultDAEAlpha()
					m.Formulation = form
					benchSteps(b, &m, ds, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
				})
			}
		}
	}
}
