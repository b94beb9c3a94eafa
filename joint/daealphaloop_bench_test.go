package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/cputime"
	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
)

// BenchmarkDAEAlphaLoopAccuracy: work and accuracy of daealpha index2 and cs (tolerance 1e-4) on
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
		for _, form := range []integrate.Formulation{integrate.Index2, integrate.CoordinateSplit} {
			for _, p := range []string{"M", "M+Kg"} {
				b.Run(fmt.Sprintf("N=%d/form=%s/P=%s", c.n, form, p), func(b *testing.B) {
					daeAlphaLoopRun(b, sys, s, &ref, c.tEnd, form, p)
				})
			}
		}
	}
}

// daeAlphaLoopRun is one case of BenchmarkDAEAlphaLoopAccuracy; *ref holds the
// reference positions, computed by the first case run.
func daeAlphaLoopRun(b *testing.B, sys *joint.System, s integrate.State, ref *[]float64, tEnd float64, form integrate.Formulation, p string) {
	if *ref == nil {
		*ref = referenceAt(b, sys, s, tEnd)
	}
	var ds dae.System = sys
	if p == "M" {
		ds = massOnly{sys, sys, sys, sys, sys, sys, sys, sys}
	}
	var sol *integrate.Solution
	var err error
	cpu0 := cputime.Process()
	for b.Loop() {
		sol, err = integrate.Solve(methodFor(b, "daealpha", form), "daealpha", ds, s.Clone(), tEnd,
			integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, Output: []float64{tEnd}})
		if err != nil {
			b.Fatal(err)
		}
	}
	var e float64
	for i, q := range sol.Final.Q {
		e = math.Max(e, math.Abs(q-(*ref)[i]))
	}
	b.ReportMetric((cputime.Process()-cpu0).Seconds()/float64(b.N), "cpu-s")
	b.ReportMetric(float64(sol.Stats.Steps), "steps")
	b.ReportMetric(float64(sol.Stats.FuncEvals), "fevals")
	b.ReportMetric(e, "q-err")
}

// referenceAt returns the positions at t of a dopri5 run (rtol = atol = 1e-10) from s.
func referenceAt(b *testing.B, sys dae.System, s integrate.State, t float64) []float64 {
	sol, err := integrate.Solve(methodFor(b, "dopri5", integrate.Index1Projected), "dopri5", sys, s.Clone(), t, integrate.SolveOptions{
		Control: integrate.StepControl{RTol: 1e-10, ATol: 1e-10}, Output: []float64{t}})
	if err != nil {
		b.Fatal(err)
	}
	return sol.Final.Q
}
