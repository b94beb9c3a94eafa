package modelfile

import (
	"math"
	"os"
	"regexp"
	"strings"
	"testing"
)

// quickReturn is a quick-return mechanism: a crank whose pin slides in the slot of an arm
// swinging about a second ground pivot (a point-on-line joint whose line turns with the
// arm), under gravity.
const quickReturn = `
name: quick-return
gravity: [0, -9.81]
bodies:
  - {name: crank, mass: 0.5, inertia: 0.002}
  - {name: arm, mass: 1, inertia: 0.03}
markers:
  - {name: O, body: ground, point: [0, 0]}
  - {name: P, body: ground, point: [0, -0.3]}
  - {name: crank.O, body: crank, point: [-0.05, 0]}
  - {name: crank.pin, body: crank, point: [0.05, 0]}
  - {name: arm.P, body: arm, point: [-0.3, 0]}
  - {name: arm.slot, body: arm, point: [-0.25, 0.01], angle: 2 deg}
joints:
  - {name: main, type: revolute, i: O, j: crank.O}
  - {name: pivot, type: revolute, i: P, j: arm.P}
  - {name: slot, type: point-on-line, i: arm.slot, j: crank.pin}
forces:
  - {name: spring, type: rsda, joint: main, k: 0.5, c: 0.01, free_angle: 0}
initial:
  bodies:
    crank: {position: [0.0433, 0.025], angle: 30 deg, angular_velocity: 5}
    arm: {position: [0.0742, -0.0093], angle: 1.3288}
  keep: [crank.theta]
simulation:
  t_end: 1
  outputs: [crank, arm, crank.pin, energy]
`

// TestJointPointOnLine: a point-on-line joint is a cut joint of one slide row (CutSlide)
// on the joint route, whether its line is the ground's (the slider-crank of
// examples/slider-crank.yaml, here without its tsda, which the joint route does not take
// yet) or turns with a moving arm (quickReturn, the line off the arm's pivot and turned
// by 2°); both follow the body route's motion, marker channels and energies to 1e-7 of
// each channel's size at tol 1e-11 (dopri5), and the poses, rates and energies to 2e-4
// with hht at tol 1e-8 (its Newton matrix takes the slide row's ∂(Gᵀλ)/∂q): measured
// 5.7e-5 on the quick-return's arm.omega, the gap of two runs at their own step sequences,
// which falls with the tolerance (2.4e-4, 5.7e-5, 1.6e-5, 3.4e-6 at tol 1e-7 … 1e-10).
func TestJointPointOnLine(t *testing.T) {
	data, err := os.ReadFile("../examples/slider-crank.yaml")
	if err != nil {
		t.Fatal(err)
	}
	slider := regexp.MustCompile(`(?m)^(forces:|  - \{name: spring, type: tsda.*|  outputs:.*|  plot:.*)$`).ReplaceAllString(string(data), "")
	slider = strings.Replace(slider, "  output_step: 0.005", "  output_step: 0.005\n  outputs: [crank, rod, rod.B, energy]", 1)
	for _, c := range []struct{ file, src string }{{"slider-crank.yaml", slider}, {"quick-return.yaml", quickReturn}} {
		bb, bj := buildBoth(t, c.file, c.src)
		if got := strings.Join(bj.Joint.Cuts, " "); got != "slider" && got != "slot" {
			t.Errorf("%s: cut joints %q, want the point-on-line joint", c.file, got)
		}
		if bb.DOF() != 1 || bj.DOF() != 1 {
			t.Errorf("%s: DOF %d in body coordinates, %d in joint ones, want 1", c.file, bb.DOF(), bj.DOF())
		}
		for _, m := range []struct {
			opt   RunOptions
			bound float64
		}{
			{RunOptions{Method: "dopri5", Tol: 1e-11}, 1e-7},
			{RunOptions{Method: "hht", Tol: 1e-8}, 2e-4},
		} {
			rb, rj := runExample(t, bb, m.opt), runExample(t, bj, m.opt)
			if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 20 || rb.Samples < 3 {
				t.Fatalf("%s: channels %v vs %v, %d samples", c.file, rb.Channels, rj.Channels, rb.Samples)
			}
			if m.opt.Method == "hht" { // poses, rates and energies: hht's accelerations converge more slowly
				dropAccelerations(rb, rj)
			}
			compareRuns(t, rb, rj, bb, m.bound, false)
			if math.Abs(rb.Solution.Final.T-rj.Solution.Final.T) > 1e-12 {
				t.Errorf("%s: runs end at %g and %g", c.file, rb.Solution.Final.T, rj.Solution.Final.T)
			}
		}
	}
}

// TestJointRouteRefusesByElement: on the joint route a motion on a point-on-line joint
// (always a cut joint there) and a cam with an open contour (a table profile, whose
// contact parameter is no polar angle modulo 2π) are refused naming the element, the
// reason and the way out.
func TestJointRouteRefusesByElement(t *testing.T) {
	driven := strings.Replace(quickReturn, "forces:", "motions:\n  - {name: push, joint: slot, function: \"0.1*t\"}\nforces:", 1)
	cam, err := os.ReadFile("../examples/cam-follower.yaml")
	if err != nil {
		t.Fatal(err)
	}
	open := strings.Replace(string(cam), "profile: 0.02*cos(u) + sqrt(0.05^2 - (0.02*sin(u))^2)", "profile: {u: [-4, 0, 4], r: [0.05, 0.07, 0.05]}", 1)
	for _, c := range []struct{ file, src, want string }{
		{"driven.yaml", driven, `motion "push": joint "slot" is a point-on-line joint, always a cut joint with coordinates: joint`},
		{"open-cam.yaml", open, `joints[2].profile: cam "contact": the profile is not 2π-periodic`},
	} {
		_, err := Parse(c.file, []byte("coordinates: joint\n"+c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "use coordinates: body") {
			t.Errorf("%s: %v, want an error containing %q and the way out", c.file, err, c.want)
		}
	}
}

// slider3 is a spatial slider-crank: a crank on a revolute joint about z, a rod on a
// spherical joint at the crank pin, its tip on a line along x offset from the crank's
// plane in y and z (a point-on-line joint on the ground: two slide rows).
const slider3 = `
name: slider3
dimension: 3
gravity: [0, 0, -9.81]
bodies:
  - {name: crank, mass: 0.5, inertia: [0.0001, 0.0005, 0.0005]}
  - {name: rod, mass: 1, inertia: [0.0005, 0.02, 0.021]}
markers:
  - {name: O, body: ground}
  - {name: line, body: ground, point: [0, -0.05, 0.04], axis: [1, 0, 0]}
  - {name: crank.O, body: crank, point: [-0.05, 0, 0]}
  - {name: crank.pin, body: crank, point: [0.05, 0, 0]}
  - {name: rod.A, body: rod, point: [-0.15, 0, 0]}
  - {name: rod.B, body: rod, point: [0.15, 0, 0]}
joints:
  - {name: main, type: revolute, i: O, j: crank.O}
  - {name: ball, type: spherical, i: crank.pin, j: rod.A}
  - {name: slider, type: point-on-line, i: line, j: rod.B}
initial:
  bodies:
    crank: {position: [0.0433, 0.025, 0], angles: [0, 0, 30 deg], angular_velocity: [0, 0, 5]}
    rod: {position: [0.2266, 0, 0.02], angles: [0, -0.13373, -0.34287], angular_velocity: [1, 0, 0]}
simulation:
  t_end: 1
  output_step: 0.02
  outputs: [crank, rod, rod.B, energy]
`

// TestJoint3PointOnLine: in 3D a point-on-line joint is a cut joint of two slide rows
// along marker i's x and y axes (CutSlide), and the spatial slider-crank follows the body
// route's motion (positions, Euler parameters, rates, the rod tip, energies) to 1e-6 of
// each channel's size over 1 s, both run by dopri5 at tol 1e-10.
func TestJoint3PointOnLine(t *testing.T) {
	bb, bj := buildBoth(t, "slider3.yaml", slider3)
	if tree, cuts := strings.Join(bj.Joint3.Tree, " "), strings.Join(bj.Joint3.Cuts, " "); tree != "main ball" || cuts != "slider" {
		t.Errorf("tree %q and cut joints %q, want \"main ball\" and \"slider\"", tree, cuts)
	}
	if bb.DOF() != 2 || bj.DOF() != 2 {
		t.Errorf("DOF %d in body coordinates, %d in joint ones, want 2 (crank, rod spin)", bb.DOF(), bj.DOF())
	}
	opt := RunOptions{Method: "dopri5", Tol: 1e-10}
	rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
	if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 20 || rb.Samples < 3 {
		t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
	}
	t.Logf("largest gap %.2e", compareChannels(t, rb, rj, 1e-6))
}

// dropAccelerations empties the acceleration channels (.ax, .ay, .az, .alpha) of two runs,
// so that compareRuns and compareChannels compare the others.
func dropAccelerations(runs ...*Result) {
	for _, r := range runs {
		for k, ch := range r.Channels {
			if s := ch[strings.LastIndexByte(ch, '.')+1:]; s == "ax" || s == "ay" || s == "az" || s == "alpha" {
				r.Data[k] = nil
			}
		}
	}
}
