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
// a tree of spherical, revolute, translational, cylindrical and universal joints in
// relative coordinates (package joint, seed 002 §3.3) whose remaining joints (spherical,
// revolute or universal) are cut joints. Built's Integrated, Consistent and Start hold the rest.
//
// Every frame of the tree is oriented as the world at the start (every joint coordinate is
// zero there), so a spherical joint's Cardan angles start at zero, as far from their
// singularity (middle angle ±90°) as they can be.
type Joint3Built struct {
	Model  *joint.Model
	System *JointMechanism
	Tree   []string // the joints of the spanning tree, in the order they were added
	Cuts   []string // the joints that close loops (cut joints)
	frames map[string]frame3
	parent []int  // parent coordinate of each coordinate (joint.Ground at the root)
	axis   []vec3 // rotation axis of each coordinate in its parent's frame; zero for a translation
	drives map[string]int
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
}

// assembleJoint3 builds a 3D doc in joint coordinates. As for planar models, the start is
// made consistent in body coordinates first (the initial section is written in them) and
// the joint coordinates and rates are read from it. The spanning tree grows from ground in
// breadth-first passes over the joints in file order: a joint joins the tree when one of
// its bodies was in the tree at the start of the pass and the other is not yet; within a
// pass spherical joints come last, since their cut rows are the fewest. Every joint may be
// entered from either side. The joints left over close loops and become cut joints: the
// two points coincide in x, y and z, and a revolute or universal cut joint adds the
// orientation rows of its axes (tree3Builder.cut).
func assembleJoint3(doc *Document) (*Built, mechanism, error) {
	tree, cuts, err := spanningTree3(doc)
	if err != nil { // the tree's own errors before the start's
		return nil, nil, err
	}
	body, mech, err := assemble3(doc)
	if err != nil {
		return nil, nil, err
	}
	if err := body.initialize(mech); err != nil {
		return nil, nil, err
	}
	jb, err := buildJoint3(doc, body, tree, cuts)
	if err != nil {
		return nil, nil, err
	}
	return &Built{Doc: doc, Joint3: jb}, jb.System, nil
}

// spanningTree3 orders the tree joints (assembleJoint3) and returns the cut joints,
// refusing a body the tree cannot reach and a loop closed by a joint that cannot be cut.
func spanningTree3(doc *Document) ([]treeJoint, []Joint3, error) {
	m := doc.Spatial
	markerIndex := map[string]int{}
	for k, mk := range m.Markers {
		markerIndex[mk.Name] = k
	}
	bodyOf := func(marker string) string { return m.Markers[markerIndex[marker]].Body }
	in := map[string]bool{groundName: true}
	links := treeLinks{}
	added := map[string]bool{}
	var tree []treeJoint
	ps := newPasses([]string{groundName}, len(m.Joints), func(k int) (string, string) {
		return bodyOf(m.Joints[k].I), bodyOf(m.Joints[k].J)
	})
	for cand := ps.next(); len(cand) > 0; cand = ps.next() {
		for _, spherical := range []bool{false, true} {
			for _, k := range cand {
				jt := m.Joints[k]
				if added[jt.Name] || (jt.Type == JointSpherical) != spherical {
					continue
				}
				bi, bj := bodyOf(jt.I), bodyOf(jt.J)
				switch {
				case ps.at(bi) && !in[bj]:
					tree = append(tree, treeJoint{jt: jt, ma: markerIndex[jt.I], mb: markerIndex[jt.J], s: 1})
					in[bj] = true
					links[bj] = treeLink{joint: jt.Name, parent: bi}
					ps.join(bj)
				case ps.at(bj) && !in[bi]:
					tree = append(tree, treeJoint{jt: jt, ma: markerIndex[jt.J], mb: markerIndex[jt.I], s: -1})
					in[bi] = true
					links[bi] = treeLink{joint: jt.Name, parent: bj}
					ps.join(bi)
				default:
					continue
				}
				added[jt.Name] = true
			}
		}
	}
	for _, b := range m.Bodies {
		if !in[b.Name] {
			return nil, nil, fmt.Errorf("%s: body %q: coordinates: joint needs every body joined to ground by a tree of joints, and %s; use coordinates: body",
				doc.File, b.Name, jointsOf(b.Name, len(m.Joints), func(k int) (string, string, string) {
					return m.Joints[k].Name, bodyOf(m.Joints[k].I), bodyOf(m.Joints[k].J)
				}))
		}
	}
	var cuts []Joint3
	for _, jt := range m.Joints {
		if added[jt.Name] {
			continue
		}
		if !slices.Contains([]string{JointSpherical, JointRevolute, JointUniversal}, jt.Type) {
			return nil, nil, fmt.Errorf("%s: joint %q: a %s joint closes the loop %s, and coordinates: joint "+
				"closes 3D loops with spherical, revolute or universal cut joints only; list one of those of the loop after it, or use coordinates: body",
				doc.File, jt.Name, jt.Type, links.loop(jt.Name, bodyOf(jt.I), bodyOf(jt.J)))
		}
		cuts = append(cuts, jt)
	}
	return tree, cuts, nil
}

// treeLinks records, for each body of a spanning tree, the joint that joined it to the
// tree and the body on that joint's other side (toward ground).
type treeLinks map[string]treeLink

type treeLink struct{ joint, parent string }

// loop names the joints of the loop that a joint closing between bodies a and b of the
// tree makes: that joint, then the tree joints from a and from b up to their common
// ancestor, quoted and joined for a message.
func (l treeLinks) loop(closing, a, b string) string {
	toGround := func(x string) []string {
		path := []string{x}
		for x != groundName {
			x = l[x].parent
			path = append(path, x)
		}
		return path
	}
	pa, pb := toGround(a), toGround(b)
	names := []string{fmt.Sprintf("%q", closing)}
	common := groundName
	for _, x := range pa {
		if slices.Contains(pb, x) {
			common = x
			break
		}
		names = append(names, fmt.Sprintf("%q", l[x].joint))
	}
	for _, x := range pb {
		if x == common {
			break
		}
		names = append(names, fmt.Sprintf("%q", l[x].joint))
	}
	return strings.Join(names, ", ")
}

// jointsOf says which of the n joints (joint k is named name and joins bodies bi and bj)
// touch body, for the refusal of a body outside the tree.
func jointsOf(body string, n int, joint func(k int) (name, bi, bj string)) string {
	var names []string
	for k := range n {
		name, bi, bj := joint(k)
		if bi == body || bj == body {
			names = append(names, fmt.Sprintf("%q", name))
		}
	}
	if len(names) == 0 {
		return "it has no joint (a free body has no joint-coordinate form in model files)"
	}
	return fmt.Sprintf("its joints %s do not join it to the tree", strings.Join(names, ", "))
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
	q0, v0 []float64            // joint coordinates (all zero) and rates at the start
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
	sys, err := t.jb.Model.System()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doc.File, err)
	}
	t.jb.System = &JointMechanism{System: sys, q0: t.q0, v0: t.v0}
	return t.jb, nil
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
	b3 := m.body(child)
	body := joint.Body{Name: child, Mass: b3.Mass, COM: vec3(r.Sub(o)), Inertia: rotateInertia(p.Matrix(), inertiaMatrix(b3.Inertia))}
	slide := a.Dot(vb.Sub(va))
	var f int
	var axes []vec3 // the rotation axes of the new coordinates, zero for a translation
	var rates []float64
	switch name := tj.jt.Name; tj.jt.Type {
	case JointSpherical:
		f = jb.Model.Spherical(name, fa.f, rel, body)
		axes = []vec3{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}
		rates = []float64{wr[2], wr[0], wr[1]} // Cardan rates at zero angles: ω = ż e_z + ẋ e_x + ẏ e_y
	case JointRevolute:
		f = jb.Model.Revolute(name, fa.f, rel, a, body)
		axes, rates = []vec3{a}, []float64{wr.Dot(a)}
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
	first := len(t.q0)
	for k := range axes {
		par := fa.f
		if k > 0 {
			par = first + k - 1
		}
		jb.parent = append(jb.parent, par)
		jb.axis = append(jb.axis, axes[k])
		t.q0, t.v0 = append(t.q0, 0), append(t.v0, rates[k])
	}
	t.coord[tj.jt.Name] = first // a cylindrical joint's displacement, the others' only coordinate
	t.origin[f] = o
	jb.frames[child] = frame3{f: f, com: vec3(r.Sub(o)), p0: p}
	jb.Tree = append(jb.Tree, tj.jt.Name)
}

// cut makes joint jt a cut joint and returns its number of rows: its two points coincide
// along x, y and z (rows NAME[0..2]); a revolute cut joint keeps marker i's z axis
// perpendicular to marker j's x and y axes (rows NAME.axis[0], NAME.axis[1]), a universal
// one marker i's z axis perpendicular to marker j's (row NAME.axis[0]), the body route's
// conditions on the joint's axes. The tree frames are oriented as the world at the start,
// so the markers' axes at the start are their frame coordinates.
func (t *tree3Builder) cut(jt Joint3) int {
	ki, kj := t.marker[jt.I], t.marker[jt.J]
	fi, fj := t.jb.frames[t.m.Markers[ki].Body], t.jb.frames[t.m.Markers[kj].Body]
	ri, _, _ := t.markerAt(ki)
	rj, _, _ := t.markerAt(kj)
	t.jb.Model.Cut(jt.Name, fi.f, vec3(ri.Sub(t.origin[fi.f])), fj.f, vec3(rj.Sub(t.origin[fj.f])), [3]float64{1, 0, 0}, [3]float64{0, 1, 0}, [3]float64{0, 0, 1})
	t.jb.Cuts = append(t.jb.Cuts, jt.Name)
	_, _, zi := t.sb.System.MarkerAxes(spatial.MarkerID(ki+1), t.q)
	xj, yj, zj := t.sb.System.MarkerAxes(spatial.MarkerID(kj+1), t.q)
	switch jt.Type {
	case JointRevolute:
		t.jb.Model.CutAxes(jt.Name, fi.f, vec3(zi), fj.f, vec3(xj), vec3(yj))
		return 5
	case JointUniversal:
		t.jb.Model.CutAxes(jt.Name, fi.f, vec3(zi), fj.f, vec3(zj))
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
// and joint springs of the rotational spring-dampers (validate3 admits only linear ones on
// a joint).
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
	for k, f := range m.Forces {
		if slices.Contains(t.jb.Cuts, f.Joint) {
			c.fail(fmt.Sprintf("forces[%d].joint", k), fmt.Errorf("force %q: joint %q is a cut joint (it closes a loop), which has no coordinate for a spring with coordinates: joint; "+
				"list another joint of the loop after it, or use coordinates: body", f.Name, f.Joint))
			continue
		}
		t.jb.Model.Spring(t.coord[f.Joint], f.K, f.C, float64(f.FreeAngle)-t.c0(f.Joint))
	}
	return c.err()
}

// body returns the 3D body named name (validate3 has checked that it exists).
func (m *SpatialModel) body(name string) Body3 {
	for _, b := range m.Bodies {
		if b.Name == name {
			return b
		}
	}
	return Body3{Inertia: []float64{0, 0, 0}}
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
// a marker's point from its body's frame, and a motion's λ. Joint reaction and
// spring-damper channels are not offered (channelNames3).
func joint3Channels(b *Built) func(string) channelFunc {
	jb := b.Joint3
	sys := jb.System
	m := b.Doc.Spatial
	mo := &sampleMotion{sys: sys}
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
		row := jb.drives[elem] // channelNames3 offers only motions' λ among the joint channels
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
