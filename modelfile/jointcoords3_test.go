package modelfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// parseJoint3 reads a 3D example with coordinates: joint added at the top, after
// replacing from by to in its text (when from is not empty).
func parseJoint3(t *testing.T, name, from, to string) (body, jnt *Document) {
	t.Helper()
	path := filepath.Join("..", "examples", name+".yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	if from != "" {
		if !strings.Contains(src, from) {
			t.Fatalf("%s: %q not in the file", name, from)
		}
		src = strings.Replace(src, from, to, 1)
	}
	if body, err = Parse(path, []byte(src)); err != nil {
		t.Fatal(err)
	}
	if jnt, err = Parse(path, []byte("coordinates: joint\n"+src)); err != nil {
		t.Fatal(err)
	}
	return body, jnt
}

// TestJoint3Examples: the 3D examples the joint route can express (spherical chains, the
// spatial double pendulum, the driven RSSR four-bar with its coupler-rocker ball as cut
// joint) build in joint coordinates with the degrees of freedom of body coordinates and
// follow the same motion to the file's t_end: every channel (positions, Euler parameters,
// velocities, the motion's torque, energies) agrees with the body route's to 1e-6 of its
// size, both run by dopri5 at tol 1e-10.
func TestJoint3Examples(t *testing.T) {
	cases := []struct {
		name, from, to string
		tree, cuts     string
	}{
		{"spatial-double-pendulum", "", "", "shoulder elbow", ""},
		{"chain3d", "N: 20", "N: 4", "ball1 ball2 ball3 ball4", ""},
		{"spatial-fourbar", "", "", "crankpin rockerpin A", "B"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bdoc, jdoc := parseJoint3(t, c.name, c.from, c.to)
			bb, err := Build(bdoc)
			if err != nil {
				t.Fatal(err)
			}
			bj, err := Build(jdoc)
			if err != nil {
				t.Fatal(err)
			}
			if bj.Joint3 == nil || strings.Join(bj.Joint3.Tree, " ") != c.tree || strings.Join(bj.Joint3.Cuts, " ") != c.cuts {
				t.Fatalf("tree %q and cut joints %q, want %q and %q", bj.Joint3.Tree, bj.Joint3.Cuts, c.tree, c.cuts)
			}
			if bb.DOF() != bj.DOF() {
				t.Errorf("DOF %d in body coordinates, %d in joint ones", bb.DOF(), bj.DOF())
			}
			opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10}
			rb, rj := runExample(t, bb, opt), runExample(t, bj, opt)
			if len(rb.Channels) != len(rj.Channels) || len(rb.Channels) < 8 || rb.Samples < 3 {
				t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rj.Channels, rb.Samples)
			}
			largest := 0.0
			for k, ch := range rb.Channels {
				if strings.HasPrefix(ch, "residual.") || ch == "energy.invariant" {
					continue
				}
				a, b := rb.Data[k], rj.Data[k]
				worst := channelGap(a, b, false)
				largest = max(largest, worst)
				if !(worst <= 1e-6) {
					t.Errorf("%s: joint and body coordinates differ by %.2e of the channel's size, want <= 1e-6 (at t_end %.9g vs %.9g)", ch, worst, a[len(a)-1], b[len(b)-1])
				}
			}
			t.Logf("%d channels, %d samples to t = %g: largest gap %.2e; steps %d (body) and %d (joint)",
				len(rb.Channels), rb.Samples, rb.Data[0][len(rb.Data[0])-1], largest, rb.Solution.Stats.Steps, rj.Solution.Stats.Steps)
		})
	}
}
