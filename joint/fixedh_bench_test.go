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

// fixedHCase is one implicit method and form of BenchmarkFixedStepCost: the model it runs
// on ("chain" Chain3D, "loop" chain3DTipOnPlane, "knife" knifeChain3D) and its fixed steps
// in ms: its adaptive step at N = 1000 from the start (tolerance 1e-4, measure21's table
// in BENCHMARKS.md), 2 × and about 4 × that.
type fixedHCase struct {
	method string
	form   integrate.Formulation
	model  string
	h      [3]float64
}

// fixedHCases are measure21's rows (BENCHMARKS.md "The cost per step against N, every
// implicit method in one run") and radau5 ggl, and hht at genalpha's steps; multi-index is
// ali3 with FixedH, gcp-abm has no Newton iteration.
var fixedHCases = []fixedHCase{
	{"hht", "", "chain", [3]float64{7.5, 15, 30}},
	{"hht", "", "chain", [3]float64{4.5, 9, 18}}, // genalpha's steps
	{"genalpha", "", "chain", [3]float64{4.5, 9, 18}},
	{"genalpha-si2", "", "chain", [3]float64{4.5, 9, 18}},
	{"lie-genalpha", integrate.Index3, "chain", [3]float64{4.5, 9, 18}},
	{"lie-genalpha", integrate.StabilizedIndex2, "chain", [3]float64{4.5, 9, 18}},
	{"lie-genalpha", integrate.Index3, "knife", [3]float64{24, 48, 96}},
	{"genalpha", "", "knife", [3]float64{6, 12, 24}}, // the shorter steps (the same path as lie-genalpha's)
	{"hht", "", "knife", [3]float64{6, 12, 24}},
	{"bdf", integrate.StabilizedIndex2, "knife", [3]float64{0.42, 0.84, 1.7}},
	{"radau5", integrate.StabilizedIndex2, "knife", [3]float64{0.65, 1.3, 2.6}},
	{"bdf", integrate.StabilizedIndex2, "chain", [3]float64{0.42, 0.84, 1.7}},
	{"bdf", integrate.Index2, "chain", [3]float64{0.42, 0.84, 1.7}},
	{"bdf", integrate.Index2Baumgarte, "chain", [3]float64{0.42, 0.84, 1.7}},
	{"bdf", integrate.Index1, "chain", [3]float64{0.42, 0.84, 1.7}},
	{"bdf", integrate.Baumgarte, "chain", [3]float64{0.42, 0.84, 1.7}},
	{"bdf", integrate.Index3, "chain", [3]float64{15.6, 31.2, 62}},
	{"radau5", integrate.StabilizedIndex2, "chain", [3]float64{0.65, 1.3, 2.6}},
	{"ali3", "", "chain", [3]float64{0.2, 0.4, 0.8}},
	{"ali1", "", "chain", [3]float64{0.2, 0.4, 0.8}},
	{"gcp-newmark", "", "chain", [3]float64{0.07, 0.14, 0.28}},
	{"daealpha", integrate.Index2, "chain", [3]float64{4.4, 8.8, 18}},
	{"daealpha", integrate.Index1Projected, "chain", [3]float64{4.4, 8.8, 18}},
	{"gcp-fv", "", "loop", [3]float64{0.24, 0.48, 0.95}},
	{"gcp-newmark", "", "loop", [3]float64{0.24, 0.48, 0.95}},
	{"daealpha", integrate.Index2, "loop", [3]float64{4.4, 8.8, 18}},
	{"daealpha", integrate.CoordinateSplit, "loop", [3]float64{0.7, 1.4, 2.8}},
	{"daealpha", integrate.CoordinateSplitQR, "loop", [3]float64{0.7, 1.4, 2.8}},
}

// BenchmarkFixedStepCost measures the implicit methods of fixedHCases on the joint route
// at fixed steps (StepControl.FixedH, tolerance 1e-4 for the Newton stop), the same h at
// N = 10, 100 and 1000, from the model's start (t0=0) and, on the chain and the looped
// chain, from a dopri5 run's state at t = 0.25 s (t0=0.25, the rods loaded; stateAt): what
// a step costs at equal h, apart from the step the controller would attempt (issue 21
// item 4). bdf runs at order 1 (MaxOrder; with FixedH the order is MaxOrder throughout,
// and above 1 its start is computed adaptively at tolerance 1e-12, which from the loaded
// 1000-rod state took minutes). After 5 warm-up steps it reports per step
// cpu-ms/step, fevals/step (residual evaluations, the GMRES products among them),
// newton/step, prod/iter (evaluations per Newton iteration less its residual; radau5:
// real-prod/solve and cplx-prod/solve, its GMRES counts), nfail/step and rejected/step.
// A run that cannot go on (a Newton failure or a diverged step ends a fixed-step run)
// reports stopped=1, the step it stopped at (stop-step, warm-up steps included), the
// Newton iterations and evaluations of that attempt (fail-newton, fail-fevals) and its
// counts up to there; the error is logged. Run:
//
//	go test -run X -bench FixedStepCost -benchtime 10x ./joint/
func BenchmarkFixedStepCost(b *testing.B) {
	for _, model := range []string{"chain", "loop", "knife"} {
		for _, n := range []int{10, 100, 1000} {
			var sys dae.System
			starts := map[float64]integrate.State{}
			start := func(t0 float64) (dae.System, integrate.State) {
				if sys == nil {
					sys, starts[0] = fixedHModel(b, model, n)
				}
				if _, ok := starts[t0]; !ok {
					starts[t0] = stateAt(b, sys, starts[0], t0)
				}
				s := starts[t0]
				return sys, s.Clone()
			}
			for _, c := range fixedHCases {
				if c.model != model {
					continue
				}
				for _, t0 := range []float64{0, 0.25} {
					if t0 > 0 && model == "knife" {
						continue
					}
					for _, h := range c.h {
						name := fmt.Sprintf("method=%s/model=%s/t0=%g/h=%gms/N=%d", c.label(), model, t0, h, n)
						b.Run(name, func(b *testing.B) {
							sys, s := start(t0)
							fixedStepCounts(b, c.newMethod(b), sys, s, h*1e-3)
						})
					}
				}
			}
		}
	}
}

// fixedHModel builds the model named by BenchmarkFixedStepCost with n rods.
func fixedHModel(b *testing.B, model string, n int) (dae.System, integrate.State) {
	var js *joint.System
	var s integrate.State
	var err error
	switch model {
	case "chain":
		js, s, err = Chain3D(n)
	case "loop":
		js, s, err = chain3DTipOnPlane(n)
	default:
		js, s = knifeChain3D(b, n)
	}
	if err != nil {
		b.Fatal(err)
	}
	return js, s
}

// label names the case: the method, with its form when one is set.
func (c fixedHCase) label() string {
	if c.form == "" {
		return c.method
	}
	return c.method + "-" + string(c.form)
}

// newMethod returns the case's method from the registry; bdf at order 1.
func (c fixedHCase) newMethod(b *testing.B) integrate.Method {
	if c.method == "bdf" {
		return &integrate.BDF{Formulation: c.form, MaxOrder: 1}
	}
	return methodFor(b, c.method, c.form)
}

// fixedStepCounts is one case of BenchmarkFixedStepCost: steps of m at FixedH = h.
func fixedStepCounts(b *testing.B, m integrate.Method, sys dae.System, s integrate.State, h float64) {
	if err := m.Init(sys, s, integrate.StepControl{FixedH: h, RTol: 1e-4, ATol: 1e-4}); err != nil {
		b.Fatal(err)
	}
	var stopped error
	var failed integrate.Stats // the work of the attempt that stopped the run
	taken := 0
	step := func() {
		if stopped != nil {
			return
		}
		before := m.Stats()
		if stopped = m.Step(math.Inf(1)); stopped == nil {
			taken++
			return
		}
		after := m.Stats()
		failed.NewtonIters, failed.FuncEvals = after.NewtonIters-before.NewtonIters, after.FuncEvals-before.FuncEvals
	}
	for range 5 {
		step()
	}
	s0 := m.Stats()
	r0, c0 := radauKrylov(m)
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		step()
	}
	cpu := cputime.Process() - cpu0
	if stopped != nil {
		b.Logf("stopped after %d steps at t = %.6g: %v", taken, m.Current().T, stopped)
		b.ReportMetric(1, "stopped")
		b.ReportMetric(float64(taken+1), "stop-step")
		b.ReportMetric(float64(failed.NewtonIters), "fail-newton")
		b.ReportMetric(float64(failed.FuncEvals), "fail-fevals")
	}
	reportFixedCounts(b, m, s0, r0, c0, cpu.Seconds())
}

// reportFixedCounts reports the work of m since s0 (and radau5's GMRES counts since r0,
// c0) per accepted step; an attempt that ended the run counts as one step.
func reportFixedCounts(b *testing.B, m integrate.Method, s0 integrate.Stats, r0, c0 integrate.KrylovCounts, cpu float64) {
	st := m.Stats()
	steps := float64(max(st.Steps-s0.Steps, 1))
	per := func(x, y int) float64 { return float64(x-y) / steps }
	iters := st.NewtonIters - s0.NewtonIters
	fails := func(s integrate.Stats) int { return s.NewtonFailures + s.Singular + s.NonFinite }
	b.ReportMetric(cpu*1e3/steps, "cpu-ms/step")
	b.ReportMetric(per(st.FuncEvals, s0.FuncEvals), "fevals/step")
	b.ReportMetric(per(st.NewtonIters, s0.NewtonIters), "newton/step")
	b.ReportMetric(per(fails(st), fails(s0)), "nfail/step")
	b.ReportMetric(per(st.Rejected, s0.Rejected), "rejected/step")
	r, c := radauKrylov(m)
	switch {
	case r.Solves > r0.Solves:
		b.ReportMetric(float64(r.Products-r0.Products)/float64(r.Solves-r0.Solves), "real-prod/solve")
		b.ReportMetric(float64(c.Products-c0.Products)/float64(max(c.Solves-c0.Solves, 1)), "cplx-prod/solve")
		b.ReportMetric(float64(r.Missed-r0.Missed+c.Missed-c0.Missed), "missed")
	case iters > 0:
		b.ReportMetric(float64(st.FuncEvals-s0.FuncEvals-iters)/float64(iters), "prod/iter")
	}
}
