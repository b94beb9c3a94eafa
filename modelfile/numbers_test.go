package modelfile

import (
	"strings"
	"testing"
)

// TestPlainNumbers: plain scalars that YAML's core schema leaves as strings because they
// have no dot ("1e-4", "5e-06") are numbers where a number is expected and strings where a
// string is; a leading zero does not make a number octal (YAML 1.2: "017" is 17); quoted
// numbers stay strings.
func TestPlainNumbers(t *testing.T) {
	doc, err := Parse("n.yaml", []byte(`name: 1e-4
bodies: [{name: b, mass: 5e-06, inertia: 2E-3}]
markers: [{name: M, body: b, point: [1e0, +1e-1], angle: 1e-2}]
forces: [{name: f, type: point-force, marker: M, fx: 3e2}]
initial: {bodies: {b: {angular_velocity: 017}}}
simulation: {tol: 1e-4, t_end: 1E1, h: 5e-3}
`))
	if err != nil {
		t.Fatal(err)
	}
	m := doc.Model
	got := []float64{m.Bodies[0].Mass, m.Bodies[0].Inertia, m.Markers[0].Point[0], m.Markers[0].Point[1], float64(m.Markers[0].Angle),
		m.Forces[0].Fx.Const, m.Initial.Bodies["b"].AngularVelocity, m.Simulation.Tol, m.Simulation.TEnd, m.Simulation.H}
	want := []float64{5e-06, 2e-3, 1, 0.1, 0.01, 300, 17, 1e-4, 10, 5e-3}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("value %d = %g, want %g", i, got[i], want[i])
		}
	}
	if m.Name != "1e-4" {
		t.Errorf("name %q, want the string 1e-4", m.Name)
	}
	if m.Forces[0].Fx.Kind != FuncConst {
		t.Errorf("fx: kind %d, want a constant", m.Forces[0].Fx.Kind)
	}
}

// TestNumberOutOfRange: a number beyond double precision is named as such, with its key
// and line, in every place a number is read.
func TestNumberOutOfRange(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"bodies: [{name: b, mass: 1e400, inertia: 1}]", `n.yaml:1:26: bodies[0].mass: the number 1e400 is out of the range of double precision (magnitude below 1.8e308)`},
		{"bodies: [{name: b, mass: 1, inertia: -1.5e999}]", `n.yaml:1:38: bodies[0].inertia: the number -1.5e999 is out of the range`},
		{"gravity: [0, 1e309]\nbodies: [{name: b, mass: 1, inertia: 1}]", `n.yaml:1:14: gravity[1]: the number 1e309 is out of the range`},
		{"bodies: [{name: b, mass: 1, inertia: 1}]\nmarkers: [{name: M, body: b, angle: 1e400}]", `n.yaml:2:37: markers[0].angle: the number 1e400 is out of the range`},
		{"bodies: [{name: b, mass: 1, inertia: 1}]\nforces: [{name: t, type: torque, body: b, torque: 2e400}]", `n.yaml:2:51: forces[0].torque: the number 2e400 is out of the range`},
		{`{"bodies": [{"name": "b", "mass": 1E400, "inertia": 1}]}`, `n.yaml:1:35: bodies[0].mass: the number 1E400 is out of the range`},
		{"bodies: [{name: b, mass: \"1e-4\", inertia: 1}]", `bodies[0].mass: want a number, got the string "1e-4"`},
	} {
		_, err := Parse("n.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}

// TestSimulationRanges: simulation.tol must lie in [MinTol, MaxTol] and max_steps be an
// integer ≥ 0; the messages give the reason and the range.
func TestSimulationRanges(t *testing.T) {
	const body = "bodies: [{name: b, mass: 1, inertia: 1}]\n"
	for _, c := range []struct{ sim, want string }{
		{"{tol: 1e-20}", "s.yaml:2:19: simulation.tol: tol = 1e-20 is below 1e-14, below what double precision can resolve"},
		{"{tol: 10}", "s.yaml:2:19: simulation.tol: tol = 10 is above 0.1: the tolerance is a relative error per step"},
		{"{tol: 0}", "simulation.tol: tol = 0; want a positive number"},
		{"{max_steps: -1}", "s.yaml:2:25: simulation.max_steps: max_steps = -1; want an integer ≥ 0 (0 for the default 1000000)"},
		{"{max_steps: 1.5}", "simulation.max_steps: want an integer, got the number 1.5"},
		{"{max_steps: many}", `simulation.max_steps: want an integer, got the string "many"`},
		{"{max_steps: 1e30}", "simulation.max_steps: want an integer, got the number 1e30"},
	} {
		_, err := Parse("s.yaml", []byte(body+"simulation: "+c.sim+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.sim, err, c.want)
		}
	}
	for _, c := range []struct {
		sim   string
		tol   float64
		steps int
	}{{"{tol: 1e-14, max_steps: 0}", 1e-14, 0}, {"{tol: 0.1, max_steps: 2000000}", 0.1, 2000000}, {"{tol: 1e-4, max_steps: 1e6}", 1e-4, 1000000}} {
		doc, err := Parse("s.yaml", []byte(body+"simulation: "+c.sim+"\n"))
		if err != nil {
			t.Errorf("%s: %v", c.sim, err)
			continue
		}
		if s := doc.Model.Simulation; s.Tol != c.tol || s.MaxSteps != c.steps {
			t.Errorf("%s: tol %g, max_steps %d", c.sim, s.Tol, s.MaxSteps)
		}
	}
	if MinTol != 1e-14 || MaxTol != 0.1 {
		t.Errorf("MinTol, MaxTol = %g, %g; the docs and the messages say 1e-14, 0.1", MinTol, MaxTol)
	}
}
