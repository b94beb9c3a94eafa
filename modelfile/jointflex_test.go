package modelfile

import (
	"math"
	"os"
	"strings"
	"testing"
)

// jointAndBody builds example name in joint and in body coordinates.
func jointAndBody(t *testing.T, name string) (joint, body *Built) {
	t.Helper()
	doc, err := parseJoint(t, name)
	if err != nil {
		t.Fatal(err)
	}
	if joint, err = Build(doc); err != nil {
		t.Fatal(err)
	}
	return joint, loadExample(t, name)
}

// TestJointFlexibleElasticCoordinates: on the flexible examples the joint route's elastic
// coordinates and strain energy follow the body route's to 1e-4 of their own size (dopri5
// at tol 1e-10 over 0.01 s, error control; TestJointEveryPlanarExample's gap is relative
// to max(1, size), which says little of channels of size 1e-6). Measured: 4e-7 and below.
func TestJointFlexibleElasticCoordinates(t *testing.T) {
	for _, name := range []string{"flexible-slider-crank", "simeon-crank"} {
		j, b := jointAndBody(t, name)
		j.Doc.Model.Simulation.H, b.Doc.Model.Simulation.H = 0, 0
		opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: 0.01}
		rj, rb := runExample(t, j, opt), runExample(t, b, opt)
		elastic := 0
		for k, ch := range rb.Channels {
			elem, suffix := splitChannel(ch)
			if elem != "rod" || contains(bodySuffixes(), suffix) {
				continue
			}
			elastic++
			var scale, worst float64
			for i := range rb.Data[k] {
				scale = math.Max(scale, math.Abs(rb.Data[k][i]))
				worst = math.Max(worst, math.Abs(rb.Data[k][i]-rj.Data[k][i]))
			}
			if !(worst <= 1e-4*scale) || scale == 0 {
				t.Errorf("%s: %s: joint and body coordinates differ by %.2e, %.2e of the channel's size %.2e, want <= 1e-4", name, ch, worst, worst/scale, scale)
			}
		}
		if elastic < 4 {
			t.Errorf("%s: %d elastic channels compared, want every elastic coordinate and the strain energy", name, elastic)
		}
	}
}

// TestJointFlexibleFileStep: flexible-slider-crank runs on the joint route with its own
// settings (genalpha, fixed h = 2e-3, 1 s), which the Newton-Krylov corrector with the
// mass-part preconditioner could not take (denseJoint), and follows the body route's run
// at those settings to 1e-3 of each position channel's size (measured 4.4e-4 on
// rod.theta; each route is 1.3e-3 of 9 rad from radau5 at tol 1e-7 on crank.theta: the
// fixed step's own error).
func TestJointFlexibleFileStep(t *testing.T) {
	j, b := jointAndBody(t, "flexible-slider-crank")
	rj, rb := runExample(t, j, RunOptions{}), runExample(t, b, RunOptions{})
	for k, ch := range rb.Channels {
		if ch != "crank.theta" && ch != "rod.theta" && ch != "slider.x" {
			continue
		}
		if worst := channelGap(rb.Data[k], rj.Data[k], strings.HasSuffix(ch, ".theta")); !(worst <= 1e-3) {
			t.Errorf("%s: joint and body coordinates differ by %.2e of the channel's size, want <= 1e-3", ch, worst)
		}
	}
	if rb.Samples != rj.Samples || rj.Samples < 500 {
		t.Errorf("%d samples in joint coordinates, %d in body ones, want the file's 501", rj.Samples, rb.Samples)
	}
}

// TestJointFlexibleRefusals: with coordinates: joint, what a flexible body cannot take is
// refused naming the element and the way out.
func TestJointFlexibleRefusals(t *testing.T) {
	const base = "../examples/flexible-slider-crank.yaml"
	cases := []struct{ from, to, want string }{
		{"{name: wristpin, type: revolute", "{name: wristpin, type: translational", `joint "wristpin": a translational joint on a flexible body`},
		{"type: torque, body: crank", "type: torque, body: rod", `force "motor" acts on a flexible body`},
		{"{name: main, type: revolute, i: O, j: crank.O}", "{name: main, type: revolute, i: O, j: crank.O, friction: {mu: 0.1, v_reg: 0.01, pin_radius: 0.01}}", `joint "main": friction in a model with a flexible body`},
		{"outputs: [crank.theta,", "outputs: [main.fx, crank.theta,", `the reaction of tree joint "main" is not available`},
	}
	raw, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	data := string(raw)
	for _, c := range cases {
		src := strings.Replace(data, c.from, c.to, 1)
		if src == data {
			t.Fatalf("%q not in the model", c.from)
		}
		doc, err := Parse(base, []byte("coordinates: joint\n"+src))
		if err == nil {
			_, err = Build(doc)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "use coordinates: body") {
			t.Errorf("err = %v, want %q and the way out", err, c.want)
		}
	}
}
