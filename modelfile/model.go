package modelfile

// The document types below are pure data: what a model file says, after decoding and before
// building. Field comments give the YAML/JSON key, the unit (SI throughout; angles in
// radians unless written with the deg suffix, see Angle) and the default where a field is
// optional. docs/model-format.md is the user's description of the same format.

// Model is one model file: a planar mechanism, its initial guess and how to simulate it.
type Model struct {
	Name        string     `yaml:"name"`        // free text
	Description string     `yaml:"description"` // free text
	Dimension   float64    `yaml:"dimension"`   // 2 [2]; a file with dimension 3 is a SpatialModel
	Gravity     Vec        `yaml:"gravity"`     // m/s², [0, 0] when absent
	Bodies      []Body     `yaml:"bodies,required"`
	Markers     []Marker   `yaml:"markers"`
	Joints      []Joint    `yaml:"joints"`
	Motions     []Motion   `yaml:"motions"`
	Forces      []Force    `yaml:"forces"`
	Initial     Initial    `yaml:"initial"`
	Simulation  Simulation `yaml:"simulation"`
	// Parameters are named constants for ${...} and repeat ranges (repeat.go); the file
	// may give expressions, here they are evaluated.
	Parameters map[string]float64 `yaml:"parameters"`
	// Coordinates chooses the modeling route of a planar model: "body" (x, y, θ of every
	// body, package planar), "natural" (basic points, package natural) or "joint" (relative
	// coordinates of a spanning tree with cut joints, package joint) [body].
	Coordinates string `yaml:"coordinates"`
	// Rotations chooses how rotations are integrated: as coordinates (the default: θ in
	// body coordinates, "angle"; Euler parameters in 3D, "euler-parameters") or on the Lie
	// group ("lie-group": SO(3) × ℝ³ per body in 3D, spatial.LieSystem; in 2D, where SO(2)
	// commutes, the body coordinates as the additive group, dae.VectorSpace), integrated by
	// a method of the registry's Lie column (lie-genalpha). For a 3D file Parse copies the
	// key here from SpatialModel.Rotations.
	Rotations string `yaml:"rotations"`
}

// Vec is a planar vector [x, y] (m, m/s, N or m/s², by field).
type Vec [2]float64

// Angle is an angle in radians. In a file it is a number (radians) or a string: a constant
// expression (no t) optionally followed by the suffix "deg", e.g. "pi/2" or "90 deg".
type Angle float64

// Body is a rigid body; its reference frame is centroidal (origin at the centre of mass).
// With Flexible it is a beam instead, whose frame has its origin at the beam's first end
// and its x axis along the beam. "ground" is predefined and may not be redefined.
type Body struct {
	Name     string    `yaml:"name,required"`
	Mass     float64   `yaml:"mass"`     // kg, > 0; required for a rigid body, absent for a flexible one
	Inertia  float64   `yaml:"inertia"`  // kg·m² about the centre of mass, > 0; as mass
	Flexible *Flexible `yaml:"flexible"` // makes the body a beam (coordinates: body or joint) [rigid]
	Shape    *Shape    `yaml:"shape"`    // how the viewer draws it besides bars between its markers [none]
}

// Frames and deformations of a flexible body (Flexible.Frame, Flexible.Deformation).
const (
	FrameTangent            = "tangent"       // u = w = w′ = 0 at the first end: clamped in its frame
	FrameChord              = "chord"         // u = w = 0 at the first end, w = 0 at the last: pinned-pinned
	DeformationAxialLateral = "axial+lateral" // axial and lateral displacements
	DeformationLateral      = "lateral"       // lateral only, the inextensible beam of Yen et al. (1998)
)

// Flexible makes a body a planar, linearized Euler–Bernoulli beam in a floating frame
// (planar.Beam; Simeon 1996): elements finite elements (linear axial, cubic Hermite
// lateral) or modes sine modes of Simeon's basis (chord frame only). Markers on it must sit
// at nodes: [x, 0] with x = i·length/elements, or x = 0 or length for modes.
type Flexible struct {
	Length      float64 `yaml:"length,required"`  // m, > 0
	Elements    int     `yaml:"elements"`         // number of finite elements ≥ 1 [required unless modes]
	Modes       int     `yaml:"modes"`            // number of sine modes of Simeon's basis ≥ 1, instead of elements
	E           float64 `yaml:"E,required"`       // Young's modulus, Pa, > 0
	A           float64 `yaml:"A,required"`       // cross-section area, m², > 0
	I           float64 `yaml:"I,required"`       // second moment of area of the section, m⁴, > 0
	Density     float64 `yaml:"density,required"` // kg/m³, > 0
	Frame       string  `yaml:"frame"`            // FrameTangent or FrameChord [tangent]
	Deformation string  `yaml:"deformation"`      // DeformationAxialLateral or DeformationLateral [axial+lateral]
}

// Shape kinds (the Type field of Shape).
const (
	ShapeBox      = "box"
	ShapeCylinder = "cylinder"
	ShapeSphere   = "sphere"
)

// Shape is a solid the HTML viewer draws for a body, centred at its centre of mass, in its
// frame; it has no effect on the dynamics.
type Shape struct {
	Type   string    `yaml:"type,required"` // one of the Shape* constants
	Size   []float64 `yaml:"size"`          // box: edge lengths along the body's x, y (and z in 3D; 2D default: y), m, > 0
	Radius float64   `yaml:"radius"`        // cylinder, sphere: m, > 0
	Length float64   `yaml:"length"`        // cylinder: m, > 0
	Axis   []float64 `yaml:"axis"`          // cylinder: direction in the body frame [x in 2D, z in 3D]
}

// Marker is a point with a direction fixed to a body, in the body's centroidal frame.
// Marker names are unique over the whole model.
type Marker struct {
	Name  string `yaml:"name,required"`
	Body  string `yaml:"body,required"` // a body name or "ground"
	Point Vec    `yaml:"point"`         // m, in the body frame [0, 0]
	Angle Angle  `yaml:"angle"`         // direction of the marker's x axis in the body frame [0]
}

// The coordinate sets of a planar model (the Coordinates field of Model).
const (
	CoordinatesBody    = "body"
	CoordinatesNatural = "natural"
	CoordinatesJoint   = "joint"
)

// The rotation routes (the Rotations field of Model and SpatialModel).
const (
	RotationsAngle           = "angle"            // planar default: θ a coordinate
	RotationsEulerParameters = "euler-parameters" // 3D default: Euler parameters and their normalization rows
	RotationsLieGroup        = "lie-group"        // on the Lie group, by lie-genalpha
)

// DefaultLieMethod is the method of a model with rotations: lie-group that names none.
const DefaultLieMethod = "lie-genalpha"

// DefaultMethodOf is the method of a run of m that names none: DefaultLieMethod on the Lie
// group, else DefaultMethod.
func DefaultMethodOf(m *Model) string {
	if m.Rotations == RotationsLieGroup {
		return DefaultLieMethod
	}
	return DefaultMethod
}

// Joint kinds (the Type field of Joint).
const (
	JointRevolute      = "revolute"      // I and J coincide
	JointTranslational = "translational" // J moves along I's x axis, no relative rotation
	JointDistance      = "distance"      // |r_J − r_I| = Length (a massless rod)
	JointWeld          = "weld"          // no relative motion
	JointPointOnLine   = "point-on-line" // J's point on I's x axis, rotation free
	JointCoupler       = "coupler"       // coordinate of joint B = Ratio·coordinate of joint A + Offset
	JointKnifeEdge     = "knife-edge"    // I's point does not slide across I's x axis: a nonholonomic constraint on the ground plane
	JointCam           = "cam"           // J's point on the contour r(u) of I's body (planar.Model.AddCam)
)

// Joint is a kinematic constraint between two markers, or (coupler) between the
// coordinates of two revolute or translational joints.
type Joint struct {
	Name   string  `yaml:"name,required"`
	Type   string  `yaml:"type,required"` // one of the Joint* constants
	I      string  `yaml:"i"`             // marker (all but coupler)
	J      string  `yaml:"j"`             // marker (all but coupler and knife-edge)
	Length float64 `yaml:"length"`        // m, distance only, > 0
	A      string  `yaml:"a"`             // coupler: the driving joint
	B      string  `yaml:"b"`             // coupler: the driven joint
	Ratio  float64 `yaml:"ratio"`         // coupler: dimensionless or m/rad by the joints' kinds
	Offset float64 `yaml:"offset"`        // coupler: rad or m, the driven joint's kind [0]
	// Friction is joint friction (revolute and translational joints; planar.JointFriction).
	Friction *Friction `yaml:"friction"`
	// Profile is a cam's contour (cam only, required).
	Profile *Profile `yaml:"profile"`
}

// Profile is the contour of a cam joint in polar form about marker I's point, the radius
// r(u) > 0 (m) at the polar angle u (rad) from I's x axis: a number (a circle about I), a
// string (an expression in u, as those of Func in t) or a table {u: [...], r: [...]}
// interpolated by a natural cubic spline (which a closed contour should cover beyond the
// angles the contact reaches: past its ends it continues linearly).
type Profile struct {
	Kind  FuncKind
	Const float64
	Expr  string
	Table *ProfileTable
}

// ProfileTable is a sampled cam profile: polar angles (rad, strictly increasing) and radii.
type ProfileTable struct {
	U []float64 `yaml:"u,required"`
	R []float64 `yaml:"r,required"`
}

// Friction is the friction block of a revolute or translational joint: Coulomb friction
// μ·N with the smoothed stick-slip law tanh(slip speed/v_reg) and N the joint's reaction
// (a revolute's pin force at pin_radius; a translational's normal force, plus its bending
// moment/arm when arm > 0), plus viscous friction (planar.JointFriction, law.Friction).
type Friction struct {
	Mu        float64 `yaml:"mu,required"`    // Coulomb coefficient ≥ 0
	VReg      float64 `yaml:"v_reg,required"` // m/s > 0: slip speed where tanh reaches 0.76 of μN
	PinRadius float64 `yaml:"pin_radius"`     // m > 0, revolute only (required there)
	Arm       float64 `yaml:"arm"`            // m ≥ 0, translational only [0: moment ignored]
	Viscous   float64 `yaml:"viscous"`        // N·s/m (translational) or N·m·s/rad (revolute) ≥ 0 [0]
	NormalEps float64 `yaml:"normal_eps"`     // N ≥ 0: ε of √(N² + ε²) [0: 1e-6]
}

// Motion prescribes the relative coordinate of a revolute (angle, rad) or translational
// (displacement, m) joint as a function of time: a rheonomic constraint.
type Motion struct {
	Name     string `yaml:"name,required"`
	Joint    string `yaml:"joint,required"`
	Function Func   `yaml:"function,required"`
}

// Force kinds (the Type field of Force).
const (
	ForceTSDA       = "tsda"        // translational spring-damper-actuator between markers I and J
	ForceRSDA       = "rsda"        // rotational spring-damper-actuator of a revolute joint or markers I, J
	ForcePointForce = "point-force" // applied force Fx, Fy at a marker
	ForceTorque     = "torque"      // applied torque on a body
	ForceBushing    = "bushing"     // linear bushing between markers I and J, in I's frame
)

// Force is a force element. Which fields apply depends on Type (docs/model-format.md has
// the table); a field that does not apply to the type is an error.
type Force struct {
	Name string `yaml:"name,required"`
	Type string `yaml:"type,required"` // one of the Force* constants

	I      string `yaml:"i"`      // marker: tsda, rsda, bushing
	J      string `yaml:"j"`      // marker: tsda, rsda, bushing
	Joint  string `yaml:"joint"`  // rsda on a revolute joint (instead of I, J)
	Marker string `yaml:"marker"` // point-force
	Body   string `yaml:"body"`   // torque

	K          float64 `yaml:"k"`           // tsda N/m, rsda N·m/rad [0]
	C          float64 `yaml:"c"`           // tsda N·s/m, rsda N·m·s/rad [0]
	FreeLength float64 `yaml:"free_length"` // tsda, m [0]
	FreeAngle  Angle   `yaml:"free_angle"`  // rsda [0]
	Spring     *Law    `yaml:"spring"`      // tsda/rsda nonlinear spring law of the deflection (replaces K)
	Damper     *Law    `yaml:"damper"`      // tsda/rsda nonlinear damper law of the rate (replaces C)
	Actuator   *Func   `yaml:"actuator"`    // tsda N, rsda N·m, added to spring and damper

	Fx    *Func  `yaml:"fx"`    // point-force, N
	Fy    *Func  `yaml:"fy"`    // point-force, N
	Frame string `yaml:"frame"` // point-force: "global" or "body" (the marker's frame) [global]

	Torque *Func `yaml:"torque"` // torque, N·m, counterclockwise

	Kx     float64 `yaml:"kx"`     // bushing, N/m
	Ky     float64 `yaml:"ky"`     // bushing, N/m
	Ktheta float64 `yaml:"ktheta"` // bushing, N·m/rad
	Cx     float64 `yaml:"cx"`     // bushing, N·s/m
	Cy     float64 `yaml:"cy"`     // bushing, N·s/m
	Ctheta float64 `yaml:"ctheta"` // bushing, N·m·s/rad
}

// Law is a scalar force law: a spring force of the deflection or a damper force of the
// rate. Exactly one field is set.
type Law struct {
	// Polynomial is F(x) = Σ_k c_k x^k (seed 001, eq. 15).
	Polynomial []float64 `yaml:"polynomial"`
	// Piecewise is three polynomials joined at two breakpoints (seed 001, eq. 16).
	Piecewise *Piecewise `yaml:"piecewise"`
}

// Piecewise is a law made of polynomial pieces: Pieces[0] applies for x < Breaks[0],
// Pieces[k] on [Breaks[k−1], Breaks[k]), the last for x ≥ Breaks[len−1]; each piece is
// given by its coefficients c_0, c_1, … (the damper of seed 001, eq. 16, is linear, quartic,
// linear with breaks −0.2 and 0.21 m/s).
type Piecewise struct {
	Breaks []float64   `yaml:"breaks,required"` // strictly increasing
	Pieces [][]float64 `yaml:"pieces,required"` // len(Breaks) + 1 polynomials
}

// Func is a function of time. In a file it is a number (a constant), a string (an
// expression in t, see Expr; in an angle field it may end in "deg") or a table
// {t: [...], value: [...]} interpolated by a natural cubic spline. Exactly one of
// Const/Expr/Table is meaningful, by Kind.
type Func struct {
	Kind  FuncKind
	Const float64
	Expr  string // without the deg suffix
	Deg   bool   // the expression was written in degrees
	Table *Table
}

// FuncKind says which field of a Func holds it.
type FuncKind uint8

// The kinds of Func.
const (
	FuncConst FuncKind = iota
	FuncExpr
	FuncTable
)

// Table is a tabulated function: times (s, strictly increasing) and values.
type Table struct {
	T     []float64 `yaml:"t,required"`
	Value []float64 `yaml:"value,required"`
}

// Initial is the initial guess that dae.Initialize makes consistent.
type Initial struct {
	Time float64 `yaml:"time"` // s [0]
	// Bodies are the guesses by body name; bodies not listed start at the origin at rest.
	// A file may write the mapping as a list of mappings (merged), which repeat blocks
	// can produce.
	Bodies map[string]BodyState `yaml:"bodies"`
	// Keep lists coordinates ("crank.theta", "slider.x") whose guessed position and
	// velocity are kept; the others are solved for (coordinate partitioning, seed 002
	// Remark 2b).
	Keep []string `yaml:"keep"`
}

// BodyState is the guessed pose and velocity of a body.
type BodyState struct {
	Position        Vec     `yaml:"position"`         // m, of the centre of mass [0, 0]
	Angle           Angle   `yaml:"angle"`            // [0]
	Velocity        Vec     `yaml:"velocity"`         // m/s [0, 0]
	AngularVelocity float64 `yaml:"angular_velocity"` // rad/s, counterclockwise [0]
}

// Simulation says how to run the model. Command-line flags override these fields.
type Simulation struct {
	Method      string  `yaml:"method"`      // integrator name (linkage methods) [hht]
	Formulation string  `yaml:"formulation"` // [the method's first]
	Tol         float64 `yaml:"tol"`         // relative and absolute tolerance [1e-6]
	// ATol gives coordinates their own absolute tolerance, by coordinate name ("crank.theta",
	// "slider.x"; the names of initial.keep): it replaces tol as the absolute tolerance of
	// that coordinate's error components (integrate.StepControl.ATolQ) [none].
	ATol map[string]float64 `yaml:"atol"`
	// MethodOptions sets the method's parameters by name (integrate.Param: hht's alpha,
	// genalpha's and daealpha's rho_inf, ali's penalty), each checked against its range
	// [the method's defaults].
	MethodOptions map[string]float64 `yaml:"method_options"`
	H             float64            `yaml:"h"`           // s, fixed step size; 0 for error control [0]
	TEnd          float64            `yaml:"t_end"`       // s, > initial.time; required to run
	OutputStep    float64            `yaml:"output_step"` // s, sampling of the results [(t_end − t0)/100]
	// MaxSteps caps the attempted steps (accepted and rejected) of a run; 0 takes
	// integrate.DefaultMaxSteps (1 000 000) [0].
	MaxSteps int `yaml:"max_steps"`
	// Outputs lists the channels to record (see docs/model-format.md): body coordinates
	// "crank.x", velocities "crank.vx", accelerations "crank.ax", reactions "pin.fx",
	// energies "energy.kinetic", residuals "residual.position"; a body or joint name alone
	// selects all of its channels. Empty: every body's coordinates and the energies.
	Outputs []string `yaml:"outputs"`
	// Plot lists the channels drawn by linkage run --plot [the first output channels, up to 6].
	Plot []string `yaml:"plot"`
}
