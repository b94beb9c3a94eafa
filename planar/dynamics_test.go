package planar_test

import (
	"math"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/law"
	"linkage/planar"
	"linkage/problems"
)

// start makes a consistent integrate.State from the system's initial guess.
func start(t *testing.T, sys *planar.System) (integrate.State, dae.Consistent) {
	t.Helper()
	q0, v0 := sys.InitialGuess()
	c, err := dae.Initialize(sys, 0, q0, v0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return integrate.State{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}, c
}

func dopri5(t *testing.T) integrate.Method {
	t.Helper()
	e, err := integrate.Lookup("dopri5")
	if err != nil {
		t.Fatal(err)
	}
	return e.New()
}

// TestPendulumExact: one body of mass m and centroidal inertia J hung from the ground by a
// revolute at distance l from its centre is a physical pendulum, i.e. the mathematical
// pendulum of problems.Pendulum with the equivalent length L = (J + m l²)/(m l); its angle
// α obeys α” = −(g/L) sin α exactly, and the centre moves on l·(sin α, −cos α).
func TestPendulumExact(t *testing.T) {
	const m, l, J, grav = 1.0, 1.0, 0.05, 9.81
	ref := problems.Pendulum{M: m, Length: (J + m*l*l) / (m * l), Grav: grav, Alpha0: 5 * math.Pi / 180}
	a0 := ref.Alpha0

	mod := planar.NewModel()
	mod.SetGravity(planar.Vec{0, -grav})
	// Body frame: x axis along the rod, pointing from the pivot to the centre.
	b := mod.AddBody(planar.Body{Name: "bob", Mass: m, Inertia: J,
		Pos: planar.Vec{l * math.Sin(a0), -l * math.Cos(a0)}, Angle: a0 - math.Pi/2})
	pin := mod.AddRevolute("pin", mod.AddMarker(planar.Marker{Body: planar.Ground}),
		mod.AddMarker(planar.Marker{Body: b, Point: planar.Vec{-l, 0}}))
	sys, err := mod.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	s0, _ := start(t, sys)
	const tEnd = 1.25
	sol, err := integrate.Solve(dopri5(t), "dopri5", sys, s0, tEnd,
		integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-10, ATol: 1e-10}, Output: []float64{tEnd}})
	if err != nil {
		t.Fatal(err)
	}
	ex := integrate.NewState(2, 1)
	ref.Exact(tEnd, &ex)
	q := sol.Q[len(sol.Q)-1]
	scale := l / ref.Length // centre of mass at l/L of the equivalent point
	errX := math.Abs(q[0] - scale*ex.Q[0])
	errY := math.Abs(q[1] - scale*ex.Q[1])
	alpha, _ := sys.JointCoordinate(pin, q)
	exAlpha := math.Atan2(ex.Q[0], -ex.Q[1])
	errA := math.Abs(alpha + math.Pi/2 - exAlpha) // joint angle = θ − 0 = α − π/2
	scd := -math.Log10(math.Max(errX/math.Abs(scale*ex.Q[0]), errY/math.Abs(scale*ex.Q[1])))
	t.Logf("pendulum at t=%g: |Δx| = %.2g, |Δy| = %.2g, |Δα| = %.2g, scd = %.1f, steps %d", tEnd, errX, errY, errA, scd, sol.Stats.Steps)
	// dopri5 at RTol = ATol = 1e-10 over 0.6 periods: the global error is a small multiple
	// of the tolerance; 1e-8 relative (scd ≥ 8) leaves a factor 100 for error growth.
	if scd < 8 || errA > 1e-8*a0 {
		t.Errorf("pendulum at t=%g: scd = %.2f (want >= 8), |Δα| = %.2g (want <= %.2g)", tEnd, scd, errA, 1e-8*a0)
	}
}

// sliderCrank is seed 000's slider-crank (section 4.2, Table 3: L1 = 0.3, m1 = 3, L2 = 0.6,
// m2 = 9; slender rods J = m L²/12), crank pinned at the origin, the rod's far end C in a
// slot along the ground x axis, a TSDA from the ground point (1.2, 0) to C, gravity −y.
// The crank starts at 45° turning at 10 rad/s.
func sliderCrank(t *testing.T, tsda planar.TSDA, extra func(m *planar.Model, crank, rod planar.BodyID, tip planar.MarkerID)) (*planar.System, planar.JointID) {
	const L1, m1, L2, m2 = 0.3, 3.0, 0.6, 9.0
	th1 := math.Pi / 4
	B := planar.Vec{L1 * math.Cos(th1), L1 * math.Sin(th1)}
	C := planar.Vec{B[0] + math.Sqrt(L2*L2-B[1]*B[1]), 0}
	th2 := math.Atan2(C[1]-B[1], C[0]-B[0])
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	crank := m.AddBody(planar.Body{Name: "crank", Mass: m1, Inertia: m1 * L1 * L1 / 12,
		Pos: planar.Vec{B[0] / 2, B[1] / 2}, Angle: th1, AngVel: 10})
	rod := m.AddBody(planar.Body{Name: "rod", Mass: m2, Inertia: m2 * L2 * L2 / 12,
		Pos: planar.Vec{(B[0] + C[0]) / 2, (B[1] + C[1]) / 2}, Angle: th2})
	o := m.AddMarker(planar.Marker{Name: "O", Body: planar.Ground})
	anchor := m.AddMarker(planar.Marker{Name: "anchor", Body: planar.Ground, Point: planar.Vec{1.2, 0}})
	cA := m.AddMarker(planar.Marker{Body: crank, Point: planar.Vec{-L1 / 2, 0}})
	cB := m.AddMarker(planar.Marker{Body: crank, Point: planar.Vec{L1 / 2, 0}})
	rB := m.AddMarker(planar.Marker{Body: rod, Point: planar.Vec{-L2 / 2, 0}})
	rC := m.AddMarker(planar.Marker{Body: rod, Point: planar.Vec{L2 / 2, 0}})
	m.AddRevolute("main", o, cA)
	m.AddRevolute("crankpin", cB, rB)
	slot := m.AddPointOnLine("slot", o, rC)
	tsda.I, tsda.J = anchor, rC
	m.AddTSDA(tsda)
	if extra != nil {
		extra(m, crank, rod, rC)
	}
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys, slot
}

// TestSliderCrankEnergy: the energy invariant Π = T + V − ∫ P_nc dt of seed 001 (eq. 12)
// stays constant along a dopri5 solution of the slider-crank with a spring-damper-actuator
// TSDA; ∫ P_nc is the composite Simpson rule on dense output.
func TestSliderCrankEnergy(t *testing.T) {
	cases := []struct {
		name  string
		e     planar.TSDA
		extra func(m *planar.Model, crank, rod planar.BodyID, tip planar.MarkerID)
	}{
		{"spring", planar.TSDA{Name: "tsda", K: 2000, FreeLength: 0.5}, nil},
		{"spring-damper-actuator", planar.TSDA{Name: "tsda", K: 2000, C: 50, FreeLength: 0.5,
			Actuator: law.Sine{Amplitude: 40, Omega: 20}}, nil},
		{"seed 001 laws", planar.TSDA{Name: "tsda", FreeLength: 0.5,
			Spring: law.Polynomial{Coef: []float64{0, 2000, 0, 5e4}}, Damper: law.Linear{K: 30}}, nil},
		// A spring law without Potential: its work goes into ∫ P_nc instead of V.
		{"law without potential", planar.TSDA{Name: "tsda", FreeLength: 0.5, Spring: lawOnly{law.Linear{K: 2000}}}, nil},
		{"applied loads", planar.TSDA{Name: "tsda", K: 500, FreeLength: 0.5},
			func(m *planar.Model, crank, rod planar.BodyID, tip planar.MarkerID) {
				m.AddTorque("motor", crank, law.Smoothstep{T0: 0, T1: 0.2, From: 0, To: 20})
				m.AddPointForce("push", tip, law.Const{Value: -30}, law.Sine{Amplitude: 10, Omega: 15}, false)
				m.AddPointForce("wind", tip, law.Const{Value: 5}, nil, true)
				m.AddCustomForce("drag", func(dst []float64, _ float64, _, v []float64) {
					dst[3] -= 2 * v[3] * math.Abs(v[3])
				})
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sys, _ := sliderCrank(t, c.e, c.extra)
			s0, _ := start(t, sys)
			const tEnd, n = 0.5, 2000 // n even: Simpson's panels
			out := make([]float64, n+1)
			for i := range out {
				out[i] = tEnd * float64(i) / n
			}
			sol, err := integrate.Solve(dopri5(t), "dopri5", sys, s0, tEnd,
				integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-10, ATol: 1e-10}, Output: out})
			if err != nil {
				t.Fatal(err)
			}
			h := tEnd / n
			var work, worst, scale float64
			e0 := sys.Energies(0, sol.Q[0], sol.V[0])
			pi0 := e0.Kinetic + e0.Potential()
			pPrev := sys.NonConservativePower(0, sol.Q[0], sol.V[0])
			for i := 2; i <= n; i += 2 {
				pMid := sys.NonConservativePower(sol.T[i-1], sol.Q[i-1], sol.V[i-1])
				p := sys.NonConservativePower(sol.T[i], sol.Q[i], sol.V[i])
				work += h / 3 * (pPrev + 4*pMid + p)
				pPrev = p
				e := sys.Energies(sol.T[i], sol.Q[i], sol.V[i])
				scale = math.Max(scale, math.Abs(e.Kinetic)+math.Abs(e.Potential()))
				worst = math.Max(worst, math.Abs(e.Kinetic+e.Potential()-work-pi0))
			}
			t.Logf("%s: max |Π − Π₀| = %.3g over [0, %g], energy scale %.3g, ∫P_nc = %.4g, steps %d",
				c.name, worst, tEnd, scale, work, sol.Stats.Steps)
			// dopri5 at tolerance 1e-10: Π drifts by a few 1e-10 of the energy scale; Simpson's
			// error on h = 2.5e-4 is ~h⁴·P'''' ≈ 1e-10 relative here. 1e-8 relative is the bound.
			if worst > 1e-8*scale {
				t.Errorf("%s: max |Π − Π₀| = %.3g, want <= %.3g", c.name, worst, 1e-8*scale)
			}
		})
	}
}

// TestHangingReaction: a body hanging at rest below a revolute carries its weight: the
// joint pushes the body up with m·g and the ground down with m·g, no moment.
func TestHangingReaction(t *testing.T) {
	const mass, grav = 2.5, 9.81
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -grav})
	b := m.AddBody(planar.Body{Name: "bob", Mass: mass, Inertia: 0.1, Pos: planar.Vec{0, -0.4}})
	pin := m.AddRevolute("pin", m.AddMarker(planar.Marker{Body: planar.Ground, Angle: 0.3}),
		m.AddMarker(planar.Marker{Body: b, Point: planar.Vec{0, 0.4}}))
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	s0, _ := start(t, sys)
	r := sys.Reaction(pin, s0.Q, s0.Lambda)
	want := mass * grav
	// λ solves a 5×5 linear system: rounding ~1e-15 relative; 1e-12 allows for conditioning.
	const tol = 1e-12 * mass * grav
	if math.Abs(r.OnJ.Force[0]) > tol || math.Abs(r.OnJ.Force[1]-want) > tol || math.Abs(r.OnJ.Torque) > tol {
		t.Errorf("reaction on the body = %v, want force (0, %g) and no moment", r.OnJ, want)
	}
	if math.Abs(r.OnI.Force[1]+want) > tol {
		t.Errorf("reaction on the ground = %v, want force (0, %g)", r.OnI, -want)
	}
	// Marker I is turned by 0.3 rad: the body's load in its axes is m g (sin 0.3, cos 0.3).
	loc := r.OnJLocal.Force
	if math.Abs(loc[0]-want*math.Sin(0.3)) > tol || math.Abs(loc[1]-want*math.Cos(0.3)) > tol {
		t.Errorf("reaction on the body in marker I's axes = %v, want %g·(sin 0.3, cos 0.3)", loc, want)
	}
}

// TestSliderNormalForce: a block on a frictionless slide inclined at β = 30° accelerates
// down the slope at g sin β, and the slide pushes it with the normal force m g cos β along
// the slide's normal n_I; its joint coordinate accelerates at −g sin β.
func TestSliderNormalForce(t *testing.T) {
	const mass, grav, beta = 4.0, 9.81, math.Pi / 6
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -grav})
	b := m.AddBody(planar.Body{Name: "block", Mass: mass, Inertia: 0.3, Pos: planar.Vec{1, 0.5}, Angle: beta})
	slide := m.AddTranslational("slide", m.AddMarker(planar.Marker{Body: planar.Ground, Angle: beta}),
		m.AddMarker(planar.Marker{Body: b}))
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	s0, _ := start(t, sys)
	r := sys.Reaction(slide, s0.Q, s0.Lambda)
	const tol = 1e-12 * mass * grav // rounding of a small linear solve, as above
	if n := r.OnJLocal.Force; math.Abs(n[0]) > tol || math.Abs(n[1]-mass*grav*math.Cos(beta)) > tol {
		t.Errorf("slide load on the block in the slide's axes = %v, want (0, %g)", n, mass*grav*math.Cos(beta))
	}
	acc, _ := sys.Pose(b, s0.A)
	along := acc[0]*math.Cos(beta) + acc[1]*math.Sin(beta)
	if math.Abs(along+grav*math.Sin(beta)) > 1e-12*grav {
		t.Errorf("acceleration along the slide = %g, want %g", along, -grav*math.Sin(beta))
	}
}

// TestParallelogramRedundant: a parallelogram four-bar (ground link 1, cranks 0.5, coupler
// 1) with a third crank in the middle has 12 coordinates and 12 revolute rows but one
// degree of freedom: one row is redundant everywhere on the parallelogram branch, and
// dae.Initialize names it.
func TestParallelogramRedundant(t *testing.T) {
	const th = math.Pi / 3
	c, s := 0.25*math.Cos(th), 0.25*math.Sin(th)
	m := planar.NewModel()
	left := m.AddBody(planar.Body{Name: "left", Mass: 1, Inertia: 0.02, Pos: planar.Vec{c, s}, Angle: th})
	right := m.AddBody(planar.Body{Name: "right", Mass: 1, Inertia: 0.02, Pos: planar.Vec{1 + c, s}, Angle: th})
	top := m.AddBody(planar.Body{Name: "top", Mass: 2, Inertia: 0.2, Pos: planar.Vec{0.5 + 2*c, 2 * s}})
	g0 := m.AddMarker(planar.Marker{Body: planar.Ground})
	g1 := m.AddMarker(planar.Marker{Body: planar.Ground, Point: planar.Vec{1, 0}})
	m.AddRevolute("A", g0, m.AddMarker(planar.Marker{Body: left, Point: planar.Vec{-0.25, 0}}))
	m.AddRevolute("B", m.AddMarker(planar.Marker{Body: left, Point: planar.Vec{0.25, 0}}), m.AddMarker(planar.Marker{Body: top, Point: planar.Vec{-0.5, 0}}))
	m.AddRevolute("C", m.AddMarker(planar.Marker{Body: top, Point: planar.Vec{0.5, 0}}), m.AddMarker(planar.Marker{Body: right, Point: planar.Vec{0.25, 0}}))
	m.AddRevolute("D", g1, m.AddMarker(planar.Marker{Body: right, Point: planar.Vec{-0.25, 0}}))
	mid := m.AddBody(planar.Body{Name: "mid", Mass: 1, Inertia: 0.02, Pos: planar.Vec{0.5 + c, s}, Angle: th})
	m.AddRevolute("E", m.AddMarker(planar.Marker{Body: planar.Ground, Point: planar.Vec{0.5, 0}}), m.AddMarker(planar.Marker{Body: mid, Point: planar.Vec{-0.25, 0}}))
	m.AddRevolute("F", m.AddMarker(planar.Marker{Body: mid, Point: planar.Vec{0.25, 0}}), m.AddMarker(planar.Marker{Body: top}))
	m.SetGravity(planar.Vec{0, -9.81})
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	_, con := start(t, sys)
	if len(con.Redundant) != 1 {
		t.Fatalf("redundant rows %v (%s), want exactly one", con.Redundant, con.Report(sys))
	}
	name := sys.ConstraintName(con.Redundant[0])
	t.Logf("%s", con.Report(sys))
	// Any row of the dependent combination may be the one dropped (dae's pivoting picks
	// E.y at this pose); what matters is that it is named after its joint.
	if joint, row, ok := strings.Cut(name, "."); !ok || !strings.Contains("ABCDEF", joint) || (row != "x" && row != "y") {
		t.Errorf("redundant row %q, want a row name \"joint.x\" or \"joint.y\" of joints A-F", name)
	}
	if dof := sys.DOF(con); dof != 1 {
		t.Errorf("DOF = %d, want 1", dof)
	}
	if !strings.Contains(con.Report(sys), "redundant constraints: "+name) {
		t.Errorf("report %q does not name the redundant joint row", con.Report(sys))
	}
}

// lawOnly hides the Potential of a law.
type lawOnly struct{ law.Force }
