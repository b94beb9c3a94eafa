package dae_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// reducedPoint returns the redundant four-bar, its consistent state and the rows Initialize
// keeps.
func reducedPoint(t *testing.T) (*linkSys, dae.Consistent) {
	t.Helper()
	sys, q := fourBar(2)
	c, err := dae.Initialize(sys, 0, q, []float64{0.4, -0.2, 0.1, 0.3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sys, c
}

// TestReduceCheck: the wrapper's derivatives agree with finite differences, whether the
// inner system has them analytically or not (then the wrapper falls back to FD of the
// inner system).
func TestReduceCheck(t *testing.T) {
	sys, c := reducedPoint(t)
	keep := c.KeptRows()
	lambda := []float64{1.5, -0.7, 2.2}
	p := dae.CheckPoint{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: lambda}
	for name, inner := range map[string]dae.System{"analytic": sys, "bare": bare{sys}} {
		red := dae.Reduce(inner, keep)
		if _, nc := red.Size(); nc != 3 {
			t.Fatalf("%s: reduced nc = %d, want 3", name, nc)
		}
		for capName, ok := range map[string]bool{
			"MassDerivative":            is[dae.MassDerivative](red),
			"ConstraintForceDerivative": is[dae.ConstraintForceDerivative](red),
			"ForceDerivative":           is[dae.ForceDerivative](red),
			"ConstantMass":              is[dae.ConstantMass](red),
			"Namer":                     is[dae.Namer](red),
		} {
			if !ok {
				t.Errorf("%s: Reduce does not implement %s", name, capName)
			}
		}
		// 1e-6: Check's documented tolerance for well-scaled problems.
		ms, err := dae.Check(red, p, 1e-6)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		// Central differences of these quadratic constraints are exact up to rounding:
		// gaps of 1e-9 would mean a wrong row mapping, not truncation.
		for _, m := range ms {
			if m.Gap > 1e-8 {
				t.Errorf("%s: %v", name, m)
			}
		}
	}
	if is[dae.Energy](dae.Reduce(bare{sys}, keep)) {
		t.Errorf("Reduce of a system without Energy implements Energy")
	}
	e, ok := dae.Reduce(sys, keep).(dae.Energy)
	if !ok {
		t.Fatalf("Reduce of a system with Energy lacks Energy")
	}
	k1, p1 := e.Energy(0, c.Q, c.V)
	k2, p2 := sys.Energy(0, c.Q, c.V)
	if k1 != k2 || p1 != p2 {
		t.Errorf("Energy (%g, %g), inner (%g, %g)", k1, p1, k2, p2)
	}
}

func is[T any](x any) bool { _, ok := x.(T); return ok }

// TestReduceRows: every constraint quantity is the inner one on the kept rows, λ maps to
// the full λ with zeros, and names follow the rows.
func TestReduceRows(t *testing.T) {
	sys, c := reducedPoint(t)
	keep := []int{2, 0} // any order: row i of the reduced system is row keep[i]
	red := dae.Reduce(sys, keep)
	full, part := make([]float64, 4), make([]float64, 2)
	for name, eval := range map[string]func(dae.System, []float64){
		"g":     func(s dae.System, d []float64) { s.Constraint(d, 0.3, c.Q) },
		"g_t":   func(s dae.System, d []float64) { s.ConstraintTimeDerivative(d, 0.3, c.Q) },
		"gamma": func(s dae.System, d []float64) { s.Gamma(d, 0.3, c.Q, c.V) },
	} {
		eval(sys, full)
		eval(red, part)
		if part[0] != full[2] || part[1] != full[0] {
			t.Errorf("%s: reduced %v, full %v, keep %v", name, part, full, keep)
		}
	}
	G, Gr := mat.NewDense(4, 4, nil), mat.NewDense(2, 4, nil)
	sys.ConstraintJacobian(G, 0, c.Q)
	red.ConstraintJacobian(Gr, 0, c.Q)
	if !slices.Equal(Gr.RawRowView(0), G.RawRowView(2)) || !slices.Equal(Gr.RawRowView(1), G.RawRowView(0)) {
		t.Errorf("G rows: reduced %v, full %v", mat.Formatted(Gr), mat.Formatted(G))
	}

	// ∂(G_redᵀ λ_red)/∂q = ∂(Gᵀ λ_full)/∂q with λ_full = (−1.5, 0, 2, 0).
	lr := []float64{2, -1.5}
	lf := make([]float64, 4)
	dae.ExpandLambda(lf, lr, keep)
	if !slices.Equal(lf, []float64{-1.5, 0, 2, 0}) {
		t.Errorf("ExpandLambda = %v, want [-1.5 0 2 0]", lf)
	}
	A, B := mat.NewDense(4, 4, nil), mat.NewDense(4, 4, nil)
	red.(dae.ConstraintForceDerivative).ConstraintForceDerivative(A, 0, c.Q, lr)
	sys.ConstraintForceDerivative(B, 0, c.Q, lf)
	if !mat.Equal(A, B) {
		t.Errorf("d(Gᵀλ)/dq: reduced %v, full %v", mat.Formatted(A), mat.Formatted(B))
	}

	if n := dae.ConstraintName(red, 0); n != "rocker" {
		t.Errorf("reduced row 0 is named %q, want rocker (row 2)", n)
	}
	if n := dae.ConstraintName(dae.Reduce(bare{sys}, keep), 0); n != "g[2]" {
		t.Errorf("reduced row 0 without Namer is named %q, want g[2]", n)
	}
	if n := dae.CoordinateName(red, 3); n != "C.y" {
		t.Errorf("coordinate 3 is named %q, want C.y", n)
	}
}

// TestReduceAllocs: evaluations of the wrapper allocate nothing, FD fallbacks included.
func TestReduceAllocs(t *testing.T) {
	sys, c := reducedPoint(t)
	red := dae.Reduce(bare{sys}, c.KeptRows())
	nq, nc := red.Size()
	g := make([]float64, nc)
	G, D := mat.NewDense(nc, nq, nil), mat.NewDense(nq, nq, nil)
	lambda := []float64{1, 2, 3}
	caps := red.(interface {
		dae.MassDerivative
		dae.ConstraintForceDerivative
		dae.ForceDerivative
	})
	n := testing.AllocsPerRun(20, func() {
		red.Constraint(g, 0, c.Q)
		red.ConstraintJacobian(G, 0, c.Q)
		red.ConstraintTimeDerivative(g, 0, c.Q)
		red.Gamma(g, 0, c.Q, c.V)
		caps.MassDerivative(D, 0, c.Q, c.A)
		caps.ConstraintForceDerivative(D, 0, c.Q, lambda)
		caps.ForceDerivativeQ(D, 0, c.Q, c.V)
		caps.ForceDerivativeV(D, 0, c.Q, c.V)
	})
	if n != 0 {
		t.Errorf("reduced system evaluations allocate %v times, want 0", n)
	}
}

func TestReducePanics(t *testing.T) {
	sys, _ := fourBar(2)
	for _, keep := range [][]int{{0, 4}, {1, 1}, {-1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Reduce(keep %v) did not panic", keep)
				}
			}()
			dae.Reduce(sys, keep)
		}()
	}
}

// TestReduceConstantMass: ConstantMass and the zero ∂(M a)/∂q pass through.
func TestReduceConstantMass(t *testing.T) {
	sys, c := reducedPoint(t)
	red := dae.Reduce(sys, c.KeptRows())
	if !red.(dae.ConstantMass).ConstantMass() {
		t.Errorf("ConstantMass of the reduced four-bar is false")
	}
	D := mat.NewDense(4, 4, nil)
	D.Set(1, 1, math.Pi) // must be overwritten
	red.(dae.MassDerivative).MassDerivative(D, 0, c.Q, c.A)
	if mat.Norm(D, math.Inf(1)) != 0 {
		t.Errorf("d(M a)/dq of a constant mass = %v, want 0", mat.Formatted(D))
	}
	if dae.Reduce(bare{sys}, c.KeptRows()).(dae.ConstantMass).ConstantMass() {
		t.Errorf("ConstantMass without the capability is true")
	}
}

// withStates adds one first-order state to a linkSys: X' = −X + q0, acting on the first
// coordinate with the force f_X = (X, 0, …). It has no analytic FirstOrderDerivative.
type withStates struct{ *linkSys }

func (s withStates) StateSize() int { return 1 }
func (s withStates) StateRate(dst []float64, t float64, q, v, x []float64) {
	dst[0] = -x[0] + q[0]
}
func (s withStates) StateForce(dst []float64, t float64, q, v, x []float64) {
	clear(dst)
	dst[0] = x[0]
}

// TestReduceFirstOrder: first-order states survive Reduce (an integrator must still see
// StateSize > 0), and Initialize adds f_X to f in eq. 17.
func TestReduceFirstOrder(t *testing.T) {
	fb, q := fourBar(2)
	sys := withStates{fb}
	red := dae.Reduce(sys, []int{0, 1, 2})
	if dae.StateSize(red) != 1 || !is[dae.FirstOrderDerivative](red) || !is[dae.Energy](red) {
		t.Fatalf("Reduce dropped a capability: StateSize %d, FirstOrderDerivative %v, Energy %v",
			dae.StateSize(red), is[dae.FirstOrderDerivative](red), is[dae.Energy](red))
	}
	p := dae.CheckPoint{Q: q, V: []float64{0.1, 0.2, 0.3, 0.4}}
	// 1e-6: CheckFirstOrder's tolerance as Check's; the wrapper answers by FD of the
	// inner system, which must agree with FD of the wrapper.
	if _, err := dae.CheckFirstOrder(red, p, []float64{0.7}, 1e-6); err != nil {
		t.Error(err)
	}
	dst := make([]float64, 1)
	red.(dae.FirstOrder).StateRate(dst, 0, q, p.V, []float64{0.7})
	if dst[0] != -0.7+q[0] {
		t.Errorf("StateRate = %g, want %g", dst[0], -0.7+q[0])
	}

	ball := withStates{&linkSys{mass: []float64{2}, grav: 9.81, pts: []string{"ball"}}}
	if _, err := dae.Initialize(ball, 0, []float64{0, 0}, []float64{0, 0}, nil); err == nil ||
		!strings.Contains(err.Error(), "1 first-order states") {
		t.Errorf("missing X: error %v, want one asking for X", err)
	}
	c, err := dae.Initialize(ball, 0, []float64{0, 0}, []float64{0, 0}, &dae.InitOptions{X: []float64{3}})
	if err != nil {
		t.Fatal(err)
	}
	// a = (f + f_X)/m = (3/2, −9.81), one rounding of the solve.
	if math.Abs(c.A[0]-1.5) > 1e-15 || math.Abs(c.A[1]+9.81) > 2e-15 {
		t.Errorf("a = %v, want (1.5, −9.81)", c.A)
	}
}

// valuesOnly is a SparseEvaluator without the dense derivative capabilities: Reduce's
// storage-free route must answer them from the pattern values.
type valuesOnly struct {
	dae.System
	dae.SparseEvaluator
}

// TestReduceSparse: Reduce of a large SparseEvaluator (forced here) is one, with the kept
// rows of the pattern; its values agree with its dense methods (dae.CheckSparse) and its
// derivatives with finite differences (dae.Check), and its dense G is the small route's
// bit for bit; an inner system with values only gets its dense derivatives from them. It
// never changes its rows (Rekeep), since integrators fix their sparse patterns at Init;
// Reduce of a small one is a dense Rekeeper instead. (planar's TestReduceLargeChain checks that evaluations do not allocate: the
// values of sparseLink are gathered from dense matrices.)
func TestReduceSparse(t *testing.T) {
	sys, c := reducedPoint(t)
	keep := c.KeptRows()
	lambda := []float64{1.5, -0.7, 2.2}
	p := dae.CheckPoint{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: lambda}
	inner := sparseLink{sys}
	small := dae.Reduce(inner, keep)
	if is[dae.SparseEvaluator](small) || !is[dae.Rekeeper](small) {
		t.Errorf("small: Reduce of a small SparseEvaluator should be a dense Rekeeper")
	}
	for name, red := range map[string]dae.System{
		"large":              dae.ReduceLarge(inner, keep),
		"large, values only": dae.ReduceLarge(valuesOnly{sys, inner}, keep),
	} {
		se, ok := red.(dae.SparseEvaluator)
		if !ok {
			t.Fatalf("%s: Reduce of a SparseEvaluator is not one", name)
		}
		if _, _, changed := red.(dae.Rekeeper).Rekeep(0, c.Q); changed {
			t.Errorf("%s: a large reduced system changed its rows", name)
		}
		if !is[dae.Energy](red) && name != "large, values only" {
			t.Errorf("%s: Reduce of a system with Energy lacks it", name)
		}
		pat := se.ConstraintPattern()
		for k, i := range keep {
			if !slices.Equal(pat[k], inner.ConstraintPattern()[i]) {
				t.Errorf("%s: pattern row %d = %v, want inner row %d = %v", name, k, pat[k], i, inner.ConstraintPattern()[i])
			}
		}
		if err := dae.CheckSparse(red, p); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		ms, err := dae.Check(red, p, 1e-6)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		for _, m := range ms {
			if m.Gap > 1e-8 { // as TestReduceCheck: quadratic constraints, exact differences
				t.Errorf("%s: %v", name, m)
			}
		}
		nq, nc := red.Size()
		G, Gs := mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil)
		red.ConstraintJacobian(G, 0.1, c.Q)
		small.ConstraintJacobian(Gs, 0.1, c.Q)
		if !mat.Equal(G, Gs) {
			t.Errorf("%s: dense G %v, small route's %v", name, mat.Formatted(G), mat.Formatted(Gs))
		}
	}
}
