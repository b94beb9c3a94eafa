package spatial_test

import (
	"fmt"
	"math"

	"linkage/dae"
	"linkage/integrate"
	"linkage/spatial"
)

// A thin disk (1 kg, radius 0.3 m) rolling without slipping on the ground plane, tilted
// 0.3 rad and started on the steady circular motion with precession rate Ω = −1 rad/s:
// the spin ω₃ about its axis follows from (I_a + m r²) Ω ω₃ cos θ = I_d Ω² sin θ cos θ −
// m g r sin θ (see TestRollingDiskSteadyCircle). After 2 s with dopri5 the tilt, the
// centre's height r cos θ and its distance |r ω₃/Ω| from the circle's centre are those of
// the start, and the contact point does not slide.
func ExampleModel_AddRollingDisk() {
	const mass, r, g, theta, omega = 1.0, 0.3, 9.81, 0.3, -1.0
	ia, id := mass*r*r/2, mass*r*r/4
	st, ct := math.Sincos(theta)
	w3 := (id*omega*omega*st*ct - mass*g*r*st) / ((ia + mass*r*r) * omega * ct)
	u := spatial.Vec3{0, ct, st}                                                // the disk's axis
	w := spatial.Vec3{0, 0, omega}.Add(u.Scale(w3 - omega*st))                  // ω = Ω e_z + s u
	orient := spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, theta-math.Pi/2) // body z → u

	m := spatial.NewModel()
	m.SetGravity(spatial.Vec3{0, 0, -g})
	disk := m.AddBody(spatial.Body{Name: "disk", Mass: mass, Inertia: spatial.Diag(id, id, ia),
		Pos: spatial.Vec3{0, -r * st, r * ct}, Orient: orient, Vel: spatial.Vec3{r * w3, 0, 0}, AngVel: orient.Matrix().MulTVec(w)})
	centre := m.AddMarker(spatial.Marker{Name: "centre", Body: disk, Axis: spatial.Vec3{0, 0, 1}})
	roll := m.AddRollingDisk("roll", centre, r)
	sys, err := m.Assemble()
	if err != nil {
		fmt.Println(err)
		return
	}
	q0, v0 := sys.InitialGuess()
	c, err := dae.Initialize(sys, 0, q0, v0, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	e, _ := integrate.Lookup("dopri5")
	sol, err := integrate.Solve(e.New(), "dopri5", sys, integrate.State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}, 2,
		integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-9, ATol: 1e-9}, Output: []float64{2}})
	if err != nil {
		fmt.Println(err)
		return
	}
	q, v := sol.Final.Q, sol.Final.V
	rho := r * w3 / omega
	C, _ := sys.Pose(disk, q)
	_, _, axis := sys.MarkerAxes(centre, q)
	P, _ := sys.ContactPoint(roll, q)
	vel, om, _ := sys.Velocity(disk, q, v)
	fmt.Printf("spin %.4f rad/s, path radius %.4f m\n", w3, math.Abs(rho))
	fmt.Printf("t = 2: tilt %.4f rad, height %.4f m, distance from the circle's centre %.4f m\n",
		math.Asin(axis[2]), C[2], math.Hypot(C[0], C[1]-(-r*st+rho)))
	fmt.Printf("contact point on the plane: %v, at rest: %v\n", math.Abs(P[2]) < 1e-12, vel.Add(om.Cross(P.Sub(C))).Norm() < 1e-12)
	// Output:
	// spin 6.6943 rad/s, path radius 2.0083 m
	// t = 2: tilt 0.3000 rad, height 0.2866 m, distance from the circle's centre 2.0083 m
	// contact point on the plane: true, at rest: true
}
