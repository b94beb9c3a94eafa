package modelfile

import (
	"math"
	"testing"
)

// runWithOutputs loads an example, replaces its outputs and runs it to tEnd.
func runWithOutputs(t *testing.T, name string, tEnd float64, outputs ...string) *Result {
	t.Helper()
	b := loadExample(t, name)
	b.Doc.Model.Simulation.Outputs = outputs
	if b.Doc.Spatial != nil {
		b.Doc.Spatial.Simulation.Outputs = outputs
	}
	return runExample(t, b, RunOptions{TEnd: tEnd})
}

// The channels of a TSDA (issue 20, item 4) agree with the geometry and the law: the length
// is the distance between its markers, the force k (l − l0) + c l', the power −F l', and
// the velocity the derivative of the length.
func TestTSDAChannels(t *testing.T) {
	r := runWithOutputs(t, "slider-crank", 0.05, "rod", "spring")
	const k, c, l0 = 1e5, 200, 0.6 // examples/slider-crank.yaml
	x, y, th := r.Channel("rod.x"), r.Channel("rod.y"), r.Channel("rod.theta")
	l, dl, v, F, P := r.Channel("spring.length"), r.Channel("spring.deflection"), r.Channel("spring.velocity"), r.Channel("spring.force"), r.Channel("spring.power")
	if l == nil || dl == nil || v == nil || F == nil || P == nil {
		t.Fatalf("spring channels missing from %v", r.Channels)
	}
	for i := range l {
		bx, by := x[i]+0.3*math.Cos(th[i]), y[i]+0.3*math.Sin(th[i]) // rod.B
		want := math.Hypot(1.2-bx, by)                               // to the anchor (1.2, 0)
		if math.Abs(l[i]-want) > 1e-12 {
			t.Fatalf("sample %d: spring.length %.15g, distance of the markers %.15g", i, l[i], want)
		}
		if math.Abs(dl[i]-(l[i]-l0)) > 1e-12 || math.Abs(F[i]-(k*dl[i]+c*v[i])) > 1e-9*math.Abs(F[i]) ||
			math.Abs(P[i]+F[i]*v[i]) > 1e-9*math.Abs(P[i])+1e-12 {
			t.Fatalf("sample %d: deflection %g, force %g, power %g disagree with l = %g, l' = %g", i, dl[i], F[i], P[i], l[i], v[i])
		}
	}
	tt := r.Channel("t")
	vmax := 0.0
	for _, x := range v {
		vmax = math.Max(vmax, math.Abs(x))
	}
	// Central differences err by about (ω h)²/6 of the amplitude: 4 % at ω = 100 rad/s (the
	// rod tip's frequency) and h = 5 ms; a wrong sign or scale errs by 100 %.
	for i := 1; i+1 < len(l); i++ {
		fd := (l[i+1] - l[i-1]) / (tt[i+1] - tt[i-1])
		if math.Abs(fd-v[i]) > 0.08*vmax {
			t.Errorf("sample %d: spring.velocity %g, difference quotient of the length %g", i, v[i], fd)
		}
	}
}

// An RSDA's length is the joint's relative angle, its force k·deflection + c·rate.
func TestRSDAChannels(t *testing.T) {
	r := runWithOutputs(t, "stiff-chain", 0.02, "bar1.theta", "bar1.omega", "spring1")
	th, w := r.Channel("bar1.theta"), r.Channel("bar1.omega")
	l, v, F := r.Channel("spring1.length"), r.Channel("spring1.velocity"), r.Channel("spring1.force")
	for i := range th { // pin1 joins the ground to bar1: the relative angle is bar1's
		if math.Abs(math.Remainder(l[i]-th[i], 2*math.Pi)) > 1e-9 || math.Abs(v[i]-w[i]) > 1e-9 {
			t.Fatalf("sample %d: spring1 angle %g rate %g; bar1 at %g turning at %g", i, l[i], v[i], th[i], w[i])
		}
		if want := 1e5*l[i] + 10*v[i]; math.Abs(F[i]-want) > 1e-9*math.Abs(want)+1e-9 {
			t.Fatalf("sample %d: spring1.force %g, want k θ + c θ' = %g", i, F[i], want)
		}
	}
	doc := loadExample(t, "stiff-chain").Doc
	for ch, unit := range map[string]string{"spring1.length": "rad", "spring1.force": "N·m", "spring1.power": "W", "spring1.velocity": "rad/s"} {
		if got := doc.ChannelUnit(ch); got != unit {
			t.Errorf("unit of %s = %q; want %q", ch, got, unit)
		}
	}
}

// A bushing reports the distance between its markers, the magnitudes of its force and
// moment, and its power.
func TestBushingChannels(t *testing.T) {
	doc, err := Parse("bushing.yaml", []byte(`
gravity: [0, -9.81]
bodies: [{name: block, mass: 2, inertia: 0.1}]
markers:
  - {name: O, body: ground}
  - {name: B, body: block}
forces:
  - {name: mount, type: bushing, i: O, j: B, kx: 1000, ky: 1000, ktheta: 50}
initial: {bodies: {block: {position: [0.01, -0.02], angle: 0.1}}}
simulation: {t_end: 0.05, output_step: 0.01, outputs: [block, mount]}
`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	r := runExample(t, b, RunOptions{})
	x, y, th := r.Channel("block.x"), r.Channel("block.y"), r.Channel("block.theta")
	l, F, M := r.Channel("mount.length"), r.Channel("mount.force"), r.Channel("mount.torque")
	for i := range x {
		d := math.Hypot(x[i], y[i])
		if math.Abs(l[i]-d) > 1e-12 || math.Abs(F[i]-1000*d) > 1e-9 || math.Abs(M[i]-50*th[i]) > 1e-9 {
			t.Fatalf("sample %d: length %g force %g torque %g; want %g, %g, %g", i, l[i], F[i], M[i], d, 1000*d, 50*th[i])
		}
	}
}
