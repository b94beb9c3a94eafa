package modelfile

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// parseJoint reads an example with coordinates: joint added at the top. When the file is
// refused only for output channels that read joint reactions, the refusal is checked and
// the file is read again without its outputs and plot lines (the default channels:
// bodies and energies).
func parseJoint(t *testing.T, name string) (*Document, error) {
	t.Helper()
	path := filepath.Join("..", "examples", name+".yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = append([]byte("coordinates: joint\n"), data...)
	doc, err := Parse(path, data)
	if err == nil || !onlyReactionOutputs(err) {
		return doc, err
	}
	return Parse(path, regexp.MustCompile(`(?m)^\s+(outputs|plot):.*$`).ReplaceAll(data, nil))
}

// onlyReactionOutputs reports whether every error of err refuses a joint reaction channel.
func onlyReactionOutputs(err error) bool {
	for _, line := range strings.Split(err.Error(), "\n") {
		if !strings.Contains(line, "joint reactions are not available with coordinates: joint") {
			return false
		}
	}
	return true
}

// TestJointEveryPlanarExample: every planar example the joint route can express (a tree of
// revolute and translational joints from ground, revolute cut joints, knife edges, motions
// on tree joints, linear rsda on joints, flexible bodies beside the tree) builds in joint
// coordinates with the degrees of freedom of body coordinates and follows the same motion
// over its first 0.05 s (dopri5 at tol 1e-10; the stiff flexible ones over 0.01 s, with
// error control instead of their fixed step; every channel but the residuals to 1e-6 of
// its size); the others are refused by element, with the reason.
func TestJointEveryPlanarExample(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	ran := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		body := loadExample(t, name)
		if body.Spatial != nil || body.Natural != nil || body.Joint != nil || body.Joint3 != nil {
			continue
		}
		doc, err := parseJoint(t, name)
		var b *Built
		if err == nil {
			b, err = Build(doc)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "coordinates: joint") || !strings.Contains(err.Error(), "use coordinates: body") {
				t.Errorf("%s: refused without naming the route and the way out: %v", name, err)
			}
			t.Logf("%s refused: %v", name, err)
			continue
		}
		ran++
		t.Run(name, func(t *testing.T) {
			if body.DOF() != b.DOF() {
				t.Errorf("DOF %d in body coordinates, %d in joint ones", body.DOF(), b.DOF())
			}
			if !slices.Equal(body.Doc.Model.Simulation.Outputs, b.Doc.Model.Simulation.Outputs) {
				t.Errorf("outputs %v dropped on the joint route, want the file's (its reaction channels are read there)", body.Doc.Model.Simulation.Outputs)
			}
			opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: body.Start.T + 0.05}
			if hasFlexible(body.Doc) { // stiff rods: error control, not the file's fixed step, and a shorter run
				opt.TEnd = body.Start.T + 0.01
				body.Doc.Model.Simulation.H, b.Doc.Model.Simulation.H = 0, 0
			}
			rb, rj := runExample(t, body, opt), runExample(t, b, opt)
			if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 4 || rb.Samples < 3 {
				t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
			}
			// the parallelogram's rows are redundant: how its pins share the load is not
			// determined by the motion (TestJointParallelogramLoadSum checks their sum)
			compareRuns(t, rb, rj, body, 1e-6, name == "parallelogram")
		})
	}
	if ran < 12 { // andrews, cam-follower, chain-bars, chaplygin-sleigh, double-pendulum, flexible-slider-crank, four-bar, parallelogram, simeon-crank, slider-crank, stiff-chain, stiff-double-pendulum
		t.Errorf("%d planar examples run in joint coordinates, want at least 12", ran)
	}
	file := loadExample(t, "four-bar-joint")
	if file.Joint == nil || len(file.Joint.Cuts) != 1 || file.Joint.Cuts[0] != "B" {
		t.Fatalf("four-bar-joint.yaml: not built in joint coordinates with B as its cut joint")
	}
	opt := RunOptions{Method: "bdf", Formulation: "ggl", Tol: 1e-8, TEnd: 0.5}
	ref := loadExample(t, "four-bar")
	ref.Doc.Model.Simulation.Outputs = file.Doc.Model.Simulation.Outputs
	compareRuns(t, runExample(t, ref, opt), runExample(t, file, opt), file, 1e-6, false)
}

// slotCrank is a slider-crank whose slider runs in an inclined slot (a translational tree
// joint from ground, its axis at 5°), whose crank pivot is written from the crank's side
// (a revolute entered from marker j, its coordinate of opposite sign) and driven there,
// with a rotational spring-damper on the crank pin and the wrist pin as cut joint.
const slotCrank = `
name: slot-crank
gravity: [0, -9.81]
bodies:
  - {name: crank, mass: 0.8, inertia: 0.0007}
  - {name: rod, mass: 1.5, inertia: 0.011}
  - {name: slider, mass: 0.5, inertia: 0.001}
markers:
  - {name: O, body: ground, point: [0, 0]}
  - {name: slot, body: ground, point: [0, -0.02], angle: 5 deg}
  - {name: crank.O, body: crank, point: [-0.05, 0]}
  - {name: crank.A, body: crank, point: [0.05, 0]}
  - {name: rod.A, body: rod, point: [-0.15, 0]}
  - {name: rod.B, body: rod, point: [0.15, 0]}
  - {name: slider.P, body: slider, point: [0.01, 0.02], angle: 5 deg}
joints:
  - {name: main, type: revolute, i: crank.O, j: O}
  - {name: crankpin, type: revolute, i: crank.A, j: rod.A}
  - {name: wristpin, type: revolute, i: rod.B, j: slider.P}
  - {name: slide, type: translational, i: slot, j: slider.P}
motions:
  - {name: drive, joint: main, function: "-pi/3 - 3*t - t*t"}
forces:
  - {name: pinspring, type: rsda, joint: crankpin, k: 40, c: 0.3, free_angle: -50 deg}
  - {name: mainspring, type: rsda, joint: main, k: 25, c: 0.2, free_angle: -30 deg}
initial:
  bodies:
    crank: {position: [0.025, 0.0433], angle: 60 deg, angular_velocity: 3}
    rod: {position: [0.19, 0.05], angle: -0.3}
    slider: {position: [0.32, 0.0], angle: 0}
  keep: [crank.theta]
simulation:
  t_end: 0.2
  outputs: [crank, rod, slider, crank.A, slider.P, drive, main, crankpin, wristpin, slide, energy, residual]
`

// TestJointTranslationalAndReversed: the slot crank (translational tree joint on an
// inclined axis, a revolute written from the child's side, driven and sprung, an rsda on a tree
// joint, a cut joint at the wrist pin) follows in joint coordinates the motion, marker
// channels, driving torque and energies of the body-coordinate run over 0.2 s, to 1e-7
// at tol 1e-11 (dopri5), and has the tree and cut the doc comment of assembleJoint says.
func TestJointTranslationalAndReversed(t *testing.T) {
	body, err := Parse("slot-crank.yaml", []byte(slotCrank))
	if err != nil {
		t.Fatal(err)
	}
	jdoc, err := Parse("slot-crank.yaml", []byte("coordinates: joint\n"+slotCrank))
	if err != nil {
		t.Fatal(err)
	}
	bb, err := Build(body)
	if err != nil {
		t.Fatal(err)
	}
	bj, err := Build(jdoc)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(bj.Joint.Tree, " "); got != "slide main crankpin" {
		t.Errorf("tree %q, want slide main crankpin", got)
	}
	if got := strings.Join(bj.Joint.Cuts, " "); got != "wristpin" {
		t.Errorf("cut joints %q, want wristpin", got)
	}
	if bb.DOF() != 0 || bj.DOF() != 0 {
		t.Errorf("DOF %d and %d, want 0 (driven)", bb.DOF(), bj.DOF())
	}
	opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-11}
	rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
	if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 30 || rb.Samples < 3 {
		t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
	}
	compareRuns(t, rb, rj, bb, 1e-7, false)
}

// TestJointSlideCutAndFloatingBody: the slot crank with its slide written from the
// slider's side (marker i on the slider, so the translational joint cannot enter the tree
// and closes the loop: a cut joint with a slide row along the slot's normal, turning with
// the slider's frame, and an angle row), and without its wrist pin, where the slider
// floats on a free joint (JointBuilt.Free) and falls freely (slide removed) or slides in
// its slot held by that cut joint, follows the motion of body coordinates over 0.2 s as
// TestJointTranslationalAndReversed does (to 1e-7 at tol 1e-11, dopri5), with the
// degrees of freedom of body coordinates (0: driven; 4 and 2 without the wrist pin).
func TestJointSlideCutAndFloatingBody(t *testing.T) {
	const pins = "  - {name: wristpin, type: revolute, i: rod.B, j: slider.P}\n  - {name: slide, type: translational, i: slot, j: slider.P}\n"
	const reversed = "  - {name: slide, type: translational, i: slider.P, j: slot}\n"
	for _, c := range []struct {
		name, joints, free, cuts string
		dof                      int
	}{
		{"slide cut", "  - {name: wristpin, type: revolute, i: rod.B, j: slider.P}\n" + reversed, "", "slide", 0},
		{"falling", "", "slider", "", 4},
		{"sliding", reversed, "slider", "slide", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(slotCrank, pins, c.joints, 1)
			for _, j := range []string{"wristpin", "slide"} { // the reaction channels of the joints removed
				if !strings.Contains(c.joints, "name: "+j+",") {
					src = strings.Replace(src, j+", ", "", 1)
				}
			}
			if src == slotCrank {
				t.Fatal("the wrist pin and the slide are not in the model")
			}
			bb, bj := buildBoth(t, "slot-crank.yaml", src)
			if free, cuts := strings.Join(bj.Joint.Free, " "), strings.Join(bj.Joint.Cuts, " "); free != c.free || cuts != c.cuts {
				t.Errorf("floating bodies %q and cut joints %q, want %q and %q", free, cuts, c.free, c.cuts)
			}
			if bb.DOF() != c.dof || bj.DOF() != c.dof {
				t.Errorf("DOF %d and %d, want %d", bb.DOF(), bj.DOF(), c.dof)
			}
			opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-11}
			rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
			if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 30 || rb.Samples < 3 {
				t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
			}
			compareRuns(t, rb, rj, bb, 1e-7, false)
		})
	}
}

// TestJointRefusals: what the joint route cannot express is refused naming the element:
// a motion on a cut joint; a tree joint's reaction channel when the model has a knife edge,
// whose Pfaffian load the transmitted wrenches do not sum (joint.TransmittedWrenches); a
// knife edge's reaction channel.
func TestJointRefusals(t *testing.T) {
	const slide = "  - {name: slide, type: translational, i: slot, j: slider.P}\n"
	const blade = slide + "  - {name: blade, type: knife-edge, i: slider.P}\n"
	cases := []struct{ from, to, want string }{
		{"joint: main, function", "joint: wristpin, function", `motion "drive": joint "wristpin" is a cut joint`},
		{slide, blade, `channel "main.fx": the reaction of tree joint "main" is not available with coordinates: joint here (joint: transmitted wrenches: the model has knife edges`},
		{"outputs: [crank,", "outputs: [blade.fx, crank,", `output channel "blade.fx": joint reactions are not available with coordinates: joint`},
	}
	for _, c := range cases {
		src := strings.Replace(slotCrank, c.from, c.to, 1)
		if src == slotCrank {
			t.Fatalf("%q not in the model", c.from)
		}
		if strings.Contains(c.to, "blade.fx") {
			src = strings.Replace(src, slide, blade, 1)
		}
		doc, err := Parse("slot-crank.yaml", []byte("coordinates: joint\n"+src))
		if err == nil {
			_, err = Build(doc)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

// TestJointParallelogramLoadSum: the parallelogram's three top pins share the coupler's
// load in a way its redundant rows leave open (the body route's least-squares λ, the joint
// route's cut joints differ), but their sum on the coupler, force and moment about its
// centre, is its Newton-Euler balance and agrees between the routes over 0.05 s (dopri5 at
// tol 1e-10) to 1e-6 of its size.
func TestJointParallelogramLoadSum(t *testing.T) {
	body := loadExample(t, "parallelogram")
	doc, err := parseJoint(t, "parallelogram")
	if err != nil {
		t.Fatal(err)
	}
	joint, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	outputs := []string{"coupler.theta", "top1.fx", "top1.fy", "top2.fx", "top2.fy", "top3.fx", "top3.fy"}
	opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: body.Start.T + 0.05}
	var sums [2][3][]float64 // route, (Σfx, Σfy, Σ moment about K2), sample
	for r, b := range []*Built{body, joint} {
		b.Doc.Model.Simulation.Outputs = outputs
		res := runExample(t, b, opt)
		d := res.Data[1:] // after t
		for i := range res.Samples {
			th := d[0][i]
			var fx, fy, n float64
			for k, arm := range []float64{-1, 0, 1} { // K1, K2, K3 from the coupler's centre
				x, y := d[1+2*k][i], d[2+2*k][i]
				fx, fy = fx+x, fy+y
				n += arm * (math.Cos(th)*y - math.Sin(th)*x)
			}
			sums[r][0], sums[r][1], sums[r][2] = append(sums[r][0], fx), append(sums[r][1], fy), append(sums[r][2], n)
		}
	}
	for c, what := range []string{"sum of fx", "sum of fy", "moment about the centre"} {
		if gap := channelGap(sums[0][c], sums[1][c], false); !(gap <= 1e-6) {
			t.Errorf("%s: routes differ by %.2e of its size, want <= 1e-6", what, gap)
		}
	}
}
