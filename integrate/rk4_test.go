package integrate

import (
	"errors"
	"math"
	"testing"
)

// TestRK4Order: order 4 in q, v and λ on the polar system, with and without projection.
func TestRK4Order(t *testing.T) {
	for _, f := range []Formulation{Index1Projected, Index1} {
		newM := func() Method { return &RK4{Formulation: f} }
		q, v, l := gcpOrders(t, newM, polar{}, polarStart(), 1, 0.04)
		for name, o := range map[string][2]float64{"q": q, "v": v, "lambda": l} {
			for _, x := range o {
				// ±0.2: the conformance suite's band (orderSlack); measured within 0.12.
				if !(math.Abs(x-4) <= 0.2) {
					t.Errorf("%s: %s: observed orders %.3f, %.3f, want 4 ± 0.2", f, name, o[0], o[1])
					break
				}
			}
		}
		t.Logf("%s: orders q %.3f %.3f, v %.3f %.3f, λ %.3f %.3f", f, q[0], q[1], v[0], v[1], l[0], l[1])
	}
}

// TestRK4Reference: with a small step RK4 reproduces the pendulum's angle reference to
// near rounding, and the projection holds g and G v + g_t at rounding level.
func TestRK4Reference(t *testing.T) {
	p := &pendulum{m: 1, L: 1, grav: 9.81, c: 0.1}
	start := pendulumStart(p, 1.2, 0.3)
	sol, err := Solve(&RK4{}, "rk4", p, start, 2, SolveOptions{Control: StepControl{FixedH: 0x1p-10}})
	if err != nil {
		t.Fatal(err)
	}
	qRef, vRef := pendulumAngle(p, 1.2, 0.3, 2, 10000)
	// Global error of RK4 at h = 1/1024: ≈ h⁴·|y⁽⁵⁾|·t ≈ 1e-11.
	if e := math.Max(gcpMaxDiff(sol.Final.Q, qRef[:]), gcpMaxDiff(sol.Final.V, vRef[:])); e > 1e-9 {
		t.Errorf("|y − ref| = %.2g, want ≤ 1e-9", e)
	}
	if r := sol.MaxResidual; r.Pos > 1e-13 || r.Vel > 1e-13 {
		t.Errorf("max |g| = %.2g, |G v| = %.2g, want ≤ 1e-13 (projection)", r.Pos, r.Vel)
	}
	if st := sol.Stats; st.Steps != 2048 || st.FuncEvals != 4*2048+1 || st.Projections != 2*2048 {
		t.Errorf("statistics %+v: want 2048 steps, 8193 evaluations, 4096 projections", st)
	}
}

func TestRK4Failure(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	start := pendulumStart(p, 1, 0)
	sol, err := Solve(&RK4{}, "rk4", gcpNaN{p, 0.5}, start.Clone(), 1, SolveOptions{Control: StepControl{FixedH: 0.01}})
	var se *StepError
	if !errors.As(err, &se) || !errors.Is(err, ErrNonFinite) || !(se.T < 0.5 && se.T > 0.45) || sol.Final.T != se.T {
		t.Errorf("error %v, want ErrNonFinite just below t = 0.5", err)
	}
	if err := (&RK4{}).Init(p, start, StepControl{RTol: 1e-6}); err == nil {
		t.Errorf("Init without FixedH succeeded")
	}
	if err := (&RK4{Formulation: Index3}).Init(p, start, StepControl{FixedH: 0.1}); err == nil {
		t.Errorf("Init with formulation index3 succeeded")
	}
}

func TestRK4Allocs(t *testing.T) {
	m := &RK4{}
	if err := m.Init(polar{}, polarStart(), StepControl{FixedH: 1e-3}); err != nil {
		t.Fatal(err)
	}
	_ = m.Step(math.Inf(1))
	if n := testing.AllocsPerRun(20, func() { _ = m.Step(math.Inf(1)) }); n != 0 {
		t.Errorf("rk4: Step allocates %v times per call after warm-up, want 0", n)
	}
}
