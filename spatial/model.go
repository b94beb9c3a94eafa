package spatial

import (
	"math"

	"linkage/assembly"
	"linkage/law"
)

// BodyID identifies a body of a Model; Ground (0) is the fixed frame.
type BodyID int

// Ground is the fixed body every model has, named "ground": origin at 0, identity
// orientation.
const Ground BodyID = 0

// MarkerID identifies a marker; the first marker added is 1, so the zero value means "no
// marker" and an unset field is reported by Assemble.
type MarkerID int

// JointID identifies a joint or motion (a constraint element); the first is 1.
type JointID int

// ForceID identifies a force element; the first is 1.
type ForceID int

// Body is a rigid body with the seven coordinates q = (x, y, z, p0, p1, p2, p3): the
// position R of its centre of mass and the Euler parameters p of its body frame (a unit
// quaternion, seed 002, Remark 7; Haug 1989, chs. 6 and 9; Nikravesh 1988, ch. 6).
type Body struct {
	Name    string
	Mass    float64 // > 0 [kg]
	Inertia Mat3    // inertia tensor J' about the centre of mass in body axes, symmetric positive definite [kg m²]
	Pos     Vec3    // initial guess of the centre of mass, global frame
	Orient  Quat    // initial guess of the orientation; the zero value means identity; normalized by Assemble
	Vel     Vec3    // initial guess of R'
	AngVel  Vec3    // initial guess of the angular velocity in body axes (Ω, ω' of seed 002 eq. 38)
}

// Marker is a frame fixed to a body: origin Point and axes in the body frame (whose origin
// is the centre of mass). Axis is the marker's z axis (the joint axis of revolute,
// translational, cylindrical and point-on-line joints, the normal of planar and
// point-on-plane joints); XAxis fixes its x axis (the reference of joint angles). Both are
// normalized at assembly; XAxis is made orthogonal to Axis. A zero Axis means the body's
// z axis; a zero XAxis (or one parallel to Axis) means the body axis least aligned with
// Axis, made orthogonal to it.
type Marker struct {
	Name  string
	Body  BodyID
	Point Vec3
	Axis  Vec3
	XAxis Vec3
}

// ForceFunc is a user force element: it adds its generalized forces (length nq, in the
// order of the coordinates: x, y, z, p0, p1, p2, p3 per body) at (t, q, v) into dst. It must
// not retain its arguments and should not allocate; its derivatives ∂f/∂q and ∂f/∂v are
// taken by central differences (step ∛ε·max(1, |q_j|), Nocedal & Wright 2006, eq. 8.8), so
// it must be smooth. A torque n' in body axes enters the p entries as 2 G(p)ᵀ n' (see the
// package documentation). Its power vᵀf counts as non-conservative.
type ForceFunc = assembly.ForceFunc

// TSDA is a translational spring-damper-actuator between the points of markers I and J
// (Haug 1989, ch. 11). With l = |r_J − r_I| and l' its rate, the tension (positive
// pulling the points together) is
//
//	F = Spring(l − FreeLength) + Damper(l') + Actuator(t),
//
// with Spring = Linear{K} and Damper = Linear{C} when nil. The element is singular at
// l = 0, where the direction is undefined.
type TSDA struct {
	Name       string
	I, J       MarkerID
	K, C       float64 // used when Spring or Damper is nil
	FreeLength float64
	Actuator   law.Func
	Spring     law.Force
	Damper     law.Force
}

// RSDA is a rotational spring-damper-actuator about the common z axis of two markers
// (normally those of a revolute joint: set Joint). With β the angle from x_I to x_J about
// z_I (the revolute's joint coordinate, in (−π, π]), the torque on J about z_I (minus that
// on I) is
//
//	T = −(Spring(β − FreeAngle) + Damper(β') + Actuator(t)).
//
// β wraps at ±π, so the spring force jumps there: keep |β − FreeAngle| below π.
type RSDA struct {
	Name      string
	Joint     JointID // a revolute joint whose markers are used; 0: use I and J
	I, J      MarkerID
	K, C      float64
	FreeAngle float64
	Actuator  law.Func
	Spring    law.Force
	Damper    law.Force
}

// Bushing is a linear 6-component spring-damper on the pose of marker J relative to
// marker I: the translations δ_k = e_kᵀ(r_J − r_I) along I's axes e_k ∈ {x_I, y_I, z_I}
// and the small rotations θ_x = (z_Iᵀy_J − y_Iᵀz_J)/2, θ_y = (x_Iᵀz_J − z_Iᵀx_J)/2,
// θ_z = (y_Iᵀx_J − x_Iᵀy_J)/2 (the axial vector of the relative rotation's skew part,
// sin of the angle for one-axis rotations). The generalized force is
// −Σ_k (K_k c_k + C_k c_k')·∇c_k over the six coordinates c_k.
type Bushing struct {
	Name       string
	I, J       MarkerID
	K, C       Vec3 // translational stiffness and damping along x_I, y_I, z_I
	KRot, CRot Vec3 // rotational stiffness and damping about x_I, y_I, z_I
}

// Model collects bodies, markers, joints and forces; Assemble turns it into a System.
// Add methods record their arguments and return an identifier; all validation happens in
// Assemble, whose error names every bad element.
type Model struct {
	bodies  []Body
	markers []Marker
	joints  []jointSpec
	forces  []forceSpec
	gravity Vec3

	friction map[JointID]JointFriction // SetFriction
}

type jointKind int

const (
	kindSpherical jointKind = iota
	kindRevolute
	kindTranslational
	kindCylindrical
	kindUniversal
	kindPlanar
	kindWeld
	kindDistance
	kindPointOnLine
	kindPointOnPlane
	kindMotion
	kindRollingDisk
)

var jointKindNames = [...]string{"spherical", "revolute", "translational", "cylindrical", "universal",
	"planar", "weld", "distance", "point-on-line", "point-on-plane", "motion", "rolling-disk"}

type jointSpec struct {
	name   string
	kind   jointKind
	i, j   MarkerID
	length float64 // distance; rolling-disk: the radius
	a      JointID // motion: the driven joint
	drive  law.Func
}

type forceKind int

const (
	kindTSDA forceKind = iota
	kindRSDA
	kindBushing
	kindPointForce
	kindTorque
	kindCustom
)

var forceKindNames = [...]string{"tsda", "rsda", "bushing", "point-force", "torque", "custom"}

type forceSpec struct {
	name    string
	kind    forceKind
	tsda    TSDA
	rsda    RSDA
	bushing Bushing
	marker  MarkerID
	body    BodyID
	fn      [3]law.Func
	global  bool
	custom  ForceFunc
}

// NewModel returns a model holding only the ground (body 0, "ground") and no gravity.
func NewModel() *Model {
	inf := math.Inf(1)
	return &Model{bodies: []Body{{Name: "ground", Mass: inf, Inertia: Diag(inf, inf, inf)}}}
}

// AddBody adds a moving body and returns its identifier (1, 2, … in order).
func (m *Model) AddBody(b Body) BodyID {
	m.bodies = append(m.bodies, b)
	return BodyID(len(m.bodies) - 1)
}

// AddMarker adds a marker fixed to mk.Body and returns its identifier.
func (m *Model) AddMarker(mk Marker) MarkerID {
	m.markers = append(m.markers, mk)
	return MarkerID(len(m.markers))
}

func (m *Model) addJoint(s jointSpec) JointID {
	m.joints = append(m.joints, s)
	return JointID(len(m.joints))
}

// AddSpherical adds a spherical (ball) joint: the points of markers i and j coincide,
// d = r_J − r_I = 0 (rows "name.x", "name.y", "name.z", global components).
func (m *Model) AddSpherical(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindSpherical, i: i, j: j})
}

// AddRevolute adds a revolute joint about the common z axis of markers i and j: d = 0
// and z_I ⊥ x_J, z_I ⊥ y_J (rows .x .y .z .zx .zy; Haug 1989, ch. 9). Its joint
// coordinate (AddMotion, RSDA) is the angle from x_I to x_J about z_I.
func (m *Model) AddRevolute(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindRevolute, i: i, j: j})
}

// AddTranslational adds a translational (prismatic) joint along z_I: x_Iᵀd = y_Iᵀd = 0,
// z_I ⊥ x_J, z_I ⊥ y_J, x_I ⊥ y_J (rows .dx .dy .zx .zy .xy). Its joint coordinate is the
// displacement z_Iᵀd.
func (m *Model) AddTranslational(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindTranslational, i: i, j: j})
}

// AddCylindrical adds a cylindrical joint along z_I: x_Iᵀd = y_Iᵀd = 0, z_I ⊥ x_J,
// z_I ⊥ y_J (rows .dx .dy .zx .zy). Its joint coordinate (AddMotion) is the displacement
// z_Iᵀd.
func (m *Model) AddCylindrical(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindCylindrical, i: i, j: j})
}

// AddUniversal adds a universal (Hooke) joint: d = 0 and the cross axes z_I and z_J stay
// perpendicular, z_Iᵀz_J = 0 (rows .x .y .z .zz).
func (m *Model) AddUniversal(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindUniversal, i: i, j: j})
}

// AddPlanar adds a planar joint: the point of j stays in the x-y plane of marker i and the
// z axes stay parallel, z_Iᵀd = 0, z_I ⊥ x_J, z_I ⊥ y_J (rows .d .zx .zy).
func (m *Model) AddPlanar(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindPlanar, i: i, j: j})
}

// AddWeld adds a fixed joint: d = 0 and the frames align, z_I ⊥ x_J, z_I ⊥ y_J, x_I ⊥ y_J
// (rows .x .y .z .zx .zy .xy).
func (m *Model) AddWeld(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindWeld, i: i, j: j})
}

// AddDistance adds a massless rod of the given length > 0 between the points of markers i
// and j: (dᵀd − length²)/2 = 0 (row "name.d"), so λ is the tension over the length.
func (m *Model) AddDistance(name string, i, j MarkerID, length float64) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindDistance, i: i, j: j, length: length})
}

// AddPointOnLine adds the primitive "point of j on the z axis of i": x_Iᵀd = y_Iᵀd = 0
// (rows .dx .dy). Its joint coordinate is z_Iᵀd.
func (m *Model) AddPointOnLine(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindPointOnLine, i: i, j: j})
}

// AddPointOnPlane adds the primitive "point of j in the x-y plane of i": z_Iᵀd = 0
// (row .d).
func (m *Model) AddPointOnPlane(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindPointOnPlane, i: i, j: j})
}

// AddMotion prescribes the joint coordinate of joint (a revolute's angle β, a
// translational's, cylindrical's or point-on-line's displacement z_Iᵀd) as f(t), a rheonomic constraint
// (row "name.c"):
//
//	translational:  z_Iᵀd − f(t) = 0,
//	revolute:       cos f(t)·(y_Iᵀx_J) − sin f(t)·(x_Iᵀx_J) = 0   (= sin(β − f) on the joint),
//
// the revolute form being smooth through β = ±π where the angle itself wraps. λ of the row
// is the driving force or torque about z_I with the sign of −Gᵀλ: −λ acts on J.
func (m *Model) AddMotion(name string, joint JointID, f law.Func) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindMotion, a: joint, drive: f})
}

// SetGravity sets the gravitational acceleration (e.g. Vec3{0, 0, −9.81}); each body feels
// m·gravity at its centre of mass.
func (m *Model) SetGravity(g Vec3) { m.gravity = g }

func (m *Model) addForce(s forceSpec) ForceID {
	m.forces = append(m.forces, s)
	return ForceID(len(m.forces))
}

// AddTSDA adds a translational spring-damper-actuator.
func (m *Model) AddTSDA(e TSDA) ForceID {
	return m.addForce(forceSpec{name: e.Name, kind: kindTSDA, tsda: e})
}

// AddRSDA adds a rotational spring-damper-actuator.
func (m *Model) AddRSDA(e RSDA) ForceID {
	return m.addForce(forceSpec{name: e.Name, kind: kindRSDA, rsda: e})
}

// AddBushing adds a linear 6-component bushing.
func (m *Model) AddBushing(e Bushing) ForceID {
	return m.addForce(forceSpec{name: e.Name, kind: kindBushing, bushing: e})
}

// AddPointForce adds the force (f[0](t), f[1](t), f[2](t)) at the point of marker mk: in
// global axes when global is true, else in the body's axes (a follower force). Nil
// components are zero.
func (m *Model) AddPointForce(name string, mk MarkerID, f [3]law.Func, global bool) ForceID {
	return m.addForce(forceSpec{name: name, kind: kindPointForce, marker: mk, fn: f, global: global})
}

// AddTorque adds the torque (n[0](t), n[1](t), n[2](t)) on body b: in global axes when
// global is true, else in the body's axes. Nil components are zero.
func (m *Model) AddTorque(name string, b BodyID, n [3]law.Func, global bool) ForceID {
	return m.addForce(forceSpec{name: name, kind: kindTorque, body: b, fn: n, global: global})
}

// AddCustomForce adds a user force element (see ForceFunc).
func (m *Model) AddCustomForce(name string, f ForceFunc) ForceID {
	return m.addForce(forceSpec{name: name, kind: kindCustom, custom: f})
}

// JointMarkers returns the markers joint j connects (0, 0 for motions or an unknown j).
func (m *Model) JointMarkers(j JointID) (i, k MarkerID) {
	if j < 1 || int(j) > len(m.joints) {
		return 0, 0
	}
	s := m.joints[j-1]
	return s.i, s.j
}
