package integrate

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/joint"
)

// denseKnifeChain hides dae.MassSolver and dae.MassMultiplier from a knife-edge joint
// system and keeps its Pfaffian rows: genalpha then forms its dense Newton matrix.
type denseKnifeChain struct {
	denseOnly
	dae.Nonholonomic
}

// knifeJointChain is n rods (0.5 m, 1 kg) on spherical joints hung from the origin along
// +x, turning at 1 rad/s about the vertical under a gravity off the x-z plane, with a knife
// edge at the last rod's tip (no velocity along (0, 1, 0.3) of the rod's frame there), so
// the row binds off the plane, and the second rod's end held on the plane z = 0 by a cut
// joint (a holonomic row, which the stabilized index-2 form stabilizes and the Pfaffian
// row not): 3n coordinates, one holonomic and one Pfaffian row, its start made consistent
// by dae.Initialize on the rows.
func knifeJointChain(t testing.TB, n int) (*joint.System, State) {
	t.Helper()
	md := &joint.Model{Gravity: [3]float64{0.5, -2, -9.81}}
	f, origin := joint.Ground, [3]float64{}
	for i := range n {
		f = md.Spherical(fmt.Sprint("ball", i+1), f, origin, rod(fmt.Sprint("rod", i+1), 0.5, 0.01))
		origin = [3]float64{0.5, 0, 0}
		if i == 1 {
			md.Cut("hold", f, origin, joint.Ground, [3]float64{1, 0, 0}, [3]float64{0, 0, 1})
		}
	}
	md.KnifeEdge("tip", f, [3]float64{0.5, 0, 0}, [3]float64{0, 1, 0.3})
	sys, err := md.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ := sys.Size()
	q, v := make([]float64, nq), make([]float64, nq)
	v[md.Coordinate("ball1.z")] = 1
	c, err := dae.Initialize(dae.WithPfaffianRows(sys), 0, q, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sys, State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
}

// knifeRate returns max |A v + b| of sys's Pfaffian rows at s.
func knifeRate(sys dae.System, s *State) float64 {
	rows := dae.WithPfaffianRows(sys)
	_, ncH := sys.Size()
	nq, nc := rows.Size()
	r := make([]float64, nc)
	G := mat.NewDense(nc, nq, nil)
	rows.ConstraintJacobian(G, s.T, s.Q)
	rows.ConstraintTimeDerivative(r, s.T, s.Q)
	var worst float64
	for k := ncH; k < nc; k++ {
		worst = math.Max(worst, math.Abs(r[k]+dot(G.RawRowView(k), s.V)))
	}
	return worst
}

// knifeTenSteps starts m on the knife chain big of 70 rods (210 coordinates, above
// massNewtonDenseMax) at tolerance 1e-4, takes 10 steps, and fails t unless onPath says m
// is on its Newton-Krylov path without a dense matrix and the knife row |A v + b| is held
// to 1e-4.
func knifeTenSteps(t *testing.T, m Method, big *joint.System, bs State, onPath func() bool) {
	t.Helper()
	if err := m.Init(big, bs.Clone(), StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
		t.Fatalf("210 coordinates: %v", err)
	}
	for range 10 {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	if !onPath() {
		t.Errorf("210 coordinates: not on the Newton-Krylov path (or a dense matrix was sized)")
	}
	if r := knifeRate(big, m.Current()); r > 1e-4 {
		t.Errorf("210 coordinates, t = %g: knife row |A v + b| = %.2e, want ≤ 1e-4", m.Current().T, r)
	}
	t.Logf("210 coordinates: t = %g after 10 steps, %+v", m.Current().T, m.Stats())
}

// TestGenAlphaKnifeKrylov: genalpha in both forms (index 3, stabilized index 2) on a joint
// chain with a knife edge at its tip runs on the Newton-Krylov path, the Pfaffian row
// A v + b = 0 among massSchur's rows (pfaffianPrecond, si2MassPrecond), and lands where
// its dense Newton matrix lands (its preconditioner with K_g, the knife's load levered),
// to a small fraction of either's error against a tight
// radau5 reference, holding the knife's row to the Newton tolerance and allocating nothing
// per step; at 70 rods (210 coordinates) it starts on the path, takes 10 steps there
// without sizing a dense matrix, and keeps the row.
func TestGenAlphaKnifeKrylov(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	sys, s := knifeJointChain(t, 4)
	big, bs := knifeJointChain(t, 70)
	ref := radau5Ref(t, sys, s, tEnd)
	for _, form := range []Formulation{Index3, StabilizedIndex2} {
		t.Run(string(form), func(t *testing.T) {
			mk := func() *GenAlpha { return &GenAlpha{Params: DefaultGenAlpha().Params, Formulation: form} }
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
			if kry.w.mn.schur.st == nil {
				t.Errorf("the preconditioner has no K_g: the knife's load −Aᵀμ not levered (takePfaffianStiffness)")
			}
			t.Logf("4 rods to t = %g: %+v", tEnd, kry.Stats())
			rate := knifePathsAgree(t, sys, kry, dense, ref, 0.1)
			if rate > tol {
				t.Errorf("knife row |A v + b| = %.2e at t = %g, want ≤ %g", rate, tEnd, tol)
			}
			stepAllocatesNothing(t, "genalpha on the knife chain", kry)

			m := mk()
			knifeTenSteps(t, m, big, bs, func() bool { return m.w.mn != nil && m.w.mn.inUse() && m.w.lu == nil })
		})
	}
}

// TestBDFKnifeKrylov: bdf's forms that take Pfaffian rows (ggl, index2, index1 and the
// Baumgarte forms) on the knife-edge chain with a cut joint run on the Newton-Krylov path,
// the Pfaffian row among bdfMassPrecond's rows (in the Baumgarte forms without a position
// weight, rowWeights), land where their dense Newton matrices land (to 0.25 of the dense
// error against a tight radau5 reference), hold the row (index1 and baumgarte, which hold
// A a = γ_A, drift as their dense paths), allocate nothing per step, and take 10 steps at
// 70 rods (210 coordinates) on the path.
func TestBDFKnifeKrylov(t *testing.T) {
	const tol, tEnd = 1e-6, 0.5
	sys, s := knifeJointChain(t, 4)
	big, bs := knifeJointChain(t, 70)
	ref := radau5Ref(t, sys, s, tEnd)
	for _, form := range []Formulation{StabilizedIndex2, Index2, Index1, Index2Baumgarte, Baumgarte} {
		t.Run(string(form), func(t *testing.T) {
			kry, dense := &BDF{Formulation: form}, &BDF{Formulation: form}
			ctl := StepControl{RTol: tol, ATol: tol}
			runTo(t, kry, sys, s.Clone(), tEnd, ctl)
			runTo(t, dense, denseKnifeChain{hideMassSolver(sys).(denseOnly), sys}, s.Clone(), tEnd, ctl)
			if kry.w.pm == nil || kry.w.lu != nil || dense.w.pm != nil {
				t.Fatalf("the runs did not take the intended paths")
			}
			rate := knifePathsAgree(t, sys, kry, dense, ref, 0.25)
			if kry.w.pm.hasMu != (form == StabilizedIndex2) {
				t.Errorf("the preconditioner's μ rows (%v) do not match the form", kry.w.pm.hasMu)
			}
			// index1 and baumgarte hold A a = γ_A (baumgarte + 2α(A v + b)), not A v + b = 0:
			// the row drifts as on the dense path.
			drifts := form == Index1 || form == Baumgarte
			if dRate := knifeRate(sys, dense.Current()); drifts && math.Abs(rate-dRate) > 0.25*dRate {
				t.Errorf("%s: knife row drift |A v + b| = %.2e, dense path's %.2e: want within 0.25 of it", form, rate, dRate)
			} else if !drifts && rate > tol {
				t.Errorf("knife row |A v + b| = %.2e at t = %g, want ≤ %g", rate, tEnd, tol)
			}
			stepAllocatesNothing(t, "bdf on the knife chain", kry)

			m := &BDF{Formulation: form}
			knifeTenSteps(t, m, big, bs, func() bool { return m.w.pm != nil && m.w.lu == nil })
		})
	}
}

// knifePathsAgree fails t unless the Krylov and dense runs kry and dense on the knife chain
// sys end within frac of the dense run's error against ref (and the Krylov error within
// 1 + frac of it) without dense fallbacks; it returns the Krylov run's knife row |A v + b|.
func knifePathsAgree(t *testing.T, sys *joint.System, kry, dense, ref Method, frac float64) float64 {
	t.Helper()
	kq, dq := kry.Current().Q, dense.Current().Q
	dKD, eK, eD := maxDiff(kq, dq), maxDiff(kq, ref.Current().Q), maxDiff(dq, ref.Current().Q)
	ks, ds := kry.Stats(), dense.Stats()
	rate := knifeRate(sys, kry.Current())
	t.Logf("|krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, f evals %d / %d, fallbacks %d; |A v + b| %.1e",
		dKD, eK, eD, ks.Steps, ds.Steps, ks.FuncEvals, ds.FuncEvals, ks.DenseFallbacks, rate)
	if dKD > frac*eD || eK > (1+frac)*eD {
		t.Errorf("|krylov − dense| = %.2e, errors krylov %.2e dense %.2e: want the paths to agree to %g of the error", dKD, eK, eD, frac)
	}
	if ks.DenseFallbacks != 0 {
		t.Errorf("%d dense fallbacks on a non-stiff model", ks.DenseFallbacks)
	}
	return rate
}
