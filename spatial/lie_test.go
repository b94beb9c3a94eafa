package spatial_test

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/problems"
	"math/rand/v2"
	"testing"

	"linkage/dae"
	"linkage/spatial"
)

// randomLiePoint is a generic state on the group: positions, velocities, accelerations and
// multipliers from [−1, 1], every body's quaternion a random unit quaternion.
func randomLiePoint(r *rand.Rand, nq, nv, nc int) dae.LieCheckPoint {
	u := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = 2*r.Float64() - 1
		}
		return x
	}
	q := u(nq)
	for c := 0; c < nq; c += 7 {
		p := spatial.Quat{q[c+3], q[c+4], q[c+5], q[c+6]}.Normalized()
		copy(q[c+3:c+7], p[:])
	}
	return dae.LieCheckPoint{T: 0.37, Q: q, V: u(nv), VDot: u(nv), Lambda: u(nc)}
}

// TestLieSystemDerivatives checks the adapter of every joint kind and force element
// (elementCases) with dae.CheckLie: B, Φ_t, γ and d(B w) along q∘exp(εw), K_t against the
// residual M v̇ − f + Bᵀλ along the group, C_t against −∂f/∂w, at random states.
func TestLieSystemDerivatives(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range elementCases() {
		t.Run(c.name, func(t *testing.T) {
			m, g0, a1, a2, b1 := twoBodies()
			c.build(m, g0, a1, a2, b1)
			sys, err := m.Assemble()
			if err != nil {
				t.Fatal(err)
			}
			ls, err := spatial.NewLieSystem(sys, nil)
			if err != nil {
				t.Fatal(err)
			}
			nq, nv, nc := ls.LieSize()
			if nq != 14 || nv != 12 || nc != sysNC(sys)-2 {
				t.Fatalf("LieSize = (%d, %d, %d), want (14, 12, %d)", nq, nv, nc, sysNC(sys)-2)
			}
			for k := range 3 {
				if _, err := dae.CheckLie(ls, randomLiePoint(r, nq, nv, nc), checkTol); err != nil {
					t.Errorf("random state %d: %v", k, err)
				}
			}
		})
	}
}

func sysNC(s *spatial.System) int {
	_, nc := s.Size()
	return nc
}

// TestLieSystemMatchesHandWritten compares the adapter of chain3D(3) with
// problems.LieChain3D, the same chain written by hand on the group: mass, forces,
// constraints and every derivative agree to rounding at random states, which pins what
// CheckLie cannot (M and f themselves: the gyroscopic term, the body-frame inertia).
func TestLieSystemMatchesHandWritten(t *testing.T) {
	sys, err := chain3D(3)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := spatial.NewLieSystem(sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	hand, err := problems.NewLieChain3D(3)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	nq, nv, nc := ls.LieSize()
	if hq, hv, hc := hand.LieSize(); hq != nq || hv != nv || hc != nc {
		t.Fatalf("LieSize = (%d, %d, %d), hand-written (%d, %d, %d)", nq, nv, nc, hq, hv, hc)
	}
	for k := range 3 {
		p := randomLiePoint(r, nq, nv, nc)
		for _, c := range lieEvaluations(p, nv, nc) {
			got, want := c.eval(ls), c.eval(hand)
			if gap := maxGap(got, want); gap > 1e-12 {
				t.Errorf("state %d: %s: adapter and hand-written differ by %.3g (relative to the largest entry)", k, c.name, gap)
			}
		}
	}
}

type lieEvaluation struct {
	name string
	eval func(dae.LieSystem) []float64
}

// lieEvaluations lists every evaluation of a dae.LieSystem at p, flattened.
func lieEvaluations(p dae.LieCheckPoint, nv, nc int) []lieEvaluation {
	sq := func(f func(s dae.LieSystem, dst *mat.Dense)) func(dae.LieSystem) []float64 {
		return func(s dae.LieSystem) []float64 {
			m := mat.NewDense(nv, nv, nil)
			f(s, m)
			return m.RawMatrix().Data
		}
	}
	rect := func(f func(s dae.LieSystem, dst *mat.Dense)) func(dae.LieSystem) []float64 {
		return func(s dae.LieSystem) []float64 {
			m := mat.NewDense(nc, nv, nil)
			f(s, m)
			return m.RawMatrix().Data
		}
	}
	vec := func(n int, f func(s dae.LieSystem, dst []float64)) func(dae.LieSystem) []float64 {
		return func(s dae.LieSystem) []float64 {
			x := make([]float64, n)
			f(s, x)
			return x
		}
	}
	return []lieEvaluation{
		{"M", sq(func(s dae.LieSystem, d *mat.Dense) { s.Mass(d, p.T, p.Q) })},
		{"f", vec(nv, func(s dae.LieSystem, d []float64) { s.Force(d, p.T, p.Q, p.V) })},
		{"Phi", vec(nc, func(s dae.LieSystem, d []float64) { s.Constraint(d, p.T, p.Q) })},
		{"B", rect(func(s dae.LieSystem, d *mat.Dense) { s.ConstraintJacobian(d, p.T, p.Q) })},
		{"gamma", vec(nc, func(s dae.LieSystem, d []float64) { s.Gamma(d, p.T, p.Q, p.V) })},
		{"K_t", sq(func(s dae.LieSystem, d *mat.Dense) { s.Stiffness(d, p.T, p.Q, p.V, p.VDot, p.Lambda) })},
		{"C_t", sq(func(s dae.LieSystem, d *mat.Dense) { s.Damping(d, p.T, p.Q, p.V) })},
	}
}

// maxGap returns max |a − b| / max(1, max |b|).
func maxGap(a, b []float64) float64 {
	var d, s float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
		s = math.Max(s, math.Abs(b[i]))
	}
	return d / math.Max(1, s)
}
