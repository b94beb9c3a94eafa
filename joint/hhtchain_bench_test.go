package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/cputime"
	"linkage/integrate"
	"linkage/joint"
)

// BenchmarkChain3DHHTRun runs hht (adaptive, the default parameters) on the joint route's
// spinning 3D chain (Chain3D: the chain of examples/chain3d.yaml with coordinates: joint)
// from its start to t = 0.15 s, once per iteration, at N = 100, 400 and 1000 and
// tolerances 1e-6 and 1e-4 (the 400-rod chain of issue 15 item 5), and reports per
// accepted step the CPU time, residual evaluations (the GMRES products among them), Newton
// iterations, Jacobians (factorizations of the preconditioner), GMRES products per GMRES
// solve (hht's chord iterations take none and are no solve) and failed attempts. Its work is deterministic, so instructions per step (callgrind on
// -benchtime 1x) compare trees. Run:
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
				b.ReportAllocs()
				c0 := cputime.Process()
				var st integrate.Stats
				for b.Loop() {
					st, _ = chain3DHHTRun(b, sys, s0, tol)
				}
				cpu := cputime.Process() - c0
				b.ReportMetric(cpu.Seconds()*1e3/float64(st.Steps)/float64(b.N), "cpu-ms/step")
			})
		}
	}
}

// BenchmarkChain3DHHTRunError is BenchmarkChain3DHHTRun's runs with their errors at
// t = 0.15 s: the largest |q − q_ref| and |v − v_ref| over the coordinates against dopri5
// (index 1) at rtol = atol = 1e-8, which judges a change of hht's Newton-Krylov work by
// accuracy at equal work. Run:
//
//	go test -run X -bench Chain3DHHTRunError -benchtime 1x ./joint/
func BenchmarkChain3DHHTRunError(b *testing.B) {
	for _, n := range []int{100, 400, 1000} {
		sys, s0, err := Chain3D(n)
		if err != nil {
			b.Fatal(err)
		}
		ref := dopri5StateAt(b, sys, s0, 0.15, 1e-8)
		for _, tol := range []float64{1e-6, 1e-4} {
			b.Run(fmt.Sprintf("N=%d/tol=%g", n, tol), func(b *testing.B) {
				for b.Loop() {
					_, end := chain3DHHTRun(b, sys, s0, tol)
					var eq, ev float64
					for i := range end.Q {
						eq = math.Max(eq, math.Abs(end.Q[i]-ref.Q[i]))
						ev = math.Max(ev, math.Abs(end.V[i]-ref.V[i]))
					}
					b.ReportMetric(eq, "err-q")
					b.ReportMetric(ev, "err-v")
				}
			})
		}
	}
}

// chain3DHHTRun runs DefaultHHT on sys from s0 to t = 0.15 s at rtol = atol = tol, reports
// its counts per accepted step as BenchmarkChain3DHHTRun's metrics and returns its Stats
// and its last state.
func chain3DHHTRun(b *testing.B, sys *joint.System, s0 integrate.State, tol float64) (integrate.Stats, integrate.State) {
	m := integrate.DefaultHHT()
	if err := m.Init(sys, s0.Clone(), integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
		b.Fatal(err)
	}
	for m.Current().T < 0.15 {
		if err := m.Step(0.15); err != nil {
			b.Fatal(err)
		}
	}
	st, kc := m.Stats(), m.KrylovCounts()
	steps := float64(st.Steps)
	per := func(x int) float64 { return float64(x) / steps }
	b.ReportMetric(steps, "steps")
	b.ReportMetric(per(st.FuncEvals), "fevals/step")
	b.ReportMetric(per(st.NewtonIters), "newton/step")
	b.ReportMetric(per(st.Jacobians), "jacobians/step")
	b.ReportMetric(float64(kc.Products)/float64(max(kc.Solves, 1)), "products/solve")
	b.ReportMetric(float64(st.NewtonFailures+st.Singular+st.NonFinite), "nfail")
	b.ReportMetric(float64(st.Rejected), "rejected")
	return st, m.Current().Clone()
}
