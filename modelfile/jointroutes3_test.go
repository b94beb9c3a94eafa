package modelfile

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"linkage/problems"
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

// brick3 is a free brick thrown up, turned at the start, with angular velocity OMEGA (body
// axes): about its intermediate principal axis y (an unstable spin: it tumbles) or its
// major axis z (a stable spin), with small components about the others.
const brick3 = `
name: brick3
dimension: 3
gravity: [0, 0, -9.81]
bodies:
  - {name: brick, mass: 2, inertia: [0.01, 0.02, 0.025]}
markers:
  - {name: brick.c, body: brick, point: [0.05, 0.02, 0.01]}
initial:
  bodies:
    brick: {position: [0, 0, 1], angles: [10 deg, 20 deg, 30 deg], velocity: [1, 0, 3], angular_velocity: OMEGA}
simulation:
  t_end: 2
  output_step: 0.02
  outputs: [brick, brick.c, energy]
`

// TestJoint3FreeBodies: floating bodies run in joint coordinates on a free joint from the
// ground (Joint3Built.Free), with the Cardan chart of freeChart, and follow the motion of
// body coordinates (dopri5, tol 1e-10, every channel to 1e-6 of its size): the brick
// (brick3) over 2 s, spinning about its major axis (whose middle Cardan angle freeChart
// keeps below 1°: the spin is about its first axis, the angular momentum) and tumbling
// about its intermediate axis (which passes within a few degrees of the singularity and
// keeps the accuracy), and the crane (crane3) without its rail, which floats as a whole
// on the free joint of its cart over 1 s.
func TestJoint3FreeBodies(t *testing.T) {
	floating := strings.Replace(crane3, "  - {name: rail, type: translational, i: slot, j: cart.slot}\n", "", 1)
	floating = strings.Replace(floating, "  - {name: push, joint: rail, function: \"0.1*sin(2*t)\"}\n", "", 1)
	floating = strings.Replace(floating, " push,", "", 1)
	spinning := strings.Replace(brick3, "OMEGA", "[0.1, 0.05, 10]", 1)
	tumbling := strings.Replace(brick3, "OMEGA", "[0.3, 10, 0.2]", 1)
	for _, c := range []struct {
		name, src, free, tree string
		dof                   int
		widest                float64 // bound on the middle Cardan angle of the free joint, degrees
	}{
		{"spinning", spinning, "brick", "", 6, 1},
		{"tumbling", tumbling, "brick", "", 6, 90},
		{"crane", floating, "cart", "turn hooke tube ball", 13, 90},
	} {
		t.Run(c.name, func(t *testing.T) {
			bb, bj := buildBoth(t, c.name+".yaml", c.src)
			if free, tree := strings.Join(bj.Joint3.Free, " "), strings.Join(bj.Joint3.Tree, " "); free != c.free || tree != c.tree {
				t.Errorf("free bodies %q and tree %q, want %q and %q", free, tree, c.free, c.tree)
			}
			if bb.DOF() != c.dof || bj.DOF() != c.dof {
				t.Errorf("DOF %d (body) and %d (joint), want %d", bb.DOF(), bj.DOF(), c.dof)
			}
			opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10}
			rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
			if len(rb.Channels) != len(rj.Channels) || rb.Samples < 51 {
				t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
			}
			largest := compareChannels(t, rb, rj, 1e-6)
			mid := bj.Joint3.cardan[0].mid // the free joint is the root
			widest := 0.0
			for _, q := range rj.Solution.Q {
				widest = max(widest, math.Abs(q[mid])*180/math.Pi)
			}
			if !(widest < c.widest) {
				t.Errorf("the middle Cardan angle of %s reaches %.2f°, want below %g°", c.free, widest, c.widest)
			}
			t.Logf("largest gap %.2e; middle Cardan angle of %s up to %.1f°; steps %d (body) and %d (joint)",
				largest, c.free, widest, rb.Solution.Stats.Steps, rj.Solution.Stats.Steps)
		})
	}
}

// TestJoint3CardanSingularityNamed: a run that stops at a Cardan singularity says so, naming
// the joint and the time, and the way out: the rod of spin3 with WZ = 1e-5 turns through
// the singular middle angle at t = π/4, where dopri5's steps collapse and a step limit stops
// it; the same limit reached early, far from the singularity, keeps its own message.
func TestJoint3CardanSingularityNamed(t *testing.T) {
	doc, err := Parse("spin3.yaml", []byte("coordinates: joint\n"+strings.ReplaceAll(spin3, "WZ", "1e-5")))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		steps int
		want  string
	}{
		{200, `spin3.yaml: joint "ball": Cardan singularity at t = 0.78539`},
		{10, "stopped at the step limit max_steps = 10"},
	} {
		_, err := Run(b, RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-8, MaxSteps: c.steps})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("max_steps %d: err = %v, want %q", c.steps, err, c.want)
			continue
		}
		if singular := strings.Contains(err.Error(), "Cardan singularity"); singular != (c.steps == 200) || singular && !strings.Contains(err.Error(), "use the body route") {
			t.Errorf("max_steps %d: err = %v: the Cardan singularity named where it is not, or without the way out", c.steps, err)
		}
	}
}

// TestJoint3FastHeavyTop: examples/heavy-top-fast.yaml in joint coordinates (its rotations
// line and method dropped): the top's spherical joint carries it alone, so its Cardan chart
// turns about r × g first and spins about r last (sphericalChart), its middle angle stays
// more than 1.5° from ±90° over the file's 2 s (2.0° measured; the chart z, x, y came
// within 0.8°), and dopri5 at tol 1e-8 is at t = 1 within 1e-6 of the published reference
// (problems.FastTopReference1, good to about 1e-6) in x and p (1.1e-7 measured).
func TestJoint3FastHeavyTop(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "heavy-top-fast.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.NewReplacer("rotations: lie-group\n", "coordinates: joint\n", "  method: lie-genalpha\n", "", "outputs: [top, pivot, energy, residual]", "outputs: [top]").Replace(string(data))
	doc, err := Parse("heavy-top-fast.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	r := runExample(t, b, RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-8})
	at := slices.IndexFunc(r.Data[0], func(x float64) bool { return math.Abs(x-1) < 1e-9 })
	if at < 0 || r.Data[0][len(r.Data[0])-1] != 2 {
		t.Fatalf("no sample at t = 1, or the run does not end at t = 2: %v", r.Data[0][len(r.Data[0])-1])
	}
	worst := 0.0
	for k, name := range []string{"top.x", "top.y", "top.z", "top.p0", "top.p1", "top.p2", "top.p3"} {
		worst = max(worst, math.Abs(r.Channel(name)[at]-problems.FastTopReference1[k]))
	}
	if !(worst < 1e-6) {
		t.Errorf("at t = 1 the joint route is %.2e from the reference, want below 1e-6", worst)
	}
	closest := 90.0
	for _, q := range r.Solution.Q {
		closest = math.Min(closest, 90-math.Abs(q[b.Joint3.cardan[0].mid])*180/math.Pi)
	}
	if !(closest > 1.5) {
		t.Errorf("the middle Cardan angle comes within %.2f° of ±90°, want more than 1.5°", closest)
	}
	t.Logf("error %.2e at t = 1, %d steps; middle Cardan angle within %.2f° of ±90°", worst, r.Solution.Stats.Steps, closest)
}

// TestJointIFToMMExamples: the IFToMM examples (examples/iftomm: the pendulum A01, the
// N four-bar A02 with N = 2 and Bricard's mechanism A04, planar and 3D) build in joint
// coordinates with the degrees of freedom of body coordinates (A04: one of the loop's rows
// redundant at the start, found and named by the cut joint) and follow the motion of body
// coordinates over 0.5 s (before A02's first singular position at 0.71 s; dopri5, tol
// 1e-10, every channel to 1e-6 of its size).
func TestJointIFToMMExamples(t *testing.T) {
	for _, c := range []struct {
		name      string
		dof       int
		redundant int
	}{{"a01-pendulum", 1, 0}, {"a02-n-four-bar-2", 1, 0}, {"a04-bricard", 1, 1}} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join("..", "examples", "iftomm", c.name+".yaml")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src := strings.Replace(string(data), "output_step: 0.5\n", "output_step: 0.05\n", 1) // A01's: 10 samples in 0.5 s
			bb, bj := buildBoth(t, path, src)
			if bb.DOF() != c.dof || bj.DOF() != c.dof || len(bj.RedundantJoints()) != c.redundant {
				t.Errorf("DOF %d (body) and %d (joint), redundant rows %v (joint); want %d and %d redundant", bb.DOF(), bj.DOF(), bj.RedundantJoints(), c.dof, c.redundant)
			}
			opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: 0.5}
			rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
			if len(rb.Channels) != len(rj.Channels) || rb.Samples < 10 {
				t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
			}
			largest := compareChannels(t, rb, rj, 1e-6)
			t.Logf("largest gap %.2e; redundant rows %v (joint), %v (body); steps %d (body) and %d (joint)",
				largest, bj.RedundantJoints(), bb.RedundantJoints(), rb.Solution.Stats.Steps, rj.Solution.Stats.Steps)
		})
	}
}
