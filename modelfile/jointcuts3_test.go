package modelfile

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// hung3 is a chain of three bars hung between two ground ball joints P and Q: ball1 – b1 –
// elbow – b2 – hinge2 – b3 – ball2, with gravity along −z and b1 set turning about x. The
// tree takes the two balls in the first pass and hinge2 in the second, so the elbow closes
// the loop: a revolute cut joint (ELBOW = revolute; 3 point rows and 2 axis rows; 2 degrees
// of freedom) or a universal one (ELBOW = universal, marker b2.H1's axis turned
// perpendicular to b1.H's; 3 point rows and 1 axis row; 3 degrees of freedom), a
// cylindrical one (2 slide rows and 2 axis rows; 3 degrees of freedom) or a translational
// one (2 slide rows and 3 axis rows; 2 degrees of freedom). The hinge axes are skew to the
// bars and to each other, so the elbow's relative angles change.
const hung3 = `
name: hung3
dimension: 3
gravity: [0, 0, -9.81]
bodies:
  - {name: b1, mass: 1, inertia: [0.01, 0.012, 0.008]}
  - {name: b2, mass: 1.5, inertia: [0.02, 0.005, 0.018, 0.001, 0, 0.0005]}
  - {name: b3, mass: 0.8, inertia: [0.009, 0.011, 0.006]}
markers:
  - {name: P, body: ground}
  - {name: Q, body: ground, point: [0.9, 0, 0]}
  - {name: b1.P, body: b1, point: [-0.15, -0.05, 0.125]}
  - {name: b1.H, body: b1, point: [0.15, 0.05, -0.125], axis: [0.2, 1, 0.3]}
  - {name: b2.H1, body: b2, point: [-0.15, 0.1, 0], axis: AXIS}
  - {name: b2.H2, body: b2, point: [0.15, -0.1, 0], axis: [0.5, 1, -0.2]}
  - {name: b3.H, body: b3, point: [-0.15, -0.05, -0.125], axis: [0.5, 1, -0.2]}
  - {name: b3.Q, body: b3, point: [0.15, 0.05, 0.125]}
joints:
  - {name: ball1, type: spherical, i: P, j: b1.P}
  - {name: ball2, type: spherical, i: Q, j: b3.Q}
  - {name: hinge2, type: revolute, i: b3.H, j: b2.H2}
  - {name: elbow, type: ELBOW, i: b1.H, j: b2.H1}
initial:
  bodies:
    b1: {position: [0.15, 0.05, -0.125], velocity: [0, 0.125, 0.05], angular_velocity: [1, 0, 0]}
    b2: {position: [0.45, 0, -0.25]}
    b3: {position: [0.75, -0.05, -0.125]}
simulation:
  t_end: 1
  output_step: 0.02
  outputs: [b1, b2, b3, b1.H, b2.H1, energy, residual]
`

// TestJoint3EveryCutJoint: the hung chain closed by a revolute, a universal, a cylindrical
// and a translational cut joint (the last two sliding: the elbow's points part by more than
// 1 mm, while the others' stay together) builds in joint coordinates with the elbow as the
// cut joint and the degrees of freedom of body coordinates, and follows the same motion as body coordinates
// to t = 1 (dopri5, tol 1e-10, every channel to 1e-6 of its size), and so does radau5 at
// tol 1e-12 in joint coordinates, whose Newton matrices hold the cut joints' derivatives.
func TestJoint3EveryCutJoint(t *testing.T) {
	for _, c := range []struct {
		elbow, axis string
		dof         int
	}{{"revolute", "[0.2, 1, 0.3]", 2}, {"universal", "[3, 0, -2]", 3}, {"cylindrical", "[0.2, 1, 0.3]", 3}, {"translational", "[0.2, 1, 0.3]", 2}} {
		t.Run(c.elbow, func(t *testing.T) {
			src := strings.NewReplacer("ELBOW", c.elbow, "AXIS", c.axis).Replace(hung3)
			bb, bj := buildBoth(t, "hung3.yaml", src)
			if tree, cuts := strings.Join(bj.Joint3.Tree, " "), strings.Join(bj.Joint3.Cuts, " "); tree != "ball1 ball2 hinge2" || cuts != "elbow" {
				t.Errorf("tree %q and cut joints %q, want ball1 ball2 hinge2 and elbow", tree, cuts)
			}
			if bb.DOF() != c.dof || bj.DOF() != c.dof {
				t.Errorf("DOF %d (body) and %d (joint), want %d", bb.DOF(), bj.DOF(), c.dof)
			}
			opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10}
			rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
			if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 40 || rb.Samples != 51 {
				t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
			}
			largest := compareChannels(t, rb, rj, 1e-6)
			if slid := elbowGap(t, rj); (c.elbow == "cylindrical" || c.elbow == "translational") != (slid > 1e-3) {
				t.Errorf("the elbow's points are %.2e apart at t_end; want more than 1e-3 for a sliding elbow, else 0", slid)
			}
			t.Logf("%d channels: largest gap %.2e; steps %d (body) and %d (joint); |g| max %.1e (joint)",
				len(rb.Channels), largest, rb.Solution.Stats.Steps, rj.Solution.Stats.Steps, rj.Solution.MaxResidual.Pos)
			// radau5's Newton matrices take the cut joints' ∂(Gᵀλ)/∂q (joint.CutAxes, CutSlide).
			ri := runExample(t, bj, RunOptions{Method: "radau5", Tol: 1e-12})
			largest = compareChannels(t, rb, ri, 1e-6)
			t.Logf("radau5 in joint coordinates: largest gap %.2e, %d steps, %d Jacobians", largest, ri.Solution.Stats.Steps, ri.Solution.Stats.Jacobians)
		})
	}
}

// elbowGap returns the distance of the elbow's two points b1.H and b2.H1 at the end of r.
func elbowGap(t *testing.T, r *Result) float64 {
	t.Helper()
	var d2 float64
	for _, x := range []string{"x", "y", "z"} {
		ki, kj := slices.Index(r.Channels, "b1.H."+x), slices.Index(r.Channels, "b2.H1."+x)
		if ki < 0 || kj < 0 {
			t.Fatalf("no channels b1.H.%s and b2.H1.%s in %v", x, x, r.Channels)
		}
		d := r.Data[ki][len(r.Data[ki])-1] - r.Data[kj][len(r.Data[kj])-1]
		d2 += d * d
	}
	return math.Sqrt(d2)
}
