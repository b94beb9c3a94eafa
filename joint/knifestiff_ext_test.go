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
	// A collection first: the runtime allocates its background mark workers (a small object
	// each, counted in Mallocs) when a process's first collections start, and one starting
	// inside the window was seen once under CI's load (16 bytes).
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 20 {
		step()
	}
	runtime.ReadMemStats(&after)
	if n := after.Mallocs - before.Mallocs; n > 0 {
		t.Errorf("20 steps allocated %d times (%d bytes), want 0", n, after.TotalAlloc-before.TotalAlloc)
	}
}
