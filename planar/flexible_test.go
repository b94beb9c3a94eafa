package planar_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/law"
	"linkage/planar"
)

// steelBar is a 0.3 m steel bar of 8 mm square section (Simeon's rod) with a softened E, so
// that the elastic forces do not hide the inertia terms in a relative derivative check.
func steelBar(b planar.Beam) planar.Beam {
	b.Length, b.E, b.A, b.I, b.Density = 0.3, 2e5, 6.4e-5, 3.413e-10, 7870
	return b
}

// flexCases are models with one flexible body in each discretization and frame: pinned
// to the ground at node 0, a rigid body pinned at its last node (a moving node but in the
// tangent frame without axial coordinates... and with them), a torque on the beam, gravity.
func flexCases() map[string]planar.Beam {
	return map[string]planar.Beam{
		"tangent-elements":       steelBar(planar.Beam{Elements: 3}),
		"tangent-lateral-only":   steelBar(planar.Beam{Elements: 2, NoAxial: true}),
		"chord-elements":         steelBar(planar.Beam{Elements: 2, Frame: planar.BeamChord}),
		"chord-simeon-modes":     steelBar(planar.Beam{Modes: 2, Frame: planar.BeamChord}),
		"chord-simeon-no-axial":  steelBar(planar.Beam{Modes: 3, Frame: planar.BeamChord, NoAxial: true}),
		"tangent-many-elements":  steelBar(planar.Beam{Elements: 6}),
		"tangent-single-element": steelBar(planar.Beam{Elements: 1}),
	}
}

func flexModel(beam planar.Beam) *planar.Model {
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0.4, -9.81})
	rod := m.AddFlexibleBody(planar.Body{Name: "rod"}, beam)
	slider := m.AddBody(planar.Body{Name: "slider", Mass: 0.08, Inertia: 1e-4})
	g0 := m.AddMarker(planar.Marker{Name: "O", Body: planar.Ground, Point: planar.Vec{0.1, 0.05}})
	a := m.AddMarker(planar.Marker{Name: "A", Body: rod})
	b := m.AddMarker(planar.Marker{Name: "B", Body: rod, Point: planar.Vec{beam.Length, 0}})
	c := m.AddMarker(planar.Marker{Name: "C", Body: slider, Point: planar.Vec{-0.02, 0.01}})
	m.AddRevolute("pin", g0, a)
	m.AddRevolute("end", c, b) // the beam's node on side J of one joint and on side I of the other
	m.AddTorque("motor", rod, law.Const{Value: 0.2})
	return m
}

// TestFlexibleDerivatives compares every derivative of the flexible body and of the
// revolute rows at its moving node with central differences (dae.Check, which also checks
// the sparse values and patterns against the dense matrices) at random states.
func TestFlexibleDerivatives(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for name, beam := range flexCases() {
		t.Run(name, func(t *testing.T) {
			sys, err := flexModel(beam).Assemble()
			if err != nil {
				t.Fatal(err)
			}
			nq, nc := sys.Size()
			for k := range 3 {
				p := randomPoint(r, nq, nc)
				for i := 6; i < nq; i++ { // elastic coordinates of the size of the bar's deflections
					p.Q[i] *= 1e-3
				}
				if _, err := dae.Check(sys, p, checkTol); err != nil {
					t.Errorf("random state %d: %v", k, err)
				}
			}
		})
	}
}

// TestFlexibleMassIsKineticEnergy: ½ vᵀ M(q) v equals the kinetic energy the body reports,
// which is integrated independently term by term (flexible.go, energies), and M is
// positive definite; the strain energy is ½ eᵀ K e ≥ 0 and vanishes for a rigid motion.
func TestFlexibleMassIsKineticEnergy(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for name, beam := range flexCases() {
		sys, err := flexModel(beam).Assemble()
		if err != nil {
			t.Fatal(err)
		}
		nq, nc := sys.Size()
		p := randomPoint(r, nq, nc)
		M := newDense(nq)
		sys.Mass(M, 0, p.Q)
		var vmv float64
		for i := range nq {
			for j := range nq {
				vmv += p.V[i] * M.At(i, j) * p.V[j]
			}
		}
		e := sys.Energies(0, p.Q, p.V)
		if d := e.Kinetic - vmv/2; d > 1e-12*vmv || d < -1e-12*vmv {
			t.Errorf("%s: T = %.15g, ½vᵀMv = %.15g", name, e.Kinetic, vmv/2)
		}
		if !positiveDefinite(M) {
			t.Errorf("%s: M is not positive definite", name)
		}
		if e.Strain <= 0 {
			t.Errorf("%s: strain energy %g at a deformed state, want > 0", name, e.Strain)
		}
		for i := 6; i < nq; i++ {
			p.Q[i] = 0
		}
		if e := sys.Energies(0, p.Q, p.V); e.Strain != 0 {
			t.Errorf("%s: strain energy %g with e = 0, want 0", name, e.Strain)
		}
	}
}

// TestFlexibleErrors: bad beams and markers off the nodes are named by body and field.
func TestFlexibleErrors(t *testing.T) {
	good := steelBar(planar.Beam{Elements: 4})
	cases := []struct {
		name string
		edit func(b *planar.Beam)
		want string
	}{
		{"E", func(b *planar.Beam) { b.E = 0 }, `flexible body "rod": E = 0, want finite and > 0`},
		{"A", func(b *planar.Beam) { b.A = -1 }, `flexible body "rod": A = -1`},
		{"I", func(b *planar.Beam) { b.I = 0 }, `flexible body "rod": I = 0`},
		{"density", func(b *planar.Beam) { b.Density = -7870 }, `flexible body "rod": density = -7870`},
		{"length", func(b *planar.Beam) { b.Length = 0 }, `flexible body "rod": length = 0`},
		{"elements", func(b *planar.Beam) { b.Elements = 0 }, `flexible body "rod": elements = 0, modes = 0`},
		{"negative elements", func(b *planar.Beam) { b.Elements = -2 }, `flexible body "rod": elements = -2`},
		{"modes in tangent frame", func(b *planar.Beam) { b.Elements, b.Modes = 0, 2 }, `flexible body "rod": Simeon's sine modes`},
	}
	for _, c := range cases {
		b := good
		c.edit(&b)
		_, err := flexModel(b).Assemble()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
	// A joint at a point that is not a node; a translational joint at a moving node.
	m := flexModel(good)
	rod := planar.BodyID(1)
	off := m.AddMarker(planar.Marker{Name: "mid", Body: rod, Point: planar.Vec{0.1, 0}})
	m.AddRevolute("bad", m.AddMarker(planar.Marker{Body: planar.Ground}), off)
	tip := m.AddMarker(planar.Marker{Name: "tip", Body: rod, Point: planar.Vec{0.3, 0}})
	m.AddTranslational("slide", m.AddMarker(planar.Marker{Body: planar.Ground}), tip)
	_, err := m.Assemble()
	for _, want := range []string{
		`flexible body "rod": marker "mid": point [0.1 0] is not a node of the beam (nodes at (x, 0) with x = 0, 0.075, 0.15, 0.225, 0.3)`,
		`translational "slide": marker 7 sits at a beam node that moves in the beam's frame`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want it to contain %q", err, want)
		}
	}
}

func newDense(n int) *mat.Dense { return mat.NewDense(n, n, nil) }

func positiveDefinite(m *mat.Dense) bool {
	n, _ := m.Dims()
	s := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			s.SetSym(i, j, m.At(i, j))
		}
	}
	var c mat.Cholesky
	return c.Factorize(s)
}

// TestFlexibleQuadraticVelocityForces: the velocity terms of f are Lagrange's
// ∂T/∂q − (∂(M v)/∂q) v, with ∂T/∂q by central differences of the kinetic energy: f and M
// are written independently (flexible.go), so this ties the one to the other.
func TestFlexibleQuadraticVelocityForces(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for name, beam := range flexCases() {
		m := flexModel(beam)
		m.SetGravity(planar.Vec{})
		sys, err := m.Assemble()
		if err != nil {
			t.Fatal(err)
		}
		nq, nc := sys.Size()
		p := randomPoint(r, nq, nc)
		for i := 6; i < nq; i++ {
			p.Q[i] *= 1e-2
		}
		f, f0 := make([]float64, nq), make([]float64, nq)
		sys.Force(f, 0, p.Q, p.V)
		sys.Force(f0, 0, p.Q, make([]float64, nq)) // elastic force and torque
		dmv := newDense(nq)
		sys.MassDerivative(dmv, 0, p.Q, p.V)
		var worst, scale float64
		for i := range nq {
			h := 1e-6
			q := append([]float64(nil), p.Q...)
			q[i] += h
			tp := sys.Energies(0, q, p.V).Kinetic
			q[i] -= 2 * h
			tm := sys.Energies(0, q, p.V).Kinetic
			lag := (tp - tm) / (2 * h)
			for j := range nq {
				lag -= dmv.At(i, j) * p.V[j]
			}
			worst = max(worst, abs(f[i]-f0[i]-lag))
			scale = max(scale, abs(lag))
		}
		if worst > 1e-7*scale {
			t.Errorf("%s: velocity forces differ from Lagrange's by %g (scale %g)", name, worst, scale)
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

// TestFlexibleMarkerKinematics: the position, velocity and acceleration of a marker at a
// moving node are those of r = R + A(θ)(s + δ(e)), differentiated along (q + s v + s²/2 a)
// by central differences.
func TestFlexibleMarkerKinematics(t *testing.T) {
	sys, err := flexModel(steelBar(planar.Beam{Elements: 3})).Assemble()
	if err != nil {
		t.Fatal(err)
	}
	nq, nc := sys.Size()
	p := randomPoint(rand.New(rand.NewPCG(11, 12)), nq, nc)
	const tip = planar.MarkerID(3) // node 3 of the rod, moving with u3, w3
	at := func(s float64) planar.Vec {
		q := make([]float64, nq)
		for i := range q {
			q[i] = p.Q[i] + s*p.V[i] + s*s/2*p.A[i]
		}
		return sys.MarkerPosition(tip, q)
	}
	const h = 1e-4
	r0, rp, rm := at(0), at(h), at(-h)
	vel, acc := sys.MarkerVelocity(tip, p.Q, p.V), sys.MarkerAcceleration(tip, p.Q, p.V, p.A)
	for c := range 2 {
		if d := (rp[c]-rm[c])/(2*h) - vel[c]; abs(d) > 1e-6 {
			t.Errorf("velocity[%d] = %.9g, central difference %.9g", c, vel[c], (rp[c]-rm[c])/(2*h))
		}
		if d := (rp[c]-2*r0[c]+rm[c])/(h*h) - acc[c]; abs(d) > 1e-5 {
			t.Errorf("acceleration[%d] = %.9g, central difference %.9g", c, acc[c], (rp[c]-2*r0[c]+rm[c])/(h*h))
		}
	}
	if d := sys.MarkerPosition(tip, p.Q); d == sys.MarkerPosition(tip, make([]float64, nq)) {
		t.Errorf("marker position does not depend on q")
	}
}
