package integrate

import "testing"

// TestLieGenAlphaKnifeKrylov: lie-genalpha in both forms on the joint chain with a knife
// edge at its tip and a cut joint runs as genalpha on its Newton-Krylov path
// (krylovOnPlain: the Pfaffian row among massSchur's rows, pfaffianPrecond) and lands
// where its own iteration on ℝⁿ (dae.VectorSpace, dense matrix: the system without
// dae.MassSolver) lands, to 0.1 of either's error against a tight radau5 reference,
// without dense fallbacks, holding the knife's row to the tolerance and allocating nothing
// per step; at 70 rods (210 coordinates) it starts on the path, takes 10 steps there
// without sizing a dense matrix, and keeps the row.
func TestLieGenAlphaKnifeKrylov(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	sys, s := knifeJointChain(t, 4)
	big, bs := knifeJointChain(t, 70)
	ref := radau5Ref(t, sys, s, tEnd)
	for _, form := range []Formulation{Index3, StabilizedIndex2} {
		t.Run(string(form), func(t *testing.T) {
			mk := func() *LieGenAlpha {
				m := DefaultLieGenAlpha()
				m.Formulation = form
				return &m
			}
			kry, dense := mk(), mk()
			ctl := StepControl{RTol: tol, ATol: tol}
			runTo(t, kry, sys, s.Clone(), tEnd, ctl)
			runTo(t, dense, denseKnifeChain{hideMassSolver(sys).(denseOnly), sys}, s.Clone(), tEnd, ctl)
			if kry.ga == nil || kry.ga.w.mn == nil || dense.ga != nil {
				t.Fatalf("the runs did not take the intended paths")
			}
			if rate := knifePathsAgree(t, sys, kry, dense, ref, 0.1); rate > tol {
				t.Errorf("knife row |A v + b| = %.2e at t = %g, want ≤ %g", rate, tEnd, tol)
			}
			stepAllocatesNothing(t, "lie-genalpha on the knife chain", kry)

			m := mk()
			knifeTenSteps(t, m, big, bs, func() bool { return m.ga != nil && m.ga.w.mn.inUse() && m.ga.w.lu == nil })
		})
	}
}
