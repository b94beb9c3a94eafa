package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
)

// withoutForwardDynamics is a joint.System without dae.ForwardDynamicsSolver: the field
// shadows the method, so the methods scale their residual rows by massNewton.scaleRows
// (Force, M ã, MassSolve at q, MassMul at q_F) as before the capability.
type withoutForwardDynamics struct {
	*joint.System
	ForwardDynamics struct{}
}

// TestForwardDynamicsRows: hht and genalpha with their scaled residual rows by one
// forward-dynamics pass (dae.ForwardDynamicsSolver) take the steps, Newton iterations and
// evaluations of the same runs with the rows by scaleRows, and end at the same state to
// 1e-9 relative (the same equations, rounding apart), on the spinning chain of 10 rods and
// on the driven four-bar closed by a revolute cut joint (Gᵀλ in b). genalpha's K_g takes
// its loads at x = q̈₁ − M(q₁)⁻¹ r_h / h with M(q₁)⁻¹ r_h from each path's own arithmetic
// (genAlphaWork.loadAccel), so its GMRES products may differ by a few where a solve ends
// at its tolerance: its evaluations agree to 1 % (measured: 822 against 820 on the
// four-bar, identical on the chain), its steps and Newton iterations exactly. On the
// chain (a tree) genalpha with the capability takes its forward-dynamics Newton iteration
// (integrate's fdIter), which the rows by scaleRows do not have: the same steps, q to
// 1e-9 relative as well, Newton iterations within 5 % and fewer evaluations (measured:
// 102 iterations and 105 evaluations against 106 and 233). (hht's takes the same Newton
// iterations and evaluations as its factorized iteration on this chain.)
func TestForwardDynamicsRows(t *testing.T) {
	chain, chainStart, err := Chain3D(10)
	if err != nil {
		t.Fatal(err)
	}
	fourBar, fourBarStart := fourBarCutStart(t)
	for _, c := range []struct {
		name  string
		sys   *joint.System
		start integrate.State
		tEnd  float64
	}{{"chain", chain, chainStart, 0.1}, {"four-bar", fourBar, fourBarStart, 0.1}} {
		for _, method := range []string{"hht", "genalpha"} {
			var sols [2]*integrate.Solution
			for i, sys := range []dae.System{c.sys, withoutForwardDynamics{System: c.sys}} {
				var err error
				sols[i], err = integrate.Solve(methodFor(t, method, ""), method, sys, c.start.Clone(), c.tEnd, integrate.SolveOptions{
					Control: integrate.StepControl{RTol: 1e-7, ATol: 1e-7}, Output: []float64{c.tEnd}})
				if err != nil {
					t.Fatal(err)
				}
			}
			if _, ok := dae.System(withoutForwardDynamics{System: c.sys}).(dae.ForwardDynamicsSolver); ok {
				t.Fatal("the wrapper still offers ForwardDynamics")
			}
			what := fmt.Sprintf("%s, %s", c.name, method)
			a, b := sols[0].Stats, sols[1].Stats
			evals, iters := a.FuncEvals == b.FuncEvals, a.NewtonIters == b.NewtonIters
			switch {
			case method == "genalpha" && c.name == "chain": // the forward-dynamics iteration
				evals = a.FuncEvals < b.FuncEvals
				iters = math.Abs(float64(a.NewtonIters-b.NewtonIters)) <= 0.05*float64(b.NewtonIters)
			case method == "genalpha":
				evals = math.Abs(float64(a.FuncEvals-b.FuncEvals)) <= 0.01*float64(b.FuncEvals)
			}
			if a.Steps != b.Steps || !iters || !evals {
				t.Errorf("%s: steps, Newton iterations, evaluations %d, %d, %d by forward dynamics, %d, %d, %d by scaleRows",
					what, a.Steps, a.NewtonIters, a.FuncEvals, b.Steps, b.NewtonIters, b.FuncEvals)
			}
			qa, qb := sols[0].Final.Q, sols[1].Final.Q
			for i := range qa {
				if d := math.Abs(qa[i] - qb[i]); d > 1e-9*math.Max(1, math.Abs(qb[i])) {
					t.Errorf("%s: q[%d] = %.15g by forward dynamics, %.15g by scaleRows", what, i, qa[i], qb[i])
				}
			}
			t.Logf("%s: %d steps, %d Newton iterations, %d evaluations", what, a.Steps, a.NewtonIters, a.FuncEvals)
		}
	}
}
