package problems

import (
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// denseOnly hides the dae.Sparsity capability of a System (and every other optional one
// but those the methods below need), so that the integrators factorize densely.
type denseOnly struct{ dae.System }

// TestSparseKKTPath: on the stiff chain (100 KKT unknowns, dae.Sparsity from planar) the
// explicit methods factorize by linalg.SparseKKT: 50 fixed steps give the same state as
// the dense path to rounding (both solve the same equations; measured difference 2e-19),
// and a step allocates nothing.
func TestSparseKKTPath(t *testing.T) {
	p, _ := Get("stiffchain")
	for _, name := range []string{"dopri5", "rk4"} {
		e, _ := integrate.Lookup(name)
		var final [2][]float64
		for k, sys := range []dae.System{p.System, denseOnly{p.System}} {
			m := e.New()
			if err := m.Init(sys, p.Start.Clone(), integrate.StepControl{FixedH: 1e-4}); err != nil {
				t.Fatal(err)
			}
			for range 50 {
				if err := m.Step(1); err != nil {
					t.Fatal(err)
				}
			}
			final[k] = append([]float64(nil), m.Current().Q...)
			if k == 0 {
				if n := testing.AllocsPerRun(10, func() { _ = m.Step(1) }); n != 0 {
					t.Errorf("%s on the sparse path: Step allocates %v times", name, n)
				}
			}
		}
		var d float64
		for i := range final[0] {
			d = math.Max(d, math.Abs(final[0][i]-final[1][i]))
		}
		t.Logf("%s: sparse vs dense after 50 steps: %.2g", name, d)
		if d > 1e-12 {
			t.Errorf("%s: sparse and dense paths differ by %.3g after 50 steps, want rounding", name, d)
		}
	}
}
