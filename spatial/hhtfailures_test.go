package spatial_test

import (
	"fmt"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// TestHHTChain3DNewtonFailures guards hht's step and Jacobian memory after a corrector
// failure (integrate: newtonSolver.staleHold, controller.failCap) on the spinning chain
// of examples/chain3d.yaml over its first 0.15 s, where every Newton failure was one of
// two patterns: a reused matrix failing at nearly every step (tol 1e-6), and a fresh one
// failing where the step grew 5× after the cut of an earlier failure (tol 1e-5). Before
// those rules: 10 and 26 failures; after: 2 and 3 (BENCHMARKS.md, "hht's Newton failures
// on the spinning chain, body route").
func TestHHTChain3DNewtonFailures(t *testing.T) {
	for _, c := range []struct {
		n       int
		tol     float64
		maxFail int
	}{{20, 1e-5, 4}, {100, 1e-6, 6}} {
		t.Run(fmt.Sprintf("N=%d/tol=%g", c.n, c.tol), func(t *testing.T) {
			sys, err := chain3D(c.n)
			if err != nil {
				t.Fatal(err)
			}
			q0, v0 := sys.InitialGuess()
			s, err := dae.Initialize(sys, 0, q0, v0, nil)
			if err != nil {
				t.Fatal(err)
			}
			m := integrate.DefaultHHT()
			if err := m.Init(sys, integrate.State{Q: s.Q, V: s.V, A: s.A, Lambda: s.Lambda}, integrate.StepControl{RTol: c.tol, ATol: c.tol}); err != nil {
				t.Fatal(err)
			}
			for m.Current().T < 0.15 {
				if err := m.Step(0.15); err != nil {
					t.Fatal(err)
				}
			}
			st := m.Stats()
			t.Logf("steps %d, Newton failures %d, iterations %d, Jacobians %d", st.Steps, st.NewtonFailures, st.NewtonIters, st.Jacobians)
			if st.NewtonFailures > c.maxFail {
				t.Errorf("%d Newton failures in %d steps, want at most %d", st.NewtonFailures, st.Steps, c.maxFail)
			}
		})
	}
}
