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
// the translation NAME.n along marker i's y axis after its displacement and, when the
// friction has an arm, the rotation NAME.theta about marker j's point, which carries the
// body. The rows hold the components of the body route's rows (a pin's force in other
// axes of the plane, a slider's normal force and its moment about the contact point), so
// the normal force N and the law are the same.

// passOrder is the order in which a pass of the spanning tree offers its candidate joints
// (treeBuilder.pass): those with friction first, since a cut joint takes no friction, and
// within each group translational joints before revolute ones.
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
// the normal and, with an arm, the rotation at the frame's origin (marker j's point on the
// axis), the last carrying body; it returns the frame of the body (i without friction).
func (t *treeBuilder) slideSlack(jt Joint, i int, axis Vec, body joint.Body) int {
	if jt.Friction == nil {
		return i
	}
	m := t.jb.Model
	nb := body
	if jt.Friction.Arm > 0 {
		nb = joint.Body{Name: jt.Name + ".n"}
	}
	f := t.prim(m.Prismatic(jt.Name+".n", i, [3]float64{}, [3]float64{-axis[1], axis[0]}, nb), i, false, 0, 0)
	if jt.Friction.Arm > 0 {
		f = t.prim(m.Revolute(jt.Name+".theta", f, [3]float64{}, [3]float64{0, 0, 1}, body), f, true, 0, 0)
	}
	return f
}

// frictions puts the friction of every tree joint that has one on its coordinate, pressed
// by its slack rows (the law, pin radius and arm of the body route: assembly.NewJointFriction),
// and refuses friction on a cut joint, whose relative motion is no coordinate.
func (t *treeBuilder) frictions() error {
	for k, jt := range t.doc.Model.Joints {
		if jt.Friction == nil {
			continue
		}
		j, ok := t.signs[jt.Name]
		if !ok {
			return fmt.Errorf("%s: joints[%d]: joint %q has friction and is a cut joint, whose motion is no coordinate with coordinates: joint; "+
				"put it in the tree (list it before the joint that closes the loop) or use coordinates: body", t.doc.File, k, jt.Name)
		}
		rev := jt.Type == JointRevolute
		force := []int{0, 1} // the weights of the rows in N², in the order of the holds below
		if !rev {
			force = force[:1]
		}
		e, err := assembly.NewJointFriction(rev, jt.Friction.spec(), 0, 0, force, []int{1})
		if err != nil {
			return fmt.Errorf("%s: joints[%d].friction: joint %q: %w", t.doc.File, k, jt.Name, err)
		}
		holds := []joint.Hold{{Name: "x", Coord: j.i - 2, Weight: e.W[0]}, {Name: "y", Coord: j.i - 1, Weight: e.W[1]}}
		if !rev {
			holds = []joint.Hold{{Name: "n", Coord: j.i + 1, Weight: e.W[0]}}
			if jt.Friction.Arm > 0 {
				holds = append(holds, joint.Hold{Name: "theta", Coord: j.i + 2, Weight: e.W[1]})
			}
		}
		t.jb.Model.Friction(jt.Name, j.i, e.Law, holds...)
	}
	return nil
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
