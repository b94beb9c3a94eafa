package modelfile

import (
	"fmt"
	"slices"

	"linkage/assembly"
	"linkage/joint"
)

// build_jointfriction.go: joint friction with coordinates: joint. A tree joint has no
// multiplier, so a joint with friction gets slack coordinates held at zero by rows whose
// multipliers are the reaction components that press it (joint.Friction): a pin the
// translations NAME.x, NAME.y along its parent frame's axes before its rotation, a slider
// the translation NAME.n along marker i's y axis after its displacement and the rotation
// NAME.theta about marker j's point, which carries the body. The rows hold the components
// of the body route's rows (a pin's force in other axes of the plane, a slider's normal
// force and its moment about the contact point), so the normal force N and the law are the
// same (the moment weighs 1/arm in N², nothing without an arm), and the joint's reaction
// channels read them (reactionChannel).

// passOrder is the order in which a pass of the spanning tree offers its candidate joints
// (treeBuilder.pass): those with friction first, so that they keep their coordinate (a
// translational cut joint takes no friction; a revolute one takes it on the relative angle
// of its frames), and within each group translational joints before revolute ones.
var passOrder = [...]struct {
	friction bool
	typ      string
}{{true, JointTranslational}, {true, JointRevolute}, {false, JointTranslational}, {false, JointRevolute}}

// pinSlack adds the slack translations of revolute joint jt with friction at origin of
// frame parent and returns the frame and point (in it) where the rotation goes; without
// friction, parent and origin.
func (t *treeBuilder) pinSlack(jt Joint, parent int, origin [3]float64) (int, [3]float64) {
	if jt.Friction == nil {
		return parent, origin
	}
	x := t.prim(t.jb.Model.Prismatic(jt.Name+".x", parent, origin, [3]float64{1, 0, 0}, joint.Body{Name: jt.Name + ".x"}), parent, false, 0, 0)
	y := t.prim(t.jb.Model.Prismatic(jt.Name+".y", x, [3]float64{}, [3]float64{0, 1, 0}, joint.Body{Name: jt.Name + ".y"}), x, false, 0, 0)
	return y, [3]float64{}
}

// slid is the body the displacement frame of translational joint jt carries: the joint's
// body, or, with friction, a massless frame (the slack frames carry the body).
func slid(jt Joint, body joint.Body) joint.Body {
	if jt.Friction == nil {
		return body
	}
	return joint.Body{Name: jt.Name}
}

// slideSlack adds the slack frames of translational joint jt with friction after its
// displacement frame i (axis its direction in the parent frame): the translation along
// the normal and the rotation at the frame's origin (marker j's point on the axis), which
// carries body; it returns the frame of the body (i without friction).
func (t *treeBuilder) slideSlack(jt Joint, i int, axis Vec, body joint.Body) int {
	if jt.Friction == nil {
		return i
	}
	m := t.jb.Model
	f := t.prim(m.Prismatic(jt.Name+".n", i, [3]float64{}, [3]float64{-axis[1], axis[0]}, joint.Body{Name: jt.Name + ".n"}), i, false, 0, 0)
	return t.prim(m.Revolute(jt.Name+".theta", f, [3]float64{}, [3]float64{0, 0, 1}, body), f, true, 0, 0)
}

// frictions puts the friction of every joint that has one on its coordinate, pressed by
// its slack rows (the law, pin radius and arm of the body route: assembly.NewJointFriction),
// or, on a revolute cut joint, on the relative angle of its frames, pressed by its point
// rows (joint.Model.PlanarCutFriction); it refuses friction on a translational cut joint.
func (t *treeBuilder) frictions() error {
	for k, jt := range t.doc.Model.Joints {
		if jt.Friction == nil {
			continue
		}
		j, inTree := t.signs[jt.Name]
		rev := jt.Type == JointRevolute
		if !inTree && !rev {
			return fmt.Errorf("%s: joints[%d]: translational joint %q has friction and is a cut joint, whose sliding is no coordinate with coordinates: joint; "+
				"put it in the tree (list it before the joint that closes the loop) or use coordinates: body", t.doc.File, k, jt.Name)
		}
		force := []int{0, 1} // the weights of the rows in N², in the order of the holds below
		if !rev {
			force = force[:1]
		}
		e, err := assembly.NewJointFriction(rev, jt.Friction.spec(), 0, 0, force, []int{1})
		if err != nil {
			return fmt.Errorf("%s: joints[%d].friction: joint %q: %w", t.doc.File, k, jt.Name, err)
		}
		mi := t.markers[jt.I]
		fi := t.jb.frames[mi.Body]
		hr := holdReaction{pin: rev, s: j.s, frameI: fi.f, phiI: fi.phi + float64(mi.Angle), first: jt.Name + ".x"}
		switch {
		case !inTree: // the cut's rows r_I − r_J = 0 in world axes put +λ on marker j's body
			t.jb.Model.PlanarCutFriction(jt.Name, e.Law)
			hr.s, hr.parent, hr.first = -1, joint.Ground, jt.Name+"[0]"
		case rev:
			t.jb.Model.Friction(jt.Name, j.i, e.Law, joint.Hold{Name: "x", Coord: j.i - 2, Weight: e.W[0]}, joint.Hold{Name: "y", Coord: j.i - 1, Weight: e.W[1]})
			hr.parent = t.jb.parent[j.i-2]
		default:
			t.jb.Model.Friction(jt.Name, j.i, e.Law, joint.Hold{Name: "n", Coord: j.i + 1, Weight: e.W[0]}, joint.Hold{Name: "theta", Coord: j.i + 2, Weight: e.W[1]})
			hr.parent, hr.n, hr.first = t.jb.parent[j.i], rot(hr.phiI, Vec{0, 1}), jt.Name+".n"
		}
		if t.jb.holds == nil {
			t.jb.holds = map[string]holdReaction{}
		}
		t.jb.holds[jt.Name] = hr
	}
	return nil
}

// holdReaction is where the reaction of a joint with friction is read: its row first (a
// pin's x, a slider's n, a revolute cut joint's [0]; the next row y, theta or [1]) holds
// the slack along the axes of frame parent (x, y; a slider's normal n in that frame's
// axes), whose generalized force −λ acts on the tree joint's child, marker j's body when
// s = +1 (a cut joint: parent the ground and s = −1); marker i is turned by phiI from
// frame frameI.
type holdReaction struct {
	first  string
	pin    bool
	parent int
	s      float64
	n      Vec
	frameI int
	phiI   float64
}

// reactionChannel returns the reader of reaction channel suffix (jointSuffixes) of joint
// name when it has friction, and false otherwise: the load on marker j's body, as the
// body route's (planar.Reaction: in global axes and in marker i's, the moment about
// marker j's point), from the hold rows: a pin's force −R(θ_parent)(λ_x, λ_y) on the child
// and no moment, a slider's force −λ_n n and moment −λ_θ.
func (jb *JointBuilt) reactionChannel(name, suffix string, angle func(int, *sample) float64) (channelFunc, bool) {
	hr, ok := jb.holds[name]
	if !ok {
		return nil, false
	}
	_, nc := jb.System.Size()
	r := 0
	for r < nc && jb.System.ConstraintName(r) != hr.first {
		r++
	}
	load := func(c *sample) (Vec, float64) {
		th := angle(hr.parent, c)
		if hr.pin {
			f := rot(th, Vec{-hr.s * c.full[r], -hr.s * c.full[r+1]})
			return f, 0
		}
		n := rot(th, hr.n)
		return Vec{-c.full[r] * n[0], -c.full[r] * n[1]}, -c.full[r+1]
	}
	return func(c *sample) float64 {
		f, torque := load(c)
		local := rot(-angle(hr.frameI, c)-hr.phiI, f)
		return reactionValue([2]float64(f), torque, [2]float64(local), suffix)
	}, true
}

// pinSlack3 adds the slack translations NAME.x, NAME.y, NAME.z of a 3D revolute joint jt
// with friction at origin of frame parent (oriented as the world at the start) and returns
// the frame and point where the rotation goes, with the slack coordinates' axes (zero:
// translations) and their rates (zero); without friction, parent, origin and none. The
// body route presses a 3D pin by its whole force, |(λ_x, λ_y, λ_z)|, and leaves the
// bending moments out (spatial/friction.go), so the translations are all the slack needed.
func (t *tree3Builder) pinSlack3(jt Joint3, parent int, origin vec3) (int, vec3, []vec3) {
	if jt.Friction == nil {
		return parent, origin, nil
	}
	f := parent
	for k, s := range []string{".x", ".y", ".z"} {
		var e, o vec3
		e[k] = 1
		if k == 0 {
			o = origin
		}
		f = t.jb.Model.Prismatic(jt.Name+s, f, o, e, joint.Body{Name: jt.Name + s})
	}
	return f, vec3{}, []vec3{{}, {}, {}}
}

// frictions puts the friction of every 3D revolute tree joint that has one on its angle,
// pressed by its slack rows NAME.x, NAME.y, NAME.z (validate refuses friction on other
// joints with coordinates: joint in 3D), and refuses friction on a cut joint.
func (t *tree3Builder) frictions() error {
	for k, jt := range t.m.Joints {
		if jt.Friction == nil {
			continue
		}
		if slices.Contains(t.jb.Cuts, jt.Name) {
			return fmt.Errorf("%s: joints[%d]: joint %q has friction and is a cut joint (it closes a loop), whose motion is no coordinate with coordinates: joint; "+
				"list another joint of the loop after it, or use coordinates: body", t.doc.File, k, jt.Name)
		}
		e, err := assembly.NewJointFriction(true, jt.Friction.spec(), 0, 0, []int{0, 1, 2}, nil)
		if err != nil {
			return fmt.Errorf("%s: joints[%d].friction: joint %q: %w", t.doc.File, k, jt.Name, err)
		}
		i := t.coord[jt.Name]
		t.jb.Model.Friction(jt.Name, i, e.Law, joint.Hold{Name: "x", Coord: i - 3, Weight: e.W[0]},
			joint.Hold{Name: "y", Coord: i - 2, Weight: e.W[1]}, joint.Hold{Name: "z", Coord: i - 1, Weight: e.W[2]})
	}
	return nil
}
