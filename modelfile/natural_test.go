package modelfile

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loadNatural reads an example with "coordinates: natural" added at the top.
func loadNatural(t *testing.T, name string) *Built {
	t.Helper()
	path := filepath.Join("..", "examples", name+".yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Parse(path, append([]byte("coordinates: natural\n"), data...))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// angleGap returns |a − b| modulo 2π.
func angleGap(a, b float64) float64 {
	d := math.Mod(a-b, 2*math.Pi)
	return math.Min(math.Abs(d), 2*math.Pi-math.Abs(d))
}

// TestNaturalAgreesWithBody: the planar examples run in natural coordinates (points,
// constant mass matrix, revolute joints by shared points) give the motion, reactions and
// energies of the body-coordinate run: every output channel agrees to 1e-6 of its size at
// tol 1e-8 (dopri5 on the index-1 form with projection, bdf on the GGL form: methods that see
// only a dae.System), and to 1e-9 at tol 1e-11. Left out: the residual channels and the invariant, which
// measure each run's own integration error, and the parallelogram's reactions, which its
// redundant constraint leaves undetermined (each coordinate set drops other rows). The
// double pendulum is chaotic, so it is compared over its first 2 s. The parallelogram is
// compared with dopri5 only, at 5e-6 (its error at tol 1e-8): in natural coordinates
// dae.Initialize drops the row crank2.rigid, and the reduced system is singular where the
// cranks lie along the coupler (t ≈ 0.44 s), which bdf's Newton iteration does not pass. Against a reference at
// tol 1e-11 both sets agree to 5e-11; hht at tol 1e-8 is itself 2e-5 off that reference and
// dopri5 at 1e-8 2e-6 on the four-bar's and parallelogram's energies, so those are compared
// at their own error's level or with bdf.
func TestNaturalAgreesWithBody(t *testing.T) {
	cases := []struct {
		name, method, form string
		tol, tEnd, bound   float64
		noReactions        bool
	}{
		{"slider-crank", "dopri5", "index1-proj", 1e-8, 0, 1e-6, false},
		{"slider-crank", "bdf", "ggl", 1e-8, 0, 1e-6, false},
		{"slider-crank", "hht", "index3", 1e-8, 0, 1e-4, false},
		{"four-bar", "bdf", "ggl", 1e-8, 0, 1e-6, false},
		{"double-pendulum", "dopri5", "index1-proj", 1e-8, 2, 1e-6, false},
		{"parallelogram", "dopri5", "index1-proj", 1e-8, 0, 5e-6, true},
		// At tol 1e-11 the two sets are the same mechanism to rounding and step control.
		{"slider-crank", "dopri5", "index1-proj", 1e-11, 0, 1e-8, false},
		{"four-bar", "dopri5", "index1-proj", 1e-11, 0, 1e-8, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/%g", c.name, c.method, c.tol), func(t *testing.T) {
			body, nat := loadExample(t, c.name), loadNatural(t, c.name)
			if body.DOF() != nat.DOF() {
				t.Errorf("DOF %d in body coordinates, %d in natural ones", body.DOF(), nat.DOF())
			}
			opt := RunOptions{Method: c.method, Formulation: c.form, Tol: c.tol, TEnd: c.tEnd}
			rb, rn := runExample(t, body, opt), runExample(t, nat, opt)
			if len(rb.Channels) != len(rn.Channels) || len(rb.Channels) < 4 {
				t.Fatalf("channels %v vs %v", rb.Channels, rn.Channels)
			}
			compareRuns(t, rb, rn, body, c.bound, c.noReactions)
		})
	}
}

// channelGap returns max |a − b| over the samples relative to max(1, max |a|) (SI units: 1 m,
// 1 rad, 1 N, 1 J at least); angles are compared modulo 2π.
func channelGap(a, b []float64, angle bool) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	scale := 1.0
	for _, x := range a {
		scale = math.Max(scale, math.Abs(x))
	}
	var worst float64
	for i := range a {
		d := math.Abs(a[i] - b[i])
		if angle {
			d = angleGap(a[i], b[i])
		}
		worst = math.Max(worst, d/scale)
	}
	return worst
}

// hasFlexible reports whether a model has a flexible body.
func hasFlexible(doc *Document) bool {
	for _, b := range doc.Model.Bodies {
		if b.Flexible != nil {
			return true
		}
	}
	return false
}

// TestNaturalEveryPlanarExample: every planar example with rigid bodies and without joint friction, knife edges or cam joints builds in natural coordinates with the
// degrees of freedom of body coordinates and follows the same motion over its first 0.05 s
// (dopri5 at tol 1e-10, every channel but the residuals to 1e-6 of its size); the example
// file four-bar-natural.yaml is four-bar.yaml in natural coordinates.
func TestNaturalEveryPlanarExample(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	n := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		body := loadExample(t, name)
		if body.Spatial != nil || body.Natural != nil || body.Joint != nil || body.Joint3 != nil || hasFlexible(body.Doc) {
			continue // natural coordinates take no flexible bodies (TestFlexibleFileErrors)
		}
		if body.System.HasReactionForce() {
			// Joint friction has no natural-coordinate form: Parse refuses it by joint.
			data, _ := os.ReadFile(f)
			_, err := Parse(f, append([]byte("coordinates: natural\n"), data...))
			if err == nil || !strings.Contains(err.Error(), "friction is not available with coordinates: natural") {
				t.Errorf("%s in natural coordinates: err = %v, want the friction refused", name, err)
			}
			continue
		}
		if body.System.NumPfaffian() > 0 {
			// Knife edges have no natural-coordinate form: Parse refuses them by joint.
			data, _ := os.ReadFile(f)
			_, err := Parse(f, append([]byte("coordinates: natural\n"), data...))
			if err == nil || !strings.Contains(err.Error(), "knife edges are not available with coordinates: natural") {
				t.Errorf("%s in natural coordinates: err = %v, want the knife edge refused", name, err)
			}
			continue
		}
		if len(body.System.AlgebraicCoordinates()) > 0 {
			// Cam joints have no natural-coordinate form: Parse refuses them by joint.
			data, _ := os.ReadFile(f)
			_, err := Parse(f, append([]byte("coordinates: natural\n"), data...))
			if err == nil || !strings.Contains(err.Error(), "cam joints are not available with coordinates: natural") {
				t.Errorf("%s in natural coordinates: err = %v, want the cam joint refused", name, err)
			}
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			nat := loadNatural(t, name)
			if body.DOF() != nat.DOF() {
				t.Errorf("DOF %d in body coordinates, %d in natural ones", body.DOF(), nat.DOF())
			}
			opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: body.Start.T + 0.05}
			compareRuns(t, runExample(t, body, opt), runExample(t, nat, opt), body, 1e-6, name == "parallelogram")
		})
	}
	if n < 8 {
		t.Errorf("%d planar examples, want the 8 of examples/", n)
	}
	file := loadExample(t, "four-bar-natural")
	if file.Natural == nil {
		t.Fatal("four-bar-natural.yaml is not built in natural coordinates")
	}
	opt := RunOptions{Method: "bdf", Formulation: "ggl", Tol: 1e-8}
	compareRuns(t, runExample(t, loadExample(t, "four-bar"), opt), runExample(t, file, opt), file, 1e-6, false)
}

// compareRuns checks every channel of two runs of one mechanism to bound (channelGap), but
// the residuals and the invariant (each run's own error) and, with noReactions, the joint
// channels.
func compareRuns(t *testing.T, rb, rn *Result, b *Built, bound float64, noReactions bool) {
	t.Helper()
	for k, ch := range rb.Channels {
		elem, _ := splitChannel(ch)
		isBody := slices.ContainsFunc(b.Doc.Model.Bodies, func(x Body) bool { return x.Name == elem })
		switch {
		case elem == "residual" || ch == "energy.invariant":
			continue
		case noReactions && !isBody && elem != "energy":
			continue
		}
		if worst := channelGap(rb.Data[k], rn.Data[k], strings.HasSuffix(ch, ".theta")); !(worst <= bound) {
			t.Errorf("%s: natural and body coordinates differ by %.2e of the channel's size, want <= %g", ch, worst, bound)
		}
	}
}

// TestNaturalSpringDamperChannels: the slider-crank with its tsda (a polynomial damper and an
// actuator added), an rsda from the slot to the rod (cubic spring, free angle 10°) and a
// bushing on the rod's tip reports in natural coordinates the spring-damper channels
// (length or angle, deflection, velocity, force, power; the bushing's length, force, torque
// and power) and the motion of body coordinates: every channel to 1e-8 of its size (dopri5
// at tol 1e-10, 0.5 s; measured 5e-10). The rsda's angle reads the free angle plus the
// deflection its coordinate measures, as in body coordinates (−0.50 rad, 10° from δ).
func TestNaturalSpringDamperChannels(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "slider-crank.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.NewReplacer(
		"free_length: 0.6}\n", `free_length: 0.6, damper: {polynomial: [0, 200, 0, 50]}, actuator: "300*sin(7*t)"}
  - {name: tilt, type: rsda, i: slot, j: rod.B, spring: {polynomial: [0, 40, 0, 10]}, c: 0.5, free_angle: 10 deg}
  - {name: pad, type: bushing, i: slot, j: rod.B, kx: 500, ky: 800, ktheta: 50, cx: 5, cy: 5, ctheta: 0.5}
`, "c: 200, ", "", "outputs: [", "outputs: [spring, tilt, pad, ").Replace(string(data))
	var built [2]*Built
	for i, text := range []string{src, "coordinates: natural\n" + src} {
		doc, err := Parse("slider-crank-forces.yaml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if built[i], err = Build(doc); err != nil {
			t.Fatal(err)
		}
	}
	if built[1].Natural == nil {
		t.Fatal("not built in natural coordinates")
	}
	opt := RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: 0.5}
	rb, rn := runExample(t, built[0], opt), runExample(t, built[1], opt)
	for _, ch := range []string{"spring.power", "tilt.length", "tilt.deflection", "pad.torque"} {
		if !slices.Contains(rn.Channels, ch) {
			t.Fatalf("channel %s missing from %v", ch, rn.Channels)
		}
	}
	if len(rb.Channels) != len(rn.Channels) || rb.Samples < 3 {
		t.Fatalf("channels %v vs %v, %d samples", rb.Channels, rn.Channels, rb.Samples)
	}
	compareRuns(t, rb, rn, built[0], 1e-8, false)
}
