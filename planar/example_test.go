package planar_test

import (
	"fmt"
	"math"

	"linkage/dae"
	"linkage/integrate"
	"linkage/law"
	"linkage/planar"
	"linkage/problems"
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

// A double pendulum built in code (two 1 m, 1 kg bars pinned to the ground and to each
// other, released horizontally) and a spring from the second bar's tip to a ground anchor,
// solved with HHT at tol 1e-8 (radau5 at 1e-8 prints the same digits); the bars' poses are
// read from the samples at 0, 1 and 2 s.
func Example_solve() {
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	bar1 := m.AddBody(planar.Body{Name: "bar1", Mass: 1, Inertia: 1.0 / 12, Pos: planar.Vec{0.5, 0}})
	bar2 := m.AddBody(planar.Body{Name: "bar2", Mass: 1, Inertia: 1.0 / 12, Pos: planar.Vec{1.5, 0}})
	mk := func(name string, b planar.BodyID, x, y float64) planar.MarkerID {
		return m.AddMarker(planar.Marker{Name: name, Body: b, Point: planar.Vec{x, y}})
	}
	m.AddRevolute("shoulder", mk("O", planar.Ground, 0, 0), mk("bar1.O", bar1, -0.5, 0))
	m.AddRevolute("elbow", mk("bar1.A", bar1, 0.5, 0), mk("bar2.A", bar2, -0.5, 0))
	m.AddTSDA(planar.TSDA{Name: "spring", I: mk("anchor", planar.Ground, 2, -1), J: mk("tip", bar2, 0.5, 0),
		K: 20, C: 0.5, FreeLength: 1})
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
	entry, _ := integrate.Lookup("hht")
	method, _ := entry.NewMethod("")
	start := integrate.State{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
	sol, err := integrate.Solve(method, "hht", sys, start, 2, integrate.SolveOptions{
		Control: integrate.StepControl{RTol: 1e-8, ATol: 1e-8}, OutputStep: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, t := range sol.T {
		_, th1 := sys.Pose(bar1, sol.Q[i])
		p2, th2 := sys.Pose(bar2, sol.Q[i])
		fmt.Printf("t=%.0f  bar1 %+.3f rad  bar2 %+.3f rad, centre (%+.3f, %+.3f) m\n", t, th1, th2, p2[0], p2[1])
	}
	// Output:
	// t=0  bar1 +0.000 rad  bar2 +0.000 rad, centre (+1.500, +0.000) m
	// t=1  bar1 -1.841 rad  bar2 -0.496 rad, centre (+0.173, -1.202) m
	// t=2  bar1 -1.514 rad  bar2 +0.119 rad, centre (+0.553, -0.939) m
}

// A 2 kg block sliding down a 30° slope on a translational joint with friction (μ = 0.3),
// launched down it at 1 m/s: the normal reaction |λ_n| = m g cos 30° = 16.991 N presses the
// slide, and the block accelerates at a = g(sin 30° − μ cos 30°) = 2.356 m/s², so
// x(1) = −1 − a/2 (Model.SetFriction; hht includes the λ-dependent force in its Newton
// matrix, dopri5 solves eq. 17 with it by Newton on λ at every stage).
func ExampleModel_SetFriction() {
	const theta = math.Pi / 6
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	block := m.AddBody(planar.Body{Name: "block", Mass: 2, Inertia: 0.1, Angle: theta,
		Vel: planar.Vec{-math.Cos(theta), -math.Sin(theta)}})
	slide := m.AddTranslational("slide", m.AddMarker(planar.Marker{Body: planar.Ground, Angle: theta}),
		m.AddMarker(planar.Marker{Body: block}))
	m.SetFriction(slide, planar.JointFriction{Mu: 0.3, VReg: 1e-4})
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
	start := integrate.State{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
	hht := integrate.DefaultHHT()
	sol, err := integrate.Solve(&hht, "hht", sys, start, 1, integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-8, ATol: 1e-8}})
	if err != nil {
		fmt.Println(err)
		return
	}
	x, _ := sys.JointCoordinate(slide, sol.Final.Q)
	fmt.Printf("after 1 s: %.5f m along the slope (a = %.5f m/s²), |λ_n| = %.3f N\n", x, -2*(x+1), math.Abs(sol.Final.Lambda[0]))
	dop, _ := integrate.Lookup("dopri5")
	sol, err = integrate.Solve(dop.New(), "dopri5", sys, start, 1, integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-8, ATol: 1e-8}})
	if err != nil {
		fmt.Println(err)
		return
	}
	x, _ = sys.JointCoordinate(slide, sol.Final.Q)
	fmt.Printf("dopri5: %.5f m\n", x)
	// Output:
	// after 1 s: -2.17814 m along the slope (a = 2.35629 m/s²), |λ_n| = 16.991 N
	// dopri5: -2.17814 m
}

// The Chaplygin sleigh: a 2 kg body (inertia 0.3 kg·m²) on a knife edge 0.4 m behind its
// centre slides on a plane without gravity. Started turning at 2 rad/s with forward speed
// 0.5 m/s, it tends to a straight line at V = √(u0² + k²ω0²) = 1.2207 m/s, k² = (J + m a²)/m,
// keeping its kinetic energy m V²/2 = 1.49 J; hht includes the knife edge's Pfaffian row.
func ExampleModel_AddKnifeEdge() {
	m := planar.NewModel()
	sleigh := m.AddBody(planar.Body{Name: "sleigh", Mass: 2, Inertia: 0.3, Vel: planar.Vec{0.5, 0.8}, AngVel: 2})
	m.AddKnifeEdge("blade", m.AddMarker(planar.Marker{Name: "blade", Body: sleigh, Point: planar.Vec{-0.4, 0}}))
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
	e, _ := integrate.Lookup("hht")
	sol, err := integrate.Solve(e.New(), "hht", sys, integrate.State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}, 10,
		integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-8, ATol: 1e-8}, Output: []float64{10}})
	if err != nil {
		fmt.Println(err)
		return
	}
	q, v := sol.Final.Q, sol.Final.V
	kin, _ := sys.Energy(10, q, v)
	fmt.Printf("t = 10: forward speed %.4f m/s, turning %.4f rad/s, kinetic energy %.4f J\n",
		v[0]*math.Cos(q[2])+v[1]*math.Sin(q[2]), v[2], kin)
	fmt.Printf("blade slides sideways by less than 1e-9 m/s: %v\n", sol.MaxResidual.Vel < 1e-9)
	// Output:
	// t = 10: forward speed 1.2207 m/s, turning 0.0000 rad/s, kinetic energy 1.4900 J
	// blade slides sideways by less than 1e-9 m/s: true
}

// A disc cam (radius R = 0.05 m, pin E = 0.02 m from its centre) turned by a motion at one
// turn a second lifts a spring-loaded follower whose guide is D = 0.01 m beside the pin
// (examples/cam-follower.yaml in code). The contour is r(u) = E cos u + √(R² − E² sin² u)
// about the pin; the contact parameter u is an algebraic variable, a massless coordinate
// that dae.CheckAlgebraic accepts here. At t = 0.25 s (θ = π/2) the follower is at
// y = E + √(R² − D²) = 0.068990 m and u = atan2(y, D) − π/2 = −0.143946.
func ExampleModel_AddCam() {
	const e, r, d = 0.02, 0.05, 0.01
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	cam := m.AddBody(planar.Body{Name: "cam", Mass: 2, Inertia: 0.01})
	fol := m.AddBody(planar.Body{Name: "follower", Mass: 0.5, Inertia: 1e-4, Pos: planar.Vec{d, 0.049}})
	centre := m.AddMarker(planar.Marker{Body: cam})
	tip := m.AddMarker(planar.Marker{Body: fol})
	pin := m.AddRevolute("main", m.AddMarker(planar.Marker{Body: planar.Ground}), centre)
	m.AddMotion("drive", pin, law.Poly{Coef: []float64{0, 2 * math.Pi}})
	m.AddTranslational("guide", m.AddMarker(planar.Marker{Body: planar.Ground, Point: planar.Vec{d, 0}, Angle: math.Pi / 2}),
		m.AddMarker(planar.Marker{Body: fol, Angle: math.Pi / 2}))
	m.AddTSDA(planar.TSDA{Name: "spring", I: m.AddMarker(planar.Marker{Body: planar.Ground, Point: planar.Vec{d, 0.2}}), J: tip,
		K: 200, FreeLength: 0.2})
	m.AddCam("contact", centre, tip, problems.EccentricDisc{E: e, R: r})
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
	fmt.Println("algebraic check:", dae.CheckAlgebraic(sys, 0, c.Q))
	entry, _ := integrate.Lookup("radau5")
	method, _ := entry.NewMethod("")
	start := integrate.State{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
	sol, err := integrate.Solve(method, "radau5", sys, start, 0.25, integrate.SolveOptions{
		Control: integrate.StepControl{RTol: 1e-9, ATol: 1e-9}})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := sys.Pose(fol, sol.Final.Q)
	u := sol.Final.Q[sys.AlgebraicCoordinates()[0]]
	fmt.Printf("t = 0.25 s: follower at y = %.6f m, contact parameter u = %.6f\n", p[1], u)
	// Output:
	// algebraic check: <nil>
	// t = 0.25 s: follower at y = 0.068990 m, contact parameter u = -0.143946
}
