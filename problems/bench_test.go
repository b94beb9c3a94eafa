package problems

import (
	"math"
	"testing"

	"linkage/integrate"
)

// BenchmarkStep measures one accepted step of each method on each library problem, with a
// fixed step so that every run does the same work. Setup and warm-up stay before b.Loop;
// the reported allocs/op must be 0 (DESIGN: a step allocates nothing after warm-up).
//
//	go test -run X -bench Step -benchmem -count 6 -cpu 1 ./problems/
func BenchmarkStep(b *testing.B) {
	for _, e := range integrate.Methods() {
		for _, name := range []string{"pendulum", "chain10", "andrews", "crank", "stiffchain"} {
			b.Run(e.Name+"/"+name, func(b *testing.B) {
				p, err := Get(name)
				if err != nil {
					b.Fatal(err)
				}
				m := e.New()
				// A step a tenth of the span's 1/1000: stable for the explicit method on the
				// stiff crank (ω h = 24613·1e-5 < 3.3) and accurate for the implicit ones.
				h := (p.TEnd - p.T0) * 1e-4
				// RTol sets the Newton accuracy of the implicit methods (no error test with FixedH).
				if err := m.Init(p.System, p.Start.Clone(), integrate.StepControl{FixedH: h, RTol: 1e-6}); err != nil {
					b.Fatal(err)
				}
				for range 3 {
					if err := m.Step(math.Inf(1)); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := m.Step(math.Inf(1)); err != nil {
						b.Fatal(err)
					}
				}
				st := m.Stats()
				b.ReportMetric(float64(st.Steps)/b.Elapsed().Seconds(), "steps/s")
				if st.NewtonIters > 0 {
					b.ReportMetric(float64(st.NewtonIters)/float64(st.Steps), "newton/step")
				}
			})
		}
	}
}
