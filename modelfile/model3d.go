package modelfile

// The 3D document types. A file with "dimension: 3" is decoded into a SpatialModel and built
// with package spatial; without the key (or with "dimension: 2") it is a planar Model. The
// sections are the same (bodies, markers, joints, motions, forces, initial, simulation);
// vectors have three components, bodies a 3×3 inertia tensor, markers a joint axis, initial
// states an orientation. docs/model-format.md, section "3D models", is the user's
// description.

// SpatialModel is one 3D model file.
type SpatialModel struct {
	Name        string  `yaml:"name"`
	Description string  `yaml:"description"`
	Dimension   float64 `yaml:"dimension,required"` // 3
	// Coordinates chooses the modeling route: "body" (x, y, z and Euler parameters of
	// every body, package spatial) or "joint" (relative coordinates of a spanning tree with
	// spherical cut joints, package joint) [body].
	Coordinates string             `yaml:"coordinates"`
	Gravity     Vec3               `yaml:"gravity"` // m/s², [0, 0, 0] when absent
	Bodies      []Body3            `yaml:"bodies,required"`
	Markers     []Marker3          `yaml:"markers"`
	Joints      []Joint3           `yaml:"joints"`
	Motions     []Motion           `yaml:"motions"`
	Forces      []Force3           `yaml:"forces"`
	Initial     Initial3           `yaml:"initial"`
	Simulation  Simulation         `yaml:"simulation"`
	Parameters  map[string]float64 `yaml:"parameters"` // as Model.Parameters
	Rotations   string             `yaml:"rotations"`  // as Model.Rotations [euler-parameters]
}

// Vec3 is a vector [x, y, z] (m, m/s, rad/s, N, N·m or m/s², by field).
type Vec3 [3]float64

// Quat is a quaternion [p0, p1, p2, p3] (Euler parameters, scalar part first, seed 002
// Remark 7); it is normalized when the model is built.
type Quat [4]float64

// Body3 is a rigid body with a centroidal reference frame.
type Body3 struct {
	Name string  `yaml:"name,required"`
	Mass float64 `yaml:"mass,required"` // kg, > 0
	// Inertia about the centre of mass in body axes, kg·m²: [Jxx, Jyy, Jzz] (principal axes)
	// or [Jxx, Jyy, Jzz, Jxy, Jxz, Jyz] (the tensor's entries, not products of inertia with
	// a minus sign); symmetric positive definite.
	Inertia []float64 `yaml:"inertia,required"`
	Shape   *Shape    `yaml:"shape"` // how the viewer draws it besides bars between its markers [none]
}

// Marker3 is a frame fixed to a body: a point and its z axis (the joint axis of revolute,
// translational, cylindrical, universal (first cross axis) and point-on-line joints, the
// normal of planar and point-on-plane joints), with an optional x axis that fixes the zero
// of joint angles.
type Marker3 struct {
	Name  string `yaml:"name,required"`
	Body  string `yaml:"body,required"` // a body name or "ground"
	Point Vec3   `yaml:"point"`         // m, body frame [0, 0, 0]
	Axis  Vec3   `yaml:"axis"`          // z axis, body frame [the body's z axis]
	XAxis Vec3   `yaml:"x_axis"`        // x axis, made orthogonal to Axis [the body axis least aligned with Axis]
}

// 3D joint kinds besides those of the planar format (revolute, translational, distance,
// weld, point-on-line keep their names and meanings, with the joint axis z of marker I).
const (
	JointSpherical    = "spherical"      // the points of I and J coincide
	JointCylindrical  = "cylindrical"    // J's point on I's z axis, z axes parallel
	JointUniversal    = "universal"      // points coincide, z_I ⟂ z_J (Hooke joint)
	JointPlanar       = "planar"         // J's point in I's x-y plane, z axes parallel
	JointPointOnPlane = "point-on-plane" // J's point in I's x-y plane
	JointRollingDisk  = "rolling-disk"   // a disk (centre and axis: marker I) rolling without slip on the ground plane z = 0
)

// Joint3 is a kinematic constraint between two markers.
type Joint3 struct {
	Name   string  `yaml:"name,required"`
	Type   string  `yaml:"type,required"`
	I      string  `yaml:"i,required"`
	J      string  `yaml:"j"`      // required but for rolling-disk
	Length float64 `yaml:"length"` // m, distance only, > 0
	Radius float64 `yaml:"radius"` // m, rolling-disk only (required), > 0
	// Friction is joint friction (revolute and translational joints; spatial.JointFriction).
	Friction *Friction `yaml:"friction"`
}

// Force3 is a 3D force element; the keys that apply depend on Type (docs/model-format.md).
type Force3 struct {
	Name string `yaml:"name,required"`
	Type string `yaml:"type,required"` // tsda, rsda, bushing, point-force, torque

	I      string `yaml:"i"`      // tsda, rsda, bushing
	J      string `yaml:"j"`      // tsda, rsda, bushing
	Joint  string `yaml:"joint"`  // rsda on a revolute joint
	Marker string `yaml:"marker"` // point-force
	Body   string `yaml:"body"`   // torque

	K          float64 `yaml:"k"`           // tsda N/m, rsda N·m/rad [0]
	C          float64 `yaml:"c"`           // tsda N·s/m, rsda N·m·s/rad [0]
	FreeLength float64 `yaml:"free_length"` // tsda, m [0]
	FreeAngle  Angle   `yaml:"free_angle"`  // rsda [0]
	Spring     *Law    `yaml:"spring"`
	Damper     *Law    `yaml:"damper"`
	Actuator   *Func   `yaml:"actuator"`

	Force  []Func `yaml:"force"`  // point-force [fx, fy, fz], N
	Torque []Func `yaml:"torque"` // torque [nx, ny, nz], N·m
	Frame  string `yaml:"frame"`  // point-force, torque: "global" or "body" [global]

	Stiffness    Vec3 `yaml:"stiffness"`     // bushing, N/m along x_I, y_I, z_I
	Damping      Vec3 `yaml:"damping"`       // bushing, N·s/m
	RotStiffness Vec3 `yaml:"rot_stiffness"` // bushing, N·m/rad about x_I, y_I, z_I
	RotDamping   Vec3 `yaml:"rot_damping"`   // bushing, N·m·s/rad
}

// Initial3 is the initial guess that dae.Initialize makes consistent.
type Initial3 struct {
	Time   float64               `yaml:"time"`
	Bodies map[string]BodyState3 `yaml:"bodies"`
	// Keep lists coordinates ("crank.p0", "slider.x") whose guessed position and velocity
	// are kept; the others are solved for (seed 002, Remark 2b).
	Keep []string `yaml:"keep"`
}

// BodyState3 is the guessed pose and velocity of a body. The orientation is given by at
// most one of Quaternion and Angles; neither means the identity.
type BodyState3 struct {
	Position   Vec3  `yaml:"position"`   // m, centre of mass [0, 0, 0]
	Quaternion *Quat `yaml:"quaternion"` // Euler parameters [p0, p1, p2, p3]
	// Angles are [roll, pitch, yaw] of R = R_z(yaw) R_y(pitch) R_x(roll) (z-y-x Tait-Bryan).
	Angles          []Angle `yaml:"angles"`
	Velocity        Vec3    `yaml:"velocity"`         // m/s [0, 0, 0]
	AngularVelocity Vec3    `yaml:"angular_velocity"` // rad/s, in body axes (seed 002's Ω) [0, 0, 0]
}

func joint3Types() []string {
	return []string{JointSpherical, JointRevolute, JointTranslational, JointCylindrical, JointUniversal,
		JointPlanar, JointWeld, JointDistance, JointPointOnLine, JointPointOnPlane, JointRollingDisk}
}

func force3Fields(typ string) []string {
	switch typ {
	case ForceTSDA:
		return []string{"i", "j", "k", "c", "free_length", "spring", "damper", "actuator"}
	case ForceRSDA:
		return []string{"joint", "i", "j", "k", "c", "free_angle", "spring", "damper", "actuator"}
	case ForcePointForce:
		return []string{"marker", "force", "frame"}
	case ForceTorque:
		return []string{"body", "torque", "frame"}
	case ForceBushing:
		return []string{"i", "j", "stiffness", "damping", "rot_stiffness", "rot_damping"}
	}
	return nil
}

// Channel suffixes of a 3D body: centre of mass, Euler parameters, velocities, angular
// velocity in body axes (ω' = 2 G(p) ṗ, seed 002 eq. 38) and accelerations.
func body3Suffixes() []string {
	return []string{"x", "y", "z", "p0", "p1", "p2", "p3", "vx", "vy", "vz", "wx", "wy", "wz", "ax", "ay", "az"}
}

// joint3Suffixes are a 3D joint's reaction channels: the load −Gᵀλ of the joint on the
// body of marker J, force and moment about the marker point, in global axes and in the
// axes of marker I (spatial.Reaction).
func joint3Suffixes() []string {
	return []string{"fx", "fy", "fz", "tx", "ty", "tz", "fx_local", "fy_local", "fz_local", "tx_local", "ty_local", "tz_local"}
}

// channelNames3 lists every output channel of a 3D model: bodies, joint reactions, motions
// (their multiplier λ, the driving force or torque), energies, residuals.
func channelNames3(m *SpatialModel) []string {
	names := make([]string, 0, len(body3Suffixes())*len(m.Bodies)+len(joint3Suffixes())*len(m.Joints)+len(m.Motions)+5*len(m.Forces)+
		len(markerSuffixes(3))*len(m.Markers)+9)
	for _, b := range m.Bodies {
		for _, s := range body3Suffixes() {
			names = append(names, b.Name+"."+s)
		}
	}
	for _, j := range m.Joints {
		if m.Coordinates == CoordinatesJoint && j.Type == JointRollingDisk {
			names = append(names, diskLambda3(j)...) // its contact row's λ; its loads are Pfaffian rows
			continue
		}
		suffixes := joint3Suffixes()
		if j.Type == JointRollingDisk {
			suffixes = []string{"lambda"} // the contact row's multiplier: λ holds no rolling loads μ
		}
		for _, s := range suffixes {
			names = append(names, j.Name+"."+s)
		}
	}
	for _, mo := range m.Motions {
		names = append(names, mo.Name+".lambda")
	}
	for _, f := range m.Forces {
		for _, s := range forceSuffixes(f.Type) {
			names = append(names, f.Name+"."+s)
		}
	}
	names = appendMarkerChannels(names, markerNames3(m), 3)
	names = append(names, "energy.kinetic", "energy.potential", "energy.total", "energy.work_nc", "energy.work_driving", "energy.invariant")
	return append(names, residualChannels()...)
}

// OutputChannels resolves simulation.outputs of a 3D model; empty selects every body's
// position and Euler parameters and the energies.
func (m *SpatialModel) OutputChannels() []string {
	if len(m.Simulation.Outputs) > 0 {
		return resolve3(m, m.Simulation.Outputs)
	}
	var def []string
	for _, b := range m.Bodies {
		for _, s := range []string{"x", "y", "z", "p0", "p1", "p2", "p3"} {
			def = append(def, b.Name+"."+s)
		}
	}
	return append(def, "energy.kinetic", "energy.potential", "energy.total")
}

// PlotChannels resolves simulation.plot; empty selects the first (up to 6) output channels.
func (m *SpatialModel) PlotChannels() []string {
	if len(m.Simulation.Plot) == 0 {
		out := m.OutputChannels()
		return out[:min(len(out), 6)]
	}
	return resolve3(m, m.Simulation.Plot)
}

// resolve3 is resolveChannels of a 3D model.
func resolve3(m *SpatialModel, patterns []string) []string {
	valid := channelNames3(m)
	seen := map[string]bool{}
	var out []string
	for _, p := range patterns {
		for _, c := range selectChannels(valid, p) {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}
