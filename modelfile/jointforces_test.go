package modelfile

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// slotCrankForces is the slot crank with a force element of every planar kind: an rsda on
// the cut joint (the wrist pin) with a polynomial damper and an actuator, an rsda between
// markers of the ground and the rod with a cubic spring, a tsda from the ground with an
// actuator, a follower point force (body axes), a torque and a bushing on the slider.
var slotCrankForces = strings.Replace(strings.Replace(slotCrank, "free_angle: -30 deg}\n", `free_angle: -30 deg}
  - {name: wristspring, type: rsda, joint: wristpin, k: 3, damper: {polynomial: [0, 0.05, 0, 0.01]}, actuator: "0.2*sin(5*t)"}
  - {name: tilt, type: rsda, i: O, j: rod.B, spring: {polynomial: [0, 4, 0, 1]}, c: 0.1, free_angle: 10 deg}
  - {name: strut, type: tsda, i: O, j: rod.B, k: 200, c: 2, free_length: 0.25, actuator: "3*cos(4*t)"}
  - {name: gust, type: point-force, marker: rod.A, fx: "2*sin(3*t)", fy: -1, frame: body}
  - {name: twirl, type: torque, body: rod, torque: "0.5*cos(2*t)"}
  - {name: pad, type: bushing, i: slot, j: slider.P, kx: 50, ky: 80, ktheta: 5, cx: 0.5, cy: 0.5, ctheta: 0.05}
`, 1), "outputs: [", "outputs: [pinspring, mainspring, wristspring, tilt, strut, pad, ", 1)

// crane3Forces is the 3D crane with a force element of every kind: laws and an actuator on
// an rsda of a tree joint, an rsda between markers, a tsda from the ground, a bushing
// between the cart and the sleeve, point forces in body and world axes, torques in body
// and world axes.
var crane3Forces = strings.Replace(strings.Replace(crane3, "free_angle: 20 deg}\n", `free_angle: 20 deg}
  - {name: wind, type: rsda, joint: turn, spring: {polynomial: [0, 2, 0, 0.5]}, damper: {polynomial: [0, 0.05]}, actuator: "0.1*sin(t)"}
  - {name: lean, type: rsda, i: cart.top, j: base.O, k: 2, c: 0.05, free_angle: 5 deg}
  - {name: pull, type: tsda, i: slot, j: bob.top, k: 3, c: 0.2, free_length: 0.3, actuator: "0.5*sin(2*t)"}
  - {name: pad, type: bushing, i: cart.top, j: sleeve.p, stiffness: [5, 6, 7], damping: [0.1, 0.1, 0.1], rot_stiffness: [0.5, 0.6, 0.7], rot_damping: [0.01, 0.01, 0.01]}
  - {name: gust, type: point-force, marker: bob.top, force: [1, "0.5*sin(3*t)", 2], frame: body}
  - {name: shove, type: point-force, marker: sleeve.p, force: [0.3, 0, -1]}
  - {name: spin, type: torque, body: bob, torque: [0.05, 0, "0.1*cos(t)"], frame: body}
  - {name: yaw, type: torque, body: boom, torque: [0, 0, 0.2]}
`, 1), "outputs: [", "outputs: [twist, wind, lean, pull, pad, ", 1)

// hungForces is the hung chain closed by a revolute cut joint with an rsda on that joint.
var hungForces = strings.NewReplacer("ELBOW", "revolute", "AXIS", "[0.2, 1, 0.3]", "outputs: [", "outputs: [twist, ",
	"initial:\n", "forces:\n  - {name: twist, type: rsda, joint: elbow, k: 1, c: 0.05, free_angle: 5 deg}\ninitial:\n").Replace(hung3)

// TestJointForceElementsMatchBodyCoordinates: models with every force element kind (the
// slot crank, planar; the crane and the hung chain, 3D, the chain's rsda on its cut joint)
// follow in joint coordinates the motion, energies, driving loads and spring-damper
// channels (length, deflection, velocity, force, power; a bushing's length, force, torque
// and power) of body coordinates to 1e-6 of each channel's size (dopri5 at tol 1e-10,
// 0.5 s), and the energy balance
// T + V − W_nc − W_driving holds on the joint route to 1e-6 of the energy exchanged (the
// springs' potential and the dampers', actuators' and loads' work are those of the force).
func TestJointForceElementsMatchBodyCoordinates(t *testing.T) {
	for _, c := range []struct{ name, src string }{{"slot-crank", slotCrankForces}, {"crane3", crane3Forces}, {"hung3", hungForces}} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(c.src, "forces:\n") || c.src == slotCrank || c.src == crane3 {
				t.Fatal("the force elements are not in the model")
			}
			bb, bj := buildBoth(t, c.name+".yaml", c.src)
			opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: 0.5}
			rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
			if len(rb.Channels) != len(rj.Channels) || !slices.Contains(rj.Channels, "twist.power") && !slices.Contains(rj.Channels, "pad.power") || rb.Samples < 3 {
				t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
			}
			compareChannels(t, rb, rj, 1e-6)
			if d := rj.EnergyDrift / rj.EnergyScale; !(d < 1e-6) {
				t.Errorf("energy drift %.3g J on the joint route, %.3g of the energy exchanged (%.3g J)", rj.EnergyDrift, d, rj.EnergyScale)
			}
		})
	}
}

// TestJointAndrews: Andrews' squeezing mechanism (a tsda and a motor torque) on the joint
// route follows the body route's angles at the file's t_end (0.03 s) with the file's
// method (dopri5, tol 1e-10) to 1e-9 of their size (measured: 8e-12).
func TestJointAndrews(t *testing.T) {
	body := loadExample(t, "andrews")
	doc, err := parseJoint(t, "andrews")
	if err != nil {
		t.Fatal(err)
	}
	jnt, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	if jnt.Joint == nil || len(jnt.Joint.Cuts) != 3 {
		t.Fatalf("andrews: not built in joint coordinates with three cut joints")
	}
	rb, rj := runExample(t, body, RunOptions{}), runExample(t, jnt, RunOptions{})
	for k, ch := range rb.Channels {
		if !strings.HasSuffix(ch, ".theta") {
			continue
		}
		a, b := rb.Data[k], rj.Data[k]
		n := len(a) - 1
		if d := math.Abs(a[n] - b[n]); !(d <= 1e-9*math.Max(1, math.Abs(a[n]))) {
			t.Errorf("%s at t_end: joint route %.15g, body route %.15g", ch, b[n], a[n])
		}
	}
}

// TestJointForceElementsHHT: hht, whose Newton iteration on the joint route takes its
// products from residual differences (Newton-Krylov), integrates the slot crank and the
// crane with their force elements at tol 1e-8: every body position and velocity channel
// follows the dopri5 reference (tol 1e-10) to 2e-4 of its size (measured 1.8e-5 and
// 7.1e-5), and the joint route's gap is at most twice hht's own on the body route.
func TestJointForceElementsHHT(t *testing.T) {
	for _, c := range []struct{ name, src string }{{"slot-crank", slotCrankForces}, {"crane3", crane3Forces}} {
		t.Run(c.name, func(t *testing.T) {
			bb, bj := buildBoth(t, c.name+".yaml", c.src)
			ref := runExample(t, bb, RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: 0.5})
			opt := RunOptions{Method: "hht", Tol: 1e-8, TEnd: 0.5}
			gb, gj := motionGap(ref, runExample(t, bb, opt)), motionGap(ref, runExample(t, bj, opt))
			if !(gj <= 2e-4) || !(gj <= 2*gb) {
				t.Errorf("hht on the joint route: gap %.3g to the reference, want <= 2e-4 and <= twice the body route's %.3g", gj, gb)
			}
		})
	}
}

// motionGap is the largest gap of r's body position and velocity channels to ref's, each
// relative to the channel's size (channelGap).
func motionGap(ref, r *Result) float64 {
	var worst float64
	for k, ch := range ref.Channels {
		_, suffix := splitChannel(ch)
		switch suffix {
		case "x", "y", "z", "p0", "p1", "p2", "p3", "vx", "vy", "vz", "wx", "wy", "wz", "omega":
			worst = math.Max(worst, channelGap(ref.Data[k], r.Data[k], false))
		case "theta":
			worst = math.Max(worst, channelGap(ref.Data[k], r.Data[k], true))
		}
	}
	return worst
}
