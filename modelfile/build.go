package modelfile

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"linkage/assembly"
	"linkage/dae"
	"linkage/integrate"
	"linkage/law"
	"linkage/planar"
)

// Built is a model file turned into a planar system with a consistent initial state.
type Built struct {
	Doc    *Document
	Model  *planar.Model
	System *planar.System // the full system, every joint row included
	// Integrated is what the integrators see: System, or System without its redundant
	// rows (dae.Reduce with Consistent.KeptRows) when Initialize found some.
	Integrated dae.System
	Consistent dae.Consistent // dae.Initialize's result at initial.time
	Start      integrate.State
	Bodies     map[string]planar.BodyID
	Joints     map[string]planar.JointID
	// Spatial is set for a 3D model (dimension: 3); Model, System, Bodies and Joints are
	// then nil.
	Spatial *SpatialBuilt
	// Natural is set for a planar model in natural coordinates (coordinates: natural);
	// Model, System, Bodies and Joints are then nil.
	Natural *NaturalBuilt
	// Joint is set for a planar model in joint coordinates (coordinates: joint); Model,
	// System, Bodies and Joints are then nil.
	Joint *JointBuilt
	// Joint3 is set for a 3D model in joint coordinates (dimension: 3, coordinates: joint);
	// Spatial is then nil.
	Joint3 *Joint3Built
}

// Build assembles doc's mechanism through the modeling route of its dimension (routes:
// planar or spatial) and makes its initial guess consistent with dae.Initialize
// (coordinate partitioning, seed 002 Remark 2b; the coordinates in initial.keep stay as
// guessed). Assembly and initialization errors are reported with the file's name; an
// initialization failure usually means the guess in initial.bodies is too far from an
// assembled pose.
func Build(doc *Document) (*Built, error) {
	if doc.NumBodies() == 0 { // Parse refuses such a file; a Document made otherwise may not
		return nil, fmt.Errorf("%s: no bodies: a model without moving bodies has no coordinates to simulate", doc.File)
	}
	r := routeOf(doc)
	b, mech, err := r.assemble(doc)
	if err != nil {
		return nil, err
	}
	if err := b.initialize(mech); err != nil {
		return nil, err
	}
	if r.group != nil {
		if err := r.group(b); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// route builds the documents of one dimension, coordinate set and rotation route through
// one modeling package: assemble turns the document into the package's model, adding the
// elements in file order, and returns the assembled system, which Build then initializes
// the same way for every route; group (nil: none) then puts the consistent start on the
// Lie group.
type route struct {
	dimension   int
	coordinates string
	lieGroup    bool // rotations: lie-group
	assemble    func(doc *Document) (*Built, mechanism, error)
	group       func(b *Built) error
}

// routes are the modeling routes a model file selects with its dimension, coordinates and
// rotations keys. A planar model on the Lie group is its body-coordinate system: SO(2)
// commutes, so the group is ℝ³ per body and lie-genalpha integrates the System as
// dae.VectorSpace (Run); natural and joint coordinates have no rotation to put on it.
var routes = [...]route{
	{dimension: 2, coordinates: CoordinatesBody, assemble: assemble},
	{dimension: 2, coordinates: CoordinatesBody, lieGroup: true, assemble: assemble},
	{dimension: 2, coordinates: CoordinatesNatural, assemble: assembleNatural},
	{dimension: 2, coordinates: CoordinatesJoint, assemble: assembleJoint},
	{dimension: 3, coordinates: CoordinatesBody, assemble: assemble3},
	{dimension: 3, coordinates: CoordinatesBody, lieGroup: true, assemble: assemble3, group: onLieGroup},
	{dimension: 3, coordinates: CoordinatesJoint, assemble: assembleJoint3},
}

// routeOf returns the route of doc's dimension, coordinates and rotations.
func routeOf(doc *Document) route {
	dim, coords := 2, doc.Model.Coordinates
	if doc.Spatial != nil {
		dim, coords = 3, doc.Spatial.Coordinates
	}
	if coords == "" {
		coords = CoordinatesBody
	}
	onGroup := doc.Model.Rotations == RotationsLieGroup
	for _, r := range routes {
		if r.dimension == dim && r.coordinates == coords && r.lieGroup == onGroup {
			return r
		}
	}
	panic(fmt.Sprintf("modelfile: no route for dimension %d, coordinates %q, rotations %q", dim, coords, doc.Model.Rotations)) // validate refuses others
}

// mechanism is what Build needs of an assembled system: the equations, the names of its
// coordinates (for initial.keep) and the bodies' initial guess.
type mechanism interface {
	dae.System
	dae.Namer
	InitialGuess() (q0, v0 []float64)
}

// buildSystem assembles doc's planar system (for tests that compare it with planar's API).
func buildSystem(doc *Document) (*planar.System, error) {
	b, _, err := assemble(doc)
	if err != nil {
		return nil, err
	}
	return b.System, nil
}

// assemble turns doc into a planar model and assembles it.
func assemble(doc *Document) (*Built, mechanism, error) {
	m := &doc.Model
	pm := planar.NewModel()
	pm.SetGravity(planar.Vec(m.Gravity))
	b := &Built{Doc: doc, Model: pm, Bodies: map[string]planar.BodyID{"ground": planar.Ground}, Joints: map[string]planar.JointID{}}
	for _, body := range m.Bodies {
		st := m.Initial.Bodies[body.Name]
		pb := planar.Body{
			Name: body.Name, Mass: body.Mass, Inertia: body.Inertia,
			Pos: planar.Vec(st.Position), Angle: float64(st.Angle),
			Vel: planar.Vec(st.Velocity), AngVel: st.AngularVelocity,
		}
		if body.Flexible != nil {
			b.Bodies[body.Name] = pm.AddFlexibleBody(pb, body.Flexible.beam())
			continue
		}
		b.Bodies[body.Name] = pm.AddBody(pb)
	}
	markers := map[string]planar.MarkerID{}
	for _, mk := range m.Markers {
		markers[mk.Name] = pm.AddMarker(planar.Marker{Name: mk.Name, Body: b.Bodies[mk.Body], Point: planar.Vec(mk.Point), Angle: float64(mk.Angle)})
	}
	for _, jt := range jointOrder(m.Joints) {
		i, j := markers[jt.I], markers[jt.J]
		var id planar.JointID
		switch jt.Type {
		case JointRevolute:
			id = pm.AddRevolute(jt.Name, i, j)
		case JointTranslational:
			id = pm.AddTranslational(jt.Name, i, j)
		case JointDistance:
			id = pm.AddDistance(jt.Name, i, j, jt.Length)
		case JointWeld:
			id = pm.AddWeld(jt.Name, i, j)
		case JointPointOnLine:
			id = pm.AddPointOnLine(jt.Name, i, j)
		case JointCoupler:
			id = pm.AddCoupler(jt.Name, b.Joints[jt.A], b.Joints[jt.B], jt.Ratio, jt.Offset)
		case JointKnifeEdge:
			pm.AddKnifeEdge(jt.Name, i) // no joint coordinate: motions and couplers cannot name it
			continue
		case JointCam:
			f, err := jt.Profile.radius()
			if err != nil {
				return nil, nil, fmt.Errorf("%s: joint %q: profile: %w", doc.File, jt.Name, err)
			}
			id = pm.AddCam(jt.Name, i, j, f)
		}
		b.Joints[jt.Name] = id
		if jt.Friction != nil {
			pm.SetFriction(id, jt.Friction.spec())
		}
	}
	c := compiler{doc: doc}
	c.motions(m.Motions, func(mo Motion, f law.Func) {
		b.Joints[mo.Name] = pm.AddMotion(mo.Name, b.Joints[mo.Joint], f)
	})
	for k, f := range m.Forces {
		p := fmt.Sprintf("forces[%d].", k)
		switch f.Type {
		case ForceTSDA:
			pm.AddTSDA(planar.TSDA{Name: f.Name, I: markers[f.I], J: markers[f.J], K: f.K, C: f.C, FreeLength: f.FreeLength,
				Actuator: c.fn(p+"actuator", f.Actuator), Spring: c.force(p+"spring", f.Spring), Damper: c.force(p+"damper", f.Damper)})
		case ForceRSDA:
			e := planar.RSDA{Name: f.Name, K: f.K, C: f.C, FreeAngle: float64(f.FreeAngle),
				Actuator: c.fn(p+"actuator", f.Actuator), Spring: c.force(p+"spring", f.Spring), Damper: c.force(p+"damper", f.Damper)}
			if f.Joint != "" {
				e.Joint = b.Joints[f.Joint]
			} else {
				e.I, e.J = markers[f.I], markers[f.J]
			}
			pm.AddRSDA(e)
		case ForcePointForce:
			pm.AddPointForce(f.Name, markers[f.Marker], c.fn(p+"fx", f.Fx), c.fn(p+"fy", f.Fy), f.Frame != "body")
		case ForceTorque:
			pm.AddTorque(f.Name, b.Bodies[f.Body], c.fn(p+"torque", f.Torque))
		case ForceBushing:
			pm.AddBushing(planar.Bushing{Name: f.Name, I: markers[f.I], J: markers[f.J],
				Kx: f.Kx, Ky: f.Ky, Ktheta: f.Ktheta, Cx: f.Cx, Cy: f.Cy, Ctheta: f.Ctheta})
		}
	}
	if err := c.err(); err != nil {
		return nil, nil, err
	}
	sys, err := pm.Assemble()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", doc.File, err)
	}
	b.System = sys
	return b, sys, nil
}

// compiler turns a document's functions and laws into package law's for any route,
// recording each error with the file, line and path of the bad entry.
type compiler struct {
	doc  *Document
	errs []error
}

// fail records err at path.
func (c *compiler) fail(path string, err error) {
	c.errs = append(c.errs, c.doc.errorAt(path, err.Error()))
}

// err returns the recorded errors, joined, or nil.
func (c *compiler) err() error { return errors.Join(c.errs...) }

// fn compiles the time function at path (nil when absent).
func (c *compiler) fn(path string, fp *Func) law.Func {
	if fp == nil {
		return nil
	}
	f, err := fp.timeFunc()
	if err != nil {
		c.fail(path, err)
	}
	return f
}

// force compiles the force law at path (nil when absent).
func (c *compiler) force(path string, l *Law) law.Force {
	if l == nil {
		return nil
	}
	f, err := l.forceLaw()
	if err != nil {
		c.fail(path, err)
	}
	return f
}

// vec compiles the components of a vector of time functions at path (nil when absent).
func (c *compiler) vec(path string, fs []Func) [3]law.Func {
	var out [3]law.Func
	for k := range fs {
		out[k] = c.fn(fmt.Sprintf("%s[%d]", path, k), &fs[k])
	}
	return out
}

// motions compiles every motion's function (Motion.compile) and hands the good ones to add
// in file order.
func (c *compiler) motions(motions []Motion, add func(mo Motion, f law.Func)) {
	for k, mo := range motions {
		f, err := mo.compile(c.doc)
		if err != nil {
			c.fail(fmt.Sprintf("motions[%d].function", k), err)
			continue
		}
		add(mo, f)
	}
}

// jointOrder returns the joints in file order, except that a coupler listed before a joint
// it couples moves to just after the later of its two joints: planar.AddCoupler takes the
// joints' ids. A file with every coupler after its joints keeps its order (and its rows).
func jointOrder(joints []Joint) []Joint {
	added := map[string]bool{}
	var order, waiting []Joint
	ready := func(c Joint) bool { return added[c.A] && added[c.B] }
	for _, jt := range joints {
		if jt.Type == JointCoupler && !ready(jt) {
			waiting = append(waiting, jt)
			continue
		}
		order = append(order, jt)
		added[jt.Name] = true
		rest := waiting[:0]
		for _, c := range waiting {
			if ready(c) {
				order = append(order, c)
				added[c.Name] = true
			} else {
				rest = append(rest, c)
			}
		}
		waiting = rest
	}
	return append(order, waiting...) // none after validation
}

// consistentPoses sets Start's positions and velocities to a consistent start of sys (the
// body route of a joint-coordinate model, which reads its joint coordinates from them and
// nothing else): the guess itself where it already satisfies every row (dae.Satisfied),
// from which initialize would move no position and change the velocities by rounding
// only; else initialize's start, with its errors naming the joints. The guess skips the
// partition and eq. 17 in body coordinates, which on the dense path cost O((nq + nc)³):
// most of the start of a 100-bar chain.
func (b *Built) consistentPoses(sys mechanism) error {
	doc := b.Doc
	t0 := doc.Model.Initial.Time
	if doc.Spatial != nil {
		t0 = doc.Spatial.Initial.Time
	}
	q0, v0 := sys.InitialGuess()
	if !dae.Satisfied(sys, t0, q0, v0) || doc.pointMassCheck(sys, t0, q0) != nil {
		return b.initialize(sys)
	}
	b.Start = integrate.State{T: t0, Q: q0, V: v0}
	return nil
}

// initialize makes the initial guess of sys (the full system of b) consistent
// (dae.Initialize) and sets Consistent, Integrated and Start.
func (b *Built) initialize(sys mechanism) error {
	doc := b.Doc
	initial := doc.Model.Initial.Keep
	t0 := doc.Model.Initial.Time
	if doc.Spatial != nil {
		initial, t0 = doc.Spatial.Initial.Keep, doc.Spatial.Initial.Time
	}
	q0, v0 := sys.InitialGuess()
	var keep []int
	for _, name := range initial {
		for i := range q0 {
			if sys.CoordinateName(i) == name {
				keep = append(keep, i)
			}
		}
	}
	if err := doc.pointMassCheck(sys, t0, q0); err != nil {
		return err
	}
	c, err := dae.Initialize(sys, t0, q0, v0, &dae.InitOptions{Keep: keep})
	if err != nil {
		return fmt.Errorf("%s: initial: %w (adjust the guess in initial.bodies)", doc.File, err)
	}
	b.Consistent = c
	b.Integrated = sys
	lambda := c.Lambda
	if len(c.Redundant) > 0 {
		if dae.HasNonholonomic(sys) {
			return fmt.Errorf("%s: nonholonomic constraints (knife edges, rolling disks) with redundant constraints (%d redundant rows): a model with both is not supported yet; remove the redundancy", doc.File, len(c.Redundant))
		}
		if dae.HasReactionForce(sys) {
			return fmt.Errorf("%s: joint friction with redundant constraints (%s): the reactions that press the joints are not determined by the equations of motion; remove the redundancy", doc.File, strings.Join(b.RedundantJoints(), ", "))
		}
		rows := c.KeptRows()
		b.Integrated = dae.Reduce(sys, rows)
		lambda = make([]float64, len(rows))
		for k, r := range rows {
			lambda[k] = c.Lambda[r]
		}
	}
	b.Start = integrate.State{T: t0, Q: c.Q, V: c.V, A: c.A, Lambda: lambda}
	return b.algebraicCheck(sys, t0, c.Q)
}

// algebraicCheck refuses a start at which the cam joints' rows do not determine their
// contact parameters (the follower's path tangent to the contour): when the saddle-point
// matrix of the full system is singular (dae.SaddleNullVector) and its null vector involves
// a contact parameter or a cam joint's row. Redundant rows elsewhere (a parallelogram) are
// left to Initialize, which drops them.
func (b *Built) algebraicCheck(sys mechanism, t0 float64, q []float64) error {
	alg, ok := sys.(dae.Algebraic)
	if !ok || len(alg.AlgebraicCoordinates()) == 0 || b.System == nil {
		return nil
	}
	v := dae.SaddleNullVector(sys, t0, q)
	if v == nil {
		return nil
	}
	nq, _ := sys.Size()
	involved := map[int]bool{}
	for i, x := range v {
		if math.Abs(x) > 0.1 {
			involved[i] = true
		}
	}
	var at []string
	cam := false
	for _, i := range alg.AlgebraicCoordinates() {
		cam = cam || involved[i]
	}
	for _, e := range b.System.Joints() {
		for _, r := range e.Rows {
			if involved[nq+r] {
				at = append(at, sys.ConstraintName(r))
				cam = cam || e.Kind == JointCam
			}
		}
	}
	if !cam {
		return nil
	}
	return fmt.Errorf("%s: initial: at t = %g the cam joints' rows do not determine their contact parameters: the follower's path is tangent to the contour there "+
		"(the saddle-point matrix [M Gᵀ; G 0] is singular, seed 002 Lemma 1; its null vector involves %s); start the follower where its path crosses the contour",
		b.Doc.File, t0, strings.Join(at, ", "))
}

// FullLambda writes the multipliers of the full system (zero on redundant rows) from those
// of the integrated system into dst (length nc of System).
func (b *Built) FullLambda(dst, lambda []float64) {
	if len(b.Consistent.Redundant) == 0 {
		copy(dst, lambda)
		return
	}
	rows := b.Consistent.KeptRows()
	if rk, ok := b.Integrated.(dae.Rekeeper); ok {
		rows = rk.Kept() // the rows kept now: a run may choose them anew (dae.Rekeeper)
	}
	dae.ExpandLambda(dst, lambda, rows)
}

// RedundantJoints names the joints owning the redundant constraint rows found by
// dae.Initialize, with the row names ("upper.x"), in row order.
func (b *Built) RedundantJoints() []string {
	var names []string
	for _, r := range b.Consistent.Redundant {
		names = append(names, dae.ConstraintName(b.Full(), r))
	}
	return names
}

// DOF is the number of degrees of freedom at the initial state: nq − rank(G).
func (b *Built) DOF() int {
	nq, nc := b.Size()
	return nq - (nc - len(b.Consistent.Redundant))
}

// Full returns the full system (every joint row included) of a planar or 3D model.
func (b *Built) Full() dae.System {
	if b.Spatial != nil {
		return b.Spatial.System
	}
	if b.Natural != nil {
		return b.Natural.System
	}
	if b.Joint != nil {
		return b.Joint.System
	}
	if b.Joint3 != nil {
		return b.Joint3.System
	}
	return b.System
}

// Size returns nq and nc of the full system.
func (b *Built) Size() (nq, nc int) { return b.Full().Size() }

// NumBodies returns the number of moving bodies of the document's model.
func (doc *Document) NumBodies() int {
	if doc.Spatial != nil {
		return len(doc.Spatial.Bodies)
	}
	return len(doc.Model.Bodies)
}

// timeFunc compiles f into a law.Func.
func (f Func) timeFunc() (law.Func, error) {
	switch f.Kind {
	case FuncExpr:
		e, err := ParseExpr(f.Expr)
		if err != nil {
			return nil, err
		}
		if f.Deg {
			return scaledFunc{e, math.Pi / 180}, nil
		}
		return e, nil
	case FuncTable:
		return law.NewTable(f.Table.T, f.Table.Value)
	}
	return law.Const{Value: f.Const}, nil
}

// radius compiles a cam profile into r(u) as a law.Func of u.
func (pr *Profile) radius() (law.Func, error) {
	switch pr.Kind {
	case FuncExpr:
		return parseExprOf(pr.Expr, "u")
	case FuncTable:
		return law.NewTable(pr.Table.U, pr.Table.R)
	}
	return law.Const{Value: pr.Const}, nil
}

// finiteSamples is the number of intervals of [t0, t_end] on which Build evaluates each
// motion: a pole or a domain edge shows at the first sample past it, 1/1000 of the run
// late at most, for microseconds per motion.
const finiteSamples = 1000

// compile compiles the motion's function and checks that it and its first two derivatives
// (the velocity and acceleration constraints use them) are finite at initial.time and at
// finiteSamples+1 equally spaced times from there to simulation.t_end (when given): a
// motion such as log(t) or 0/0 is then named with its expression and the first bad time,
// rather than reported as a guess the initialization cannot make consistent.
func (mo Motion) compile(doc *Document) (law.Func, error) {
	f, err := mo.Function.timeFunc()
	if err != nil {
		return nil, err
	}
	t0, tEnd := doc.Model.Initial.Time, doc.Model.Simulation.TEnd
	n := finiteSamples
	if !(tEnd > t0) {
		n = 0
	}
	for k := range n + 1 {
		t := t0
		if n > 0 {
			t += (tEnd - t0) * float64(k) / float64(n)
		}
		x, dx, ddx := f.Eval(t)
		if finite(x) && finite(dx) && finite(ddx) {
			continue
		}
		return nil, fmt.Errorf("motion %q = %s is not finite at t = %g (f = %.3g, f' = %.3g, f'' = %.3g); want a function finite from initial.time to t_end",
			mo.Name, mo.Function.source(), t, x, dx, ddx)
	}
	return f, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// source writes f as in the file, for messages.
func (f Func) source() string {
	switch f.Kind {
	case FuncExpr:
		if f.Deg {
			return strings.TrimSpace(f.Expr) + " deg"
		}
		return f.Expr
	case FuncTable:
		return "the table"
	}
	return fmt.Sprint(f.Const)
}

// scaledFunc is s·f: an expression written in degrees, converted to radians.
type scaledFunc struct {
	f law.Func
	s float64
}

// Eval returns s·f, s·f', s·f″.
func (sf scaledFunc) Eval(t float64) (f, df, ddf float64) {
	f, df, ddf = sf.f.Eval(t)
	return sf.s * f, sf.s * df, sf.s * ddf
}

// forceLaw converts l into a law.Force.
func (l *Law) forceLaw() (law.Force, error) {
	if l.Piecewise != nil {
		pieces := make([]law.Polynomial, len(l.Piecewise.Pieces))
		for k, c := range l.Piecewise.Pieces {
			pieces[k] = law.Polynomial{Coef: c}
		}
		return law.NewPiecewise(l.Piecewise.Breaks, pieces)
	}
	return law.Polynomial{Coef: l.Polynomial}, nil
}

// pointMassCheck refuses a model with point masses (bodies of inertia 0) whose mass matrix
// is singular on the null space of G at the guess q0 (seed 002, Lemma 1: the accelerations
// would not be determined), naming the coordinates of the motion nothing resists: the
// rotation of a point mass that no joint turns, such as one pinned at its centre of mass.
func (doc *Document) pointMassCheck(sys mechanism, t0 float64, q0 []float64) error {
	if doc.Spatial != nil || !slices.ContainsFunc(doc.Model.Bodies, func(b Body) bool { return b.Inertia == 0 }) {
		return nil
	}
	v := dae.MassOnNullSpace(sys, t0, q0)
	if v == nil {
		return nil
	}
	vmax := 0.0
	for _, x := range v {
		vmax = math.Max(vmax, math.Abs(x))
	}
	var free []string
	for i, x := range v {
		if math.Abs(x) > 0.1*vmax {
			free = append(free, sys.CoordinateName(i))
		}
	}
	return fmt.Errorf("%s: point masses: the mass matrix is singular on the motions the joints allow (seed 002, Lemma 1): %s can move without inertia; "+
		"pin a point mass away from its centre of mass (a marker at the other end of its link), or give the body an inertia", doc.File, strings.Join(free, ", "))
}

// spec is the friction as the modeling routes take it (planar and spatial JointFriction).
func (f *Friction) spec() assembly.FrictionSpec {
	return assembly.FrictionSpec{Mu: f.Mu, VReg: f.VReg, Viscous: f.Viscous, PinRadius: f.PinRadius, Arm: f.Arm, NormalEps: f.NormalEps}
}
