package problems

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// liePoint is a state off the start of the top: a general rotation, velocities and
// multipliers of both signs, so that every block of B, γ, K_t and C_t is exercised.
func liePoint() dae.LieCheckPoint {
	return dae.LieCheckPoint{T: 0.3,
		Q:      []float64{0.1, 0.2, -0.3, 0.5, 0.5, -0.5, 0.5},
		V:      []float64{0.4, -1.1, 0.7, 1.3, -0.6, 2.1},
		VDot:   []float64{0.2, 0.9, -1.4, -0.3, 0.8, 0.5},
		Lambda: []float64{3.1, -2.2, 40.5}}
}

// TestLieHeavyTopDerivatives: B, γ, K_t and C_t of both tops against central differences
// along q∘exp(εw) (dae.CheckLie).
func TestLieHeavyTopDerivatives(t *testing.T) {
	for _, h := range []HeavyTop{DefaultHeavyTop(), FastHeavyTop()} {
		ms, err := dae.CheckLie(h.Lie(), liePoint(), 1e-7)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != 7 {
			t.Errorf("CheckLie compared %d quantities, want 7 (B, Φ_t, γ, d(B v), M, K_t, C_t)", len(ms))
		}
		for _, m := range ms {
			if m.Gap > 1e-7 {
				t.Errorf("%v", m)
			}
		}
	}
}

// wrongStiffness drops the λ term of K_t: CheckLie must name K_t.
type wrongStiffness struct{ LieHeavyTop }

func (w wrongStiffness) Stiffness(dst *mat.Dense, t float64, q, v, vdot, lambda []float64) {
	dst.Zero()
}

// wrongGamma flips the sign of γ: CheckLie must name gamma.
type wrongGamma struct{ LieHeavyTop }

func (w wrongGamma) Gamma(dst []float64, t float64, q, v []float64) {
	w.LieHeavyTop.Gamma(dst, t, q, v)
	for i := range dst {
		dst[i] = -dst[i]
	}
}

func TestCheckLieNamesWrongDerivative(t *testing.T) {
	top := DefaultHeavyTop().Lie()
	for _, c := range []struct {
		sys  dae.LieSystem
		name string
	}{{wrongStiffness{top}, "K_t"}, {wrongGamma{top}, "gamma"}} {
		_, err := dae.CheckLie(c.sys, liePoint(), 1e-7)
		if err == nil || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%T: error %v, want one naming %s", c.sys, err, c.name)
		}
	}
}

// TestLieHeavyTopStart: the start lies on the constraint manifold (Φ = 0, B v = 0) and on
// the Euler-parameter top's start (same x, p; u = ẋ).
func TestLieHeavyTopStart(t *testing.T) {
	for _, h := range []HeavyTop{DefaultHeavyTop(), FastHeavyTop()} {
		s, err := h.Lie().Start()
		if err != nil {
			t.Fatal(err)
		}
		e, _ := h.Start()
		for i := range 7 {
			if d := math.Abs(s.Q[i] - e.Q[i]); d > 1e-15 {
				t.Errorf("q[%d] = %g, Euler-parameter start %g", i, s.Q[i], e.Q[i])
			}
		}
		for i := range 3 {
			if d := math.Abs(s.V[i] - e.V[i]); d > 1e-14 {
				t.Errorf("u[%d] = %g, Euler-parameter ẋ %g", i, s.V[i], e.V[i])
			}
		}
		phi := make([]float64, 3)
		h.Lie().Constraint(phi, 0, s.Q)
		b := mat.NewDense(3, 6, nil)
		h.Lie().ConstraintJacobian(b, 0, s.Q)
		bv := mat.NewVecDense(3, nil)
		bv.MulVec(b, mat.NewVecDense(6, s.V))
		for i := range 3 {
			if math.Abs(phi[i]) > 1e-15 || math.Abs(bv.AtVec(i)) > 1e-13 {
				t.Errorf("start: Φ[%d] = %g, (B v)[%d] = %g", i, phi[i], i, bv.AtVec(i))
			}
		}
	}
}

// TestLieChain3DDerivatives: B, γ, d(B v), K_t and C_t of the Lie-group chain against
// central differences along q∘exp(εw), at a general state of three rods.
func TestLieChain3DDerivatives(t *testing.T) {
	c, err := NewLieChain3D(3)
	if err != nil {
		t.Fatal(err)
	}
	p := dae.LieCheckPoint{T: 0.1, Q: make([]float64, 21), V: make([]float64, 18), VDot: make([]float64, 18), Lambda: make([]float64, 9)}
	for k := range 3 {
		f := float64(k + 1)
		copy(p.Q[7*k:], []float64{0.3 * f, -0.2, 0.1 * f, 0.5, 0.5, -0.5, 0.5})
		if k == 1 {
			copy(p.Q[7*k+3:], []float64{0.8, 0.36, -0.48, 0})
		}
		copy(p.V[6*k:], []float64{0.4, -1.1 * f, 0.7, 1.3, -0.6 * f, 2.1})
		copy(p.VDot[6*k:], []float64{0.2, 0.9, -1.4 * f, -0.3, 0.8, 0.5})
		copy(p.Lambda[3*k:], []float64{3.1 * f, -2.2, 10.5})
	}
	if _, err := dae.CheckLie(c, p, 1e-7); err != nil {
		t.Fatal(err)
	}
	if _, err := NewLieChain3D(0); err == nil {
		t.Error("NewLieChain3D(0): no error")
	}
}
