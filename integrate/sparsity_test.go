package integrate

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// patterned is a System with declared patterns: two bodies' worth of coordinates (0-2 and
// 3-5) coupled, a sixth-coordinate constraint row and a diagonal mass matrix.
type patterned struct{ dae.System }

func (patterned) MassPattern() [][]int { return nil }
func (patterned) ConstraintPattern() [][]int {
	return [][]int{{0, 1, 2}, {2, 5}}
}
func (patterned) CouplingPattern() [][]int {
	a, b := []int{0, 1, 2, 3, 4, 5}, []int{0, 1, 2, 3, 4, 5}
	return [][]int{a, a, a, b, b, b}
}
func (patterned) Size() (int, int) { return 6, 2 }

// TestKKTNewtonPattern: the pattern of [A Gᵀ; G 0] from declared patterns: A's rows with
// the diagonal, Gᵀ's columns after nq, G's rows below; nil without the capability.
func TestKKTNewtonPattern(t *testing.T) {
	got := kktNewtonPattern(patterned{})
	want := [][]int{
		{0, 1, 2, 3, 4, 5, 6}, {0, 1, 2, 3, 4, 5, 6}, {0, 1, 2, 3, 4, 5, 6, 7},
		{0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5, 7},
		{0, 1, 2}, {2, 5},
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d: %v, want %v", i, got[i], want[i])
		}
	}
	if p := kktNewtonPattern(plainSystem{}); p != nil {
		t.Errorf("without dae.Sparsity: %v, want nil", p)
	}
}

// plainSystem has no optional capability.
type plainSystem struct{}

func (plainSystem) Size() (int, int)                                               { return 1, 0 }
func (plainSystem) Mass(dst *mat.Dense, t float64, q []float64)                    {}
func (plainSystem) Force(dst []float64, t float64, q, v []float64)                 {}
func (plainSystem) Constraint(dst []float64, t float64, q []float64)               {}
func (plainSystem) ConstraintJacobian(dst *mat.Dense, t float64, q []float64)      {}
func (plainSystem) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {}
func (plainSystem) Gamma(dst []float64, t float64, q, v []float64)                 {}
