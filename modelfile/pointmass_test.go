package modelfile

import (
	"math"
	"strings"
	"testing"
)

// TestPointMassPendulum (issue 17, item 4): the IFToMM A01 pendulum, a point mass (inertia
// 0, M singular) pinned 1 m from its centre of mass, against a rigid body pinned the same
// way: with inertia J its equation (m L² + J) θ” = −m g L cos θ is the point mass's under
// gravity g·m L²/(m L² + J), so a body of J = m L²/3 (a uniform bar's about its end) under
// 4/3 g must move exactly as the point mass under g. Both run with bdf at tol 1e-9: 1e-6 m
// over 3 s (three swings) is ~100× their global errors and far below the 0.1 m gap
// between either and the other gravity.
func TestPointMassPendulum(t *testing.T) {
	run := func(inertia, g float64) *Result {
		b := loadExample(t, "iftomm/a01-pendulum")
		doc := b.Doc
		doc.Model.Bodies[0].Inertia = inertia
		doc.Model.Gravity = Vec{0, -g}
		doc.Model.Simulation.Outputs = []string{"P1.x", "P1.y"}
		b, err := Build(doc)
		if err != nil {
			t.Fatal(err)
		}
		return runExample(t, b, RunOptions{TEnd: 3, Tol: 1e-9, Method: "bdf"})
	}
	point, bar, barSameG := run(0, 9.81), run(1.0/3, 9.81*4/3), run(1.0/3, 9.81)
	gap := 0.0
	for k := range point.Data[0] {
		for c := 1; c <= 2; c++ {
			if d := math.Abs(point.Data[c][k] - bar.Data[c][k]); d > 1e-6 {
				t.Fatalf("t=%g: %s point mass %.9g, bar under 4/3 g %.9g", point.Data[0][k], point.Channels[c], point.Data[c][k], bar.Data[c][k])
			}
			gap = math.Max(gap, math.Abs(point.Data[c][k]-barSameG.Data[c][k]))
		}
	}
	if gap < 0.1 {
		t.Errorf("the bar under g is within %g m of the point mass; the comparison cannot tell inertias apart", gap)
	}
}

// TestPointMassRefused: a point mass whose rotation no joint turns (linked to the ground
// at its centre of mass) has M singular on the null space of G (seed 002, Lemma 1) and is
// refused with the free coordinate named; natural coordinates refuse point masses; a
// negative inertia stays an error.
func TestPointMassRefused(t *testing.T) {
	const head = "gravity: [0, -9.81]\nbodies: [{name: bob, mass: 1, inertia: %s}]\n"
	for _, c := range []struct{ name, src, want string }{
		{"free rotation", head + `markers: [{name: O, body: ground}, {name: P, body: bob}]
joints: [{name: rod, type: distance, length: 1, i: O, j: P}]
initial: {bodies: {bob: {position: [1, 0]}}}
`, "bob.theta can move without inertia"},
		{"natural", head + "coordinates: natural\n", `point mass "bob" (inertia 0): point masses are not available with coordinates: natural`},
		{"negative", strings.Replace(head, "%s", "-1", 1), "inertia (kg·m² about the centre of mass; 0 for a point mass) = -1; want a number ≥ 0"},
	} {
		doc, err := Parse(c.name+".yaml", []byte(strings.Replace(c.src, "%s", "0", 1)))
		if err == nil {
			_, err = Build(doc)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to say %q", c.name, err, c.want)
		}
	}
}
