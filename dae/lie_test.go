package dae_test

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// TestVectorSpaceDamping: on ℝⁿ the Lie-group contract's damping matrix is −∂f/∂v of the
// System (toy's by hand: ∂f₀/∂v = [0, v₁], ∂f₁/∂v = [q₀, −3]), and writing it allocates
// nothing (lie-genalpha's dense path calls it inside a step).
func TestVectorSpaceDamping(t *testing.T) {
	s := dae.NewVectorSpace(toy{})
	q, v := []float64{0.3, -0.7}, []float64{1.1, 0.4}
	C := mat.NewDense(2, 2, nil)
	s.Damping(C, 0.2, q, v)
	want := mat.NewDense(2, 2, []float64{0, -v[1], -q[0], 3})
	if !mat.EqualApprox(C, want, 1e-12) {
		t.Errorf("Damping = %v, want %v", mat.Formatted(C), mat.Formatted(want))
	}
	if a := testing.AllocsPerRun(10, func() { s.Damping(C, 0.2, q, v) }); a != 0 {
		t.Errorf("Damping allocates %v times, want 0", a)
	}
}
