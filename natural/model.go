package natural

import (
	"math"

	"linkage/law"
)

// Vec is a planar vector (x, y).
type Vec [2]float64

// BodyID identifies a rigid element (a body) of a Model; Ground (0) is the fixed frame.
type BodyID int

// Ground is the fixed body every model has, named "ground", at the origin with angle 0.
const Ground BodyID = 0

// MarkerID identifies a marker; the first marker added is 1, so the zero value means "no
// marker".
type MarkerID int

// JointID identifies a joint or motion; the first is 1.
type JointID int

// ForceID identifies a force element; the first is 1.
type ForceID int

// Body is a rigid element described as in body coordinates, by its mass, its polar moment of
// inertia about the centre of mass and a frame whose origin is the centre of mass; Assemble
// turns it into basic points. Pos, Angle, Vel and AngVel are the guess of the body's pose
// and velocity, from which InitialGuess places the points.
type Body struct {
	Name    string
	Mass    float64 // > 0 [kg]
	Inertia float64 // about the centre of mass, > 0 [kg m²]
	Pos     Vec     // guess of the centre of mass, global frame
	Angle   float64 // guess of the body frame's angle [rad]
	Vel     Vec     // guess of the centre of mass's velocity
	AngVel  float64 // guess of the angular velocity
}

// Marker is a point with a direction fixed to a body: origin Point and x axis at Angle in
// the body frame (whose origin is the centre of mass).
type Marker struct {
	Name  string
	Body  BodyID
	Point Vec
	Angle float64
}

// TSDA is a translational spring-damper-actuator between the points of markers I and J:
// tension F = Spring(l − FreeLength) + Damper(l') + Actuator(t), l = |r_J − r_I| (as in
// package planar; Spring = Linear{K}, Damper = Linear{C} when nil).
type TSDA struct {
	Name       string
	I, J       MarkerID
	K, C       float64
	FreeLength float64
	Actuator   law.Func
	Spring     law.Force
	Damper     law.Force
}

// RSDA is a rotational spring-damper-actuator between the x axes of markers I and J (or of
// the markers of the revolute Joint when Joint is not 0): torque on J (minus that on I)
// T = −(Spring(δ) + Damper(δ') + Actuator(t)), δ = β − FreeAngle with β the angle from I's
// x axis to J's. Natural coordinates hold no angle, so δ is read from the axes' sine and
// cosine and lies in (−π, π]: a spring wound more than half a turn from its free angle is
// outside this route (package planar measures β without wrapping).
type RSDA struct {
	Name      string
	Joint     JointID
	I, J      MarkerID
	K, C      float64
	FreeAngle float64
	Actuator  law.Func
	Spring    law.Force
	Damper    law.Force
}

// Bushing is a linear spring-damper on the pose of marker J in the frame of marker I (as in
// package planar); its angle δθ is wrapped into (−π, π] like an RSDA's.
type Bushing struct {
	Name           string
	I, J           MarkerID
	Kx, Ky, Ktheta float64
	Cx, Cy, Ctheta float64
}

// Model collects bodies, markers, joints and forces; Assemble turns it into a System. Add
// methods record; Assemble validates and reports every bad element at once.
type Model struct {
	bodies  []Body
	markers []Marker
	joints  []jointSpec
	forces  []forceSpec
	gravity Vec
}

type jointKind int

const (
	kindRevolute jointKind = iota
	kindTranslational
	kindDistance
	kindWeld
	kindPointOnLine
	kindMotion
)

var jointKindNames = [...]string{"revolute", "translational", "distance", "weld", "point-on-line", "motion"}

type jointSpec struct {
	name   string
	kind   jointKind
	i, j   MarkerID
	length float64
	a      JointID // motion: the driven joint
	drive  law.Func
}

type forceKind int

const (
	kindTSDA forceKind = iota
	kindRSDA
	kindPointForce
	kindTorque
	kindBushing
)

var forceKindNames = [...]string{"tsda", "rsda", "point-force", "torque", "bushing"}

type forceSpec struct {
	name    string
	kind    forceKind
	tsda    TSDA
	rsda    RSDA
	bushing Bushing
	marker  MarkerID
	fx, fy  law.Func
	global  bool
	body    BodyID
	torque  law.Func
}

// NewModel returns a model holding only the ground and no gravity.
func NewModel() *Model {
	return &Model{bodies: []Body{{Name: "ground", Mass: math.Inf(1), Inertia: math.Inf(1)}}}
}

// AddBody adds a rigid element and returns its identifier (1, 2, … in order).
func (m *Model) AddBody(b Body) BodyID {
	m.bodies = append(m.bodies, b)
	return BodyID(len(m.bodies) - 1)
}

// AddMarker adds a marker and returns its identifier.
func (m *Model) AddMarker(mk Marker) MarkerID {
	m.markers = append(m.markers, mk)
	return MarkerID(len(m.markers))
}

func (m *Model) addJoint(s jointSpec) JointID {
	m.joints = append(m.joints, s)
	return JointID(len(m.joints))
}

// AddRevolute joins the points of markers i and j: they become one basic point shared by
// both bodies (a fixed point when one is the ground), so the joint adds no constraint row.
// Its joint coordinate, for AddMotion and RSDA, is the angle between the markers' x axes.
func (m *Model) AddRevolute(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindRevolute, i: i, j: j})
}

// AddTranslational keeps the point of j on the x axis of i and the axes parallel:
// n_I·(r_J − r_I) = 0 and u_I × u_J = 0 (rows "name.n", "name.theta"). Its joint
// coordinate is u_I·(r_J − r_I).
func (m *Model) AddTranslational(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindTranslational, i: i, j: j})
}

// AddDistance adds a massless rod: (|r_J − r_I|² − length²)/2 = 0 (row "name.d").
func (m *Model) AddDistance(name string, i, j MarkerID, length float64) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindDistance, i: i, j: j, length: length})
}

// AddWeld fixes markers i and j together: r_J − r_I = 0, u_I × u_J = 0 (rows "name.x",
// "name.y", "name.theta").
func (m *Model) AddWeld(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindWeld, i: i, j: j})
}

// AddPointOnLine keeps the point of j on the x axis of i: n_I·(r_J − r_I) = 0 (row
// "name.n"). Its joint coordinate is u_I·(r_J − r_I).
func (m *Model) AddPointOnLine(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindPointOnLine, i: i, j: j})
}

// AddMotion prescribes the joint coordinate of joint as f(t) (row "name.c"): for a
// translational or point-on-line joint u_I·d − f(t) = 0, for a revolute joint, whose angle β
// is no coordinate here, sin(β − f(t)) = (u_I × u_J) cos f − (u_I·u_J) sin f = 0, whose
// gradient equals that of β − f on the solution, so λ is the driving load as in package
// planar.
func (m *Model) AddMotion(name string, joint JointID, f law.Func) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindMotion, a: joint, drive: f})
}

// SetGravity sets the gravitational acceleration.
func (m *Model) SetGravity(g Vec) { m.gravity = g }

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

// AddBushing adds a linear bushing.
func (m *Model) AddBushing(e Bushing) ForceID {
	return m.addForce(forceSpec{name: e.Name, kind: kindBushing, bushing: e})
}

// AddPointForce adds the force (fx(t), fy(t)) at the point of marker mk, in global axes when
// global is true, else in the marker's axes. Nil components are zero.
func (m *Model) AddPointForce(name string, mk MarkerID, fx, fy law.Func, global bool) ForceID {
	return m.addForce(forceSpec{name: name, kind: kindPointForce, marker: mk, fx: fx, fy: fy, global: global})
}

// AddTorque adds the torque τ(t) (counter-clockwise) on body b.
func (m *Model) AddTorque(name string, b BodyID, tau law.Func) ForceID {
	return m.addForce(forceSpec{name: name, kind: kindTorque, body: b, torque: tau})
}
