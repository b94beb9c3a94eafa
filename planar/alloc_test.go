package planar_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/law"
	"linkage/planar"
)

// kitchenSink has every joint, motion and force kind at once.
func kitchenSink(t *testing.T) *planar.System {
	m, g0, a1, a2, b1 := twoBodies()
	for _, c := range elementCases(t) {
		switch c.name {
		case "revolute", "weld", "coupler", "motion", "motion-table":
			continue // their names collide with other cases; these kinds are added below
		}
		c.build(m, g0, a1, a2, b1)
	}
	third := m.AddBody(planar.Body{Name: "three", Mass: 1, Inertia: 0.05})
	c1 := m.AddMarker(planar.Marker{Body: third})
	p := m.AddRevolute("gearpin", g0, c1)
	m.AddCoupler("gear", p, 1, 2, 0) // joint 1 is the translational "slide"
	m.AddMotion("spin", p, law.Sine{Amplitude: 1, Omega: 2})
	fourth := m.AddBody(planar.Body{Name: "four", Mass: 1, Inertia: 0.05})
	m.AddWeld("fix", c1, m.AddMarker(planar.Marker{Body: fourth, Point: planar.Vec{0.1, 0}}))
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestNoAllocations: every System evaluation runs without allocating (STYLE: no
// allocation in a step), with rigid bodies only and with a flexible one.
func TestNoAllocations(t *testing.T) {
	flex, err := flexModel(steelBar(planar.Beam{Elements: 3})).Assemble()
	if err != nil {
		t.Fatal(err)
	}
	for _, sys := range []*planar.System{kitchenSink(t), flex} {
		checkNoAllocations(t, sys)
	}
}

func checkNoAllocations(t *testing.T, sys *planar.System) {
	nq, nc := sys.Size()
	p := randomPoint(rand.New(rand.NewPCG(3, 4)), nq, nc)
	M := mat.NewDense(nq, nq, nil)
	G := mat.NewDense(nc, nq, nil)
	f := make([]float64, nq)
	g, gam := make([]float64, nc), make([]float64, nc)
	gc := dae.ConstraintCSR(sys, nq, nc)
	gv := make([]float64, gc.NNZ())
	evals := map[string]func(){
		"ConstraintJacobianDerivativeValues": func() { sys.ConstraintJacobianDerivativeValues(gv, p.T, p.Q, p.A) },
		"ConstraintWithJacobianValues":       func() { sys.ConstraintWithJacobianValues(g, gv, p.T, p.Q) },
		"ConstraintJacobianGammaValues":      func() { sys.ConstraintJacobianGammaValues(g, gv, gam, p.T, p.Q, p.V) },
		"Mass":                               func() { sys.Mass(M, p.T, p.Q) },
		"Force":                              func() { sys.Force(f, p.T, p.Q, p.V) },
		"Constraint":                         func() { sys.Constraint(g, p.T, p.Q) },
		"ConstraintJacobian":                 func() { sys.ConstraintJacobian(G, p.T, p.Q) },
		"ConstraintTimeDerivative":           func() { sys.ConstraintTimeDerivative(g, p.T, p.Q) },
		"Gamma":                              func() { sys.Gamma(g, p.T, p.Q, p.V) },
		"MassDerivative":                     func() { sys.MassDerivative(M, p.T, p.Q, p.A) },
		"ConstraintForceDerivative":          func() { sys.ConstraintForceDerivative(M, p.T, p.Q, p.Lambda) },
		"ConstraintJacobianDerivative":       func() { sys.ConstraintJacobianDerivative(G, p.T, p.Q, p.A) },
		"GammaDerivativeQ":                   func() { sys.GammaDerivativeQ(G, p.T, p.Q, p.V) },
		"GammaDerivativeV":                   func() { sys.GammaDerivativeV(G, p.T, p.Q, p.V) },
		"ForceDerivativeQ":                   func() { sys.ForceDerivativeQ(M, p.T, p.Q, p.V) },
		"ForceDerivativeV":                   func() { sys.ForceDerivativeV(M, p.T, p.Q, p.V) },
		"Energy":                             func() { _, _ = sys.Energy(p.T, p.Q, p.V) },
		"NonConservativePower":               func() { _ = sys.NonConservativePower(p.T, p.Q, p.V) },
		"DrivingPower":                       func() { _ = sys.DrivingPower(p.T, p.Q, p.Lambda) },
		"Reaction":                           func() { _ = sys.Reaction(1, p.Q, p.Lambda) },
		"MarkerAcceleration":                 func() { _ = sys.MarkerAcceleration(2, p.Q, p.V, p.A) },
	}
	for name, fn := range evals {
		fn()
		if n := testing.AllocsPerRun(20, fn); n != 0 {
			t.Errorf("%s allocates %v times per call, want 0", name, n)
		}
	}
	if math.IsNaN(f[0]) {
		t.Errorf("Force[0] is NaN")
	}
	// Joint friction (dae.ReactionForce), dense and sparse.
	fr := twoFrictionJoints(t, 0)
	nq, nc = fr.Size()
	p = randomPoint(rand.New(rand.NewPCG(5, 6)), nq, nc)
	fq, fv, fl := mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil), mat.NewDense(nq, nc, nil)
	coup, gp := fr.Patterns()
	vq, vv, vl := make([]float64, coup.NNZ()), make([]float64, coup.NNZ()), make([]float64, gp.NNZ())
	f = make([]float64, nq)
	for name, fn := range map[string]func(){
		"AddReactionForce":              func() { fr.AddReactionForce(f, p.T, p.Q, p.V, p.Lambda) },
		"ReactionForceDerivative":       func() { fr.ReactionForceDerivative(fq, fv, fl, p.T, p.Q, p.V, p.Lambda) },
		"ReactionForceDerivativeValues": func() { fr.ReactionForceDerivativeValues(vq, vv, vl, p.T, p.Q, p.V, p.Lambda) },
		"ReactionPower":                 func() { _ = fr.ReactionPower(p.T, p.Q, p.V, p.Lambda) },
	} {
		fn()
		if n := testing.AllocsPerRun(20, fn); n != 0 {
			t.Errorf("%s allocates %v times per call, want 0", name, n)
		}
	}
}

// TestListings: Bodies, Joints and Forces name every element with its kind, joints with
// their rows in order, and BodyByName/JointByName find them.
func TestListings(t *testing.T) {
	sys := kitchenSink(t)
	bodies := sys.Bodies()
	if len(bodies) != 5 || bodies[0].Name != "ground" || bodies[0].Kind != "ground" || bodies[4].Name != "four" {
		t.Errorf("Bodies() = %v", bodies)
	}
	_, nc := sys.Size()
	next := 0
	for _, j := range sys.Joints() {
		for _, r := range j.Rows {
			if r != next || !strings.HasPrefix(sys.ConstraintName(r), j.Name+".") {
				t.Errorf("joint %q (%s) row %d named %q, want row %d", j.Name, j.Kind, r, sys.ConstraintName(r), next)
			}
			next++
		}
	}
	if next != nc {
		t.Errorf("joints cover %d rows, want nc = %d", next, nc)
	}
	forces := sys.Forces()
	if len(forces) == 0 || forces[0].Kind != "gravity" || forces[len(forces)-1].Name != "drag" || forces[len(forces)-1].Kind != "custom" {
		t.Errorf("Forces() = %v", forces)
	}
	if b, ok := sys.BodyByName("three"); !ok || b != 3 {
		t.Errorf("BodyByName(three) = %d, %v", b, ok)
	}
	if j, ok := sys.JointByName("gear"); !ok || sys.Joints()[j-1].Kind != "coupler" {
		t.Errorf("JointByName(gear) = %d, %v", j, ok)
	}
}
