package joint

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// eccentric is a closed cam contour r(u) = 0.05 + 0.01 cos u + 0.005 sin 2u and its
// derivatives.
func eccentric(u float64) (r, r1, r2 float64) {
	return 0.05 + 0.01*math.Cos(u) + 0.005*math.Sin(2*u), -0.01*math.Sin(u) + 0.01*math.Cos(2*u), -0.01*math.Cos(u) - 0.02*math.Sin(2*u)
}

// camTree is a planar tree with two cam joints: a turning cam (revolute frame) pressing a
// follower on a prismatic joint and a revolute, and a fixed cam (the ground) under the
// same follower.
func camTree(t *testing.T, rng *rand.Rand) (sys *System, nq int, q, v []float64) {
	t.Helper()
	body := func(name string) Body {
		return Body{Name: name, Mass: 0.5 + rng.Float64(), COM: [3]float64{0.02 * rng.Float64(), -0.01, 0},
			Inertia: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 0.001 + 0.01*rng.Float64()}}}
	}
	z := [3]float64{0, 0, 1}
	m := &Model{Gravity: [3]float64{0, -9.81, 0}}
	c := m.Revolute("cam", Ground, [3]float64{}, z, body("cam"))
	p := m.Prismatic("slide", Ground, [3]float64{0.01, 0, 0}, [3]float64{0.1, 1, 0}, body("slider"))
	f := m.Revolute("tip", p, [3]float64{0.02, 0.03, 0}, z, body("tip"))
	m.Cam("contact", c, [3]float64{0.005, -0.003, 0}, [3]float64{1, 0.2, 0}, f, [3]float64{0.01, 0.02, 0}, eccentric, 1.2)
	m.Cam("fixed", Ground, [3]float64{0.1, -0.1, 0}, [3]float64{0, 1, 0}, f, [3]float64{-0.01, 0.01, 0}, eccentric, -2)
	return systemAt(t, rng, m)
}

// TestCamDerivatives: by dae.Check at random states, multipliers and accelerations, the
// cam rows' G and γ against differences of g, and their ∂(Gᵀλ)/∂q against differences of
// Gᵀλ, to 1e-6 relative; the rows are named after their cams.
func TestCamDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 3))
	for trial := 0; trial < 4; trial++ {
		sys, nq, q, v := camTree(t, rng)
		checkAgainstDifferences(t, rng, sys, nq, q, v, "d(G^T lambda)/dq", "G = dg/dq", "gamma")
	}
	sys, _, _, _ := camTree(t, rng)
	if got := sys.ConstraintName(0) + " " + sys.ConstraintName(1); got != "contact fixed" {
		t.Errorf("cam rows named %q, want \"contact fixed\"", got)
	}
}

// TestCamRowIsContourGap: at random states the row is |D| − r(u) with u the polar angle of
// the follower's point from the cam's polar axis, computed from Position and FrameMotion's
// R independently of the row code, to 1e-12.
func TestCamRowIsContourGap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 21))
	sys, nq, _, _ := camTree(t, rng)
	g := make([]float64, 2)
	for trial := 0; trial < 5; trial++ {
		q, _ := randomState(rng, nq)
		sys.Constraint(g, 0, q)
		ra, rb := vec3(sys.Position(q, 0, [3]float64{0.005, -0.003, 0})), vec3(sys.Position(q, 2, [3]float64{0.01, 0.02, 0}))
		e := mat3(sys.FrameMotion(q, nil, nil, 0, [3]float64{}).R).mulv(unit(vec3{1, 0.2, 0}))
		d := rb.sub(ra)
		r, _, _ := eccentric(math.Atan2(e[0]*d[1]-e[1]*d[0], e.dot(d)))
		if want := math.Hypot(d[0], d[1]) - r; math.Abs(g[0]-want) > 1e-12 {
			t.Errorf("trial %d: cam row %.15g, want |D| − r(u) = %.15g", trial, g[0], want)
		}
	}
}

// TestCamAllocatesNothing: the cam rows, G, γ and ∂(Gᵀλ)/∂q allocate nothing.
func TestCamAllocatesNothing(t *testing.T) {
	sys, nq, q, v := camTree(t, rand.New(rand.NewPCG(9, 3)))
	if a := constraintAllocations(sys, nq, q, v); a != 0 {
		t.Errorf("cam rows: %g allocations, want 0", a)
	}
}

// TestCamRefusesOpenContour: a profile that is not 2π-periodic (whose polar angle the
// row cannot recover modulo 2π) and a polar axis out of the plane are refused naming the cam.
func TestCamRefusesOpenContour(t *testing.T) {
	spiral := func(u float64) (float64, float64, float64) { return 0.05 + 0.001*u, 0.001, 0 }
	for _, c := range []struct {
		name    string
		ex      [3]float64
		profile func(float64) (float64, float64, float64)
		want    string
	}{
		{"spiral", [3]float64{1, 0, 0}, spiral, `cam "contact": profile r(u) not 2π-periodic`},
		{"tilted axis", [3]float64{1, 0, 1}, eccentric, `cam "contact": polar axis`},
	} {
		m := &Model{}
		f := m.Revolute("r", Ground, [3]float64{}, [3]float64{0, 0, 1}, Body{Name: "b", Mass: 1, Inertia: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}})
		m.Cam("contact", Ground, [3]float64{}, c.ex, f, [3]float64{0.05, 0, 0}, c.profile, 0)
		if _, err := m.System(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
