package modelfile

import (
	"encoding/xml"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The URDF tests check the converter against a second reading of the same files written
// here independently of urdf.go: encoding/xml's Unmarshal instead of the token tree, the
// rotations of rpy multiplied out by hand, the links walked by recursion, and the mass
// properties composed in world axes. The built model is read where a run reads it: the
// bodies' poses at t = 0 from the output channels, the markers' axes turned by them.

type tOrigin struct {
	XYZ string `xml:"xyz,attr"`
	RPY string `xml:"rpy,attr"`
}

type tLink struct {
	Name     string `xml:"name,attr"`
	Inertial *struct {
		Origin tOrigin `xml:"origin"`
		Mass   struct {
			Value float64 `xml:"value,attr"`
		} `xml:"mass"`
		Inertia struct {
			Ixx float64 `xml:"ixx,attr"`
			Ixy float64 `xml:"ixy,attr"`
			Ixz float64 `xml:"ixz,attr"`
			Iyy float64 `xml:"iyy,attr"`
			Iyz float64 `xml:"iyz,attr"`
			Izz float64 `xml:"izz,attr"`
		} `xml:"inertia"`
	} `xml:"inertial"`
}

type tJoint struct {
	Name   string  `xml:"name,attr"`
	Type   string  `xml:"type,attr"`
	Origin tOrigin `xml:"origin"`
	Parent struct {
		Link string `xml:"link,attr"`
	} `xml:"parent"`
	Child struct {
		Link string `xml:"link,attr"`
	} `xml:"child"`
	Axis *struct {
		XYZ string `xml:"xyz,attr"`
	} `xml:"axis"`
}

type tRobot struct {
	Links  []tLink  `xml:"link"`
	Joints []tJoint `xml:"joint"`
}

type m3 [3][3]float64
type v3 [3]float64

func tVec(t *testing.T, s string) v3 {
	var v v3
	for k, f := range strings.Fields(s) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatal(err)
		}
		v[k] = x
	}
	return v
}

// tRPY is R = R_z(y) R_y(p) R_x(r), multiplied out (the URDF's fixed-axis roll, pitch, yaw).
func tRPY(a v3) m3 {
	sr, cr := math.Sincos(a[0])
	sp, cp := math.Sincos(a[1])
	sy, cy := math.Sincos(a[2])
	return m3{
		{cy * cp, cy*sp*sr - sy*cr, cy*sp*cr + sy*sr},
		{sy * cp, sy*sp*sr + cy*cr, sy*sp*cr - cy*sr},
		{-sp, cp * sr, cp * cr},
	}
}

func (a m3) mul(b m3) (c m3) {
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

func (a m3) tr() (t m3) {
	for i := range 3 {
		for j := range 3 {
			t[i][j] = a[j][i]
		}
	}
	return t
}

func (a m3) vec(v v3) (w v3) {
	for i := range 3 {
		for k := range 3 {
			w[i] += a[i][k] * v[k]
		}
	}
	return w
}

// tQuat is A(p) of Euler parameters (seed 002, Remark 7b) written out.
func tQuat(p [4]float64) m3 {
	e0, e1, e2, e3 := p[0], p[1], p[2], p[3]
	return m3{
		{2*(e0*e0+e1*e1) - 1, 2 * (e1*e2 - e0*e3), 2 * (e1*e3 + e0*e2)},
		{2 * (e1*e2 + e0*e3), 2*(e0*e0+e2*e2) - 1, 2 * (e2*e3 - e0*e1)},
		{2 * (e1*e3 - e0*e2), 2 * (e2*e3 + e0*e1), 2*(e0*e0+e3*e3) - 1},
	}
}

type tFrame struct {
	R m3
	p v3
}

// tExpected is what a URDF says about a body: its mass, centre of mass and inertia about it
// in world axes at the zero configuration.
type tExpected struct {
	mass float64
	com  v3
	J    m3
}

// urdfExpectations reads path independently and returns the bodies (keyed by the name of
// the link nearest the root of each group of links joined by fixed joints), the world
// frame of every link, and every moving joint's world axis and origin.
func urdfExpectations(t *testing.T, path string) (bodies map[string]*tExpected, frames map[string]tFrame, axes map[string][2]v3) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r tRobot
	if err := xml.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	parentJoint := map[string]tJoint{}
	for _, j := range r.Joints {
		parentJoint[j.Child.Link] = j
	}
	frames = map[string]tFrame{}
	var frame func(link string) tFrame
	frame = func(link string) tFrame {
		if f, ok := frames[link]; ok {
			return f
		}
		j, ok := parentJoint[link]
		f := tFrame{R: m3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
		if ok {
			pf := frame(j.Parent.Link)
			o := tVec(t, j.Origin.XYZ)
			po := pf.R.vec(o)
			f = tFrame{R: pf.R.mul(tRPY(tVec(t, j.Origin.RPY))), p: v3{pf.p[0] + po[0], pf.p[1] + po[1], pf.p[2] + po[2]}}
		}
		frames[link] = f
		return f
	}
	// The body of a link: climb fixed joints; "" for the ground.
	var bodyOf func(link string) string
	bodyOf = func(link string) string {
		j, ok := parentJoint[link]
		switch {
		case !ok:
			return ""
		case j.Type == "fixed":
			return bodyOf(j.Parent.Link)
		}
		return link
	}
	bodies = map[string]*tExpected{}
	type part struct {
		m float64
		c v3
		J m3
	}
	parts := map[string][]part{}
	for _, l := range r.Links {
		b := bodyOf(l.Name)
		if b == "" || l.Inertial == nil {
			continue
		}
		f := frame(l.Name)
		o := f.R.vec(tVec(t, l.Inertial.Origin.XYZ))
		Ri := f.R.mul(tRPY(tVec(t, l.Inertial.Origin.RPY)))
		in := l.Inertial.Inertia
		Jl := m3{{in.Ixx, in.Ixy, in.Ixz}, {in.Ixy, in.Iyy, in.Iyz}, {in.Ixz, in.Iyz, in.Izz}}
		parts[b] = append(parts[b], part{l.Inertial.Mass.Value, v3{f.p[0] + o[0], f.p[1] + o[1], f.p[2] + o[2]}, Ri.mul(Jl).mul(Ri.tr())})
	}
	for b, ps := range parts {
		e := &tExpected{}
		for _, p := range ps {
			e.mass += p.m
			for k := range 3 {
				e.com[k] += p.m * p.c[k]
			}
		}
		for k := range 3 {
			e.com[k] /= e.mass
		}
		for _, p := range ps { // Steiner: J_c = J_k + m_k (|d|² E − d dᵀ)
			d := v3{p.c[0] - e.com[0], p.c[1] - e.com[1], p.c[2] - e.com[2]}
			dd := d[0]*d[0] + d[1]*d[1] + d[2]*d[2]
			for i := range 3 {
				for j := range 3 {
					e.J[i][j] += p.J[i][j] - p.m*d[i]*d[j]
				}
				e.J[i][i] += p.m * dd
			}
		}
		bodies[b] = e
	}
	axes = map[string][2]v3{}
	for _, j := range r.Joints {
		if j.Type == "fixed" || j.Type == "floating" {
			continue
		}
		a := v3{1, 0, 0}
		if j.Axis != nil {
			a = tVec(t, j.Axis.XYZ)
		}
		n := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
		f := frame(j.Child.Link)
		w := f.R.vec(v3{a[0] / n, a[1] / n, a[2] / n})
		axes[j.Name] = [2]v3{w, f.p}
	}
	for _, l := range r.Links {
		frame(l.Name)
	}
	return bodies, frames, axes
}

// convertURDFDoc converts the URDF text src (named name.urdf in errors) and parses the
// model file it makes, failing the test with that file on an error.
func convertURDFDoc(t *testing.T, name, src string, opt *URDFOptions) (*URDFModel, *Document) {
	t.Helper()
	conv, err := ConvertURDF(name+".urdf", []byte(src), opt)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Parse(name+".yaml", conv.YAML)
	if err != nil {
		t.Fatalf("%v\n%s", err, conv.YAML)
	}
	return conv, doc
}

// convertURDFFile reads and converts the URDF file at path, failing the test on an error.
func convertURDFFile(t *testing.T, path string) *URDFModel {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := ConvertURDF(path, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return conv
}

// convertAndBuild converts a testdata URDF, parses and builds it, and runs it for one step
// of output with every body's and marker's channels recorded.
func convertAndBuild(t *testing.T, path string) (*Built, *Result) {
	t.Helper()
	conv := convertURDFFile(t, path)
	doc, err := Parse(path+".yaml", conv.YAML)
	if err != nil {
		t.Fatalf("%v\n%s", err, conv.YAML)
	}
	var outs []string
	for _, b := range doc.Spatial.Bodies {
		outs = append(outs, b.Name)
	}
	for _, mk := range doc.Spatial.Markers {
		outs = append(outs, mk.Name)
	}
	doc.Spatial.Simulation.Outputs = append(outs, "energy")
	b, err := Build(doc)
	if err != nil {
		t.Fatalf("%v\n%s", err, conv.YAML)
	}
	res, err := Run(b, RunOptions{TEnd: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	return b, res
}

// TestURDFMassPropertiesAndAxes: the converted pendulum, cart-pole and 7-joint arm build,
// and at t = 0 the built model's total mass, each body's centre of mass and inertia in
// world axes, each joint's axis in world axes and point, and the merged tool frame's
// origin equal what the URDF says (read independently above). Tolerance 1e-12: the file
// writes 15 significant digits, so a correct value is within 5e-15 relative.
func TestURDFMassPropertiesAndAxes(t *testing.T) {
	const tol = 1e-12
	for _, name := range []string{"pendulum2", "cartpole", "arm7"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "urdf", name+".urdf")
			want, frames, axes := urdfExpectations(t, path)
			b, res := convertAndBuild(t, path)
			sm := b.Doc.Spatial
			at0 := func(ch string) float64 {
				d := res.Channel(ch)
				if d == nil {
					t.Fatalf("no channel %s", ch)
				}
				return d[0]
			}
			orient := map[string]m3{"ground": {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
			var mass, wantMass float64
			for _, e := range want {
				wantMass += e.mass
			}
			if len(sm.Bodies) != len(want) {
				t.Errorf("%d bodies, want %d", len(sm.Bodies), len(want))
			}
			for _, body := range sm.Bodies {
				mass += body.Mass
				e := want[body.Name]
				if e == nil {
					t.Errorf("body %s is no moving link of the URDF", body.Name)
					continue
				}
				if math.Abs(body.Mass-e.mass) > tol*e.mass {
					t.Errorf("%s: mass %g, want %g", body.Name, body.Mass, e.mass)
				}
				R := tQuat([4]float64{at0(body.Name + ".p0"), at0(body.Name + ".p1"), at0(body.Name + ".p2"), at0(body.Name + ".p3")})
				orient[body.Name] = R
				for k, c := range []string{"x", "y", "z"} {
					if got := at0(body.Name + "." + c); math.Abs(got-e.com[k]) > tol {
						t.Errorf("%s.%s = %.15g at t = 0, want the centre of mass %.15g", body.Name, c, got, e.com[k])
					}
				}
				in := append(append([]float64(nil), body.Inertia...), 0, 0, 0)[:6] // [Jxx, Jyy, Jzz] or all six
				Jb := m3{{in[0], in[3], in[4]}, {in[3], in[1], in[5]}, {in[4], in[5], in[2]}}
				Jw := R.mul(Jb).mul(R.tr())
				scale := e.J[0][0] + e.J[1][1] + e.J[2][2]
				for i := range 3 {
					for j := range 3 {
						if math.Abs(Jw[i][j]-e.J[i][j]) > tol*scale {
							t.Errorf("%s: world inertia [%d][%d] = %.15g, want %.15g", body.Name, i, j, Jw[i][j], e.J[i][j])
						}
					}
				}
			}
			if math.Abs(mass-wantMass) > tol*wantMass {
				t.Errorf("total mass %g, want %g", mass, wantMass)
			}
			markers := map[string]Marker3{}
			for _, mk := range sm.Markers {
				markers[mk.Name] = mk
			}
			if len(sm.Joints) != len(axes) {
				t.Errorf("%d joints, want the URDF's %d moving joints", len(sm.Joints), len(axes))
			}
			for _, jt := range sm.Joints {
				wa, ok := axes[jt.Name]
				if !ok {
					t.Errorf("joint %s is no moving joint of the URDF", jt.Name)
					continue
				}
				for _, side := range []string{jt.I, jt.J} {
					mk := markers[side]
					a := orient[mk.Body].vec(v3(mk.Axis))
					n := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
					for k, c := range []string{"x", "y", "z"} {
						if math.Abs(a[k]/n-wa[0][k]) > tol {
							t.Errorf("joint %s: marker %s's axis in world axes %v, want %v", jt.Name, side, a, wa[0])
						}
						if got := at0(side + "." + c); math.Abs(got-wa[1][k]) > tol {
							t.Errorf("joint %s: marker %s.%s = %.15g at t = 0, want the joint origin's %.15g", jt.Name, side, c, got, wa[1][k])
						}
					}
				}
			}
			// The joint route's own axes: every revolute coordinate's rotation axis, in its
			// parent frame, which is oriented as the world at the start.
			jb := b.Joint3
			for k := range jb.axis {
				wa, ok := axes[jb.System.CoordinateName(k)]
				if !ok || jb.axis[k] == (vec3{}) {
					continue
				}
				for c := range 3 {
					if math.Abs(jb.axis[k][c]-wa[0][c]) > tol {
						t.Errorf("joint route: coordinate %s turns about %v, want %v", jb.System.CoordinateName(k), jb.axis[k], wa[0])
					}
				}
			}
			if name == "arm7" { // the tool frame, merged into link7, is marker tool0
				f := frames["tool0"]
				for k, c := range []string{"x", "y", "z"} {
					if got := at0("tool0." + c); math.Abs(got-f.p[k]) > tol {
						t.Errorf("tool0.%s = %.15g, want %.15g", c, got, f.p[k])
					}
				}
			}
		})
	}
}

// TestURDFPendulumMatchesHandWritten: the converted double pendulum (joint coordinates)
// and the same pendulum written by hand in body coordinates (testdata/urdf/pendulum2-hand.yaml)
// follow the same motion over 1 s of a large swing, and the converted one keeps its
// energy. dopri5 at tol 1e-10: its global error over a second of this swing is far below
// the 1e-6 m asked of the positions; the energy bound, 1e-7 of the energy exchanged, is
// 1000 × tol (docs/model-format.md: global errors 1e3-1e5 × tol, the low end for a
// fifth-order method).
func TestURDFPendulumMatchesHandWritten(t *testing.T) {
	path := filepath.Join("testdata", "urdf", "pendulum2.urdf")
	conv := convertURDFFile(t, path)
	run := func(file string, src []byte) *Result {
		doc, err := Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		doc.Spatial.Simulation.Outputs = []string{"rod1", "rod2", "energy"}
		b, err := Build(doc)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Run(b, RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: 1})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	ru := run(path+".yaml", conv.YAML)
	hand, err := os.ReadFile(filepath.Join("testdata", "urdf", "pendulum2-hand.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rh := run("pendulum2-hand.yaml", hand)
	for _, ch := range []string{"rod1.x", "rod1.z", "rod2.x", "rod2.z", "rod2.y"} {
		a, b := ru.Channel(ch), rh.Channel(ch)
		if len(a) != len(b) || len(a) < 100 {
			t.Fatalf("%s: %d and %d samples", ch, len(a), len(b))
		}
		worst := 0.0
		for k := range a {
			worst = max(worst, math.Abs(a[k]-b[k]))
		}
		if worst > 1e-6 {
			t.Errorf("%s: URDF and hand-written pendulum differ by up to %.2e m, want <= 1e-6", ch, worst)
		}
	}
	lowest := 0.0
	for _, z := range rh.Channel("rod2.z") {
		lowest = min(lowest, z)
	}
	if lowest > -0.3 {
		t.Errorf("rod2.z >= %g over the run: the pendulum did not swing down", lowest)
	}
	total, kin := ru.Channel("energy.total"), ru.Channel("energy.kinetic")
	var drift, exchanged float64
	for k := range total {
		drift = max(drift, math.Abs(total[k]-total[0]))
		exchanged = max(exchanged, kin[k])
	}
	if drift > 1e-7*exchanged {
		t.Errorf("energy drift %.2e J of %.3g J exchanged, want <= 1e-7 of it", drift, exchanged)
	}
	t.Logf("energy drift %.2e J of %.3g J exchanged", drift, exchanged)
}

// urdfDoc wraps links and joints in a robot element, one per line after the first two, so
// that line numbers are easy to count: the element on body line k is at line k + 2.
func urdfDoc(body ...string) string {
	return "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" + strings.Join(body, "\n") + "\n</robot>\n"
}

const tInertial = `<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>`

// TestURDFBadInput: every kind of bad input is refused with an error that names the
// element (its path, link[NAME] or joint[NAME], and the name) and its line.
func TestURDFBadInput(t *testing.T) {
	link := func(name string) string { return `<link name="` + name + `">` + tInertial + `</link>` }
	joint := func(name, typ, parent, child string) string {
		return `<joint name="` + name + `" type="` + typ + `"><parent link="` + parent + `"/><child link="` + child + `"/><axis xyz="0 0 1"/></joint>`
	}
	cases := []struct {
		name, src string
		want      []string // substrings of the error, ":LINE:" among them
	}{
		{"not URDF", `<?xml version="1.0"?>` + "\n" + `<sdf version="1.6"><model name="m"/></sdf>`,
			[]string{":2:", "root element is <sdf>", "want <robot>"}},
		{"not XML", "bodies:\n  - {name: a, mass: 1}\n", []string{"no XML element"}},
		{"broken XML", urdfDoc(`<link name="a">`, `</joint>`), []string{":4:", "not well-formed XML"}},
		{"missing link", urdfDoc(`<link name="base"/>`, link("a"),
			`<joint name="j1" type="revolute">`, `<parent link="base"/>`, `<child link="ghost"/>`, `</joint>`),
			[]string{":7:", "joint[j1].child", `child link "ghost" is not defined`, "base, a"}},
		{"two roots", urdfDoc(`<link name="base"/>`, link("a"), link("b"), joint("j1", "revolute", "base", "a")),
			[]string{":5:", "link[b]", `2 root links`, `"base" (line 3)`, `"b" (line 5)`}},
		{"two parents", urdfDoc(`<link name="base"/>`, link("a"), link("b"), joint("j1", "revolute", "base", "a"),
			joint("j2", "revolute", "a", "b"), joint("j3", "revolute", "base", "b")),
			[]string{":8:", "joint[j3]", `link "b" is already the child of joint "j2" (line 7)`, "loop"}},
		{"loop without root", urdfDoc(link("a"), link("b"), joint("j1", "revolute", "a", "b"), joint("j2", "revolute", "b", "a")),
			[]string{":3:", "link[a]", "loop", "no root link"}},
		{"loop beside the tree", urdfDoc(`<link name="base"/>`, link("a"), link("b"), joint("j1", "revolute", "a", "b"), joint("j2", "revolute", "b", "a")),
			[]string{":7:", "joint[j2]", `link "a" is not connected to the root link "base"`, "loop"}},
		{"self loop", urdfDoc(`<link name="base"/>`, link("a"), joint("j1", "revolute", "base", "a"), joint("j2", "revolute", "a", "a")),
			[]string{":6:", "joint[j2]", `joins link "a" to itself`}},
		{"zero mass", urdfDoc(`<link name="base"/>`, `<link name="a"><inertial>`, `<mass value="0"/>`,
			`<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>`, joint("j1", "revolute", "base", "a")),
			[]string{":5:", "link[a].inertial.mass", "mass = 0 kg", "want a positive number"}},
		{"negative mass", urdfDoc(`<link name="base"/>`, `<link name="a"><inertial>`, `<mass value="-2"/>`,
			`<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>`, joint("j1", "revolute", "base", "a")),
			[]string{":5:", "link[a].inertial.mass", "mass = -2 kg"}},
		{"indefinite inertia", urdfDoc(`<link name="base"/>`, `<link name="a"><inertial><mass value="1"/>`,
			`<inertia ixx="1" ixy="2" ixz="0" iyy="1" iyz="0" izz="1"/>`, `</inertial></link>`, joint("j1", "revolute", "base", "a")),
			[]string{":5:", "link[a].inertial.inertia", "not positive definite"}},
		{"zero axis", urdfDoc(`<link name="base"/>`, link("a"), `<joint name="j1" type="prismatic">`, `<parent link="base"/>`,
			`<child link="a"/>`, `<axis xyz="0 0 0"/>`, `</joint>`),
			[]string{":8:", "joint[j1].axis", `axis xyz = "0 0 0"`, "non-zero"}},
		{"planar joint", urdfDoc(`<link name="base"/>`, link("a"), joint("j1", "planar", "base", "a")),
			[]string{":5:", "joint[j1].type", "planar joints are not available"}},
		{"unknown joint type", urdfDoc(`<link name="base"/>`, link("a"), joint("j1", "ball", "base", "a")),
			[]string{":5:", "joint[j1].type", `type "ball"`}},
		{"massless moving link", urdfDoc(`<link name="base"/>`, `<link name="a"/>`, joint("j1", "revolute", "base", "a")),
			[]string{":4:", "link[a]", `link "a" has no <inertial>`, `joint "j1" moves it`}},
		{"bad number", urdfDoc(`<link name="base"/>`, link("a"), `<joint name="j1" type="revolute">`, `<origin xyz="0 0 ${L}"/>`,
			`<parent link="base"/><child link="a"/></joint>`),
			[]string{":6:", "joint[j1].origin", `xyz = "0 0 ${L}"`}},
		{"xacro", "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n<xacro:macro name=\"m\"/>\n</robot>",
			[]string{":2:", "xacro", "expand it first"}},
		{"no moving link", urdfDoc(`<link name="base"/>`, `<link name="flange"/>`,
			`<joint name="j1" type="fixed"><parent link="base"/><child link="flange"/></joint>`),
			[]string{":3:", "link[base]", "no moving link"}},
		{"duplicate link", urdfDoc(`<link name="base"/>`, link("a"), link("a")),
			[]string{":5:", "link[a]", "defined twice (first at line 4)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ConvertURDF("bad.urdf", []byte(c.src), nil)
			if err == nil {
				t.Fatalf("converted; want an error")
			}
			msg := err.Error()
			t.Log(msg)
			if !strings.HasPrefix(msg, "bad.urdf") {
				t.Errorf("error %q does not start with the file name", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
		})
	}
}

// TestURDFNamesAndIgnored: names the model file cannot take are changed (a '.' in a link
// name, a joint named like a link, a link called ground), the model still builds, and every
// element not simulated is listed in the header comment and in Ignored.
func TestURDFNamesAndIgnored(t *testing.T) {
	src := urdfDoc(`<link name="world"/>`,
		`<link name="ground">`+tInertial+`<visual/></link>`,
		`<link name="arm.1">`+tInertial+`<collision/></link>`,
		`<link name="j2">`+tInertial+`</link>`,
		`<joint name="j1" type="continuous"><parent link="world"/><child link="ground"/><axis xyz="0 0 1"/></joint>`,
		`<joint name="j2" type="revolute"><origin xyz="0.5 0 0"/><parent link="ground"/><child link="arm.1"/><axis xyz="0 1 0"/>`+
			`<limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="j1"/><safety_controller k_velocity="1"/></joint>`,
		`<joint name="j3" type="prismatic"><origin xyz="0.5 0 0"/><parent link="arm.1"/><child link="j2"/><axis xyz="1 0 0"/>`+
			`<dynamics damping="2" friction="1"/></joint>`,
		`<transmission name="t1"/>`, `<gazebo reference="j2"/>`, `<material name="blue"/>`)
	conv, doc := convertURDFDoc(t, "names", src, nil)
	if _, err := Build(doc); err != nil {
		t.Fatalf("%v\n%s", err, conv.YAML)
	}
	var bodies, joints []string
	for _, b := range doc.Spatial.Bodies {
		bodies = append(bodies, b.Name)
	}
	for _, j := range doc.Spatial.Joints {
		joints = append(joints, j.Name)
	}
	if got, want := strings.Join(bodies, " "), "ground_link arm_1 j2"; got != want {
		t.Errorf("bodies %q, want %q", got, want)
	}
	if got, want := strings.Join(joints, " "), "j1 j2_joint j3"; got != want {
		t.Errorf("joints %q, want %q", got, want)
	}
	if f := doc.Spatial.Forces; len(f) != 1 || f[0].Type != ForceBushing || f[0].Damping != (Vec3{0, 0, 2}) {
		t.Errorf("forces %+v, want the prismatic joint's damping as a bushing damping [0, 0, 2] along its axis", f)
	}
	ignored := strings.Join(conv.Ignored, "; ")
	for _, w := range []string{"visual (ground)", "collision (arm.1)", "limit (j2)", "mimic (j2)", "safety_controller (j2)",
		"dynamics friction (j3)", "transmission (t1)", "gazebo", "material (blue)"} {
		if !strings.Contains(ignored, w) {
			t.Errorf("Ignored %q does not list %q", ignored, w)
		}
		if !strings.Contains(string(conv.YAML), "#   "+w) {
			t.Errorf("the header comment does not list %q", w)
		}
	}
}

// TestURDFGroundInertialIgnored: the ground's links may carry any <inertial>, a mass of 0
// among them (fixed-base descriptions written for PyBullet do): it is ignored and listed.
func TestURDFGroundInertialIgnored(t *testing.T) {
	src := urdfDoc(`<link name="base"><inertial><mass value="0"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>`,
		`<link name="a">`+tInertial+`</link>`, `<joint name="j1" type="revolute"><parent link="base"/><child link="a"/></joint>`)
	conv, err := ConvertURDF("base.urdf", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(conv.Ignored, "; "); got != "inertial of ground links (base)" {
		t.Errorf("Ignored %q, want the base's inertial", got)
	}
}

// TestURDFFloatingJoint: a floating joint makes no joint: its child floats on the joint
// route's free joint (six coordinates) and falls freely, with the links below it.
func TestURDFFloatingJoint(t *testing.T) {
	src := urdfDoc(`<link name="world"/>`, `<link name="trunk">`+tInertial+`</link>`, `<link name="leg">`+tInertial+`</link>`,
		`<joint name="free" type="floating"><origin xyz="0 0 1"/><parent link="world"/><child link="trunk"/></joint>`,
		`<joint name="hip" type="revolute"><origin xyz="0 0 -0.5"/><parent link="trunk"/><child link="leg"/><axis xyz="0 1 0"/></joint>`)
	_, doc := convertURDFDoc(t, "floating", src, nil)
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	if b.DOF() != 7 || strings.Join(b.Joint3.Free, " ") != "trunk" {
		t.Errorf("%d degrees of freedom, free bodies %q; want 7 (6 of the floating trunk, the hip) and trunk", b.DOF(), b.Joint3.Free)
	}
	r, err := Run(b, RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	// Free fall of the whole: the trunk's centre of mass drops g t²/2 (the hip's torque
	// is internal and the leg hangs under the trunk's centre, so neither turns).
	z := r.Channel("trunk.z")
	if got, want := z[len(z)-1], 1-9.81*0.5*0.5/2; math.Abs(got-want) > 1e-8 {
		t.Errorf("trunk.z = %.10g at t = 0.5, want free fall %.10g", got, want)
	}
}

// TestURDFExamples: every examples/*.urdf converts, builds and runs its default simulation
// block (hht, tol 1e-6, t_end 1 s) to the end.
func TestURDFExamples(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.urdf")
	if len(files) == 0 {
		t.Fatal("no examples/*.urdf")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			doc, _, err := LoadURDF(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Build(doc)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Run(b, RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r.TEnd != 1 || r.Method != "hht" {
				t.Errorf("ran %s to %g, want the default block's hht to 1 s", r.Method, r.TEnd)
			}
		})
	}
}

// FuzzConvertURDF: no input panics ConvertURDF; every rejection is an ErrorList naming the
// file, and every conversion parses as a model file. Seeds: the test and example URDFs.
// Run with: go test -run '^$' -fuzz FuzzConvertURDF -fuzztime 30s ./modelfile/
func FuzzConvertURDF(f *testing.F) {
	for _, glob := range []string{"testdata/urdf/*.urdf", "../examples/*.urdf"} {
		files, _ := filepath.Glob(glob)
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		conv, err := ConvertURDF("fuzz.urdf", data, nil)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v is not an ErrorList", err)
			}
			for _, e := range list {
				if e.File != "fuzz.urdf" {
					t.Fatalf("error %q does not name the file", e)
				}
			}
			return
		}
		if _, err := Parse("fuzz.yaml", conv.YAML); err != nil {
			t.Fatalf("the converted model does not parse: %v\n%s", err, conv.YAML)
		}
	})
}

// TestURDFDampingMapped: <dynamics damping> acts as a viscous damper on the joint's
// coordinate. A block of 2 kg sliding on a prismatic joint (damping 0.5 N·s/m, no gravity
// along it) from 1 m/s travels x(t) = v0 (m/c)(1 − e^(−c t/m)); a wheel of 0.1 kg·m² about a
// vertical continuous joint (damping 0.05 N·m·s/rad) spinning at 3 rad/s slows as
// ω(t) = ω0 e^(−c t/J). dopri5 at tol 1e-10: both within 1e-7 of the closed forms at t = 1.
func TestURDFDampingMapped(t *testing.T) {
	src := urdfDoc(`<link name="world"/>`,
		`<link name="block"><inertial><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>`,
		`<link name="wheel"><inertial><mass value="1"/><inertia ixx="0.06" ixy="0" ixz="0" iyy="0.06" iyz="0" izz="0.1"/></inertial></link>`,
		`<joint name="slide" type="prismatic"><parent link="world"/><child link="block"/><axis xyz="1 0 0"/><dynamics damping="0.5"/></joint>`,
		`<joint name="spin" type="continuous"><origin xyz="0 1 0"/><parent link="world"/><child link="wheel"/><axis xyz="0 0 1"/><dynamics damping="0.05"/></joint>`)
	_, doc := convertURDFDoc(t, "damped", src, nil)
	st := doc.Spatial.Initial.Bodies["block"]
	st.Velocity = Vec3{1, 0, 0}
	doc.Spatial.Initial.Bodies["block"] = st
	st = doc.Spatial.Initial.Bodies["wheel"]
	st.AngularVelocity = Vec3{0, 0, 3}
	doc.Spatial.Initial.Bodies["wheel"] = st
	doc.Spatial.Simulation.Outputs = []string{"block", "wheel"}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(b, RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: 1})
	if err != nil {
		t.Fatal(err)
	}
	last := func(ch string) float64 { d := r.Channel(ch); return d[len(d)-1] }
	if got, want := last("block.x"), 1*(2/0.5)*(1-math.Exp(-0.5/2)); math.Abs(got-want) > 1e-7 {
		t.Errorf("block.x = %.10g at t = 1, want %.10g", got, want)
	}
	if got, want := last("wheel.wz"), 3*math.Exp(-0.05/0.1); math.Abs(got-want) > 1e-7 {
		t.Errorf("wheel.wz = %.10g at t = 1, want %.10g", got, want)
	}
}

// TestURDFFloatingBase: with FloatingBase the root link (and a link fixed to it) is a body
// on a free joint; released at rest, the robot falls as one rigid body (uniform gravity
// turns nothing about the centre of mass and moves no joint), so every body drops g t²/2.
// A root link without mass is then refused as a massless moving body.
func TestURDFFloatingBase(t *testing.T) {
	src := urdfDoc(`<link name="pelvis">`+tInertial+`</link>`, `<link name="imu"/>`, `<link name="leg">`+tInertial+`</link>`,
		`<joint name="imu_mount" type="fixed"><origin xyz="0 0 0.1"/><parent link="pelvis"/><child link="imu"/></joint>`,
		`<joint name="hip" type="revolute"><origin xyz="0.1 0 -0.5" rpy="0.3 0 0"/><parent link="pelvis"/><child link="leg"/><axis xyz="0 1 0"/></joint>`)
	conv, doc := convertURDFDoc(t, "humanoid", src, &URDFOptions{FloatingBase: true})
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	if b.DOF() != 7 || strings.Join(b.Joint3.Free, " ") != "pelvis" {
		t.Errorf("%d degrees of freedom, free bodies %q; want 7 and pelvis", b.DOF(), b.Joint3.Free)
	}
	if !strings.Contains(string(conv.YAML), "name: imu, body: pelvis") {
		t.Errorf("no marker for the imu frame on the pelvis:\n%s", conv.YAML)
	}
	r, err := Run(b, RunOptions{Method: "dopri5", Formulation: "index1-proj", Tol: 1e-10, TEnd: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	drop := 9.81 * 0.5 * 0.5 / 2
	for _, body := range []string{"pelvis", "leg"} {
		z := r.Channel(body + ".z")
		if got := z[0] - z[len(z)-1]; math.Abs(got-drop) > 1e-8 {
			t.Errorf("%s dropped %.10g m in 0.5 s, want %.10g", body, got, drop)
		}
	}
	src = strings.Replace(src, `<link name="pelvis">`+tInertial+`</link>`, `<link name="pelvis"/>`, 1)
	if _, err := ConvertURDF("humanoid.urdf", []byte(src), &URDFOptions{FloatingBase: true}); err == nil ||
		!strings.Contains(err.Error(), `link[pelvis]: link "pelvis" has no <inertial>`) || !strings.Contains(err.Error(), "floating base") {
		t.Errorf("massless floating base: %v; want it named", err)
	}
}
