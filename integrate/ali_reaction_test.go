package integrate

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
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

// TestALIReactionNewtonMatrix: the part of the tangent matrices of ali3 and ali1 that
// λ-dependent forces add (addLambdaHat: ∂f_λ/∂(q, v), and ∂f_λ/∂λ through λ̂(q, v), the
// multiplier of eq. 17 at the iterate) is the derivative of their part of the residual,
// −f_λ(q, v, λ̂) (scaled by h²/4 in index 3), off the converged iterate. (The rest of the
// tangent leaves out penalty curvature terms by design: ALI3, ALI1.)
func TestALIReactionNewtonMatrix(t *testing.T) {
	p := newFrictionPendulum()
	p.eps = 3 // n = √(λ² + ε²) bends: λ̂ moves f_λ through n
	s0 := pendulumStart(p.pendulum, 0.7, 1.2)
	const h = 0.01
	for _, m := range []interface {
		Method
		work() *aliWork
	}{&ALI3{}, &ALI1{}} {
		if err := m.Init(p, s0, StepControl{FixedH: h}); err != nil {
			t.Fatal(err)
		}
		if err := m.Step(1); err != nil {
			t.Fatal(err)
		}
		w := m.work()
		if err := w.predict(h, false); err != nil {
			t.Fatal(err)
		}
		x := w.q
		if w.index == 1 {
			x = w.a
		}
		x[0] += 1e-3 // off the solution
		r0 := make([]float64, w.nq)
		res := func() []float64 {
			if w.index == 1 {
				w.trapezoid(h)
			}
			rx := w.rx
			for k, on := range []bool{false, true} {
				w.rx = nil
				if on {
					w.rx = rx
				}
				w.iter = 0
				if err := w.residual(); err != nil {
					t.Fatal(err)
				}
				if k == 0 {
					copy(r0, w.r)
				}
			}
			for i := range r0 {
				r0[i] = w.r[i] - r0[i]
			}
			return r0
		}
		res()
		K := mat.NewDense(w.nq, w.nq, nil)
		if err := w.addLambdaHat(K.RawMatrix().Data, w.cur.T+h, h); err != nil {
			t.Fatal(err)
		}
		x0 := append([]float64(nil), x...)
		for j := range w.nq {
			eps := 1e-4 * math.Max(1, math.Abs(x0[j]))
			x[j] = x0[j] + eps
			rp := append([]float64(nil), res()...)
			x[j] = x0[j] - eps
			rm := res()
			x[j] = x0[j]
			for i := range w.nq {
				fd := (rp[i] - rm[i]) / (2 * eps)
				// central differences on λ̂, which the projection gives to about 1e-8
				// relative (aliEq17Tol): measured 1e-4 relative at ε = 1e-6 and 1e-4;
				// without the λ̂ term the entries are off by 0.5 to 0.7 relative
				if d := math.Abs(fd - K.At(i, j)); d > 1e-3*math.Max(1e-3, math.Abs(fd)) {
					t.Errorf("%s: K[%d,%d] = %.8g, central difference %.8g", w.name, i, j, K.At(i, j), fd)
				}
			}
		}
	}
}

func (m *ALI3) work() *aliWork { return m.w }
func (m *ALI1) work() *aliWork { return m.w }
