package dae

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// massPair is y' = ... with K(y) = [1 + y₁²  y₀; y₀  2] and φ = (1, −y₀): a small full,
// state-dependent K with ∂(K z)/∂y = [z₁  2y₁z₀; z₀  0]; wrong flips one entry's sign.
type massPair struct{ wrong bool }

func (massPair) Dim() int               { return 2 }
func (massPair) MassDiagonal([]float64) {}
func (massPair) Indices(dst []int)      { dst[0], dst[1] = 1, 1 }
func (massPair) ConstantMass() bool     { return false }
func (massPair) Rhs(dst []float64, t float64, y []float64) {
	dst[0], dst[1] = 1, -y[0]
}
func (massPair) Mass(dst *mat.Dense, t float64, y []float64) {
	dst.Set(0, 0, 1+y[1]*y[1])
	dst.Set(0, 1, y[0])
	dst.Set(1, 0, y[0])
	dst.Set(1, 1, 2)
}
func (m massPair) MassProductJacobian(dst *mat.Dense, t float64, y, z []float64) {
	dst.Set(0, 0, z[1])
	dst.Set(0, 1, 2*y[1]*z[0])
	dst.Set(1, 0, z[0])
	dst.Set(1, 1, 0)
	if m.wrong {
		dst.Set(0, 1, -2*y[1]*z[0])
	}
}

// TestCheckImplicitMass: the right ∂(K z)/∂y passes, a wrong entry is named, and
// CheckLinearlyImplicit measures K(t₀, y₀) y'₀ − φ with the full K, naming the equation.
func TestCheckImplicitMass(t *testing.T) {
	y, z := []float64{0.5, -1.5}, []float64{2, 0.25}
	if err := CheckImplicitMass(massPair{}, 0, y, z, 1e-6); err != nil {
		t.Errorf("right derivative: %v", err)
	}
	err := CheckImplicitMass(massPair{wrong: true}, 0, y, z, 1e-6)
	if err == nil || !strings.Contains(err.Error(), "∂(K z)/∂y[0][1]") {
		t.Errorf("wrong derivative: err = %v, want it to name entry [0][1]", err)
	}
	// K y' = φ at y = (0.5, −1.5): [3.25 0.5; 0.5 2] y' = (1, −0.5) has y' = (0.36, −0.34).
	yp := []float64{0.36, -0.34}
	if err := CheckLinearlyImplicit(massPair{}, 0, y, yp, 1e-12); err != nil {
		t.Errorf("consistent start: %v", err)
	}
	// y' moved along (−0.1, 0.65), which row 0 of K annihilates: only equation 1 breaks,
	// by 0.5·(−0.1) + 2·0.65 = 1.25 (a diagonal reading of K would blame both).
	yp[0], yp[1] = 0.26, 0.31
	err = CheckLinearlyImplicit(massPair{}, 0, y, yp, 1e-8)
	if err == nil || !strings.Contains(err.Error(), "equation 1 (y[1]): K y' − φ = 1.25") || strings.Contains(err.Error(), "equation 0") {
		t.Errorf("y' off in equation 1: err = %v, want only equation 1 named, residual 1.25", err)
	}
}
