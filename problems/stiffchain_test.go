package problems

import (
	"math"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// TestStiffChain: the stored reference lies on the constraints, HHT at tol 1e-7 (the one
// method fast enough here: 0.1 s, the others take 1.5 s) meets it to the accuracy of a
// second-order method at that tolerance (measured max error 1.3e-4 over the 60
// coordinates, scd 2.5), which a wrong model or reference would exceed by orders, and bad
// parameters are errors naming them.
func TestStiffChain(t *testing.T) {
	p, err := Get("stiffchain")
	if err != nil {
		t.Fatal(err)
	}
	nq, nc := p.System.Size()
	if nq != 60 || nc != 40 || len(p.Ref.Q) != nq {
		t.Fatalf("sizes nq %d nc %d, reference %d", nq, nc, len(p.Ref.Q))
	}
	g := make([]float64, nc)
	p.System.Constraint(g, p.Ref.T, p.Ref.Q)
	for i, x := range g {
		if math.Abs(x) > 1e-13 {
			t.Errorf("reference: constraint %d (%s) = %.3g", i, dae.ConstraintName(p.System, i), x)
		}
	}
	m := integrate.DefaultHHT()
	sol, err := integrate.Solve(&m, "hht", p.System, p.Start.Clone(), p.TEnd,
		integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-7, ATol: 1e-7}, Output: []float64{p.TEnd}})
	if err != nil {
		t.Fatal(err)
	}
	var e float64
	for i, x := range sol.Final.Q {
		e = math.Max(e, math.Abs(x-p.Ref.Q[i]))
	}
	t.Logf("hht at 1e-7: max error %.3g in %d steps", e, sol.Stats.Steps)
	if e > 5e-4 {
		t.Errorf("hht at tol 1e-7: max error %.3g against the reference, want ≤ 5e-4", e)
	}
	for _, c := range []struct {
		p    StiffChainParams
		want string
	}{{StiffChainParams{N: 0, L: 1, M: 1}, "N = 0"}, {StiffChainParams{N: 2, L: -1, M: 1}, "L = -1"},
		{StiffChainParams{N: 2, L: 1, M: 1, K: math.Inf(1)}, "K = +Inf"}} {
		if _, err := StiffChain(c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("StiffChain(%+v): %v, want an error naming %q", c.p, err, c.want)
		}
	}
}
