package joint_test

import (
	"fmt"
	"testing"

	"linkage/integrate"
	"linkage/joint"
)

// radauStiffnesses are the preconditioner choices BenchmarkRadau5StiffFixed and
// BenchmarkRadau5StiffWindow compare (integrate.Radau5.Stiffness).
var radauStiffnesses = []integrate.RadauStiffness{integrate.RadauStiffnessNone, integrate.RadauStiffnessComplex,
	integrate.RadauStiffnessReal, integrate.RadauStiffnessBoth}

// BenchmarkRadau5StiffFixed is BenchmarkFixedStepCost's radau5 ggl rows (the 3D chain of
// N rods, the fixed steps 0.65, 1.3 and 2.6 ms from the start and from the loaded state,
// 5 warm-up steps, the counts per step of fixedStepCounts) for each choice of the
// geometric stiffness in radau5's preconditioner (kg=none: the mass part alone; complex:
// M + K_g/c² in the complex system; real: M + K_g h²/γ² in the real one; both). The
// question (issue 21 item 4): which of the products per real and per complex solve grow
// with N, and what K_g takes out of them. Run:
//
//	go test -run X -bench Radau5StiffFixed -benchtime 10x ./joint/
func BenchmarkRadau5StiffFixed(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		start := chainStarts(n)
		for _, t0 := range []float64{0, 0.25} {
			for _, h := range []float64{0.65, 1.3, 2.6} {
				for _, kg := range radauStiffnesses {
					b.Run(fmt.Sprintf("N=%d/t0=%g/h=%gms/kg=%s", n, t0, h, kg), func(b *testing.B) {
						sys, s := start(b, t0)
						fixedStepCounts(b, &integrate.Radau5{Stiffness: kg}, sys, s.Clone(), h*1e-3)
					})
				}
			}
		}
	}
}

// BenchmarkRadau5StiffWindow is BenchmarkRadau5StageNewton's adaptive run (radau5 ggl,
// exact products, the default Newton iteration, 20 ms from the start and from the loaded
// state; steps, failures, evaluations, GMRES products, tip error against dopri5 at tol
// 1e-10) for each choice of the geometric stiffness in the preconditioner: accuracy at
// equal work. Run:
//
//	go test -run X -bench Radau5StiffWindow -benchtime 1x -timeout 60m ./joint/
func BenchmarkRadau5StiffWindow(b *testing.B) {
	const span = 0.02
	for _, n := range []int{10, 100, 1000} {
		for _, t0 := range []float64{0, 0.25} {
			sys, s0, err := Chain3D(n)
			if err != nil {
				b.Fatal(err)
			}
			var ref []float64
			for _, tol := range []float64{1e-4, 1e-5, 3e-6} {
				for _, kg := range radauStiffnesses {
					b.Run(fmt.Sprintf("N=%d/t0=%g/tol=%g/kg=%s", n, t0, tol, kg), func(b *testing.B) {
						tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
						if ref == nil {
							s0 = stateAt(b, sys, s0, t0)
							ref = run(b, "dopri5", sys, s0, []float64{t0 + span}, 1e-10, tips).tips[0]
						}
						for b.Loop() {
							radau5ChainWindow(b, &integrate.Radau5{Stiffness: kg}, sys, s0,
								integrate.StepControl{RTol: tol, ATol: tol}, t0+span, span, tips, ref)
						}
					})
				}
			}
		}
	}
}

// BenchmarkRadau5StiffStage is BenchmarkRadau5StiffFixed's rows with the coupled stage
// iteration (Newton.Jacobian every-iteration, each stage's J at its iterate), with the
// mass part alone and with K_g in both systems: whether the Newton iterations per step
// that still grow with N at the frozen J (its q columns at the step start) fall when
// each stage's products are taken at its iterate. It reports fixedStepCounts' counts and
// stage-prod/solve, the coupled solves' GMRES products per solve (three evaluations each). Run:
//
//	go test -run X -bench Radau5StiffStage -benchtime 10x ./joint/
func BenchmarkRadau5StiffStage(b *testing.B) {
	for _, n := range []int{100, 1000} {
		start := chainStarts(n)
		for _, t0 := range []float64{0, 0.25} {
			for _, h := range []float64{0.65, 1.3, 2.6} {
				for _, kg := range []integrate.RadauStiffness{integrate.RadauStiffnessNone, integrate.RadauStiffnessBoth} {
					b.Run(fmt.Sprintf("N=%d/t0=%g/h=%gms/kg=%s", n, t0, h, kg), func(b *testing.B) {
						sys, s := start(b, t0)
						m := &integrate.Radau5{Stiffness: kg, Newton: radau5Iteration("stage")}
						fixedStepCounts(b, m, sys, s.Clone(), h*1e-3)
						if sg := m.StageKrylovCounts(); sg.Solves > 0 {
							b.ReportMetric(float64(sg.Products)/float64(sg.Solves), "stage-prod/solve")
						}
					})
				}
			}
		}
	}
}

// chainStarts returns a function giving Chain3D(n) and its state at t0 (from the start by
// stateAt), built once on first use and kept for the benchmark's later sub-benchmarks.
func chainStarts(n int) func(b *testing.B, t0 float64) (*joint.System, integrate.State) {
	var sys *joint.System
	starts := map[float64]integrate.State{}
	return func(b *testing.B, t0 float64) (*joint.System, integrate.State) {
		if sys == nil {
			var err error
			var s integrate.State
			if sys, s, err = Chain3D(n); err != nil {
				b.Fatal(err)
			}
			starts[0] = s
		}
		if _, ok := starts[t0]; !ok {
			starts[t0] = stateAt(b, sys, starts[0], t0)
		}
		return sys, starts[t0]
	}
}
