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
