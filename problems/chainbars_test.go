package problems

import (
	"math"
	"strings"
	"testing"

	"linkage/integrate"
)

// solveSized runs method (at its first formulation) on the problem name at tol and returns
// the problem and the scd of the final q.
func solveSized(t *testing.T, name, method string, tol float64) (Problem, float64) {
	t.Helper()
	p, err := Get(name)
	if err != nil {
		t.Fatal(err)
	}
	e, err := integrate.Lookup(method)
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.NewMethod("")
	if err != nil {
		t.Fatal(err)
	}
	sol, err := integrate.Solve(m, e.Name, p.System, p.Start.Clone(), p.TEnd,
		integrate.SolveOptions{Control: integrate.StepControl{RTol: tol, ATol: tol}, Output: []float64{p.TEnd}})
	if err != nil {
		t.Fatalf("%s with %s: %v", name, method, err)
	}
	if res := sol.MaxResidual.Pos; !(res < 1e-7) {
		t.Errorf("%s with %s: max |g| = %.2g, want < 1e-7", name, method, res)
	}
	return p, p.Ref.SCD(sol.Final.Q)
}

// TestChainBarsSolve: the bar and rod chains with N = 3 and 10 solve with hht and dopri5 at
// the problems' tolerance 1e-6 to their references. Bounds: about 0.25 below the scd
// measured (hht 1.74-2.87, dopri5 3.47-5.13, the larger N the higher; HHT is of second
// order and the chain whips through the vertical), so that a wrong model, start or
// reference (scd below 1) fails.
func TestChainBarsSolve(t *testing.T) {
	for _, c := range []struct {
		name, method string
		min          float64
	}{
		{"chain-bars:3", "hht", 1.5}, {"chain-bars:3", "dopri5", 3.5},
		{"chain-bars:10", "hht", 2.6}, {"chain-bars:10", "dopri5", 4.8},
		{"chain3d:3", "hht", 1.5}, {"chain3d:3", "dopri5", 3.2},
		{"chain3d:10", "hht", 2.3}, {"chain3d:10", "dopri5", 4.5},
	} {
		t.Run(c.name+"/"+c.method, func(t *testing.T) {
			p, scd := solveSized(t, c.name, c.method, 1e-6)
			t.Logf("scd %.2f (%s)", scd, p.Ref.Source)
			if !(scd >= c.min) {
				t.Errorf("scd %.2f, want ≥ %.2f", scd, c.min)
			}
		})
	}
}

// TestChainBarsReference: the references (an ODE in bar angles, independent of the
// DAE) agree with radau5 at tol 1e-11 on the DAE to 9 digits (measured scd 9.40 for the
// bars, 9.05 for the rods); a wrong term in the ODE or a wrong map to the rods' coordinates
// would leave 1 or 2. Their RK4 error estimate is below 1e-12.
func TestChainBarsReference(t *testing.T) {
	for _, name := range []string{"chain-bars:3", "chain3d:3"} {
		p, scd := solveSized(t, name, "radau5", 1e-11)
		if !(scd >= 8.5) {
			t.Errorf("%s: radau5 at 1e-11 has scd %.2f against the reference, want ≥ 8.5 (%s)", name, scd, p.Ref.Source)
		}
	}
}

// TestSizedProblems: sizes, names, the limit of the reference, and bad N refused with a
// message naming the name, the bad size and the range.
func TestSizedProblems(t *testing.T) {
	for _, c := range []struct {
		name   string
		nq, nc int
	}{{"chain-bars:1", 3, 2}, {"chain-bars:21", 63, 42}, {"chain3d:2", 14, 8}, {"chain3d:21", 147, 84}} {
		p, err := Get(c.name)
		if err != nil {
			t.Fatal(err)
		}
		nq, nc := p.System.Size()
		if p.Name != c.name || nq != c.nq || nc != c.nc || len(p.Start.Q) != nq {
			t.Errorf("%s: name %q, nq %d, nc %d; want nq %d, nc %d", c.name, p.Name, nq, nc, c.nq, c.nc)
		}
		if wantRef := nq <= 3*maxChainRefN || nq == 14; (p.Ref.Q != nil) != wantRef {
			t.Errorf("%s: reference %v, want one: %v", c.name, p.Ref.Q != nil, wantRef)
		}
		if p.Ref.Q == nil && !strings.Contains(p.Ref.Source, "none: ") {
			t.Errorf("%s: no reference, but its source %q does not say so", c.name, p.Ref.Source)
		}
		if math.Abs(p.TEnd-1) > 0 {
			t.Errorf("%s: t_end %g, want 1", c.name, p.TEnd)
		}
	}
	for name, want := range map[string]string{
		"pendulum4":        `chain-bars:N (1 ≤ N ≤ 10000), chain3d:N (1 ≤ N ≤ 10000)`,
		"chain-bars:0":     `"chain-bars:0": N = "0"; want a whole number of bodies in [1, 10000], as in "chain-bars:10"`,
		"chain-bars:10001": `N = "10001"; want a whole number of bodies in [1, 10000]`,
		"chain-bars:ten":   `N = "ten"; want a whole number`,
		"chain-bars:":      `N = ""; want a whole number`,
		"chain-bars:2.5":   `N = "2.5"; want a whole number`,
		"chain3d:10001":    `"chain3d:10001": N = "10001"; want a whole number of bodies in [1, 10000], as in "chain3d:10"`,
		"chain3d:-1":       `N = "-1"`,
		"chains:3":         `unknown problem family "chains" in "chains:3"; the sized problems are chain-bars:N (1 ≤ N ≤ 10000) and chain3d:N (1 ≤ N ≤ 10000)`,
		"pendulum3":        `unknown problem "pendulum3"; valid names: pendulum`,
		"pendulum:3":       `unknown problem family "pendulum" in "pendulum:3"`,
	} {
		if _, err := Get(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Get(%q): %v, want an error containing %s", name, err, want)
		}
	}
}
