package modelfile

import (
	"math"
	"strings"
	"testing"
)

// smallSwing is a uniform 1 m bar hanging from a pin, released 2 mrad from the vertical:
// its x coordinate swings with an amplitude of 1 mm, far below the tolerances' scale of
// 1 for theta and y. extra is appended to the simulation section (line 16 on).
func smallSwing(t *testing.T, extra string) (*Built, error) {
	t.Helper()
	src := `name: small-swing
gravity: [0, -9.81]
bodies:
  - {name: bar, mass: 1, inertia: 0.08333333333333333}
markers:
  - {name: O, body: ground}
  - {name: bar.O, body: bar, point: [-0.5, 0]}
joints:
  - {name: pin, type: revolute, i: O, j: bar.O}
initial:
  bodies:
    bar: {position: [0.001, -0.5], angle: -1.5687963267948966}
  keep: [bar.theta]
simulation:
  t_end: 1
` + extra
	doc, err := Parse("swing.yaml", []byte(src))
	if err != nil {
		return nil, err
	}
	return Build(doc)
}

// TestSimulationATol: simulation.atol gives bar.x its own absolute tolerance. At tol 1e-4
// (hht) the error of bar.x at t = 1 against a run at tol 1e-11 drops at least tenfold with
// atol {bar.x: 1e-9}; an unknown coordinate or a bad value is refused at its line.
func TestSimulationATol(t *testing.T) {
	final := func(extra string, tol float64) float64 {
		b, err := smallSwing(t, extra)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Run(b, RunOptions{Tol: tol})
		if err != nil {
			t.Fatal(err)
		}
		return r.Solution.Final.Q[0] // bar.x
	}
	ref := final("", 1e-11)
	plain := math.Abs(final("", 1e-4) - ref)
	tight := math.Abs(final("  atol: {bar.x: 1.0e-9}\n", 1e-4) - ref)
	t.Logf("error of bar.x (|x| ≤ 1e-3) at t = 1: %.2g with tol 1e-4, %.2g with atol 1e-9 on it", plain, tight)
	if !(tight <= plain/10) {
		t.Errorf("atol {bar.x: 1e-9}: error %.2g, %.2g without; want a tenfold drop", tight, plain)
	}

	b, err := smallSwing(t, "  atol: {bar.z: 1.0e-9}\n")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(b, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), `swing.yaml:16:`) || !strings.Contains(err.Error(), `unknown coordinate "bar.z"`) ||
		!strings.Contains(err.Error(), "bar.theta") {
		t.Errorf("unknown coordinate: err = %v, want swing.yaml:16 naming bar.z and the valid names", err)
	}
	if _, err := smallSwing(t, "  atol: {bar.x: -1}\n"); err == nil || !strings.Contains(err.Error(), "simulation.atol.bar.x") {
		t.Errorf("negative atol: err = %v, want an error at simulation.atol.bar.x", err)
	}
}
