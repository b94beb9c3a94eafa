package joint_test

import (
	"fmt"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// BenchmarkChainStiffPrecondRadauBDF is BenchmarkChainImplicitStep's joint-route case for
// radau5 and bdf (ggl) with the preconditioner's a-block M ("M", the system as massOnly)
// and M + k·K_g ("M+Kg", dae.StiffMassSolver; k = h²/|α+iβ|² for radau5, 1/c_j² for bdf),
// both in one run at tol 1e-4 after 5 warm-up steps, from the chain's start (t0=0, the
// rods nearly in free fall) and from its loaded state at t = 0.25 s of a dopri5 run
// (t0=0.25, chainStateAt). prod/iter is the residual evaluations per Newton iteration
// less radau5's three stage residuals or bdf's one: the GMRES products (a complex product
// of radau5 counts two). Run:
//
//	go test -run X -bench ChainStiffPrecondRadauBDF -benchtime 20x ./joint/
func BenchmarkChainStiffPrecondRadauBDF(b *testing.B) {
	for _, method := range []string{"radau5", "bdf"} {
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

// benchStiffPrecond is one case of BenchmarkChainStiffPrecondRadauBDF.
func benchStiffPrecond(b *testing.B, method string, n int, p string, s integrate.State) {
	sys, _, err := Chain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	var ds dae.System = sys
	if p == "M" {
		ds = massOnly{sys, sys, sys, sys, sys, sys, sys, sys}
	}
	var m integrate.Method = &integrate.Radau5{}
	per := 3
	if method == "bdf" {
		m, per = implicitMethod(method), 1
	}
	benchSteps(b, m, ds, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
	st := m.Stats()
	b.ReportMetric(float64(st.FuncEvals-per*st.NewtonIters)/float64(st.NewtonIters), "prod/iter")
}
