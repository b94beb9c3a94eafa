package modelfile

import (
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"linkage/problems"
)

// TestJointCamFollower: examples/cam-follower.yaml without its tsda (which the joint route
// does not take yet) on the joint route, the cam joint one row with its contact parameter
// eliminated (joint.Model.Cam): driven, the follower's tip rises as the closed form
// y(θ) = E sin θ + √(R² − (D − E cos θ)²) to 1e-7 m, and the tip, the bodies and the
// driving torque follow the body route to 1e-7 of each channel's size (bdf, tol 1e-10);
// undriven, with the cam's marker turned by 30° and the cam spinning at 6 rad/s, the
// bodies, the tip and the energies follow the body route to 1e-7 (dopri5, tol 1e-11) and
// to 1e-5 with hht at tol 1e-9, whose Newton matrix takes the cam row's ∂(Gᵀλ)/∂q.
func TestJointCamFollower(t *testing.T) {
	src := strings.Replace(camWithoutSpring(t), "  output_step: 0.01", "  output_step: 0.01\n  outputs: [cam, follower, follower.tip, energy, drive]", 1)
	bb, bj := buildBoth(t, "cam-follower.yaml", src)
	if got := strings.Join(bj.Joint.Cuts, " "); got != "contact" {
		t.Errorf("cut joints %q, want contact", got)
	}
	opt := RunOptions{Method: "bdf", Tol: 1e-10}
	rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
	t.Logf("driven: largest gap %.2e", compareChannels(t, rb, rj, 1e-7))
	disc := problems.CamFollower{Profile: problems.EccentricDisc{E: 0.02, R: 0.05}, D: 0.01, M: 0.5, K: 200, Grav: 9.81}
	ts, th, y := rj.Data[0], rj.Channel("cam.theta"), rj.Channel("follower.tip.y")
	var ey float64
	for k := range ts {
		q, _, _ := disc.DiscMotion(th[k], 2*math.Pi)
		ey = math.Max(ey, math.Abs(y[k]-q[1]))
	}
	if len(ts) < 100 || !(ey <= 1e-7) {
		t.Errorf("joint route: max |y − y(θ)| = %.2g m over %d samples, want ≤ 1e-7", ey, len(ts))
	}

	free := regexp.MustCompile(`(?m)^(motions:|  - \{name: drive, .*)$`).ReplaceAllString(src, "")
	free = strings.Replace(free, ", drive]", "]", 1)
	free = strings.Replace(free, "{name: cam.O, body: cam, point: [0, 0]}", "{name: cam.O, body: cam, point: [0, 0], angle: 30 deg}", 1)
	free = strings.Replace(free, "    follower: {position: [0.01, 0.049]}", "    cam: {angular_velocity: 6}\n    follower: {position: [0.01, 0.049]}", 1)
	bb, bj = buildBoth(t, "free-cam.yaml", free)
	if bb.DOF() != 1 || bj.DOF() != 1 {
		t.Errorf("undriven: DOF %d in body coordinates, %d in joint ones, want 1", bb.DOF(), bj.DOF())
	}
	for _, c := range []struct {
		opt   RunOptions
		bound float64
	}{
		{RunOptions{Method: "dopri5", Tol: 1e-11}, 1e-7},
		{RunOptions{Method: "hht", Tol: 1e-9}, 1e-5},
	} {
		rb, rj := runExample(t, bb, c.opt), runExample(t, bj, c.opt)
		if c.opt.Method == "hht" { // poses, rates and energies: hht's accelerations converge more slowly
			dropAccelerations(rb, rj)
		}
		if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 20 {
			t.Fatalf("channels %v vs %v", rb.Channels, rj.Channels)
		}
		t.Logf("undriven, %s: largest gap %.2e, cam turned %.3g rad", c.opt.Method, compareChannels(t, rb, rj, c.bound), rj.Channel("cam.theta")[rj.Samples-1])
	}
}

// TestJointCamTangentStart: on the joint route a cam whose follower's path is tangent to
// the contour at the start (where its one row would vanish on the tree's motions and be
// dropped as redundant, leaving the follower free) is refused as on the body route, by
// the body-coordinate start the joint route is read from.
func TestJointCamTangentStart(t *testing.T) {
	src := strings.NewReplacer("point: [0.01, 0], angle: 90 deg", "point: [0.07, 0], angle: 90 deg",
		"position: [0.01, 0.049]", "position: [0.07, 0]").Replace(camWithoutSpring(t))
	doc, err := Parse("tangent.yaml", []byte("coordinates: joint\n"+src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(doc)
	if err == nil || !strings.Contains(err.Error(), "tangent to the contour") {
		t.Errorf("tangent start: got %v, want an error saying the path is tangent", err)
	}
}

// camWithoutSpring is examples/cam-follower.yaml without its tsda, outputs and plot.
func camWithoutSpring(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../examples/cam-follower.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`(?m)^(forces:|  - \{name: spring, type: tsda.*|  outputs:.*|  plot:.*)$`).ReplaceAllString(string(data), "")
}
