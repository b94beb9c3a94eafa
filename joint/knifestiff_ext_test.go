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
// with new factorizations (genalpha's rent-or-buy rule): the articulated-body solves' second cached factorization
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

// TestGenAlphaKnifeRefactorsAgedPreconditioner: on knifeChain3D of 10 rods at fixed
// 24 ms, whose hold's λ grows 20-fold in 25 steps, genalpha's Newton-Krylov corrector
// replaces its preconditioner once the GMRES products above the fresh one's have paid for
// a factorization (genAlphaRefactorProducts): measured 5 factorizations and 322
// evaluations in 25 steps, where JacobianAuto alone kept step 1's for all 25 and took 358.
func TestGenAlphaKnifeRefactorsAgedPreconditioner(t *testing.T) {
	sys, s := knifeChain3D(t, 10)
	m := methodFor(t, "lie-genalpha", integrate.Index3)
	if err := m.Init(sys, s, integrate.StepControl{FixedH: 0.024, RTol: 1e-4, ATol: 1e-4}); err != nil {
		t.Fatal(err)
	}
	for range 25 {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	if st := m.Stats(); st.Jacobians < 3 || st.FuncEvals > 340 {
		t.Errorf("25 steps: %d factorizations, %d evaluations; want at least 3 (the aged preconditioner replaced) and at most 340 (322 measured; 358 when kept)", st.Jacobians, st.FuncEvals)
	}
}
