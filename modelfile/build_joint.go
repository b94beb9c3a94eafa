package modelfile

import (
	"fmt"
	"math"
	"slices"

	"linkage/joint"
	"linkage/law"
)

// JointBuilt is the joint-coordinate part of a Built (coordinates: joint): a planar model
// as a tree of revolute and translational joints in relative coordinates (package joint,
// seed 002 §3.3) whose remaining revolute joints are cut joints. Built's Integrated,
// Consistent and Start hold the rest.
type JointBuilt struct {
	Model  *joint.Model
	System *JointMechanism
	Tree   []string // the joints of the spanning tree, in the order they were added
	Cuts   []string // the joints that close loops (cut joints)
	Free   []string // the floating bodies, each the root of a tree on a free joint
	frames map[string]bodyFrame
	parent []int  // parent frame of each frame (joint.Ground at the root)
	turns  []bool // whether the frame's joint is a revolute (its q adds to the angle)
	drives map[string]driveRow
	holds  map[string]holdReaction // the joints with friction, whose hold rows are their reaction
	tree   map[string]sk           // the tree joints' coordinates and signs (jointReaction)
	flex   map[string]int          // the flexible bodies (build_jointflex.go)
}

// JointMechanism is the joint.System of a model file with the initial guess read from the
// consistent start in body coordinates.
type JointMechanism struct {
	*joint.System
	q0, v0 []float64
}

// InitialGuess returns the joint coordinates and rates of the body-coordinate start.
func (m *JointMechanism) InitialGuess() (q0, v0 []float64) {
	return append([]float64(nil), m.q0...), append([]float64(nil), m.v0...)
}

// bodyFrame places a body in the frame of its tree joint: the body's angle is the frame's
// plus phi, and its origin (centre of mass) is at d in frame coordinates.
type bodyFrame struct {
	f   int
	phi float64
	d   [2]float64
}

// driveRow is the row of a motion among the constraints, and the sign s of its joint
// coordinate against the planar one (c = s q + k).
type driveRow struct {
	row int
	s   float64
}

// toFrame returns point p of the body (body coordinates) in the coordinates of its frame.
func (bf bodyFrame) toFrame(p Vec) [3]float64 {
	r := rot(bf.phi, p)
	return [3]float64{bf.d[0] + r[0], bf.d[1] + r[1]}
}

func rot(th float64, p Vec) Vec {
	c, s := math.Cos(th), math.Sin(th)
	return Vec{c*p[0] - s*p[1], s*p[0] + c*p[1]}
}

// pose is a body's pose and rates at the consistent start in body coordinates.
type pose struct {
	r, v   Vec
	th, om float64
	e, ed  []float64 // a flexible body's elastic coordinates and rates
}

// assembleJoint builds doc in joint coordinates. As for natural coordinates, the start is
// made consistent in body coordinates first (the initial section is written in them; a
// guess that satisfies every row is taken as it is, Built.consistentPoses) and the joint
// coordinates and rates are read from it. The spanning tree grows from ground in
// breadth-first passes over the joints in file order: a joint joins the tree when one of
// its bodies was in the tree at the start of the pass and the other is not yet; within a
// pass joints with friction come first (so that they keep their coordinate; passOrder), then
// translational joints (the order from when only revolute joints could be cut, kept so
// that a file's tree does not change). A revolute joint may be entered
// from either side (its coordinate then changes sign); a translational joint only from
// marker i's body, whose axis it carries. The joints left over close loops and become cut
// joints (closeAndDrive): a revolute one keeps its two points together in x and y, a
// translational one marker j's point on marker i's axis and the markers' angle.
func assembleJoint(doc *Document) (*Built, mechanism, error) {
	m := &doc.Model
	guess := map[string]pose{groundName: {}}
	for _, body := range m.Bodies {
		st := m.Initial.Bodies[body.Name]
		guess[body.Name] = pose{r: st.Position, th: float64(st.Angle), v: st.Velocity, om: st.AngularVelocity}
	}
	if _, err := buildJoint(doc, guess); err != nil { // the tree's own errors before the start's
		return nil, nil, err
	}
	pb, psys, err := assemble(doc)
	if err != nil {
		return nil, nil, err
	}
	if err := pb.consistentPoses(psys); err != nil {
		return nil, nil, err
	}
	for _, body := range m.Bodies {
		id := pb.Bodies[body.Name]
		r, th := pb.System.Pose(id, pb.Start.Q)
		v, om := pb.System.Pose(id, pb.Start.V)
		e, ed := pb.elastic(body)
		guess[body.Name] = pose{r: Vec(r), th: th, v: Vec(v), om: om, e: e, ed: ed}
	}
	jb, err := buildJoint(doc, guess)
	if err != nil {
		return nil, nil, err
	}
	return &Built{Doc: doc, Joint: jb}, jb.integrated(), nil
}

// buildJoint builds the tree, cut joints, drives and springs of doc with the bodies at
// poses, from which the joint coordinates and rates at the start are read.
func buildJoint(doc *Document, poses map[string]pose) (*JointBuilt, error) {
	m := &doc.Model
	jb := &JointBuilt{Model: &joint.Model{Gravity: [3]float64{m.Gravity[0], m.Gravity[1]}},
		frames: map[string]bodyFrame{groundName: {f: joint.Ground}}, drives: map[string]driveRow{}, flex: map[string]int{}}
	t := &treeBuilder{doc: doc, jb: jb, poses: poses, markers: map[string]Marker{}, signs: map[string]sk{}}
	for _, mk := range m.Markers {
		t.markers[mk.Name] = mk
	}
	t.bodies = make(map[string]int, len(m.Bodies))
	for k, b := range m.Bodies {
		if _, dup := t.bodies[b.Name]; !dup { // the first, as Model.body
			t.bodies[b.Name] = k
		}
	}
	t.addFlexible()
	t.grow()
	jb.tree = t.signs
	if err := t.closeAndDrive(); err != nil {
		return nil, err
	}
	t.flexStart()
	sys, err := jb.Model.System()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doc.File, err)
	}
	jb.System = &JointMechanism{System: sys, q0: t.q0, v0: t.v0}
	return jb, jb.jointReactionsReadable(doc)
}

// sk is a tree joint's coordinate index and the sign and offset of the planar joint
// coordinate: c = s q + k.
type sk struct {
	i    int
	s, k float64
}

type treeBuilder struct {
	doc     *Document
	jb      *JointBuilt
	poses   map[string]pose
	markers map[string]Marker
	signs   map[string]sk
	bodies  map[string]int // body name → index in Model.Bodies
	q0, v0  []float64
}

// body returns the body named name (validate has checked that it exists), found in O(1):
// Model.body searches the list, which makes a tree of N bodies O(N²).
func (t *treeBuilder) body(name string) Body {
	if k, ok := t.bodies[name]; ok {
		return t.doc.Model.Bodies[k]
	}
	return Body{}
}

// grow builds the spanning tree (assembleJoint); where it stops growing with bodies left,
// the first of them floats on a free joint (addFree) and the tree grows on from it.
func (t *treeBuilder) grow() {
	m := &t.doc.Model
	for {
		t.pass()
		k := slices.IndexFunc(m.Bodies, func(b Body) bool { _, ok := t.jb.frames[b.Name]; return !ok && b.Flexible == nil })
		if k < 0 {
			return
		}
		t.addFree(m.Bodies[k].Name)
	}
}

// pass adds joints to the tree in breadth-first passes until none joins.
func (t *treeBuilder) pass() {
	m := &t.doc.Model
	var start []string
	for b := range t.jb.frames {
		start = append(start, b)
	}
	ps := newPasses(start, len(m.Joints), func(k int) (string, string) {
		return t.markers[m.Joints[k].I].Body, t.markers[m.Joints[k].J].Body
	})
	for cand := ps.next(); len(cand) > 0; cand = ps.next() {
		for _, pick := range passOrder {
			for _, k := range cand {
				jt := m.Joints[k]
				if jt.Type != pick.typ || (jt.Friction != nil) != pick.friction || t.inTree(jt.Name) || t.touchesFlexible(jt) {
					continue
				}
				bi, bj := t.markers[jt.I].Body, t.markers[jt.J].Body
				_, hasI := t.jb.frames[bi]
				_, hasJ := t.jb.frames[bj]
				switch {
				case ps.at(bi) && !hasJ:
					t.add(jt, t.markers[jt.I], t.markers[jt.J], 1)
					ps.join(bj)
				case pick.typ == JointRevolute && ps.at(bj) && !hasI:
					t.add(jt, t.markers[jt.J], t.markers[jt.I], -1)
					ps.join(bi)
				}
			}
		}
	}
}

// addFree puts the floating body name on a free joint from the ground: translations along
// the world's x and y (coordinates NAME.tx, NAME.ty: its centre of mass) and a rotation
// (NAME.theta), the frame at the centre of mass and turned as the world at the start, every
// coordinate zero there and the rates the body's velocity and angular velocity.
func (t *treeBuilder) addFree(name string) {
	jb, p, body := t.jb, t.poses[name], t.body(name)
	f := jb.Model.Prismatic(name+".tx", joint.Ground, [3]float64{p.r[0], p.r[1]}, [3]float64{1, 0, 0}, joint.Body{Name: name + ".tx"})
	f = jb.Model.Prismatic(name+".ty", f, [3]float64{}, [3]float64{0, 1, 0}, joint.Body{Name: name + ".ty"})
	J := body.Inertia
	f = jb.Model.Revolute(name+".theta", f, [3]float64{}, [3]float64{0, 0, 1},
		joint.Body{Name: name, Mass: body.Mass, Inertia: [3][3]float64{{J, 0, 0}, {0, J, 0}, {0, 0, J}}})
	jb.parent = append(jb.parent, joint.Ground, f-2, f-1)
	jb.turns = append(jb.turns, false, false, true)
	t.q0, t.v0 = append(t.q0, 0, 0, 0), append(t.v0, p.v[0], p.v[1], p.om)
	jb.frames[name] = bodyFrame{f: f, phi: p.th}
	jb.Free = append(jb.Free, name)
}

func (t *treeBuilder) inTree(name string) bool {
	_, ok := t.signs[name]
	return ok
}

// add puts joint jt into the tree with parent marker ma and child marker mb; sign is −1
// when the child is marker i's body (a revolute entered from its j side).
func (t *treeBuilder) add(jt Joint, ma, mb Marker, sign float64) {
	jb := t.jb
	fa := jb.frames[ma.Body]
	a, b := t.poses[ma.Body], t.poses[mb.Body]
	body := t.body(mb.Body)
	thPF := a.th - fa.phi // the parent frame's angle
	var bf bodyFrame
	var q, v float64
	if jt.Type == JointRevolute {
		bf = bodyFrame{d: [2]float64{-mb.Point[0], -mb.Point[1]}} // the frame sits at the pin, turned as the body
		q, v = b.th-thPF, b.om-a.om
	} else {
		u := rot(thPF+fa.phi+float64(ma.Angle), Vec{1, 0})
		rI, rJ := worldPoint(a, ma.Point), worldPoint(b, mb.Point)
		vI, vJ := worldVelocity(a, ma.Point), worldVelocity(b, mb.Point)
		q = u[0]*(rJ[0]-rI[0]) + u[1]*(rJ[1]-rI[1])
		v = a.om*(-u[1]*(rJ[0]-rI[0])+u[0]*(rJ[1]-rI[1])) + u[0]*(vJ[0]-vI[0]) + u[1]*(vJ[1]-vI[1])
		o := Vec{rI[0] + q*u[0], rI[1] + q*u[1]}
		bf = bodyFrame{phi: b.th - thPF, d: [2]float64(rot(-thPF, Vec{b.r[0] - o[0], b.r[1] - o[1]}))}
	}
	jbody := joint.Body{Name: body.Name, Mass: body.Mass, COM: [3]float64{bf.d[0], bf.d[1]},
		Inertia: [3][3]float64{{body.Inertia, 0, 0}, {0, body.Inertia, 0}, {0, 0, body.Inertia}}}
	origin := fa.toFrame(ma.Point)
	var i int // the joint's coordinate; with friction, slack frames surround it (build_jointfriction.go)
	if jt.Type == JointRevolute {
		parent, at := t.pinSlack(jt, fa.f, origin)
		i = t.prim(jb.Model.Revolute(jt.Name, parent, at, [3]float64{0, 0, 1}, jbody), parent, true, q, v)
		bf.f = i
	} else {
		axis := rot(fa.phi+float64(ma.Angle), Vec{1, 0})
		i = t.prim(jb.Model.Prismatic(jt.Name, fa.f, origin, [3]float64{axis[0], axis[1]}, slid(jt, jbody)), fa.f, false, q, v)
		bf.f = t.slideSlack(jt, i, axis, jbody)
	}
	jb.frames[mb.Body] = bf
	jb.Tree = append(jb.Tree, jt.Name)
	c0 := t.planarCoordinate(jt)
	t.signs[jt.Name] = sk{i: i, s: sign, k: c0 - sign*q}
}

// prim records frame f of the tree (its parent frame, whether it turns, and its coordinate
// and rate at the start) and returns it.
func (t *treeBuilder) prim(f, parent int, turns bool, q, v float64) int {
	t.jb.parent = append(t.jb.parent, parent)
	t.jb.turns = append(t.jb.turns, turns)
	t.q0, t.v0 = append(t.q0, q), append(t.v0, v)
	return f
}

// planarCoordinate is the joint coordinate of planar.AddRevolute and AddTranslational at
// the start: the angle between the markers' x axes, or the displacement along u_I.
func (t *treeBuilder) planarCoordinate(jt Joint) float64 {
	mi, mj := t.markers[jt.I], t.markers[jt.J]
	pi, pj := t.poses[mi.Body], t.poses[mj.Body]
	if jt.Type == JointRevolute {
		return pj.th + float64(mj.Angle) - pi.th - float64(mi.Angle)
	}
	u := rot(pi.th+float64(mi.Angle), Vec{1, 0})
	rI, rJ := worldPoint(pi, mi.Point), worldPoint(pj, mj.Point)
	return u[0]*(rJ[0]-rI[0]) + u[1]*(rJ[1]-rI[1])
}

func worldPoint(p pose, s Vec) Vec {
	r := rot(p.th, s)
	return Vec{p.r[0] + r[0], p.r[1] + r[1]}
}

func worldVelocity(p pose, s Vec) Vec {
	r := rot(p.th, s)
	return Vec{p.v[0] - p.om*r[1], p.v[1] + p.om*r[0]}
}

// closeAndDrive makes cut joints of the joints outside the tree, drives of the motions and
// the force elements (forces).
func (t *treeBuilder) closeAndDrive() error {
	m := &t.doc.Model
	jb := t.jb
	rows := 0
	for _, jt := range m.Joints {
		if t.inTree(jt.Name) {
			continue
		}
		rows += t.cut(jt)
	}
	c := compiler{doc: t.doc}
	var bad error
	c.motions(m.Motions, func(mo Motion, f law.Func) {
		j, ok := t.signs[mo.Joint]
		if !ok {
			bad = fmt.Errorf("%s: motion %q: joint %q is a cut joint, whose angle is no coordinate with coordinates: joint; "+
				"put it in the tree (list it before the joint that closes the loop) or use coordinates: body", t.doc.File, mo.Name, mo.Joint)
			return
		}
		eval := func(k int) func(float64) float64 {
			return func(tt float64) float64 {
				x, dx, ddx := f.Eval(tt)
				return j.s * [3]float64{x - j.k, dx, ddx}[k]
			}
		}
		jb.Model.Drive(mo.Name, j.i, eval(0), eval(1), eval(2))
		jb.drives[mo.Name] = driveRow{row: rows, s: j.s}
		rows++
	})
	if err := c.err(); err != nil {
		return err
	}
	if err := t.forces(); err != nil {
		return err
	}
	if bad != nil {
		return bad
	}
	return t.frictions()
}

// jointCoordinates refuses, by element, what package joint cannot take: joints other than
// revolute, translational, point-on-line, cams and knife edges (jointRouteType).
func (v *validator) jointCoordinates() {
	for k, jt := range v.m.Joints {
		v.jointRouteType(k, jt)
	}
}

// jointChannels returns the reader of body, marker and motion channels of a model in joint
// coordinates, named and valued as in body coordinates: a body's pose and rates from its
// tree frame (joint.System.FrameMotion), its angle summed along the revolute joints of its
// path (unwrapped by construction; anglePaths), and a motion's λ times the sign of its coordinate.
// The spring-damper channels read package joint's force elements; a joint's reaction
// channels its hold rows when it has friction (reactionChannel), else the wrench a tree
// joint transmits or a cut joint's rows' load (jointReaction).
func jointChannels(b *Built) func(string) channelFunc {
	jb := b.Joint
	sys := jb.System
	angle := newAnglePaths(jb.parent, jb.turns).at
	mo := &sampleMotion{sys: sys}
	rw := &sampleWrenches{sys: sys}
	frame := func(body string) planarFrame {
		if f := jb.flexFrame(body); f != nil {
			return f
		}
		bf := jb.frames[body]
		if bf.f == joint.Ground {
			return nil
		}
		return func(c *sample) ([2]float64, float64, [2]float64, float64) {
			fm := mo.at(c, bf.f, [3]float64{bf.d[0], bf.d[1]})
			return [2]float64{fm.Pos[0], fm.Pos[1]}, angle(bf.f, c) + bf.phi, [2]float64{fm.Vel[0], fm.Vel[1]}, fm.Omega[2]
		}
	}
	return func(name string) channelFunc {
		elem, suffix := splitChannel(name)
		if f, ok := jb.flexChannel(elem, suffix); ok {
			return f
		}
		if bf, ok := jb.frames[elem]; ok && elem != groundName {
			return jointBodyChannel(mo, bf, suffix, func(c *sample) float64 { return angle(bf.f, c) + bf.phi })
		}
		if f, ok := planarMarkerChannel(&b.Doc.Model, frame, elem, suffix); ok {
			return f
		}
		if f, ok := b.forceChannel(sys.SpringDamperReadings, elem, suffix, 2); ok {
			return f
		}
		if f, ok := jb.reactionChannel(elem, suffix, angle); ok {
			return f
		}
		if f, ok := jb.jointReaction(b.Doc, rw, mo, elem, suffix, angle); ok {
			return f
		}
		d := jb.drives[elem] // what is left: a motion's λ
		return func(c *sample) float64 { return d.s * c.full[d.row] }
	}
}

// jointBodyChannel reads one body channel (bodySuffixes) of the body placed by bf.
func jointBodyChannel(mo *sampleMotion, bf bodyFrame, suffix string, theta func(c *sample) float64) channelFunc {
	d := [3]float64{bf.d[0], bf.d[1]}
	motion := func(c *sample) joint.FrameMotion { return mo.at(c, bf.f, d) }
	switch suffix {
	case "x", "y":
		k := int(suffix[0] - 'x')
		return func(c *sample) float64 { return motion(c).Pos[k] }
	case "vx", "vy":
		k := int(suffix[1] - 'x')
		return func(c *sample) float64 { return motion(c).Vel[k] }
	case "ax", "ay":
		k := int(suffix[1] - 'x')
		return func(c *sample) float64 { return motion(c).Acc[k] }
	case "omega":
		return func(c *sample) float64 { return motion(c).Omega[2] }
	case "alpha":
		return func(c *sample) float64 { return motion(c).Alpha[2] }
	}
	return theta
}

// body returns the body named name (validate has checked that it exists).
func (m *Model) body(name string) Body {
	for _, b := range m.Bodies {
		if b.Name == name {
			return b
		}
	}
	return Body{}
}
