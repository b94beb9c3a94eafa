package joint_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"linkage/integrate"
	"linkage/joint"
)

// BenchmarkRadau5StageNewton compares radau5's (ggl, adaptive, exact products) Newton
// iterations on the joint route's 3D chain of N rods: RADAU5's simplified Newton with J at
// the step start (newton=frozen, Newton.Jacobian every-step) against the inexact Newton
// iteration on the coupled stage system with each stage's J at its iterate (newton=stage,
// every-iteration) and the default switch between them (newton=auto, radau5Iteration),
// each on exact products or, with the suffix -difference, on forward differences
// (Radau5.DifferenceProducts), from the chain's start (t0=0) and from the loaded state
// (t0=0.25, dopri5's; stateAt), over 20 ms, at tol 1e-4, 1e-5 and 3e-6. It reports the
// accepted steps, Newton failures, rejections, residual evaluations (an exact product counts as one),
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
				for _, newton := range []string{"frozen", "stage", "auto", "frozen-difference", "stage-difference", "auto-difference"} {
					b.Run(fmt.Sprintf("N=%d/t0=%g/tol=%g/newton=%s", n, t0, tol, newton), func(b *testing.B) {
						tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
						if ref == nil {
							s0 = stateAt(b, sys, s0, t0)
							ref = run(b, "dopri5", sys, s0, []float64{t0 + span}, 1e-10, tips).tips[0]
						}
						for b.Loop() {
							m := &integrate.Radau5{Newton: radau5Iteration(strings.TrimSuffix(newton, "-difference")),
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
				for _, newton := range []string{"frozen", "stage", "auto"} {
					b.Run(fmt.Sprintf("t0=%g/N=%d/%s/newton=%s", t0, n, ctl.name, newton), func(b *testing.B) {
						if sys == nil {
							var err error
							if sys, s, err = Chain3D(n); err != nil {
								b.Fatal(err)
							}
							s = stateAt(b, sys, s, t0)
						}
						m := &integrate.Radau5{Newton: radau5Iteration(newton)}
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

// radau5Iteration returns the Newton settings that choose radau5's iteration on the
// Newton-Krylov path (Radau5.Newton): "frozen" RADAU5's simplified Newton iteration
// (JacobianEveryStep), "stage" the coupled stage iteration (JacobianEveryIteration),
// "auto" the default, the first until a Newton failure, then the second for a while.
func radau5Iteration(name string) integrate.NewtonSettings {
	switch name {
	case "frozen":
		return integrate.NewtonSettings{Jacobian: integrate.JacobianEveryStep}
	case "stage":
		return integrate.NewtonSettings{Jacobian: integrate.JacobianEveryIteration}
	}
	return integrate.NewtonSettings{}
}

// BenchmarkRadau5SlenderIteration runs radau5 (ggl, adaptive, exact products) with each
// Newton iteration (radau5Iteration: frozen, stage, auto) on the 20-rod chain of radius
// 1e-4 m from its loaded state (t = 0.25 s, dopri5's) to t = 0.3 s, TestRadau5IterationsSlenderChain's case,
// at tol 1e-4 … 1e-7, and reports the accepted steps, Newton failures and iterations,
// residual evaluations and the largest |q − q_ref| against dopri5 (index 1, tol 1e-8,
// stateAt; errors below about 1e-8 are the reference's). Run:
//
//	go test -run X -bench Radau5SlenderIteration -benchtime 1x ./joint/
func BenchmarkRadau5SlenderIteration(b *testing.B) {
	const t1 = 0.3
	md, _ := chain3DModelOfRadius(20, 1e-4)
	sys, s := startedChain(b, md)
	s = stateAt(b, sys, s, 0.25)
	ref := stateAt(b, sys, s, t1)
	for _, tol := range []float64{1e-4, 1e-5, 1e-6, 1e-7} {
		for _, newton := range []string{"frozen", "stage", "auto"} {
			b.Run(fmt.Sprintf("tol=%g/newton=%s", tol, newton), func(b *testing.B) {
				for b.Loop() {
					m := &integrate.Radau5{Newton: radau5Iteration(newton)}
					if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
						b.Fatal(err)
					}
					for m.Current().T < t1 {
						if err := m.Step(t1); err != nil {
							b.Fatal(err)
						}
					}
					var worst float64
					for i, q := range m.Current().Q {
						worst = math.Max(worst, math.Abs(q-ref.Q[i]))
					}
					st := m.Stats()
					b.ReportMetric(float64(st.Steps), "steps")
					b.ReportMetric(float64(st.NewtonFailures), "nfail")
					b.ReportMetric(float64(st.NewtonIters), "newton")
					b.ReportMetric(float64(st.FuncEvals), "fevals")
					b.ReportMetric(1e9*worst, "err-1e-9")
				}
			})
		}
	}
}

// BenchmarkRadau5IterationWindow is BenchmarkRadau5StageNewton's run (exact products,
// radau5ChainWindow's report) over a longer window, 0.1 s from the chain's start, at tol
// 1e-4 and 1e-5, for each Newton iteration (radau5Iteration), where the default (auto)
// returns to the frozen iteration after its coupled steps. Run:
//
//	go test -run X -bench Radau5IterationWindow -benchtime 1x -timeout 90m ./joint/
func BenchmarkRadau5IterationWindow(b *testing.B) {
	const span = 0.1
	for _, n := range []int{100, 1000} {
		sys, s0, err := Chain3D(n)
		if err != nil {
			b.Fatal(err)
		}
		var ref []float64
		for _, tol := range []float64{1e-4, 1e-5} {
			for _, newton := range []string{"frozen", "stage", "auto"} {
				b.Run(fmt.Sprintf("N=%d/tol=%g/newton=%s", n, tol, newton), func(b *testing.B) {
					tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
					if ref == nil {
						ref = run(b, "dopri5", sys, s0, []float64{span}, 1e-10, tips).tips[0]
					}
					for b.Loop() {
						radau5ChainWindow(b, &integrate.Radau5{Newton: radau5Iteration(newton)}, sys, s0,
							integrate.StepControl{RTol: tol, ATol: tol}, span, span, tips, ref)
					}
				})
			}
		}
	}
}
