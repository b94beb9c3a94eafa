package modelfile

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"linkage/joint"
	"linkage/law"
	"linkage/spatial"
)

// Joint3Built is the joint-coordinate part of a Built for a 3D model (coordinates: joint):
// a tree of spherical, revolute, translational, cylindrical and universal joints (and free
// joints of floating bodies) in relative coordinates (package joint, seed 002 §3.3) whose
// remaining joints are cut joints. Built's Integrated, Consistent and Start hold the rest.
//
// Every frame of the tree is oriented as the world at the start (every joint coordinate is
// zero there), so a spherical joint's Cardan angles start at zero, as far from their
// singularity (middle angle ±90°) as they can be.
type Joint3Built struct {
	Model     *joint.Model
	System    *JointMechanism
	Tree      []string // the joints of the spanning tree, in the order they were added
	Cuts      []string // the joints that close loops (cut joints)
	Free      []string // the floating bodies, each the root of a tree on a free joint
	frames    map[string]frame3
	parent    []int  // parent coordinate of each coordinate (joint.Ground at the root)
	axis      []vec3 // rotation axis of each coordinate in its parent's frame; zero for a translation
	drives    map[string]int
	cardan    []cardanJoint        // the spherical joints' Cardan angles, for the singularity's message
	reactions map[string]reaction3 // where each joint's reaction is read (jointReaction3)
}

type vec3 = [3]float64

// frame3 places a body in the frame of its tree joint: its centre of mass at com (frame
// coordinates) and its orientation p0 (Euler parameters) when the frame is the world's.
type frame3 struct {
	f   int
	com vec3
	p0  spatial.Quat
}

// treeJoint is a joint of the spanning tree entered from parent marker ma to child marker
// mb (indices into the markers); s is +1 when the child is marker j's body, −1 when it is
// marker i's.
type treeJoint struct {
	jt     Joint3
	ma, mb int
	s      float64
	free   string // a floating body joined to the ground by a free joint (jt, ma, mb unused)
}

// assembleJoint3 builds a 3D doc in joint coordinates. As for planar models, the start is
// made consistent in body coordinates first (the initial section is written in them; a
// guess that satisfies every row is taken as it is, Built.consistentPoses) and the joint
// coordinates and rates are read from it. The spanning tree grows from ground in
// breadth-first passes over the joints in file order: a joint joins the tree when one of
// its bodies was in the tree at the start of the pass and the other is not yet; within a
// pass spherical joints come last, since their cut rows are the fewest. Every joint may be
// entered from either side. The joints left over close loops and become cut joints: the
// rows of each keep the body route's conditions (tree3Builder.cut).
func assembleJoint3(doc *Document) (*Built, mechanism, error) {
	tree, cuts := spanningTree3(doc)
	body, mech, err := assemble3(doc)
	if err != nil {
		return nil, nil, err
	}
	if err := body.consistentPoses(mech); err != nil {
		return nil, nil, err
	}
	jb, err := buildJoint3(doc, body, tree, cuts)
	if err != nil {
		return nil, nil, err
	}
	return &Built{Doc: doc, Joint3: jb}, jb.System, nil
}

// spanningTree3 orders the tree joints (assembleJoint3), each floating body's free joint
// where the tree stops growing, and returns the cut joints.
func spanningTree3(doc *Document) ([]treeJoint, []Joint3) {
	m := doc.Spatial
	markerIndex := map[string]int{}
	for k, mk := range m.Markers {
		markerIndex[mk.Name] = k
	}
	bodyOf := func(marker string) string { return m.Markers[markerIndex[marker]].Body }
	in := map[string]bool{groundName: true}
	added := map[string]bool{}
	var tree []treeJoint
	ps := newPasses([]string{groundName}, len(m.Joints), func(k int) (string, string) {
		return bodyOf(m.Joints[k].I), bodyOf(m.Joints[k].J)
	})
	for {
		for cand := ps.next(); len(cand) > 0; cand = ps.next() {
			for _, spherical := range []bool{false, true} {
				for _, k := range cand {
					jt := m.Joints[k]
					if added[jt.Name] || (jt.Type == JointSpherical) != spherical || jt.Type == JointPointOnLine || jt.Type == JointRollingDisk { // never tree joints
						continue
					}
					bi, bj := bodyOf(jt.I), bodyOf(jt.J)
					switch {
					case ps.at(bi) && !in[bj]:
						tree = append(tree, treeJoint{jt: jt, ma: markerIndex[jt.I], mb: markerIndex[jt.J], s: 1})
						in[bj] = true
						ps.join(bj)
					case ps.at(bj) && !in[bi]:
						tree = append(tree, treeJoint{jt: jt, ma: markerIndex[jt.J], mb: markerIndex[jt.I], s: -1})
						in[bi] = true
						ps.join(bi)
					default:
						continue
					}
					added[jt.Name] = true
				}
			}
		}
		// No joint leads out of the tree: the first body left over floats, joined to the
		// ground by a free joint (as it is free in body coordinates), and the tree grows on
		// from it.
		k := slices.IndexFunc(m.Bodies, func(b Body3) bool { return !in[b.Name] })
		if k < 0 {
			break
		}
		tree = append(tree, treeJoint{free: m.Bodies[k].Name})
		in[m.Bodies[k].Name] = true
		ps.join(m.Bodies[k].Name)
	}
	var cuts []Joint3
	for _, jt := range m.Joints {
		if !added[jt.Name] {
			cuts = append(cuts, jt)
		}
	}
	return tree, cuts
}

// tree3Builder adds the joints of a 3D model to a joint.Model, reading the joint
// coordinates' offsets and rates from the consistent start of the body route.
type tree3Builder struct {
	doc    *Document
	m      *SpatialModel
	jb     *Joint3Built
	sb     *SpatialBuilt
	q, v   []float64            // the body route's consistent start
	origin map[int]spatial.Vec3 // frame origins in the world at the start
	coord  map[string]int       // tree joint → its coordinate of motions and springs
	marker map[string]int       // marker name → index
	joints map[string][]string  // body name → the joints on it (alone)
	bodies map[string]int       // body name → index in m.Bodies
	q0, v0 []float64            // joint coordinates (all zero) and rates at the start
}

// body returns the body named name (validate3 has checked that it exists), found in O(1):
// a search of the body list per joint would make a tree of N bodies O(N²).
func (t *tree3Builder) body(name string) Body3 {
	if k, ok := t.bodies[name]; ok {
		return t.m.Bodies[k]
	}
	return Body3{Inertia: []float64{0, 0, 0}}
}

// buildJoint3 builds the tree, cut joints, drives and springs from the consistent start of
// the body route.
func buildJoint3(doc *Document, body *Built, tree []treeJoint, cuts []Joint3) (*Joint3Built, error) {
	m := doc.Spatial
	t := &tree3Builder{doc: doc, m: m, sb: body.Spatial, q: body.Start.Q, v: body.Start.V,
		origin: map[int]spatial.Vec3{joint.Ground: {}}, coord: map[string]int{}, marker: map[string]int{},
		jb: &Joint3Built{Model: &joint.Model{Gravity: m.Gravity}, drives: map[string]int{},
			frames: map[string]frame3{groundName: {f: joint.Ground, p0: spatial.Identity()}}}}
	for k, mk := range m.Markers {
		t.marker[mk.Name] = k
	}
	t.bodies = make(map[string]int, len(m.Bodies))
	for k, b := range m.Bodies {
		if _, dup := t.bodies[b.Name]; !dup { // the first of a name
			t.bodies[b.Name] = k
		}
	}
	t.joints = map[string][]string{}
	for _, jt := range m.Joints {
		for _, mk := range []string{jt.I, jt.J} {
			b := m.Markers[t.marker[mk]].Body
			t.joints[b] = append(t.joints[b], jt.Name)
		}
	}
	for _, tj := range tree {
		t.add(tj)
	}
	rows := 0
	for _, jt := range cuts {
		rows += t.cut(jt)
	}
	if err := t.drivesAndSprings(rows); err != nil {
		return nil, err
	}
	if err := t.frictions(); err != nil {
		return nil, err
	}
	sys, err := t.jb.Model.System()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doc.File, err)
	}
	t.jb.System = &JointMechanism{System: sys, q0: t.q0, v0: t.v0}
	return t.jb, t.jb.jointReactionsReadable3(doc)
}

// markerAt returns the world position, velocity and z axis of marker k at the start.
func (t *tree3Builder) markerAt(k int) (r, v, z spatial.Vec3) {
	sys := t.sb.System
	id := spatial.MarkerID(k + 1) // assemble3 adds the markers in file order
	_, _, z = sys.MarkerAxes(id, t.q)
	return sys.MarkerPosition(id, t.q), sys.MarkerVelocity(id, t.q, t.v), z
}

// omega returns the angular velocity (world axes) of body name at the start.
func (t *tree3Builder) omega(name string) spatial.Vec3 {
	if name == groundName {
		return spatial.Vec3{}
	}
	_, w, _ := t.sb.System.Velocity(t.sb.Bodies[name], t.q, t.v)
	return w
}

// add puts tree joint tj into the model: its child frame sits at the child marker's point,
// oriented as the world at the start (the child's body is placed in it by its centre of
// mass and its inertia turned into world axes), so every coordinate starts at zero and
// its rate is the relative motion at the start projected on the joint's axes.
func (t *tree3Builder) add(tj treeJoint) {
	if tj.free != "" {
		t.addFree(tj.free)
		return
	}
	m, jb := t.m, t.jb
	child, parent := m.Markers[tj.mb].Body, m.Markers[tj.ma].Body
	_, va, za := t.markerAt(tj.ma)
	o, vb, zb := t.markerAt(tj.mb)
	fa := jb.frames[parent]
	r, p := t.sb.System.Pose(t.sb.Bodies[child], t.q)
	wr := t.omega(child).Sub(t.omega(parent))
	a := za.Scale(tj.s) // marker i's z axis, turned so that the coordinate grows with the body route's
	if tj.s < 0 {
		a = zb.Scale(tj.s)
	}
	rel := vec3(o.Sub(t.origin[fa.f]))
	b3 := t.body(child)
	body := joint.Body{Name: child, Mass: b3.Mass, COM: vec3(r.Sub(o)), Inertia: rotateInertia(p.Matrix(), inertiaMatrix(b3.Inertia))}
	slide := a.Dot(vb.Sub(va))
	var f int
	var axes []vec3 // the rotation axes of the new coordinates, zero for a translation
	var rates []float64
	first := len(t.q0) // a cylindrical joint's displacement, a pin's angle after its slack (pinSlack3), the others' only coordinate
	switch name := tj.jt.Name; tj.jt.Type {
	case JointSpherical:
		a1, a2, a3 := vec3{0, 0, 1}, vec3{1, 0, 0}, vec3{0, 1, 0}
		if t.alone(child, name) {
			a1, a2, a3 = sphericalChart(vec3(r.Sub(o)), m.Gravity)
		}
		f = jb.Model.Cardan(name, fa.f, rel, a1, a2, a3, body)
		jb.cardan = append(jb.cardan, cardanJoint{what: fmt.Sprintf("joint %q", name), mid: len(t.q0) + 1})
		axes = []vec3{a1, a2, a3}
		rates = []float64{wr.Dot(a1), wr.Dot(a2), wr.Dot(a3)} // Cardan rates at zero angles: ω = Σ q̇_k a_k
	case JointRevolute:
		g, at, slack := t.pinSlack3(tj.jt, fa.f, rel)
		f = jb.Model.Revolute(name, g, at, a, body)
		axes, rates = append(slack, a), append(make([]float64, len(slack)), wr.Dot(a))
		first += len(slack)
	case JointTranslational:
		f = jb.Model.Prismatic(name, fa.f, rel, a, body)
		axes, rates = []vec3{{}}, []float64{slide}
	case JointCylindrical:
		g := jb.Model.Prismatic(name+".z", fa.f, rel, a, joint.Body{Name: name + ".z"})
		f = jb.Model.Revolute(name+".phi", g, [3]float64{}, a, body)
		axes, rates = []vec3{{}, a}, []float64{slide, wr.Dot(a)}
	case JointUniversal:
		f = jb.Model.Universal(name, fa.f, rel, za, zb, body)
		axes, rates = []vec3{za, zb}, []float64{wr.Dot(za), wr.Dot(zb)}
	}
	t.coord[tj.jt.Name] = first
	t.coordinates(fa.f, axes, rates)
	t.origin[f] = o
	jb.frames[child] = frame3{f: f, com: vec3(r.Sub(o)), p0: p}
	jb.Tree = append(jb.Tree, tj.jt.Name)
	t.placeReaction(tj.jt, &tj)
}

// addFree puts the floating body name into the model on a free joint from the ground: three
// translations along the world axes (coordinates NAME.tx, NAME.ty, NAME.tz, the motion of
// its centre of mass) and Cardan angles NAME.1, NAME.2, NAME.3 about the axes freeChart
// chooses, the frame at the centre of mass and oriented as the world at the start (every
// coordinate zero there, the rates the start's velocity and angular velocity).
func (t *tree3Builder) addFree(name string) {
	jb := t.jb
	id := t.sb.Bodies[name]
	r, p := t.sb.System.Pose(id, t.q)
	v, w, _ := t.sb.System.Velocity(id, t.q, t.v)
	J := rotateInertia(p.Matrix(), inertiaMatrix(t.body(name).Inertia))
	f := joint.Ground
	for k, s := range []string{".tx", ".ty", ".tz"} {
		var e, o vec3
		e[k] = 1
		if k == 0 {
			o = vec3(r)
		}
		f = jb.Model.Prismatic(name+s, f, o, e, joint.Body{Name: name + s})
	}
	t.coordinates(joint.Ground, []vec3{{}, {}, {}}, []float64{v[0], v[1], v[2]})
	a1, a2, a3 := t.freeAxes(name, J, vec3(w))
	body := joint.Body{Name: name, Mass: t.body(name).Mass, Inertia: J}
	f = jb.Model.Cardan(name, f, vec3{}, a1, a2, a3, body)
	jb.cardan = append(jb.cardan, cardanJoint{what: fmt.Sprintf("free body %q", name), mid: len(t.q0) + 1})
	omega := spatial.Vec3(w)
	t.coordinates(len(t.q0)-1, []vec3{a1, a2, a3}, []float64{omega.Dot(a1), omega.Dot(a2), omega.Dot(a3)})
	t.origin[f] = r
	jb.frames[name] = frame3{f: f, p0: p}
	jb.Free = append(jb.Free, name)
}

// alone reports whether body has no joint but the tree joint name: a top, or the last link
// of a pendulum, which only gravity and its joint turn.
func (t *tree3Builder) alone(body, name string) bool {
	for _, other := range t.joints[body] {
		if other != name {
			return false
		}
	}
	return true
}

// sphericalChart chooses the Cardan axes of a spherical tree joint that carries one body
// alone (tree3Builder.alone), whose centre of mass is at r from the joint at the start
// (world axes): the first along r × g, the axis gravity starts turning the body about,
// the last along r, the axis a top spins about, the middle a3 × a1; z, x, y when r is
// along gravity or zero. The singularity (middle angle ±90°) is then the body's r turned
// onto r × g, a quarter turn sideways from both the swing and the spin. On the heavy tops
// it keeps the joint 84° (slow top, 10 s) and 2.0° (fast top, 2 s) away from it, where
// z, x, y came within 0.63° and 0.80°; on joints that carry more (the RSSR's coupler, the
// shoulder of the double pendulum) it came closer than z, x, y, which they keep
// (docs/model-format.md, "Joint coordinates in 3D").
func sphericalChart(r, gravity vec3) (a1, a2, a3 vec3) {
	rv, g := spatial.Vec3(r), spatial.Vec3(gravity)
	n := rv.Cross(g)
	if !(n.Norm() > 1e-9*rv.Norm()*g.Norm()) || rv.Norm() == 0 {
		return vec3{0, 0, 1}, vec3{1, 0, 0}, vec3{0, 1, 0}
	}
	n, l := n.Scale(1/n.Norm()), rv.Scale(1/rv.Norm())
	return vec3(n), vec3(l.Cross(n)), vec3(l)
}

// freeChart chooses the Cardan axes of a free body whose inertia tensor is J (world axes)
// and angular velocity ω at the start: the first, turning about a fixed axis, along its
// angular momentum J ω about the centre of mass (constant under gravity, which exerts no
// moment there), else along gravity, else z; the last the world axis least aligned with it,
// made perpendicular; the middle their cross product. A body turning about a principal
// axis then turns about the first axis alone, and a wobbling one keeps its middle angle
// near zero, far from the singular ±90°.
func freeChart(J [3][3]float64, omega, gravity vec3) (a1, a2, a3 vec3) {
	s := spatial.Mat3(J).MulVec(spatial.Vec3(omega))
	switch {
	case s.Norm() > 0:
	case spatial.Vec3(gravity).Norm() > 0:
		s = spatial.Vec3(gravity)
	default:
		s = spatial.Vec3{0, 0, 1}
	}
	s = s.Scale(1 / s.Norm())
	k := 0
	for i := range 3 {
		if math.Abs(s[i]) < math.Abs(s[k]) {
			k = i
		}
	}
	var e spatial.Vec3
	e[k] = 1
	l := e.Sub(s.Scale(e.Dot(s)))
	l = l.Scale(1 / l.Norm())
	return vec3(s), vec3(l.Cross(s)), vec3(l)
}

// coordinates records the coordinates of a joint added on frame parent, a chain of
// primitives: the rotation axis of each (zero for a translation) and its rate at the start.
func (t *tree3Builder) coordinates(parent int, axes []vec3, rates []float64) {
	jb, first := t.jb, len(t.q0)
	for k := range axes {
		par := parent
		if k > 0 {
			par = first + k - 1
		}
		jb.parent = append(jb.parent, par)
		jb.axis = append(jb.axis, axes[k])
		t.q0, t.v0 = append(t.q0, 0), append(t.v0, rates[k])
	}
}

// cut makes joint jt a cut joint and returns its number of rows: the two points of a
// spherical, revolute or universal cut joint coincide along x, y and z (rows NAME[0..2]);
// a revolute cut joint keeps marker i's z axis perpendicular to marker j's x and y axes
// (rows NAME.axis[0], NAME.axis[1]), a universal one marker i's z axis perpendicular to
// marker j's (row NAME.axis[0]). A cylindrical or translational cut joint keeps marker j's
// point on marker i's z axis (rows NAME.slide[0], NAME.slide[1] along marker i's x and y
// axes, which turn with it) and the axes parallel as a revolute one does; a translational
// one also keeps marker i's x axis perpendicular to marker j's y axis (NAME.axis[2]), a
// point-on-line joint (never a tree joint) only the point on the axis (the two slide rows). These
// are the body route's conditions on the joint's axes (spatial.AddTranslational, …). The tree frames are oriented as the world at the start,
// so the markers' axes at the start are their frame coordinates.
func (t *tree3Builder) cut(jt Joint3) int {
	if jt.Type == JointRollingDisk {
		return t.rollingDisk(jt)
	}
	ki, kj := t.marker[jt.I], t.marker[jt.J]
	fi, fj := t.jb.frames[t.m.Markers[ki].Body], t.jb.frames[t.m.Markers[kj].Body]
	ri, _, _ := t.markerAt(ki)
	rj, _, _ := t.markerAt(kj)
	pi, pj := vec3(ri.Sub(t.origin[fi.f])), vec3(rj.Sub(t.origin[fj.f]))
	t.jb.Cuts = append(t.jb.Cuts, jt.Name)
	t.placeReaction(jt, nil)
	xi, yi, zi := t.sb.System.MarkerAxes(spatial.MarkerID(ki+1), t.q)
	xj, yj, zj := t.sb.System.MarkerAxes(spatial.MarkerID(kj+1), t.q)
	m := t.jb.Model
	switch jt.Type {
	case JointPointOnLine: // marker j's point on marker i's z axis, rotations free (spatial.AddPointOnLine)
		m.CutSlide(jt.Name, fi.f, pi, fj.f, pj, vec3(xi), vec3(yi))
		return 2
	case JointTranslational, JointCylindrical:
		m.CutSlide(jt.Name, fi.f, pi, fj.f, pj, vec3(xi), vec3(yi))
		m.CutAxes(jt.Name, fi.f, vec3(zi), fj.f, vec3(xj), vec3(yj))
		if jt.Type == JointCylindrical {
			return 4
		}
		m.CutAxes(jt.Name, fi.f, vec3(xi), fj.f, vec3(yj))
		return 5
	}
	m.Cut(jt.Name, fi.f, pi, fj.f, pj, [3]float64{1, 0, 0}, [3]float64{0, 1, 0}, [3]float64{0, 0, 1})
	switch jt.Type {
	case JointRevolute:
		m.CutAxes(jt.Name, fi.f, vec3(zi), fj.f, vec3(xj), vec3(yj))
		return 5
	case JointUniversal:
		m.CutAxes(jt.Name, fi.f, vec3(zi), fj.f, vec3(zj))
		return 4
	}
	return 3
}

// c0 is joint name's coordinate in the body route at the start (spatial.JointCoordinate):
// the spatial coordinate is c0 + q.
func (t *tree3Builder) c0(name string) float64 {
	x, _ := t.sb.System.JointCoordinate(t.sb.Joints[name], t.q)
	return x
}

// drivesAndSprings makes drives of the motions (their rows follow the cut joints' rows)
// and the force elements (forces).
func (t *tree3Builder) drivesAndSprings(rows int) error {
	m := t.m
	c := compiler{doc: t.doc}
	c.motions(m.Motions, func(mo Motion, f law.Func) {
		if slices.Contains(t.jb.Cuts, mo.Joint) {
			c.fail(fmt.Sprintf("motions[%d].joint", slices.IndexFunc(m.Motions, func(o Motion) bool { return o.Name == mo.Name })),
				fmt.Errorf("motion %q: joint %q is a cut joint (it closes a loop), which has no coordinate to drive with coordinates: joint; "+
					"list another joint of the loop after it, or use coordinates: body", mo.Name, mo.Joint))
			return
		}
		k := t.c0(mo.Joint)
		if m.Joints[slices.IndexFunc(m.Joints, func(j Joint3) bool { return j.Name == mo.Joint })].Type == JointRevolute {
			// The body route holds sin(β − f) = 0: β is f modulo 2π, so shift c0 onto f's turn.
			x, _, _ := f.Eval(m.Initial.Time)
			k += 2 * math.Pi * math.Round((x-k)/(2*math.Pi))
			if math.Abs(x-k) > math.Pi/2 { // sin(β − f) = 0 on its other branch, β = f + π
				c.fail(fmt.Sprintf("motions[%d].function", slices.IndexFunc(m.Motions, func(o Motion) bool { return o.Name == mo.Name })),
					fmt.Errorf("motion %q: the start has joint %q at %.6g rad, half a turn from f = %.6g rad at initial.time (the body route holds sin(β − f) = 0 there); "+
						"coordinates: joint drives the angle itself: start the joint at f, or use coordinates: body", mo.Name, mo.Joint, t.c0(mo.Joint), x))
			}
		}
		eval := func(d int) func(float64) float64 {
			return func(tt float64) float64 {
				x, dx, ddx := f.Eval(tt)
				return [3]float64{x - k, dx, ddx}[d]
			}
		}
		t.jb.Model.Drive(mo.Name, t.coord[mo.Joint], eval(0), eval(1), eval(2))
		t.jb.drives[mo.Name] = rows
		rows++
	})
	t.forces(&c)
	return c.err()
}

// rotateInertia returns R J Rᵀ: the inertia tensor J (body axes) in the axes R maps to.
func rotateInertia(R spatial.Mat3, J [3][3]float64) [3][3]float64 {
	var out [3][3]float64
	for i := range 3 {
		for j := range 3 {
			var s float64
			for k := range 3 {
				for l := range 3 {
					s += R[i][k] * J[k][l] * R[j][l]
				}
			}
			out[i][j] = s
		}
	}
	return out
}

// joint3Channels returns the reader of body, marker and motion channels of a 3D model in
// joint coordinates, named and valued as in body coordinates: a body's centre of mass,
// velocity, acceleration and angular velocity from its tree frame (joint.System.FrameMotion),
// its Euler parameters as the product of the joint rotations along its path with its
// start orientation (continuous in q, so the same branch p, not −p, as the body route's),
// a marker's point from its body's frame, a motion's λ, the spring-damper channels of
// package joint's force elements, and the joints' reactions (jointReaction3).
func joint3Channels(b *Built) func(string) channelFunc {
	jb := b.Joint3
	sys := jb.System
	m := b.Doc.Spatial
	mo := &sampleMotion{sys: sys}
	rw := &sampleWrenches{sys: sys}
	paths := newQuatPaths(jb.parent, jb.axis)
	motion := func(c *sample, fr frame3, p vec3) joint.FrameMotion { return mo.at(c, fr.f, p) }
	return func(name string) channelFunc {
		elem, suffix := splitChannel(name)
		if fr, ok := jb.frames[elem]; ok && elem != groundName {
			return bodyChannel3(fr, suffix, motion, paths)
		}
		if k := suffixIndex(markerSuffixes(3), suffix); k >= 0 {
			for _, mk := range m.Markers {
				if mk.Name != elem {
					continue
				}
				fr := jb.frames[mk.Body]
				s := spatial.Vec3(fr.com).Add(fr.p0.Rotate(spatial.Vec3(mk.Point))) // the point in frame coordinates
				if fr.f == joint.Ground {
					return func(*sample) float64 { return s[k%3] * float64(1-k/3) }
				}
				return func(c *sample) float64 {
					fm := motion(c, fr, vec3(s))
					return [6]float64{fm.Pos[0], fm.Pos[1], fm.Pos[2], fm.Vel[0], fm.Vel[1], fm.Vel[2]}[k]
				}
			}
		}
		if f, ok := b.forceChannel(sys.SpringDamperReadings, elem, suffix, 3); ok {
			return f
		}
		if f, ok := jb.jointReaction3(rw, mo, elem, suffix); ok {
			return f
		}
		row, ok := jb.drives[elem] // what is left: a motion's or a rolling disk's λ
		if !ok {
			row = constraintRow(sys, elem+".h")
		}
		return func(c *sample) float64 { return c.full[row] }
	}
}

// bodyChannel reads one body channel (body3Suffixes) of the body placed by fr.
func bodyChannel3(fr frame3, suffix string, motion func(*sample, frame3, vec3) joint.FrameMotion, paths *quatPaths) channelFunc {
	k := strings.IndexByte("xyz", suffix[len(suffix)-1])
	switch suffix {
	case "x", "y", "z":
		return func(c *sample) float64 { return motion(c, fr, fr.com).Pos[k] }
	case "vx", "vy", "vz":
		return func(c *sample) float64 { return motion(c, fr, fr.com).Vel[k] }
	case "ax", "ay", "az":
		return func(c *sample) float64 { return motion(c, fr, fr.com).Acc[k] }
	case "wx", "wy", "wz":
		// ω' = R_Bᵀ ω with R_B = R_f R_B0: the angular velocity in body axes.
		return func(c *sample) float64 {
			fm := motion(c, fr, fr.com)
			w := spatial.Mat3(fm.R).MulTVec(spatial.Vec3(fm.Omega))
			return fr.p0.Matrix().MulTVec(w)[k]
		}
	}
	i := int(suffix[1] - '0')
	// the product of the rotations on the frame's path with the body's start orientation p0
	return func(c *sample) float64 { return paths.at(fr.f, c).Mul(fr.p0)[i] }
}
