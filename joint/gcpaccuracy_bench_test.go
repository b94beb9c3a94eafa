package joint_test

import (
	"fmt"
	"testing"

	"linkage/cputime"
	"linkage/integrate"
	"linkage/joint"
)

// BenchmarkGCPChainAccuracy: work and accuracy of gcp-newmark (tolerance 1e-4, the
// Newton-Krylov path) on the joint route's 3D chain of N rods (Chain3D), of gcp-fv on
// the looped chain (chain3DTipOnPlane) and of daealpha index1-proj and index2 on the chain, from the
// start (t0 = 0) or the loaded state (dopri5's at t0 = 0.25 s) over dt: CPU seconds, accepted
// steps, residual evaluations and tip-err-m, the largest tip position error at t0 + dt
// against dopri5 at tolerance 1e-10 (issue 21 item 4). Run:
//
//	go test -run X -bench GCPChainAccuracy -benchtime 1x ./joint/
func BenchmarkGCPChainAccuracy(b *testing.B) {
	for _, c := range []struct {
		model  string
		method string
		form   integrate.Formulation
		n      int
		t0, dt float64
	}{{"chain", "gcp-newmark", "", 100, 0, 0.2}, {"chain", "gcp-newmark", "", 1000, 0, 0.01}, {"loop", "gcp-fv", "", 100, 0, 0.1}, {"loop", "gcp-fv", "", 1000, 0, 0.005},
		{"chain", "daealpha", integrate.Index1Projected, 100, 0, 0.5}, {"chain", "daealpha", integrate.Index1Projected, 1000, 0, 0.1},
		{"chain", "daealpha", integrate.Index1Projected, 100, 0.25, 0.5}, {"chain", "daealpha", integrate.Index1Projected, 1000, 0.25, 0.1},
		{"chain", "daealpha", integrate.Index2, 1000, 0, 0.1}} {
		b.Run(fmt.Sprintf("model=%s/method=%s%s/t0=%g/N=%d", c.model, c.method, c.form, c.t0, c.n), func(b *testing.B) {
			model := Chain3D
			if c.model == "loop" {
				model = chain3DTipOnPlane
			}
			sys, s, err := model(c.n)
			if err != nil {
				b.Fatal(err)
			}
			s = stateAt(b, sys, s, c.t0)
			gcpAccuracyRun(b, sys, s, c.method, c.form, c.n, c.t0+c.dt)
		})
	}
}

// gcpAccuracyRun is one case of BenchmarkGCPChainAccuracy: method in form at tolerance
// 1e-4 to tEnd, its tips against dopri5's at tolerance 1e-10.
func gcpAccuracyRun(b *testing.B, sys *joint.System, s integrate.State, method string, form integrate.Formulation, n int, tEnd float64) {
	accuracyRun(b, sys, s, referenceAt(b, sys, s, tEnd), method, form, n, tEnd, 1e-4)
}

// accuracyRun runs method in form at tolerance tol from s to tEnd and reports its CPU
// seconds, steps, evaluations, Newton iterations and failures, and the largest distance of
// its rods' tips from those of the reference state ref.
func accuracyRun(b *testing.B, sys *joint.System, s integrate.State, ref []float64, method string, form integrate.Formulation, n int, tEnd, tol float64) {
	var sol *integrate.Solution
	var err error
	cpu0 := cputime.Process()
	for b.Loop() {
		sol, err = integrate.Solve(methodFor(b, method, form), method, sys, s.Clone(), tEnd,
			integrate.SolveOptions{Control: integrate.StepControl{RTol: tol, ATol: tol}, Output: []float64{tEnd}})
		if err != nil {
			b.Fatal(err)
		}
	}
	tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
	b.ReportMetric((cputime.Process()-cpu0).Seconds()/float64(b.N), "cpu-s")
	b.ReportMetric(float64(sol.Stats.Steps), "steps")
	b.ReportMetric(float64(sol.Stats.FuncEvals), "fevals")
	b.ReportMetric(float64(sol.Stats.NewtonIters), "newton")
	b.ReportMetric(float64(sol.Stats.NewtonFailures), "nfail")
	b.ReportMetric(maxTipDistance(tips(sol.Final.Q), tips(ref)), "tip-err-m")
}

// BenchmarkGCPLoopTolerances: work and accuracy of gcp-fv on the looped chain
// (chain3DTipOnPlane, the Newton-Krylov path with its K_g preconditioner,
// integrate/gcpstiff.go) at tolerances 1e-3 … 1e-6 from the start (t0 = 0; N = 100 over
// 0.1 s, N = 1000 over 5 ms) and the loaded state (t0 = 0.25 s, N = 100 over 0.1 s): the
// metrics of BenchmarkGCPChainAccuracy, for accuracy at equal work (issue 21 item 4).
// Run:
//
//	go test -run X -bench GCPLoopTolerances -benchtime 1x ./joint/
func BenchmarkGCPLoopTolerances(b *testing.B) {
	for _, c := range []struct {
		n      int
		t0, dt float64
	}{{100, 0, 0.1}, {100, 0.25, 0.1}, {1000, 0, 0.005}} {
		var sys *joint.System
		var s integrate.State
		var ref []float64
		for _, tol := range []float64{1e-3, 1e-4, 1e-5, 1e-6} {
			b.Run(fmt.Sprintf("t0=%g/N=%d/tol=%g", c.t0, c.n, tol), func(b *testing.B) {
				if sys == nil {
					var err error
					if sys, s, err = chain3DTipOnPlane(c.n); err != nil {
						b.Fatal(err)
					}
					s = stateAt(b, sys, s, c.t0)
					ref = referenceAt(b, sys, s, c.t0+c.dt)
				}
				accuracyRun(b, sys, s, ref, "gcp-fv", "", c.n, c.t0+c.dt, tol)
			})
		}
	}
}
