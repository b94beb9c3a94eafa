package modelfile

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"linkage/integrate"
	"linkage/law"
	"linkage/planar"
)

// everyElement uses every joint, motion and force kind of the format.
const everyElement = `
name: every-element
gravity: [0.5, -9.81]
bodies:
  - {name: a, mass: 2, inertia: 0.3}
  - {name: b, mass: 1.5, inertia: 0.2}
  - {name: c, mass: 1, inertia: 0.1}
  - {name: d, mass: 0.5, inertia: 0.05}
  - {name: e, mass: 0.7, inertia: 0.07}
markers:
  - {name: G0, body: ground}
  - {name: G1, body: ground, point: [2, 0], angle: 30 deg}
  - {name: G2, body: ground, point: [0, -1], angle: "pi/2"}
  - {name: A0, body: a, point: [-0.5, 0]}
  - {name: A1, body: a, point: [0.5, 0.1]}
  - {name: B0, body: b, point: [-0.4, 0], angle: 0.2}
  - {name: B1, body: b, point: [0.4, 0]}
  - {name: C0, body: c, point: [0.1, -0.2]}
  - {name: D0, body: d}
  - {name: E0, body: e, point: [0.2, 0]}
joints:
  - {name: j1, type: revolute, i: G0, j: A0}
  - {name: j2, type: translational, i: A1, j: B0}
  - {name: j3, type: distance, i: B1, j: C0, length: 0.8}
  - {name: j4, type: point-on-line, i: G1, j: D0}
  - {name: j5, type: weld, i: G2, j: E0}
  - {name: j6, type: revolute, i: G1, j: C0}
  - {name: gear, type: coupler, a: j1, b: j2, ratio: 0.25, offset: 0.1}
motions:
  - {name: m1, joint: j4, function: {t: [0, 0.5, 1, 2], value: [0, 0.1, 0.05, 0.2]}}
  - {name: m2, joint: j6, function: "10*sin(3*t) deg"}
forces:
  - {name: f1, type: tsda, i: G0, j: B1, k: 100, c: 2, free_length: 0.5, actuator: "sin(t)"}
  - name: f2
    type: tsda
    i: A1
    j: D0
    free_length: 1
    spring: {polynomial: [0, 50, 0, 20]}
    damper: {piecewise: {breaks: [-0.2, 0.21], pieces: [[-416.42e-3, 1844.3e-3], [0, 9.945627, 33.95572, -59.83225, -395.651], [1919.1638e-3, 1634.727e-3]]}}
  - {name: f3, type: rsda, joint: j1, k: 20, c: 0.5, free_angle: 5 deg}
  - {name: f4, type: rsda, i: A1, j: B0, k: 5, actuator: 0.3}
  - {name: f5, type: point-force, marker: B1, fx: "2*t", fy: -1, frame: body}
  - {name: f6, type: point-force, marker: C0, fy: 3}
  - {name: f7, type: torque, body: d, torque: "cos(2*t)"}
  - {name: f8, type: bushing, i: G0, j: D0, kx: 10, ky: 20, ktheta: 3, cx: 1, cy: 0.5, ctheta: 0.1}
`

// handBuilt is everyElement written directly with planar's API.
func handBuilt() *planar.Model {
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0.5, -9.81})
	a := m.AddBody(planar.Body{Name: "a", Mass: 2, Inertia: 0.3})
	b := m.AddBody(planar.Body{Name: "b", Mass: 1.5, Inertia: 0.2})
	c := m.AddBody(planar.Body{Name: "c", Mass: 1, Inertia: 0.1})
	d := m.AddBody(planar.Body{Name: "d", Mass: 0.5, Inertia: 0.05})
	e := m.AddBody(planar.Body{Name: "e", Mass: 0.7, Inertia: 0.07})
	mk := func(name string, body planar.BodyID, p planar.Vec, angle float64) planar.MarkerID {
		return m.AddMarker(planar.Marker{Name: name, Body: body, Point: p, Angle: angle})
	}
	G0 := mk("G0", planar.Ground, planar.Vec{}, 0)
	G1 := mk("G1", planar.Ground, planar.Vec{2, 0}, math.Pi/6)
	G2 := mk("G2", planar.Ground, planar.Vec{0, -1}, math.Pi/2)
	A0 := mk("A0", a, planar.Vec{-0.5, 0}, 0)
	A1 := mk("A1", a, planar.Vec{0.5, 0.1}, 0)
	B0 := mk("B0", b, planar.Vec{-0.4, 0}, 0.2)
	B1 := mk("B1", b, planar.Vec{0.4, 0}, 0)
	C0 := mk("C0", c, planar.Vec{0.1, -0.2}, 0)
	D0 := mk("D0", d, planar.Vec{}, 0)
	E0 := mk("E0", e, planar.Vec{0.2, 0}, 0)
	j1 := m.AddRevolute("j1", G0, A0)
	j2 := m.AddTranslational("j2", A1, B0)
	m.AddDistance("j3", B1, C0, 0.8)
	j4 := m.AddPointOnLine("j4", G1, D0)
	m.AddWeld("j5", G2, E0)
	j6 := m.AddRevolute("j6", G1, C0)
	m.AddCoupler("gear", j1, j2, 0.25, 0.1)
	tb, _ := law.NewTable([]float64{0, 0.5, 1, 2}, []float64{0, 0.1, 0.05, 0.2})
	m.AddMotion("m1", j4, tb)
	m.AddMotion("m2", j6, law.Sine{Amplitude: 10 * math.Pi / 180, Omega: 3})
	m.AddTSDA(planar.TSDA{Name: "f1", I: G0, J: B1, K: 100, C: 2, FreeLength: 0.5, Actuator: law.Sine{Amplitude: 1, Omega: 1}})
	pw, _ := law.NewPiecewise([]float64{-0.2, 0.21}, []law.Polynomial{
		{Coef: []float64{-416.42e-3, 1844.3e-3}}, {Coef: []float64{0, 9.945627, 33.95572, -59.83225, -395.651}}, {Coef: []float64{1919.1638e-3, 1634.727e-3}}})
	m.AddTSDA(planar.TSDA{Name: "f2", I: A1, J: D0, FreeLength: 1, Spring: law.Polynomial{Coef: []float64{0, 50, 0, 20}}, Damper: pw})
	m.AddRSDA(planar.RSDA{Name: "f3", Joint: j1, K: 20, C: 0.5, FreeAngle: 5 * math.Pi / 180})
	m.AddRSDA(planar.RSDA{Name: "f4", I: A1, J: B0, K: 5, Actuator: law.Const{Value: 0.3}})
	m.AddPointForce("f5", B1, law.Poly{Coef: []float64{0, 2}}, law.Const{Value: -1}, false)
	m.AddPointForce("f6", C0, nil, law.Const{Value: 3}, true)
	m.AddTorque("f7", d, law.Sine{Amplitude: 1, Omega: 2, Phase: math.Pi / 2})
	m.AddBushing(planar.Bushing{Name: "f8", I: G0, J: D0, Kx: 10, Ky: 20, Ktheta: 3, Cx: 1, Cy: 0.5, Ctheta: 0.1})
	return m
}

// TestBuildMatchesPlanar: a file using every element kind builds the same equations as the
// same model written with planar's API: f, g, g_t, γ and G agree at random states (to
// 1e-12 relative: the two differ only in how constants such as 30 deg are rounded).
func TestBuildMatchesPlanar(t *testing.T) {
	doc, err := Parse("every.yaml", []byte(everyElement))
	if err != nil {
		t.Fatal(err)
	}
	fileSys, err := buildSystem(doc)
	if err != nil {
		t.Fatal(err)
	}
	handSys, err := handBuilt().Assemble()
	if err != nil {
		t.Fatal(err)
	}
	nq, nc := handSys.Size()
	if fq, fc := fileSys.Size(); fq != nq || fc != nc {
		t.Fatalf("file system size (%d, %d), hand-built (%d, %d)", fq, fc, nq, nc)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	q, v := make([]float64, nq), make([]float64, nq)
	fa, fb := make([]float64, nq), make([]float64, nq)
	ga, gb := make([]float64, nc), make([]float64, nc)
	for trial := range 5 {
		for i := range q {
			q[i], v[i] = rng.Float64()*2-1, rng.Float64()*2-1
		}
		tt := 0.3 * float64(trial+1)
		compare := func(what string, x, y []float64) {
			for i := range x {
				if math.Abs(x[i]-y[i]) > 1e-12*math.Max(1, math.Abs(y[i])) {
					t.Errorf("trial %d: %s[%d] = %.15g from the file, %.15g by hand", trial, what, i, x[i], y[i])
				}
			}
		}
		fileSys.Force(fa, tt, q, v)
		handSys.Force(fb, tt, q, v)
		compare("f", fa, fb)
		fileSys.Constraint(ga, tt, q)
		handSys.Constraint(gb, tt, q)
		compare("g", ga, gb)
		fileSys.ConstraintTimeDerivative(ga, tt, q)
		handSys.ConstraintTimeDerivative(gb, tt, q)
		compare("g_t", ga, gb)
		fileSys.Gamma(ga, tt, q, v)
		handSys.Gamma(gb, tt, q, v)
		compare("gamma", ga, gb)
	}
	for i := range nc {
		if a, b := fileSys.ConstraintName(i), handSys.ConstraintName(i); a != b {
			t.Errorf("row %d named %q from the file, %q by hand", i, a, b)
		}
	}
}

// TestObserverNoAlloc: the per-step work of Run (the energy quadrature) does not allocate.
func TestObserverNoAlloc(t *testing.T) {
	b := loadExample(t, "slider-crank")
	e, _ := integrate.Lookup("hht")
	m, _ := e.NewMethod("")
	if err := m.Init(b.Integrated, b.Start.Clone(), integrate.StepControl{RTol: 1e-6, ATol: 1e-6}); err != nil {
		t.Fatal(err)
	}
	wm := b.workMeter(m)
	for range 3 {
		if err := m.Step(1); err != nil {
			t.Fatal(err)
		}
		_ = wm.Observe(m.Current())
	}
	if n := testing.AllocsPerRun(20, func() { _ = wm.Observe(m.Current()) }); n != 0 {
		t.Errorf("the energy observer allocates %v times per step, want 0", n)
	}
}

// TestBuildErrors: a model that parses but cannot be assembled consistently reports the
// file and what failed.
func TestBuildErrors(t *testing.T) {
	doc, err := Parse("far.yaml", []byte(`
bodies: [{name: a, mass: 1, inertia: 1}]
markers:
  - {name: O, body: ground}
  - {name: P, body: ground, point: [5, 0]}
  - {name: A, body: a, point: [-0.5, 0]}
  - {name: B, body: a, point: [0.5, 0]}
joints:
  - {name: r1, type: distance, i: O, j: A, length: 1}
  - {name: r2, type: distance, i: P, j: B, length: 1}
`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(doc)
	if err == nil || !strings.Contains(err.Error(), "far.yaml: initial:") {
		t.Errorf("Build of an unassemblable linkage (5 m apart, reach 3 m): error %v, want one naming far.yaml: initial", err)
	}
}

// TestNoBodies: a model without moving bodies has no coordinates to integrate; Parse
// refuses it (planar and 3D) and Build refuses a document that has none, instead of
// panicking in the linear algebra (issue 13, item 1).
func TestNoBodies(t *testing.T) {
	for _, src := range []string{"bodies: []\nsimulation: {t_end: 1}\n", "dimension: 3\nbodies: []\nsimulation: {t_end: 1}\n"} {
		_, err := Parse("e.yaml", []byte(src))
		want := "e.yaml:"
		if !strings.Contains(src, "dimension") {
			want += "1:9: bodies: no bodies; want at least one moving body"
		} else {
			want += "2:9: bodies: no bodies; want at least one moving body"
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", src, err, want)
		}
	}
	for _, doc := range []*Document{{File: "e.yaml"}, {File: "e3.yaml", Spatial: &SpatialModel{Dimension: 3}}} {
		_, err := Build(doc)
		if err == nil || !strings.Contains(err.Error(), doc.File+": no bodies") {
			t.Errorf("Build(%s): %v, want an error naming the file and the missing bodies", doc.File, err)
		}
	}
}

// TestCouplerBeforeItsJoints: a coupler may be listed before the joints it couples (issue
// 13, item 14); the model is the same as with the coupler last.
func TestCouplerBeforeItsJoints(t *testing.T) {
	gear := "  - {name: gear, type: coupler, a: j1, b: j2, ratio: 0.25, offset: 0.1}\n"
	if !strings.Contains(everyElement, gear) {
		t.Fatal("everyElement has no gear line")
	}
	first := strings.Replace(strings.Replace(everyElement, gear, "", 1), "joints:\n", "joints:\n"+gear, 1)
	var q [2][]float64
	for k, src := range []string{everyElement, first} {
		doc, err := Parse("c.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Build(doc)
		if err != nil {
			t.Fatal(err)
		}
		q[k] = b.Start.Q
	}
	for i := range q[0] {
		// 1e-12: the same Newton solve with the rows in another order.
		if math.Abs(q[0][i]-q[1][i]) > 1e-12 {
			t.Errorf("q[%d] = %.15g with the coupler first, %.15g with it last", i, q[1][i], q[0][i])
		}
	}
}

// TestMotionNotFinite: a motion whose function (or its first two derivatives) is not
// finite at t0 or on a sample of [t0, t_end] is refused at Build, naming the motion, the
// expression and the first time, instead of a failed initialization (issue 13, item 14).
func TestMotionNotFinite(t *testing.T) {
	planarModel := func(fn string) string {
		return `bodies: [{name: a, mass: 1, inertia: 1}]
markers: [{name: O, body: ground}, {name: A, body: a}]
joints: [{name: pin, type: revolute, i: O, j: A}]
motions: [{name: spin, joint: pin, function: "` + fn + `"}]
simulation: {t_end: 1}
`
	}
	spatialModel := func(fn string) string {
		return `dimension: 3
bodies: [{name: a, mass: 1, inertia: [1, 1, 1]}]
markers: [{name: O, body: ground}, {name: A, body: a}]
joints: [{name: pin, type: revolute, i: O, j: A}]
motions: [{name: spin, joint: pin, function: "` + fn + `"}]
simulation: {t_end: 1}
`
	}
	for _, c := range []struct{ fn, want string }{
		{"log(t)", `m.yaml:4:46: motions[0].function: motion "spin" = log(t) is not finite at t = 0 (f = -Inf`},
		{"0/0", `motion "spin" = 0/0 is not finite at t = 0 (f = NaN`},
		{"1/(t-0.5)", `motion "spin" = 1/(t-0.5) is not finite at t = 0.5`},
		{"sqrt(0.3-t)", `motion "spin" = sqrt(0.3-t) is not finite at t = 0.3 (f = 0, f' = -Inf`},
		{"sqrt(t)", `motion "spin" = sqrt(t) is not finite at t = 0 (f = 0, f' = +Inf`},
		{"exp(1000*t)", `motion "spin" = exp(1000*t) is not finite at t = 0.696 (f = 1.86e+302, f' = 1.86e+305, f'' = +Inf)`},
		{"30*log(t) deg", `motion "spin" = 30*log(t) deg is not finite at t = 0`},
	} {
		for _, src := range []string{planarModel(c.fn), spatialModel(c.fn)} {
			doc, err := Parse("m.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Build(doc)
			want := c.want
			if doc.Spatial != nil {
				want = strings.Replace(want, "m.yaml:4:", "m.yaml:5:", 1)
			}
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s, dimension %g:\n got %v\nwant %s", c.fn, doc.Model.Dimension, err, want)
			}
		}
	}
}
