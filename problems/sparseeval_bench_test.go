package problems

import (
	"fmt"
	"math"
	"testing"

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
