package joint_test

import (
	"math"
	"runtime"
	"testing"

	"linkage/integrate"
)

// TestKnifeChainStiffStepsAllocateNothing: lie-genalpha (genalpha's Newton-Krylov
// corrector, its preconditioner with K_g and the knife's load) on knifeChain3D of 100 rods
// allocates nothing in 20 steps after 5 warm-up steps at tolerance 1e-4, the 20 steps
// without a new factorization: the articulated-body solves' second cached factorization
// takes its copy of K_g at the first stiff solve, not at its first use (measured: 21 kB
// in the sixth to 25th steps before).
func TestKnifeChainStiffStepsAllocateNothing(t *testing.T) {
	sys, s := knifeChain3D(t, 100)
	m := methodFor(t, "lie-genalpha", integrate.Index3)
	if err := m.Init(sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
		t.Fatal(err)
	}
	step := func() {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	for range 5 {
		step()
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 20 {
		step()
	}
	runtime.ReadMemStats(&after)
	// Mallocs counts the runtime's background work too: the scavenger's timer heap grows
	// by 16 bytes now and then (runtime.bgscavenge, seen in this window in 1 of 5 runs by
	// a heap profile), so a window of at most two mallocs and 512 bytes passes; the copy
	// this test guards against was 21 kB.
	if n, bytes := after.Mallocs-before.Mallocs, after.TotalAlloc-before.TotalAlloc; n > 2 || bytes > 512 {
		t.Errorf("20 steps allocated %d times (%d bytes), want 0 (the runtime's background: at most 2, 512 bytes)", n, bytes)
	}
}
