package spatial_test

import (
	"math"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/planar"
	"linkage/spatial"
)

// method returns a fresh integrator from the registry.
func method(t *testing.T, name string) integrate.Method {
	t.Helper()
	base, form, _ := strings.Cut(name, " ") // "name form": a formulation other than the default
	e, err := integrate.Lookup(base)
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.NewMethod(integrate.Formulation(form))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// startReduced initializes sys from (q0, v0) and returns the System the integrators see
// (the redundant rows dropped, dae.Reduce) with its consistent start.
func startReduced(t *testing.T, sys dae.System, q0, v0 []float64, opt *dae.InitOptions) (dae.System, integrate.State, dae.Consistent) {
	t.Helper()
	c, err := dae.Initialize(sys, 0, q0, v0, opt)
	if err != nil {
		t.Fatal(err)
	}
	kept := c.KeptRows()
	lam := make([]float64, len(kept))
	for i, r := range kept {
		lam[i] = c.Lambda[r]
	}
	red := sys
	if len(c.Redundant) > 0 {
		red = dae.Reduce(sys, kept)
	}
	return red, integrate.State{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: lam}, c
}

// eulerRHS is the torque-free rigid body in body axes, an independent model of the same
// motion: Euler's equations J ω̇ = −ω × J ω (diagonal J) and ṗ = ½ G(p)ᵀ ω (seed 002,
// eq. 39), y = (ω, p).
func eulerRHS(J spatial.Vec3, y [7]float64) (dy [7]float64) {
	w := spatial.Vec3{y[0], y[1], y[2]}
	dy[0] = (J[1] - J[2]) * w[1] * w[2] / J[0]
	dy[1] = (J[2] - J[0]) * w[2] * w[0] / J[1]
	dy[2] = (J[0] - J[1]) * w[0] * w[1] / J[2]
	p0, e1, e2, e3 := y[3], y[4], y[5], y[6]
	// ½ Gᵀω with G = [−e, −ẽ + p0 I].
	dy[3] = 0.5 * (-e1*w[0] - e2*w[1] - e3*w[2])
	dy[4] = 0.5 * (p0*w[0] - e3*w[1] + e2*w[2])
	dy[5] = 0.5 * (e3*w[0] + p0*w[1] - e1*w[2])
	dy[6] = 0.5 * (-e2*w[0] + e1*w[1] + p0*w[2])
	return dy
}

// TestFreeBodyEuler: a torque-free body spinning near its unstable middle axis, integrated
// by dopri5 on the spatial equations (M(q) with 4GᵀJ'G, the quadratic velocity force and the
// normalization constraint), follows classical RK4 on Euler's equations (a separate
// derivation) and keeps |p| = 1 at round-off, energy and the angular momentum in space.
func TestFreeBodyEuler(t *testing.T) {
	J := spatial.Vec3{1, 2, 3}
	w0 := spatial.Vec3{0.05, 2, 0.1}
	p0 := spatial.QuatFromAxisAngle(spatial.Vec3{1, 2, -1}, 0.8)
	m := spatial.NewModel()
	b := m.AddBody(spatial.Body{Name: "brick", Mass: 2, Inertia: spatial.Diag(J[0], J[1], J[2]),
		Pos: spatial.Vec3{1, 0, 0}, Orient: p0, Vel: spatial.Vec3{0, 0.5, 0}, AngVel: w0})
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	q0, v0 := sys.InitialGuess()
	red, s0, _ := startReduced(t, sys, q0, v0, nil)
	const tEnd = 3.0
	var maxNorm float64
	sol, err := integrate.Solve(method(t, "dopri5"), "dopri5", red, s0, tEnd, integrate.SolveOptions{
		Control: integrate.StepControl{RTol: 1e-11, ATol: 1e-11}, Output: []float64{tEnd},
		Observer: func(s *integrate.State) error {
			_, p := sys.Pose(b, s.Q)
			maxNorm = math.Max(maxNorm, math.Abs(p.Norm()-1))
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	// Reference: RK4 with h = 1e-4, global error ~ h⁴·|ω|⁵ ≈ 1e-15.
	y := [7]float64{w0[0], w0[1], w0[2], p0[0], p0[1], p0[2], p0[3]}
	const h = 1e-4
	for range int(math.Round(tEnd / h)) {
		k1 := eulerRHS(J, y)
		var y2, y3, y4 [7]float64
		for i := range y {
			y2[i] = y[i] + h/2*k1[i]
		}
		k2 := eulerRHS(J, y2)
		for i := range y {
			y3[i] = y[i] + h/2*k2[i]
		}
		k3 := eulerRHS(J, y3)
		for i := range y {
			y4[i] = y[i] + h*k3[i]
		}
		k4 := eulerRHS(J, y4)
		for i := range y {
			y[i] += h / 6 * (k1[i] + 2*k2[i] + 2*k3[i] + k4[i])
		}
	}
	q, v := sol.Q[len(sol.Q)-1], sol.V[len(sol.V)-1]
	pos, p := sys.Pose(b, q)
	_, _, wb := sys.Velocity(b, q, v)
	var errW, errP float64
	for k := range 3 {
		errW = math.Max(errW, math.Abs(wb[k]-y[k]))
	}
	for k := range 4 {
		errP = math.Max(errP, math.Abs(p[k]-y[3+k]))
	}
	errPos := math.Hypot(pos[0]-1, pos[1]-0.5*tEnd)
	t.Logf("free body at t=%g: |Δω'| = %.2g, |Δp| = %.2g, |ΔR| = %.2g, max ||p|−1| = %.2g, steps %d",
		tEnd, errW, errP, errPos, maxNorm, sol.Stats.Steps)
	// dopri5 at RTol = ATol = 1e-11: the global error is a small multiple of the tolerance
	// over 1.5 revolutions; 1e-8 leaves a factor ~100 for growth near the unstable axis.
	if errW > 1e-8 || errP > 1e-8 || errPos > 1e-8 {
		t.Errorf("free body: |Δω'| = %.2g, |Δp| = %.2g, |ΔR| = %.2g, want <= 1e-8", errW, errP, errPos)
	}
	// The projection of eq. 89 enforces pᵀp = 1 to its Newton tolerance after each step:
	// round-off of a unit vector, a few 1e-16, with margin 100.
	if maxNorm > 1e-13 {
		t.Errorf("free body: max ||p| − 1| = %.2g, want round-off (<= 1e-13)", maxNorm)
	}
}

// TestNormHHT: the index-3 HHT method (seed 004) enforces the normalization row at every
// step, so |p| stays at its Newton tolerance for a fast top on a spherical joint (seed 002
// Example 6 in shape), and the energy error is that of a second-order method.
func TestNormHHT(t *testing.T) {
	m := spatial.NewModel()
	m.SetGravity(spatial.Vec3{0, 0, -9.81})
	p0 := spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, 0.3)
	top := m.AddBody(spatial.Body{Name: "top", Mass: 15, Inertia: spatial.Diag(0.234375, 0.46875, 0.234375),
		Pos: p0.Rotate(spatial.Vec3{0, 1, 0}), Orient: p0, AngVel: spatial.Vec3{0, 20, 0}})
	m.AddSpherical("tip", m.AddMarker(spatial.Marker{Body: spatial.Ground}),
		m.AddMarker(spatial.Marker{Body: top, Point: spatial.Vec3{0, -1, 0}}))
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	q0, v0 := sys.InitialGuess()
	red, s0, _ := startReduced(t, sys, q0, v0, nil)
	e0 := sys.Energies(0, s0.Q, s0.V)
	var maxNorm, maxDE float64
	_, err = integrate.Solve(method(t, "hht"), "hht", red, s0, 1, integrate.SolveOptions{
		Control: integrate.StepControl{RTol: 1e-8, ATol: 1e-8},
		Observer: func(s *integrate.State) error {
			_, p := sys.Pose(top, s.Q)
			maxNorm = math.Max(maxNorm, math.Abs(p.Norm()-1))
			e := sys.Energies(s.T, s.Q, s.V)
			maxDE = math.Max(maxDE, math.Abs(e.Kinetic+e.Potential()-e0.Kinetic-e0.Potential()))
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hht heavy top: max ||p|−1| = %.2g, max |ΔE| = %.2g of %.4g", maxNorm, maxDE, e0.Kinetic+e0.Potential())
	// Measured: ||p| − 1| = 1.1e-12 at RTol = 1e-8 (1.8e-9 at 1e-6: HHT meets g = 0 to its
	// Newton tolerance, which scales with RTol, not to round-off; the projected dopri5 of
	// TestFreeBodyEuler reaches 1e-16). 1e-10 leaves a factor ~100.
	if maxNorm > 1e-10 {
		t.Errorf("hht: max ||p| − 1| = %.2g, want <= 1e-10", maxNorm)
	}
	// Measured 1.0e-5 relative at RTol = 1e-8 (2.2e-4 at 1e-6: the ratio 21 is the
	// (100)^(2/3) of a second-order method under error control); 1e-4 leaves a factor 10.
	if maxDE > 1e-4*math.Abs(e0.Kinetic+e0.Potential()) {
		t.Errorf("hht: energy drift %.2g, want <= 1e-4 relative", maxDE)
	}
}

// fourBar is a crank-rocker in the x-y plane: ground pivots O = (0, 0) and D = (0.9, 0),
// crank OA 0.3, coupler AB 1.0, rocker DB 0.8; a TSDA from the ground point (0.5, 1) to the
// coupler's centre, an RSDA on the crank pivot, gravity −y. The same mechanism is built
// with planar bodies and with spatial bodies and revolutes about z.
type fourBarBody struct {
	name           string
	mass, len, izz float64
}

var fourBarBodies = [3]fourBarBody{{"crank", 1, 0.3, 0.01}, {"coupler", 2, 1.0, 0.17}, {"rocker", 1.5, 0.8, 0.08}}

func planarFourBar(t *testing.T) (*planar.System, []planar.BodyID) {
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	var ids []planar.BodyID
	var ends [3][2]planar.MarkerID
	for _, b := range fourBarBodies {
		id := m.AddBody(planar.Body{Name: b.name, Mass: b.mass, Inertia: b.izz})
		ids = append(ids, id)
		ends[len(ids)-1] = [2]planar.MarkerID{
			m.AddMarker(planar.Marker{Body: id, Point: planar.Vec{-b.len / 2, 0}}),
			m.AddMarker(planar.Marker{Body: id, Point: planar.Vec{b.len / 2, 0}}),
		}
	}
	o := m.AddMarker(planar.Marker{Body: planar.Ground})
	d := m.AddMarker(planar.Marker{Body: planar.Ground, Point: planar.Vec{0.9, 0}})
	anchor := m.AddMarker(planar.Marker{Body: planar.Ground, Point: planar.Vec{0.5, 1}})
	mid := m.AddMarker(planar.Marker{Body: ids[1]})
	a := m.AddRevolute("A", o, ends[0][0])
	m.AddRevolute("B", ends[0][1], ends[1][0])
	m.AddRevolute("C", ends[1][1], ends[2][1])
	m.AddRevolute("D", d, ends[2][0])
	m.AddTSDA(planar.TSDA{Name: "spring", I: anchor, J: mid, K: 40, C: 2, FreeLength: 0.3})
	m.AddRSDA(planar.RSDA{Name: "coil", Joint: a, K: 3, C: 0.1, FreeAngle: 1})
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys, ids
}

func spatialFourBar(t *testing.T) (*spatial.System, []spatial.BodyID) {
	m := spatial.NewModel()
	m.SetGravity(spatial.Vec3{0, -9.81, 0})
	var ids []spatial.BodyID
	var ends [3][2]spatial.MarkerID
	for _, b := range fourBarBodies {
		// Out-of-plane inertias are arbitrary: the motion stays planar.
		id := m.AddBody(spatial.Body{Name: b.name, Mass: b.mass, Inertia: spatial.Diag(0.02, b.izz+0.01, b.izz)})
		ids = append(ids, id)
		ends[len(ids)-1] = [2]spatial.MarkerID{
			m.AddMarker(spatial.Marker{Body: id, Point: spatial.Vec3{-b.len / 2, 0, 0}}),
			m.AddMarker(spatial.Marker{Body: id, Point: spatial.Vec3{b.len / 2, 0, 0}}),
		}
	}
	o := m.AddMarker(spatial.Marker{Body: spatial.Ground})
	d := m.AddMarker(spatial.Marker{Body: spatial.Ground, Point: spatial.Vec3{0.9, 0, 0}})
	anchor := m.AddMarker(spatial.Marker{Body: spatial.Ground, Point: spatial.Vec3{0.5, 1, 0}})
	mid := m.AddMarker(spatial.Marker{Body: ids[1]})
	a := m.AddRevolute("A", o, ends[0][0])
	m.AddRevolute("B", ends[0][1], ends[1][0])
	m.AddRevolute("C", ends[1][1], ends[2][1])
	m.AddRevolute("D", d, ends[2][0])
	m.AddTSDA(spatial.TSDA{Name: "spring", I: anchor, J: mid, K: 40, C: 2, FreeLength: 0.3})
	m.AddRSDA(spatial.RSDA{Name: "coil", Joint: a, K: 3, C: 0.1, FreeAngle: 1})
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys, ids
}

// TestPlanarFourBar: the four-bar built with spatial revolutes about z reproduces the
// planar layer's trajectory (x, y, θ of every body, θ = 2 atan2(p3, p0)) to 1e-8, and
// dae.Initialize reports its 3 redundant out-of-plane rows by name (23 rows, rank 20).
func TestPlanarFourBar(t *testing.T) {
	psys, pids := planarFourBar(t)
	ssys, sids := spatialFourBar(t)
	// Planar start: crank at 1.2 rad turning at 3 rad/s; the other bodies solved for.
	th1 := 1.2
	A := planar.Vec{0.3 * math.Cos(th1), 0.3 * math.Sin(th1)}
	guessB := planar.Vec{0.95, 0.75}
	pq0 := []float64{A[0] / 2, A[1] / 2, th1,
		(A[0] + guessB[0]) / 2, (A[1] + guessB[1]) / 2, math.Atan2(guessB[1]-A[1], guessB[0]-A[0]),
		(0.9 + guessB[0]) / 2, guessB[1] / 2, math.Atan2(guessB[1], guessB[0]-0.9)}
	pv0 := make([]float64, 9)
	pv0[2] = 3
	pred, ps0, _ := startReduced(t, psys, pq0, pv0, &dae.InitOptions{Keep: []int{2}})

	// Spatial start from the planar one: p = (cos θ/2, 0, 0, sin θ/2).
	sq0 := make([]float64, 21)
	sv0 := make([]float64, 21)
	for k := range 3 {
		x, y, th := ps0.Q[3*k], ps0.Q[3*k+1], ps0.Q[3*k+2]
		vx, vy, w := ps0.V[3*k], ps0.V[3*k+1], ps0.V[3*k+2]
		s, c := math.Sincos(th / 2)
		copy(sq0[7*k:], []float64{x, y, 0, c, 0, 0, s})
		copy(sv0[7*k:], []float64{vx, vy, 0, -s * w / 2, 0, 0, c * w / 2})
	}
	sred, ss0, con := startReduced(t, ssys, sq0, sv0, nil)
	t.Logf("%s", con.Report(ssys))
	if len(con.Redundant) != 3 || ssys.DOF(con) != 1 {
		t.Fatalf("redundant rows %v, DOF %d; want 3 and 1", con.Redundant, ssys.DOF(con))
	}
	for _, r := range con.Redundant {
		name := ssys.ConstraintName(r)
		joint, row, _ := strings.Cut(name, ".")
		if !strings.Contains("ABCD", joint) || (row != "z" && row != "zx" && row != "zy") {
			t.Errorf("redundant row %q, want an out-of-plane row (.z, .zx, .zy) of joints A-D", name)
		}
		if !strings.Contains(con.Report(ssys), name) {
			t.Errorf("report does not name %q", name)
		}
	}

	times := []float64{0.25, 0.5, 0.75, 1}
	ctl := integrate.StepControl{RTol: 1e-12, ATol: 1e-12}
	psol, err := integrate.Solve(method(t, "dopri5"), "dopri5", pred, ps0, 1, integrate.SolveOptions{Control: ctl, Output: times})
	if err != nil {
		t.Fatal(err)
	}
	ssol, err := integrate.Solve(method(t, "dopri5"), "dopri5", sred, ss0, 1, integrate.SolveOptions{Control: ctl, Output: times})
	if err != nil {
		t.Fatal(err)
	}
	var worst, outOfPlane float64
	for i := range times {
		pq, sq := psol.Q[i], ssol.Q[i]
		for k := range 3 {
			pos, p := ssys.Pose(sids[k], sq)
			ppos, pth := psys.Pose(pids[k], pq)
			th := 2 * math.Atan2(p[3], p[0])
			dth := math.Remainder(th-pth, 2*math.Pi)
			worst = math.Max(worst, math.Max(math.Abs(pos[0]-ppos[0]), math.Max(math.Abs(pos[1]-ppos[1]), math.Abs(dth))))
			outOfPlane = math.Max(outOfPlane, math.Max(math.Abs(pos[2]), math.Max(math.Abs(p[1]), math.Abs(p[2]))))
		}
	}
	t.Logf("planar vs spatial four-bar over [0, 1]: max difference %.2g, out of plane %.2g; steps %d vs %d",
		worst, outOfPlane, psol.Stats.Steps, ssol.Stats.Steps)
	// Both runs carry dopri5's global error at RTol = ATol = 1e-12 (a few 1e-11 over one
	// second); 1e-8 is the bound.
	if worst > 1e-8 || outOfPlane > 1e-8 {
		t.Errorf("spatial four-bar differs from planar by %.2g (out of plane %.2g), want <= 1e-8", worst, outOfPlane)
	}

	// In-plane reactions of the coupler pin B agree at the end (redundant rows are
	// out-of-plane, so the in-plane multipliers are unique).
	sLam := make([]float64, len(con.Lambda))
	dae.ExpandLambda(sLam, ssol.Final.Lambda, con.KeptRows())
	pr := psys.Reaction(2, psol.Final.Q, psol.Final.Lambda)
	sr := ssys.Reaction(2, ssol.Final.Q, sLam)
	dF := math.Max(math.Abs(pr.OnJ.Force[0]-sr.OnJ.Force[0]), math.Abs(pr.OnJ.Force[1]-sr.OnJ.Force[1]))
	t.Logf("pin B reaction on the coupler: planar %v, spatial %v", pr.OnJ.Force, sr.OnJ.Force)
	// λ is an algebraic variable computed from the state: agreement ~1e-8 relative to
	// forces of ~10 N.
	if dF > 1e-6 {
		t.Errorf("pin B reaction differs by %.2g N, want <= 1e-6", dF)
	}
}
