package integrate

import (
	"math"
	"testing"
)

// invariantFrictionPendulum adds the energy invariant of seed 001 (dae.EnergyInvariant),
// which multi-index needs, to the friction pendulum: the power of the damping −c v and the
// driving power λ g_t (the power of f_λ the method adds itself).
type invariantFrictionPendulum struct{ *frictionPendulum }

func (p invariantFrictionPendulum) NonConservativePower(_ float64, _, v []float64) float64 {
	return -p.c * (v[0]*v[0] + v[1]*v[1])
}

func (p invariantFrictionPendulum) DrivingPower(t float64, q, lambda []float64) float64 {
	gt := make([]float64, 1)
	p.ConstraintTimeDerivative(gt, t, q)
	return lambda[0] * gt[0]
}

// TestALIReactionOrders: ali3, ali1 and multi-index (fixed steps) on the friction
// pendulum converge with order 2 in q, v and λ against frictionReference.
func TestALIReactionOrders(t *testing.T) {
	p := newFrictionPendulum()
	s0 := pendulumStart(p.pendulum, 0.7, 1.2)
	const tEnd = 0.5
	ref := frictionReference(t, p, s0, tEnd)
	for _, name := range []string{"ali3", "ali1", "multi-index"} {
		e, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		var eq, ev, el [3]float64
		for k, n := range []int{500, 1000, 2000} {
			m := e.New()
			sol, err := Solve(m, name, invariantFrictionPendulum{p}, s0, tEnd, SolveOptions{Control: StepControl{FixedH: tEnd / float64(n)}})
			if err != nil {
				t.Fatalf("%s n=%d: %v", name, n, err)
			}
			f := sol.Final
			eq[k] = math.Max(math.Abs(f.Q[0]-ref.Q[0]), math.Abs(f.Q[1]-ref.Q[1]))
			ev[k] = math.Max(math.Abs(f.V[0]-ref.V[0]), math.Abs(f.V[1]-ref.V[1]))
			el[k] = math.Abs(f.Lambda[0] - ref.Lambda[0])
		}
		t.Logf("%s: q %.2g v %.2g λ %.2g", name, eq, ev, el)
		for _, o := range []struct {
			what string
			e    [3]float64
		}{{"q", eq}, {"v", ev}, {"λ", el}} {
			for _, got := range observedOrders(o.e) {
				if got < 1.9 {
					t.Errorf("%s: %s converges with order %.2f (errors %.2g), want 2", name, o.what, got, o.e)
				}
			}
		}
	}
}
