package spatial_test

import (
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/law"
	"linkage/spatial"
)

// TestRevoluteMotionTorque: a wheel (I_zz = 0.3) on a revolute about the global z axis
// driven by f(t) = t² + 0.5t turns through β = ±π without trouble (the sin(β − f) form of
// the motion row), its joint angle follows f wrapped to (−π, π], and the driving torque is
// I_zz·f″ = 0.6: −λ of the motion row and the z moment of its Reaction on the wheel.
func TestRevoluteMotionTorque(t *testing.T) {
	const izz = 0.3
	m := spatial.NewModel()
	m.SetGravity(spatial.Vec3{0, 0, -9.81})
	w := m.AddBody(spatial.Body{Name: "wheel", Mass: 4, Inertia: spatial.Diag(0.2, 0.2, izz)})
	pin := m.AddRevolute("axle", m.AddMarker(spatial.Marker{Body: spatial.Ground}), m.AddMarker(spatial.Marker{Body: w}))
	drive := m.AddMotion("drive", pin, law.Poly{Coef: []float64{0, 0.5, 1}})
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	q0, v0 := sys.InitialGuess()
	red, s0, _ := startReduced(t, sys, q0, v0, nil)
	times := []float64{1, 2, 2.5}
	sol, err := integrate.Solve(method(t, "dopri5"), "dopri5", red, s0, 2.5, integrate.SolveOptions{
		Control: integrate.StepControl{RTol: 1e-10, ATol: 1e-10}, Output: times})
	if err != nil {
		t.Fatal(err)
	}
	_, nc := sys.Size()
	row := nc - 1 // the motion's row
	for i, tt := range times {
		f := tt*tt + 0.5*tt
		beta, _ := sys.JointCoordinate(pin, sol.Q[i])
		dBeta := math.Abs(math.Remainder(beta-f, 2*math.Pi))
		r := sys.Reaction(drive, sol.Q[i], sol.Lambda[i])
		_, _, wb := sys.Velocity(w, sol.Q[i], sol.V[i])
		t.Logf("t=%g: β = %.6f (f = %.6f wrapped), ω_z = %.8f, λ = %.10f, torque on wheel %.10f",
			tt, beta, math.Remainder(f, 2*math.Pi), wb[2], sol.Lambda[i][row], r.OnJ.Torque[2])
		// dopri5 at 1e-10 over ≤ 2.5 s with projection onto the motion row: the angle is
		// held to the projection tolerance, ~1e-10; 1e-8 leaves a factor 100.
		if dBeta > 1e-8 || math.Abs(wb[2]-(2*tt+0.5)) > 1e-8 {
			t.Errorf("t=%g: β − f = %.2g, ω_z − f' = %.2g, want <= 1e-8", tt, dBeta, wb[2]-(2*tt+0.5))
		}
		// λ solves the KKT system at the integrated state, so it carries that state's error
		// (measured 1e-10 at this tolerance); 1e-9 leaves a factor 10.
		if math.Abs(-sol.Lambda[i][row]-2*izz) > 1e-9 || math.Abs(r.OnJ.Torque[2]-2*izz) > 1e-9 {
			t.Errorf("t=%g: driving torque −λ = %.12g, reaction %.12g; want %g", tt, -sol.Lambda[i][row], r.OnJ.Torque[2], 2*izz)
		}
	}
	if _, err := dae.Check(sys, dae.CheckPoint{T: 2.3, Q: sol.Q[2], V: sol.V[2], A: sol.A[2], Lambda: sol.Lambda[2]}, checkTol); err != nil {
		t.Errorf("derivatives on the trajectory: %v", err)
	}
}

// TestStaticReaction: a body of mass 3 welded to the ground under gravity −z carries its
// weight: the weld's reaction on it is (0, 0, 3·9.81) and, about the weld point 0.4 beside
// the centre of mass along x, the moment that balances the weight's.
func TestStaticReaction(t *testing.T) {
	m := spatial.NewModel()
	m.SetGravity(spatial.Vec3{0, 0, -9.81})
	b := m.AddBody(spatial.Body{Name: "block", Mass: 3, Inertia: spatial.Diag(0.1, 0.2, 0.3), Pos: spatial.Vec3{0.4, 0, 1}})
	weld := m.AddWeld("fix", m.AddMarker(spatial.Marker{Body: spatial.Ground, Point: spatial.Vec3{0, 0, 1}}),
		m.AddMarker(spatial.Marker{Body: b, Point: spatial.Vec3{-0.4, 0, 0}}))
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	q0, v0 := sys.InitialGuess()
	c, err := dae.Initialize(sys, 0, q0, v0, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := sys.Reaction(weld, c.Q, c.Lambda)
	W := 3 * 9.81
	// The weight W at the centre, 0.4 along +x from the weld point, has moment
	// (0.4, 0, 0) × (0, 0, −W) = (0, 0.4 W, 0) about it; the weld balances it.
	wantF, wantT := spatial.Vec3{0, 0, W}, spatial.Vec3{0, -0.4 * W, 0}
	t.Logf("weld on block: force %v, moment %v", r.OnJ.Force, r.OnJ.Torque)
	// Static KKT solve: round-off on entries of size W ≈ 30, 1e-12 relative.
	if r.OnJ.Force.Sub(wantF).Norm() > 1e-10 || r.OnJ.Torque.Sub(wantT).Norm() > 1e-10 {
		t.Errorf("weld reaction on block: %v, %v; want %v, %v", r.OnJ.Force, r.OnJ.Torque, wantF, wantT)
	}
	if r.OnI.Force.Add(r.OnJ.Force).Norm() > 1e-10 {
		t.Errorf("action %v and reaction %v do not cancel", r.OnI.Force, r.OnJ.Force)
	}
}
