package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/integrate"
)

// BenchmarkChainBDFFormAccuracy is bdf's accuracy at its work on the joint route's 3D
// chain of N rods (issue 21 item 4): each form at tolerances 1e-4 and 1e-6, adaptive steps
// (MaxOrder 5), from the start (t0=0) and from the loaded state (t0=0.25, dopri5's), over
// 20 ms; a reference, dopri5 at tol 1e-10 (index 1), to the same end. It reports the tip
// error at the end in µm (tip-err-um: the largest over the rods of |r_tip − r_tip,ref|), the
// residual evaluations (fevals, GMRES products among them), steps, Newton iterations,
// Jacobians and Newton failures. Run:
//
//	go test -run X -bench ChainBDFFormAccuracy -benchtime 1x ./joint/
func BenchmarkChainBDFFormAccuracy(b *testing.B) {
	const span = 0.02
	for _, n := range []int{100, 1000} {
		for _, t0 := range []float64{0, 0.25} {
			sys, s0, err := Chain3D(n)
			if err != nil {
				b.Fatal(err)
			}
			s0 = stateAt(b, sys, s0, t0)
			tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
			var ref []float64
			for _, form := range []integrate.Formulation{integrate.StabilizedIndex2, integrate.Index1, integrate.Baumgarte} {
				for _, tol := range []float64{1e-4, 1e-6} {
					b.Run(fmt.Sprintf("form=%s/t0=%g/tol=%g/N=%d", form, t0, tol, n), func(b *testing.B) {
						if ref == nil {
							r := run(b, "dopri5 1e-10", sys, s0, []float64{t0 + span}, 1e-10, tips)
							ref = r.tips[0]
						}
						for b.Loop() {
							m := &integrate.BDF{Formulation: form}
							if err := m.Init(sys, s0.Clone(), integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
								b.Fatal(err)
							}
							for m.Current().T < t0+span {
								if err := m.Step(t0 + span); err != nil {
									b.Fatal(err)
								}
							}
							st := m.Stats()
							b.ReportMetric(1e6*maxTipDistance(tips(m.Current().Q), ref), "tip-err-um")
							b.ReportMetric(float64(st.FuncEvals), "fevals")
							b.ReportMetric(float64(st.Steps), "steps")
							b.ReportMetric(float64(st.NewtonIters), "newton")
							b.ReportMetric(float64(st.Jacobians), "jac")
							b.ReportMetric(float64(st.NewtonFailures), "nfail")
							b.ReportMetric(math.Abs(m.Current().T-(t0+span)), "t-miss")
						}
					})
				}
			}
		}
	}
}
