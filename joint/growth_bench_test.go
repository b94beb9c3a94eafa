package joint_test

import (
	"fmt"
	"testing"

	"linkage/cputime"
	"linkage/integrate"
)

// BenchmarkLoadedChainGrowth judges the step-growth bound StepControl.MaxGrow by accuracy at
// equal work on the joint route's loaded 3D chain (issue 21 item 4: on the 1000-rod chain
// half of hht's and genalpha's steps first abandon an attempt grown ×5 past where their
// Newton iteration converges; BenchmarkChainKrylovSplit): hht and genalpha from dopri5's
// state at t = 0.25 s run free to t = 0.75 s at tol 1e-4 and 1e-5 with MaxGrow 5 (the
// default) and 1.5; the reference is dopri5 at tol 1e-10 (index 1; ref-conv-m its distance
// from dopri5 at 1e-9). It reports the largest distance over the rods between a rod's tip
// and the reference's at t = 0.75 s (tip-err-m), the residual evaluations, accepted steps,
// Newton failures and the CPU seconds of the run. Run:
//
//	go test -run X -bench LoadedChainGrowth -benchtime 1x -timeout 30m ./joint/
func BenchmarkLoadedChainGrowth(b *testing.B) {
	const t0, t1 = 0.25, 0.75
	for _, n := range []int{100, 1000} {
		sys, s, err := Chain3D(n)
		if err != nil {
			b.Fatal(err)
		}
		s = stateAt(b, sys, s, t0)
		tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
		end := []float64{t1}
		ref := run(b, "dopri5 1e-10", sys, s, end, 1e-10, tips)
		conv := maxTipDistance(run(b, "dopri5 1e-9", sys, s, end, 1e-9, tips).tips[0], ref.tips[0])
		for _, method := range []string{"hht", "genalpha"} {
			for _, tol := range []float64{1e-4, 1e-5} {
				for _, grow := range []float64{5, 1.5} {
					b.Run(fmt.Sprintf("N=%d/method=%s/tol=%g/maxgrow=%g", n, method, tol, grow), func(b *testing.B) {
						for b.Loop() {
							m := implicitMethod(method)
							ctl := integrate.StepControl{RTol: tol, ATol: tol, MaxGrow: grow, HMax: t1 - t0}
							if err := m.Init(sys, s.Clone(), ctl); err != nil {
								b.Fatal(err)
							}
							cpu0 := cputime.Process()
							for m.Current().T < t1 {
								if err := m.Step(t1); err != nil {
									b.Fatal(err)
								}
							}
							cpu := cputime.Process() - cpu0
							st := m.Stats()
							b.ReportMetric(maxTipDistance(tips(m.Current().Q), ref.tips[0]), "tip-err-m")
							b.ReportMetric(conv, "ref-conv-m")
							b.ReportMetric(float64(st.FuncEvals), "fevals")
							b.ReportMetric(float64(st.Steps), "steps")
							b.ReportMetric(float64(st.NewtonFailures+st.Singular+st.NonFinite), "nfail")
							b.ReportMetric(cpu.Seconds(), "cpu-s")
						}
					})
				}
			}
		}
	}
}
