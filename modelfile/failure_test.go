package modelfile

import (
	"errors"
	"strings"
	"testing"

	"linkage/integrate"
)

// deadPointModel is a non-Grashof four-bar (ground 0.35, crank 0.3, coupler 0.4, rocker
// 0.3 m: shortest + longest = 0.7 > 0.65) whose crank is driven clockwise from 90° at one
// revolution per second. The crank pin can come no closer to O4 than coupler − rocker =
// 0.1 m: at a crank angle of 15.4° (t ≈ 0.2073 s) coupler and rocker fold onto one line
// (a toggle) and G loses rank; the motion drives the crank past it.
const deadPointModel = `name: four-bar-dead-point
gravity: [0, -9.81]
bodies:
  - {name: crank, mass: 2.4, inertia: 0.018}
  - {name: coupler, mass: 3.2, inertia: 0.042666666666666665}
  - {name: rocker, mass: 2.4, inertia: 0.018}
markers:
  - {name: O2, body: ground, point: [0, 0]}
  - {name: O4, body: ground, point: [0.35, 0]}
  - {name: crank.O, body: crank, point: [-0.15, 0]}
  - {name: crank.A, body: crank, point: [0.15, 0]}
  - {name: coupler.A, body: coupler, point: [-0.2, 0]}
  - {name: coupler.B, body: coupler, point: [0.2, 0]}
  - {name: rocker.O, body: rocker, point: [-0.15, 0]}
  - {name: rocker.B, body: rocker, point: [0.15, 0]}
joints:
  - {name: crankpin, type: revolute, i: O2, j: crank.O}
  - {name: A, type: revolute, i: crank.A, j: coupler.A}
  - {name: B, type: revolute, i: coupler.B, j: rocker.B}
  - {name: rockerpin, type: revolute, i: O4, j: rocker.O}
motions:
  - {name: drive, joint: crankpin, function: "pi/2 - 2*pi*t"}
initial:
  bodies:
    crank: {position: [0, 0.15], angle: 90 deg, angular_velocity: -6.283185307179586}
    coupler: {position: [0.2, 0.2979], angle: -0.01048}
    rocker: {position: [0.375, 0.1479], angle: 1.4034}
  keep: [crank.theta]
simulation:
  method: hht
  tol: 1.0e-6
  t_end: 0.5
`

// TestDeadPointIsSingularPosition: driving the four-bar past its toggle must say that the
// mechanism reached a singular position, when, and which joints are involved, for every
// error-controlled method that reaches it (it said "equation of motion 5 = 4.5e+21").
func TestDeadPointIsSingularPosition(t *testing.T) {
	doc, err := Parse("dead-point.yaml", []byte(deadPointModel))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"hht", "genalpha", "newmark", "bdf", "radau5", "dopri5"} {
		_, err := Run(b, RunOptions{Method: method})
		if !errors.Is(err, integrate.ErrSingularPosition) {
			t.Errorf("%s: err = %v, want ErrSingularPosition", method, err)
			continue
		}
		msg := err.Error()
		for _, want := range []string{"singular position at t=0.2073", "rank of G dropped to 8 of 9", "joints involved: crankpin, A, B, rockerpin, drive"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: %q lacks %q", method, msg, want)
			}
		}
		if strings.Contains(msg, "equation of motion") || strings.Contains(msg, "e+") {
			t.Errorf("%s: %q still quotes the residual of the failed attempt", method, msg)
		}
	}
}

// TestStiffPendulumLargeFixedStep: examples/stiff-double-pendulum.yaml at a fixed step of
// 0.05 s (2.5 periods of its springs): gcp-newmark accepted steps that grew to θ = 3e58 and
// |G v + g_t| = 7.8e43 until NaN. Every implicit method must stop with a fixed step too
// large, and nothing that diverged may be accepted.
func TestStiffPendulumLargeFixedStep(t *testing.T) {
	b := loadExample(t, "stiff-double-pendulum")
	for _, method := range []string{"gcp-newmark", "gcp-fv", "hht", "genalpha", "newmark", "bdf"} {
		r, err := Run(b, RunOptions{Method: method, H: 0.05})
		if !errors.Is(err, integrate.ErrFixedStepTooLarge) || !strings.Contains(err.Error(), "smaller fixed step") {
			t.Errorf("%s: err = %v, want ErrFixedStepTooLarge advising a smaller step", method, err)
			continue
		}
		if r == nil {
			t.Fatalf("%s: no partial result", method)
		}
		// Accepted states stay near the start: |G v + g_t| measured 0.35 at most (hht's
		// index-3 form after one step); the diverging run had 7.8e43.
		if v := r.Solution.MaxResidual.Vel; !(v < 1) {
			t.Errorf("%s: max |G v + g_t| = %.3g over accepted steps, want < 1", method, v)
		}
	}
	_, err := Run(b, RunOptions{Method: "gcp-newmark", H: 0.05})
	if !errors.Is(err, integrate.ErrDiverged) {
		t.Errorf("gcp-newmark: %v, want ErrDiverged (its Newton iteration converges to a spurious root)", err)
	}
}
