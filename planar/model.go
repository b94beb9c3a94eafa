package planar

import (
	"math"

	"linkage/assembly"
	"linkage/law"
)

// Vec is a planar vector (x, y).
type Vec [2]float64

// BodyID identifies a body of a Model; Ground (0) is the fixed frame.
type BodyID int

// Ground is the fixed body every model has, named "ground", at the origin with angle 0.
const Ground BodyID = 0

// MarkerID identifies a marker; the first marker added is 1, so the zero value means "no
// marker" and an unset field is reported by Assemble.
type MarkerID int

// JointID identifies a joint, coupler or motion (a constraint element); the first is 1, so
// the zero value means "no joint".
type JointID int

// ForceID identifies a force element; the first is 1.
type ForceID int

// Body is a rigid body with body coordinates q = (x, y, θ) of its centre of mass and the
// angle of its body frame (seed 000, section 4.1; Haug 1989, ch. 6).
type Body struct {
	Name    string
	Mass    float64 // > 0 [kg]
	Inertia float64 // polar moment of inertia about the centre of mass, ≥ 0 (0: a point mass) [kg m²]
	Pos     Vec     // initial guess of the centre of mass, global frame
	Angle   float64 // initial guess of θ [rad]
	Vel     Vec     // initial guess of the velocity of the centre of mass
	AngVel  float64 // initial guess of θ'
}

// Marker is a frame fixed to a body: origin Point and x axis at Angle, both in the body
// frame (whose origin is the centre of mass). Joints act between two markers I and J.
type Marker struct {
	Name  string
	Body  BodyID
	Point Vec
	Angle float64
}

// ForceFunc is a user force element: it adds its generalized forces (length nq, in the
// order of the coordinates: x, y, θ per body) at (t, q, v) into dst. It must not retain
// its arguments and should not allocate; its derivatives ∂f/∂q and ∂f/∂v are taken by
// central finite differences (step ∛ε·max(1, |q_j|), Nocedal & Wright 2006, eq. 8.8), so it
// must be smooth and deterministic. Its power vᵀf counts as non-conservative.
type ForceFunc = assembly.ForceFunc

// TSDA is a translational spring-damper-actuator between the points of markers I and J
// (seed 000, section 4.2; Haug 1989, sec. 6.3). With l = |r_J − r_I| and l' its rate, the
// tension (positive pulling the points together) is
//
//	F = Spring(l − FreeLength) + Damper(l') + Actuator(t),
//
// with Spring = Linear{K} and Damper = Linear{C} when nil, and no actuator when nil. The
// direction (r_J − r_I)/l is undefined at l = 0: the element is singular there.
type TSDA struct {
	Name       string
	I, J       MarkerID
	K, C       float64 // used when Spring or Damper is nil
	FreeLength float64
	Actuator   law.Func
	Spring     law.Force
	Damper     law.Force
}

// RSDA is a rotational spring-damper-actuator between two bodies. The relative angle
// β = (θ_J + φ_J) − (θ_I + φ_I) is measured between the x axes of markers I and J (or of
// the markers of the revolute Joint, when Joint is not 0); the torque on J (minus that on I)
// is
//
//	T = −(Spring(β − FreeAngle) + Damper(β') + Actuator(t)),
//
// with Spring = Linear{K}, Damper = Linear{C} when nil. β is not wrapped, so a spring
// wound several turns acts accordingly.
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

// Bushing is a linear spring-damper on the relative pose of marker J in the frame of
// marker I: δx, δy the position of J's point in I's axes and δθ the angle between their x
// axes; the generalized force is −Σ_k (K_k δ_k + C_k δ'_k)·∂δ_k/∂q, k ∈ {x, y, θ}, so
// the damping dissipates −Σ C_k δ'_k² (a Rayleigh dissipation function).
type Bushing struct {
	Name           string
	I, J           MarkerID
	Kx, Ky, Ktheta float64
	Cx, Cy, Ctheta float64
}

// Model collects bodies, markers, joints and forces; Assemble turns it into a System.
// Add methods record their arguments and return an identifier; all validation happens in
// Assemble, whose error names every bad element.
type Model struct {
	bodies  []Body
	markers []Marker
	joints  []jointSpec
	forces  []forceSpec
	flex    []flexSpec // the bodies AddFlexibleBody made flexible
	gravity Vec

	friction map[JointID]JointFriction // SetFriction
	knives   []knifeSpec               // AddKnifeEdge (knife.go)
}

type jointKind int

const (
	kindRevolute jointKind = iota
	kindTranslational
	kindDistance
	kindWeld
	kindPointOnLine
	kindCoupler
	kindMotion
	kindCam
)

var jointKindNames = [...]string{"revolute", "translational", "distance", "weld", "point-on-line", "coupler", "motion", "cam"}

type jointSpec struct {
	name          string
	kind          jointKind
	i, j          MarkerID
	length        float64 // distance
	a, b          JointID // coupler: a, b; motion: a
	ratio, offset float64
	drive         law.Func // motion; cam: the profile r(u)
}

type forceKind int

const (
	kindTSDA forceKind = iota
	kindRSDA
	kindPointForce
	kindTorque
	kindBushing
	kindCustom
)

var forceKindNames = [...]string{"tsda", "rsda", "point-force", "torque", "bushing", "custom"}

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
	custom  ForceFunc
}

// NewModel returns a model holding only the ground (body 0, "ground") and no gravity.
func NewModel() *Model {
	return &Model{bodies: []Body{{Name: "ground", Mass: math.Inf(1), Inertia: math.Inf(1)}}}
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

// AddRevolute adds a revolute (pin) joint: the points of markers i and j coincide,
//
//	r_J − r_I = 0    (rows "name.x", "name.y"),
//
// where r = R + A(θ) s is a marker's point in the global frame. Its joint coordinate (for
// AddMotion, AddCoupler, RSDA) is the angle between the markers' x axes, (θ_J + φ_J) − (θ_I + φ_I).
func (m *Model) AddRevolute(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindRevolute, i: i, j: j})
}

// AddCam adds a cam joint: the point of marker j (a point follower) stays on the contour
// of marker i's body, given in polar form about marker i's point from its x axis,
//
//	r_J − r_I − A(θ_I + φ_I) p(u) = 0,   p(u) = r(u)(cos u, sin u)    (rows "name.x", "name.y"),
//
// with profile r(u) > 0 (an expression, or a law.Table spline through sampled radii) and u,
// the contact parameter, an algebraic variable (dae.Algebraic): a massless coordinate
// "name.u" after every body's and beam's, which the rows determine while the follower's
// path crosses the contour transversally. Its row of M a = f − Gᵀλ makes the contact force
// normal to the contour (frictionless contact). Contact is bilateral: the follower is
// held on the contour, never lifts off. The contour must be star-shaped about marker i's
// point (each ray meets it once), so that the polar angle of the follower's point is the
// initial guess of u.
func (m *Model) AddCam(name string, i, j MarkerID, profile law.Func) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindCam, i: i, j: j, drive: profile})
}

// AddTranslational adds a translational (prismatic) joint: the point of j moves along the
// x axis u_I of marker i and the markers keep their relative angle zero,
//
//	n_I · (r_J − r_I) = 0,   (θ_J + φ_J) − (θ_I + φ_I) = 0    (rows "name.n", "name.theta"),
//
// with n_I the y axis of marker i. Its joint coordinate is the displacement u_I·(r_J − r_I).
func (m *Model) AddTranslational(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindTranslational, i: i, j: j})
}

// AddDistance adds a massless rod (distance constraint) of the given length > 0 between the
// points of markers i and j:
//
//	(|r_J − r_I|² − length²)/2 = 0    (row "name.d"),
//
// so λ is the rod tension divided by its length (compression when negative).
func (m *Model) AddDistance(name string, i, j MarkerID, length float64) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindDistance, i: i, j: j, length: length})
}

// AddWeld adds a fixed joint: points coincide and axes align (rows "name.x", "name.y",
// "name.theta"), the equations of a revolute plus the angle row of a translational.
func (m *Model) AddWeld(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindWeld, i: i, j: j})
}

// AddPointOnLine adds a pin in a slot: the point of marker j stays on the x axis of marker
// i, rotation free, n_I · (r_J − r_I) = 0 (row "name.n"). Its joint coordinate is the
// position along the slot u_I·(r_J − r_I).
func (m *Model) AddPointOnLine(name string, i, j MarkerID) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindPointOnLine, i: i, j: j})
}

// AddCoupler couples the joint coordinates of joints a and b (revolute angles,
// translational or point-on-line displacements; gears, racks, belts):
//
//	c_b − ratio·c_a − offset = 0    (row "name.c").
func (m *Model) AddCoupler(name string, a, b JointID, ratio, offset float64) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindCoupler, a: a, b: b, ratio: ratio, offset: offset})
}

// AddMotion prescribes the joint coordinate of joint (a revolute's angle or a
// translational's or point-on-line's displacement) as f(t): the rheonomic constraint
//
//	c(q) − f(t) = 0    (row "name.c"),   g_t = −f'(t),   g_tt = −f''(t).
//
// λ of the row is the driving torque or force (with the sign of −Gᵀλ).
func (m *Model) AddMotion(name string, joint JointID, f law.Func) JointID {
	return m.addJoint(jointSpec{name: name, kind: kindMotion, a: joint, drive: f})
}

// SetGravity sets the gravitational acceleration (e.g. Vec{0, −9.81}); each body feels
// m·gravity at its centre of mass.
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

// AddPointForce adds the force (fx(t), fy(t)) applied at the point of marker mk: in the
// global frame when global is true, else in the marker's axes (a follower force). Nil
// components are zero.
func (m *Model) AddPointForce(name string, mk MarkerID, fx, fy law.Func, global bool) ForceID {
	return m.addForce(forceSpec{name: name, kind: kindPointForce, marker: mk, fx: fx, fy: fy, global: global})
}

// AddTorque adds the torque τ(t) (counter-clockwise positive) on body b.
func (m *Model) AddTorque(name string, b BodyID, tau law.Func) ForceID {
	return m.addForce(forceSpec{name: name, kind: kindTorque, body: b, torque: tau})
}

// AddCustomForce adds a user force element (see ForceFunc).
func (m *Model) AddCustomForce(name string, f ForceFunc) ForceID {
	return m.addForce(forceSpec{name: name, kind: kindCustom, custom: f})
}

// JointMarkers returns the markers joint j connects (0, 0 for couplers and motions or an
// unknown j).
func (m *Model) JointMarkers(j JointID) (i, k MarkerID) {
	if j < 1 || int(j) > len(m.joints) {
		return 0, 0
	}
	s := m.joints[j-1]
	return s.i, s.j
}
