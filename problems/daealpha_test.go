package problems

import (
	"testing"

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
