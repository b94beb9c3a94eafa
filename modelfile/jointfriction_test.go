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

// finalGap returns the largest gap between two runs with the same channels at their last
// sample over the body channels and the energies (residuals and the invariant left out),
// relative to the larger of 1 and the channel's value there, and the channel; skip (nil:
// none) leaves out more channels.
func finalGap(t *testing.T, a, b *Result, skip func(channel string) bool) (float64, string) {
	t.Helper()
	if len(a.Channels) != len(b.Channels) || a.Samples != b.Samples {
		t.Fatalf("channels %v (%d samples) vs %v (%d)", a.Channels, a.Samples, b.Channels, b.Samples)
	}
	var worst float64
	var at string
	for k, ch := range a.Channels {
		if elem, _ := splitChannel(ch); elem == "residual" || ch == "energy.invariant" || ch == "t" || skip != nil && skip(ch) {
			continue
		}
		n := len(a.Data[k]) - 1
		if g := math.Abs(a.Data[k][n]-b.Data[k][n]) / math.Max(1, math.Abs(a.Data[k][n])); g > worst {
			worst, at = g, ch
		}
	}
	return worst, at
}

// algebraic reports whether a channel reads an acceleration, a multiplier or a joint
// reaction: hht's index-3 algebraic variables, whose errors are larger than those of the
// positions and velocities (between the routes at tol 1e-8: the crane's accelerations up
// to 8e-3 with or without friction, the pin force of joint-friction.yaml 1.4e-2).
func algebraic(ch string) bool {
	_, suffix := splitChannel(ch)
	return slices.Contains([]string{"ax", "ay", "az", "alpha", "lambda"}, suffix) || slices.Contains(jointSuffixes(), suffix)
}

// frictionRoutes builds a friction example on the body and the joint route, with the
// body route's channels those of the joint route (no joint reaction outputs), and checks
// that every joint with friction is in the spanning tree.
func frictionRoutes(t *testing.T, name string) (bb, bj *Built) {
	t.Helper()
	doc, err := parseJoint(t, name)
	if err == nil {
		bj, err = Build(doc)
	}
	if err != nil {
		t.Fatalf("%s with coordinates: joint: %v", name, err)
	}
	bb = loadExample(t, name)
	bb.Doc.Model.Simulation.Outputs = bj.Doc.Model.Simulation.Outputs
	if len(bj.Joint.Cuts) != 0 || len(bj.Joint.Tree) != len(doc.Model.Joints) || bb.DOF() != bj.DOF() {
		t.Fatalf("%s: tree %v, cut joints %v, DOF %d (body coordinates %d): want every joint in the tree and the same DOF",
			name, bj.Joint.Tree, bj.Joint.Cuts, bj.DOF(), bb.DOF())
	}
	return bb, bj
}

// TestJointFrictionSameEquations: examples/joint-friction.yaml (a pin and a slide with
// friction) and stiff-chain-friction.yaml (20 pins with friction and stiff springs) in
// joint coordinates, every friction joint a tree joint with slack rows, are the body
// route's equations: rk4 with the same 200 steps of 1e-4 s puts every body channel and
// energy (friction work included) within 1e-11 of the body route's at every sample
// (measured 5e-14 and 1.4e-15: rounding).
func TestJointFrictionSameEquations(t *testing.T) {
	for _, name := range []string{"joint-friction", "stiff-chain-friction"} {
		bb, bj := frictionRoutes(t, name)
		opt := RunOptions{Method: "rk4", H: 1e-4, TEnd: 0.02}
		rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
		compareRuns(t, rb, rj, bb, 1e-11, false)
	}
}

// TestJointFrictionExamples: both friction examples to their t_end (3 s and 1 s; dopri5,
// stiffness-bound on the stiff chain, to 0.1 s there) with hht and dopri5 at tol 1e-6 and
// 1e-8 on both routes. The routes' gap at the end (every channel of the file but the
// residuals, joint-friction.yaml's pin and slide reactions included, relative to
// max(1, |value|); with hht positions, velocities and energies: algebraic) shrinks at least
// tenfold from tol 1e-6 to 1e-8 (measured 18× to 2400×: the routes converge to one motion),
// unless it is below 1e-8 already (dopri5 on the stiff chain, whose steps stability
// bounds: 7.5e-10 and 1.7e-10), and at tol 1e-8 is within 1e-4 (measured 3.5e-5, on the
// stiff chain with hht); the joint route keeps its rows (the friction joints' slack rows)
// at zero to 1e-9.
func TestJointFrictionExamples(t *testing.T) {
	cases := []struct {
		name, method string
		tEnd         float64 // 0: the file's
	}{
		{"joint-friction", "hht", 0}, {"joint-friction", "dopri5", 0},
		{"stiff-chain-friction", "hht", 0}, {"stiff-chain-friction", "dopri5", 0.1},
	}
	for _, c := range cases {
		bb, bj := frictionRoutes(t, c.name)
		var gaps []float64
		for _, tol := range []float64{1e-6, 1e-8} {
			opt := RunOptions{Method: c.method, Tol: tol, TEnd: c.tEnd}
			rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
			var skip func(string) bool
			if c.method == "hht" {
				skip = algebraic
			}
			g, at := finalGap(t, rb, rj, skip)
			gaps = append(gaps, g)
			t.Logf("%s %s tol %g: gap %.2e at %s; steps %d (body) %d (joint)", c.name, c.method, tol, g, at,
				rb.Solution.Stats.Steps, rj.Solution.Stats.Steps)
			if r := rj.Solution.MaxResidual.Pos; !(r <= 1e-9) {
				t.Errorf("%s %s tol %g: joint route max |g| %.2e, want <= 1e-9", c.name, c.method, tol, r)
			}
		}
		if !(gaps[1] <= math.Max(gaps[0]/10, 1e-8)) || !(gaps[1] <= 1e-4) {
			t.Errorf("%s %s: gap %.2e at tol 1e-6, %.2e at tol 1e-8: want at least tenfold smaller (or below 1e-8) and <= 1e-4", c.name, c.method, gaps[0], gaps[1])
		}
	}
}

// TestJointFrictionRefusals: friction that the joint route cannot take is refused naming
// the joint and the way out: on a translational cut joint (the slot crank with its slide
// written from the slider's side, so that it closes the loop); with friction on the wrist
// pin only, that pin joins the tree and the crank pin closes the loop; a method that
// cannot take λ-dependent forces refuses the joint-route model as it does the body route's.
func TestJointFrictionRefusals(t *testing.T) {
	src := strings.Replace(slotCrank, "  - {name: slide, type: translational, i: slot, j: slider.P}\n",
		"  - {name: slide, type: translational, i: slider.P, j: slot, friction: {mu: 0.2, v_reg: 1.0e-3}}\n", 1)
	if src == slotCrank {
		t.Fatal("the slide is not in the model")
	}
	doc, err := Parse("slot-crank.yaml", []byte("coordinates: joint\n"+src))
	if err == nil {
		_, err = Build(doc)
	}
	want := `translational joint "slide" has friction and is a cut joint`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "use coordinates: body") {
		t.Errorf("friction on a translational cut joint: err = %v, want %q and the way out", err, want)
	}
	fr := "friction: {mu: 0.2, v_reg: 1.0e-3, pin_radius: 0.01}}"
	one := strings.Replace(slotCrank, "i: rod.B, j: slider.P}", "i: rod.B, j: slider.P, "+fr, 1)
	one = regexp.MustCompile(`(?m)^.*name: pinspring.*$`).ReplaceAllString(one, "") // an rsda on the pin that becomes the cut
	doc, err = Parse("slot-crank.yaml", []byte("coordinates: joint\n"+one))
	var b *Built
	if err == nil {
		b, err = Build(doc)
	}
	if err != nil {
		t.Fatalf("friction on the wrist pin only: %v", err)
	}
	if !slices.Contains(b.Joint.Tree, "wristpin") || !slices.Equal(b.Joint.Cuts, []string{"crankpin"}) {
		t.Errorf("tree %v, cut joints %v: want the wrist pin (friction) in the tree and the crank pin cut", b.Joint.Tree, b.Joint.Cuts)
	}
	if _, err := Run(b, RunOptions{Method: "daealpha", Formulation: "cs", Tol: 1e-6, TEnd: 0.01}); err == nil || !strings.Contains(err.Error(), "λ") {
		t.Errorf("daealpha cs on joint friction: err = %v, want a refusal naming the λ-dependent forces", err)
	}
}

// TestJointFrictionOnCutJoint: examples/four-bar.yaml with friction in all four pins, so
// that the cut joint B has friction too (joint.Model.PlanarCutFriction: on the relative
// angle of the coupler and the rocker, pressed by B's point rows), follows the body
// route's motion, driving torque, the pins' reactions (B's read from its cut rows, the
// others from their hold rows) and energies: rk4 with the same 200 steps to 1e-10 of each
// channel's size, and dopri5 at tol 1e-10 over 0.5 s to 1e-6. W_nc is integrated by
// Simpson's rule on each route's own dense output (assembly.WorkMeter), whose midpoint
// states differ between the coordinate sets by the interpolation error: under rk4 the
// routes' W_nc differ by 1.05e-9, 2.6e-10 and 6.6e-11 J at h = 1e-4, 5e-5 and 2.5e-5 (the
// O(h²) of that error, converging to one value), under dopri5 (tol 1e-10) by 2.4e-6 J; it is
// compared to 4e-9 and 1e-5 (the invariant, which contains it, is left out as always).
func TestJointFrictionOnCutJoint(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "four-bar.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := regexp.MustCompile(`(type: revolute, i: [^,]+, j: [^,}]+)}`).ReplaceAllString(string(data),
		"$1, friction: {mu: 0.2, v_reg: 1.0e-3, pin_radius: 0.02, viscous: 0.01}}")
	src = strings.Replace(src, "outputs: [crank.theta,", "outputs: [A, B, crankpin, crank.theta,", 1)
	if strings.Count(src, "friction:") != 4 || !strings.Contains(src, "[A, B,") {
		t.Fatal("the friction blocks and outputs did not all go in")
	}
	bb, bj := buildBoth(t, "model.yaml", src)
	if !slices.Equal(bj.Joint.Cuts, []string{"B"}) {
		t.Fatalf("cut joints %v, want B", bj.Joint.Cuts)
	}
	for _, c := range []struct {
		opt         RunOptions
		bound, work float64
	}{
		{RunOptions{Method: "rk4", H: 1e-4, TEnd: 0.02}, 1e-10, 4e-9},
		{RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: 0.5}, 1e-6, 1e-5},
	} {
		rb, rj := runExample(t, bb, c.opt), runExample(t, bj, c.opt)
		k := slices.Index(rb.Channels, "energy.work_nc")
		if k < 0 {
			t.Fatalf("no channel energy.work_nc in %v", rb.Channels)
		}
		if g := channelGap(rb.Data[k], rj.Data[k], false); !(g <= c.work) {
			t.Errorf("%s: W_nc differs by %.2e, want <= %g", c.opt.Method, g, c.work)
		}
		rj.Data[k] = rb.Data[k] // compared above
		compareRuns(t, rb, rj, bb, c.bound, false)
	}
}

// TestJoint3RevoluteFriction: the crane (crane3) with friction on its turntable's revolute
// joint (written from the child's side, with its rsda), pressed by the whole pin force as
// on the body route (slack rows turn.x, turn.y, turn.z), follows the body route's motion:
// rk4 with the same 200 steps of 1e-4 s to 1e-9 of every channel's size (the reactions of
// the pin, its friction torque left out as on the body route, and of the ball included); hht and radau5 at
// tol 1e-6 and 1e-8 to 1 s with a gap at the end (positions, velocities, energies) that
// shrinks at least tenfold (measured 27× and 14×) and is within 1e-3 and 1e-5 at tol 1e-8
// (measured 2.2e-4 and 7.4e-7; hht's gap on the crane without friction is 2.6e-3 there,
// its integration error on this model). The friction changes the motion (the
// turntable's Euler parameter p3 at 1 s moves by more than 1e-3 against the crane without
// it, radau5 at tol 1e-6). Friction on a 3D revolute cut joint (hung3's elbow) is refused
// naming it.
func TestJoint3RevoluteFriction(t *testing.T) {
	src := strings.Replace(crane3, "i: base.O, j: cart.top}", "i: base.O, j: cart.top, friction: {mu: 0.3, v_reg: 1.0e-3, pin_radius: 0.05}}", 1)
	bb, bj := buildBoth(t, "crane3.yaml", src)
	if bj.Joint3 == nil || !slices.Contains(bj.Joint3.Tree, "turn") || bb.DOF() != bj.DOF() {
		t.Fatalf("crane with friction: not built in joint coordinates with turn in its tree and the body route's DOF")
	}
	opt := RunOptions{Method: "rk4", H: 1e-4, TEnd: 0.02}
	rb, rj := buildBoth(t, "crane3.yaml", strings.Replace(src, "push, feed,", "push, feed, turn, ball,", 1)) // with the reactions of the pin with friction and of the ball
	compareChannels(t, runExample(t, rb, opt), runExample(t, rj, opt), 1e-9)
	for _, c := range []struct {
		method string
		bound  float64
	}{{"hht", 1e-3}, {"radau5", 1e-5}} {
		var gaps []float64
		for _, tol := range []float64{1e-6, 1e-8} {
			opt := RunOptions{Method: c.method, Tol: tol}
			rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
			g, at := finalGap(t, rb, rj, algebraic)
			gaps = append(gaps, g)
			t.Logf("%s tol %g: gap %.2e at %s; steps %d (body) %d (joint)", c.method, tol, g, at, rb.Solution.Stats.Steps, rj.Solution.Stats.Steps)
		}
		if !(gaps[1] <= gaps[0]/10) || !(gaps[1] <= c.bound) {
			t.Errorf("%s: gap %.2e at tol 1e-6, %.2e at tol 1e-8: want at least tenfold smaller and <= %g", c.method, gaps[0], gaps[1], c.bound)
		}
	}
	hinged := strings.NewReplacer("ELBOW", "revolute", "AXIS", "[0.2, 1, 0.3]",
		"i: b1.H, j: b2.H1}", "i: b1.H, j: b2.H1, friction: {mu: 0.1, v_reg: 1.0e-3, pin_radius: 0.01}}").Replace(hung3)
	doc, err := Parse("model.yaml", []byte("coordinates: joint\n"+hinged))
	if err == nil {
		_, err = Build(doc)
	}
	if want := `joint "elbow" has friction and is a cut joint`; err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "use coordinates: body") {
		t.Errorf("friction on a 3D cut joint: err = %v, want %q and the way out", err, want)
	}
	_, bare := buildBoth(t, "crane3.yaml", crane3)
	plain := runExample(t, bare, RunOptions{Method: "radau5", Tol: 1e-6})
	with := runExample(t, bj, RunOptions{Method: "radau5", Tol: 1e-6})
	k := slices.Index(with.Channels, "base.p3")
	if k < 0 {
		t.Fatalf("no channel base.p3 in %v", with.Channels)
	}
	n := len(with.Data[k]) - 1
	if d := math.Abs(with.Data[k][n] - plain.Data[k][n]); !(d > 1e-3) {
		t.Errorf("the turntable's Euler parameter p3 moves by %.2e with friction, want > 1e-3", d)
	}
}

// TestJointFrictionReversedDrivenSlider: the slot crank with friction on its driven and
// sprung crank pivot (a revolute entered from marker j's side), on its crank pin (sprung)
// and on its slot (a translational tree joint whose friction has an arm, so its slack has
// the rotation slide.theta too) follows the body route's motion, driving torque, the
// friction joints' reactions (read from their hold rows) and energies (friction work
// included): rk4 with the same 200 steps to 1e-10 of each
// channel's size, and dopri5 at tol 1e-11 over 0.2 s to 1e-7, as the slot crank without
// friction does (TestJointTranslationalAndReversed); the friction joints stay in the tree.
func TestJointFrictionReversedDrivenSlider(t *testing.T) {
	src := strings.NewReplacer(
		"i: crank.O, j: O}", "i: crank.O, j: O, friction: {mu: 0.2, v_reg: 1.0e-3, pin_radius: 0.01}}",
		"i: crank.A, j: rod.A}", "i: crank.A, j: rod.A, friction: {mu: 0.2, v_reg: 1.0e-3, pin_radius: 0.01, viscous: 0.01}}",
		"i: slot, j: slider.P}", "i: slot, j: slider.P, friction: {mu: 0.3, v_reg: 1.0e-3, arm: 0.05}}",
		"outputs: [crank,", "outputs: [main, crankpin, slide, crank,").Replace(slotCrank)
	if strings.Count(src, "friction:") != 3 || !strings.Contains(src, "[main, crankpin") {
		t.Fatal("the friction blocks and reaction outputs did not all go in")
	}
	bb, bj := buildBoth(t, "slot-crank.yaml", src)
	if got := strings.Join(bj.Joint.Tree, " "); got != "slide main crankpin" || strings.Join(bj.Joint.Cuts, " ") != "wristpin" {
		t.Fatalf("tree %q, cut joints %v: want slide main crankpin and wristpin", got, bj.Joint.Cuts)
	}
	nq, nc := bj.Size()
	if nq != 3+6 || nc != 2+1+6 {
		t.Errorf("%d coordinates and %d rows, want 9 (3 joints, 2 slack per pin and per slide) and 9 (cut, drive, 6 holds)", nq, nc)
	}
	opt := RunOptions{Method: "rk4", H: 1e-4, TEnd: 0.02}
	compareRuns(t, runExample(t, bb, opt), runExample(t, bj, opt), bb, 1e-10, false)
	opt = RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-11}
	rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
	compareRuns(t, rb, rj, bb, 1e-7, false)
	k := slices.Index(rb.Channels, "energy.work_nc")
	if n := len(rb.Data[k]) - 1; !(rb.Data[k][n] < -1e-3) {
		t.Errorf("W_nc = %.3g J at the end, want the friction's work well below zero", rb.Data[k][n])
	}
}
