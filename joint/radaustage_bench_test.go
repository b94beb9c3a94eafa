package joint_test

import (
	"fmt"
	"strings"
	"testing"

	"linkage/integrate"
	"linkage/joint"
)

// BenchmarkRadau5StageNewton compares radau5's (ggl, adaptive, exact products) Newton
// iterations on the joint route's 3D chain of N rods: RADAU5's simplified Newton with J at
// the step start (newton=frozen, the default) against the inexact Newton iteration on the
// coupled stage system with each stage's J at its iterate (newton=stage,
// Radau5.StageNewton), each on exact products or, with the suffix -difference, on forward
// differences (Radau5.DifferenceProducts), from the chain's start (t0=0) and from the loaded state (t0=0.25,
// dopri5's; stateAt), over 20 ms, at tol 1e-4, 1e-5 and 3e-6. It reports the accepted steps,
// Newton failures, rejections, residual evaluations (an exact product counts as one),
// evaluations per simulated ms, the GMRES products and missed solves of the real, complex
// and coupled systems, CPU seconds and the tip error at the end against dopri5 (index 1)
// at tol 1e-10 (tip-err-um, the largest over the rods). Run:
//
//	go test -run X -bench Radau5StageNewton -benchtime 1x -timeout 60m ./joint/
func BenchmarkRadau5StageNewton(b *testing.B) {
	const span = 0.02
	for _, n := range []int{10, 100, 1000} {
		for _, t0 := range []float64{0, 0.25} {
			sys, s0, err := Chain3D(n)
			if err != nil {
				b.Fatal(err)
			}
			var ref []float64 // dopri5's tips at t0 + span, computed for the first case run
			for _, tol := range []float64{1e-4, 1e-5, 3e-6} {
				for _, newton := range []string{"frozen", "stage", "frozen-difference", "stage-difference"} {
					b.Run(fmt.Sprintf("N=%d/t0=%g/tol=%g/newton=%s", n, t0, tol, newton), func(b *testing.B) {
						tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
						if ref == nil {
							s0 = stateAt(b, sys, s0, t0)
							ref = run(b, "dopri5", sys, s0, []float64{t0 + span}, 1e-10, tips).tips[0]
						}
						for b.Loop() {
							m := &integrate.Radau5{StageNewton: strings.HasPrefix(newton, "stage"),
								DifferenceProducts: strings.HasSuffix(newton, "difference")}
							radau5ChainWindow(b, m, sys, s0, integrate.StepControl{RTol: tol, ATol: tol}, t0+span, span, tips, ref)
						}
					})
				}
			}
		}
	}
}

// BenchmarkRadau5StageCounts is BenchmarkChainStepCounts's radau5 rows (joint route,
// methodCounts: per accepted step after 5 warm-up steps) for both Newton iterations of
// BenchmarkRadau5StageNewton (newton=frozen, newton=stage), adaptive at tol 1e-4 and 1e-5
// and at the fixed step h = 1.3 ms (tol 1e-4 for the Newton stop; BenchmarkFixedStepCost's
// middle radau5 step), with stage-prod/solve the coupled solves' GMRES products per solve
// (each three evaluations) over the whole run. Run:
//
//	go test -run X -bench Radau5StageCounts -benchtime 20x ./joint/
func BenchmarkRadau5StageCounts(b *testing.B) {
	for _, t0 := range []float64{0, 0.25} {
		for _, n := range []int{10, 100, 1000} {
			var sys *joint.System
			var s integrate.State
			for _, ctl := range []struct {
				name string
				c    integrate.StepControl
			}{
				{"tol=1e-4", integrate.StepControl{RTol: 1e-4, ATol: 1e-4}},
				{"tol=1e-5", integrate.StepControl{RTol: 1e-5, ATol: 1e-5}},
				{"h=1.3ms", integrate.StepControl{RTol: 1e-4, ATol: 1e-4, FixedH: 1.3e-3}},
			} {
				for _, newton := range []string{"frozen", "stage"} {
					b.Run(fmt.Sprintf("t0=%g/N=%d/%s/newton=%s", t0, n, ctl.name, newton), func(b *testing.B) {
						if sys == nil {
							var err error
							if sys, s, err = Chain3D(n); err != nil {
								b.Fatal(err)
							}
							s = stateAt(b, sys, s, t0)
						}
						m := &integrate.Radau5{StageNewton: newton == "stage"}
						methodCounts(b, m, "joint", sys, s.Clone(), ctl.c)
						if sg := m.StageKrylovCounts(); sg.Solves > 0 {
							b.ReportMetric(float64(sg.Products)/float64(sg.Solves), "stage-prod/solve")
							b.ReportMetric(float64(sg.Missed), "stage-missed")
						}
					})
				}
			}
		}
	}
}
