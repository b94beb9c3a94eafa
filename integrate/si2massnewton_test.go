package integrate

import (
	"fmt"
	"math"
	"testing"
)

// TestSI2MassNewtonMatchesDense: on the joint route's 3D chain, planar chain and cut-joint
// four-bar, genalpha-si2 and newmark (both the stabilized index-2 form) with the
// Newton-Krylov corrector preconditioned by si2MassPrecond land where the same method with
// its dense Newton matrix lands, within a tenth of the error either has against a dense
// radau5 run at 1e-10 (as TestMassNewtonMatchesDense for the index-3 form), without dense
// fallbacks, and their steps allocate nothing.
func TestSI2MassNewtonMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	for _, c := range jointMassCases {
		sys, s := c.make(t)
		ref := &Radau5{}
		runTo(t, ref, hideMassSolver(sys), s, tEnd, StepControl{RTol: 1e-10, ATol: 1e-10})
		for _, method := range []string{"genalpha-si2", "newmark"} {
			t.Run(fmt.Sprint(c.name, "/", method), func(t *testing.T) {
				e, err := Lookup(method)
				if err != nil {
					t.Fatal(err)
				}
				kry, dense := e.New().(*GenAlpha), e.New().(*GenAlpha)
				runTo(t, kry, sys, s, tEnd, StepControl{RTol: tol, ATol: tol})
				runTo(t, dense, hideMassSolver(sys), s, tEnd, StepControl{RTol: tol, ATol: tol})
				if kry.w.si2p == nil || dense.w.mn != nil {
					t.Fatalf("the runs did not take the intended paths")
				}
				kq, dq := kry.Current().Q, dense.Current().Q
				dKD, eK, eD := maxDiff(kq, dq), maxDiff(kq, ref.Current().Q), maxDiff(dq, ref.Current().Q)
				ks, ds := kry.Stats(), dense.Stats()
				t.Logf("|krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, f evals %d / %d",
					dKD, eK, eD, ks.Steps, ds.Steps, ks.FuncEvals, ds.FuncEvals)
				if dKD > 0.1*eD || eK > 1.1*eD {
					t.Errorf("|krylov − dense| = %.2e, errors krylov %.2e dense %.2e: want the paths to agree to a tenth of the error", dKD, eK, eD)
				}
				if ks.DenseFallbacks != 0 || !kry.w.mn.inUse() {
					t.Errorf("%d dense fallbacks on a non-stiff model", ks.DenseFallbacks)
				}
				if a := testing.AllocsPerRun(10, func() {
					if err := kry.Step(math.Inf(1)); err != nil {
						t.Fatal(err)
					}
				}); a != 0 {
					t.Errorf("step: %g allocations, want 0", a)
				}
			})
		}
	}
}
