package modelfile

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// runMarkers runs an example with the given outputs to tEnd with bdf in GGL form (which
// holds both g = 0 and G v + g_t = 0) at tol 1e-9, so that the constraint residuals stay
// far below the checks' bounds.
func runMarkers(t *testing.T, name string, outputs []string, tEnd float64) *Result {
	t.Helper()
	b := loadExample(t, name)
	b.Doc.Model.Simulation.Outputs = outputs
	if b.Doc.Spatial != nil {
		b.Doc.Spatial.Simulation.Outputs = outputs
	}
	return runExample(t, b, RunOptions{TEnd: tEnd, Tol: 1e-9, Method: "bdf"})
}

// TestMarkerChannelsHandComputed (issue 17, item 4): a marker's channels at the start, by
// hand: the four-bar's crank (centre (0, 0.05), θ = 90°, ω = 2π, pinned at the origin)
// carries crank.A at (0.05, 0) in its frame, so at (0, 0.1) moving at
// ω k × (0, 0.1) = (−0.2π, 0); the
// IFToMM A02 start puts B0 at (0, 1) moving at 1 m/s along x (the library's initial
// condition), A04's P3 at (1, −1, 1) at rest.
func TestMarkerChannelsHandComputed(t *testing.T) {
	for _, c := range []struct {
		file    string
		outputs []string
		want    []float64
	}{
		{"four-bar", []string{"crank.A.x", "crank.A.y", "crank.A.vx", "crank.A.vy"}, []float64{0, 0.1, -0.2 * math.Pi, 0}},
		{"four-bar-natural", []string{"crank.A.x", "crank.A.y", "crank.A.vx", "crank.A.vy"}, []float64{0, 0.1, -0.2 * math.Pi, 0}},
		{"iftomm/a02-n-four-bar-2", []string{"B0"}, []float64{0, 1, 1, 0}},
		{"iftomm/a04-bricard", []string{"P3"}, []float64{1, -1, 1, 0, 0, 0}},
	} {
		r := runMarkers(t, c.file, c.outputs, 0.01)
		if len(r.Channels) != 1+len(c.want) {
			t.Fatalf("%s: channels %v, want t and %d marker channels", c.file, r.Channels, len(c.want))
		}
		for k, w := range c.want {
			// The start is made consistent by Newton to roundoff: 1e-12 of values of order 1.
			if got := r.Data[k+1][0]; math.Abs(got-w) > 1e-12 {
				t.Errorf("%s: %s(0) = %.15g, want %.15g", c.file, r.Channels[k+1], got, w)
			}
		}
	}
}

// TestMarkerChannelsFollowJoints (issue 17, item 4): along a run, markers joined by a
// revolute (2D) or spherical joint (3D) report the same point and velocity, and a marker
// pinned to the ground stays at its pivot at rest, to the constraint residuals of an
// run at tol 1e-9 (|g| and |G v + g_t| ≲ 1e-9, runMarkers): 1e-7 m and m/s leave room
// for neither a wrong rotation (errors of the size of the marker offsets, 0.05 m and more)
// nor a missing ω × A s term (0.3 m/s and more).
func TestMarkerChannelsFollowJoints(t *testing.T) {
	for _, c := range []struct {
		file         string
		dim          int
		pinned, a, b string // pinned: a marker on the ground's pivot at the origin
	}{
		{"four-bar", 2, "crank.O", "crank.A", "coupler.A"},
		{"four-bar-natural", 2, "crank.O", "coupler.B", "rocker.B"},
		{"spatial-fourbar", 3, "crank.O", "coupler.B", "rocker.B"},
	} {
		suffixes := markerSuffixes(c.dim)
		var outputs []string
		for _, m := range []string{c.pinned, c.a, c.b} {
			for _, s := range suffixes {
				outputs = append(outputs, m+"."+s)
			}
		}
		r := runMarkers(t, c.file, outputs, 0.5)
		n := len(suffixes)
		for k := range r.Data[0] {
			for i, s := range suffixes {
				pin := r.Data[1+i][k]
				a, b := r.Data[1+n+i][k], r.Data[1+2*n+i][k]
				if math.Abs(pin) > 1e-7 {
					t.Fatalf("%s: t=%g: %s.%s = %g, want 0 (pinned at the origin)", c.file, r.Data[0][k], c.pinned, s, pin)
				}
				if math.Abs(a-b) > 1e-7 {
					t.Fatalf("%s: t=%g: %s.%s = %.12g but %s.%s = %.12g; the joint holds them together", c.file, r.Data[0][k], c.a, s, a, c.b, s, b)
				}
			}
		}
		// Not a trivially passing run: the joined points do move.
		moved := 0.0
		for k := range r.Data[0] {
			for i := range c.dim {
				moved = math.Max(moved, math.Abs(r.Data[1+n+i][k]-r.Data[1+n+i][0]))
			}
		}
		if moved < 0.01 {
			t.Errorf("%s: %s moved at most %g m from its start in 0.5 s; want a moving mechanism", c.file, c.a, moved)
		}
	}
}

// TestMarkerChannelSelection: a marker's name selects its channels, a body's name does
// not select its markers', and a marker named like a body is refused when its channels
// are asked for (they would read the body's).
func TestMarkerChannelSelection(t *testing.T) {
	doc, err := Load(filepath.Join("..", "examples", "four-bar.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m := &doc.Model
	m.Simulation.Outputs = []string{"crank", "crank.A"}
	got := strings.Join(m.OutputChannels(), " ")
	want := "crank.x crank.y crank.theta crank.vx crank.vy crank.omega crank.ax crank.ay crank.alpha crank.A.x crank.A.y crank.A.vx crank.A.vy"
	if got != want {
		t.Errorf("outputs [crank, crank.A] select\n%s\nwant\n%s", got, want)
	}
	src := `bodies: [{name: bar, mass: 1, inertia: 0.1}]
markers: [{name: bar, body: bar, point: [0.5, 0]}]
simulation: {t_end: 1, outputs: [bar.x]}
`
	_, err = Parse("clash.yaml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), `output channel "bar.x" is both body "bar"'s and marker "bar"'s; rename the marker`) {
		t.Errorf("marker named like a body: error %v, want the clash named", err)
	}
}

// TestResolveChannelsAsSelect: resolveChannels, which names only the channels of elements
// a pattern starts with, selects what selectChannels selects on channelNames, in the same
// order, for every channel, element, marker and prefix of the planar example models and a
// few patterns that select nothing or several (the models of up to 400 channels).
func TestResolveChannelsAsSelect(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, f := range files {
		doc, err := Load(f)
		if err != nil || doc.Spatial != nil {
			continue
		}
		m := &doc.Model
		valid := channelNames(m)
		if len(valid) > 400 {
			continue // the long chains: quadratic in their channels, and nothing new
		}
		patterns := []string{"energy", "residual", "", ".", "x", "energy.", "nosuch.x"}
		for _, c := range valid {
			patterns = append(patterns, c)
			for i, r := range c {
				if r == '.' {
					patterns = append(patterns, c[:i], c[:i+1])
				}
			}
		}
		for _, p := range patterns {
			want := selectChannels(valid, p)
			got := resolveChannels(m, []string{p})
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s: pattern %q: resolveChannels %v, selectChannels %v", f, p, got, want)
			}
		}
		all := resolveChannels(m, patterns)
		var want []string
		seen := map[string]bool{}
		for _, p := range patterns {
			for _, c := range selectChannels(valid, p) {
				if !seen[c] {
					seen[c] = true
					want = append(want, c)
				}
			}
		}
		if strings.Join(all, " ") != strings.Join(want, " ") {
			t.Errorf("%s: every pattern at once: %d channels, want %d", f, len(all), len(want))
		}
		tried++
	}
	if tried < 5 {
		t.Fatalf("only %d planar example models loaded", tried)
	}
}
