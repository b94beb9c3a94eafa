package modelfile

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"linkage/problems"
)

// TestCamFollowerExample: examples/cam-follower.yaml (a cam joint with an expression
// profile, its contact parameter a massless coordinate) against the closed form of the
// eccentric disc (problems.CamFollower.DiscMotion, derived from the disc, not the
// profile): at bdf's tol 1e-8 the follower height stays within 1e-7 m of y(θ) over a turn
// (measured 2.9e-10 m), the contact.u channel within 1e-6 of u(θ) (measured 1.3e-9), and the vertical contact force on the follower, the cam joint's fy
// channel, within 1e-4 relative of m ÿ + m g + K y (measured 7.8e-8; it is λ, one
// differentiation further from the positions).
func TestCamFollowerExample(t *testing.T) {
	b := loadExample(t, "cam-follower")
	r := runExample(t, b, RunOptions{})
	disc := problems.CamFollower{Profile: problems.EccentricDisc{E: 0.02, R: 0.05}, D: 0.01, M: 0.5, K: 200, Grav: 9.81}
	ts, th, y, fy, u := r.Data[0], r.Channel("cam.theta"), r.Channel("follower.y"), r.Channel("contact.fy"), r.Channel("contact.u")
	if len(ts) != 101 || th == nil || y == nil || fy == nil || u == nil {
		t.Fatalf("%d samples, channels cam.theta %v, follower.y %v, contact.fy %v, contact.u %v", len(ts), th != nil, y != nil, fy != nil, u != nil)
	}
	var ey, ef, eu float64
	for k, tk := range ts {
		if d := math.Abs(th[k] - 2*math.Pi*tk); d > 1e-9 {
			t.Fatalf("t = %g: cam angle %g off the drive 2πt by %.2g", tk, th[k], d)
		}
		q, _, f := disc.DiscMotion(th[k], 2*math.Pi)
		ey = math.Max(ey, math.Abs(y[k]-q[1]))
		ef = math.Max(ef, math.Abs(fy[k]-f)/math.Abs(f))
		eu = math.Max(eu, math.Abs(math.Remainder(u[k]-q[2], 2*math.Pi)))
	}
	t.Logf("max |y − y(θ)| %.2g m, |u − u(θ)| %.2g, |Δfy|/|fy| %.2g over %d samples", ey, eu, ef, len(ts))
	if ey > 1e-7 || eu > 1e-6 || ef > 1e-4 {
		t.Errorf("|y − y(θ)| = %.2g m (want ≤ 1e-7), |u − u(θ)| = %.2g (want ≤ 1e-6), contact force off by %.2g relative (want ≤ 1e-4)", ey, eu, ef)
	}
}

// TestCamJointErrors: a cam joint without a profile, with a table whose radii are not
// positive, with an expression in t instead of u, or in natural coordinates, is refused with
// the path of the bad key.
func TestCamJointErrors(t *testing.T) {
	base := `name: cam
bodies:
  - {name: cam, mass: 1, inertia: 0.01}
  - {name: f, mass: 1, inertia: 0.01}
markers:
  - {name: O, body: ground}
  - {name: c, body: cam}
  - {name: p, body: f}
joints:
  - {name: pin, type: revolute, i: O, j: c}
  - {name: contact, type: cam, i: c, j: p%s}
%s`
	cases := []struct{ profile, extra, want string }{
		{"", "", `joints[1]: missing required key "profile"`},
		{", profile: {u: [0, 1, 2], r: [0.1, -0.1, 0.1]}", "", "joints[1].profile.r[1]: r = -0.1; want a radius > 0"},
		{", profile: {u: [0, 1], r: [0.1]}", "", "table with 2 angles and 1 radii"},
		{", profile: 0.1 + 0.01*cos(t)", "", `unknown name "t"; want u`},
		{", profile: 0.1", "coordinates: natural\n", "cam joints are not available with coordinates: natural"},
	}
	for _, c := range cases {
		src := strings.Replace(base, "%s", c.profile, 1)
		src = strings.Replace(src, "%s", c.extra, 1)
		_, err := Parse("cam.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("profile %q: got %v, want an error containing %q", c.profile, err, c.want)
		}
	}
}

// TestCamTangentStart: a follower guide tangent to the disc at the start (guide at
// x = E + R, where the disc's contour is vertical) makes the cam's x row dependent on the
// pin's and the guide's (Initialize would drop one as redundant and run a different
// mechanism); Build refuses it, saying the path is tangent and naming the cam's row.
func TestCamTangentStart(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "cam-follower.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.NewReplacer("point: [0.01, 0], angle: 90 deg", "point: [0.07, 0], angle: 90 deg",
		"point: [0.01, 0.2]", "point: [0.07, 0.2]", "position: [0.01, 0.049]", "position: [0.07, 0]").Replace(string(data))
	doc, err := Parse("tangent.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(doc)
	if err == nil || !strings.Contains(err.Error(), "tangent to the contour") || !strings.Contains(err.Error(), "contact.x") {
		t.Errorf("tangent start: got %v, want an error saying the path is tangent, naming the row contact.x", err)
	}
}
