package spatial_test

import (
	"fmt"

	"linkage/dae"
	"linkage/spatial"
)

// The rod of planar's Example in the x-z plane: length 0.5, mass 2, hung from a hinge about
// y and released from rest 0.57 rad from the vertical. The consistent start, the degrees
// of freedom and the pin's reaction on the rod agree with the planar model, m(a − g) with
// the tangential a = (L/2)·φ″, φ″ = −15.90 rad/s².
func Example() {
	m := spatial.NewModel()
	m.SetGravity(spatial.Vec3{0, 0, -9.81})
	rod := m.AddBody(spatial.Body{Name: "rod", Mass: 2, Inertia: spatial.Diag(1e-4, 2*0.5*0.5/12, 2*0.5*0.5/12),
		Pos: spatial.Vec3{0.125, 0, -0.2}, Orient: spatial.QuatFromAxisAngle(spatial.Vec3{0, 1, 0}, 1.0)})
	hinge := m.AddRevolute("hinge",
		m.AddMarker(spatial.Marker{Name: "O", Body: spatial.Ground, Axis: spatial.Vec3{0, 1, 0}}),
		m.AddMarker(spatial.Marker{Name: "top", Body: rod, Point: spatial.Vec3{-0.25, 0, 0}, Axis: spatial.Vec3{0, 1, 0}}))
	sys, err := m.Assemble()
	if err != nil {
		fmt.Println(err)
		return
	}
	q0, v0 := sys.InitialGuess()
	c, err := dae.Initialize(sys, 0, q0, v0, &dae.InitOptions{Keep: []int{5}}) // keep rod.p2
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, p := sys.Pose(rod, c.Q)
	roll, pitch, yaw := p.RollPitchYaw()
	r := sys.Reaction(hinge, c.Q, c.Lambda)
	fmt.Printf("dof %d, rod at (%.4f, %.4f, %.4f), roll %.1f pitch %.1f yaw %.1f\n", sys.DOF(c), pos[0], pos[1], pos[2], roll, pitch, yaw)
	fmt.Printf("hinge pulls the rod with (%.3f, %.3f, %.3f) N\n", r.OnJ.Force[0], r.OnJ.Force[1], r.OnJ.Force[2])
	// Output:
	// dof 1, rod at (0.1351, 0.0000, -0.2104), roll 0.0 pitch 1.0 yaw 0.0
	// hinge pulls the rod with (-6.690, 0.000, 15.324) N
}
