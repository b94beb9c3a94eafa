package joint

import (
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestCutAxesAllocateNothing: the constraint, G, γ and ∂(Gᵀλ)/∂q of the random tree, whose
// cut joints have orientation rows, allocate nothing once the System exists (the step of
// every method calls them).
func TestCutAxesAllocateNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	sys, nq, q, v := randomSystem(t, rng)
	if a := constraintAllocations(sys, nq, q, v); a != 0 {
		t.Errorf("cut-joint rows with orientation rows: %g allocations, want 0", a)
	}
}

// constraintAllocations returns the allocations of one evaluation of the constraint, G, γ
// and ∂(Gᵀλ)/∂q at new positions, after the System exists.
func constraintAllocations(sys *System, nq int, q, v []float64) float64 {
	_, nc := sys.Size()
	g, gamma, lambda := make([]float64, nc), make([]float64, nc), make([]float64, nc)
	for i := range lambda {
		lambda[i] = float64(i + 1)
	}
	G, H := mat.NewDense(nc, nq, nil), mat.NewDense(nq, nq, nil)
	return testing.AllocsPerRun(10, func() {
		q[0] += 1e-3 // new positions each run: the kinematics cache does not hide the work
		sys.Constraint(g, 0, q)
		sys.ConstraintJacobian(G, 0, q)
		sys.Gamma(gamma, 0, q, v)
		sys.ConstraintForceDerivative(H, 0, q, lambda)
	})
}

// TestCutAxesBadInputIsRefusedByName: orientation rows on one frame, on a missing frame or
// without a vector of frame b are refused by System naming the cut joint.
func TestCutAxesBadInputIsRefusedByName(t *testing.T) {
	body := Body{Name: "b", Mass: 1, Inertia: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	x := [3]float64{1, 0, 0}
	for _, c := range []struct {
		name string
		cut  func(m *Model, f int)
		want string
	}{
		{"one frame", func(m *Model, f int) { m.CutAxes("pin", f, x, f, x) }, `cut joint "pin" needs two different frames`},
		{"missing frame", func(m *Model, f int) { m.CutAxes("pin", f, x, 5, x) }, `cut joint "pin": frame 5 does not exist`},
		{"no vector", func(m *Model, f int) { m.CutAxes("pin", f, x, Ground) }, `cut joint "pin" needs two different frames and at least one direction`},
	} {
		m := &Model{}
		c.cut(m, m.Revolute("hinge", Ground, [3]float64{}, [3]float64{0, 0, 1}, body))
		if _, err := m.System(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
