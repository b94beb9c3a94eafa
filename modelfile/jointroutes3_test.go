package modelfile

import (
	"strings"
	"testing"
)

// fourBar3 is the planar four-bar of examples/four-bar.yaml built in 3D with four parallel
// revolute joints (axes along z), undriven, the crank set turning: overconstrained, since
// the joints' 20 rows leave 1 degree of freedom to 3 bodies where 18 rows would do. Body
// coordinates drop three rows; in joint coordinates the tree takes crankpin, rockerpin and
// A, and the revolute cut joint B's out-of-plane point row and its two axis rows hold
// whenever its in-plane rows do.
const fourBar3 = `
name: fourbar3
dimension: 3
gravity: [0, -9.81, 0]
bodies:
  - {name: crank, mass: 0.8, inertia: [0.0001, 0.0007, 0.0007]}
  - {name: coupler, mass: 3.2, inertia: [0.0004, 0.043, 0.043]}
  - {name: rocker, mass: 2.4, inertia: [0.0003, 0.018, 0.018]}
markers:
  - {name: O2, body: ground, point: [0, 0, 0]}
  - {name: O4, body: ground, point: [0.35, 0, 0]}
  - {name: crank.O, body: crank, point: [-0.05, 0, 0]}
  - {name: crank.A, body: crank, point: [0.05, 0, 0]}
  - {name: coupler.A, body: coupler, point: [-0.2, 0, 0]}
  - {name: coupler.B, body: coupler, point: [0.2, 0, 0]}
  - {name: rocker.O, body: rocker, point: [-0.15, 0, 0]}
  - {name: rocker.B, body: rocker, point: [0.15, 0, 0]}
joints:
  - {name: crankpin, type: revolute, i: O2, j: crank.O}
  - {name: A, type: revolute, i: crank.A, j: coupler.A}
  - {name: B, type: revolute, i: coupler.B, j: rocker.B}
  - {name: rockerpin, type: revolute, i: O4, j: rocker.O}
initial:
  bodies:
    crank: {position: [0, 0.05, 0], angles: [0, 0, 90 deg], angular_velocity: [0, 0, 6.283185307179586]}
    coupler: {position: [0.1732, 0.2, 0], angles: [0, 0, 0.5235]}
    rocker: {position: [0.3482, 0.15, 0], angles: [0, 0, 1.5827]}
simulation:
  t_end: 0.5
  output_step: 0.01
  outputs: [crank, coupler, rocker, coupler.B, energy, residual]
`

// TestJoint3RedundantCutRows: the overconstrained four-bar of parallel revolute joints
// (fourBar3) runs in joint coordinates with its redundant rows found by dae.Initialize's
// rank-revealing start and named by their cut joint (B[2], B.axis[0], B.axis[1]), as body
// coordinates name theirs, both with 1 degree of freedom, and follows the motion of body
// coordinates over 0.5 s (dopri5 at tol 1e-10, and radau5 at tol 1e-12 on the reduced rows,
// every channel to 1e-6 of its size).
func TestJoint3RedundantCutRows(t *testing.T) {
	bb, bj := buildBoth(t, "fourbar3.yaml", fourBar3)
	if got := strings.Join(bj.RedundantJoints(), " "); got != "B[2] B.axis[0] B.axis[1]" {
		t.Errorf("joint coordinates: redundant rows %q, want B[2] B.axis[0] B.axis[1]", got)
	}
	if got := len(bb.RedundantJoints()); got != 3 {
		t.Errorf("body coordinates: %d redundant rows (%v), want 3", got, bb.RedundantJoints())
	}
	if bb.DOF() != 1 || bj.DOF() != 1 {
		t.Errorf("DOF %d (body) and %d (joint), want 1", bb.DOF(), bj.DOF())
	}
	opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10}
	rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
	if len(rb.Channels) != len(rj.Channels) || rb.Samples != 51 {
		t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
	}
	largest := compareChannels(t, rb, rj, 1e-6)
	t.Logf("redundant rows: %v (joint), %v (body); largest gap %.2e", bj.RedundantJoints(), bb.RedundantJoints(), largest)
	// radau5's Newton matrices on the reduced rows (dae.Reduce) of the joint route.
	ri := runExample(t, bj, RunOptions{Method: "radau5", Tol: 1e-12})
	largest = compareChannels(t, rb, ri, 1e-6)
	t.Logf("radau5 in joint coordinates: largest gap %.2e, %d steps", largest, ri.Solution.Stats.Steps)
}
