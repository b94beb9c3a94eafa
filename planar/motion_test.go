package planar_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"linkage/dae"
	"linkage/law"
	"linkage/planar"
)

// TestMotionDrive: a motion prescribing a revolute's angle drives a body with inertia J
// about its centre: the driving torque −λ equals J·f″ (no gravity, pivot at the centre),
// and Reaction reports it as the moment on the body.
func TestMotionDrive(t *testing.T) {
	const J = 0.4
	m := planar.NewModel()
	b := m.AddBody(planar.Body{Name: "wheel", Mass: 2, Inertia: J})
	pin := m.AddRevolute("axle", m.AddMarker(planar.Marker{Body: planar.Ground}), m.AddMarker(planar.Marker{Body: b}))
	drive := law.Sine{Amplitude: 0.5, Omega: 3, Phase: 0.3}
	mot := m.AddMotion("drive", pin, drive)
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	s0, con := start(t, sys)
	f, df, ddf := drive.Eval(0)
	if ang, _ := sys.JointCoordinate(pin, s0.Q); math.Abs(ang-f) > 1e-12 || math.Abs(s0.V[2]-df) > 1e-12 {
		t.Errorf("initial angle %g and rate %g, want the motion's %g, %g", ang, s0.V[2], f, df)
	}
	r := sys.Reaction(mot, s0.Q, s0.Lambda)
	if math.Abs(r.OnJ.Torque-J*ddf) > 1e-12 {
		t.Errorf("driving torque on the wheel = %g, want J f″ = %g", r.OnJ.Torque, J*ddf)
	}
	if got := sys.ConstraintName(2); got != "drive.c" || sys.CoordinateName(2) != "wheel.theta" {
		t.Errorf("names %q, %q, want drive.c, wheel.theta", got, sys.CoordinateName(2))
	}
	if sys.DOF(con) != 0 {
		t.Errorf("DOF = %d, want 0", sys.DOF(con))
	}
	// Its power is the motion's work rate: P_driving = λ g_t = torque·θ'; no applied
	// force acts, so P_nc = 0.
	if p := sys.DrivingPower(0, s0.Q, s0.Lambda); math.Abs(p-J*ddf*df) > 1e-12 {
		t.Errorf("motion power %g, want %g", p, J*ddf*df)
	}
	if p := sys.NonConservativePower(0, s0.Q, s0.V); p != 0 {
		t.Errorf("non-conservative power %g, want 0 (no applied force)", p)
	}
}

// TestKitchenSinkDerivatives checks all elements together (shared columns, ground pairs).
func TestKitchenSinkDerivatives(t *testing.T) {
	sys := kitchenSink(t)
	nq, nc := sys.Size()
	p := randomPoint(rand.New(rand.NewPCG(5, 6)), nq, nc)
	if _, err := dae.Check(sys, p, checkTol); err != nil {
		t.Error(err)
	}
}
