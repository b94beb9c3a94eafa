package modelfile

import (
	"math"
	"strings"
	"testing"
)

// TestRollingDiskExample: examples/rolling-disk.yaml starts a disk on the steady circular
// rolling motion (tilt θ = 0.3 rad, precession Ω = −1 rad/s; the relation is derived in
// spatial/disk_test.go), so at every sample the tilt (u_z = p0² − p1² − p2² + p3² =
// sin θ), the centre's height r cos θ and its distance |ρ| = 2.0083 m from the circle's
// centre (0, −r sin θ + ρ) stay those of the start, and the contact row's multiplier is
// −m g (the plane carries the weight: no vertical acceleration). Run with the methods that
// take the rolling rows, at the file's tol 1e-9; bound 1e-5, the tolerance times 1e4 for
// the second-order index-3 methods' global error over a full circle (measured below).
func TestRollingDiskExample(t *testing.T) {
	b := loadExample(t, "rolling-disk")
	const r, theta, g = 0.3, 0.3, 9.81
	const rho = -2.0082830621138683 // r ω₃/Ω
	st, ct := math.Sincos(theta)
	for _, method := range []string{"dopri5", "hht", "bdf", "radau5", "genalpha"} {
		res := runExample(t, b, RunOptions{Method: method})
		x, y, z := res.Channel("disk.x"), res.Channel("disk.y"), res.Channel("disk.z")
		p0, p1, p2, p3 := res.Channel("disk.p0"), res.Channel("disk.p1"), res.Channel("disk.p2"), res.Channel("disk.p3")
		lam := res.Channel("roll.lambda")
		var eTilt, eHeight, eRadius, eLambda float64
		for k := range x {
			uz := p0[k]*p0[k] - p1[k]*p1[k] - p2[k]*p2[k] + p3[k]*p3[k]
			eTilt = math.Max(eTilt, math.Abs(uz-st))
			eHeight = math.Max(eHeight, math.Abs(z[k]-r*ct))
			eRadius = math.Max(eRadius, math.Abs(math.Hypot(x[k], y[k]-(-r*st+rho))-math.Abs(rho)))
			eLambda = math.Max(eLambda, math.Abs(lam[k]+g)/g)
		}
		if eTilt > 1e-5 || eHeight > 1e-5 || eRadius > 1e-5 || eLambda > 1e-5 || res.EnergyDrift > 1e-5 {
			t.Errorf("%s: errors u_z %.3g, height %.3g m, path radius %.3g m, relative normal force %.3g, energy drift %.3g J; want ≤ 1e-5",
				method, eTilt, eHeight, eRadius, eLambda, res.EnergyDrift)
		}
		t.Logf("%s: u_z %.2g, height %.2g, radius %.2g, λ %.2g, energy %.2g J, %d samples", method, eTilt, eHeight, eRadius, eLambda, res.EnergyDrift, len(x))
	}
	_, err := Run(b, RunOptions{Method: "rk4", H: 1e-3})
	if err == nil || !strings.Contains(err.Error(), "nonholonomic") || !strings.Contains(err.Error(), "rk4") {
		t.Errorf("rk4: %v, want a refusal naming the nonholonomic constraints", err)
	}
}

// TestRollingDiskParseErrors: a bad rolling disk is reported at its file:line with the
// path and what was expected.
func TestRollingDiskParseErrors(t *testing.T) {
	const head = "dimension: 3\nbodies:\n  - {name: disk, mass: 1, inertia: [1, 1, 2]}\nmarkers:\n"
	for _, c := range []struct{ src, want string }{
		{head + "  - {name: c, body: disk}\njoints:\n  - {name: roll, type: rolling-disk, i: c, radius: -0.3}\n",
			"m.yaml:7:52: joints[0].radius: radius (m) = -0.3; want a positive number"},
		{head + "  - {name: c, body: disk}\njoints:\n  - {name: roll, type: rolling-disk, i: c}\n",
			`m.yaml:7:5: joints[0]: missing required key "radius" (m) of the rolling disk`},
		{head + "  - {name: c, body: wheel}\njoints:\n  - {name: roll, type: rolling-disk, i: c, radius: 0.3}\n",
			`m.yaml:5:21: markers[0].body: unknown body "wheel"`},
		{head + "  - {name: c, body: disk, axis: [0, 0, 0]}\njoints:\n  - {name: roll, type: rolling-disk, i: c, radius: 0.3}\n",
			"m.yaml:5:33: markers[0].axis: zero axis; want a nonzero direction"},
		{head + "  - {name: c, body: ground}\njoints:\n  - {name: roll, type: rolling-disk, i: c, radius: 0.3}\n",
			`m.yaml:7:41: joints[0].i: rolling disk "roll": marker "c" is on the ground; want a marker on the moving disk body`},
		{head + "  - {name: c, body: disk}\njoints:\n  - {name: roll, type: rolling-disk, i: d, radius: 0.3}\n",
			`m.yaml:7:41: joints[0].i: unknown marker "d"`},
		{head + "  - {name: c, body: disk}\njoints:\n  - {name: roll, type: rolling-disk, i: c, j: c, radius: 0.3}\n",
			`m.yaml:7:47: joints[0].j: key "j" does not apply to a rolling-disk joint; its keys are name, type, i, radius`},
		{head + "  - {name: c, body: disk}\n  - {name: o, body: ground}\njoints:\n  - {name: ball, type: spherical, i: o}\n",
			`m.yaml:8:5: joints[0]: missing required key "j" (the second marker of the spherical joint)`},
	} {
		_, err := Parse("m.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.src, err, c.want)
		}
	}
}
