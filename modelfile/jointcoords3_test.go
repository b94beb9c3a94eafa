package modelfile

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buildBoth builds the 3D model src in body coordinates and in joint coordinates
// (coordinates: joint added at the top).
func buildBoth(t *testing.T, file, src string) (body, jnt *Built) {
	t.Helper()
	for i, text := range []string{src, "coordinates: joint\n" + src} {
		doc, err := Parse(file, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Build(doc)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			body = b
		} else {
			jnt = b
		}
	}
	return body, jnt
}

// compareChannels fails every channel of rj (joint coordinates) that differs from rb's
// (body coordinates) by more than bound of its size, residuals and the invariant apart;
// it returns the largest gap.
func compareChannels(t *testing.T, rb, rj *Result, bound float64) float64 {
	t.Helper()
	largest := 0.0
	for k, ch := range rb.Channels {
		if strings.HasPrefix(ch, "residual.") || ch == "energy.invariant" {
			continue
		}
		a, b := rb.Data[k], rj.Data[k]
		worst := channelGap(a, b, false)
		largest = max(largest, worst)
		if !(worst <= bound) {
			t.Errorf("%s: joint and body coordinates differ by %.2e of the channel's size, want <= %g (at t_end %.9g vs %.9g)", ch, worst, bound, a[len(a)-1], b[len(b)-1])
		}
	}
	return largest
}

// TestJoint3Examples: every 3D example in body coordinates either builds in joint
// coordinates with the degrees of freedom of body coordinates and follows the same motion
// to the file's t_end (every channel, positions, Euler parameters, velocities, the
// motion's torque, energies, to 1e-6 of its size, both run by dopri5 at tol 1e-10), or is
// refused naming the route and the way out. The spherical chains, the spatial double
// pendulum, the driven RSSR four-bar (its coupler-rocker ball the cut joint) and the fast
// heavy top (its rotations line dropped; its outputs name the pivot's reaction, read from
// the wrench the spherical joint transmits) must run, with the tree and cut joints below;
// chain3d and revolute-chain3d run with N = 4.
func TestJoint3Examples(t *testing.T) {
	want := map[string]struct{ from, to, tree, cuts string }{
		"spatial-double-pendulum": {"", "", "shoulder elbow", ""},
		"chain3d":                 {"N: 20", "N: 4", "ball1 ball2 ball3 ball4", ""},
		"revolute-chain3d":        {"N: 20", "N: 4", "rev1 rev2 rev3 rev4", ""},
		"spatial-fourbar":         {"", "", "crankpin rockerpin A", "B"},
		"heavy-top-fast":          {"rotations: lie-group\n", "", "pivot", ""},
	}
	files, _ := filepath.Glob("../examples/*.yaml")
	ran := 0
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".yaml")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := Parse(path, data)
		if err != nil {
			t.Fatal(err)
		}
		if doc.Spatial == nil || doc.Spatial.Coordinates != "" {
			continue
		}
		c, listed := want[name]
		if !strings.Contains(string(data), c.from) {
			t.Fatalf("%s: %q not in the file", name, c.from)
		}
		src := strings.Replace(string(data), c.from, c.to, 1)
		jdoc, err := Parse(path, []byte("coordinates: joint\n"+src))
		if err == nil {
			_, err = Build(jdoc)
		}
		if err != nil {
			if listed || !strings.Contains(err.Error(), "coordinates: joint") || !strings.Contains(err.Error(), "use coordinates: body") {
				t.Errorf("%s: refused (want it run, or refused naming the route and the way out): %v", name, err)
			}
			t.Logf("%s refused: %v", name, err)
			continue
		}
		ran++
		t.Run(name, func(t *testing.T) {
			bb, bj := buildBoth(t, path, src)
			if listed && (strings.Join(bj.Joint3.Tree, " ") != c.tree || strings.Join(bj.Joint3.Cuts, " ") != c.cuts) {
				t.Errorf("tree %q and cut joints %q, want %q and %q", bj.Joint3.Tree, bj.Joint3.Cuts, c.tree, c.cuts)
			}
			if bb.DOF() != bj.DOF() {
				t.Errorf("DOF %d in body coordinates, %d in joint ones", bb.DOF(), bj.DOF())
			}
			opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10}
			rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
			if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 8 || rb.Samples < 3 {
				t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
			}
			largest := compareChannels(t, rb, rj, 1e-6)
			t.Logf("%d channels, %d samples to t = %g: largest gap %.2e; steps %d (body) and %d (joint)",
				len(rb.Channels), rb.Samples, rb.Data[0][len(rb.Data[0])-1], largest, rb.Solution.Stats.Steps, rj.Solution.Stats.Steps)
		})
	}
	if ran < len(want) {
		t.Errorf("%d 3D examples run in joint coordinates, want at least %d", ran, len(want))
	}
}

// crane3 exercises every tree joint of the 3D joint route: a cart on a translational joint
// along x (driven), a turntable on a revolute joint written from its own side (marker i
// on the child: the coordinate enters with the opposite sign) with a rotational
// spring-damper, a boom on a universal joint, a sleeve on a cylindrical joint along the
// boom (its displacement driven, its turn free) and a bob hung from the sleeve by a
// spherical joint; the bodies start turned (body frames that are not the world's).
const crane3 = `
name: crane3
dimension: 3
gravity: [0, 0, -9.81]
bodies:
  - {name: cart, mass: 3, inertia: [0.05, 0.06, 0.07]}
  - {name: base, mass: 2, inertia: [0.03, 0.03, 0.02]}
  - {name: boom, mass: 1.5, inertia: [0.002, 0.12, 0.12, 0.0003, 0, 0]}
  - {name: sleeve, mass: 0.4, inertia: [0.001, 0.0007, 0.0008, 0.0001, 0.00005, -0.00002]}
  - {name: bob, mass: 0.8, inertia: [0.004, 0.005, 0.002]}
markers:
  - {name: slot, body: ground, axis: [1, 0, 0]}
  - {name: cart.slot, body: cart, axis: [1, 0, 0]}
  - {name: cart.top, body: cart, point: [0, 0, 0.1]}
  - {name: base.O, body: base, point: [0, 0, -0.2]}
  - {name: base.top, body: base, point: [0, 0, 0.2], axis: [1, 0, 0]}
  - {name: boom.root, body: boom, point: [-0.5, 0, 0], axis: [0, 1, 0]}
  - {name: boom.mid, body: boom, point: [-0.3, 0, 0], axis: [1, 0, 0]}
  - {name: sleeve.c, body: sleeve, axis: [1, 0, 0]}
  - {name: sleeve.p, body: sleeve, point: [0, 0, -0.05]}
  - {name: bob.top, body: bob, point: [0, 0, 0.3]}
joints:
  - {name: rail, type: translational, i: slot, j: cart.slot}
  - {name: turn, type: revolute, i: base.O, j: cart.top}
  - {name: hooke, type: universal, i: base.top, j: boom.root}
  - {name: tube, type: cylindrical, i: boom.mid, j: sleeve.c}
  - {name: ball, type: spherical, i: sleeve.p, j: bob.top}
motions:
  - {name: push, joint: rail, function: "0.1*sin(2*t)"}
  - {name: feed, joint: tube, function: "0.2 + 0.05*t"}
forces:
  - {name: twist, type: rsda, joint: turn, k: 5, c: 0.1, free_angle: 20 deg}
initial:
  bodies:
    cart: {velocity: [0.2, 0, 0]}
    base: {position: [0, 0, 0.3], angles: [0, 0, 40 deg], angular_velocity: [0, 0, 1]}
    boom: {position: [0.383, 0.321, 0.5], angles: [0, 0, 40 deg]}
    sleeve: {position: [0.306, 0.257, 0.5], angles: [0, 0, 40 deg], angular_velocity: [2, 0, 0]}
    bob: {position: [0.3, 0.27, 0.17], angles: [10 deg, 20 deg, 30 deg], angular_velocity: [0.5, -0.3, 0.2]}
simulation:
  t_end: 1
  output_step: 0.02
  outputs: [cart, base, boom, sleeve, bob, boom.mid, bob.top, push, feed, energy, residual]
`

// TestJoint3ExampleFile: examples/spatial-fourbar-joint.yaml is spatial-fourbar.yaml in
// joint coordinates, with B as its cut joint, and follows its motion to 1e-6 of each
// channel's size over the file's 2 s when both are run by an implicit method (radau5 at
// tol 1e-12, whose Newton matrices use the joint route's derivatives). At tol 1e-10 the
// positions, velocities and energies agree to 1e-6 as well, but the accelerations and the
// driving torque, radau5's index-3 algebraic quantities, differ by up to 5e-6 of their size.
func TestJoint3ExampleFile(t *testing.T) {
	file := loadExample(t, "spatial-fourbar-joint")
	if file.Joint3 == nil || strings.Join(file.Joint3.Cuts, " ") != "B" {
		t.Fatalf("spatial-fourbar-joint.yaml: not built in joint coordinates with B as its cut joint")
	}
	ref := loadExample(t, "spatial-fourbar")
	opt := RunOptions{Method: "radau5", Tol: 1e-12}
	rb, rj := runExample(t, ref, opt), runExample(t, file, opt)
	if len(rb.Channels) != len(rj.Channels) || rb.Samples != 201 {
		t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
	}
	compareChannels(t, rb, rj, 1e-6)
}

// TestJoint3EveryTreeJoint: the crane (crane3) follows in joint coordinates the motion,
// marker channels, driving forces and torques, every joint's reaction channels, and
// energies (with the spring's and motions' work) of the body-coordinate run over 1 s, to
// 1e-6 of each channel's size at
// tol 1e-10 (dopri5), with the tree the doc comment of assembleJoint3 says; so does the
// crane whose turntable is driven instead of sprung, by a motion that starts one turn
// away from the angle in (−π, π] (the body route's sin(β − f) = 0 holds there too), and
// the crane with every joint written from its child's side (each entered from marker i's
// child, its coordinate's sign turned).
func TestJoint3EveryTreeJoint(t *testing.T) {
	driven := crane3
	for _, r := range [][2]string{
		{"forces:\n  - {name: twist, type: rsda, joint: turn, k: 5, c: 0.1, free_angle: 20 deg}\n", ""},
		{"motions:\n", "motions:\n  - {name: spin, joint: turn, function: \"16*pi/9 - 0.5*t\"}\n"}, // 320°
		{"push, feed,", "push, feed, spin,"},
	} {
		if !strings.Contains(driven, r[0]) {
			t.Fatalf("%q not in the model", r[0])
		}
		driven = strings.Replace(driven, r[0], r[1], 1)
	}
	reversed := crane3 // every joint written from its child's side, the motions negated with their coordinates
	for _, r := range [][2]string{
		{"i: slot, j: cart.slot", "i: cart.slot, j: slot"},
		{"i: base.O, j: cart.top", "i: cart.top, j: base.O"},
		{"i: base.top, j: boom.root", "i: boom.root, j: base.top"},
		{"i: boom.mid, j: sleeve.c", "i: sleeve.c, j: boom.mid"},
		{"i: sleeve.p, j: bob.top", "i: bob.top, j: sleeve.p"},
		{`"0.1*sin(2*t)"`, `"-0.1*sin(2*t)"`},
		{`"0.2 + 0.05*t"`, `"-0.2 - 0.05*t"`},
		{"free_angle: 20 deg", "free_angle: -20 deg"},
	} {
		if !strings.Contains(reversed, r[0]) {
			t.Fatalf("%q not in the model", r[0])
		}
		reversed = strings.Replace(reversed, r[0], r[1], 1)
	}
	for _, c := range []struct {
		name, src string
		dof       int
	}{{"sprung", crane3, 7}, {"driven", driven, 6}, {"reversed", reversed, 7}} {
		t.Run(c.name, func(t *testing.T) { compareCrane(t, c.src, c.dof) })
	}
}

func compareCrane(t *testing.T, src string, dof int) {
	src = strings.Replace(src, "push, feed,", "push, feed, rail, turn, hooke, tube, ball,", 1) // every joint's reaction channels
	bb, bj := buildBoth(t, "crane3.yaml", src)
	if got := strings.Join(bj.Joint3.Tree, " "); got != "rail turn hooke tube ball" {
		t.Errorf("tree %q, want rail turn hooke tube ball", got)
	}
	if bb.DOF() != dof || bj.DOF() != dof {
		t.Errorf("DOF %d and %d, want %d", bb.DOF(), bj.DOF(), dof)
	}
	opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10}
	rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
	if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 80 || rb.Samples != 51 {
		t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
	}
	compareChannels(t, rb, rj, 1e-6)
}

// TestJoint3Refusals: what the 3D joint route cannot express is refused naming the
// element: a motion on a cut joint, joints without a tree or cut form (point-on-plane),
// friction on a translational joint, a rolling disk's reaction channels (its loads are
// Pfaffian rows; every other joint's are read), a coordinate set other than
// body and joint, a revolute motion whose start the body route made consistent on the
// other branch of sin(β − f) = 0 (half a turn from f).
func TestJoint3Refusals(t *testing.T) {
	disk, err := os.ReadFile(filepath.Join("..", "examples", "rolling-disk.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rollingDisk := string(disk)
	hinged := strings.NewReplacer("ELBOW", "revolute", "AXIS", "[0.2, 1, 0.3]").Replace(hung3)
	cases := []struct{ model, from, to, want string }{
		{hinged, "initial:\n", "motions:\n  - {name: bend, joint: elbow, function: \"0\"}\ninitial:\n",
			`motion "bend": joint "elbow" is a cut joint (it closes a loop), which has no coordinate to drive`},
		{crane3, "type: spherical, i: sleeve.p", "type: point-on-plane, i: sleeve.p", `point-on-plane joints are not available with coordinates: joint`},
		{crane3, "i: slot, j: cart.slot}", "i: slot, j: cart.slot, friction: {mu: 0.1, v_reg: 0.01}}",
			`joint "rail": friction on a translational joint is not available with coordinates: joint in 3D`},
		{rollingDisk, "outputs: [disk, roll.lambda,", "outputs: [disk, roll.fx,", `output channel "roll.fx": joint reactions are not available with coordinates: joint`},
		{crane3, "dimension: 3\n", "dimension: 3\ncoordinates: natural\n", `coordinates = "natural"; want "body"`},
		{strings.Replace(crane3, "forces:\n  - {name: twist, type: rsda, joint: turn, k: 5, c: 0.1, free_angle: 20 deg}\n", "", 1),
			"motions:\n", "motions:\n  - {name: spin, joint: turn, function: \"25*pi/9 - 0.5*t\"}\n", // 500°: 140°, half a turn from the start's −40°
			`motion "spin": the start has joint "turn" at -0.698132 rad, half a turn from f = 8.72665 rad at initial.time`},
	}
	for _, c := range cases {
		src := strings.Replace(c.model, c.from, c.to, 1)
		if c.from != "" && src == c.model {
			t.Fatalf("%q not in the model", c.from)
		}
		if !strings.Contains(src, "coordinates:") {
			src = "coordinates: joint\n" + src
		}
		doc, err := Parse("model.yaml", []byte(src))
		if err == nil {
			_, err = Build(doc)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "use coordinates: body") && !strings.Contains(c.want, "natural") {
			t.Errorf("err = %v, want %q and the way out", err, c.want)
		}
	}
}

// swing3 is a rod hung by a ball joint from its end, released horizontally along y with a
// slow turn about the vertical: it swings down about x, through a rotation by 90° about x.
// With the Cardan chart z, x, y that is the singular middle angle (within 2.2° of it);
// sphericalChart makes the swing its first angle instead.
const swing3 = `
name: swing3
dimension: 3
gravity: [0, 0, -9.81]
bodies:
  - {name: rod, mass: 1, inertia: [0.02, 0.0001, 0.02]}
markers:
  - {name: O, body: ground}
  - {name: rod.top, body: rod, point: [0, -0.25, 0]}
joints:
  - {name: ball, type: spherical, i: O, j: rod.top}
initial:
  bodies:
    rod: {position: [0, 0.25, 0], velocity: [-0.075, 0, 0], angular_velocity: [0, 0, 0.3]}
simulation:
  t_end: 1
  output_step: 0.02
`

// spin3 is the rod of swing3 without gravity, spun about x at 2 rad/s with a turn WZ about
// z (its end moving accordingly): it turns at a constant rate about the fixed axis
// (2, 0, WZ) (the rod is symmetric about its axis y, and the angular velocity is
// perpendicular to it), so its axis passes within atan(WZ/2) of z at t = π/4. Without
// gravity sphericalChart keeps the chart z, x, y, whose singular middle angle (x at ±90°)
// is the rod's axis turned onto z.
var spin3 = strings.NewReplacer("name: swing3", "name: spin3", "gravity: [0, 0, -9.81]", "parameters: {wz: WZ}\ngravity: [0, 0, 0]",
	"velocity: [-0.075, 0, 0], angular_velocity: [0, 0, 0.3]", `velocity: ["${-0.25*wz}", 0, 0.5], angular_velocity: [2, 0, "${wz}"]`).Replace(swing3)

// TestJoint3NearCardanSingularity: the swinging rod (swing3) and the spun rod (spin3 with
// WZ = 0.077, whose axis passes within 2.2° of the singular middle angle) follow the same
// motion in joint and body coordinates (dopri5, tol 1e-9, every channel to 1e-6 of its
// size); the spun rod's Cardan angles pass within 10° of the singularity and the joint route
// pays with smaller steps there, not with accuracy, while the swinging rod's stay 60° away
// from it (sphericalChart; z, x, y took it within 2.2°).
func TestJoint3NearCardanSingularity(t *testing.T) {
	for _, c := range []struct {
		name, src string
		near, far float64 // bounds on the closest approach to ±90°, degrees
	}{
		{"swing3", swing3, 60, 90},
		{"spin3", strings.ReplaceAll(spin3, "WZ", "0.077"), 0, 10},
	} {
		bb, bj := buildBoth(t, c.name+".yaml", c.src)
		opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-9}
		rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
		closest := 90.0
		for _, q := range rj.Solution.Q {
			closest = math.Min(closest, 90-math.Abs(q[1])*180/math.Pi)
		}
		if !(closest >= c.near && closest < c.far) {
			t.Errorf("%s: the middle Cardan angle comes within %.1f° of ±90°; want within [%g°, %g°)", c.name, closest, c.near, c.far)
		}
		compareChannels(t, rb, rj, 1e-6)
		t.Logf("%s: middle Cardan angle within %.2f° of 90°; %d steps in joint coordinates, %d in body coordinates", c.name, closest, rj.Solution.Stats.Steps, rb.Solution.Stats.Steps)
	}
}
