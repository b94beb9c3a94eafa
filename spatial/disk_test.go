package spatial_test

import (
	"math"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/spatial"
)

// Rolling disk of the tests: a thin uniform disk of mass m and radius r (axial moment
// Ia = m r²/2, diametral Id = m r²/4) under gravity g, its axis the body z axis.
const (
	diskM, diskR, diskG = 1.0, 0.3, 9.81
	diskIa, diskId      = diskM * diskR * diskR / 2, diskM * diskR * diskR / 4
)

// diskModel is the rolling disk with its centre of mass at the marker (or, for an
// unbalanced disk, the marker's point s from it), started from the pose (pos, orient) and
// velocities (vel, angular velocity w in body axes).
func diskModel(t *testing.T, s spatial.Vec3, pos spatial.Vec3, orient spatial.Quat, vel, w spatial.Vec3) (*spatial.System, spatial.JointID) {
	t.Helper()
	m := spatial.NewModel()
	m.SetGravity(spatial.Vec3{0, 0, -diskG})
	b := m.AddBody(spatial.Body{Name: "disk", Mass: diskM, Inertia: spatial.Diag(diskId, diskId, diskIa),
		Pos: pos, Orient: orient, Vel: vel, AngVel: w})
	j := m.AddRollingDisk("roll", m.AddMarker(spatial.Marker{Name: "centre", Body: b, Point: s, Axis: spatial.Vec3{0, 0, 1}}), diskR)
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys, j
}

// TestRollingDiskDerivatives compares G, γ, ∂(Gᵀλ)/∂q of the contact row and ∂(A v)/∂q,
// ∂(Aᵀμ)/∂q and γ_A of the rolling rows with central differences (dae.Check), for a disk
// whose centre is off its centre of mass and whose axis is not a body axis, at tilted poses
// with p off the unit sphere (the derivatives must hold there too).
func TestRollingDiskDerivatives(t *testing.T) {
	m := spatial.NewModel()
	m.SetGravity(spatial.Vec3{0, 0, -diskG})
	b := m.AddBody(spatial.Body{Name: "disk", Mass: 2, Inertia: spatial.Diag(0.05, 0.06, 0.09)})
	m.AddRollingDisk("roll", m.AddMarker(spatial.Marker{Body: b, Point: spatial.Vec3{0.02, -0.01, 0.03}, Axis: spatial.Vec3{0.2, 0.1, 1}}), 0.4)
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	nq, nc := sys.Size()
	if nn := sys.NumPfaffian(); nq != 7 || nc != 2 || nn != 2 {
		t.Fatalf("Size = (%d, %d), NumPfaffian = %d; want (7, 2), 2", nq, nc, nn)
	}
	for k, p := range []spatial.Quat{
		spatial.QuatFromAxisAngle(spatial.Vec3{1, 0.2, 0}, 1.2),  // leaning, u_z ≈ 0.4
		spatial.QuatFromAxisAngle(spatial.Vec3{0.3, 1, 0.5}, 2.0), // leaning the other way
		spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, math.Pi/2),
	} {
		q := []float64{0.1, -0.2, 0.35, 1.01 * p[0], 1.01 * p[1], 1.01 * p[2], 1.01 * p[3]}
		v := []float64{0.5, -0.3, 0.2, 0.7, -1.1, 0.4, 0.9}
		ms, err := dae.Check(sys, dae.CheckPoint{T: 0, Q: q, V: v, Lambda: []float64{0.3, -1.7}}, checkTol)
		if err != nil {
			t.Errorf("pose %d: %v", k, err)
		}
		seen := 0
		for _, m := range ms {
			if strings.Contains(m.Quantity, "A v") || strings.Contains(m.Quantity, "mu") || m.Quantity == "gamma_A" {
				seen++
			}
		}
		if seen != 3 {
			t.Errorf("pose %d: dae.Check compared %d Pfaffian quantities, want 3", k, seen)
		}
	}
}

// contactSlip returns the velocity of the disk's material point at the contact point P,
// Ṙ + ω × (P − R), computed from the body's pose and velocity (an independent check of
// A v = 0 and of the holonomic row's derivative).
func contactSlip(sys *spatial.System, j spatial.JointID, q, v []float64) spatial.Vec3 {
	P, _ := sys.ContactPoint(j, q)
	R, _ := sys.Pose(1, q)
	vel, omega, _ := sys.Velocity(1, q, v)
	return vel.Add(omega.Cross(P.Sub(R)))
}

// runDisk integrates sys from its consistent start to tEnd with method ("bdf/index2": in
// that formulation) at RTol = ATol = tol, sampling at out.
func runDisk(t *testing.T, method string, sys *spatial.System, tEnd, tol float64, out []float64) *integrate.Solution {
	t.Helper()
	name, form, _ := strings.Cut(method, "/")
	e, err := integrate.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.NewMethod(integrate.Formulation(form))
	if err != nil {
		t.Fatal(err)
	}
	q0, v0 := sys.InitialGuess()
	c, err := dae.Initialize(sys, 0, q0, v0, nil)
	if err != nil {
		t.Fatal(err)
	}
	s0 := integrate.State{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
	sol, err := integrate.Solve(m, method, sys, s0, tEnd,
		integrate.SolveOptions{Control: integrate.StepControl{RTol: tol, ATol: tol}, Output: out})
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return sol
}

// diskMethods are the methods that take Pfaffian rows, with the tolerance they run at
// (the fixed-parameter ones are second order: a looser tolerance keeps them fast) and
// the bound on the errors checked against the closed forms at that tolerance.
var diskMethods = []struct {
	method   string
	tol, err float64
}{
	{"dopri5", 1e-10, 1e-7},
	{"mdop5", 1e-10, 1e-7},
	{"bdf", 1e-9, 1e-6},
	{"bdf/index2", 1e-9, 1e-6},
	{"radau5", 1e-9, 1e-6},
	{"radau5/index2", 1e-9, 1e-6},
	{"hht", 1e-7, 1e-4},
	{"genalpha", 1e-7, 1e-4},
	{"genalpha-si2", 1e-7, 1e-4},
	{"newmark", 1e-7, 1e-4},
}

// samples returns k equally spaced times in (0, tEnd].
func samples(k int, tEnd float64) []float64 {
	out := make([]float64, k)
	for i := range out {
		out[i] = tEnd * float64(i+1) / float64(k)
	}
	return out
}

// TestRollingDiskStraight: an upright disk (axis horizontal along y) rolling at speed V
// rolls straight on: centre (V t, 0, r), spin V/r about its axis, the contact point at rest
// (no slip), with every method that takes the rolling rows.
func TestRollingDiskStraight(t *testing.T) {
	const V, tEnd = 1.5, 2.0
	up := spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, -math.Pi/2) // body z → global y
	sys, j := diskModel(t, spatial.Vec3{}, spatial.Vec3{0, 0, diskR}, up, spatial.Vec3{V, 0, 0}, spatial.Vec3{0, 0, V / diskR})
	for _, c := range diskMethods {
		sol := runDisk(t, c.method, sys, tEnd, c.tol, samples(8, tEnd))
		var worst, slip float64
		for i, tt := range sol.T {
			q, v := sol.Q[i], sol.V[i]
			want := []float64{V * tt, 0, diskR}
			for k := range 3 {
				worst = math.Max(worst, math.Abs(q[k]-want[k]))
			}
			_, _, wb := sys.Velocity(1, q, v)
			worst = math.Max(worst, math.Abs(wb[2]-V/diskR)/(V/diskR))
			slip = math.Max(slip, contactSlip(sys, j, q, v).Norm())
		}
		if worst > c.err || slip > c.err {
			t.Errorf("%s: max error of the centre and relative spin %.3g, contact-point speed %.3g; want ≤ %g", c.method, worst, slip, c.err)
		}
		t.Logf("%s: error %.3g, slip %.3g, %d steps", c.method, worst, slip, sol.Stats.Steps)
	}
}
