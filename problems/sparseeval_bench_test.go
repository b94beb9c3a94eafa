package problems

import (
	"fmt"
	"math"
	"testing"

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
				m := guardMethod(name)
				if err := m.Init(p.System, p.Start.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
					b.Fatal(err)
				}
				for range 20 {
					if err := m.Step(math.Inf(1)); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					if err := m.Step(math.Inf(1)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
