package modelfile

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"linkage/spatial"
)

// urdf.go: URDF robot description (XML) ⇒ 3D model file (YAML text) in joint coordinates.
//
// URDF (http://wiki.ros.org/urdf/XML) describes a tree of links joined by joints. A link's
// <inertial> gives its mass, the pose of its centre-of-mass frame in the link frame
// (<origin xyz rpy>) and the inertia tensor about the centre of mass in that frame (ixx …
// izz, the tensor's entries). A joint's <origin> places its frame in the parent link's
// frame; at the zero joint value the child link's frame is the joint frame; the joint
// turns (revolute, continuous) or slides (prismatic) along <axis xyz> of the joint frame.
// rpy are fixed-axis roll, pitch, yaw: R = R_z(yaw) R_y(pitch) R_x(roll), the model file's
// `angles` convention.
//
// The conversion, and why:
//   - The root link (no parent joint) is the ground: robot descriptions are of fixed-base
//     robots unless a floating joint says otherwise (or URDFOptions.FloatingBase: then it
//     is a body on a free joint). The inertials of the ground's links are ignored (and not
//     checked: fixed-base descriptions often give the base mass 0).
//   - Links joined by fixed joints become one rigid body (their masses, centres of mass and
//     inertias composed, parallel-axis theorem), named after the link nearest the root:
//     the 3D joint route takes no weld joints. A link merged so keeps its frame as a marker
//     (named after the link) on that body. A moving body with no mass at all is an error.
//   - A body's frame has its origin at the centre of mass and the axes of the URDF link
//     frame of the link it is named after (so the inertia is the URDF tensor turned into
//     link axes, with off-diagonal terms where the inertial frame is turned).
//   - revolute and continuous → revolute, prismatic → translational; floating → no joint
//     (the joint route floats the body); planar → an error (not on the 3D joint route).
//   - Two markers per joint, JOINT.parent and JOINT.child, at the joint frame's origin with
//     axis = the joint axis and x_axis a common perpendicular, so the joint coordinate is
//     the URDF joint value (zero at the start, positive about or along the axis).
//   - dynamics damping → an rsda damper on the joint (revolute) or a bushing damping along
//     the axis (prismatic); limit, friction, mimic, safety_controller, calibration, visual,
//     collision, material, transmission, gazebo are not simulated and listed.

// URDFModel is a URDF robot description converted to a model file by ConvertURDF.
type URDFModel struct {
	YAML []byte // the model file, dimension 3, coordinates joint, with its comments
	// Ignored lists what the model does not simulate, one item per element kind with its
	// owners ("limit (shoulder, elbow)"); the YAML's header comment has the same.
	Ignored []string
}

// URDFOptions are the choices of ConvertURDF; nil takes the defaults.
type URDFOptions struct {
	// FloatingBase makes the root link (with the links fixed to it) a body on the joint
	// route's free joint, as a mobile robot's or a humanoid's base is, instead of the
	// ground [false: the root link is the ground, the base bolted down].
	FloatingBase bool
}

// ConvertURDF converts the URDF document data (named file in errors) to a 3D model file in
// joint coordinates: gravity [0, 0, −9.81], a body per moving link (links joined by fixed
// joints merged), markers at the joint frames, joints, the zero joint configuration as the
// start, and a default simulation block (hht, t_end 1 s) to edit. Bad input is an
// ErrorList whose entries name the element and its line: XML that is not well formed or
// not a <robot>, a joint naming a missing link, two root links, a loop, a non-positive mass
// or an inertia that is not positive definite on a moving body's link, a zero axis, a
// planar or unknown joint type, a moving body without mass.
func ConvertURDF(file string, data []byte, opt *URDFOptions) (*URDFModel, error) {
	if opt == nil {
		opt = &URDFOptions{}
	}
	root, err := parseXMLTree(file, data)
	if err != nil {
		return nil, ErrorList{err}
	}
	u := &urdfReader{file: file, ignored: map[string][]string{}, floatingBase: opt.FloatingBase}
	u.read(root)
	if len(u.errs) == 0 {
		u.tree()
	}
	if len(u.errs) == 0 {
		u.kinematics()
		u.merge()
	}
	if len(u.errs) > 0 {
		return nil, u.errs
	}
	out := &URDFModel{Ignored: u.ignoredList()}
	out.YAML = u.write(out.Ignored)
	return out, nil
}

// IsURDF reports whether path names a URDF file (its extension is .urdf, in any case),
// which LoadURDF reads instead of Load.
func IsURDF(path string) bool { return strings.EqualFold(filepath.Ext(path), ".urdf") }

// LoadURDF reads the URDF file at path (at most MaxFileBytes), converts it (ConvertURDF
// with opt) and parses the model file it makes, named path in errors.
func LoadURDF(path string, opt *URDFOptions) (*Document, *URDFModel, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("modelfile: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("modelfile: %w", err)
	}
	if len(data) > MaxFileBytes {
		return nil, nil, ErrorList{{File: path, Msg: fmt.Sprintf("larger than %d bytes (MaxFileBytes)", MaxFileBytes)}}
	}
	conv, err := ConvertURDF(path, data, opt)
	if err != nil {
		return nil, nil, err
	}
	doc, err := Parse(path, conv.YAML)
	if err != nil {
		return nil, nil, err
	}
	return doc, conv, nil
}

// xmlElem is an element of the XML tree with where it starts.
type xmlElem struct {
	name, space string
	attrs       []xml.Attr
	kids        []*xmlElem
	line, col   int
}

func (e *xmlElem) attr(name string) (string, bool) {
	for _, a := range e.attrs {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// kid returns the first child element called name, or nil.
func (e *xmlElem) kid(name string) *xmlElem {
	for _, k := range e.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

// parseXMLTree reads data into a tree of elements, each with its line and column (the
// position before its start tag: the decoder reports whitespace as a token of its own).
func parseXMLTree(file string, data []byte) (*xmlElem, *Error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []*xmlElem
	var root *xmlElem
	for {
		line, col := d.InputPos()
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, &Error{File: file, Line: se.Line, Column: 1, Msg: "not well-formed XML: " + se.Msg + "; want a URDF <robot> document"}
			}
			return nil, &Error{File: file, Line: line, Column: col, Msg: "not well-formed XML: " + err.Error() + "; want a URDF <robot> document"}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &xmlElem{name: t.Name.Local, space: t.Name.Space, attrs: slices.Clone(t.Attr), line: line, col: col}
			if len(stack) == 0 {
				if root != nil {
					return nil, &Error{File: file, Line: line, Column: col, Msg: fmt.Sprintf("a second root element <%s>; want one <robot>", e.name)}
				}
				root = e
			} else {
				p := stack[len(stack)-1]
				p.kids = append(p.kids, e)
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	if root == nil {
		return nil, &Error{File: file, Msg: "no XML element; want a URDF <robot> document"}
	}
	return root, nil
}

// pose3 is a rigid transformation: x_outer = R x_inner + p.
type pose3 struct {
	R spatial.Mat3
	p spatial.Vec3
}

func identityPose() pose3 { return pose3{R: spatial.Diag(1, 1, 1)} }

// then returns a ∘ b: b's frame given in a's, a's in the outer one.
func (a pose3) then(b pose3) pose3 {
	return pose3{R: matMul(a.R, b.R), p: a.p.Add(a.R.MulVec(b.p))}
}

func matMul(a, b spatial.Mat3) spatial.Mat3 {
	var c spatial.Mat3
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

func transpose(a spatial.Mat3) spatial.Mat3 {
	var t spatial.Mat3
	for i := range 3 {
		for j := range 3 {
			t[i][j] = a[j][i]
		}
	}
	return t
}

// rotateTensor returns R J Rᵀ, the tensor J of one frame's axes in the outer frame's.
func rotateTensor(R, J spatial.Mat3) spatial.Mat3 { return matMul(matMul(R, J), transpose(R)) }

type urdfLink struct {
	raw string // the name as written
	el  *xmlElem
	// inertial, if any
	inertial  bool
	mass      float64
	com       pose3        // the inertial frame in the link frame
	J         spatial.Mat3 // inertia about the centre of mass, inertial-frame axes
	massEl    *xmlElem     // <mass>, <inertia>: where checkInertial's errors point
	inertiaEl *xmlElem
	parent    *urdfJoint
	kids      []*urdfJoint
	world     pose3      // link frame in the world at the zero joint configuration
	group     *urdfGroup // the body it belongs to
}

type urdfJoint struct {
	raw, typ      string // name as written, URDF type
	el            *xmlElem
	parent, child string // link names as written
	origin        pose3
	axis          spatial.Vec3 // unit
	damping       float64
}

// urdfGroup is a rigid body: links joined by fixed joints, named after the first (its
// root); ground marks the root link's group unless FloatingBase.
type urdfGroup struct {
	root   *urdfLink
	links  []*urdfLink
	ground bool
	name   string
	mass   float64
	com    spatial.Vec3 // world, at the start
	R      spatial.Mat3 // body axes: the root link's
	J      spatial.Mat3 // inertia about com in body axes
}

type urdfReader struct {
	file string
	// floatingBase: the root link's group is a floating body, and the ground holds no link.
	floatingBase bool
	robot        string
	links        []*urdfLink
	joints       []*urdfJoint
	byName       map[string]*urdfLink
	root         *urdfLink
	order        []*urdfLink // parents before children
	groups       []*urdfGroup
	errs         ErrorList
	ignored      map[string][]string // element kind → owners
	kinds        []string            // ignored kinds in the order first seen
}

func (u *urdfReader) errorf(e *xmlElem, path, format string, args ...any) {
	if len(u.errs) >= maxErrors {
		return
	}
	err := &Error{File: u.file, Path: path, Msg: fmt.Sprintf(format, args...)}
	if e != nil {
		err.Line, err.Column = e.line, e.col
	}
	u.errs = append(u.errs, err)
}

func (u *urdfReader) ignore(kind, owner string) {
	owners, seen := u.ignored[kind]
	if !seen {
		u.kinds = append(u.kinds, kind)
	}
	owner = oneLine(owner)
	if owner != "" && !slices.Contains(owners, owner) {
		owners = append(owners, owner)
	}
	u.ignored[kind] = owners
}

func (u *urdfReader) read(root *xmlElem) {
	if root.name != "robot" {
		u.errorf(root, "", "not a URDF file: the root element is <%s>; want <robot>", root.name)
		return
	}
	u.robot, _ = root.attr("name")
	u.byName = map[string]*urdfLink{}
	seenJoint := map[string]bool{}
	for _, e := range root.kids {
		if strings.Contains(e.space, "xacro") {
			u.errorf(e, "", "<xacro:%s>: a xacro macro file, not URDF; expand it first (xacro FILE.urdf.xacro > FILE.urdf)", e.name)
			continue
		}
		switch e.name {
		case "link":
			l := u.readLink(e)
			if l == nil {
				continue
			}
			if u.byName[l.raw] != nil {
				u.errorf(e, "link["+l.raw+"]", "link %q is defined twice (first at line %d); want unique link names", l.raw, u.byName[l.raw].el.line)
				continue
			}
			u.byName[l.raw] = l
			u.links = append(u.links, l)
		case "joint":
			j := u.readJoint(e)
			if j == nil {
				continue
			}
			if seenJoint[j.raw] {
				u.errorf(e, "joint["+j.raw+"]", "joint %q is defined twice; want unique joint names", j.raw)
				continue
			}
			seenJoint[j.raw] = true
			u.joints = append(u.joints, j)
		case "transmission", "gazebo", "material":
			name, _ := e.attr("name")
			u.ignore(e.name, name)
		default:
			u.ignore("<"+e.name+">", "")
		}
	}
	if len(u.links) == 0 && len(u.errs) == 0 {
		u.errorf(root, "robot", "no <link>; want at least a root link and a moving one")
	}
}

func (u *urdfReader) name(e *xmlElem, kind string) (string, bool) {
	n, ok := e.attr("name")
	if !ok || strings.TrimSpace(n) == "" {
		u.errorf(e, kind, "<%s> without a name; want name=\"...\"", kind)
		return "", false
	}
	return n, true
}

func (u *urdfReader) readLink(e *xmlElem) *urdfLink {
	raw, ok := u.name(e, "link")
	if !ok {
		return nil
	}
	l := &urdfLink{raw: raw, el: e, com: identityPose()}
	path := "link[" + raw + "]"
	for _, k := range e.kids {
		switch k.name {
		case "inertial":
			if l.inertial {
				u.errorf(k, path+".inertial", "a second <inertial>; want one per link")
				continue
			}
			u.readInertial(l, k, path+".inertial")
		case "visual", "collision":
			u.ignore(k.name, raw)
		default:
			u.ignore("<"+k.name+"> in links", raw)
		}
	}
	return l
}

func (u *urdfReader) readInertial(l *urdfLink, e *xmlElem, path string) {
	l.inertial = true
	if o := e.kid("origin"); o != nil {
		l.com = u.readOrigin(o, path+".origin")
	}
	m := e.kid("mass")
	if m == nil {
		u.errorf(e, path, "link %q: <inertial> without <mass>; want <mass value=\"...\"/> in kg", l.raw)
	} else if v, ok := u.number(m, "value", path+".mass", true); ok {
		l.mass, l.massEl = v, m
	}
	in := e.kid("inertia")
	if in == nil {
		u.errorf(e, path, "link %q: <inertial> without <inertia>; want <inertia ixx=... ixy=... ixz=... iyy=... iyz=... izz=.../> in kg·m²", l.raw)
		return
	}
	var c [6]float64
	for k, a := range []string{"ixx", "ixy", "ixz", "iyy", "iyz", "izz"} {
		v, ok := u.number(in, a, path+".inertia", true)
		if !ok {
			return
		}
		c[k] = v
	}
	l.J = spatial.Mat3{{c[0], c[1], c[2]}, {c[1], c[3], c[4]}, {c[2], c[4], c[5]}}
	l.inertiaEl = in
}

// checkInertial refuses a non-positive mass and an inertia that is not positive definite
// on a link of a moving body (the ground's inertials are ignored: a base of mass 0, as
// fixed-base descriptions often have, is no error).
func (u *urdfReader) checkInertial(l *urdfLink) {
	path := "link[" + l.raw + "].inertial"
	if l.massEl != nil && !(l.mass > 0) {
		u.errorf(l.massEl, path+".mass", "link %q: mass = %g kg; want a positive number (a massless link: leave out <inertial> and join it by a fixed joint)", l.raw, l.mass)
	}
	if J := l.J; l.inertiaEl != nil && !posDef3(J) {
		u.errorf(l.inertiaEl, path+".inertia", "link %q: inertia [ixx ixy ixz; · iyy iyz; · · izz] = [%g %g %g; · %g %g; · · %g] kg·m² is not positive definite; want a physical inertia tensor about the centre of mass",
			l.raw, J[0][0], J[0][1], J[0][2], J[1][1], J[1][2], J[2][2])
	}
}

// posDef3 tests a symmetric 3×3 matrix by its leading principal minors (Sylvester).
func posDef3(J spatial.Mat3) bool {
	d1 := J[0][0]
	d2 := J[0][0]*J[1][1] - J[0][1]*J[1][0]
	d3 := J[0][0]*(J[1][1]*J[2][2]-J[1][2]*J[2][1]) - J[0][1]*(J[1][0]*J[2][2]-J[1][2]*J[2][0]) + J[0][2]*(J[1][0]*J[2][1]-J[1][1]*J[2][0])
	return d1 > 0 && d2 > 0 && d3 > 0
}

// number reads attribute name of e as a finite number.
func (u *urdfReader) number(e *xmlElem, name, path string, required bool) (float64, bool) {
	s, ok := e.attr(name)
	if !ok {
		if required {
			u.errorf(e, path, "<%s> without %s; want %s=\"NUMBER\"", e.name, name, name)
		}
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		u.errorf(e, path, "%s = %q; want a finite number", name, s)
		return 0, false
	}
	return v, true
}

// vector reads attribute name of e as three finite numbers separated by spaces; def when
// absent.
func (u *urdfReader) vector(e *xmlElem, name, path string, def spatial.Vec3) (spatial.Vec3, bool) {
	s, ok := e.attr(name)
	if !ok {
		return def, true
	}
	f := strings.Fields(s)
	var v spatial.Vec3
	if len(f) != 3 {
		u.errorf(e, path, "%s = %q; want three numbers separated by spaces", name, s)
		return def, false
	}
	for k := range 3 {
		x, err := strconv.ParseFloat(f[k], 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			u.errorf(e, path, "%s = %q; want three finite numbers separated by spaces", name, s)
			return def, false
		}
		v[k] = x
	}
	return v, true
}

func (u *urdfReader) readOrigin(e *xmlElem, path string) pose3 {
	xyz, _ := u.vector(e, "xyz", path, spatial.Vec3{})
	rpy, _ := u.vector(e, "rpy", path, spatial.Vec3{})
	return pose3{R: spatial.QuatFromRollPitchYaw(rpy[0], rpy[1], rpy[2]).Matrix(), p: xyz}
}

// The URDF joint types.
const (
	urdfRevolute   = "revolute"
	urdfContinuous = "continuous"
	urdfPrismatic  = "prismatic"
	urdfFixed      = "fixed"
	urdfFloating   = "floating"
	urdfPlanar     = "planar"
)

func (u *urdfReader) readJoint(e *xmlElem) *urdfJoint {
	raw, ok := u.name(e, "joint")
	if !ok {
		return nil
	}
	path := "joint[" + raw + "]"
	j := &urdfJoint{raw: raw, el: e, origin: identityPose(), axis: spatial.Vec3{1, 0, 0}}
	j.typ, _ = e.attr("type")
	switch j.typ {
	case urdfRevolute, urdfContinuous, urdfPrismatic, urdfFixed, urdfFloating:
	case urdfPlanar:
		u.errorf(e, path+".type", "joint %q: planar joints are not available on the 3D joint route that URDF models are built on (coordinates: joint); want revolute, continuous, prismatic, fixed or floating", raw)
	default:
		u.errorf(e, path+".type", "joint %q: type %q; want revolute, continuous, prismatic, fixed or floating", raw, j.typ)
	}
	var axisEl *xmlElem
	for _, k := range e.kids {
		switch k.name {
		case "origin":
			j.origin = u.readOrigin(k, path+".origin")
		case "parent", "child":
			l, ok := k.attr("link")
			if !ok {
				u.errorf(k, path+"."+k.name, "joint %q: <%s> without link; want link=\"NAME\"", raw, k.name)
			}
			if k.name == "parent" {
				j.parent = l
			} else {
				j.child = l
			}
		case "axis":
			axisEl = k
			j.axis, _ = u.vector(k, "xyz", path+".axis", j.axis)
		case "dynamics":
			if d, ok := u.number(k, "damping", path+".dynamics", false); ok && d != 0 {
				if d < 0 {
					u.errorf(k, path+".dynamics", "joint %q: damping = %g; want a number >= 0", raw, d)
				}
				j.damping = d
			}
			if f, ok := u.number(k, "friction", path+".dynamics", false); ok && f != 0 {
				u.ignore("dynamics friction", raw)
			}
		case "limit", "mimic", "safety_controller", "calibration":
			u.ignore(k.name, raw)
		default:
			u.ignore("<"+k.name+"> in joints", raw)
		}
	}
	for _, role := range []string{"parent", "child"} {
		if e.kid(role) == nil {
			u.errorf(e, path, "joint %q has no <%s link=\"...\"/>; want a parent and a child link", raw, role)
		}
	}
	if moves := j.typ == urdfRevolute || j.typ == urdfContinuous || j.typ == urdfPrismatic; moves {
		n := j.axis.Norm()
		if n == 0 || math.IsInf(n, 0) {
			u.errorf(axisEl, path+".axis", "joint %q: axis xyz = \"0 0 0\"; want a non-zero direction", raw)
		} else {
			j.axis = j.axis.Scale(1 / n)
		}
	}
	if j.damping > 0 && (j.typ == urdfFixed || j.typ == urdfFloating) {
		u.ignore("dynamics damping", raw)
		j.damping = 0
	}
	return j
}

// tree links the joints to their links and finds the root; it refuses missing links, a
// link with two parents, two roots and loops.
func (u *urdfReader) tree() {
	for _, j := range u.joints {
		path := "joint[" + j.raw + "]"
		p, c := u.byName[j.parent], u.byName[j.child]
		for _, x := range []struct {
			role, name string
			l          *urdfLink
		}{{"parent", j.parent, p}, {"child", j.child, c}} {
			if x.l == nil && x.name != "" {
				u.errorf(j.el.kid(x.role), path+"."+x.role, "joint %q: %s link %q is not defined; want one of: %s", j.raw, x.role, x.name, u.linkNames())
			}
		}
		if p == nil || c == nil {
			continue
		}
		switch {
		case p == c:
			u.errorf(j.el, path, "joint %q joins link %q to itself: a loop; URDF describes a tree", j.raw, j.parent)
			continue
		case c.parent != nil:
			u.errorf(j.el, path, "joint %q: link %q is already the child of joint %q (line %d): a loop or a link with two parents; URDF describes a tree", j.raw, j.child, c.parent.raw, c.parent.el.line)
			continue
		}
		c.parent = j
		p.kids = append(p.kids, j)
	}
	if len(u.errs) > 0 {
		return
	}
	var roots []*urdfLink
	for _, l := range u.links {
		if l.parent == nil {
			roots = append(roots, l)
		}
	}
	switch {
	case len(roots) == 0:
		u.errorf(u.links[0].el, "link["+u.links[0].raw+"]", "every link is the child of a joint: the joints form a loop, and there is no root link; URDF describes a tree")
		return
	case len(roots) > 1:
		var s []string
		for _, r := range roots {
			s = append(s, fmt.Sprintf("%q (line %d)", r.raw, r.el.line))
		}
		u.errorf(roots[1].el, "link["+roots[1].raw+"]", "%d root links (without a parent joint): %s; want one, the others joined to the tree by joints", len(roots), strings.Join(s, ", "))
		return
	}
	u.root = roots[0]
	u.order = []*urdfLink{u.root}
	for k := 0; k < len(u.order); k++ {
		for _, j := range u.order[k].kids {
			u.order = append(u.order, u.byName[j.child])
		}
	}
	if len(u.order) < len(u.links) {
		for _, l := range u.links {
			if !slices.Contains(u.order, l) {
				u.errorf(l.parent.el, "joint["+l.parent.raw+"]", "link %q is not connected to the root link %q: joint %q closes a loop; URDF describes a tree", l.raw, u.root.raw, l.parent.raw)
				return
			}
		}
	}
}

func (u *urdfReader) linkNames() string {
	var s []string
	for _, l := range u.links {
		s = append(s, l.raw)
	}
	if len(s) > 10 {
		s = append(s[:10], "…")
	}
	return strings.Join(s, ", ")
}

// kinematics places every link at the zero joint configuration: the child's frame is the
// joint frame, the parent's frame composed with the joint's origin.
func (u *urdfReader) kinematics() {
	u.root.world = identityPose()
	for _, l := range u.order[1:] {
		j := l.parent
		l.world = u.byName[j.parent].world.then(j.origin)
	}
}

// merge merges the links joined by fixed joints into bodies and composes their mass
// properties about the common centre of mass:
//
//	m = Σ m_k,   c = Σ m_k c_k / m,   J = Σ R_k J_k R_kᵀ + m_k (|d_k|² E − d_k d_kᵀ),  d_k = c_k − c
//
// in world axes, then turned into the body's axes (those of its root link).
func (u *urdfReader) merge() {
	for _, l := range u.order {
		if l == u.root || l.parent.typ != urdfFixed {
			g := &urdfGroup{root: l, ground: l == u.root && !u.floatingBase, R: l.world.R}
			u.groups = append(u.groups, g)
			l.group = g
		} else {
			l.group = u.byName[l.parent.parent].group
		}
		l.group.links = append(l.group.links, l)
	}
	if len(u.groups) == 1 && !u.floatingBase {
		u.errorf(u.root.el, "link["+u.root.raw+"]", "no moving link: every link is the root link %q or fixed to it; want a link that a revolute, continuous, prismatic or floating joint carries", u.root.raw)
		return
	}
	for _, g := range u.groups {
		if g.ground {
			for _, l := range g.links {
				if l.inertial {
					u.ignore("inertial of ground links", l.raw)
				}
			}
			continue
		}
		for _, l := range g.links {
			if l.inertial {
				u.checkInertial(l)
			}
		}
		var mc spatial.Vec3
		massive := false
		for _, l := range g.links {
			if l.inertial {
				massive = true
				g.mass += l.mass
				mc = mc.Add(l.world.then(l.com).p.Scale(l.mass))
			}
		}
		if !massive {
			moves := "it floats (the floating base)"
			if g.root.parent != nil {
				moves = fmt.Sprintf("joint %q moves it", g.root.parent.raw)
			}
			u.errorf(g.root.el, "link["+g.root.raw+"]", "link %q has no <inertial>, nor does any link fixed to it, and %s: a massless moving body, which linkage cannot simulate; give it an <inertial>, or join it to a link with one by a fixed joint",
				g.root.raw, moves)
			continue
		}
		g.com = mc.Scale(1 / g.mass)
		var Jw spatial.Mat3
		for _, l := range g.links {
			if !l.inertial {
				continue
			}
			f := l.world.then(l.com)
			Jk := rotateTensor(f.R, l.J)
			d := f.p.Sub(g.com)
			dd := d.Dot(d)
			for a := range 3 {
				for b := range 3 {
					Jw[a][b] += Jk[a][b] - l.mass*d[a]*d[b]
				}
				Jw[a][a] += l.mass * dd
			}
		}
		g.J = rotateTensor(transpose(g.R), Jw)
		if finite := func() bool {
			for _, x := range append(g.com[:], g.J[0][0], g.J[0][1], g.J[0][2], g.J[1][1], g.J[1][2], g.J[2][2], g.mass) {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return false
				}
			}
			return true
		}(); !finite || !posDef3(g.J) {
			u.errorf(g.root.el, "link["+g.root.raw+"]", "body %q: its mass properties, composed of its links', are not finite or its inertia is not positive definite in double precision; want the masses, lengths and inertias of a physical robot", g.root.raw)
		}
		for a := range 3 { // symmetric to the last bit, as the file writes one triangle
			for b := range a {
				g.J[a][b] = (g.J[a][b] + g.J[b][a]) / 2
				g.J[b][a] = g.J[a][b]
			}
		}
	}
}

func (u *urdfReader) ignoredList() []string {
	var out []string
	for _, k := range u.kinds {
		owners := u.ignored[k]
		var s string
		switch {
		case len(owners) == 0 || len(owners) == 1 && owners[0] == "":
			s = k
		case len(owners) <= 6:
			s = fmt.Sprintf("%s (%s)", k, strings.Join(owners, ", "))
		default:
			s = fmt.Sprintf("%s (%d: %s, …)", k, len(owners), strings.Join(owners[:5], ", "))
		}
		out = append(out, s)
	}
	return out
}

// urdfNames gives every body, joint and force a unique name of the model file (they share a
// namespace; '.', ',', '*', '"', white space and '$' (which would start a ${...}
// expression) become '_'; the reserved names get a suffix) and the markers theirs.
type urdfNames struct {
	used    map[string]bool
	markers bool // marker names, which may hold '.'
}

func (n *urdfNames) make(raw, suffix string) string {
	var b strings.Builder
	for _, r := range raw {
		if r == '.' && !n.markers || strings.ContainsRune(",*\"$", r) || unicode.IsSpace(r) || unicode.IsControl(r) {
			r = '_'
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" || s == groundName || s == "energy" || s == "residual" || s == "t" {
		s += "_" + suffix
	}
	if n.used[s] {
		base := s + "_" + suffix
		s = base
		for k := 2; n.used[s]; k++ {
			s = fmt.Sprintf("%s_%d", base, k)
		}
	}
	n.used[s] = true
	return s
}

// oneLine replaces control characters (a name may hold a newline written &#10;) by
// spaces, so that a name stays on its comment line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

var bareYAML = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-]*$`)

// yq writes a name as a YAML scalar: bare when it is a plain identifier, else double-quoted.
func yq(s string) string {
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return strconv.Quote(s)
	}
	if bareYAML.MatchString(s) {
		return s
	}
	return strconv.Quote(s)
}

// num writes x with 15 significant digits (the last bits' noise of the rotations gone,
// 0.30000000000000004 written 0.3) and the values below tiny written as 0.
func num(x, tiny float64) string {
	if math.Abs(x) < tiny {
		return "0"
	}
	return strconv.FormatFloat(x, 'g', 15, 64)
}

func vec(v spatial.Vec3, tiny float64) string {
	return "[" + num(v[0], tiny) + ", " + num(v[1], tiny) + ", " + num(v[2], tiny) + "]"
}

// perpendicular returns a unit vector perpendicular to the unit vector a: the basis
// vector least aligned with a, made orthogonal to it.
func perpendicular(a spatial.Vec3) spatial.Vec3 {
	k := 0
	for i := 1; i < 3; i++ {
		if math.Abs(a[i]) < math.Abs(a[k]) {
			k = i
		}
	}
	var e spatial.Vec3
	e[k] = 1
	x := e.Sub(a.Scale(e.Dot(a)))
	return x.Scale(1 / x.Norm())
}

// lengthTiny: coordinates below a femtometre are rounding noise of the rotations.
const lengthTiny = 1e-15

// unitTiny: components of unit vectors and quaternions below it are rounding noise.
const unitTiny = 1e-15

func (u *urdfReader) write(ignored []string) []byte {
	var b bytes.Buffer
	nm := &urdfNames{used: map[string]bool{}}
	mk := &urdfNames{used: map[string]bool{}, markers: true}
	for _, g := range u.groups {
		if g.ground {
			g.name = groundName
			continue
		}
		g.name = nm.make(g.root.raw, "link")
	}
	robot := u.robot
	if robot == "" {
		robot = "robot"
	}
	fmt.Fprintf(&b, "# Imported by `linkage import` from the URDF robot %q (%s): edit freely.\n", robot, oneLine(u.file))
	b.WriteString("# Bodies: one per moving link, with the links joined to it by fixed joints merged in\n" +
		"# (masses, centres of mass and inertias composed). A body frame has its origin at the\n" +
		"# centre of mass and the axes of the URDF link frame; inertia about it in those axes.\n" +
		"# Markers JOINT.parent and JOINT.child sit at the URDF joint frame with axis = the joint\n" +
		"# axis, so each joint coordinate is the URDF joint value. The start is the zero joint\n" +
		"# configuration (docs/model-format.md, \"Importing URDF\").\n")
	if u.floatingBase {
		fmt.Fprintf(&b, "# Floating base: root link %q (body %s) floats on a free joint.\n", u.root.raw, u.groups[0].name)
	} else {
		fmt.Fprintf(&b, "# Ground: root link %q", u.root.raw)
		if g := u.groups[0]; len(g.links) > 1 {
			var s []string
			for _, l := range g.links[1:] {
				s = append(s, oneLine(l.raw))
			}
			fmt.Fprintf(&b, " with %s fixed to it", strings.Join(s, ", "))
		}
		b.WriteString(".\n")
	}
	moving := u.groups[1:]
	if u.floatingBase {
		moving = u.groups
	}
	for _, g := range moving {
		if len(g.links) > 1 {
			var s []string
			for _, l := range g.links[1:] {
				s = append(s, fmt.Sprintf("%s (joint %s)", oneLine(l.raw), oneLine(l.parent.raw)))
			}
			fmt.Fprintf(&b, "# Merged into body %s: %s.\n", g.name, strings.Join(s, ", "))
		}
	}
	var floating []string
	for _, j := range u.joints {
		if j.typ == urdfFloating {
			floating = append(floating, u.byName[j.child].group.name)
		}
	}
	if len(floating) > 0 {
		fmt.Fprintf(&b, "# Floating (no joint; a free joint on the joint route): %s.\n", strings.Join(floating, ", "))
	}
	if len(ignored) > 0 {
		b.WriteString("# Not simulated (ignored):\n")
		for _, s := range ignored {
			fmt.Fprintf(&b, "#   %s\n", s)
		}
	}
	// Free text is read for ${...} expressions too (repeat.go): "$" is written "$ ".
	text := func(s string) string { return strconv.Quote(strings.ReplaceAll(s, "$", "$ ")) }
	fmt.Fprintf(&b, "name: %s\n", text(robot))
	fmt.Fprintf(&b, "description: %s\n", text("imported from URDF "+u.file))
	b.WriteString("dimension: 3\ncoordinates: joint\ngravity: [0, 0, -9.81]\n\nbodies:\n")
	for _, g := range moving {
		tr := g.J[0][0] + g.J[1][1] + g.J[2][2]
		t := 1e-15 * tr // off-diagonal rounding noise of the turned tensors
		J := []string{num(g.J[0][0], 0), num(g.J[1][1], 0), num(g.J[2][2], 0), num(g.J[0][1], t), num(g.J[0][2], t), num(g.J[1][2], t)}
		if J[3] == "0" && J[4] == "0" && J[5] == "0" { // body axes are principal: [Jxx, Jyy, Jzz]
			J = J[:3]
		}
		fmt.Fprintf(&b, "  - {name: %s, mass: %s, inertia: [%s]}\n", yq(g.name), num(g.mass, 0), strings.Join(J, ", "))
	}
	// Markers: body frame coordinates of a world point and direction.
	local := func(g *urdfGroup, p, d spatial.Vec3) (spatial.Vec3, spatial.Vec3) {
		if g.ground {
			return p, d
		}
		return g.R.MulTVec(p.Sub(g.com)), g.R.MulTVec(d)
	}
	var markers bytes.Buffer
	type jointOut struct {
		j          *urdfJoint
		name, i, k string
	}
	var outs []jointOut
	for _, l := range u.order[1:] {
		j := l.parent
		if j.typ == urdfFloating {
			continue
		}
		if j.typ == urdfFixed {
			if g := l.group; !g.ground {
				pt, ax := local(g, l.world.p, l.world.R.MulVec(spatial.Vec3{0, 0, 1}))
				_, xa := local(g, l.world.p, l.world.R.MulVec(spatial.Vec3{1, 0, 0}))
				fmt.Fprintf(&markers, "  - {name: %s, body: %s, point: %s, axis: %s, x_axis: %s}   # frame of link %s\n",
					yq(mk.make(l.raw, "frame")), yq(g.name), vec(pt, lengthTiny), vec(ax, unitTiny), vec(xa, unitTiny), oneLine(l.raw))
			}
			continue
		}
		pg := u.byName[j.parent].group
		jw := l.world // the joint frame is the child link's frame at the start
		aw := jw.R.MulVec(j.axis)
		xw := jw.R.MulVec(perpendicular(j.axis))
		name := nm.make(j.raw, "joint")
		o := jointOut{j: j, name: name, i: mk.make(name+".parent", "marker"), k: mk.make(name+".child", "marker")}
		outs = append(outs, o)
		pi, ai := local(pg, jw.p, aw)
		_, xi := local(pg, jw.p, xw)
		pj, aj := local(l.group, jw.p, aw)
		_, xj := local(l.group, jw.p, xw)
		fmt.Fprintf(&markers, "  - {name: %s, body: %s, point: %s, axis: %s, x_axis: %s}\n", yq(o.i), yq(pg.name), vec(pi, lengthTiny), vec(ai, unitTiny), vec(xi, unitTiny))
		fmt.Fprintf(&markers, "  - {name: %s, body: %s, point: %s, axis: %s, x_axis: %s}\n", yq(o.k), yq(l.group.name), vec(pj, lengthTiny), vec(aj, unitTiny), vec(xj, unitTiny))
	}
	if markers.Len() > 0 {
		b.WriteString("\nmarkers:\n")
		b.Write(markers.Bytes())
	}
	if len(outs) > 0 {
		b.WriteString("\njoints:\n")
	}
	var forces []string
	for _, o := range outs {
		typ := JointRevolute
		if o.j.typ == urdfPrismatic {
			typ = JointTranslational
		}
		comment := ""
		if o.j.typ == urdfContinuous {
			comment = "   # URDF continuous"
		}
		fmt.Fprintf(&b, "  - {name: %s, type: %s, i: %s, j: %s}%s\n", yq(o.name), typ, yq(o.i), yq(o.k), comment)
		if o.j.damping > 0 {
			f := nm.make(o.name+"_damping", "force")
			if typ == JointRevolute {
				forces = append(forces, fmt.Sprintf("  - {name: %s, type: rsda, joint: %s, c: %s}   # URDF dynamics damping, N·m·s/rad", yq(f), yq(o.name), num(o.j.damping, 0)))
			} else {
				forces = append(forces, fmt.Sprintf("  - {name: %s, type: bushing, i: %s, j: %s, damping: [0, 0, %s]}   # URDF dynamics damping along the axis, N·s/m", yq(f), yq(o.i), yq(o.k), num(o.j.damping, 0)))
			}
		}
	}
	if len(forces) > 0 {
		b.WriteString("\nforces:\n" + strings.Join(forces, "\n") + "\n")
	}
	b.WriteString("\ninitial:   # the zero joint configuration, at rest\n  bodies:\n")
	for _, g := range moving {
		p := spatial.QuatFromMatrix(g.R)
		fmt.Fprintf(&b, "    %s: {position: %s, quaternion: [%s, %s, %s, %s]}\n", yq(g.name), vec(g.com, lengthTiny),
			num(p[0], unitTiny), num(p[1], unitTiny), num(p[2], unitTiny), num(p[3], unitTiny))
	}
	b.WriteString("\nsimulation:   # a default: edit the method, tolerance, end time and outputs\n  method: hht\n  tol: 1.0e-6\n  t_end: 1\n")
	return b.Bytes()
}
