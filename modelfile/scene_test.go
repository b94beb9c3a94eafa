package modelfile

import (
	"math"
	"strings"
	"testing"
)

const sceneModel = `
name: scene test
gravity: [0, -9.81]
bodies:
  - {name: crank, mass: 1, inertia: 0.1, shape: {type: box, size: [0.4, 0.05]}}
  - {name: slider, mass: 1, inertia: 0.1, shape: {type: cylinder, radius: 0.02, length: 0.1}}
markers:
  - {name: O, body: ground}
  - {name: P, body: ground, point: [2, 0]}
  - {name: crank.O, body: crank, point: [-0.2, 0]}
  - {name: crank.A, body: crank, point: [0.2, 0]}
  - {name: slider.A, body: slider, point: [0, 0.1]}
joints:
  - {name: pin, type: revolute, i: O, j: crank.O}
  - {name: rail, type: translational, i: P, j: slider.A}
motions:
  - {name: drive, joint: pin, function: "t"}
forces:
  - {name: spring, type: tsda, i: crank.A, j: slider.A, k: 10}
simulation:
  t_end: 1
  outputs: [crank.x, crank.theta, spring, drive, energy]
  plot: [crank.x, crank.theta, drive.lambda, energy.kinetic, spring.force, spring.length]
`

// Scene draws what the file says: bodies with their markers and shapes, ground markers,
// joints, the spring, a default trail, panels by unit.
func TestSceneFromModel(t *testing.T) {
	doc, err := Parse("scene.yaml", []byte(sceneModel))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(doc.PoseChannels(), " "); got != "crank.x crank.y crank.theta slider.x slider.y slider.theta" {
		t.Errorf("PoseChannels = %s", got)
	}
	channel := func(name string) []float64 { return []float64{1, 2} }
	s, err := doc.Scene(channel, SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Dim != 2 || len(s.Bodies) != 2 || len(s.Ground) != 2 || len(s.Joints) != 2 || len(s.Springs) != 1 {
		t.Fatalf("scene: dim %d, %d bodies, %d ground points, %d joints, %d springs; want 2, 2, 2, 2, 1",
			s.Dim, len(s.Bodies), len(s.Ground), len(s.Joints), len(s.Springs))
	}
	if box := s.Bodies[0].Shape; box == nil || box.Kind != "box" || box.Size != [3]float64{0.4, 0.05, 0.05} {
		t.Errorf("crank's shape %+v; want a 0.4 × 0.05 × 0.05 box (2D depth = height)", box)
	}
	if cyl := s.Bodies[1].Shape; cyl == nil || cyl.Axis != [3]float64{1, 0, 0} {
		t.Errorf("slider's shape %+v; want a cylinder along the body's x axis", cyl)
	}
	if sp := s.Springs[0]; sp.I.Body != 0 || sp.J.Body != 1 || sp.J.Point != [3]float64{0, 0.1, 0} {
		t.Errorf("spring between %+v and %+v", sp.I, sp.J)
	}
	if len(s.Trails) != 1 || s.Trails[0].Body != 1 {
		t.Errorf("default trail %+v; want the slider's last marker", s.Trails)
	}
	if len(s.Poses) != 2 || len(s.Poses[0]) != 6 {
		t.Errorf("poses %v; want 2 frames of 6 values", s.Poses)
	}
	var units []string
	for _, p := range s.Panels {
		var names []string
		for _, c := range p.Series {
			names = append(names, c.Name)
		}
		units = append(units, p.Unit+": "+strings.Join(names, ", "))
	}
	want := "m: crank.x, spring.length; rad: crank.theta; N·m: drive.lambda; J: energy.kinetic; N: spring.force"
	if got := strings.Join(units, "; "); got != want {
		t.Errorf("panels\n %s\nwant\n %s", got, want)
	}
	if _, err := doc.Scene(channel, SceneOptions{Trails: []string{"Q"}}); err == nil || !strings.Contains(err.Error(), `no marker "Q"`) {
		t.Errorf("unknown trail marker: error %v", err)
	}
	missing := func(name string) []float64 {
		if name == "slider.theta" {
			return nil
		}
		return []float64{math.Pi}
	}
	if _, err := doc.Scene(missing, SceneOptions{}); err == nil || !strings.Contains(err.Error(), "channel slider.theta was not recorded") {
		t.Errorf("missing pose channel: error %v", err)
	}
}
