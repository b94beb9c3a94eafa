package problems

import (
	"fmt"
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// BenchmarkChainBarsResidualMeter measures one dae.ResidualMeter.Measure (‖g‖∞,
// ‖G v + g_t‖∞, ‖G a − γ‖∞) at the state of hht after 20 warm-up steps on chain-bars:N:
// the measurement integrate.Solve makes after every accepted step (BENCHMARKS.md, "Large
// models": the run's window against IDA's).
func BenchmarkChainBarsResidualMeter(b *testing.B) {
	for _, n := range []int{100, 1000} {
		p, err := Get(fmt.Sprintf("chain-bars:%d", n))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			e, _ := integrate.Lookup("hht")
			s := warmChainStepper(b, e.New(), p).Current()
			meter := dae.NewResidualMeter(p.System)
			var r dae.ConstraintResiduals
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				r = meter.Measure(s.T, s.Q, s.V, s.A)
			}
			if !(r.Pos < 1e-4) || math.IsNaN(r.Vel) || math.IsNaN(r.Acc) || r.Vel == 0 || r.Acc == 0 {
				b.Errorf("residuals %+v at t = %g: want ‖g‖∞ below the tolerance 1e-4 and the other two nonzero numbers", r, s.T)
			}
		})
	}
}
