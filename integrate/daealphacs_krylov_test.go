package integrate

import (
	"math"
	"testing"

	"linkage/dae"
)

// TestDAEAlphaCSKrylovIsCM: on the cut-joint four-bar, where ∂(Gᵀν)/∂q ≠ 0, the
// coordinate-split form's Newton-Krylov corrector with exact GMRES solves converges
// linearly at the rate of the CM iteration's dense matrix (DAEAlpha.factor, MassSolve
// hidden), to 20% (its products carry ∂S/∂q (r + Gᵀν) of the scaled rows, which vanishes
// only at the fixed point), at h = 0.02 and 0.01 with the dense rate's dependence on h;
// index2's corrector, which keeps the term, converges quadratically from the same state.
// So the products are the CM matrix's (daeAlphaCM), not Newton's. And the iteration's
// second increment is at most 1.5 times the dense path's: the products keep (Gᵀμ)_q,
// whose absence left the v rows κ = γ̂/(β̂h) times the q rows' difference from the
// preconditioner (daeAlphaCM). Measured: rates 5.7e-4 and 2.3e-4 against the dense 6.4e-4
// and 2.2e-4, second increments 4.3 and 0.17 against 3.7 and 0.70 (with (Gᵀμ)_q left out
// 22 and 1.3); index2's second rates below 1e-5.
func TestDAEAlphaCSKrylovIsCM(t *testing.T) {
	sys, s := jointFourBar(t)
	rate := func(form Formulation, hide bool, h float64) (float64, []float64) {
		m := DefaultDAEAlpha()
		m.Formulation = form
		var sy dae.System = sys
		if hide {
			sy = hideMassSolver(sys)
		}
		runTo(t, &m, sy, s, 0.1, StepControl{RTol: 1e-6, ATol: 1e-6})
		if (m.w.kry == nil) != hide || (m.w.cm == nil) != (hide || form == Index2) {
			t.Fatalf("%s hide=%v: not the intended path", form, hide)
		}
		if m.w.kry != nil {
			m.w.kry.kr.rtol = 1e-13 // exact solves: the rate is the matrix's
		}
		norms := cmRates(t, &m, h, 4)
		return norms[3] / norms[2], norms
	}
	var kry, dense [2]float64
	for k, h := range []float64{0.02, 0.01} {
		var nk, nd, ni []float64
		kry[k], nk = rate(CoordinateSplit, false, h)
		dense[k], nd = rate(CoordinateSplit, true, h)
		_, ni = rate(Index2, false, h)
		t.Logf("h=%g: CM rate krylov %.3g (norms %.3g), dense %.3g (norms %.3g); index2 norms %.3g", h, kry[k], nk, dense[k], nd, ni)
		if !(math.Abs(kry[k]/dense[k]-1) < 0.2) {
			t.Errorf("h=%g: CM rate on the Krylov path %.3g, dense %.3g: want equal to 20%%", h, kry[k], dense[k])
		}
		if !(nk[1] <= 1.5*nd[1]) {
			t.Errorf("h=%g: second increment %.3g on the Krylov path, dense %.3g: want at most 1.5 times", h, nk[1], nd[1])
		}
		if !(ni[2]/ni[1] < 0.05*kry[k]) {
			t.Errorf("h=%g: index2's second rate %.3g, want quadratic convergence far below the CM rate %.3g", h, ni[2]/ni[1], kry[k])
		}
	}
	if rk, rd := kry[0]/kry[1], dense[0]/dense[1]; !(math.Abs(rk/rd-1) < 0.2) {
		t.Errorf("θ(0.02)/θ(0.01): Krylov %.3g, dense %.3g, want equal to 20%%", rk, rd)
	}
}

// TestDAEAlphaCSKrylovOrder: with fixed steps on the cut-joint four-bar, cs and cs-qr on
// the Newton-Krylov corrector keep the method's order 2 in q and v against radau5's
// reference (observed orders from h = 5, 2.5, 1.25 ms between 1.8 and 2.4: above 2 before
// the asymptotic range, as on the dense path), land on the dense path's (CM iteration's)
// solution within 1% of the error, and hold the constraints to the Newton tolerance.
func TestDAEAlphaCSKrylovOrder(t *testing.T) {
	const tEnd = 0.5
	sys, s := jointFourBar(t)
	ref := radau5Ref(t, sys, s, tEnd).Current()
	for _, form := range []Formulation{CoordinateSplit, CoordinateSplitQR} {
		var eq, ev [3]float64
		for k, n := range []int{100, 200, 400} {
			ctl := StepControl{FixedH: tEnd / float64(n), RTol: 1e-8, ATol: 1e-8}
			kry, dense := DefaultDAEAlpha(), DefaultDAEAlpha()
			kry.Formulation, dense.Formulation = form, form
			runTo(t, &kry, sys, s, tEnd, ctl)
			runTo(t, &dense, hideMassSolver(sys), s, tEnd, ctl)
			if kry.w.cm == nil || kry.Stats().DenseFallbacks != 0 {
				t.Fatalf("%s: not on the Newton-Krylov path (fallbacks %d)", form, kry.Stats().DenseFallbacks)
			}
			c := kry.Current()
			eq[k], ev[k] = maxDiff(c.Q, ref.Q), maxDiff(c.V, ref.V)
			if d := maxDiff(c.Q, dense.Current().Q); d > 0.01*eq[k] {
				t.Errorf("%s n=%d: |krylov − dense| = %.2e in q, error %.2e", form, n, d, eq[k])
			}
			g := make([]float64, len(c.Lambda))
			sys.Constraint(g, c.T, c.Q)
			if r := maxAbs(g); r > 1e-8 {
				t.Errorf("%s n=%d: |g| = %.2e", form, n, r)
			}
		}
		oq, ov := observedOrders(eq), observedOrders(ev)
		t.Logf("%s: errors q %.2e, v %.2e; orders q %.2f, v %.2f", form, eq, ev, oq, ov)
		for _, p := range append(oq[:], ov[:]...) {
			if p < 1.8 || p > 2.4 {
				t.Errorf("%s: observed orders q %.2f, v %.2f, want 2", form, oq, ov)
				break
			}
		}
	}
}

// TestDAEAlphaCSKrylovFallsBackOnStiffJoints: on the 3D chain with stiff spring-dampers
// (checkStiffFallback) cs falls back to the CM iteration's dense matrix and lands on the
// dense-only run's solution.
func TestDAEAlphaCSKrylovFallsBackOnStiffJoints(t *testing.T) {
	kry, dense := DefaultDAEAlpha(), DefaultDAEAlpha()
	kry.Formulation, dense.Formulation = CoordinateSplit, CoordinateSplit
	checkStiffFallback(t, &kry, &dense, func() bool { return kry.w.cm != nil && kry.w.lu != nil })
}
