package planar_test

import (
	"fmt"

	"linkage/dae"
	"linkage/planar"
)

// A rod of length 0.5 hanging from a pin, released from rest 0.57 rad from the vertical:
// consistent start, degrees of freedom and the pin's reaction on the rod, m(a − g) with
// a = (L/2)·φ″ tangential, φ″ = −(m g L/2) sin φ / (m L²/3) = −15.90 rad/s².
func Example() {
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	rod := m.AddBody(planar.Body{Name: "rod", Mass: 2, Inertia: 2 * 0.5 * 0.5 / 12,
		Pos: planar.Vec{0.125, -0.2}, Angle: -1.0})
	pin := m.AddRevolute("pin", m.AddMarker(planar.Marker{Name: "O", Body: planar.Ground}),
		m.AddMarker(planar.Marker{Name: "top", Body: rod, Point: planar.Vec{-0.25, 0}}))
	sys, err := m.Assemble()
	if err != nil {
		fmt.Println(err)
		return
	}
	q0, v0 := sys.InitialGuess()
	c, err := dae.Initialize(sys, 0, q0, v0, &dae.InitOptions{Keep: []int{2}}) // keep rod.theta
	if err != nil {
		fmt.Println(err)
		return
	}
	r := sys.Reaction(pin, c.Q, c.Lambda)
	pos, th := sys.Pose(rod, c.Q)
	fmt.Printf("dof %d, rod at (%.4f, %.4f) angle %.1f\n", sys.DOF(c), pos[0], pos[1], th)
	fmt.Printf("pin pulls the rod with (%.3f, %.3f) N\n", r.OnJ.Force[0], r.OnJ.Force[1])
	// Output:
	// dof 1, rod at (0.1351, -0.2104) angle -1.0
	// pin pulls the rod with (-6.690, 15.324) N
}
