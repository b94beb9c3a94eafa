package dae_test

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// curved has three coordinates and two nonlinear constraints, one rheonomic with G_t ≠ 0,
// and writes out its second derivatives by hand:
//
//	g0 = q0² q1 + sin q2 − 0.3 sin 2t,    g1 = q0 q2 − q1³ + t q1,
//	γ0 = −2 q1 v0² − 4 q0 v0 v1 + sin q2 v2² − 1.2 sin 2t,
//	γ1 = −2 v0 v2 + 6 q1 v1² − 2 v1.
//
// M = I and f = 0. bug names one derivative to falsify by adding 0.1 to one entry.
type curved struct{ bug string }

func (curved) Size() (int, int) { return 3, 2 }

func (curved) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for i := range 3 {
		dst.Set(i, i, 1)
	}
}

func (curved) Force(dst []float64, t float64, q, v []float64) { clear(dst) }

func (curved) Constraint(dst []float64, t float64, q []float64) {
	dst[0] = q[0]*q[0]*q[1] + math.Sin(q[2]) - 0.3*math.Sin(2*t)
	dst[1] = q[0]*q[2] - q[1]*q[1]*q[1] + t*q[1]
}

func (curved) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.SetRow(0, []float64{2 * q[0] * q[1], q[0] * q[0], math.Cos(q[2])})
	dst.SetRow(1, []float64{q[2], -3*q[1]*q[1] + t, q[0]})
}

func (curved) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	dst[0] = -0.6 * math.Cos(2*t)
	dst[1] = q[1]
}

func (curved) Gamma(dst []float64, t float64, q, v []float64) {
	dst[0] = -2*q[1]*v[0]*v[0] - 4*q[0]*v[0]*v[1] + math.Sin(q[2])*v[2]*v[2] - 1.2*math.Sin(2*t)
	dst[1] = -2*v[0]*v[2] + 6*q[1]*v[1]*v[1] - 2*v[1]
}

// ConstraintJacobianDerivative writes ∂(G w)/∂q.
func (c curved) ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64) {
	dst.SetRow(0, []float64{2*q[1]*w[0] + 2*q[0]*w[1], 2 * q[0] * w[0], -math.Sin(q[2]) * w[2]})
	dst.SetRow(1, []float64{w[2], -6 * q[1] * w[1], w[0]})
	if c.bug == "Gw" {
		dst.Set(1, 1, dst.At(1, 1)+0.1)
	}
}

func (c curved) GammaDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	dst.SetRow(0, []float64{-4 * v[0] * v[1], -2 * v[0] * v[0], math.Cos(q[2]) * v[2] * v[2]})
	dst.SetRow(1, []float64{0, 6 * v[1] * v[1], 0})
	if c.bug == "gq" {
		dst.Set(0, 2, dst.At(0, 2)+0.1)
	}
}

func (c curved) GammaDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	dst.SetRow(0, []float64{-4*q[1]*v[0] - 4*q[0]*v[1], -4 * q[0] * v[0], 2 * math.Sin(q[2]) * v[2]})
	dst.SetRow(1, []float64{-2 * v[2], 12*q[1]*v[1] - 2, -2 * v[0]})
	if c.bug == "gv" {
		dst.Set(1, 0, dst.At(1, 0)+0.1)
	}
}

var curvedPoint = dae.CheckPoint{T: 0.37, Q: []float64{0.8, -0.6, 1.1}, V: []float64{0.5, 1.3, -0.7}, A: []float64{-2, 0.4, 3}}

// TestCheckSecondDerivatives: Check compares the second-derivative capabilities and names
// a falsified one.
func TestCheckSecondDerivatives(t *testing.T) {
	// 1e-6: central differences are accurate to ~1e-10 relative here (dae.Check's doc).
	out, err := dae.Check(curved{}, curvedPoint, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range out {
		seen[m.Quantity] = true
	}
	for _, q := range []string{"d(G w)/dq", "d gamma/dq", "d gamma/dv"} {
		if !seen[q] {
			t.Errorf("Check did not compare %s", q)
		}
	}
	for bug, name := range map[string]string{"Gw": "d(G w)/dq", "gq": "d gamma/dq", "gv": "d gamma/dv"} {
		_, err := dae.Check(curved{bug: bug}, curvedPoint, 1e-6)
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("falsified %s: error %v, want one naming %q", bug, err, name)
		}
	}
}

// TestSecondDerivativesFallback: the finite-difference fallbacks agree with the analytic
// derivatives, and the identity ∂γ/∂v = −2 ∂(G v)/∂q − 2 G_t holds (G_t = ∂g_t/∂q).
func TestSecondDerivativesFallback(t *testing.T) {
	p := curvedPoint
	an := dae.NewSecondDerivatives(curved{})
	fd := dae.NewSecondDerivatives(bare{curved{}})
	if !an.AnalyticGamma() || !an.AnalyticConstraintJacobian() || fd.AnalyticGamma() || fd.AnalyticConstraintJacobian() {
		t.Fatal("capability discovery wrong")
	}
	a, b := mat.NewDense(2, 3, nil), mat.NewDense(2, 3, nil)
	gap := func(name string) {
		var d mat.Dense
		d.Sub(a, b)
		// Central differences with h = ε^(1/3): truncation and rounding ≈ 1e-10 on O(1) entries.
		if g := mat.Norm(&d, math.Inf(1)); g > 1e-8 {
			t.Errorf("%s: finite differences differ by %.2g, want ≤ 1e-8", name, g)
		}
	}
	an.ConstraintJacobianDerivative(a, p.T, p.Q, p.A)
	fd.ConstraintJacobianDerivative(b, p.T, p.Q, p.A)
	gap("d(G w)/dq")
	an.GammaDerivativeQ(a, p.T, p.Q, p.V)
	fd.GammaDerivativeQ(b, p.T, p.Q, p.V)
	gap("d gamma/dq")
	an.GammaDerivativeV(a, p.T, p.Q, p.V)
	fd.GammaDerivativeV(b, p.T, p.Q, p.V)
	gap("d gamma/dv")
	if fd.Evals != 3*2*3 {
		t.Errorf("fallbacks used %d evaluations, want 18 (2 per coordinate per quantity)", fd.Evals)
	}

	// Identity: ∂γ/∂v + 2 ∂(G v)/∂q = −2 G_t, with G_t = ∂g_t/∂q = [0 0 0; 0 1 0] here.
	an.GammaDerivativeV(a, p.T, p.Q, p.V)
	an.ConstraintJacobianDerivative(b, p.T, p.Q, p.V)
	for i := range 2 {
		for j := range 3 {
			want := 0.0
			if i == 1 && j == 1 {
				want = -2
			}
			if got := a.At(i, j) + 2*b.At(i, j); math.Abs(got-want) > 1e-14 {
				t.Errorf("(dγ/dv + 2 d(Gv)/dq)[%d,%d] = %g, want %g", i, j, got, want)
			}
		}
	}
	if n := testing.AllocsPerRun(10, func() {
		fd.ConstraintJacobianDerivative(b, p.T, p.Q, p.A)
		fd.GammaDerivativeQ(b, p.T, p.Q, p.V)
		fd.GammaDerivativeV(b, p.T, p.Q, p.V)
	}); n != 0 {
		t.Errorf("fallbacks allocate %v times, want 0", n)
	}
}
