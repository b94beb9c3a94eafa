package integrate

import (
	"math"
	"testing"

	"linkage/joint"
)

// TestDAEAlphaKrylovFrictionMatchesDense: daealpha's index2 and index1-proj forms on the
// chain of 8 rods with friction in its pins (24 coordinates, 16 hold rows) on the
// Newton-Krylov corrector (the residual carries f_λ pressed by the iterate's μ or ν, so
// GMRES's products hold ∂f_λ/∂λ; eq. 17 by Newton on λ with difference columns through
// massSchur) land where their dense paths (the Newton matrix with ∂f_λ) land, to a tenth
// of their error against a tight radau5 run, without dense fallbacks; the friction is
// active (the run without f_λ differs from the dense one by more than the error); the
// Krylov step allocates nothing after warm-up.
func TestDAEAlphaKrylovFrictionMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.2
	sys, s := frictionChainStart(t, 8)
	ref := radau5Ref(t, sys, s, tEnd)
	for _, form := range []Formulation{Index2, Index1Projected} {
		t.Run(string(form), func(t *testing.T) {
			kry, dense, bare := DefaultDAEAlpha(), DefaultDAEAlpha(), DefaultDAEAlpha()
			kry.Formulation, dense.Formulation, bare.Formulation = form, form, form
			ctl := StepControl{RTol: tol, ATol: tol}
			runTo(t, &kry, sys, s, tEnd, ctl)
			runTo(t, &dense, denseFriction{denseOnly{sys, sys, sys, sys}, sys}, s, tEnd, ctl)
			runTo(t, &bare, hideMassSolver(sys), s, tEnd, ctl) // no f_λ
			if kry.w.kry == nil || dense.w.kry != nil || kry.w.rx == nil {
				t.Fatal("the runs did not take the intended paths")
			}
			pathsAgree(t, string(form), &kry, &dense, ref.Current().Q, 0.1)
			eD, fr := maxDiff(dense.Current().Q, ref.Current().Q), maxDiff(bare.Current().Q, dense.Current().Q)
			if fr < eD {
				t.Errorf("friction changes q by %.2e only, against an error of %.2e: the test does not see it", fr, eD)
			}
			if n := kry.Stats().DenseFallbacks; n != 0 {
				t.Errorf("%d dense fallbacks", n)
			}
			stepAllocatesNothing(t, string(form), &kry)
		})
	}
}

// TestDAEAlphaKrylovFrictionLarge: daealpha's index2 and index1-proj forms start on the
// chain of 70 rods with friction in its pins (210 coordinates, 140 hold rows, above
// massNewtonDenseMax, where they were refused) on the Newton-Krylov corrector, store no
// nq×nq matrix (neither the Newton matrix nor ∂f_λ/∂q, ∂f_λ/∂v) and keep g(q) = 0 to the
// tolerance.
func TestDAEAlphaKrylovFrictionLarge(t *testing.T) {
	const tol = 1e-4
	sys, s := frictionChainStart(t, 70)
	_, nc := sys.Size()
	g := make([]float64, nc)
	for _, form := range []Formulation{Index2, Index1Projected} {
		m := DefaultDAEAlpha()
		m.Formulation = form
		runTo(t, &m, sys, s, 0.05, StepControl{RTol: tol, ATol: tol})
		st, c := m.Stats(), m.Current()
		if m.w.kry == nil || m.w.lu != nil || m.w.M != nil || m.w.rx.Fq != nil || (m.w.rxa != nil && m.w.rxa.rx.Fq != nil) {
			t.Errorf("%s: the run left the Newton-Krylov path or stores an nq×nq matrix", form)
		}
		sys.Constraint(g, c.T, c.Q)
		t.Logf("%s: t = %g, %d steps, %d Newton iterations, %d f evals, |g| %.1e", form, c.T, st.Steps, st.NewtonIters, st.FuncEvals, maxAbs(g))
		if r := maxAbs(g); r > tol {
			t.Errorf("%s: position constraint residual %.2e, want ≤ %g", form, r, tol)
		}
		if st.DenseFallbacks != 0 || math.Abs(c.T-0.05) > 1e-12 {
			t.Errorf("%s: %d dense fallbacks, stopped at t = %g", form, st.DenseFallbacks, c.T)
		}
	}
}

// frictionChainStart is frictionChain with a start sized for the multipliers (daealpha
// checks them; they are computed at Init).
func frictionChainStart(t *testing.T, n int) (*joint.System, State) {
	sys, s := frictionChain(t, n)
	nq, nc := sys.Size()
	st := NewState(nq, nc)
	copy(st.Q, s.Q)
	copy(st.V, s.V)
	copy(st.A, s.A)
	return sys, st
}
