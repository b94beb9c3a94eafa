package planar_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/law"
	"linkage/planar"
)

// checkTol is the relative gap allowed between analytic and central-difference
// derivatives: central differences are accurate to about 1e-10 relative on these
// well-scaled models (dae.Check's documentation), so 1e-6 leaves four digits of margin.
const checkTol = 1e-6

// twoBodies returns a model with gravity, two bodies and markers: g0 on the ground, a1 and
// a2 on body 1 (a2 turned by 0.3 rad), b1 on body 2 (turned by −0.2 rad).
func twoBodies() (m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
	m = planar.NewModel()
	m.SetGravity(planar.Vec{0.3, -9.81})
	b := m.AddBody(planar.Body{Name: "one", Mass: 2, Inertia: 0.1})
	c := m.AddBody(planar.Body{Name: "two", Mass: 3, Inertia: 0.2})
	g0 = m.AddMarker(planar.Marker{Name: "g0", Body: planar.Ground, Point: planar.Vec{0.2, -0.1}, Angle: 0.4})
	a1 = m.AddMarker(planar.Marker{Name: "a1", Body: b, Point: planar.Vec{0.5, 0.1}})
	a2 = m.AddMarker(planar.Marker{Name: "a2", Body: b, Point: planar.Vec{-0.3, 0.2}, Angle: 0.3})
	b1 = m.AddMarker(planar.Marker{Name: "b1", Body: c, Point: planar.Vec{-0.4, -0.15}, Angle: -0.2})
	return m, g0, a1, a2, b1
}

type elementCase struct {
	name  string
	build func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID)
	// apart moves body 1 off the ground marker in the singular pose: the TSDA is singular
	// at zero length (its direction is undefined), which is excluded.
	apart bool
}

func elementCases(t *testing.T) []elementCase {
	table, err := law.NewTable([]float64{0, 0.5, 1, 2}, []float64{0, 1, 0.5, 2})
	if err != nil {
		t.Fatal(err)
	}
	return []elementCase{
		{name: "revolute", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			m.AddRevolute("pin", g0, a1)
			m.AddRevolute("pin2", a2, b1)
		}},
		{name: "translational", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			m.AddTranslational("slide", g0, a1)
			m.AddTranslational("slide2", a2, b1)
		}},
		{name: "distance", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			m.AddDistance("rod", g0, a1, 0.7)
			m.AddDistance("rod2", a2, b1, 1.3)
		}},
		{name: "weld", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) { m.AddWeld("fix", a2, b1) }},
		{name: "point-on-line", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			m.AddPointOnLine("slot", g0, a1)
			m.AddPointOnLine("slot2", a2, b1)
		}},
		{name: "coupler", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			p := m.AddRevolute("pin", g0, a1)
			s := m.AddTranslational("slide", a2, b1)
			m.AddCoupler("rack", p, s, 0.25, 0.1)
		}},
		{name: "motion", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			p := m.AddRevolute("pin", g0, a1)
			s := m.AddTranslational("slide", a2, b1)
			m.AddMotion("spin", p, law.Sine{Amplitude: 0.7, Omega: 3, Phase: 0.2, Offset: 0.1})
			m.AddMotion("push", s, law.Poly{Coef: []float64{0.1, -0.3, 0.5, 0.2}})
		}},
		{name: "motion-table", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			s := m.AddPointOnLine("slot", a2, b1)
			m.AddMotion("push", s, table)
		}},
		{name: "cam", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			m.AddRevolute("cam-pin", g0, a1)
			m.AddCam("cam", a2, b1, law.Sine{Amplitude: 0.1, Omega: 3, Phase: 0.4, Offset: 0.8})
		}},
		{name: "cam-ground-table", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			m.AddCam("track", g0, a1, table)
			m.AddRevolute("track-pin", a2, b1)
		}},
		{name: "tsda", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			m.AddTSDA(planar.TSDA{Name: "spring", I: g0, J: a1, K: 120, C: 7, FreeLength: 0.3,
				Actuator: law.Sine{Amplitude: 5, Omega: 2}})
			m.AddTSDA(planar.TSDA{Name: "polymer", I: a2, J: b1, FreeLength: 0.2,
				Spring: law.Polynomial{Coef: []float64{1, 200, -30, 40}}, Damper: law.SeedDamper()})
		}, apart: true},
		{name: "rsda", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			p := m.AddRevolute("pin", a2, b1)
			m.AddRSDA(planar.RSDA{Name: "torsion", I: g0, J: a1, K: 40, C: 3, FreeAngle: 0.2,
				Actuator: law.Const{Value: 2}})
			m.AddRSDA(planar.RSDA{Name: "torsion2", Joint: p, Spring: law.Polynomial{Coef: []float64{0, 10, 0, 30}},
				Damper: law.Linear{K: 0.5}})
		}},
		{name: "bushing", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			m.AddBushing(planar.Bushing{Name: "mount", I: a2, J: b1, Kx: 1000, Ky: 500, Ktheta: 30, Cx: 10, Cy: 7, Ctheta: 0.4})
			m.AddBushing(planar.Bushing{Name: "mount0", I: g0, J: a1, Kx: 100, Ky: 50, Ktheta: 3, Cx: 1, Cy: 0.7, Ctheta: 0.04})
		}},
		{name: "point-force", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			m.AddPointForce("push", a1, law.Const{Value: 3}, law.Sine{Amplitude: 2, Omega: 1}, true)
			m.AddPointForce("follower", b1, law.Const{Value: -4}, law.Const{Value: 1.5}, false)
		}},
		{name: "torque", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			m.AddTorque("motor", 1, law.Smoothstep{T0: 0, T1: 1, From: 0, To: 3})
		}},
		{name: "custom", build: func(m *planar.Model, g0, a1, a2, b1 planar.MarkerID) {
			// A nonlinear drag on body 2 and a coupling spring in θ: f = −c|v|v, −k sin(θ₁ − θ₂).
			m.AddCustomForce("drag", func(dst []float64, t float64, q, v []float64) {
				dst[3] -= 0.7 * math.Abs(v[3]) * v[3]
				s := math.Sin(q[2] - q[5])
				dst[2] -= 5 * s
				dst[5] += 5 * s
			})
		}},
	}
}

// randomPoint is a generic state: all coordinates, rates, accelerations and multipliers
// drawn from [−1, 1] (away from every singular pose with probability 1).
func randomPoint(r *rand.Rand, nq, nc int) dae.CheckPoint {
	u := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = 2*r.Float64() - 1
		}
		return x
	}
	return dae.CheckPoint{T: 0.37, Q: u(nq), V: u(nq), A: u(nq), Lambda: u(nc)}
}

// TestElementDerivatives compares G, g_t, γ, ∂(Gᵀλ)/∂q, ∂f/∂q and ∂f/∂v of every element
// with central differences (dae.Check) at random poses and at a singular pose: both
// bodies on the x axis with θ = 0 (aligned bodies, parallel axes, coincident rows of G).
func TestElementDerivatives(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range elementCases(t) {
		t.Run(c.name, func(t *testing.T) {
			m, g0, a1, a2, b1 := twoBodies()
			c.build(m, g0, a1, a2, b1)
			sys, err := m.Assemble()
			if err != nil {
				t.Fatal(err)
			}
			nq, nc := sys.Size()
			for k := range 3 {
				p := randomPoint(r, nq, nc)
				if _, err := dae.Check(sys, p, checkTol); err != nil {
					t.Errorf("random pose %d: %v", k, err)
				}
			}
			// Singular pose: markers aligned on the x axis, every body at θ = 0 with the
			// markers' points coinciding where a joint joins them.
			p := randomPoint(r, nq, nc)
			copy(p.Q, []float64{-0.3, 0.1, 0, -0.1, -0.1 + 0.15 + 0.2, 0})
			p.Q[0], p.Q[1] = 0.2-0.5, -0.1-0.1
			if c.apart {
				p.Q[0] += 0.3
			}
			if _, err := dae.Check(sys, p, checkTol); err != nil {
				t.Errorf("singular pose: %v", err)
			}
		})
	}
}

// TestAssembleErrors: each bad input gives an error naming the element.
func TestAssembleErrors(t *testing.T) {
	cases := []struct {
		name  string
		build func(m *planar.Model)
		want  string
	}{
		{"mass", func(m *planar.Model) { m.AddBody(planar.Body{Name: "heavy", Mass: 0, Inertia: 1}) }, `body "heavy": mass = 0`},
		{"inertia", func(m *planar.Model) { m.AddBody(planar.Body{Name: "spin", Mass: 1, Inertia: -1}) }, `body "spin": inertia = -1`},
		{"nan", func(m *planar.Model) { m.AddBody(planar.Body{Name: "nan", Mass: math.NaN(), Inertia: 1}) }, `body "nan": mass = NaN`},
		{"duplicate", func(m *planar.Model) {
			m.AddBody(planar.Body{Name: "a", Mass: 1, Inertia: 1})
			m.AddBody(planar.Body{Name: "a", Mass: 1, Inertia: 1})
		}, `duplicate body name "a"`},
		{"marker body", func(m *planar.Model) { m.AddMarker(planar.Marker{Name: "lost", Body: 4}) }, `marker "lost": body 4 does not exist`},
		{"self", func(m *planar.Model) {
			b := m.AddBody(planar.Body{Name: "a", Mass: 1, Inertia: 1})
			i := m.AddMarker(planar.Marker{Body: b})
			j := m.AddMarker(planar.Marker{Body: b, Point: planar.Vec{1, 0}})
			m.AddRevolute("loop", i, j)
		}, `revolute "loop": markers 1 and 2 are both on body "a"`},
		{"unknown marker", func(m *planar.Model) { m.AddDistance("rod", 0, 7, 1) }, `distance "rod": marker 0 does not exist`},
		{"length", func(m *planar.Model) {
			b := m.AddBody(planar.Body{Name: "a", Mass: 1, Inertia: 1})
			m.AddDistance("rod", m.AddMarker(planar.Marker{}), m.AddMarker(planar.Marker{Body: b}), -2)
		}, `distance "rod": length = -2`},
		{"joint names", func(m *planar.Model) {
			b := m.AddBody(planar.Body{Name: "a", Mass: 1, Inertia: 1})
			i, j := m.AddMarker(planar.Marker{}), m.AddMarker(planar.Marker{Body: b})
			m.AddRevolute("pin", i, j)
			m.AddTorque("pin", b, law.Const{Value: 1})
		}, `torque "pin": duplicate name (already a revolute)`},
		{"motion on distance", func(m *planar.Model) {
			b := m.AddBody(planar.Body{Name: "a", Mass: 1, Inertia: 1})
			d := m.AddDistance("rod", m.AddMarker(planar.Marker{}), m.AddMarker(planar.Marker{Body: b}), 1)
			m.AddMotion("drive", d, law.Const{})
		}, `motion "drive": joint "rod" is a distance, which has no joint coordinate`},
		{"tsda nan", func(m *planar.Model) {
			b := m.AddBody(planar.Body{Name: "a", Mass: 1, Inertia: 1})
			m.AddTSDA(planar.TSDA{Name: "spring", I: m.AddMarker(planar.Marker{}), J: m.AddMarker(planar.Marker{Body: b}), K: math.Inf(1)})
		}, `tsda "spring": K = +Inf is not finite`},
		{"torque on ground", func(m *planar.Model) { m.AddTorque("motor", planar.Ground, law.Const{}) }, `torque "motor": body 0 is not a moving body`},
	}
	for _, c := range cases {
		m := planar.NewModel()
		c.build(m)
		_, err := m.Assemble()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Assemble error = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}
