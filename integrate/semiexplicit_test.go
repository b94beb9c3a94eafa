package integrate

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

var allFirstOrderForms = []Formulation{Index3, Index2, StabilizedIndex2, Index1, Baumgarte, Index2Baumgarte}

// TestSemiExplicitResidualVanishesOnSolution: at a consistent state every formulation's
// φ has zero algebraic rows (the differential rows are q' and v').
func TestSemiExplicitResidualVanishesOnSolution(t *testing.T) {
	dp := newDrivenPendulum(1, 1, 9.81, 0.2, 3) // rheonomic: g_t ≠ 0
	ch := newChain(4, 1, 0.5, 9.81)
	for _, c := range []struct {
		name string
		sys  dae.System
		st   State
	}{{"driven pendulum", dp, pendulumStart(dp, 0.7, 0.3)}, {"chain4", ch, chainStart(ch, []float64{0.3, -0.2, 0.5, 0.1})}} {
		for _, f := range allFirstOrderForms {
			se, err := newSemiExplicit(c.sys, f, false)
			if err != nil {
				t.Fatal(err)
			}
			se.baumAlpha, se.baumBeta, se.alpha0 = 5, 20, 50
			y := make([]float64, se.n)
			phi := make([]float64, se.n)
			se.pack(y, &c.st)
			se.residual(phi, c.st.T, y)
			// Rounding level of the rows: |f| and |M a| ≈ 10-100 (1e-13); constraints of
			// O(1) quantities (1e-14).
			for i := 2 * se.nq; i < se.n; i++ {
				if math.Abs(phi[i]) > 1e-12 {
					t.Errorf("%s %s: φ[%d] = %.3g at a consistent state, want 0", c.name, f, i, phi[i])
				}
			}
		}
	}
}

// withSecond gives a System the constraint second-derivative capabilities
// (dae.ConstraintJacobianDerivative, dae.GammaDerivative), computed by dae.SecondDerivatives
// from G and γ, so that semiExplicit takes its second-derivative route for the
// constraint rows instead of differencing the rows themselves.
type withSecond struct {
	dae.System
	sd *dae.SecondDerivatives
}

func newWithSecond(sys dae.System) withSecond {
	return withSecond{System: sys, sd: dae.NewSecondDerivatives(sys)}
}

func (s withSecond) ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64) {
	s.sd.ConstraintJacobianDerivative(dst, t, q, w)
}
func (s withSecond) GammaDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	s.sd.GammaDerivativeQ(dst, t, q, v)
}
func (s withSecond) GammaDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	s.sd.GammaDerivativeV(dst, t, q, v)
}

// TestSemiExplicitJacobian compares ∂φ/∂y with central differences of φ at a generic
// (inconsistent) point, for every formulation, with the constraint rows differentiated
// by differences of the rows and through the constraint second derivatives (withSecond;
// the driven pendulum is rheonomic, which checks the G_t part of −γ_v/2).
func TestSemiExplicitJacobian(t *testing.T) {
	dp := newDrivenPendulum(1, 1, 9.81, 0.2, 3)
	ch := newChain(3, 1, 0.5, 9.81)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sys := range []dae.System{dp, ch, newWithSecond(dp), newWithSecond(ch)} {
		_, second := sys.(withSecond)
		for _, f := range allFirstOrderForms {
			se, _ := newSemiExplicit(sys, f, false)
			if (se.second != nil) != second {
				t.Fatalf("%T %s: second-derivative route %v, want %v", sys, f, se.second != nil, second)
			}
			se.baumAlpha, se.baumBeta, se.alpha0 = 5, 20, 50
			y := make([]float64, se.n)
			for i := range y {
				y[i] = rng.NormFloat64()
			}
			tm := 0.37
			J := mat.NewDense(se.n, se.n, nil)
			se.jacobian(J, tm, y)
			// Row evaluations spent on differences: none on the second-derivative route or
			// for index3 (∂g/∂q = G); 2 per column of q (and of v for the acceleration forms).
			want := 0
			if !second && f != Index3 {
				want = 2 * se.nq
				if f == Index1 || f == Baumgarte {
					want *= 2
				}
			}
			if se.rowEvals != want {
				t.Errorf("%T %s: %d row evaluations counted, want %d", sys, f, se.rowEvals, want)
			}
			fd := mat.NewDense(se.n, se.n, nil)
			yp := append([]float64(nil), y...)
			pp, pm := make([]float64, se.n), make([]float64, se.n)
			for j := range se.n {
				h := 1e-6 * math.Max(1, math.Abs(y[j]))
				yp[j] = y[j] + h
				se.residual(pp, tm, yp)
				yp[j] = y[j] - h
				se.residual(pm, tm, yp)
				yp[j] = y[j]
				for i := range se.n {
					fd.Set(i, j, (pp[i]-pm[i])/(2*h))
				}
			}
			var worst, scale float64
			for i := range se.n {
				for j := range se.n {
					worst = math.Max(worst, math.Abs(J.At(i, j)-fd.At(i, j)))
					scale = math.Max(scale, math.Abs(fd.At(i, j)))
				}
			}
			// Central differences of φ with h = 1e-6 are accurate to about 1e-8 relative;
			// the FD rows inside jacobian add the same order.
			if worst > 1e-6*scale {
				t.Errorf("%T %s (second derivatives %v): max |J − FD| = %.3g (scale %.3g)", sys, f, second, worst, scale)
			}
		}
	}
}

func TestSemiExplicitIndexAndSize(t *testing.T) {
	ch := newChain(2, 1, 1, 9.81) // nq = 4, nc = 2
	for _, c := range []struct {
		f    Formulation
		n    int
		idxA int // index of the a block
		idxV int
	}{{Index3, 14, 3, 2}, {Index2, 14, 2, 1}, {StabilizedIndex2, 16, 2, 1}, {Index1, 14, 1, 1}} {
		se, _ := newSemiExplicit(ch, c.f, false)
		if se.n != c.n || se.index(2*se.nq) != c.idxA || se.index(se.nq) != c.idxV || se.index(0) != 1 {
			t.Errorf("%s: n=%d index(a)=%d index(v)=%d, want %d, %d, %d", c.f, se.n, se.index(2*se.nq), se.index(se.nq), c.n, c.idxA, c.idxV)
		}
	}
	if _, err := newSemiExplicit(ch, Index1Projected, false); err == nil {
		t.Error("index1-proj has no first-order form, want an error")
	}
}
