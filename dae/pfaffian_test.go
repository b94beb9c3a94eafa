package dae_test

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// unicycle is a planar body q = (x, y, θ) with M = diag(2, 2, 0.3), no forces and no
// position constraints, and one Pfaffian row that makes its sideways speed a given
// function of t and x: A v + b = −sin θ ẋ + cos θ ẏ + 0.2 x + 0.1 t = 0, so that b_q and b_t
// are both exercised. wrongGamma flips the sign of γ_A's (A v)_q v term.
type unicycle struct{ wrongGamma bool }

func (unicycle) Size() (int, int) { return 3, 0 }
func (unicycle) Mass(dst *mat.Dense, _ float64, _ []float64) {
	dst.Zero()
	dst.Set(0, 0, 2)
	dst.Set(1, 1, 2)
	dst.Set(2, 2, 0.3)
}
func (unicycle) Force(dst []float64, _ float64, _, _ []float64)         { clear(dst) }
func (unicycle) Constraint([]float64, float64, []float64)               {}
func (unicycle) ConstraintJacobian(*mat.Dense, float64, []float64)      {}
func (unicycle) ConstraintTimeDerivative([]float64, float64, []float64) {}
func (unicycle) Gamma([]float64, float64, []float64, []float64)         {}
func (unicycle) NumPfaffian() int                                       { return 1 }
func (unicycle) PfaffianName(int) string                                { return "blade" }
func (unicycle) Pfaffian(A *mat.Dense, b []float64, t float64, q []float64) {
	A.Set(0, 0, -math.Sin(q[2]))
	A.Set(0, 1, math.Cos(q[2]))
	A.Set(0, 2, 0)
	b[0] = 0.2*q[0] + 0.1*t
}

// PfaffianGamma: −(A v)_q v − b_q v − b_t = θ̇(cos θ ẋ + sin θ ẏ) − 0.2 ẋ − 0.1.
func (u unicycle) PfaffianGamma(dst []float64, _ float64, q, v []float64) {
	s := 1.0
	if u.wrongGamma {
		s = -1
	}
	dst[0] = s*v[2]*(math.Cos(q[2])*v[0]+math.Sin(q[2])*v[1]) - 0.2*v[0] - 0.1
}
func (unicycle) PfaffianRateDerivative(dst *mat.Dense, _ float64, q, v []float64) {
	dst.Set(0, 0, 0.2)
	dst.Set(0, 1, 0)
	dst.Set(0, 2, -math.Cos(q[2])*v[0]-math.Sin(q[2])*v[1])
}
func (unicycle) PfaffianForceDerivative(dst *mat.Dense, _ float64, q, mu []float64) {
	dst.Zero()
	dst.Set(0, 2, -mu[0]*math.Cos(q[2]))
	dst.Set(1, 2, -mu[0]*math.Sin(q[2]))
}

// TestPfaffianCheck: Check compares ∂(A v + b)/∂q, ∂(Aᵀμ)/∂q and γ_A with differences and
// names γ_A when it is wrong.
func TestPfaffianCheck(t *testing.T) {
	p := dae.CheckPoint{T: 0.7, Q: []float64{0.3, -0.2, 0.9}, V: []float64{1.1, -0.4, 0.8}}
	ms, err := dae.Check(unicycle{}, p, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 3 {
		t.Errorf("Check compared %d quantities, want at least the 3 Pfaffian ones", len(ms))
	}
	_, err = dae.Check(unicycle{wrongGamma: true}, p, 1e-6)
	if err == nil || !strings.Contains(err.Error(), "gamma_A") {
		t.Errorf("Check with a wrong γ_A: %v, want an error naming gamma_A", err)
	}
}

// TestPfaffianInitialize: Initialize makes a guess consistent with A v + b = 0, returns μ
// after λ with A a = γ_A, and WithPfaffianRows names the row.
func TestPfaffianInitialize(t *testing.T) {
	sys := unicycle{}
	c, err := dae.Initialize(sys, 0.5, []float64{0.3, 0, 0.4}, []float64{1, 1, 0.5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Lambda) != 1 {
		t.Fatalf("len(Lambda) = %d, want nc + nn = 1", len(c.Lambda))
	}
	A, b, g := mat.NewDense(1, 3, nil), make([]float64, 1), make([]float64, 1)
	sys.Pfaffian(A, b, 0.5, c.Q)
	sys.PfaffianGamma(g, 0.5, c.Q, c.V)
	av := mat.Dot(A.RowView(0), mat.NewVecDense(3, c.V)) + b[0]
	aa := mat.Dot(A.RowView(0), mat.NewVecDense(3, c.A)) - g[0]
	if math.Abs(av) > 1e-12 || math.Abs(aa) > 1e-12 {
		t.Errorf("A v + b = %.3g, A a − γ_A = %.3g after Initialize, want 0", av, aa)
	}
	// M a = −Aᵀμ: the reaction alone accelerates the body.
	if r := 2*c.A[0] + A.At(0, 0)*c.Lambda[0]; math.Abs(r) > 1e-12 {
		t.Errorf("M a + Aᵀμ = %.3g in x, want 0", r)
	}
	w := dae.WithPfaffianRows(sys)
	if _, nc := w.Size(); nc != 1 || dae.ConstraintName(w, 0) != "blade" {
		t.Errorf("WithPfaffianRows: nc = %d, row named %q; want 1, \"blade\"", nc, dae.ConstraintName(w, 0))
	}
	if ls := (&linkSys{mass: []float64{1}}); dae.WithPfaffianRows(ls) != dae.System(ls) {
		t.Error("WithPfaffianRows of a system without Pfaffian rows wraps it, want the system itself")
	}
}

// solvingUnicycle is the unicycle with M⁻¹ b (MassSolver; M is diagonal 2, 2, 0.3).
type solvingUnicycle struct{ unicycle }

func (solvingUnicycle) MassSolve(x []float64, _ float64, _, b []float64) {
	x[0], x[1], x[2] = b[0]/2, b[1]/2, b[2]/0.3
}

// multiplyingUnicycle is the unicycle with M x (MassMultiplier).
type multiplyingUnicycle struct{ unicycle }

func (multiplyingUnicycle) MassMul(dst []float64, _ float64, _, x []float64) {
	dst[0], dst[1], dst[2] = 2*x[0], 2*x[1], 0.3*x[2]
}

// bothUnicycle has both capabilities.
type bothUnicycle struct{ solvingUnicycle }

func (bothUnicycle) MassMul(dst []float64, t float64, q, x []float64) {
	multiplyingUnicycle{}.MassMul(dst, t, q, x)
}

// TestPfaffianRowsKeepMassCapabilities: WithPfaffianRows carries MassSolver and
// MassMultiplier exactly when the wrapped system has them, and forwards them unchanged
// (M does not see the Pfaffian rows); its other capabilities stay.
func TestPfaffianRowsKeepMassCapabilities(t *testing.T) {
	for _, c := range []struct {
		sys                dae.System
		solves, multiplies bool
	}{
		{unicycle{}, false, false},
		{solvingUnicycle{}, true, false},
		{multiplyingUnicycle{}, false, true},
		{bothUnicycle{}, true, true},
	} {
		p := dae.WithPfaffianRows(c.sys)
		ms, solves := p.(dae.MassSolver)
		mm, multiplies := p.(dae.MassMultiplier)
		if solves != c.solves || multiplies != c.multiplies {
			t.Errorf("%T: MassSolver %v, MassMultiplier %v; want %v, %v", c.sys, solves, multiplies, c.solves, c.multiplies)
		}
		if _, ok := p.(dae.PfaffianRows); !ok || dae.ConstraintName(p, 0) != "blade" {
			t.Errorf("%T: the wrapper lost PfaffianRows or the row's name (%q)", c.sys, dae.ConstraintName(p, 0))
		}
		x, b := make([]float64, 3), []float64{1, -2, 3}
		if solves {
			if ms.MassSolve(x, 0, nil, b); x[0] != 0.5 || x[1] != -1 || math.Abs(x[2]-10) > 1e-14 {
				t.Errorf("%T: MassSolve(%v) = %v, want [0.5 -1 10]", c.sys, b, x)
			}
		}
		if multiplies {
			if mm.MassMul(x, 0, nil, b); x[0] != 2 || x[1] != -4 || math.Abs(x[2]-0.9) > 1e-15 {
				t.Errorf("%T: MassMul(%v) = %v, want [2 -4 0.9]", c.sys, b, x)
			}
		}
	}
}
