package modelfile

import (
	"math"
	"strings"
	"testing"
)

// loadJoint builds example name with coordinates: joint prepended.
func loadJoint(t *testing.T, name string) *Built {
	t.Helper()
	doc, err := parseJoint(t, name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestJointKnifeEdgeSleigh: examples/chaplygin-sleigh.yaml on the joint route (the sleigh on
// a free joint, its knife edge a Pfaffian row of package joint) against the closed form of
// the Chaplygin sleigh at t_end = 8 s, with the bounds of the body route's test
// (TestKnifeEdgeExample) for each method that takes the row: u = V tanh s, ω = (V/k) sech s,
// energy m V²/2 constant; rk4 and radau5's index3 form refuse it naming the capability.
func TestJointKnifeEdgeSleigh(t *testing.T) {
	b := loadJoint(t, "chaplygin-sleigh")
	if b.Joint == nil || len(b.Joint.Free) != 1 {
		t.Fatalf("chaplygin-sleigh: not built in joint coordinates on a free joint")
	}
	for _, c := range []struct {
		method, form string
		tol          float64
	}{
		{"dopri5", "", 1e-7},
		{"hht", "", 3e-5},
		{"bdf", "index2", 1e-6},
		{"radau5", "index2", 1e-6},
	} {
		r := runExample(t, b, RunOptions{Method: c.method, Formulation: c.form})
		eu, ew := sleighGap(r) // the start angle is 0: θ = q[2] as in body coordinates
		if eu > c.tol || ew > c.tol || r.EnergyDrift > c.tol {
			t.Errorf("%s: |Δu| = %.3g, |Δω| = %.3g, energy drift %.3g J; want ≤ %g", c.method, eu, ew, r.EnergyDrift, c.tol)
		}
		t.Logf("%s: |Δu| = %.3g, |Δω| = %.3g, energy drift %.3g J, max |A v| %.2g, %d steps", c.method, eu, ew, r.EnergyDrift, r.Solution.MaxResidual.Vel, r.Solution.Stats.Steps)
	}
	for _, opt := range []RunOptions{{Method: "rk4", H: 0.01}, {Method: "radau5", Formulation: "index3"}} {
		if _, err := Run(b, opt); err == nil || !strings.Contains(err.Error(), "nonholonomic") || !strings.Contains(err.Error(), opt.Method) {
			t.Errorf("%s %s: %v, want a refusal naming the method and the nonholonomic constraints", opt.Method, opt.Formulation, err)
		}
	}
}

// trailer is a tractor on a knife edge pulling, through a hitch (revolute), a trailer on a
// knife edge whose blade is offset from its axis and turned by 10°: on the joint route the
// trailer's knife edge is a Pfaffian row along the path free joint → hitch (its frame sits
// at the hitch), and the tractor's frame is turned as the world at the start, not as the
// tractor.
const trailer = `
name: trailer
gravity: [0, 0]
bodies:
  - {name: tractor, mass: 2, inertia: 0.3}
  - {name: trailer, mass: 1, inertia: 0.1}
markers:
  - {name: tractor.blade, body: tractor, point: [-0.1, 0]}
  - {name: tractor.hitch, body: tractor, point: [-0.5, 0]}
  - {name: trailer.hitch, body: trailer, point: [0.4, 0]}
  - {name: trailer.blade, body: trailer, point: [-0.2, 0.05], angle: 10 deg}
joints:
  - {name: front, type: knife-edge, i: tractor.blade}
  - {name: hitch, type: revolute, i: tractor.hitch, j: trailer.hitch}
  - {name: rear, type: knife-edge, i: trailer.blade}
forces:
  - {name: spring, type: rsda, joint: hitch, k: 2, c: 0.05, free_angle: 0.1}
initial:
  bodies:
    tractor: {position: [0, 0], angle: 0.2, velocity: [1, 0.3], angular_velocity: 1.5}
    trailer: {position: [-0.8822, -0.2914], angle: 0.5, velocity: [0.8, 0.1], angular_velocity: 0.5}
simulation:
  t_end: 2
  outputs: [tractor, trailer, trailer.blade, energy]
`

// TestJointKnifeEdgeOnTree: the tractor-trailer (two knife edges, one on the child of a
// revolute, with a hitch spring) follows on the joint route the body route's motion, marker
// channels and energies over 2 s, to 1e-7 of each channel's size at tol 1e-11 (dopri5);
// and with hht, whose Newton matrix takes ∂(A v)/∂q and ∂(Aᵀμ)/∂q, the poses, rates and
// energies to 2e-5 at tol 1e-8 (measured 4.4e-6, falling with tol: 9.7e-7 at 1e-9). hht's
// accelerations, which converge more slowly than its poses, are not compared.
func TestJointKnifeEdgeOnTree(t *testing.T) {
	bb, bj := buildBoth(t, "trailer.yaml", trailer)
	if bb.DOF() != bj.DOF() || bj.DOF() != 4 { // positions: the knife edges restrict velocities only
		t.Errorf("DOF %d in body coordinates, %d in joint ones, want 4", bb.DOF(), bj.DOF())
	}
	poses := []string{"tractor.x", "tractor.y", "tractor.theta", "tractor.vx", "tractor.vy", "tractor.omega",
		"trailer.x", "trailer.y", "trailer.theta", "trailer.vx", "trailer.vy", "trailer.omega", "trailer.blade.x", "energy"}
	for _, c := range []struct {
		opt     RunOptions
		outputs []string
		bound   float64
	}{
		{RunOptions{Method: "dopri5", Tol: 1e-11}, nil, 1e-7},
		{RunOptions{Method: "hht", Tol: 1e-8}, poses, 2e-5},
	} {
		if c.outputs != nil {
			bb.Doc.Model.Simulation.Outputs, bj.Doc.Model.Simulation.Outputs = c.outputs, c.outputs
		}
		rb, rj := runExample(t, bb, c.opt), runExample(t, bj, c.opt)
		if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 14 || rb.Samples < 3 {
			t.Fatalf("%s: channels %v vs %v, %d samples", c.opt.Method, rb.Channels, rj.Channels, rb.Samples)
		}
		compareRuns(t, rb, rj, bb, c.bound, false)
	}
}

// sleighGap returns the gaps |Δu|, |Δω| of the Chaplygin sleigh's forward speed and turning
// rate at the end of run r from the closed form (planar/knife_test.go): u = V tanh s,
// ω = (V/k) sech s, s = aVt/k² + atanh(u0/V), k² = (J + m a²)/m, V = √(u0² + k² ω0²); the
// sleigh's coordinates are its x, y and angle (both routes' first three).
func sleighGap(r *Result) (du, dw float64) {
	const m, J, a, u0, w0 = 2.0, 0.3, 0.4, 0.5, 2.0
	k := math.Sqrt((J + m*a*a) / m)
	V := math.Hypot(u0, k*w0)
	q, v := r.Solution.Final.Q, r.Solution.Final.V
	s := a*V*r.Solution.Final.T/(k*k) + math.Atanh(u0/V)
	u := v[0]*math.Cos(q[2]) + v[1]*math.Sin(q[2])
	return math.Abs(u - V*math.Tanh(s)), math.Abs(v[2] - V/k/math.Cosh(s))
}
