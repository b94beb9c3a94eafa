package natural_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/law"
	"linkage/natural"
)

const checkTol = 1e-6

// everything returns a model with every element kind: a crank pinned to the ground, a rod
// pinned to the crank, a slider on the ground's x axis pinned to the rod's far end through
// a third body point (a point the rod holds beyond its basic two), a free body on a
// translational joint, a weld, a distance rod, and every force.
func everything(pose func(k int) (natural.Vec, float64, natural.Vec, float64)) *natural.Model {
	m := natural.NewModel()
	m.SetGravity(natural.Vec{0.3, -9.81})
	body := func(name string, mass, J float64, k int) natural.BodyID {
		p, th, v, w := pose(k)
		return m.AddBody(natural.Body{Name: name, Mass: mass, Inertia: J, Pos: p, Angle: th, Vel: v, AngVel: w})
	}
	crank := body("crank", 2, 0.1, 1)
	rod := body("rod", 3, 0.2, 2)
	slider := body("slider", 1, 0.05, 3)
	free := body("free", 1.5, 0.07, 4)
	stuck := body("stuck", 0.5, 0.01, 5)
	mk := func(name string, b natural.BodyID, x, y, a float64) natural.MarkerID {
		return m.AddMarker(natural.Marker{Name: name, Body: b, Point: natural.Vec{x, y}, Angle: a})
	}
	o := mk("O", natural.Ground, 0.2, -0.1, 0.4)
	c0 := mk("c0", crank, -0.3, 0.05, 0)
	c1 := mk("c1", crank, 0.3, -0.02, 0.2)
	r0 := mk("r0", rod, -0.5, 0, 0)
	r1 := mk("r1", rod, 0.5, 0.1, 0.3)
	r2 := mk("r2", rod, 0.1, -0.2, -0.4)
	s0 := mk("s0", slider, 0.05, 0.02, 0.1)
	line := mk("line", natural.Ground, 0, 0.3, 0.2)
	f0 := mk("f0", free, 0.1, 0.2, -0.3)
	st := mk("st", stuck, 0.2, 0, 0.5)
	pin := m.AddRevolute("pin", o, c0)
	m.AddRevolute("crankpin", c1, r0)
	m.AddRevolute("far", r1, s0)
	m.AddPointOnLine("slot", line, s0)
	slide := m.AddTranslational("slide", r2, f0)
	m.AddWeld("fix", c1, st)
	m.AddDistance("rope", line, f0, 1.2)
	m.AddMotion("drive", pin, law.Sine{Amplitude: 0.1, Omega: 2})
	m.AddMotion("push", slide, law.Sine{Amplitude: 0.05, Omega: 3})
	m.AddTSDA(natural.TSDA{Name: "spring", I: o, J: r1, K: 50, C: 3, FreeLength: 0.5, Actuator: law.Sine{Amplitude: 2, Omega: 1}})
	m.AddRSDA(natural.RSDA{Name: "coil", Joint: 2, K: 20, C: 1, FreeAngle: 0.3})
	m.AddRSDA(natural.RSDA{Name: "coil2", I: r2, J: f0, Spring: law.Polynomial{Coef: []float64{0, 5, 0, 30}}, C: 0.5})
	m.AddBushing(natural.Bushing{Name: "bush", I: c1, J: f0, Kx: 10, Ky: 20, Ktheta: 3, Cx: 1, Cy: 2, Ctheta: 0.3})
	m.AddPointForce("follower", r2, law.Const{Value: 3}, law.Sine{Amplitude: 1, Omega: 2}, false)
	m.AddPointForce("wind", s0, law.Const{Value: -2}, nil, true)
	m.AddTorque("motor", crank, law.Const{Value: 1.5})
	return m
}

func randomPose(rng *rand.Rand) func(k int) (natural.Vec, float64, natural.Vec, float64) {
	return func(int) (natural.Vec, float64, natural.Vec, float64) {
		return natural.Vec{rng.NormFloat64(), rng.NormFloat64()}, rng.NormFloat64() * 2,
			natural.Vec{rng.NormFloat64(), rng.NormFloat64()}, rng.NormFloat64()
	}
}

func randomVec(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return x
}

// TestDerivatives: every analytic derivative against central differences (dae.Check, which
// also checks the sparse values and patterns), at states off the constraint manifold, with
// random λ and accelerations, so that every Hessian and coupling term is exercised.
func TestDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 5 {
		sys, err := everything(randomPose(rng)).Assemble()
		if err != nil {
			t.Fatal(err)
		}
		nq, nc := sys.Size()
		q, v := sys.InitialGuess()
		for i := range q {
			q[i] += 0.05 * rng.NormFloat64()
		}
		p := dae.CheckPoint{T: 0.3 * float64(trial), Q: q, V: v, A: randomVec(rng, nq), Lambda: randomVec(rng, nc)}
		if _, err := dae.Check(sys, p, checkTol); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if err := dae.CheckSparse(sys, p); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
	}
}

// TestBadInput: every bad element is named, with what was expected.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name  string
		build func(m *natural.Model)
		want  []string
	}{
		{"rigid element between fixed points at the wrong distance", func(m *natural.Model) {
			b := m.AddBody(natural.Body{Name: "beam", Mass: 1, Inertia: 0.1})
			g1 := m.AddMarker(natural.Marker{Name: "g1", Body: natural.Ground})
			g2 := m.AddMarker(natural.Marker{Name: "g2", Body: natural.Ground, Point: natural.Vec{1.5, 0}})
			b1 := m.AddMarker(natural.Marker{Name: "b1", Body: b, Point: natural.Vec{-0.5, 0}})
			b2 := m.AddMarker(natural.Marker{Name: "b2", Body: b, Point: natural.Vec{0.5, 0}})
			m.AddRevolute("left", g1, b1)
			m.AddRevolute("right", g2, b2)
		}, []string{`natural: body "beam"`, "1 apart on the body", "1.5 apart", "want equal distances"}},
		{"two points of one body tied together", func(m *natural.Model) {
			a := m.AddBody(natural.Body{Name: "a", Mass: 1, Inertia: 0.1})
			b := m.AddBody(natural.Body{Name: "b", Mass: 1, Inertia: 0.1})
			a1 := m.AddMarker(natural.Marker{Name: "a1", Body: a, Point: natural.Vec{-0.5, 0}})
			a2 := m.AddMarker(natural.Marker{Name: "a2", Body: a, Point: natural.Vec{0.5, 0}})
			b1 := m.AddMarker(natural.Marker{Name: "b1", Body: b})
			m.AddRevolute("p", a1, b1)
			m.AddRevolute("q", b1, a2)
		}, []string{`revolute "p"`, `points [-0.5 0] and [0.5 0] of body "a"`}},
		{"one point pinned at two places", func(m *natural.Model) {
			a := m.AddBody(natural.Body{Name: "a", Mass: 1, Inertia: 0.1})
			g1 := m.AddMarker(natural.Marker{Name: "g1", Body: natural.Ground})
			g2 := m.AddMarker(natural.Marker{Name: "g2", Body: natural.Ground, Point: natural.Vec{1, 0}})
			a1 := m.AddMarker(natural.Marker{Name: "a1", Body: a})
			m.AddRevolute("p", g1, a1)
			m.AddRevolute("q", g2, a1)
		}, []string{`revolute "p": its point is pinned to the ground at [0 0] and at [1 0]`}},
		{"motion on a weld, bad mass, duplicate name", func(m *natural.Model) {
			a := m.AddBody(natural.Body{Name: "a", Mass: -1, Inertia: 0.1})
			g := m.AddMarker(natural.Marker{Name: "g", Body: natural.Ground})
			a1 := m.AddMarker(natural.Marker{Name: "a1", Body: a})
			w := m.AddWeld("w", g, a1)
			m.AddMotion("w", w, law.Const{Value: 1})
		}, []string{`body "a": mass = -1`, `motion "w": duplicate name`, `joint "w" is a weld, which has no joint coordinate`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := natural.NewModel()
			c.build(m)
			_, err := m.Assemble()
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestInconsistentGuessAssembled: a guess whose points break the rigid elements (the
// rod's guess far from where the crank puts their shared point) is assembled by
// dae.Initialize: every rigid row holds at the consistent state.
func TestInconsistentGuessAssembled(t *testing.T) {
	m := natural.NewModel()
	m.SetGravity(natural.Vec{0, -9.81})
	crank := m.AddBody(natural.Body{Name: "crank", Mass: 1, Inertia: 0.01, Pos: natural.Vec{0.1, 0}})
	rod := m.AddBody(natural.Body{Name: "rod", Mass: 1, Inertia: 0.1, Pos: natural.Vec{0.9, 0.4}, Angle: 0.5})
	o := m.AddMarker(natural.Marker{Name: "O", Body: natural.Ground})
	c0 := m.AddMarker(natural.Marker{Name: "c0", Body: crank, Point: natural.Vec{-0.1, 0}})
	c1 := m.AddMarker(natural.Marker{Name: "c1", Body: crank, Point: natural.Vec{0.1, 0}})
	r0 := m.AddMarker(natural.Marker{Name: "r0", Body: rod, Point: natural.Vec{-0.5, 0}})
	m.AddRevolute("pin", o, c0)
	m.AddRevolute("crankpin", c1, r0)
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	q, v := sys.InitialGuess()
	_, nc := sys.Size()
	g := make([]float64, nc)
	sys.Constraint(g, 0, q)
	if math.Abs(g[1]) < 0.01 {
		t.Fatalf("the guess already satisfies rod.rigid (%g): the test needs an inconsistent one", g[1])
	}
	c, err := dae.Initialize(sys, 0, q, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	sys.Constraint(g, 0, c.Q)
	for r, x := range g {
		if math.Abs(x) > 1e-10 {
			t.Errorf("%s = %g after initialization", sys.ConstraintName(r), x)
		}
	}
	if sys.ConstraintName(1) != "rod.rigid" {
		t.Errorf("row 1 is %q, want rod.rigid", sys.ConstraintName(1))
	}
}
