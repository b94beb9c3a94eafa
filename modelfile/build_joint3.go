package modelfile

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"linkage/joint"
	"linkage/law"
	"linkage/spatial"
)

// Joint3Built is the joint-coordinate part of a Built for a 3D model (coordinates: joint):
// a tree of spherical, revolute, translational, cylindrical and universal joints in
// relative coordinates (package joint, seed 002 §3.3) whose remaining spherical joints are
// cut joints. Built's Integrated, Consistent and Start hold the rest.
//
// Every frame of the tree is oriented as the world at the start (every joint coordinate is
// zero there), so a spherical joint's Cardan angles start at zero, as far from their
// singularity (middle angle ±90°) as they can be.
type Joint3Built struct {
	Model  *joint.Model
	System *JointMechanism
	Tree   []string // the joints of the spanning tree, in the order they were added
	Cuts   []string // the spherical joints that close loops (cut joints)
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
// pass spherical joints come last, since only they can be cut joints. Every joint may be
// entered from either side. The joints left over close loops and become cut joints (the
// two points coincide in x, y and z).
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
	for changed := true; changed; {
		changed = false
		at := maps.Clone(in)
		for _, spherical := range []bool{false, true} {
			for _, jt := range m.Joints {
				if added[jt.Name] || (jt.Type == JointSpherical) != spherical {
					continue
				}
				bi, bj := bodyOf(jt.I), bodyOf(jt.J)
				switch {
				case at[bi] && !in[bj]:
					tree = append(tree, treeJoint{jt: jt, ma: markerIndex[jt.I], mb: markerIndex[jt.J], s: 1})
					in[bj] = true
					links[bj] = treeLink{joint: jt.Name, parent: bi}
				case at[bj] && !in[bi]:
					tree = append(tree, treeJoint{jt: jt, ma: markerIndex[jt.J], mb: markerIndex[jt.I], s: -1})
					in[bi] = true
					links[bi] = treeLink{joint: jt.Name, parent: bj}
				default:
					continue
				}
				added[jt.Name] = true
				changed = true
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
		if jt.Type != JointSpherical {
			return nil, nil, fmt.Errorf("%s: joint %q: a %s joint closes the loop %s, and coordinates: joint "+
				"closes 3D loops with spherical cut joints only (3 point rows); list a spherical joint of the loop after it, or use coordinates: body",
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
		return "it has no joint"
	}
	return fmt.Sprintf("its joints %s do not join it to the tree", strings.Join(names, ", "))
}

// start3 is the consistent start in body coordinates, read through package spatial.
type start3 struct {
	sys  *spatial.System
	q, v []float64
}

func (s start3) body(name string, sb *SpatialBuilt) (r spatial.Vec3, p spatial.Quat, v, w spatial.Vec3) {
	id := sb.Bodies[name]
	r, p = s.sys.Pose(id, s.q)
	v, w, _ = s.sys.Velocity(id, s.q, s.v)
	return r, p, v, w
}

// buildJoint3 builds the tree, cut joints, drives and springs from the consistent start of
// the body route.
func buildJoint3(doc *Document, body *Built, tree []treeJoint, cuts []Joint3) (*Joint3Built, error) {
	m := doc.Spatial
	sb := body.Spatial
	st := start3{sys: sb.System, q: body.Start.Q, v: body.Start.V}
	jb := &Joint3Built{Model: &joint.Model{Gravity: m.Gravity}, frames: map[string]frame3{groundName: {f: joint.Ground, p0: spatial.Identity()}},
		drives: map[string]int{}}
	marker := func(k int) (r, v, z spatial.Vec3) {
		id := spatial.MarkerID(k + 1) // assemble3 adds the markers in file order
		_, _, z = st.sys.MarkerAxes(id, st.q)
		return st.sys.MarkerPosition(id, st.q), st.sys.MarkerVelocity(id, st.q, st.v), z
	}
	origin := map[int]spatial.Vec3{joint.Ground: {}} // frame origins in the world at the start
	var q0, v0 []float64
	coord := map[string]int{} // tree joint → its coordinate of motions and springs
	for _, tj := range tree {
		pb := m.Markers[tj.mb].Body
		_, va, za := marker(tj.ma)
		rb, vb, zb := marker(tj.mb)
		fa := jb.frames[m.Markers[tj.ma].Body]
		_, _, _, wa := st.body(m.Markers[tj.ma].Body, sb)
		if fa.f == joint.Ground {
			wa = spatial.Vec3{}
		}
		r, p, _, w := st.body(pb, sb)
		wr := w.Sub(wa)
		var zi spatial.Vec3 // marker i's z axis
		if tj.s > 0 {
			zi = za
		} else {
			zi = zb
		}
		a := zi.Scale(tj.s)
		o := rb
		rel := vec3(o.Sub(origin[fa.f]))
		R := p.Matrix()
		J := spatial.Mat3(inertiaMatrix(bodyInertia(m, pb)))
		jbody := joint.Body{Name: pb, Mass: bodyMass(m, pb), COM: vec3(r.Sub(o)), Inertia: rotateInertia(R, J)}
		first := len(q0)
		var f int
		var rates []float64
		var axes []vec3
		slide := a.Dot(vb.Sub(va))
		switch tj.jt.Type {
		case JointSpherical:
			f = jb.Model.Spherical(tj.jt.Name, fa.f, rel, jbody)
			axes = []vec3{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}
			rates = []float64{wr[2], wr[0], wr[1]} // Cardan rates at zero angles: ω = ż e_z + ẋ e_x + ẏ e_y
		case JointRevolute:
			f = jb.Model.Revolute(tj.jt.Name, fa.f, rel, a, jbody)
			axes, rates = []vec3{a}, []float64{wr.Dot(a)}
		case JointTranslational:
			f = jb.Model.Prismatic(tj.jt.Name, fa.f, rel, a, jbody)
			axes, rates = []vec3{{}}, []float64{slide}
		case JointCylindrical:
			g := jb.Model.Prismatic(tj.jt.Name+".z", fa.f, rel, a, joint.Body{Name: tj.jt.Name + ".z"})
			f = jb.Model.Revolute(tj.jt.Name+".phi", g, [3]float64{}, a, jbody)
			axes, rates = []vec3{{}, a}, []float64{slide, wr.Dot(a)}
		case JointUniversal:
			f = jb.Model.Universal(tj.jt.Name, fa.f, rel, za, zb, jbody)
			axes, rates = []vec3{za, zb}, []float64{wr.Dot(za), wr.Dot(zb)}
		}
		for k := range axes {
			par := fa.f
			if k > 0 {
				par = first + k - 1
			}
			jb.parent = append(jb.parent, par)
			jb.axis = append(jb.axis, axes[k])
			q0, v0 = append(q0, 0), append(v0, rates[k])
		}
		coord[tj.jt.Name] = first // a cylindrical joint's displacement, the revolute's angle
		origin[f] = o
		jb.frames[pb] = frame3{f: f, com: vec3(r.Sub(o)), p0: p}
		jb.Tree = append(jb.Tree, tj.jt.Name)
	}
	markerIndex := map[string]int{}
	for k, mk := range m.Markers {
		markerIndex[mk.Name] = k
	}
	rows := 0
	for _, jt := range cuts {
		fi, fj := jb.frames[m.Markers[markerIndex[jt.I]].Body], jb.frames[m.Markers[markerIndex[jt.J]].Body]
		ri, _, _ := marker(markerIndex[jt.I])
		rj, _, _ := marker(markerIndex[jt.J])
		jb.Model.Cut(jt.Name, fi.f, vec3(ri.Sub(origin[fi.f])), fj.f, vec3(rj.Sub(origin[fj.f])), [3]float64{1, 0, 0}, [3]float64{0, 1, 0}, [3]float64{0, 0, 1})
		jb.Cuts = append(jb.Cuts, jt.Name)
		rows += 3
	}
	// c0 is the spatial joint coordinate at the start: c = c0 + q on the tree coordinate.
	c0 := func(name string) float64 {
		x, _ := st.sys.JointCoordinate(sb.Joints[name], st.q)
		return x
	}
	c := compiler{doc: doc}
	c.motions(m.Motions, func(mo Motion, f law.Func) {
		k := c0(mo.Joint)
		if m.Joints[slices.IndexFunc(m.Joints, func(j Joint3) bool { return j.Name == mo.Joint })].Type == JointRevolute {
			// The body route holds sin(β − f) = 0: β is f modulo 2π, so shift c0 onto f's turn.
			x, _, _ := f.Eval(m.Initial.Time)
			k += 2 * math.Pi * math.Round((x-k)/(2*math.Pi))
		}
		eval := func(d int) func(float64) float64 {
			return func(t float64) float64 {
				x, dx, ddx := f.Eval(t)
				return [3]float64{x - k, dx, ddx}[d]
			}
		}
		jb.Model.Drive(mo.Name, coord[mo.Joint], eval(0), eval(1), eval(2))
		jb.drives[mo.Name] = rows
		rows++
	})
	if err := c.err(); err != nil {
		return nil, err
	}
	for _, f := range m.Forces { // validate3 admits rsda on a revolute joint, linear
		jb.Model.Spring(coord[f.Joint], f.K, f.C, float64(f.FreeAngle)-c0(f.Joint))
	}
	sys, err := jb.Model.System()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doc.File, err)
	}
	jb.System = &JointMechanism{System: sys, q0: q0, v0: v0}
	return jb, nil
}

func bodyMass(m *SpatialModel, name string) float64 {
	for _, b := range m.Bodies {
		if b.Name == name {
			return b.Mass
		}
	}
	return 0
}

func bodyInertia(m *SpatialModel, name string) []float64 {
	for _, b := range m.Bodies {
		if b.Name == name {
			return b.Inertia
		}
	}
	return []float64{0, 0, 0}
}

// rotateInertia returns R J Rᵀ: the inertia tensor J (body axes) in the axes R maps to.
func rotateInertia(R, J spatial.Mat3) [3][3]float64 {
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
	motion := func(c *sample, fr frame3, p vec3, acc bool) joint.FrameMotion {
		if acc {
			return sys.FrameMotion(c.s.Q, c.s.V, c.s.A, fr.f, p)
		}
		return sys.FrameMotion(c.s.Q, c.s.V, nil, fr.f, p)
	}
	return func(name string) channelFunc {
		elem, suffix := splitChannel(name)
		if fr, ok := jb.frames[elem]; ok && elem != groundName {
			return jb.bodyChannel(sys, fr, suffix, motion)
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
					fm := motion(c, fr, vec3(s), false)
					return [6]float64{fm.Pos[0], fm.Pos[1], fm.Pos[2], fm.Vel[0], fm.Vel[1], fm.Vel[2]}[k]
				}
			}
		}
		row := jb.drives[elem] // channelNames3 offers only motions' λ among the joint channels
		return func(c *sample) float64 { return c.full[row] }
	}
}

// bodyChannel reads one body channel (body3Suffixes) of the body placed by fr.
func (jb *Joint3Built) bodyChannel(sys *JointMechanism, fr frame3, suffix string, motion func(*sample, frame3, vec3, bool) joint.FrameMotion) channelFunc {
	k := strings.IndexByte("xyz", suffix[len(suffix)-1])
	switch suffix {
	case "x", "y", "z":
		return func(c *sample) float64 { return sys.FrameMotion(c.s.Q, nil, nil, fr.f, fr.com).Pos[k] }
	case "vx", "vy", "vz":
		return func(c *sample) float64 { return motion(c, fr, fr.com, false).Vel[k] }
	case "ax", "ay", "az":
		return func(c *sample) float64 { return motion(c, fr, fr.com, true).Acc[k] }
	case "wx", "wy", "wz":
		// ω' = R_Bᵀ ω with R_B = R_f R_B0: the angular velocity in body axes.
		return func(c *sample) float64 {
			fm := motion(c, fr, fr.com, false)
			w := spatial.Mat3(fm.R).MulTVec(spatial.Vec3(fm.Omega))
			return fr.p0.Matrix().MulTVec(w)[k]
		}
	}
	i := int(suffix[1] - '0')
	return func(c *sample) float64 { return jb.orientation(fr, c.s.Q)[i] }
}

// orientation returns the Euler parameters of the body placed by fr at q: the product of
// the rotations of the coordinates on its frame's path (each about its axis in its
// parent's frame, seed 002 eq. 46) with the body's start orientation p0.
func (jb *Joint3Built) orientation(fr frame3, q []float64) spatial.Quat {
	p := fr.p0
	for j := fr.f; j != joint.Ground; j = jb.parent[j] {
		if a := jb.axis[j]; a != (vec3{}) {
			p = spatial.QuatFromAxisAngle(spatial.Vec3(a), q[j]).Mul(p)
		}
	}
	return p
}
