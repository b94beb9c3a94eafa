package joint

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestForwardDynamicsMatchesForceAndSolve: ForwardDynamics' one articulated-body pass
// gives M⁻¹ (f + b) of Force and MassSolve to 1e-10 relative, with the composite joints
// grouped and as primitives, with every force element kind, on the planar tree and with
// flexible bodies, at random states and forces b; b is left as it was.
func TestForwardDynamicsMatchesForceAndSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 400))
	check := func(what string, sys *System, q, v []float64) {
		t.Helper()
		nq, _ := sys.Size()
		b, _ := randomState(rng, nq)
		b0 := append([]float64(nil), b...)
		f, want, got := make([]float64, nq), make([]float64, nq), make([]float64, nq)
		sys.Force(f, 0.3, q, v)
		for i := range f {
			f[i] += b[i]
		}
		sys.MassSolve(want, 0.3, q, f)
		for rep := range 2 { // the second at the same positions (kept by the frames)
			sys.ForwardDynamics(got, 0.3, q, v, b)
			agree(t, fmt.Sprintf("%s (pass %d)", what, rep), got, want, 1e-10)
		}
		agree(t, what+": b", b, b0, 0)
	}
	for trial := range 4 {
		for _, prims := range []bool{false, true} {
			sys, _, q, v := elementSystem(t, rng, randomTree(rng), trial%2 == 1)
			if prims {
				sys.UsePrimitives()
			}
			check(fmt.Sprintf("trial %d, primitives %v, elements %v", trial, prims, trial%2 == 1), sys, q, v)
		}
		sys, _, q, v := elementSystem(t, rng, planarTree(rng), false)
		check(fmt.Sprintf("trial %d, planar tree", trial), sys, q, v)
	}
	for name, beam := range flexBeams(2e5) {
		sys, err := flexSliderCrank(beam).System()
		if err != nil {
			t.Fatal(err)
		}
		q, v := flexRandomState(rng, sys)
		check("flexible "+name, sys, q, v)
	}
}
