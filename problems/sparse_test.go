package problems

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
)

// denseOnly hides the dae.Sparsity capability of a System (and every other optional one
// but those the methods below need), so that the integrators factorize densely.
type denseOnly struct{ dae.System }

// TestSparseKKTPath: on the stiff chain (100 KKT unknowns, dae.Sparsity from planar) the
// explicit methods factorize by linalg.SparseKKT (hedop5's unsymmetric stage matrices by
// linalg.SparseLU): 50 fixed steps give the same state as
// the dense path to rounding (both solve the same equations; measured difference 2e-19),
// and a step allocates nothing.
func TestSparseKKTPath(t *testing.T) {
	p, _ := Get("stiffchain")
	for _, name := range []string{"dopri5", "rk4", "hedop5"} {
		e, _ := integrate.Lookup(name)
		var final [2][]float64
		for k, sys := range []dae.System{p.System, denseOnly{p.System}} {
			m := e.New()
			if err := m.Init(sys, p.Start.Clone(), integrate.StepControl{FixedH: 1e-4}); err != nil {
				t.Fatal(err)
			}
			for range 50 {
				if err := m.Step(1); err != nil {
					t.Fatal(err)
				}
			}
			final[k] = append([]float64(nil), m.Current().Q...)
			if k == 0 {
				if n := testing.AllocsPerRun(10, func() { _ = m.Step(1) }); n != 0 {
					t.Errorf("%s on the sparse path: Step allocates %v times", name, n)
				}
			}
		}
		var d float64
		for i := range final[0] {
			d = math.Max(d, math.Abs(final[0][i]-final[1][i]))
		}
		t.Logf("%s: sparse vs dense after 50 steps: %.2g", name, d)
		if d > 1e-12 {
			t.Errorf("%s: sparse and dense paths differ by %.3g after 50 steps, want rounding", name, d)
		}
	}
}

// analyticNoPattern forwards a System and its analytic first and constraint second
// derivatives but hides dae.Sparsity, so that implicit methods assemble the same Newton
// matrices and factorize them densely (M is constant here: its finite-difference
// derivative is exactly 0).
type analyticNoPattern struct {
	dae.System
	fd dae.ForceDerivative
	cf dae.ConstraintForceDerivative
	gd dae.GammaDerivative
	jd dae.ConstraintJacobianDerivative
}

func (s analyticNoPattern) GammaDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	s.gd.GammaDerivativeQ(dst, t, q, v)
}
func (s analyticNoPattern) GammaDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	s.gd.GammaDerivativeV(dst, t, q, v)
}
func (s analyticNoPattern) ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64) {
	s.jd.ConstraintJacobianDerivative(dst, t, q, w)
}

func (s analyticNoPattern) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	s.fd.ForceDerivativeQ(dst, t, q, v)
}
func (s analyticNoPattern) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	s.fd.ForceDerivativeV(dst, t, q, v)
}
func (s analyticNoPattern) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	s.cf.ConstraintForceDerivative(dst, t, q, lambda)
}

// TestSparseLUPath: HHT, generalized-α (index 3 and stabilized index 2), BDF (GGL) and
// Radau5 (GGL, real and complex matrices) on the stiff chain factorize their Newton
// matrices ([M̂ Gᵀ; G 0], c K − ∂φ/∂y) by linalg.SparseLU and ComplexSparseLU (pattern
// from dae.Sparsity); with error control to t = 0.2 they take the same steps as the dense
// path and end in the same state to rounding, and a step allocates nothing.
func TestSparseLUPath(t *testing.T) {
	p, _ := Get("stiffchain")
	dense := analyticNoPattern{System: p.System, fd: p.System.(dae.ForceDerivative), cf: p.System.(dae.ConstraintForceDerivative),
		gd: p.System.(dae.GammaDerivative), jd: p.System.(dae.ConstraintJacobianDerivative)}
	for _, name := range []string{"hht", "genalpha", "genalpha-si2", "bdf", "radau5"} {
		e, _ := integrate.Lookup(name)
		var final [2]*integrate.Solution
		for k, sys := range []dae.System{p.System, dense} {
			m := e.New()
			sol, err := integrate.Solve(m, name, sys, p.Start.Clone(), 0.2,
				integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-6, ATol: 1e-6}, Output: []float64{0.2}})
			if err != nil {
				t.Fatal(err)
			}
			final[k] = sol
			if k == 0 {
				if n := testing.AllocsPerRun(10, func() { _ = m.Step(1) }); n != 0 {
					t.Errorf("%s on the sparse path: Step allocates %v times", name, n)
				}
			}
		}
		var d float64
		for i := range final[0].Final.Q {
			d = math.Max(d, math.Abs(final[0].Final.Q[i]-final[1].Final.Q[i]))
		}
		t.Logf("%s sparse vs dense: %d and %d steps, max difference %.2g", name, final[0].Stats.Steps, final[1].Stats.Steps, d)
		if final[0].Stats.Steps != final[1].Stats.Steps || d > 1e-10 {
			t.Errorf("%s sparse and dense: %d vs %d steps, states differ by %.3g; want the same run to rounding",
				name, final[0].Stats.Steps, final[1].Stats.Steps, d)
		}
	}
}
