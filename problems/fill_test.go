package problems

import (
	"fmt"
	"runtime"
	"testing"

	"linkage/integrate"
)

// TestGGLNewtonFillLinear (issue 15): bdf on the GGL form (y = (q, v, a, λ, μ), rows of
// λ and μ without diagonal) allocates in proportion to the chain's length. Minimum
// degree ordered the μ rows, which couple to few coordinates, first; their zero
// diagonals made the sparse LU take coordinate rows from all along the chain as pivots,
// and nnz(L+U) grew as N² (1.0e6 at 200 bars, 4.1e6 at 400; the allocation of Init and
// five steps ×14.5 from 100 to 400 bars, 421 MB at 400). Each such row is now eliminated right after a
// partner (linalg.SparseLU): 1.5e5 at 400 bars, 36 MB, ×4.1 from 100 to 400.
func TestGGLNewtonFillLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		p, err := Get(fmt.Sprintf("chain-bars:%d", n))
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m := &integrate.BDF{Formulation: integrate.StabilizedIndex2}
		if err := m.Init(p.System, p.Start.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
			t.Fatal(err)
		}
		for range 5 {
			if err := m.Step(0.05); err != nil {
				t.Fatalf("chain-bars:%d: %v", n, err)
			}
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(100), alloc(400)
	ratio := float64(large) / float64(small)
	t.Logf("bdf ggl, Init and 5 steps: %.1f MB at 100 bars, %.1f MB at 400 (×%.1f)", float64(small)/1e6, float64(large)/1e6, ratio)
	if ratio > 6 {
		t.Errorf("bdf ggl allocates %.1f MB at 400 bars, ×%.1f the %.1f MB at 100; want near-linear growth (≤ ×6)",
			float64(large)/1e6, ratio, float64(small)/1e6)
	}
}
