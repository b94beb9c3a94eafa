package modelfile

import (
	"math"
	"strings"
	"testing"
)

// flexibleYAML is a beam pinned to the ground at node 0 swinging under gravity, with one
// field replaced by the test.
const flexibleYAML = `name: beam
gravity: [0, -9.81]
bodies:
  - name: rod
    flexible: {length: 0.3, elements: 2, E: 2.0e9, A: 6.4e-5, I: 3.4e-10, density: 7870}
markers:
  - {name: O, body: ground}
  - {name: rod.A, body: rod}
joints:
  - {name: pin, type: revolute, i: O, j: rod.A}
simulation: {method: genalpha, h: 0.0005, t_end: 0.05, outputs: [rod, energy]}
`

// TestFlexibleFileErrors: bad beams are named by file, line, body and field.
func TestFlexibleFileErrors(t *testing.T) {
	cases := []struct{ from, to, want string }{
		{"E: 2.0e9", "E: 0", `beam.yaml:5:45: bodies[0].flexible.E: body "rod": flexible E = 0; want a positive number`},
		{"A: 6.4e-5", "A: -6.4e-5", `bodies[0].flexible.A: body "rod": flexible A = -6.4e-05; want a positive number`},
		{"I: 3.4e-10", "I: 0", `bodies[0].flexible.I: body "rod": flexible I = 0`},
		{"density: 7870", "density: -1", `bodies[0].flexible.density: body "rod": flexible density = -1`},
		{"length: 0.3", "length: 0", `bodies[0].flexible.length: body "rod": flexible length = 0`},
		{"elements: 2", "elements: 0", `bodies[0].flexible.elements: body "rod": flexible elements = 0; want a whole number ≥ 1`},
		{"elements: 2", "elements: -3", `flexible elements = -3`},
		{"elements: 2", "elements: 2.5", `bodies[0].flexible.elements: want an integer, got the number 2.5`},
		{"elements: 2", "modes: 2", `bodies[0].flexible.frame: body "rod": Simeon's sine modes vanish at both ends; want frame: chord with modes`},
		{"elements: 2", "elements: 2, frame: clamped", `bodies[0].flexible.frame: body "rod": frame "clamped"`},
		{"elements: 2", "elements: 2, deformation: axial", `bodies[0].flexible.deformation: body "rod": deformation "axial"`},
		{"- name: rod\n", "- name: rod\n    mass: 1\n", `bodies[0].mass: body "rod": mass given for a flexible body`},
		{"{name: rod.A, body: rod}", "{name: rod.A, body: rod, point: [0.1, 0]}",
			`beam.yaml:8:37: markers[1].point: marker "rod.A" on flexible body "rod": point [0.1, 0] is not a node; want [x, 0] with x one of 0, 0.15, 0.3`},
		{"name: beam\n", "name: beam\ncoordinates: natural\n", `body "rod": flexible bodies need coordinates: body`},
	}
	for _, c := range cases {
		src := strings.Replace(flexibleYAML, c.from, c.to, 1)
		doc, err := Parse("beam.yaml", []byte(src))
		if err == nil {
			_, err = Build(doc)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: error %v, want it to contain %q", c.from, c.to, err, c.want)
		}
	}
}

// TestFlexibleFileChannels: a flexible body has channels for its elastic coordinates and
// its strain energy, energy.potential includes the strain energy, and the pendulum's
// invariant holds to the fixed-step integration's accuracy.
func TestFlexibleFileChannels(t *testing.T) {
	doc, err := Parse("beam.yaml", []byte(flexibleYAML))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"rod.x", "rod.theta", "rod.u1", "rod.w1", "rod.slope1", "rod.u2", "rod.w2", "rod.slope2", "rod.strain_energy"}
	got := b.OutputChannels()
	for _, w := range want {
		if !contains(got, w) {
			t.Errorf("channel %s missing from %v", w, got)
		}
	}
	if u := doc.ChannelUnit("rod.slope2"); u != "rad" {
		t.Errorf("unit of rod.slope2 = %q, want rad", u)
	}
	if u := doc.ChannelUnit("rod.strain_energy"); u != "J" {
		t.Errorf("unit of rod.strain_energy = %q, want J", u)
	}
	r, err := Run(b, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) []float64 {
		for i, c := range r.Channels {
			if c == name {
				return r.Data[i]
			}
		}
		t.Fatalf("no channel %s", name)
		return nil
	}
	w2, strain, pot := col("rod.w2"), col("rod.strain_energy"), col("energy.potential")
	last := len(w2) - 1
	if !(math.Abs(w2[last]) > 1e-7) || !(strain[last] > 0) {
		t.Errorf("the swinging beam does not bend: w2 = %g, strain energy %g", w2[last], strain[last])
	}
	// energy.potential is gravity + strain at the final state, and the strain channel its
	// strain part.
	fin := r.Solution.Final
	e := b.System.Energies(fin.T, fin.Q, fin.V)
	if math.Abs(pot[last]-e.Potential()) > 1e-15 || math.Abs(strain[last]-e.Strain) > 1e-15 || e.Strain == 0 || e.Gravity == 0 {
		t.Errorf("energy.potential %.12g, strain %.12g; the system's gravity %.12g + strain %.12g", pot[last], strain[last], e.Gravity, e.Strain)
	}
	if rel := r.EnergyDrift / r.EnergyScale; !(rel < 1e-3) {
		t.Errorf("energy drift %.3g of the energy exchanged, want < 1e-3", rel)
	}
}
