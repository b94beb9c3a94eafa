package integrate

import (
	"math"
	"testing"

	"linkage/dae"
)

// denseFrictionInvariant is denseFriction keeping the energy invariant that multi-index's
// error estimate reads: the dense path of the augmented Lagrangian methods with f_λ.
type denseFrictionInvariant struct {
	denseOnly
	dae.ReactionForce
	dae.EnergyInvariant
}

// TestALIKrylovFrictionMatchesDense: on the chain of 8 rods with friction in its pins (24
// coordinates, 16 hold rows) ali3, ali1 (fixed steps) and multi-index on the Newton-Krylov
// path (f_λ pressed by λ̂ of eq. 17 at the iterate, its derivative through λ̂ by the
// linearized eq. 17 in every product) land where their dense paths (the tangent matrix
// with addLambdaHat) land, to a tenth of their error against a tight radau5 run; the
// friction is active (the run without f_λ differs by more than ten times that error);
// the Krylov step allocates nothing after warm-up.
func TestALIKrylovFrictionMatchesDense(t *testing.T) {
	const tEnd = 0.2
	sys, s := frictionChain(t, 8)
	ref := radau5Ref(t, sys, s, tEnd)
	dense := denseFrictionInvariant{denseOnly{sys, sys, sys, sys}, sys, sys}
	for _, method := range []string{"ali3", "ali1", "multi-index"} {
		newMethod, ctl := aliMethod(t, method, 1e-6)
		kry, den, bare := newMethod(), newMethod(), newMethod()
		runTo(t, kry, sys, s, tEnd, ctl)
		runTo(t, den, dense, s, tEnd, ctl)
		runTo(t, bare, hideMassSolverKeepEnergy(sys), s, tEnd, ctl) // no f_λ
		kw, dw := aliWorkOf(kry), aliWorkOf(den)
		if kw.kp == nil || kw.kp.rf == nil || kw.M != nil || dw.kp != nil || dw.rx == nil {
			t.Fatalf("%s: the runs did not take the intended paths", method)
		}
		pathsAgree(t, method, kry, den, ref.Current().Q, 0.1)
		// a path without f_λ would miss the agreement bound (a tenth of the error) by 10 ×
		eD, fr := maxDiff(den.Current().Q, ref.Current().Q), maxDiff(bare.Current().Q, den.Current().Q)
		if fr < eD {
			t.Errorf("%s: friction changes q by %.2e only, against an error of %.2e: the test does not see it", method, fr, eD)
		}
		stepAllocatesNothing(t, method, kry)
	}
}

// TestALIKrylovFrictionAbove200: ali3, ali1 and multi-index start on the chain of 70 rods
// with friction in its pins (210 coordinates, 140 hold rows; refused there before) on
// their Newton-Krylov path without an nq×nq matrix, and keep g(q) = 0 to 1e-8 m.
func TestALIKrylovFrictionAbove200(t *testing.T) {
	const tEnd = 0.02
	sys, s := frictionChain(t, 70)
	_, nc := sys.Size()
	g := make([]float64, nc)
	for _, method := range []string{"ali3", "ali1", "multi-index"} {
		newMethod, ctl := aliMethod(t, method, 1e-4)
		m := newMethod()
		runTo(t, m, sys, s, tEnd, ctl)
		st, c := m.Stats(), m.Current()
		sys.Constraint(g, c.T, c.Q)
		_, gmax := worstAbs(g)
		t.Logf("%s: %d steps, %d f evals, %d newton it., %d solves; |Φ| %.1e", method, st.Steps, st.FuncEvals, st.NewtonIters, st.Solves, gmax)
		if !(gmax <= 1e-8) {
			t.Errorf("%s: |Φ| = %.2e at t = %g, want at most 1e-8", method, gmax, c.T)
		}
		if w := aliWorkOf(m); w.kp == nil || w.M != nil || w.Bq != nil || w.rx.rx.Fq != nil {
			t.Errorf("%s: not on the Newton-Krylov path, or it stores an nq×nq matrix", method)
		}
		if math.Abs(c.T-tEnd) > 1e-12 {
			t.Errorf("%s: stopped at t = %g", method, c.T)
		}
	}
}
