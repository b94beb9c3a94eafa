package sweep

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkSliderCrankSweep runs the 1000-run Monte Carlo sweep of the slider-crank
// (examples/sweeps/slider-crank-mc.yaml) on 1 and 2 workers; BENCHMARKS.md records runs/s.
//
//	go test -run X -bench SliderCrankSweep -benchtime 3x ./sweep/
func BenchmarkSliderCrankSweep(b *testing.B) {
	s, err := Load("../examples/sweeps/slider-crank-mc.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			for range b.N {
				if err := s.Execute(context.Background(), Options{Out: b.TempDir(), Workers: w}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*s.Runs)/b.Elapsed().Seconds(), "runs/s")
		})
	}
}

// BenchmarkMerge is the shard/merge path's cost per run without the simulations: reading
// 1000 rows from 10 part files, checking them and writing both tables.
func BenchmarkMerge(b *testing.B) {
	s, err := Load("../examples/sweeps/slider-crank-mc.yaml")
	if err != nil {
		b.Fatal(err)
	}
	s.Plots = nil
	out := b.TempDir()
	for i := range 10 {
		if err := s.Execute(context.Background(), Options{Out: out, Shard: Shard{i, 10}, Workers: 2}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		rows, err := s.Merge(out)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.WriteTables(out, rows); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N*s.Runs)*1e6, "µs/run")
}
