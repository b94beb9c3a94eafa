package joint_test

import (
	"fmt"
	"testing"

	"linkage/cputime"
	"linkage/integrate"
)

// BenchmarkChain3DGenAlphaRun is BenchmarkChain3DHHTRun for genalpha (index 3, the default
// parameters; genalpha-si2 and lie-genalpha run the same code on this chain, which has no
// constraint rows): the joint route's spinning 3D chain (Chain3D) from its start to
// t = 0.15 s, once per iteration, at N = 100 and 400 and tolerances 1e-6, 1e-5 and 1e-4.
// It reports per accepted step the CPU time, residual evaluations (the GMRES products
// among them), Newton iterations and Jacobians (factorizations of the preconditioner),
// the failed attempts, and the largest distance over the rods between a rod's tip at
// t = 0.15 s and dopri5's at tolerance 1e-9 (index 1; tip-err-m; computed once per N,
// outside the timed loop). Its work is deterministic, so instructions per step (callgrind
// on -benchtime 1x) compare trees. Run:
//
//	go test -run X -bench Chain3DGenAlphaRun -benchtime 1x ./joint/
func BenchmarkChain3DGenAlphaRun(b *testing.B) {
	const tEnd = 0.15
	refs := map[int][]float64{}
	for _, n := range []int{100, 400} {
		for _, tol := range []float64{1e-6, 1e-5, 1e-4} {
			b.Run(fmt.Sprintf("N=%d/tol=%g", n, tol), func(b *testing.B) {
				sys, s0, err := Chain3D(n)
				if err != nil {
					b.Fatal(err)
				}
				tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
				if refs[n] == nil {
					refs[n] = run(b, "dopri5 1e-9", sys, s0, []float64{tEnd}, 1e-9, tips).tips[0]
				}
				var st integrate.Stats
				var q []float64
				b.ReportAllocs()
				c0 := cputime.Process()
				for b.Loop() {
					m := integrate.DefaultGenAlpha()
					if err := m.Init(sys, s0.Clone(), integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
						b.Fatal(err)
					}
					for m.Current().T < tEnd {
						if err := m.Step(tEnd); err != nil {
							b.Fatal(err)
						}
					}
					st, q = m.Stats(), m.Current().Q
				}
				cpu := cputime.Process() - c0
				steps := float64(st.Steps)
				per := func(x int) float64 { return float64(x) / steps }
				b.ReportMetric(cpu.Seconds()*1e3/steps/float64(b.N), "cpu-ms/step")
				b.ReportMetric(steps, "steps")
				b.ReportMetric(per(st.FuncEvals), "fevals/step")
				b.ReportMetric(per(st.NewtonIters), "newton/step")
				b.ReportMetric(per(st.Jacobians), "jacobians/step")
				b.ReportMetric(float64(st.NewtonFailures+st.Singular+st.NonFinite), "nfail")
				b.ReportMetric(float64(st.Rejected), "rejected")
				b.ReportMetric(maxTipDistance(tips(q), refs[n]), "tip-err-m")
			})
		}
	}
}
