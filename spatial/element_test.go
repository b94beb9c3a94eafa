package spatial_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/law"
	"linkage/spatial"
)

// checkTol is the relative gap allowed between analytic and central-difference
// derivatives: central differences are accurate to about 1e-10 relative on these
// well-scaled models (dae.Check's documentation), so 1e-6 leaves four digits of margin.
const checkTol = 1e-6

// twoBodies returns a model with gravity, two bodies of general (non-diagonal) inertia and
// markers with general axes: g0 on the ground, a1 and a2 on body 1, b1 on body 2.
func twoBodies() (m *spatial.Model, g0, a1, a2, b1 spatial.MarkerID) {
	m = spatial.NewModel()
	m.SetGravity(spatial.Vec3{0.3, -0.2, -9.81})
	J1 := spatial.Mat3{{0.3, 0.01, -0.02}, {0.01, 0.2, 0.03}, {-0.02, 0.03, 0.1}}
	b := m.AddBody(spatial.Body{Name: "one", Mass: 2, Inertia: J1})
	c := m.AddBody(spatial.Body{Name: "two", Mass: 3, Inertia: spatial.Diag(0.2, 0.25, 0.05)})
	g0 = m.AddMarker(spatial.Marker{Name: "g0", Body: spatial.Ground, Point: spatial.Vec3{0.2, -0.1, 0.05},
		Axis: spatial.Vec3{0.1, 0.3, 1}, XAxis: spatial.Vec3{1, 0, 0}})
	a1 = m.AddMarker(spatial.Marker{Name: "a1", Body: b, Point: spatial.Vec3{0.5, 0.1, -0.2}, Axis: spatial.Vec3{0, 0.2, 1}})
	a2 = m.AddMarker(spatial.Marker{Name: "a2", Body: b, Point: spatial.Vec3{-0.3, 0.2, 0.1}, Axis: spatial.Vec3{1, 1, 0}, XAxis: spatial.Vec3{0, 0, 1}})
	b1 = m.AddMarker(spatial.Marker{Name: "b1", Body: c, Point: spatial.Vec3{-0.4, -0.15, 0.3}, Axis: spatial.Vec3{0.5, -0.2, 1}})
	return m, g0, a1, a2, b1
}

type elementCase struct {
	name  string
	build func(m *spatial.Model, g0, a1, a2, b1 spatial.MarkerID)
	apart bool // the element is singular where the markers' points coincide (TSDA)
}

func elementCases() []elementCase {
	type mk = spatial.MarkerID
	pair := func(add func(string, mk, mk) spatial.JointID) func(m *spatial.Model, g0, a1, a2, b1 mk) {
		return func(m *spatial.Model, g0, a1, a2, b1 mk) {
			add("j1", g0, a1)
			add("j2", a2, b1)
		}
	}
	return []elementCase{
		{name: "spherical", build: func(m *spatial.Model, g0, a1, a2, b1 mk) { pair(m.AddSpherical)(m, g0, a1, a2, b1) }},
		{name: "revolute", build: func(m *spatial.Model, g0, a1, a2, b1 mk) { pair(m.AddRevolute)(m, g0, a1, a2, b1) }},
		{name: "translational", build: func(m *spatial.Model, g0, a1, a2, b1 mk) { pair(m.AddTranslational)(m, g0, a1, a2, b1) }},
		{name: "cylindrical", build: func(m *spatial.Model, g0, a1, a2, b1 mk) { pair(m.AddCylindrical)(m, g0, a1, a2, b1) }},
		{name: "universal", build: func(m *spatial.Model, g0, a1, a2, b1 mk) { pair(m.AddUniversal)(m, g0, a1, a2, b1) }},
		{name: "planar", build: func(m *spatial.Model, g0, a1, a2, b1 mk) { pair(m.AddPlanar)(m, g0, a1, a2, b1) }},
		{name: "weld", build: func(m *spatial.Model, g0, a1, a2, b1 mk) { pair(m.AddWeld)(m, g0, a1, a2, b1) }},
		{name: "point-on-line", build: func(m *spatial.Model, g0, a1, a2, b1 mk) { pair(m.AddPointOnLine)(m, g0, a1, a2, b1) }},
		{name: "point-on-plane", build: func(m *spatial.Model, g0, a1, a2, b1 mk) { pair(m.AddPointOnPlane)(m, g0, a1, a2, b1) }},
		{name: "distance", build: func(m *spatial.Model, g0, a1, a2, b1 mk) {
			m.AddDistance("rod", g0, a1, 0.7)
			m.AddDistance("rod2", a2, b1, 1.3)
		}},
		{name: "motion", build: func(m *spatial.Model, g0, a1, a2, b1 mk) {
			p := m.AddRevolute("pin", g0, a1)
			s := m.AddTranslational("slide", a2, b1)
			m.AddMotion("spin", p, law.Sine{Amplitude: 0.7, Omega: 3, Phase: 0.2, Offset: 0.1})
			m.AddMotion("push", s, law.Poly{Coef: []float64{0.1, -0.3, 0.5, 0.2}})
		}},
		{name: "motion-cylindrical", build: func(m *spatial.Model, g0, a1, a2, b1 mk) {
			c := m.AddCylindrical("cyl", a2, b1)
			m.AddMotion("push", c, law.Sine{Amplitude: 0.2, Omega: 5})
		}},
		{name: "tsda", build: func(m *spatial.Model, g0, a1, a2, b1 mk) {
			m.AddTSDA(spatial.TSDA{Name: "spring", I: g0, J: a1, K: 120, C: 7, FreeLength: 0.3,
				Actuator: law.Sine{Amplitude: 5, Omega: 2}})
			m.AddTSDA(spatial.TSDA{Name: "polymer", I: a2, J: b1, FreeLength: 0.2,
				Spring: law.Polynomial{Coef: []float64{1, 200, -30, 40}}, Damper: law.Polynomial{Coef: []float64{0, 3, 0, 2}}})
		}, apart: true},
		{name: "rsda", build: func(m *spatial.Model, g0, a1, a2, b1 mk) {
			p := m.AddRevolute("pin", a2, b1)
			m.AddRSDA(spatial.RSDA{Name: "torsion", I: g0, J: a1, K: 40, C: 3, FreeAngle: 0.2,
				Actuator: law.Const{Value: 2}})
			m.AddRSDA(spatial.RSDA{Name: "torsion2", Joint: p, Spring: law.Polynomial{Coef: []float64{0, 10, 0, 30}},
				Damper: law.Linear{K: 0.5}})
		}},
		{name: "bushing", build: func(m *spatial.Model, g0, a1, a2, b1 mk) {
			m.AddBushing(spatial.Bushing{Name: "mount", I: a2, J: b1, K: spatial.Vec3{1000, 500, 700}, C: spatial.Vec3{10, 7, 5},
				KRot: spatial.Vec3{30, 20, 10}, CRot: spatial.Vec3{0.4, 0.3, 0.2}})
			m.AddBushing(spatial.Bushing{Name: "mount0", I: g0, J: a1, K: spatial.Vec3{100, 50, 70}, C: spatial.Vec3{1, 0.7, 0.5},
				KRot: spatial.Vec3{3, 2, 1}, CRot: spatial.Vec3{0.04, 0.03, 0.02}})
		}},
		{name: "point-force", build: func(m *spatial.Model, g0, a1, a2, b1 mk) {
			m.AddPointForce("push", a1, [3]law.Func{law.Const{Value: 3}, law.Sine{Amplitude: 2, Omega: 1}, nil}, true)
			m.AddPointForce("follow", b1, [3]law.Func{law.Const{Value: -1}, law.Const{Value: 2}, law.Sine{Amplitude: 4, Omega: 3}}, false)
		}},
		{name: "torque", build: func(m *spatial.Model, g0, a1, a2, b1 mk) {
			m.AddTorque("motor", 1, [3]law.Func{law.Const{Value: 0.5}, nil, law.Smoothstep{T0: 0, T1: 1, From: 0, To: 3}}, true)
			m.AddTorque("body-motor", 2, [3]law.Func{law.Const{Value: -0.7}, law.Const{Value: 1.1}, law.Const{Value: 0.3}}, false)
		}},
		{name: "custom", build: func(m *spatial.Model, g0, a1, a2, b1 mk) {
			// Quadratic drag on body 2's centre and a coupling between the bodies' p1.
			m.AddCustomForce("drag", func(dst []float64, t float64, q, v []float64) {
				dst[7] -= 0.7 * math.Abs(v[7]) * v[7]
				s := math.Sin(q[4] - q[11])
				dst[4] -= 5 * s
				dst[11] += 5 * s
			})
		}},
	}
}

// randomPoint is a generic state: positions and rates from [−1, 1], Euler parameters a
// random (not normalized) 4-vector, so that the derivatives are checked off the unit
// sphere too, where M(q), G and the Hessians still have to be consistent.
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

// singularPoint puts every body at the identity orientation with its origin such that the
// markers g0/a1 and a2/b1 coincide: coincident points and parallel or perpendicular axes.
func singularPoint(r *rand.Rand, nq, nc int, apart bool) dae.CheckPoint {
	p := randomPoint(r, nq, nc)
	one := spatial.Vec3{0.2 - 0.5, -0.1 - 0.1, 0.05 + 0.2}
	if apart {
		one[0] += 0.3
	}
	// r_a2 = one + (−0.3, 0.2, 0.1); two's origin = r_a2 − (−0.4, −0.15, 0.3).
	two := spatial.Vec3{one[0] - 0.3 + 0.4, one[1] + 0.2 + 0.15, one[2] + 0.1 - 0.3}
	if apart {
		two[2] += 0.2
	}
	copy(p.Q, []float64{one[0], one[1], one[2], 1, 0, 0, 0, two[0], two[1], two[2], 1, 0, 0, 0})
	return p
}

// TestElementDerivatives compares G, g_t, γ, ∂(M a)/∂q, ∂(Gᵀλ)/∂q, ∂f/∂q and ∂f/∂v of
// every element with central differences (dae.Check) at random poses and at a singular
// pose.
func TestElementDerivatives(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range elementCases() {
		t.Run(c.name, func(t *testing.T) {
			sys := assembleCase(t, c)
			nq, nc := sys.Size()
			for k := range 3 {
				p := randomPoint(r, nq, nc)
				if _, err := dae.Check(sys, p, checkTol); err != nil {
					t.Errorf("random pose %d: %v", k, err)
				}
			}
			if _, err := dae.Check(sys, singularPoint(r, nq, nc, c.apart), checkTol); err != nil {
				t.Errorf("singular pose: %v", err)
			}
		})
	}
}

// TestAssembleErrors: each bad input gives an error naming the element.
func TestAssembleErrors(t *testing.T) {
	unit := spatial.Diag(1, 1, 1)
	cases := []struct {
		name  string
		build func(m *spatial.Model)
		want  string
	}{
		{"mass", func(m *spatial.Model) { m.AddBody(spatial.Body{Name: "heavy", Mass: 0, Inertia: unit}) }, `body "heavy": mass = 0`},
		{"inertia", func(m *spatial.Model) {
			m.AddBody(spatial.Body{Name: "spin", Mass: 1, Inertia: spatial.Diag(1, -1, 1)})
		}, `body "spin": inertia`},
		{"asymmetric", func(m *spatial.Model) {
			m.AddBody(spatial.Body{Name: "skew", Mass: 1, Inertia: spatial.Mat3{{1, 0.1, 0}, {0, 1, 0}, {0, 0, 1}}})
		}, `body "skew": inertia`},
		{"duplicate", func(m *spatial.Model) {
			m.AddBody(spatial.Body{Name: "a", Mass: 1, Inertia: unit})
			m.AddBody(spatial.Body{Name: "a", Mass: 1, Inertia: unit})
		}, `duplicate body name "a"`},
		{"marker body", func(m *spatial.Model) { m.AddMarker(spatial.Marker{Name: "lost", Body: 4}) }, `marker "lost": body 4 does not exist`},
		{"self", func(m *spatial.Model) {
			b := m.AddBody(spatial.Body{Name: "a", Mass: 1, Inertia: unit})
			m.AddRevolute("loop", m.AddMarker(spatial.Marker{Body: b}), m.AddMarker(spatial.Marker{Body: b}))
		}, `revolute "loop": markers 1 and 2 are both on body "a"`},
		{"unknown marker", func(m *spatial.Model) { m.AddSpherical("ball", 0, 7) }, `spherical "ball": marker 0 does not exist`},
		{"length", func(m *spatial.Model) {
			b := m.AddBody(spatial.Body{Name: "a", Mass: 1, Inertia: unit})
			m.AddDistance("rod", m.AddMarker(spatial.Marker{}), m.AddMarker(spatial.Marker{Body: b}), -2)
		}, `distance "rod": length = -2`},
		{"names", func(m *spatial.Model) {
			b := m.AddBody(spatial.Body{Name: "a", Mass: 1, Inertia: unit})
			m.AddRevolute("pin", m.AddMarker(spatial.Marker{}), m.AddMarker(spatial.Marker{Body: b}))
			m.AddTorque("pin", b, [3]law.Func{}, true)
		}, `torque "pin": duplicate name (already a revolute)`},
		{"motion on spherical", func(m *spatial.Model) {
			b := m.AddBody(spatial.Body{Name: "a", Mass: 1, Inertia: unit})
			s := m.AddSpherical("ball", m.AddMarker(spatial.Marker{}), m.AddMarker(spatial.Marker{Body: b}))
			m.AddMotion("drive", s, law.Const{})
		}, `motion "drive": joint "ball" is a spherical, which has no joint coordinate`},
		{"tsda nan", func(m *spatial.Model) {
			b := m.AddBody(spatial.Body{Name: "a", Mass: 1, Inertia: unit})
			m.AddTSDA(spatial.TSDA{Name: "spring", I: m.AddMarker(spatial.Marker{}), J: m.AddMarker(spatial.Marker{Body: b}), K: math.Inf(1)})
		}, `tsda "spring": K = +Inf is not finite`},
		{"torque on ground", func(m *spatial.Model) { m.AddTorque("motor", spatial.Ground, [3]law.Func{}, true) }, `torque "motor": body 0 is not a moving body`},
		{"rsda joint", func(m *spatial.Model) {
			b := m.AddBody(spatial.Body{Name: "a", Mass: 1, Inertia: unit})
			s := m.AddSpherical("ball", m.AddMarker(spatial.Marker{}), m.AddMarker(spatial.Marker{Body: b}))
			m.AddRSDA(spatial.RSDA{Name: "coil", Joint: s, K: 1})
		}, `rsda "coil": joint 1 is not a revolute joint`},
	}
	for _, c := range cases {
		m := spatial.NewModel()
		c.build(m)
		_, err := m.Assemble()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Assemble error = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}
