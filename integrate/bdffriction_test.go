package integrate

import (
	"fmt"
	"math"
	"testing"

	"linkage/joint"
)

// bdfForms are bdf's six formulations on the equations of motion.
var bdfForms = []Formulation{StabilizedIndex2, Index2, Index2Baumgarte, Index3, Index1, Baumgarte}

// TestBDFFrictionKrylovMatchesDense: on a chain of 6 rods with friction in its pins (18
// coordinates, 12 hold rows), bdf in each form on the Newton-Krylov path (reactionKrylov:
// below massNewtonDenseMax the path is taken for this test only; semiExplicit's residual
// carries f_λ at the iterate's λ, so GMRES's difference products hold −∂f_λ/∂λ beside Gᵀ)
// lands where its dense path (exact Newton matrix with ∂f_λ) lands, to a tenth
// of their error against a dense radau5 run at 1e-10, without dense fallbacks and without
// a stored nq×nq matrix (neither M nor ∂f_λ/∂q, ∂f_λ/∂v); the friction is active (it moves
// q by more than ten times that error, so a residual without f_λ would fail).
func TestBDFFrictionKrylovMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.2
	sys, s := frictionChain(t, 6)
	rq := frictionChainReference(t, sys, s, tEnd)
	for _, form := range bdfForms {
		t.Run(fmt.Sprint(form), func(t *testing.T) {
			kry, dense, bare := BDF{Formulation: form, reactionKrylov: true}, BDF{Formulation: form}, BDF{Formulation: form}
			c := compareFrictionPaths(t, &kry, &dense, &bare, sys, s, rq, tol, tEnd)
			if kry.w.pm == nil || dense.w.pm != nil {
				t.Fatal("the runs did not take the intended paths")
			}
			c.within(t, 0.1, 1.1)
			if kry.w.lu != nil || kry.w.se.rx.Fq != nil || kry.w.se.M != nil {
				t.Error("a dense matrix stored")
			}
		})
	}
}

// frictionChainReference is the final q of a dense radau5 run at 1e-10 on the friction chain
// sys (dae.MassSolver hidden, the λ-dependent forces kept) from s to tEnd.
func frictionChainReference(t *testing.T, sys *joint.System, s State, tEnd float64) []float64 {
	t.Helper()
	ref := &Radau5{}
	runTo(t, ref, denseFriction{denseOnly{sys, sys, sys, sys}, sys}, s, tEnd, StepControl{RTol: 1e-10, ATol: 1e-10})
	return ref.Current().Q
}

// compareFrictionPaths runs kry (its Newton-Krylov path), dense (its dense path) and bare
// (MassSolver hidden, so without f_λ) on the friction chain sys from s to tEnd at tol,
// checks that friction is active (it moves q by more than ten times the dense error
// against rq), that kry made no dense fallback and that its step allocates nothing, and
// returns the distances of the final positions.
func compareFrictionPaths(t *testing.T, kry, dense, bare Method, sys *joint.System, s State, rq []float64, tol, tEnd float64) krylovComparison {
	t.Helper()
	ctl := StepControl{RTol: tol, ATol: tol}
	runTo(t, kry, sys, s, tEnd, ctl)
	runTo(t, dense, sys, s, tEnd, ctl)
	runTo(t, bare, hideMassSolver(sys), s, tEnd, ctl)
	kq := kry.Current().Q
	c := krylovComparison{maxDiff(kq, dense.Current().Q), maxDiff(kq, rq), maxDiff(dense.Current().Q, rq)}
	fr := maxDiff(bare.Current().Q, rq)
	ks, ds := kry.Stats(), dense.Stats()
	t.Logf("|krylov − dense| %.1e, error krylov %.1e dense %.1e, friction's effect %.1e; steps %d / %d, newton %d / %d, f evals %d / %d",
		c.dKD, c.eK, c.eD, fr, ks.Steps, ds.Steps, ks.NewtonIters, ds.NewtonIters, ks.FuncEvals, ds.FuncEvals)
	if fr < 10*c.eD { // a residual without f_λ would miss the agreement bounds by 100 ×
		t.Errorf("friction changes q by %.2e only, against an error of %.2e: the test does not see it", fr, c.eD)
	}
	if ks.DenseFallbacks != 0 {
		t.Errorf("%d dense fallbacks", ks.DenseFallbacks)
	}
	stepAllocatesNothing(t, "step with friction", kry)
	return c
}

// TestBDFFrictionKrylovLarge: bdf in each form starts on the chain of 70 rods with
// friction in its pins (210 coordinates, above massNewtonDenseMax, where it was refused)
// on its Newton-Krylov path, keeps g(q) = 0 to the Newton tolerance's level over its
// first steps, and its step allocates nothing after warm-up and stores no dense matrix.
func TestBDFFrictionKrylovLarge(t *testing.T) {
	sys, s := frictionChain(t, 70)
	for _, form := range bdfForms {
		t.Run(fmt.Sprint(form), func(t *testing.T) {
			m := BDF{Formulation: form}
			frictionChainLarge(t, &m, sys, s, 1e-4, 10, func() {
				stepAllocatesNothing(t, "bdf step with friction on 210 coordinates", &m)
			}, func() bool { return m.w.pm != nil && m.w.lu == nil && m.w.se.rx.Fq == nil && m.w.se.M == nil })
		})
	}
}

// frictionChainLarge starts m on the friction chain sys (above massNewtonDenseMax) at
// RTol = ATol = tol, takes warm steps, runs the allocation check allocs, and checks that
// the run is still on its Newton-Krylov path with no dense matrix stored (onPath) and
// that |g(q)| ≤ 1e-6.
func frictionChainLarge(t *testing.T, m Method, sys *joint.System, s State, tol float64, warm int, allocs func(), onPath func() bool) {
	t.Helper()
	if err := m.Init(sys, s, StepControl{RTol: tol, ATol: tol}); err != nil {
		t.Fatal(err)
	}
	for range warm {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	allocs()
	st := m.Stats()
	if !onPath() {
		t.Errorf("the run left the Newton-Krylov path (DenseFallbacks %d)", st.DenseFallbacks)
	}
	c := m.Current()
	_, nc := sys.Size()
	g := make([]float64, nc)
	sys.Constraint(g, c.T, c.Q)
	if r := maxDiff(g, make([]float64, nc)); r > 1e-6 {
		t.Errorf("|g(q)| = %.2e at t = %g, want ≤ 1e-6", r, c.T)
	}
	t.Logf("t = %g after %d steps, %d f evals, %d Newton iterations, %d Newton failures", c.T, st.Steps, st.FuncEvals, st.NewtonIters, st.NewtonFailures)
}
