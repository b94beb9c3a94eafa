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

// TestIndexNamesAllocateNothing: a System without Namer names its coordinates and rows
// "q[i]" and "g[i]" without allocating (the integrators name the worst residual of every
// failed Newton iteration inside a step), and past the table too, by formatting.
func TestIndexNamesAllocateNothing(t *testing.T) {
	sys := toy{}
	if got := dae.CoordinateName(sys, 5); got != "q[5]" {
		t.Errorf("CoordinateName = %q, want q[5]", got)
	}
	if got := dae.ConstraintName(sys, 1023); got != "g[1023]" {
		t.Errorf("ConstraintName = %q, want g[1023]", got)
	}
	if got := dae.CoordinateName(sys, 123456); got != "q[123456]" {
		t.Errorf("CoordinateName = %q, want q[123456]", got)
	}
	if a := testing.AllocsPerRun(10, func() {
		_ = dae.CoordinateName(sys, 817)
		_ = dae.ConstraintName(sys, 3)
	}); a != 0 {
		t.Errorf("naming allocates %v times, want 0", a)
	}
}
