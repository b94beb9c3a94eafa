package joint_test

import (
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
	"linkage/modelfile"
)

// runExample runs an example model file on its own route (absolute coordinates) with
// method at tol to tEnd and returns the final value of each named channel.
func runExample(t *testing.T, path, method string, tol, tEnd float64, channels ...string) []float64 {
	t.Helper()
	doc, err := modelfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := modelfile.Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	r, err := modelfile.Run(b, modelfile.RunOptions{Method: method, Tol: tol, TEnd: tEnd})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(channels))
	for k, name := range channels {
		found := false
		for c, have := range r.Channels {
			if have == name {
				out[k] = r.Data[c][len(r.Data[c])-1]
				found = true
			}
		}
		if !found {
			t.Fatalf("%s: no channel %q in %v", path, name, r.Channels)
		}
	}
	return out
}

// solveJoint integrates sys from a consistent start made from (q, v) by dae.Initialize
// (keeping the coordinates in keep) with method at tol (or fixed step h) to tEnd.
func solveJoint(t *testing.T, sys dae.System, q, v []float64, keep []int, method string, tol, h, tEnd float64) *integrate.Solution {
	t.Helper()
	c, err := dae.Initialize(sys, 0, q, v, &dae.InitOptions{Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	e, err := integrate.Lookup(method)
	if err != nil {
		t.Fatal(err)
	}
	start := integrate.State{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
	ctl := integrate.StepControl{RTol: tol, ATol: tol, FixedH: h}
	sol, err := integrate.Solve(e.New(), method, sys, start, tEnd, integrate.SolveOptions{Control: ctl, Output: []float64{tEnd}})
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return sol
}

func bar(name string, m, l float64) joint.Body {
	j := m * l * l / 12
	return joint.Body{Name: name, Mass: m, COM: [3]float64{l / 2, 0, 0}, Inertia: [3][3]float64{{j, 0, 0}, {0, j, 0}, {0, 0, j}}}
}

var zAxis = [3]float64{0, 0, 1}

// TestPlanarDoublePendulumMatchesBodyCoordinates: seed 001's double pendulum
// (examples/double-pendulum.yaml) as two revolute joints about z; both routes at tol 1e-8
// to t = 2 put the second bar at the same place to 1e-6.
func TestPlanarDoublePendulumMatchesBodyCoordinates(t *testing.T) {
	m := &joint.Model{Gravity: [3]float64{0, -9.81, 0}}
	b1 := m.Revolute("shoulder", joint.Ground, [3]float64{}, zAxis, bar("bar1", 1, 1))
	b2 := m.Revolute("elbow", b1, [3]float64{1, 0, 0}, zAxis, bar("bar2", 1, 1))
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	const tEnd = 2
	th := runExample(t, "../examples/double-pendulum.yaml", "radau5", 1e-8, tEnd, "bar1.theta", "bar2.theta")
	// The tip of bar 2 from the body route's angles, and the angles themselves.
	want := []float64{math.Cos(th[0]) + math.Cos(th[1]), math.Sin(th[0]) + math.Sin(th[1]), th[0], th[1]}
	sol := solveJoint(t, sys, []float64{0, 0}, []float64{0, 0}, nil, "radau5", 1e-8, 0, tEnd)
	q := sol.Final.Q
	tip := sys.Position(q, b2, [3]float64{1, 0, 0})
	for k, g := range []float64{tip[0], tip[1], q[0], q[0] + q[1]} {
		t.Logf("component %d: |joint − body| = %.1e", k, math.Abs(g-want[k]))
		if math.Abs(g-want[k]) > 1e-6 {
			t.Errorf("component %d at t=%g: joint route %.10g, body route %.10g", k, float64(tEnd), g, want[k])
		}
	}
}

// rod is a slender rod of examples/spatial-double-pendulum.yaml: 1 kg, 0.5 m, inertia
// 1e-4 along its axis x.
func rod(name string) joint.Body {
	return joint.Body{Name: name, Mass: 1, COM: [3]float64{0.25, 0, 0},
		Inertia: [3][3]float64{{1e-4, 0, 0}, {0, 0.020833333333333332, 0}, {0, 0, 0.020833333333333332}}}
}

// TestSpatialChainMatchesBodyCoordinates: the spatial double pendulum of
// examples/spatial-double-pendulum.yaml (Euler-parameter bodies, spherical joints) as two
// spherical joints in Cardan angles: the same rod positions at t = 1 to 1e-6 (tol 1e-8).
func TestSpatialChainMatchesBodyCoordinates(t *testing.T) {
	m := &joint.Model{Gravity: [3]float64{0, 0, -9.81}}
	r1 := m.Spherical("shoulder", joint.Ground, [3]float64{}, rod("rod1"))
	r2 := m.Spherical("elbow", r1, [3]float64{0.5, 0, 0}, rod("rod2"))
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ := sys.Size()
	q, v := make([]float64, nq), make([]float64, nq)
	v[m.Coordinate("shoulder.z")] = 2 // both rods turn at 2 rad/s about the vertical
	const tEnd = 1
	want := runExample(t, "../examples/spatial-double-pendulum.yaml", "radau5", 1e-8, tEnd,
		"rod1.x", "rod1.y", "rod1.z", "rod2.x", "rod2.y", "rod2.z")
	sol := solveJoint(t, sys, q, v, nil, "radau5", 1e-8, 0, tEnd)
	p1 := sys.Position(sol.Final.Q, r1, [3]float64{0.25, 0, 0})
	p2 := sys.Position(sol.Final.Q, r2, [3]float64{0.25, 0, 0})
	got := append(p1[:], p2[:]...)
	for k := range got {
		t.Logf("component %d: |joint − body| = %.1e", k, math.Abs(got[k]-want[k]))
		if math.Abs(got[k]-want[k]) > 1e-6 {
			t.Errorf("rod centre component %d at t=%g: joint route %.10g, body route %.10g", k, float64(tEnd), got[k], want[k])
		}
	}
}

// fourBar is examples/four-bar.yaml in joint coordinates: crank and rocker on revolute
// joints to the ground, the coupler on a revolute joint at the crank's tip, and the loop
// closed by a revolute cut joint between the coupler's tip and the rocker's tip (the two
// in-plane directions); when driven, the crank angle follows π/2 + 2πt, else the crank
// starts at 2π rad/s and the linkage swings freely under gravity. Coordinates: crank (absolute),
// coupler (relative to the crank), rocker (absolute).
func fourBar(t *testing.T, driven bool) (*joint.Model, *joint.System, []float64, []float64) {
	m := &joint.Model{Gravity: [3]float64{0, -9.81, 0}}
	crank := m.Revolute("crankpin", joint.Ground, [3]float64{}, zAxis, bar("crank", 0.8, 0.1))
	coupler := m.Revolute("A", crank, [3]float64{0.1, 0, 0}, zAxis, bar("coupler", 3.2, 0.4))
	rocker := m.Revolute("rockerpin", joint.Ground, [3]float64{0.35, 0, 0}, zAxis, bar("rocker", 2.4, 0.3))
	m.Cut("B", coupler, [3]float64{0.4, 0, 0}, rocker, [3]float64{0.3, 0, 0}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0})
	w := 2 * math.Pi
	if driven {
		m.Drive("drive", 0, func(t float64) float64 { return math.Pi/2 + w*t },
			func(float64) float64 { return w }, func(float64) float64 { return 0 })
	}
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	// The guess of the model file: crank 90°, coupler 0.5235, rocker 1.5827 (absolute).
	q := []float64{math.Pi / 2, 0.5235 - math.Pi/2, 1.5827}
	v := []float64{w, 0, 0}
	return m, sys, q, v
}

// TestFourBarCutJointMatchesBodyCoordinates: the rocker angle of the joint-coordinate
// four-bar with a cut joint agrees with examples/four-bar.yaml at t = 2 to 1e-6 (tol 1e-8),
// and the cut joint stays closed.
func TestFourBarCutJointMatchesBodyCoordinates(t *testing.T) {
	_, sys, q, v := fourBar(t, true)
	const tEnd = 2
	want := runExample(t, "../examples/four-bar.yaml", "radau5", 1e-8, tEnd, "rocker.theta")
	sol := solveJoint(t, sys, q, v, []int{0}, "radau5", 1e-8, 0, tEnd)
	t.Logf("rocker angle: |joint − body| = %.1e", math.Abs(sol.Final.Q[2]-want[0]))
	if got := sol.Final.Q[2]; math.Abs(got-want[0]) > 1e-6 {
		t.Errorf("rocker angle at t=%g: joint route %.10g, body route %.10g", float64(tEnd), got, want[0])
	}
	if r := sol.MaxResidual.Pos; r > 1e-10 {
		t.Errorf("cut joint residual |g| = %.3g over the run, want ≤ 1e-10", r)
	}
}

// TestEveryMethodRunsOnCutJointFourBar: every registered integrator takes the freely
// swinging four-bar closed by a cut joint (one degree of freedom, three joint coordinates,
// two loop-closure equations) to t = 0.5 at tol 1e-6 (constant-step methods: h = 1e-3;
// ali3 h = 1e-4 at tol 1e-5: at h = 1e-3 and tol 1e-6 its fixed-step Newton iteration
// stalls near 1e-10 residuals, with analytic and finite-difference derivatives alike) and
// lands on the rocker
// angle of a radau5 run at 1e-10 within 1e-3 rad, with the loop closed to 1e-6.
func TestEveryMethodRunsOnCutJointFourBar(t *testing.T) {
	_, sys, q, v := fourBar(t, false)
	const tEnd = 0.5
	ref := solveJoint(t, sys, q, v, []int{0}, "radau5", 1e-10, 0, tEnd).Final.Q[2]
	for _, e := range integrate.Methods() {
		h, tol := 0.0, 1e-6
		if !e.Adaptive {
			h = 1e-3
		}
		if e.Name == "ali3" {
			h, tol = 1e-4, 1e-5
		}
		sol := solveJoint(t, sys, q, v, []int{0}, e.Name, tol, h, tEnd)
		if d := math.Abs(sol.Final.Q[2] - ref); d > 1e-3 {
			t.Errorf("%s: rocker angle %.8g, reference %.8g", e.Name, sol.Final.Q[2], ref)
		}
		if r := sol.MaxResidual.Pos; r > 1e-6 {
			t.Errorf("%s: cut joint residual %.3g", e.Name, r)
		}
		t.Logf("%-14s |error| %.1e  |g| %.1e  steps %d", e.Name, math.Abs(sol.Final.Q[2]-ref), sol.MaxResidual.Pos, sol.Stats.Steps)
	}
}

// TestAccelerationsMatchBodyCoordinates: at random states of the double pendulum, the
// articulated-body accelerations equal those of eq. 17 in the planar body coordinates of
// examples/double-pendulum.yaml (bar angles θ₁ = q₁, θ₂ = q₁ + q₂) to 1e-10.
func TestAccelerationsMatchBodyCoordinates(t *testing.T) {
	doc, err := modelfile.Load("../examples/double-pendulum.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := modelfile.Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	body := b.System
	nb, _ := body.Size()
	index := map[string]int{}
	for i := 0; i < nb; i++ {
		index[dae.CoordinateName(body, i)] = i
	}
	m := &joint.Model{Gravity: [3]float64{0, -9.81, 0}}
	b1 := m.Revolute("shoulder", joint.Ground, [3]float64{}, zAxis, bar("bar1", 1, 1))
	m.Revolute("elbow", b1, [3]float64{1, 0, 0}, zAxis, bar("bar2", 1, 1))
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	for k, st := range [][4]float64{{0.3, -1.2, 0.7, 2.1}, {2.5, 0.4, -3, 0.2}, {-1, 2.8, 1.5, -4}} {
		q, v := []float64{st[0], st[1]}, []float64{st[2], st[3]}
		a := make([]float64, 2)
		sys.Accelerations(a, 0, q, v)
		// The bars' centres and angles, and their rates, from the joint state.
		th := [2]float64{q[0], q[0] + q[1]}
		w := [2]float64{v[0], v[0] + v[1]}
		qb, vb := make([]float64, nb), make([]float64, nb)
		set := func(name string, x, dx float64) { qb[index[name]], vb[index[name]] = x, dx }
		set("bar1.x", 0.5*math.Cos(th[0]), -0.5*math.Sin(th[0])*w[0])
		set("bar1.y", 0.5*math.Sin(th[0]), 0.5*math.Cos(th[0])*w[0])
		set("bar1.theta", th[0], w[0])
		set("bar2.x", math.Cos(th[0])+0.5*math.Cos(th[1]), -math.Sin(th[0])*w[0]-0.5*math.Sin(th[1])*w[1])
		set("bar2.y", math.Sin(th[0])+0.5*math.Sin(th[1]), math.Cos(th[0])*w[0]+0.5*math.Cos(th[1])*w[1])
		set("bar2.theta", th[1], w[1])
		c, err := dae.Initialize(body, 0, qb, vb, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{c.A[index["bar1.theta"]], c.A[index["bar2.theta"]]}
		got := []float64{a[0], a[0] + a[1]}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-10*math.Max(1, math.Abs(want[i])) {
				t.Errorf("state %d: θ''[%d] joint route %.15g, body route %.15g", k, i+1, got[i], want[i])
			}
		}
	}
}

// TestSpatialFourBarRevoluteCutMatchesBodyCoordinates: the driven RSSR four-bar of
// examples/spatial-fourbar.yaml with its tree through both ball joints (crankpin, A, B)
// and the loop closed at the rocker's revolute pivot, a revolute cut joint in 3D: three
// point rows and two orientation rows (CutAxes: the ground's x axis stays perpendicular to
// the rocker's y and z). At t = 1 (radau5, tol 1e-10) the rocker's centre, the drive's
// torque and the kinetic energy agree with the body route's to 1e-6, and the loop stays
// closed.
func TestSpatialFourBarRevoluteCutMatchesBodyCoordinates(t *testing.T) {
	sys, rocker := spatialFourBarRevoluteCut(t)
	const tEnd = 1
	want := runExample(t, "../examples/spatial-fourbar.yaml", "radau5", 1e-10, tEnd, "rocker.x", "rocker.y", "rocker.z", "drive.lambda", "energy.kinetic")
	nq, _ := sys.Size()
	q, v := make([]float64, nq), make([]float64, nq)
	v[0] = 2 * math.Pi
	sol := solveJoint(t, sys, q, v, []int{0}, "radau5", 1e-10, 0, tEnd)
	got := sys.Position(sol.Final.Q, rocker, [3]float64{0, 0, 0.15})
	for k := range got {
		t.Logf("rocker centre component %d: |joint − body| = %.1e", k, math.Abs(got[k]-want[k]))
		if math.Abs(got[k]-want[k]) > 1e-6 {
			t.Errorf("rocker centre component %d at t=%g: joint route %.10g, body route %.10g", k, float64(tEnd), got[k], want[k])
		}
	}
	if r := sol.MaxResidual.Pos; r > 1e-10 {
		t.Errorf("cut joint residual |g| = %.3g over the run, want ≤ 1e-10", r)
	}
	// The dynamics: the drive's torque (its λ, the last row) and the kinetic energy.
	ke, _ := sys.Energy(0, sol.Final.Q, sol.Final.V)
	for k, g := range []float64{sol.Final.Lambda[len(sol.Final.Lambda)-1], ke} {
		t.Logf("%s: |joint − body| = %.1e", []string{"drive λ", "kinetic energy"}[k], math.Abs(g-want[3+k]))
		if math.Abs(g-want[3+k]) > 1e-6 {
			t.Errorf("%s at t=%g: joint route %.10g, body route %.10g", []string{"drive λ", "kinetic energy"}[k], float64(tEnd), g, want[3+k])
		}
	}
}

// spatialFourBarRevoluteCut is examples/spatial-fourbar.yaml in joint coordinates with the
// tree crankpin, A, B and the revolute cut joint rockerpin; it returns the System and the
// rocker's frame. Coordinates: the crank angle (driven, 2π t), then the Cardan angles of A
// and of B, all zero in the start pose.
func spatialFourBarRevoluteCut(t *testing.T) (*joint.System, int) {
	m := &joint.Model{Gravity: [3]float64{0, 0, -9.81}}
	diag := func(a, b, c float64) [3][3]float64 { return [3][3]float64{{a, 0, 0}, {0, b, 0}, {0, 0, c}} }
	crank := m.Revolute("crankpin", joint.Ground, [3]float64{}, zAxis,
		joint.Body{Name: "crank", Mass: 0.5, COM: [3]float64{0.05, 0, 0}, Inertia: diag(0.0001, 0.00041667, 0.00041667)})
	coupler := m.Spherical("A", crank, [3]float64{0.1, 0, 0}, joint.Body{Name: "coupler", Mass: 2.0766,
		COM: [3]float64{-0.05, 0.2, -0.025}, Inertia: [3][3]float64{
			{0.0281264, 0.0068988, -0.0008624}, {0.0068988, 0.0022559, 0.0034494}, {-0.0008624, 0.0034494, 0.0294199}}})
	rocker := m.Spherical("B", coupler, [3]float64{-0.1, 0.4, -0.05},
		joint.Body{Name: "rocker", Mass: 1.5, COM: [3]float64{0, 0, 0.15}, Inertia: diag(0.01125, 0.01125, 0.0001)})
	x, y := [3]float64{1, 0, 0}, [3]float64{0, 1, 0}
	m.Cut("rockerpin", joint.Ground, [3]float64{0, 0.4, 0.25}, rocker, [3]float64{0, 0, 0.3}, x, y, zAxis)
	m.CutAxes("rockerpin", joint.Ground, x, rocker, y, zAxis)
	w := 2 * math.Pi
	m.Drive("drive", 0, func(t float64) float64 { return w * t }, func(float64) float64 { return w }, func(float64) float64 { return 0 })
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	return sys, rocker
}

// TestEveryMethodRunsOnSpatialRevoluteCut: every registered integrator takes the RSSR
// four-bar closed by a revolute cut joint in 3D (spatialFourBarRevoluteCut: seven joint
// coordinates, five cut rows and a drive) to t = 0.5 at tol 1e-6 (constant-step methods:
// h = 1e-3) and lands on the joint coordinates and rates of a radau5 run at 1e-10 within
// 1e-3 (the Cardan angles carry the coupler's free spin, the dynamic part of the motion;
// the rocker's place is fixed by the drive), with the loop closed to 1e-6; the implicit
// methods' Newton matrices take the orientation rows' ∂(Gᵀλ)/∂q.
func TestEveryMethodRunsOnSpatialRevoluteCut(t *testing.T) {
	sys, _ := spatialFourBarRevoluteCut(t)
	nq, _ := sys.Size()
	q, v := make([]float64, nq), make([]float64, nq)
	v[0] = 2 * math.Pi
	const tEnd = 0.5
	ref := solveJoint(t, sys, q, v, []int{0}, "radau5", 1e-10, 0, tEnd).Final
	for _, e := range integrate.Methods() {
		h := 0.0
		if !e.Adaptive {
			h = 1e-3
		}
		sol := solveJoint(t, sys, q, v, []int{0}, e.Name, 1e-6, h, tEnd)
		worst := 0.0
		for k := range nq {
			worst = math.Max(worst, math.Max(math.Abs(sol.Final.Q[k]-ref.Q[k]), math.Abs(sol.Final.V[k]-ref.V[k])))
		}
		if worst > 1e-3 {
			t.Errorf("%s: joint state off the reference by %.3g", e.Name, worst)
		}
		if r := sol.MaxResidual.Pos; r > 1e-6 {
			t.Errorf("%s: cut joint residual %.3g", e.Name, r)
		}
		t.Logf("%-14s |error| %.1e  |g| %.1e  steps %d", e.Name, worst, sol.MaxResidual.Pos, sol.Stats.Steps)
	}
}
