package problems

import (
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// TestDAEAlphaChainOrder: the DAE α-method of seed 003 (ρ = 0.9) converges with order 2 in
// q, v and λ at t_end on chain10 against its RK4 reference, in the index-2 form (eq. 3.3),
// the coordinate-split form (eq. 3.6, CM iteration) and the α-method on the underlying
// ODE with projections (eqs. 2.5-2.6), from 200 to 400 to 800 steps (measured: q 2.00
// 2.00, v 2.00 2.00, λ 2.10 2.03 in all three; from 100 to 200 λ reads 2.32, the start-up
// transient of a_0 = φ_0). Theorem 2.1 promises only O(h) for v; v is second order here. The pendulum case is TestConformanceOrder.
func TestDAEAlphaChainOrder(t *testing.T) {
	p, err := Get("chain10")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []integrate.Formulation{integrate.Index2, integrate.CoordinateSplit, integrate.Index1Projected} {
		var eq, ev, el [3]float64
		for k, n := range []int{200, 400, 800} {
			m := &integrate.DAEAlpha{RhoInf: 0.9, Formulation: f}
			// Newton error 1e-10, far below the smallest discretization error (3e-6 in q).
			ctl := integrate.StepControl{FixedH: p.TEnd / float64(n), RTol: 1e-10, ATol: 1e-10}
			sol, err := integrate.Solve(m, "daealpha", p.System, p.Start.Clone(), p.TEnd,
				integrate.SolveOptions{Control: ctl, Output: []float64{p.TEnd}})
			if err != nil {
				t.Fatalf("%s n=%d: %v", f, n, err)
			}
			eq[k] = maxDiff(sol.Final.Q, p.Ref.Q)
			ev[k] = maxDiff(sol.Final.V, p.Ref.V)
			el[k] = maxDiff(sol.Final.Lambda, p.Ref.Lambda)
		}
		name := "daealpha " + string(f) + " chain10"
		checkOrder(t, name, "q", eq, 2, []int{0, 1})
		checkOrder(t, name, "v", ev, 2, []int{0, 1})
		checkOrder(t, name, "lambda", el, 2, []int{0, 1})
	}
}

// TestDAEAlphaSparseForms: the coordinate-split (CM, P(q) from the sparse LU of Gᵀ) and
// index1-proj forms of daealpha on the sparse evaluation path take the steps of the dense
// evaluation to rounding and allocate nothing per step, as TestSparseEvalMatchesDense
// checks for the default index2 form (measured on chain-bars:20: same 17 steps, states
// 1.4e-16 and 9e-15 apart).
func TestDAEAlphaSparseForms(t *testing.T) {
	p, err := Get("chain-bars:20")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []integrate.Formulation{integrate.CoordinateSplit, integrate.Index1Projected} {
		var final [2]*integrate.Solution
		for k, sys := range []dae.System{p.System, hideValues(p.System)} {
			m := &integrate.DAEAlpha{RhoInf: 0.9, Formulation: f}
			sol, err := integrate.Solve(m, "daealpha", sys, p.Start.Clone(), 0.1,
				integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-6, ATol: 1e-6}, Output: []float64{0.1}})
			if err != nil {
				t.Fatalf("%s (sparse %v): %v", f, k == 0, err)
			}
			final[k] = sol
			if k == 0 {
				if n := testing.AllocsPerRun(10, func() { _ = m.Step(1) }); n != 0 {
					t.Errorf("%s, sparse evaluation: Step allocates %v times", f, n)
				}
			}
		}
		d := maxDiff(final[0].Final.Q, final[1].Final.Q)
		if final[0].Stats.Steps != final[1].Stats.Steps || d > 1e-12 {
			t.Errorf("%s: sparse and dense evaluation: %d vs %d steps, states %.3g apart; want the same run to rounding",
				f, final[0].Stats.Steps, final[1].Stats.Steps, d)
		}
	}
}
