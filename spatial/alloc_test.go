package spatial_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/law"

	"linkage/spatial"
)

// bigModel has every joint, motion and force kind at once: the joint kinds each on a new
// body hung from body "one", the force elements of the element cases between the bodies
// of twoBodies.
func bigModel(t *testing.T) *spatial.System {
	t.Helper()
	m, g0, a1, a2, b1 := twoBodies()
	for _, c := range elementCases() {
		switch c.name {
		case "tsda", "bushing", "point-force", "torque", "custom":
			c.build(m, g0, a1, a2, b1)
		}
	}
	adds := []func(string, spatial.MarkerID, spatial.MarkerID) spatial.JointID{
		m.AddSpherical, m.AddRevolute, m.AddTranslational, m.AddCylindrical, m.AddUniversal,
		m.AddPlanar, m.AddWeld, m.AddPointOnLine, m.AddPointOnPlane,
	}
	var ids []spatial.JointID
	for k, add := range adds {
		name := string(rune('A' + k))
		b := m.AddBody(spatial.Body{Name: "body" + name, Mass: 1, Inertia: spatial.Diag(0.1, 0.2, 0.3)})
		mk := m.AddMarker(spatial.Marker{Body: b, Point: spatial.Vec3{0.1, 0.2, 0.3}, Axis: spatial.Vec3{0, 1, 1}})
		ids = append(ids, add("joint"+name, a2, mk))
	}
	m.AddMotion("spin", ids[1], law.Sine{Amplitude: 0.7, Omega: 3})
	m.AddMotion("slide", ids[2], law.Poly{Coef: []float64{0.1, -0.3, 0.5}})
	m.AddRSDA(spatial.RSDA{Name: "coil", Joint: ids[1], K: 3, C: 0.2})
	m.AddDistance("rod", g0, b1, 1.2)
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestNoAllocations: every System evaluation runs without allocating (STYLE: no
// allocation in a step).
func TestNoAllocations(t *testing.T) {
	sys := bigModel(t)
	nq, nc := sys.Size()
	p := randomPoint(rand.New(rand.NewPCG(3, 4)), nq, nc)
	M := mat.NewDense(nq, nq, nil)
	G := mat.NewDense(nc, nq, nil)
	f := make([]float64, nq)
	g := make([]float64, nc)
	evals := map[string]func(){
		"Mass":                      func() { sys.Mass(M, p.T, p.Q) },
		"Force":                     func() { sys.Force(f, p.T, p.Q, p.V) },
		"Constraint":                func() { sys.Constraint(g, p.T, p.Q) },
		"ConstraintJacobian":        func() { sys.ConstraintJacobian(G, p.T, p.Q) },
		"ConstraintTimeDerivative":  func() { sys.ConstraintTimeDerivative(g, p.T, p.Q) },
		"Gamma":                     func() { sys.Gamma(g, p.T, p.Q, p.V) },
		"MassDerivative":            func() { sys.MassDerivative(M, p.T, p.Q, p.A) },
		"ConstraintForceDerivative": func() { sys.ConstraintForceDerivative(M, p.T, p.Q, p.Lambda) },
		"ForceDerivativeQ":          func() { sys.ForceDerivativeQ(M, p.T, p.Q, p.V) },
		"ForceDerivativeV":          func() { sys.ForceDerivativeV(M, p.T, p.Q, p.V) },
		"Energy":                    func() { _, _ = sys.Energy(p.T, p.Q, p.V) },
		"NonConservativePower":      func() { _ = sys.NonConservativePower(p.T, p.Q, p.V) },
		"DrivingPower":              func() { _ = sys.DrivingPower(p.T, p.Q, p.Lambda) },
		"Reaction":                  func() { _ = sys.Reaction(1, p.Q, p.Lambda) },
		"MarkerAcceleration":        func() { _ = sys.MarkerAcceleration(2, p.Q, p.V, p.A) },
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
	m, g0, a1, a2, b1 := twoBodies()
	m.SetFriction(m.AddRevolute("pin", g0, a1), spatial.JointFriction{Mu: 0.3, VReg: 0.01, PinRadius: 0.02})
	m.SetFriction(m.AddTranslational("slide", a2, b1), spatial.JointFriction{Mu: 0.2, VReg: 0.05, Arm: 0.3})
	fr, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
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

// TestListings: Bodies, Joints and Forces name every element with its kind, rows in
// order (normalizations first), and the pattern covers every row.
func TestListings(t *testing.T) {
	sys := bigModel(t)
	nq, nc := sys.Size()
	bodies := sys.Bodies()
	if bodies[0].Kind != "ground" || nq != 7*(len(bodies)-1) {
		t.Errorf("Bodies() = %v with nq = %d", bodies, nq)
	}
	next := 0
	for _, b := range bodies[1:] {
		if len(b.Rows) != 1 || b.Rows[0] != next || sys.ConstraintName(next) != b.Name+".norm" {
			t.Errorf("body %q rows %v, name %q; want [%d] %q", b.Name, b.Rows, sys.ConstraintName(next), next, b.Name+".norm")
		}
		next++
	}
	for _, j := range sys.Joints() {
		for _, r := range j.Rows {
			if r != next || !strings.HasPrefix(sys.ConstraintName(r), j.Name+".") {
				t.Errorf("joint %q (%s) row %d named %q, want row %d", j.Name, j.Kind, r, sys.ConstraintName(r), next)
			}
			next++
		}
	}
	if next != nc {
		t.Errorf("bodies and joints cover %d rows, want nc = %d", next, nc)
	}
	if sys.CoordinateName(3) != "one.p0" || sys.CoordinateName(9) != "two.z" {
		t.Errorf("coordinate names %q, %q; want one.p0, two.z", sys.CoordinateName(3), sys.CoordinateName(9))
	}
	pat := sys.Pattern()
	G := mat.NewDense(nc, nq, nil)
	p := randomPoint(rand.New(rand.NewPCG(5, 6)), nq, nc)
	sys.ConstraintJacobian(G, p.T, p.Q)
	for i := range nc {
		in := map[int]bool{}
		for _, c := range pat.GRows[i] {
			in[c] = true
		}
		for j := range nq {
			if G.At(i, j) != 0 && !in[j] {
				t.Errorf("G[%d,%d] = %g outside the pattern of row %q", i, j, G.At(i, j), sys.ConstraintName(i))
			}
		}
	}
}

// TestBigModelDerivatives: dae.Check on the model with every element at once, at two
// random states (derivatives of elements sharing bodies add up correctly).
func TestBigModelDerivatives(t *testing.T) {
	sys := bigModel(t)
	nq, nc := sys.Size()
	r := rand.New(rand.NewPCG(7, 8))
	for k := range 2 {
		if _, err := dae.Check(sys, randomPoint(r, nq, nc), checkTol); err != nil {
			t.Errorf("random state %d: %v", k, err)
		}
	}
}
