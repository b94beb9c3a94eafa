package integrate

import (
	"testing"
)

// TestGCPFrictionMassMatchesDense: on the chain of 8 rods with friction in its pins (24
// coordinates, 16 hold rows), gcp-newmark on its Newton-Krylov corrector (Ψ with f_λ
// pressed by λ of eq. 38, solved by Newton on λ with a matrix of differences of f_λ) and
// gcp-abm on its mass-solve path (eq. 39 as eq. 17 with f_λ, Newton on λ through
// massSchur) land where their dense paths (∂f_λ matrices) land: gcp-newmark to a tenth of
// its error against a tight radau5 run, gcp-abm (the same discrete equations, solved
// directly) to 1e-8 relative; the friction is active (the runs without f_λ differ by more
// than the error), and their steps allocate nothing after warm-up.
func TestGCPFrictionMassMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.2
	sys, s := frictionChainStart(t, 8)
	dense := denseFriction{denseOnly{sys, sys, sys, sys}, sys}
	ref := radau5Ref(t, sys, s, tEnd)
	t.Run("gcp-newmark", func(t *testing.T) {
		kry, den, bare := DefaultGCP(), DefaultGCP(), DefaultGCP()
		ctl := StepControl{RTol: tol, ATol: tol}
		runTo(t, &kry, sys, s, tEnd, ctl)
		runTo(t, &den, dense, s, tEnd, ctl)
		runTo(t, &bare, hideMassSolver(sys), s, tEnd, ctl)
		if kry.w.kry == nil || den.w.kry != nil || kry.w.cs.M != nil || kry.w.cs.rx == nil || kry.w.cs.rx.Fq != nil {
			t.Fatal("the runs did not take the intended paths")
		}
		pathsAgree(t, "gcp-newmark", &kry, &den, ref.Current().Q, 0.1)
		eD, fr := maxDiff(den.Current().Q, ref.Current().Q), maxDiff(bare.Current().Q, den.Current().Q)
		if fr < eD {
			t.Errorf("friction changes q by %.2e only, against an error of %.2e: the test does not see it", fr, eD)
		}
		stepAllocatesNothing(t, "gcp-newmark", &kry)
	})
	t.Run("gcp-abm", func(t *testing.T) {
		const h = 1e-3
		mass, den, bare := &ABM{}, &ABM{}, &ABM{}
		runTo(t, mass, sys, s, tEnd, StepControl{FixedH: h})
		runTo(t, den, dense, s, tEnd, StepControl{FixedH: h})
		runTo(t, bare, hideMassSolver(sys), s, tEnd, StepControl{FixedH: h})
		if mass.w.cs.schur == nil || den.w.cs.schur != nil || mass.w.cs.rxa == nil {
			t.Fatal("the runs did not take the intended paths")
		}
		mc, dc := mass.Current(), den.Current()
		scale := 1 + max(hhtMaxAbs(dc.Q), hhtMaxAbs(dc.V))
		dq, dv, dl := maxDiff(mc.Q, dc.Q), maxDiff(mc.V, dc.V), maxDiff(mc.Lambda, dc.Lambda)
		fr := maxDiff(bare.Current().Q, dc.Q)
		t.Logf("|mass − dense| q %.1e v %.1e λ %.1e; friction's effect on q %.1e; steps %d", dq, dv, dl, fr, mass.Stats().Steps)
		if !(dq <= 1e-8*scale && dv <= 1e-8*scale && dl <= 1e-8*(1+hhtMaxAbs(dc.Lambda))) {
			t.Errorf("|mass − dense| q %.1e v %.1e λ %.1e, want ≤ 1e-8 relative", dq, dv, dl)
		}
		if fr < 1e-4 {
			t.Errorf("friction changes q by %.2e only: the test does not see it", fr)
		}
		if n := stepAllocs(t, mass, 5, 20); n != 0 {
			t.Errorf("gcp-abm on the mass-solve path: Step allocates %v times per call after warm-up, want 0", n)
		}
	})
}

// TestGCPFrictionMassLarge: gcp-newmark (Newton-Krylov) and gcp-abm (mass-solve path)
// start on the chain of 70 rods with friction in its pins (210 coordinates, 140 hold rows,
// above massNewtonDenseMax, where they were refused), store no nq×nq matrix and keep the
// hold rows g(q) = 0 to rounding.
func TestGCPFrictionMassLarge(t *testing.T) {
	sys, s := frictionChainStart(t, 70)
	_, nc := sys.Size()
	g := make([]float64, nc)
	kry, abm := DefaultGCP(), &ABM{}
	for _, c := range []struct {
		name string
		m    Method
		ctl  StepControl
	}{{"gcp-newmark", &kry, StepControl{RTol: 1e-4, ATol: 1e-4}}, {"gcp-abm", abm, StepControl{FixedH: 1e-3}}} {
		runTo(t, c.m, sys, s, 0.02, c.ctl)
		st, cur := c.m.Stats(), c.m.Current()
		sys.Constraint(g, cur.T, cur.Q)
		t.Logf("%s: t = %g, %d steps, %d f evals, |g| %.1e", c.name, cur.T, st.Steps, st.FuncEvals, maxAbs(g))
		if r := maxAbs(g); r > 1e-10 {
			t.Errorf("%s: |g| = %.2e, want ≤ 1e-10", c.name, r)
		}
	}
	if kry.w.kry == nil || kry.w.cs.M != nil || kry.w.cs.rx.Fq != nil || abm.w.cs.schur == nil || abm.w.cs.M != nil {
		t.Error("the runs left the mass-solve paths or store an nq×nq matrix")
	}
}
