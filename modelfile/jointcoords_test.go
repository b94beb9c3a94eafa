package modelfile

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// parseJoint reads an example with coordinates: joint added at the top. When the file is
// refused only for output channels that read joint reactions, the refusal is checked and
// the file is read again without its outputs and plot lines (the default channels:
// bodies and energies).
func parseJoint(t *testing.T, name string) (*Document, error) {
	t.Helper()
	path := filepath.Join("..", "examples", name+".yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = append([]byte("coordinates: joint\n"), data...)
	doc, err := Parse(path, data)
	if err == nil || !onlyReactionOutputs(err) {
		return doc, err
	}
	return Parse(path, regexp.MustCompile(`(?m)^\s+(outputs|plot):.*$`).ReplaceAll(data, nil))
}

// onlyReactionOutputs reports whether every error of err refuses a joint reaction channel.
func onlyReactionOutputs(err error) bool {
	for _, line := range strings.Split(err.Error(), "\n") {
		if !strings.Contains(line, "joint reactions are not available with coordinates: joint") {
			return false
		}
	}
	return true
}

// TestJointEveryPlanarExample: every planar example the joint route can express (a tree of
// revolute and translational joints from ground, revolute cut joints, motions on tree
// joints, linear rsda on joints) builds in joint coordinates with the degrees of freedom
// of body coordinates and follows the same motion over its first 0.05 s (dopri5 at tol
// 1e-10, every channel but the residuals to 1e-6 of its size); the others are refused by
// element, with the reason.
func TestJointEveryPlanarExample(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	ran := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		body := loadExample(t, name)
		if body.Spatial != nil || body.Natural != nil || body.Joint != nil {
			continue
		}
		doc, err := parseJoint(t, name)
		var b *Built
		if err == nil {
			b, err = Build(doc)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "coordinates: joint") || !strings.Contains(err.Error(), "use coordinates: body") {
				t.Errorf("%s: refused without naming the route and the way out: %v", name, err)
			}
			t.Logf("%s refused: %v", name, err)
			continue
		}
		ran++
		t.Run(name, func(t *testing.T) {
			if body.DOF() != b.DOF() {
				t.Errorf("DOF %d in body coordinates, %d in joint ones", body.DOF(), b.DOF())
			}
			body.Doc.Model.Simulation.Outputs = b.Doc.Model.Simulation.Outputs // the same channels when the file's were refused
			opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: body.Start.T + 0.05}
			rb, rj := runExample(t, body, opt), runExample(t, b, opt)
			if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 4 || rb.Samples < 3 {
				t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
			}
			compareRuns(t, rb, rj, body, 1e-6, name == "parallelogram")
		})
	}
	if ran < 6 {
		t.Errorf("%d planar examples run in joint coordinates, want at least 6", ran)
	}
	file := loadExample(t, "four-bar-joint")
	if file.Joint == nil || len(file.Joint.Cuts) != 1 || file.Joint.Cuts[0] != "B" {
		t.Fatalf("four-bar-joint.yaml: not built in joint coordinates with B as its cut joint")
	}
	opt := RunOptions{Method: "bdf", Formulation: "ggl", Tol: 1e-8, TEnd: 0.5}
	ref := loadExample(t, "four-bar")
	ref.Doc.Model.Simulation.Outputs = file.Doc.Model.Simulation.Outputs
	compareRuns(t, runExample(t, ref, opt), runExample(t, file, opt), file, 1e-6, false)
}
