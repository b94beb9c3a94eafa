package problems

import (
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"

	"linkage/cputime"
	"linkage/integrate"
)

// BenchmarkChainBarsStep measures the time per accepted step of hht, bdf, radau5 and
// dopri5 (bdf and radau5 in the index-2 form, see guardMethod) on chain-bars:N at
// tolerance 1e-4, after 20 warm-up steps (BENCHMARKS.md, "Sparse evaluation path").
func BenchmarkChainBarsStep(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		p, err := Get(fmt.Sprintf("chain-bars:%d", n))
		if err != nil {
			b.Fatal(err)
		}
		for _, name := range []string{"hht", "bdf", "radau5", "dopri5"} {
			b.Run(fmt.Sprintf("%s/N=%d", name, n), func(b *testing.B) {
				m := warmChainStepper(b, guardMethod(name), p)
				b.ReportAllocs()
				b.ResetTimer()
				stepChain(b, m)
			})
		}
	}
}

// BenchmarkChainBarsDefaultStep measures the cost per accepted step of hht and bdf in
// their default formulations (hht index 3, bdf GGL: those of the IDA+KLU comparison in
// BENCHMARKS.md, "Large models") on chain-bars:N at tolerance 1e-4, after 20 warm-up
// steps, as wall time (sec/op) and as the process's CPU time (cpu-µs/step), which load on
// a shared machine moves far less, with the Newton iterations and Jacobians per step. The
// steps are deterministic: runs with the same -benchtime Nx time the same steps, so
// compare before/after with a fixed count (e.g. -benchtime 200x).
func BenchmarkChainBarsDefaultStep(b *testing.B) {
	for _, n := range []int{100, 1000} {
		p, err := Get(fmt.Sprintf("chain-bars:%d", n))
		if err != nil {
			b.Fatal(err)
		}
		for _, name := range []string{"hht", "bdf"} {
			b.Run(fmt.Sprintf("%s/N=%d", name, n), func(b *testing.B) {
				e, _ := integrate.Lookup(name)
				m := warmChainStepper(b, e.New(), p)
				s0 := m.Stats()
				b.ReportAllocs()
				b.ResetTimer()
				c0 := cputime.Process()
				stepChain(b, m)
				cpu := cputime.Process() - c0
				st := m.Stats()
				steps := float64(st.Steps - s0.Steps)
				b.ReportMetric(float64(cpu.Nanoseconds())/1e3/steps, "cpu-µs/step")
				b.ReportMetric(float64(st.NewtonIters-s0.NewtonIters)/steps, "newton/step")
				b.ReportMetric(float64(st.Jacobians-s0.Jacobians)/steps, "jacobians/step")
			})
		}
	}
}

// warmChainStepper starts m on p at tolerance 1e-4 and takes 20 steps, so that the
// benchmark times the steady state.
func warmChainStepper(b *testing.B, m integrate.Method, p Problem) integrate.Method {
	if err := m.Init(p.System, p.Start.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
		b.Fatal(err)
	}
	for range 20 {
		if err := m.Step(math.Inf(1)); err != nil {
			b.Fatal(err)
		}
	}
	return m
}

// stepChain takes b.N steps of m.
func stepChain(b *testing.B, m integrate.Method) {
	for range b.N {
		if err := m.Step(math.Inf(1)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChainBarsWindow measures the cost per step of hht, bdf, radau5 and dopri5 in
// their default formulations (hht index 3, bdf and radau5 GGL, dopri5 index 1 with
// projection: those of `linkage run`) on chain-bars:N at tolerance 1e-4, over the window
// of scripts/bench-scaling.sh: the steps of a run Step(0.3) from the consistent start
// that begin at t ≥ 0.1. One iteration is one whole run (Init, the steps before the
// window, the window); it reports the window's process CPU time per step (cpu-µs/step,
// after a runtime.GC so that no collection of the setup's garbage falls in the window)
// and its counts per step: Newton iterations, Jacobians, factorizations, solves, and the
// Newton failures, rejections and steps of the window. part=warmup stops where the
// window starts, so that the difference of the instructions of the two parts (callgrind,
// -benchtime 1x, GOGC=off) is the window's, as is the count of stepWindow alone (BENCHMARKS.md, "bdf's cost per step against
// N by instructions").
func BenchmarkChainBarsWindow(b *testing.B) {
	const t0, t1 = 0.1, 0.3
	for _, n := range []int{100, 1000, 10000} {
		for _, name := range []string{"hht", "bdf", "radau5", "dopri5"} {
			for _, part := range []string{"window", "warmup"} {
				b.Run(fmt.Sprintf("%s/N=%d/part=%s", name, n, part), func(b *testing.B) {
					p, err := Get(fmt.Sprintf("chain-bars:%d", n))
					if err != nil {
						b.Fatal(err)
					}
					e, _ := integrate.Lookup(name)
					b.ReportAllocs()
					var cpu time.Duration
					var w integrate.Stats
					for range b.N {
						m := e.New()
						if err := m.Init(p.System, p.Start.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
							b.Fatal(err)
						}
						stepTo(b, m, t0, t1)
						runtime.GC()
						s0 := m.Stats()
						c0 := cputime.Process()
						if part == "window" {
							stepWindow(b, m, t1)
						}
						cpu += cputime.Process() - c0
						w = statsSince(m.Stats(), s0)
					}
					if w.Steps == 0 {
						return
					}
					steps := float64(w.Steps)
					b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N)/steps, "cpu-µs/step")
					b.ReportMetric(steps, "steps")
					b.ReportMetric(float64(w.NewtonIters)/steps, "newton/step")
					b.ReportMetric(float64(w.Jacobians)/steps, "jacobians/step")
					b.ReportMetric(float64(w.Factorizations)/steps, "factors/step")
					b.ReportMetric(float64(w.Solves)/steps, "solves/step")
					b.ReportMetric(float64(w.NewtonFailures), "newton-failures")
					b.ReportMetric(float64(w.Rejected), "rejected")
				})
			}
		}
	}
}

// stepWindow takes the steps of m to t1, the window of BenchmarkChainBarsWindow: a
// function of its own (never inlined) so that callgrind can count its instructions alone
// (--toggle-collect='*stepWindow').
//
//go:noinline
func stepWindow(b *testing.B, m integrate.Method, t1 float64) {
	stepTo(b, m, t1, t1)
}

// stepTo takes steps of m toward tEnd until its current time reaches t.
func stepTo(b *testing.B, m integrate.Method, t, tEnd float64) {
	for m.Current().T < t {
		if err := m.Step(tEnd); err != nil {
			b.Fatal(err)
		}
	}
}

// statsSince returns the work counters of s after s0.
func statsSince(s, s0 integrate.Stats) integrate.Stats {
	return integrate.Stats{Steps: s.Steps - s0.Steps, Rejected: s.Rejected - s0.Rejected,
		NewtonFailures: s.NewtonFailures - s0.NewtonFailures, NewtonIters: s.NewtonIters - s0.NewtonIters,
		FuncEvals: s.FuncEvals - s0.FuncEvals, Jacobians: s.Jacobians - s0.Jacobians,
		Factorizations: s.Factorizations - s0.Factorizations, Solves: s.Solves - s0.Solves}
}
