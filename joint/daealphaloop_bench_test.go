package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/cputime"
	"linkage/dae"
	"linkage/integrate"
)

// BenchmarkDAEAlphaLoopAccuracy: work and accuracy of daealpha index2 (tolerance 1e-4) on
// the looped chain of N rods (chain3DTipOnPlane) from its start to tEnd, with the
// preconditioner's mass part alone ("M", massOnly) and with β̂h² K_g holding the cut row's
// load ("M+Kg", the default): CPU seconds, accepted steps, residual evaluations, and
// q-err, the largest position error at tEnd against dopri5 at tolerance 1e-10 (stateAt's
// run, tightened). Run:
//
//	go test -run X -bench DAEAlphaLoopAccuracy -benchtime 1x ./joint/
func BenchmarkDAEAlphaLoopAccuracy(b *testing.B) {
	for _, c := range []struct {
		n    int
		tEnd float64
	}{{100, 0.5}, {1000, 0.05}} {
		sys, s, err := chain3DTipOnPlane(c.n)
		if err != nil {
			b.Fatal(err)
		}
		var ref []float64
		for _, p := range []string{"M", "M+Kg"} {
			b.Run(fmt.Sprintf("N=%d/P=%s", c.n, p), func(b *testing.B) {
				if ref == nil {
					ref = referenceAt(b, sys, s, c.tEnd)
				}
				var ds dae.System = sys
				if p == "M" {
					ds = massOnly{sys, sys, sys, sys, sys, sys, sys, sys}
				}
				var sol *integrate.Solution
				cpu0 := cputime.Process()
				for b.Loop() {
					sol, err = integrate.Solve(methodFor(b, "daealpha", integrate.Index2), "daealpha", ds, s.Clone(), c.tEnd,
						integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, Output: []float64{c.tEnd}})
					if err != nil {
						b.Fatal(err)
					}
				}
				var e float64
				for i, q := range sol.Final.Q {
					e = math.Max(e, math.Abs(q-ref[i]))
				}
				b.ReportMetric((cputime.Process()-cpu0).Seconds()/float64(b.N), "cpu-s")
				b.ReportMetric(float64(sol.Stats.Steps), "steps")
				b.ReportMetric(float64(sol.Stats.FuncEvals), "fevals")
				b.ReportMetric(e, "q-err")
			})
		}
	}
}

// referenceAt returns the positions at t of a dopri5 run (rtol = atol = 1e-10) from s.
func referenceAt(b *testing.B, sys dae.System, s integrate.State, t float64) []float64 {
	e, err := integrate.Lookup("dopri5")
	if err != nil {
		b.Fatal(err)
	}
	m, err := e.NewMethod(integrate.Index1Projected)
	if err != nil {
		b.Fatal(err)
	}
	sol, err := integrate.Solve(m, "dopri5", sys, s.Clone(), t, integrate.SolveOptions{
		Control: integrate.StepControl{RTol: 1e-10, ATol: 1e-10}, Output: []float64{t}})
	if err != nil {
		b.Fatal(err)
	}
	return sol.Final.Q
}
