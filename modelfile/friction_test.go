package modelfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFrictionRedundantRefused: the parallelogram has a redundant crank; with friction on
// a pin its reactions, which press the pins, are not determined, so Build refuses the
// model naming the redundant rows instead of integrating an arbitrary friction.
func TestFrictionRedundantRefused(t *testing.T) {
	path := filepath.Join("..", "examples", "parallelogram.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(data), "{name: ground1, type: revolute, i: G1, j: c1.O}",
		"{name: ground1, type: revolute, i: G1, j: c1.O, friction: {mu: 0.2, v_reg: 1.0e-3, pin_radius: 0.01}}", 1)
	if src == string(data) {
		t.Fatal("parallelogram.yaml no longer has the joint line this test edits")
	}
	doc, err := Parse(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(doc)
	if err == nil || !strings.Contains(err.Error(), "joint friction with redundant constraints") {
		t.Errorf("Build: err = %v, want the friction with redundant constraints refused", err)
	}
}

// TestFriction3D: a 3D model file with pin friction builds a spatial system with
// λ-dependent forces, and its run keeps the energy balance with the friction work counted
// (W_nc includes spatial.System.ReactionPower): the drift stays a small fraction of the
// friction work, which is of order 1 of the energy exchanged.
func TestFriction3D(t *testing.T) {
	src := `dimension: 3
gravity: [0, -9.81, 0]
bodies:
  - {name: rod, mass: 1, inertia: [0.001, 0.08333333333333333, 0.08333333333333333]}
markers:
  - {name: O, body: ground}
  - {name: rod.O, body: rod, point: [-0.5, 0, 0]}
joints:
  - {name: pin, type: revolute, i: O, j: rod.O, friction: {mu: 0.3, v_reg: 1.0e-4, pin_radius: 0.05}}
initial:
  bodies:
    rod: {position: [0.5, 0, 0]}
  keep: [rod.x]
simulation: {method: hht, tol: 1.0e-8, t_end: 2}
`
	doc, err := Parse("pin3d.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	if b.Spatial == nil || !b.Spatial.System.HasReactionForce() {
		t.Fatal("the 3D model with pin friction has no λ-dependent forces")
	}
	r := runExample(t, b, RunOptions{})
	t.Logf("drift %.3g J of %.3g J (%.2g)", r.EnergyDrift, r.EnergyScale, r.EnergyDrift/r.EnergyScale)
	// Measured 8.9e-6 of the energy exchanged (9.45 J; hht, tol 1e-8); without the friction
	// work in W_nc the drift would be the friction work itself, 1.31 J (0.14 of it).
	if rel := r.EnergyDrift / r.EnergyScale; !(rel < 1e-4) {
		t.Errorf("energy drift %.3g of the energy exchanged, want < 1e-4", rel)
	}
}
