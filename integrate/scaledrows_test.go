package integrate

import (
	"math"
	"testing"

	"linkage/dae"
)

// TestRadau5ScaledRowsSlenderChain: on the joint route's chain of 10 slender rods (radius
// 0.01 m, M of condition about 2e7), radau5 with the scaled dynamic rows (radauMassRows),
// on its Newton-Krylov path and on its dense one, reaches t = 0.1 s at tol 1e-4 in at
// most 20 steps with at most 2 failed Newton attempts, within a tenth of the tolerance
// of a dopri5 run at 1e-11, and its steps allocate nothing. Measured: 9 steps, error
// 7e-7 on both paths, no Newton failure on the Krylov one and 1 on the dense one; without
// the scaling (MassSolve hidden) 686 steps with 672 Newton failures, the body route 14
// steps with 8.
func TestRadau5ScaledRowsSlenderChain(t *testing.T) {
	const tol, tEnd = 1e-4, 0.1
	sys, s := jointChain3D(t, 10, 0.01, 0)
	ref := &DOPRI5{}
	runTo(t, ref, sys, s, tEnd, StepControl{RTol: 1e-11, ATol: 1e-11})
	for _, c := range []struct {
		name string
		sys  dae.System
	}{{"krylov", sys}, {"dense", hideMassMultiplier(sys)}} {
		m := &Radau5{}
		runTo(t, m, c.sys, s, tEnd, StepControl{RTol: tol, ATol: tol})
		st, e := m.Stats(), maxDiff(m.Current().Q, ref.Current().Q)
		t.Logf("%s: %d steps, %d Newton failures, %d rejected, error %.1e", c.name, st.Steps, st.NewtonFailures, st.Rejected, e)
		if m.w.rows == nil || st.Steps > 20 || st.NewtonFailures > 2 || e > 0.1*tol {
			t.Errorf("%s: scaled rows %v, %d steps, %d Newton failures, error %.1e: want the scaling, at most 20 steps and 2 failures, error at most %g",
				c.name, m.w.rows != nil, st.Steps, st.NewtonFailures, e, 0.1*tol)
		}
		if a := testing.AllocsPerRun(5, func() {
			if err := m.Step(math.Inf(1)); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("%s: step: %g allocations, want 0", c.name, a)
		}
	}
}

// TestImplicitScaledRowsSlenderChain: hht, genalpha, genalpha-si2 and bdf (ggl) on the chain of
// TestRadau5ScaledRowsSlenderChain at tol 1e-6 to t = 0.1 s, their dynamic rows scaled on
// the Newton-Krylov path (massNewton.scaleRows), fail at most 2 Newton attempts, take at
// most the steps of their dense paths (MassSolve hidden, rows not scaled) and land within
// 1.5 times the dense error against a dopri5 run at 1e-11, scaled by the square of the
// step counts' ratio (order 2: the dense path's failures shorten its steps at loose
// tolerances). Measured: hht 34 steps with no Newton failure against 34 with 29, error
// 9.6e-5 on both; genalpha 23 steps, 0 failures, 1.1e-4 against 37, 26, 6.4e-5; at 1e-7
// and 1e-8 both paths take the same steps with the same errors, the dense one failing
// Newton at nearly every step (hht 58 of 65, genalpha 98 of 102 at 1e-8). bdf: 45 steps
// with no failure and 92 Newton iterations against 45 with 25 and 151, error 1.1e-6 on
// both (its Newton-Krylov path failed 1 attempt with 106 iterations before the scaling).
func TestImplicitScaledRowsSlenderChain(t *testing.T) {
	const tol, tEnd = 1e-6, 0.1
	sys, s := jointChain3D(t, 10, 0.01, 0)
	ref := &DOPRI5{}
	runTo(t, ref, sys, s, tEnd, StepControl{RTol: 1e-11, ATol: 1e-11})
	for _, method := range []string{"hht", "genalpha", "genalpha-si2", "bdf"} {
		e, err := Lookup(method)
		if err != nil {
			t.Fatal(err)
		}
		kry, dense := e.New(), e.New()
		runTo(t, kry, sys, s, tEnd, StepControl{RTol: tol, ATol: tol})
		runTo(t, dense, hideMassSolver(sys), s, tEnd, StepControl{RTol: tol, ATol: tol})
		ks, ds := kry.Stats(), dense.Stats()
		ek, ed := maxDiff(kry.Current().Q, ref.Current().Q), maxDiff(dense.Current().Q, ref.Current().Q)
		t.Logf("%s: krylov %d steps, %d Newton failures, error %.1e; dense %d steps, %d Newton failures, error %.1e",
			method, ks.Steps, ks.NewtonFailures, ek, ds.Steps, ds.NewtonFailures, ed)
		r := float64(ds.Steps) / float64(ks.Steps)
		if ks.NewtonFailures > 2 || r < 1 || ek > 1.5*ed*r*r {
			t.Errorf("%s: %d Newton failures, %d steps (dense %d), error %.1e (dense %.1e): want at most 2 failures, at most the dense steps and 1.5 (dense steps / steps)² times the dense error",
				method, ks.NewtonFailures, ks.Steps, ds.Steps, ek, ed)
		}
	}
}
