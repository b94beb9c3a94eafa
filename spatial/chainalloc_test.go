package spatial_test

import (
	"math"
	"testing"
)

// TestChain3DStepAllocatesNothing: hht's steps on a chain of 100 rods on spherical joints
// (the sparse path: Newton matrix on the exact coupling pattern, SparseLU) allocate
// nothing after 20 warm-up steps, over a window of 150 steps with about 220 Jacobians,
// full factorizations among them (the Euler-parameter pivots cross the threshold as h
// and λ change). The fill spikes that grew the factors on the 400-rod chain came later
// than a unit test can afford; TestSparseLUWeakDiagonalFill guards their cause, and
// BenchmarkChain3DStep reports B/op over 300 steps of that chain.
func TestChain3DStepAllocatesNothing(t *testing.T) {
	m := warmChain3D(t, 100)
	step := func() {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	s0 := m.Stats()
	if n := testing.AllocsPerRun(150, step); n != 0 {
		t.Errorf("a step allocates %v times, want 0", n)
	}
	s := m.Stats()
	t.Logf("%d steps, %d Jacobians", s.Steps-s0.Steps, s.Jacobians-s0.Jacobians)
}
