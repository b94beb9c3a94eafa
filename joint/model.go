package joint

import (
	"fmt"
	"math"
)

// Ground is the parent index of a joint attached to the fixed world frame.
const Ground = -1

// Body is a rigid body in its own frame: mass, centre of mass and central inertia tensor.
type Body struct {
	Name    string
	Mass    float64
	COM     [3]float64    // centre of mass in the body frame
	Inertia [3][3]float64 // inertia tensor about the centre of mass, body frame axes
}

// primitive is one degree of freedom of the tree (seed 002, eq. 46): the child frame is the
// parent frame moved to Origin and then turned about, or slid along, Axis by q.
type primitive struct {
	name      string
	parent    int  // parent primitive, or Ground
	prismatic bool // translation along axis instead of rotation about it
	origin    vec3 // joint frame origin in the parent frame
	axis      vec3 // unit axis in the parent frame (after origin)
	body      Body // rigid body carried by the child frame (zero mass for inner frames)
	bare      bool // body has no mass and no inertia (an inner frame of a composite joint)
	// coord is k when axis is ±e_k (sign: ±1), a coordinate axis, as in every spherical,
	// universal and planar joint: the position pass turns two columns of the parent's
	// orientation instead of multiplying by a Rodrigues matrix; −1 for other axes.
	coord    int
	sign     float64
	k, d, q0 float64
	diagJ    bool // body.Inertia is diagonal (bodyTo scales R's columns for R J)
	// ball3 marks the first of three turns about coordinate axes through one point, each
	// the child of the one before, the first two bare (a spherical or Cardan joint about
	// coordinate axes): the position pass and the velocity recursion take them in one
	// step (ballPositions, ballVelocity).
	ball3 bool
}

// cut is a loop-closure (cut) joint: the points pa on frame a and pb on frame b coincide
// along the world directions dirs (seed 002 §3.3: the cut joint's constraints g(q) = 0).
type cut struct {
	name   string
	a, b   int // primitive frames (Ground allowed)
	pa, pb vec3
	dirs   []vec3
}

// drive prescribes a joint coordinate: q_j − f(t) = 0 (a rheonomic constraint).
type drive struct {
	name      string
	coord     int
	f, f1, f2 func(t float64) float64
}

// Model is a tree of joints and bodies in joint coordinates, with cut joints and drives.
// Build it with the joint methods (each returns the frame index of its child body, to be
// used as the parent of further joints), then call System.
type Model struct {
	Gravity [3]float64
	prims   []primitive
	cuts    []cut
	slides  []cut // CutSlide: dirs fixed in frame a
	axes    []axisCut
	drives  []drive
	sds     []sdElement   // force elements' spring-dampers (forces.go)
	loads   []loadElement // point forces and torques (forces.go)
	knives  []knife       // KnifeEdge: Pfaffian rows
	cams    []camCut
	disks   []disk // RollingDisk: a holonomic row and two Pfaffian rows each
	err     error

	frictions []friction // joint friction (friction.go)

	flex     []flexBody // flexible bodies beside the tree (flex.go)
	flexCuts []flexCut

	springs bool // some coordinate has a spring-damper (Spring with k or d nonzero)
}

// Revolute adds a rotation about axis (parent frame) through origin (parent frame) and
// returns the child frame, which carries body.
func (m *Model) Revolute(name string, parent int, origin, axis [3]float64, body Body) int {
	return m.add(name, parent, false, origin, axis, body)
}

// Prismatic adds a translation along axis from origin and returns the child frame.
func (m *Model) Prismatic(name string, parent int, origin, axis [3]float64, body Body) int {
	return m.add(name, parent, true, origin, axis, body)
}

// Universal adds two rotations, about x1 (parent frame) and then about x2 (the frame after
// the first rotation), at origin; the child frame carries body.
func (m *Model) Universal(name string, parent int, origin, x1, x2 [3]float64, body Body) int {
	f := m.add(name+".1", parent, false, origin, x1, Body{Name: name + ".1"})
	return m.add(name+".2", f, false, [3]float64{}, x2, body)
}

// Spherical adds three rotations at origin about z, x and y of the successive frames
// (Cardan angles; singular when the middle angle is ±90°) and returns the child frame.
func (m *Model) Spherical(name string, parent int, origin [3]float64, body Body) int {
	f := m.add(name+".z", parent, false, origin, [3]float64{0, 0, 1}, Body{Name: name + ".z"})
	f = m.add(name+".x", f, false, [3]float64{}, [3]float64{1, 0, 0}, Body{Name: name + ".x"})
	return m.add(name+".y", f, false, [3]float64{}, [3]float64{0, 1, 0}, body)
}

// Cardan adds three rotations at origin about the orthonormal axes a1, a2 and a3 (parent
// frame coordinates, which the earlier rotations leave unchanged in their own frames),
// named name.1, name.2, name.3, and returns the child frame, which carries body:
// R = Rot(a1, q1) Rot(a2, q2) Rot(a3, q3), singular where the middle angle is ±90° (a3 is
// turned onto a1 there). Spherical is the chart a1, a2, a3 = z, x, y.
func (m *Model) Cardan(name string, parent int, origin [3]float64, a1, a2, a3 [3]float64, body Body) int {
	f := m.add(name+".1", parent, false, origin, a1, Body{Name: name + ".1"})
	f = m.add(name+".2", f, false, [3]float64{}, a2, Body{Name: name + ".2"})
	return m.add(name+".3", f, false, [3]float64{}, a3, body)
}

// Free adds three translations along the parent's x, y, z from origin and a spherical
// joint: six coordinates (position of the child frame, Cardan angles).
func (m *Model) Free(name string, parent int, origin [3]float64, body Body) int {
	f := parent
	for i, s := range []string{".tx", ".ty", ".tz"} {
		var e, o [3]float64
		e[i] = 1
		if i == 0 {
			o = origin
		}
		f = m.add(name+s, f, true, o, e, Body{Name: name + s})
	}
	return m.Spherical(name, f, [3]float64{}, body)
}

// Spring puts a linear spring-damper on coordinate i (as returned by Coordinate):
// generalized force −k (q − q0) − d q'.
func (m *Model) Spring(i int, k, d, q0 float64) {
	if i < 0 || i >= len(m.prims) {
		m.fail(fmt.Errorf("joint: spring on coordinate %d: model has %d coordinates", i, len(m.prims)))
		return
	}
	p := &m.prims[i]
	p.k, p.d, p.q0 = k, d, q0
	m.springs = m.springs || k != 0 || d != 0
}

// Cut closes a loop: point pa of frame a and point pb of frame b (frame coordinates)
// coincide along each world direction in dirs (three axes for a spherical cut joint, the
// two in-plane axes for a revolute cut joint of a planar mechanism).
func (m *Model) Cut(name string, a int, pa [3]float64, b int, pb [3]float64, dirs ...[3]float64) {
	if c, ok := m.pointCut(name, a, pa, b, pb, dirs); ok {
		m.cuts = append(m.cuts, c)
	}
}

// pointCut returns the points and unit directions of a cut joint's rows (Cut, CutSlide),
// and false, recording the error, when its frames are not two existing different ones.
func (m *Model) pointCut(name string, a int, pa [3]float64, b int, pb [3]float64, dirs [][3]float64) (cut, bool) {
	if !m.cutFrames(name, a, b, len(dirs)) {
		return cut{}, false
	}
	c := cut{name: name, a: a, b: b, pa: pa, pb: pb}
	for _, d := range dirs {
		c.dirs = append(c.dirs, unit(d))
	}
	return c, true
}

// cutFrames reports whether cut joint name joins two different existing frames a and b
// with at least one row (rows of them), recording the error if not.
func (m *Model) cutFrames(name string, a, b, rows int) bool {
	for _, f := range []int{a, b} {
		if f < Ground || f >= len(m.prims) {
			m.fail(fmt.Errorf("joint: cut joint %q: frame %d does not exist (%d frames)", name, f, len(m.prims)))
			return false
		}
	}
	if a == b || rows == 0 {
		m.fail(fmt.Errorf("joint: cut joint %q needs two different frames and at least one direction", name))
		return false
	}
	return true
}

// Drive prescribes coordinate i to follow f(t), with its first and second derivatives f1
// and f2 (a rheonomic constraint q_i − f(t) = 0).
func (m *Model) Drive(name string, i int, f, f1, f2 func(float64) float64) {
	if i < 0 || i >= len(m.prims) {
		m.fail(fmt.Errorf("joint: drive %q on coordinate %d: model has %d coordinates", name, i, len(m.prims)))
		return
	}
	m.drives = append(m.drives, drive{name: name, coord: i, f: f, f1: f1, f2: f2})
}

func (m *Model) add(name string, parent int, prismatic bool, origin, axis [3]float64, body Body) int {
	if parent < Ground || parent >= len(m.prims) {
		m.fail(fmt.Errorf("joint: joint %q: parent frame %d does not exist (%d frames; Ground is %d)", name, parent, len(m.prims), Ground))
	}
	if a := vec3(axis); a.dot(a) == 0 {
		m.fail(fmt.Errorf("joint: joint %q: zero axis, want a nonzero direction", name))
	}
	if body.Mass < 0 {
		m.fail(fmt.Errorf("joint: body %q: negative mass %g", body.Name, body.Mass))
	}
	p := primitive{name: name, parent: parent, prismatic: prismatic, origin: origin, axis: unit(axis),
		body: body, bare: body.Mass == 0 && body.Inertia == [3][3]float64{}, coord: -1}
	J := body.Inertia
	p.diagJ = J[0][1] == 0 && J[0][2] == 0 && J[1][0] == 0 && J[1][2] == 0 && J[2][0] == 0 && J[2][1] == 0
	for k := range 3 {
		var e vec3
		e[k] = 1
		switch p.axis {
		case e:
			p.coord, p.sign = k, 1
		case e.scale(-1):
			p.coord, p.sign = k, -1
		}
	}
	m.prims = append(m.prims, p)
	if j := len(m.prims) - 3; j >= 0 && m.ballTurns(j) {
		m.prims[j].ball3 = true
	}
	return len(m.prims) - 1
}

func (m *Model) fail(err error) {
	if m.err == nil {
		m.err = err
	}
}

func unit(a vec3) vec3 {
	n := math.Sqrt(a.dot(a))
	if n == 0 {
		return a
	}
	return a.scale(1 / n)
}
