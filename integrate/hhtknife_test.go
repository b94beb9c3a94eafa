package integrate

import "testing"

// TestHHTKnifeKrylov: hht on the joint chain with a knife edge at its tip and a cut joint
// runs on the Newton-Krylov path, the Pfaffian row A v + b = 0 among massSchur's rows with
// the right side unscaled (precondition: the HHT-I3 row scaling 1/(γh) gives it leading
// term A, as g/(βh²) gives the holonomic rows G), lands where its dense Newton matrix
// lands, to 0.1 of either's error against a tight radau5 reference, without dense
// fallbacks, holds the knife's row to the tolerance and allocates nothing per step; at 70
// rods (210 coordinates) it starts on the path, takes 10 steps there without sizing a
// dense matrix, and keeps the row.
func TestHHTKnifeKrylov(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	sys, s := knifeJointChain(t, 4)
	ref := radau5Ref(t, sys, s, tEnd)
	kry, dense := &HHT{}, &HHT{}
	ctl := StepControl{RTol: tol, ATol: tol}
	runTo(t, kry, sys, s.Clone(), tEnd, ctl)
	runTo(t, dense, denseKnifeChain{hideMassSolver(sys).(denseOnly), sys}, s.Clone(), tEnd, ctl)
	if kry.w.mn == nil || dense.w.mn != nil {
		t.Fatalf("the runs did not take the intended paths")
	}
	if !kry.w.mn.inUse() {
		t.Errorf("the last factorization was not the mass preconditioner")
	}
	if rate := knifePathsAgree(t, sys, kry, dense, ref, 0.1); rate > tol {
		t.Errorf("knife row |A v + b| = %.2e at t = %g, want ≤ %g", rate, tEnd, tol)
	}
	stepAllocatesNothing(t, "hht on the knife chain", kry)

	big, bs := knifeJointChain(t, 70)
	m := &HHT{}
	knifeTenSteps(t, m, big, bs)
	if m.w.mn == nil || !m.w.mn.inUse() || m.w.lu != nil {
		t.Errorf("210 coordinates: not on the Newton-Krylov path (or a dense matrix was sized)")
	}
	if r := knifeRate(big, m.Current()); r > 1e-4 {
		t.Errorf("210 coordinates, t = %g: knife row |A v + b| = %.2e, want ≤ 1e-4", m.Current().T, r)
	}
	t.Logf("210 coordinates: t = %g after 10 steps, %+v", m.Current().T, m.Stats())
}
