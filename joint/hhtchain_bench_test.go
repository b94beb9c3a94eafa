package joint_test

import (
	"fmt"
	"testing"

	"linkage/cputime"
	"linkage/integrate"
)

// BenchmarkChain3DHHTRun runs hht (adaptive, the default parameters) on the joint route's
// spinning 3D chain (Chain3D: the chain of examples/chain3d.yaml with coordinates: joint)
// from its start to t = 0.15 s, once per iteration, at N = 100 and 400 and tolerances 1e-6
// and 1e-4 (the 400-rod chain of issue 15 item 5), and reports per accepted step the CPU
// time, residual evaluations (the GMRES products among them), Newton iterations,
// Jacobians (factorizations of the preconditioner), GMRES products per solve and failed
// attempts; N = 1000 too at tol 1e-4 and 1e-6. Its work is
// deterministic, so instructions per step (callgrind on -benchtime 1x) compare trees. Run:
//
//	go test -run X -bench Chain3DHHTRun -benchtime 1x ./joint/
func BenchmarkChain3DHHTRun(b *testing.B) {
	for _, n := range []int{100, 400, 1000} {
		for _, tol := range []float64{1e-6, 1e-4} {
			b.Run(fmt.Sprintf("N=%d/tol=%g", n, tol), func(b *testing.B) {
				sys, s0, err := Chain3D(n)
				if err != nil {
					b.Fatal(err)
				}
				var st integrate.Stats
				var kc integrate.KrylovCounts
				b.ReportAllocs()
				c0 := cputime.Process()
				for b.Loop() {
					m := integrate.DefaultHHT()
					if err := m.Init(sys, s0.Clone(), integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
						b.Fatal(err)
					}
					for m.Current().T < 0.15 {
						if err := m.Step(0.15); err != nil {
							b.Fatal(err)
						}
					}
					st, kc = m.Stats(), m.KrylovCounts()
				}
				cpu := cputime.Process() - c0
				steps := float64(st.Steps)
				per := func(x int) float64 { return float64(x) / steps }
				b.ReportMetric(cpu.Seconds()*1e3/steps/float64(b.N), "cpu-ms/step")
				b.ReportMetric(steps, "steps")
				b.ReportMetric(per(st.FuncEvals), "fevals/step")
				b.ReportMetric(per(st.NewtonIters), "newton/step")
				b.ReportMetric(per(st.Jacobians), "jacobians/step")
				b.ReportMetric(float64(kc.Products)/float64(max(kc.Solves, 1)), "products/solve")
				b.ReportMetric(float64(st.NewtonFailures+st.Singular+st.NonFinite), "nfail")
				b.ReportMetric(float64(st.Rejected), "rejected")
			})
		}
	}
}
