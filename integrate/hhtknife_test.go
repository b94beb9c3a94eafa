package integrate

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

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
	mk := func() *HHT { m := DefaultHHT(); return &m }
	kry, dense := mk(), mk()
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
	m := mk()
	knifeTenSteps(t, m, big, bs, func() bool { return m.w.mn != nil && m.w.mn.inUse() && m.w.lu == nil })
}

// TestHHTMassNewtonPfaffianRows: on the knife chain massNewton's [M/(1+α) Gᵀ; (G; A) 0]
// with the Pfaffian rows' right side unscaled (precondition) inverts hht's dense iteration
// matrix of eq. 12 as h → 0, where the terms it leaves out vanish: the Pfaffian rows'
// derivative in a is A + (βh/γ) ∂(A v + b)/∂q, so a β/γ scaling there (genalpha's
// pfaffianPrecond) would miss by 1 − β/γ.
func TestHHTMassNewtonPfaffianRows(t *testing.T) {
	const h = 1e-7
	sys, s := knifeJointChain(t, 4)
	w := newHHTWork(denseKnifeChain{hideMassSolver(sys).(denseOnly), sys}, newHHTCoef(DefaultHHTAlpha, 0), false)
	copy(w.q, s.Q)
	copy(w.v, s.V)
	w.packU(w.u, s.A, s.Lambda, nil)
	copy(w.cur.A, s.A)
	w.sys.ConstraintJacobian(w.G, s.T, s.Q)
	K := mat.NewDense(w.n, w.n, nil)
	w.assemble(K.RawMatrix().Data, s.T, h, 1)

	mn := newMassNewton(dae.WithPfaffianRows(sys))
	if err := mn.factor(s.T, s.Q, w.G, 1/(1+w.k.alpha)); err != nil {
		t.Fatal(err)
	}
	x := make([]float64, w.n)
	for i := range x {
		x[i] = math.Sin(float64(3*i + 1))
	}
	b := mat.NewVecDense(w.n, nil)
	b.MulVec(K, mat.NewVecDense(w.n, x))
	y := b.RawVector().Data
	mn.solve(y)
	if d := maxDiff(y, x); d > 1e-8 { // the terms left out are O(h): 2.6e-13 measured
		t.Errorf("max |P⁻¹ J x − x| = %.2e at h = %g, want ≤ 1e-8 (Pfaffian rows %d..%d)", d, h, w.ncH, w.nc-1)
	}
}
