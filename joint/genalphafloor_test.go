package joint_test

import (
	"math"
	"testing"

	"linkage/integrate"
)

// TestGenAlphaRoundingFloorFarChain: the loaded 100-rod chain hung 450 m from the world
// origin carries in its spin rows the rounding of the world-origin moments that the
// 1000-rod chain carries at the origin (BENCHMARKS.md, "The world-origin rounding …",
// point 1). genalpha's Newton increments stall at that rounding in the accelerations'
// weights; without the measured floor (genAlphaWork.measureRounding) the rate θ of two
// rounding-level increments read as divergence: 20 steps at tol 1e-6 covered 0.36 ms
// with 16 Newton failures where the chain hung at the origin covers 65 ms with none. The
// far chain must cover at least half the origin chain's time with no more Newton failures
// than steps/10 (measured with the floor: 65.2 ms, none).
func TestGenAlphaRoundingFloorFarChain(t *testing.T) {
	const n, t0, steps = 100, 0.25, 20
	sys0, s, err := Chain3D(n)
	if err != nil {
		t.Fatal(err)
	}
	s = stateAt(t, sys0, s, t0)
	covered := func(p [3]float64) (float64, int) {
		md, _ := chain3DModelHungAt(n, 0.01, p)
		sys, _ := startedChain(t, md)
		sp := s.Clone()
		sys.Accelerations(sp.A, sp.T, sp.Q, sp.V)
		m := integrate.DefaultGenAlpha()
		if err := m.Init(sys, sp, integrate.StepControl{RTol: 1e-6, ATol: 1e-6}); err != nil {
			t.Fatal(err)
		}
		for range steps {
			if err := m.Step(math.Inf(1)); err != nil {
				t.Fatalf("hung at %v: %v", p, err)
			}
		}
		cover, fails := m.Current().T-t0, m.Stats().NewtonFailures
		// The measurement runs in these steps too (stalled increments hung far off).
		if a := testing.AllocsPerRun(5, func() { _ = m.Step(math.Inf(1)) }); a != 0 {
			t.Errorf("hung at %v: a step allocates %v times after warm-up, want 0", p, a)
		}
		return cover, fails
	}
	origin, _ := covered([3]float64{})
	far, fails := covered([3]float64{0, 450, 0})
	t.Logf("%d steps at tol 1e-6: origin %.3g ms, hung 450 m off %.3g ms (%d Newton failures)", steps, origin*1e3, far*1e3, fails)
	if far < origin/2 || fails > steps/10 {
		t.Errorf("hung 450 m off: %.3g ms with %d Newton failures in %d steps, want ≥ %.3g ms (half the origin's) and ≤ %d failures",
			far*1e3, fails, steps, origin/2*1e3, steps/10)
	}
}
