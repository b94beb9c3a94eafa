package modelfile

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"

	"linkage/integrate"
)

// Defaults of Simulation (docs/model-format.md states them).
const (
	// DefaultMethod is HHT-α: implicit, error-controlled, index-3 with redundant-free
	// models (seed 004), the method of the stiff examples.
	DefaultMethod = "hht"
	// DefaultTol is the default relative and absolute tolerance: 1e-6 gives about four
	// correct digits in the positions of the examples at modest cost.
	DefaultTol = 1e-6
	// defaultSamples is the number of output intervals when output_step is absent.
	defaultSamples = 100
)

// groundName is the predefined fixed body.
const groundName = "ground"

// reservedNames may not name elements: they prefix channels or are predefined.
func reservedNames() []string { return []string{groundName, "energy", "residual", "t"} }

// jointFields and forceFields list, per type, the keys that apply besides name and type.
func jointFields(typ string) []string {
	switch typ {
	case JointRevolute, JointTranslational:
		return []string{"i", "j", "friction"}
	case JointWeld, JointPointOnLine:
		return []string{"i", "j"}
	case JointDistance:
		return []string{"i", "j", "length"}
	case JointCoupler:
		return []string{"a", "b", "ratio", "offset"}
	case JointCam:
		return []string{"i", "j", "profile"}
	case JointKnifeEdge:
		return []string{"i"}
	}
	return nil
}

func forceFields(typ string) []string {
	switch typ {
	case ForceTSDA:
		return []string{"i", "j", "k", "c", "free_length", "spring", "damper", "actuator"}
	case ForceRSDA:
		return []string{"joint", "i", "j", "k", "c", "free_angle", "spring", "damper", "actuator"}
	case ForcePointForce:
		return []string{"marker", "fx", "fy", "frame"}
	case ForceTorque:
		return []string{"body", "torque"}
	case ForceBushing:
		return []string{"i", "j", "kx", "ky", "ktheta", "cx", "cy", "ctheta"}
	}
	return nil
}

func jointTypes() []string {
	return []string{JointRevolute, JointTranslational, JointDistance, JointWeld, JointPointOnLine, JointCoupler, JointKnifeEdge, JointCam}
}

func forceTypes() []string {
	return []string{ForceTSDA, ForceRSDA, ForcePointForce, ForceTorque, ForceBushing}
}

// validator checks the references and values of a decoded model.
type validator struct {
	*decoder
	m       *Model
	bodies  map[string]int // body name → index in m.Bodies, ground −1
	markers map[string]int
	joints  map[string]int // joint name → index in m.Joints
	names   map[string]string
}

func validate(d *decoder) {
	v := &validator{decoder: d, m: &d.doc.Model, bodies: map[string]int{groundName: -1},
		markers: map[string]int{}, joints: map[string]int{}, names: map[string]string{}}
	if d.doc.has("dimension") && v.m.Dimension != 2 {
		v.errorf("dimension", "dimension = %g; want 2 (planar) or 3", v.m.Dimension)
	}
	v.coordinates()
	v.rotations(2)
	v.bodiesAndMarkers()
	v.jointsAndMotions()
	v.forces()
	if v.m.Coordinates == CoordinatesJoint {
		v.jointFlexible() // after the markers and forces are known
	}
	v.initial()
	v.simulation()
}

// coordinates checks the coordinates key and, for natural coordinates, that every body and
// joint has a natural-coordinate form (couplers tie joint angles, which are no coordinates
// there; a point mass has no radius of gyration to place a second point at).
func (v *validator) coordinates() {
	switch v.m.Coordinates {
	case "", CoordinatesBody:
		return
	case CoordinatesNatural:
	case CoordinatesJoint:
		v.jointCoordinates()
		return
	default:
		v.errorf("coordinates", "coordinates = %q; want %q (x, y, θ of every body, the default), %q (basic points) or %q (relative coordinates of a spanning tree)",
			v.m.Coordinates, CoordinatesBody, CoordinatesNatural, CoordinatesJoint)
		return
	}
	for i, b := range v.m.Bodies {
		if b.Inertia == 0 {
			v.errorf(fmt.Sprintf("bodies[%d].inertia", i), "point mass %q (inertia 0): point masses are not available with coordinates: natural "+
				"(a body with fewer than two joint points gets a second basic point at its radius of gyration, here 0; not implemented for the others either); use coordinates: body", b.Name)
		}
	}
	for k, jt := range v.m.Joints {
		if jt.Friction != nil {
			v.errorf(fmt.Sprintf("joints[%d].friction", k), "joint %q: friction is not available with coordinates: natural; use coordinates: body", jt.Name)
		}
		if jt.Type == JointCam {
			v.errorf(fmt.Sprintf("joints[%d].type", k), "cam %q: cam joints are not available with coordinates: natural "+
				"(their contact parameter is a coordinate of the body route); use coordinates: body", jt.Name)
		}
		if jt.Type == JointCoupler {
			v.errorf(fmt.Sprintf("joints[%d].type", k), "coupler %q: couplers are not available with coordinates: natural "+
				"(the joint angles they couple are no coordinates there); use coordinates: body", jt.Name)
		}
		if jt.Type == JointKnifeEdge {
			v.errorf(fmt.Sprintf("joints[%d].type", k), "knife edge %q: knife edges are not available with coordinates: natural; use coordinates: body", jt.Name)
		}
	}
}

// jointRoute reports whether the model is built in joint coordinates (planar or 3D), whose
// channels hold no joint reactions.
func (v *validator) jointRoute() bool {
	return v.m.Coordinates == CoordinatesJoint || v.doc.Spatial != nil && v.doc.Spatial.Coordinates == CoordinatesJoint
}

// claim registers an element name in the namespace shared by bodies, joints, motions and
// forces (they prefix output channels, so they must not collide).
func (v *validator) claim(path, kind, name string) bool {
	switch {
	case name == "":
		v.errorf(path+".name", "empty name; want a non-empty %s name", kind)
		return false
	case slices.Contains(reservedNames(), name):
		v.errorf(path+".name", "%q is reserved (%s); choose another %s name", name, strings.Join(reservedNames(), ", "), kind)
		return false
	case strings.ContainsAny(name, ".,*\"\n"):
		v.errorf(path+".name", "%s name %q contains one of . , * \" or a newline; these separate output channels", kind, name)
		return false
	}
	if prev, ok := v.names[name]; ok {
		v.errorf(path+".name", "duplicate name %q: already used by %s", name, prev)
		return false
	}
	v.names[name] = fmt.Sprintf("%s (line %d)", path, lineOf(v.doc, path))
	return true
}

func lineOf(doc *Document, path string) int {
	l, _ := doc.Line(path)
	return l
}

func (v *validator) positive(path, what string, x float64) {
	if !(x > 0) {
		v.errorf(path, "%s = %g; want a positive number", what, x)
	}
}

func (v *validator) nonNegative(path, what string, x float64) {
	if x < 0 {
		v.errorf(path, "%s = %g; want a number ≥ 0", what, x)
	}
}

// someBodies refuses a model without moving bodies: it has no coordinates to integrate.
func (v *validator) someBodies(n int) {
	if n == 0 && v.doc.has("bodies") {
		v.errorf("bodies", "no bodies; want at least one moving body (ground is predefined), a model without one has no coordinates to simulate")
	}
}

func (v *validator) bodiesAndMarkers() {
	v.someBodies(len(v.m.Bodies))
	for i, b := range v.m.Bodies {
		p := fmt.Sprintf("bodies[%d]", i)
		if v.claim(p, "body", b.Name) {
			v.bodies[b.Name] = i
		}
		if b.Flexible != nil {
			v.flexible(p, b)
		} else {
			v.rigidMass(p, b)
		}
		v.shape(p+".shape", b.Shape, 2)
	}
	for i, mk := range v.m.Markers {
		p := fmt.Sprintf("markers[%d]", i)
		if mk.Name == "" {
			v.errorf(p+".name", "empty name; want a non-empty marker name")
		} else if _, dup := v.markers[mk.Name]; dup {
			v.errorf(p+".name", "duplicate marker name %q", mk.Name)
		} else {
			v.markers[mk.Name] = i
		}
		if k, ok := v.bodies[mk.Body]; !ok {
			v.errorf(p+".body", "unknown body %q; want ground or a body: %s", mk.Body, v.movingBodies())
		} else if k >= 0 && v.m.Bodies[k].Flexible != nil {
			v.nodeMarker(p, mk, v.m.Bodies[k].Flexible)
		}
	}
}

func (v *validator) list(m map[string]int) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "(none defined)"
	}
	if len(names) > 12 {
		names = append(names[:12], "…")
	}
	return strings.Join(names, ", ")
}

// onlyFields reports keys of the element at path that do not apply to its type; keys
// lists every key of the element's Go type (structKeys).
func (v *validator) onlyFields(path, kind, typ string, allowed, keys []string) {
	for _, k := range keys {
		if k == "name" || k == "type" || slices.Contains(allowed, k) || !v.doc.has(path+"."+k) {
			continue
		}
		v.errorf(path+"."+k, "key %q does not apply to a %s %s; its keys are name, type, %s", k, typ, kind, strings.Join(allowed, ", "))
	}
}

// marker checks a required marker reference and returns its body name.
func (v *validator) marker(path, name string) (string, bool) {
	if !v.doc.has(path) {
		v.errorf(path, "missing required key %q (a marker name)", path[strings.LastIndexByte(path, '.')+1:])
		return "", false
	}
	i, ok := v.markers[name]
	if !ok {
		v.errorf(path, "unknown marker %q; want one of: %s", name, v.list(v.markers))
		return "", false
	}
	return v.m.Markers[i].Body, true
}

// pair checks the markers I and J of a two-body element.
func (v *validator) pair(path, kind, name, i, j string) {
	bi, okI := v.marker(path+".i", i)
	bj, okJ := v.marker(path+".j", j)
	if okI && okJ && bi == bj {
		v.errorf(path+".j", "%s %q connects body %q to itself (markers %q and %q are both on it); want markers on two different bodies", kind, name, bi, i, j)
	}
}

func (v *validator) jointsAndMotions() {
	for k, jt := range v.m.Joints {
		p := fmt.Sprintf("joints[%d]", k)
		if v.claim(p, "joint", jt.Name) {
			v.joints[jt.Name] = k
		}
		if !slices.Contains(jointTypes(), jt.Type) {
			v.errorf(p+".type", "unknown joint type %q; want one of: %s", jt.Type, strings.Join(jointTypes(), ", "))
			continue
		}
		v.onlyFields(p, "joint", jt.Type, jointFields(jt.Type), structKeys(reflect.TypeFor[Joint]()))
		switch jt.Type {
		case JointCoupler:
			if !v.doc.has(p + ".ratio") {
				v.errorf(p, "missing required key \"ratio\" of the coupler (coordinate_b = ratio·coordinate_a + offset)")
			}
		case JointKnifeEdge:
			v.knifeEdge(p, jt)
		default:
			v.pair(p, "joint", jt.Name, jt.I, jt.J)
			v.friction(p+".friction", jt.Type, jt.Friction)
			if jt.Type == JointCam {
				v.profile(p, jt.Profile)
			}
			if jt.Type == JointDistance {
				if !v.doc.has(p + ".length") {
					v.errorf(p, "missing required key \"length\" (m) of the distance joint")
				} else {
					v.positive(p+".length", "length (m)", jt.Length)
				}
			}
		}
	}
	// Couplers may refer to joints listed after them (assemble adds them in time).
	for k, jt := range v.m.Joints {
		if jt.Type == JointCoupler {
			p := fmt.Sprintf("joints[%d]", k)
			v.coordinateJoint(p+".a", jt.A)
			v.coordinateJoint(p+".b", jt.B)
		}
	}
	for k, mo := range v.m.Motions {
		p := fmt.Sprintf("motions[%d]", k)
		v.claim(p, "motion", mo.Name)
		typ := v.coordinateJoint(p+".joint", mo.Joint)
		v.function(p+".function", mo.Function, typ == JointRevolute)
	}
}

// knifeEdge checks a knife edge: its marker i exists and lies on a moving body (the blade
// slides on the ground plane).
func (v *validator) knifeEdge(p string, jt Joint) {
	if b, ok := v.marker(p+".i", jt.I); ok && b == groundName {
		v.errorf(p+".i", "knife edge %q: marker %q is on the ground; want a marker on a moving body (the blade slides on the ground plane)", jt.Name, jt.I)
	}
}

// profile checks a cam joint's profile (p is the joint's path): present, a positive radius
// or a table of positive radii at strictly increasing angles.
func (v *validator) profile(p string, pr *Profile) {
	if pr == nil {
		v.errorf(p, "missing required key \"profile\" of the cam (the contour radius r(u), m)")
		return
	}
	switch pr.Kind {
	case FuncConst:
		v.positive(p+".profile", "profile radius (m)", pr.Const)
	case FuncTable:
		tb := pr.Table
		if len(tb.U) < 2 || len(tb.U) != len(tb.R) {
			v.errorf(p+".profile", "table with %d angles and %d radii; want equal counts of at least 2", len(tb.U), len(tb.R))
			return
		}
		for i := range tb.U {
			if i > 0 && !(tb.U[i] > tb.U[i-1]) {
				v.errorf(fmt.Sprintf("%s.profile.u[%d]", p, i), "u = %g not after %g; want strictly increasing angles", tb.U[i], tb.U[i-1])
				return
			}
			if !(tb.R[i] > 0) {
				v.errorf(fmt.Sprintf("%s.profile.r[%d]", p, i), "r = %g; want a radius > 0", tb.R[i])
				return
			}
		}
	}
}

// friction checks the friction block of a joint of type typ (nil: none).
func (v *validator) friction(p, typ string, f *Friction) {
	if f == nil {
		return
	}
	v.nonNegative(p+".mu", "mu", f.Mu)
	v.positive(p+".v_reg", "v_reg (m/s)", f.VReg)
	v.nonNegative(p+".viscous", "viscous", f.Viscous)
	v.nonNegative(p+".normal_eps", "normal_eps (N)", f.NormalEps)
	switch typ {
	case JointRevolute:
		if !v.doc.has(p + ".pin_radius") {
			v.errorf(p, "missing required key \"pin_radius\" (m) of a revolute joint's friction: the friction torque is mu·N·pin_radius")
		} else {
			v.positive(p+".pin_radius", "pin_radius (m)", f.PinRadius)
		}
		if v.doc.has(p + ".arm") {
			v.errorf(p+".arm", "key \"arm\" applies to a translational joint's friction; a revolute joint takes pin_radius")
		}
	case JointTranslational:
		if v.doc.has(p + ".pin_radius") {
			v.errorf(p+".pin_radius", "key \"pin_radius\" applies to a revolute joint's friction; a translational joint takes arm")
		}
		v.nonNegative(p+".arm", "arm (m)", f.Arm)
	}
}

// coordinateJoint checks a reference to a joint with a joint coordinate (revolute,
// translational, point-on-line); it returns its type.
func (v *validator) coordinateJoint(path, name string) string {
	k, ok := v.joints[name]
	if !ok {
		v.errorf(path, "unknown joint %q; want a revolute, translational or point-on-line joint: %s", name, v.coordinateJoints())
		return ""
	}
	typ := v.m.Joints[k].Type
	if typ != JointRevolute && typ != JointTranslational && typ != JointPointOnLine {
		v.errorf(path, "joint %q is a %s; want a revolute, translational or point-on-line joint (one with a joint coordinate)", name, typ)
		return ""
	}
	return typ
}

func (v *validator) coordinateJoints() string {
	m := map[string]int{}
	for _, jt := range v.m.Joints {
		if jt.Type == JointRevolute || jt.Type == JointTranslational || jt.Type == JointPointOnLine {
			m[jt.Name] = 0
		}
	}
	return v.list(m)
}

// function checks a time function; angle says whether a deg suffix is allowed.
func (v *validator) function(path string, f Func, angle bool) {
	switch f.Kind {
	case FuncExpr:
		if f.Deg && !angle {
			v.errorf(path, "the deg suffix is only for angles; this function is not an angle")
		}
	case FuncTable:
		tb := f.Table
		if len(tb.T) < 2 || len(tb.T) != len(tb.Value) {
			v.errorf(path, "table with %d times and %d values; want equal counts of at least 2", len(tb.T), len(tb.Value))
			return
		}
		for i := 1; i < len(tb.T); i++ {
			if !(tb.T[i] > tb.T[i-1]) {
				v.errorf(fmt.Sprintf("%s.t[%d]", path, i), "t = %g not after %g; want strictly increasing times", tb.T[i], tb.T[i-1])
				return
			}
		}
	}
}

func (v *validator) forces() {
	for k, f := range v.m.Forces {
		p := fmt.Sprintf("forces[%d]", k)
		v.claim(p, "force", f.Name)
		if !slices.Contains(forceTypes(), f.Type) {
			v.errorf(p+".type", "unknown force type %q; want one of: %s", f.Type, strings.Join(forceTypes(), ", "))
			continue
		}
		v.onlyFields(p, "force", f.Type, forceFields(f.Type), structKeys(reflect.TypeFor[Force]()))
		switch f.Type {
		case ForceTSDA, ForceRSDA:
			if f.Type == ForceRSDA && v.doc.has(p+".joint") {
				if v.doc.has(p+".i") || v.doc.has(p+".j") {
					v.errorf(p+".joint", "give either joint or the markers i and j, not both")
				}
				if jk, ok := v.joints[f.Joint]; !ok {
					v.errorf(p+".joint", "unknown joint %q; want a revolute joint", f.Joint)
				} else if typ := v.m.Joints[jk].Type; typ != JointRevolute {
					v.errorf(p+".joint", "joint %q is a %s; an rsda needs a revolute joint", f.Joint, typ)
				}
			} else {
				v.pair(p, f.Type, f.Name, f.I, f.J)
			}
			v.nonNegative(p+".k", "k", f.K)
			v.nonNegative(p+".c", "c", f.C)
			v.nonNegative(p+".free_length", "free_length (m)", f.FreeLength)
			for _, l := range []struct {
				key, other string
				law        *Law
			}{{"spring", "k", f.Spring}, {"damper", "c", f.Damper}} {
				if l.law != nil {
					if v.doc.has(p + "." + l.other) {
						v.errorf(p+"."+l.key, "give %s or %s, not both", l.other, l.key)
					}
					v.law(p+"."+l.key, l.law)
				}
			}
			if f.Actuator != nil {
				v.function(p+".actuator", *f.Actuator, false)
			}
		case ForcePointForce:
			if _, ok := v.markers[f.Marker]; !ok {
				v.errorf(p+".marker", "unknown or missing marker %q; want one of: %s", f.Marker, v.list(v.markers))
			}
			if f.Fx == nil && f.Fy == nil {
				v.errorf(p, "point-force %q has neither fx nor fy; want at least one", f.Name)
			}
			for _, c := range []struct {
				key string
				fn  *Func
			}{{"fx", f.Fx}, {"fy", f.Fy}} {
				if c.fn != nil {
					v.function(p+"."+c.key, *c.fn, false)
				}
			}
			if f.Frame != "" && f.Frame != "global" && f.Frame != "body" {
				v.errorf(p+".frame", "unknown frame %q; want global or body", f.Frame)
			}
		case ForceTorque:
			if b, ok := v.bodies[f.Body]; !ok || b < 0 {
				v.errorf(p+".body", "unknown or missing body %q; want a moving body: %s", f.Body, v.movingBodies())
			}
			if f.Torque == nil {
				v.errorf(p, "missing required key \"torque\" (N·m, a function of time)")
			} else {
				v.function(p+".torque", *f.Torque, false)
			}
		case ForceBushing:
			v.pair(p, "bushing", f.Name, f.I, f.J)
			for _, c := range []struct {
				key string
				x   float64
			}{{"kx", f.Kx}, {"ky", f.Ky}, {"ktheta", f.Ktheta}, {"cx", f.Cx}, {"cy", f.Cy}, {"ctheta", f.Ctheta}} {
				v.nonNegative(p+"."+c.key, c.key, c.x)
			}
		}
	}
}

func (v *validator) movingBodies() string {
	m := map[string]int{}
	for n, i := range v.bodies {
		if i >= 0 {
			m[n] = i
		}
	}
	return v.list(m)
}

func (v *validator) law(path string, l *Law) {
	switch {
	case l.Polynomial != nil && l.Piecewise != nil:
		v.errorf(path, "give either polynomial or piecewise, not both")
	case l.Polynomial == nil && l.Piecewise == nil:
		v.errorf(path, "empty law; want polynomial: [c0, c1, …] or piecewise: {breaks, pieces}")
	case l.Piecewise != nil:
		pw := l.Piecewise
		if len(pw.Pieces) != len(pw.Breaks)+1 {
			v.errorf(path+".piecewise.pieces", "%d pieces for %d breaks; want %d", len(pw.Pieces), len(pw.Breaks), len(pw.Breaks)+1)
		}
		for i := 1; i < len(pw.Breaks); i++ {
			if !(pw.Breaks[i] > pw.Breaks[i-1]) {
				v.errorf(fmt.Sprintf("%s.piecewise.breaks[%d]", path, i), "break %g not after %g; want strictly increasing breaks", pw.Breaks[i], pw.Breaks[i-1])
			}
		}
	}
}

func (v *validator) initial() {
	in := v.m.Initial
	for name := range in.Bodies {
		if b, ok := v.bodies[name]; !ok || b < 0 {
			v.errorf("initial.bodies."+name, "unknown body %q; want a moving body: %s", name, v.movingBodies())
		}
	}
	for i, c := range in.Keep {
		body, coord, _ := strings.Cut(c, ".")
		if b, ok := v.bodies[body]; !ok || b < 0 || (coord != "x" && coord != "y" && coord != "theta") {
			v.errorf(fmt.Sprintf("initial.keep[%d]", i), "unknown coordinate %q; want BODY.x, BODY.y or BODY.theta with a moving body: %s", c, v.movingBodies())
		}
	}
}

func (v *validator) simulation() { v.simulationCommon(v.m.Initial.Time, channelNames(v.m)) }

// simulationCommon checks the simulation section (of a planar or 3D model: the section is
// v.m.Simulation in both, see Parse) against the start time t0 and the model's channels.
func (v *validator) simulationCommon(t0 float64, valid []string) {
	s := v.m.Simulation
	const p = "simulation"
	if s.Method != "" {
		e, err := integrate.Lookup(s.Method)
		if err != nil {
			v.errorf(p+".method", "%v", err)
		} else if _, err := e.NewMethod(integrate.Formulation(s.Formulation)); err != nil {
			v.errorf(p+".formulation", "%v", err)
		} else {
			v.methodOptions(e)
		}
	} else {
		e, _ := integrate.Lookup(DefaultMethodOf(v.m))
		if _, err := e.NewMethod(integrate.Formulation(s.Formulation)); err != nil {
			v.errorf(p+".formulation", "%v", err)
		}
		v.methodOptions(e)
	}
	if v.doc.has(p + ".tol") {
		v.tolerance(p+".tol", s.Tol)
	}
	for name, a := range s.ATol { // the names are checked against the built system (Run)
		if !(a > 0) || math.IsInf(a, 0) {
			v.errorf(p+".atol."+name, "atol of %s = %g; want a finite positive number", name, a)
		}
	}
	if s.MaxSteps < 0 {
		v.errorf(p+".max_steps", "max_steps = %d; want an integer ≥ 0 (0 for the default %d)", s.MaxSteps, integrate.DefaultMaxSteps)
	}
	v.nonNegative(p+".h", "h (s)", s.H)
	if v.doc.has(p+".t_end") && !(s.TEnd > t0) {
		v.errorf(p+".t_end", "t_end = %g; want a time after initial.time = %g", s.TEnd, t0)
	}
	if v.doc.has(p + ".output_step") {
		v.positive(p+".output_step", "output_step (s)", s.OutputStep)
	}
	for _, list := range []struct {
		key   string
		names []string
	}{{"outputs", s.Outputs}, {"plot", s.Plot}} {
		for i, c := range list.names {
			sel := selectChannels(valid, c)
			if elem, _ := splitChannel(c); len(sel) == 0 && v.jointRoute() {
				if _, joint := v.joints[elem]; joint {
					v.errorf(fmt.Sprintf("%s.%s[%d]", p, list.key, i), "output channel %q: joint reactions are not available with coordinates: joint "+
						"for this joint (a knife edge's or rolling disk's loads are Pfaffian rows there); use coordinates: body", c)
					continue
				}
			}
			if len(sel) == 0 {
				v.errorf(fmt.Sprintf("%s.%s[%d]", p, list.key, i), "unknown output channel %q; want a channel such as %s, a body, joint or marker name, energy or residual",
					c, strings.Join(exampleChannels(valid), ", "))
			}
			// sel holds every copy of its channels in valid: a marker named like a body
			// has channels of the same names.
			if x, ok := firstRepeated(sel); ok {
				elem, _ := splitChannel(x)
				v.errorf(fmt.Sprintf("%s.%s[%d]", p, list.key, i), "output channel %q is both body %q's and marker %q's; rename the marker", x, elem, elem)
			}
		}
	}
}

// firstRepeated returns the first of names that occurs in it more than once.
func firstRepeated(names []string) (string, bool) {
	n := make(map[string]int, len(names))
	for _, x := range names {
		n[x]++
	}
	for _, x := range names {
		if n[x] > 1 {
			return x, true
		}
	}
	return "", false
}

// tolerance checks simulation.tol against [MinTol, MaxTol], with the message the command
// line's --tol gets (TolProblem).
func (v *validator) tolerance(path string, tol float64) {
	if !(tol > 0) {
		v.positive(path, "tol", tol)
		return
	}
	if why := TolProblem(tol); why != "" {
		v.errorf(path, "tol = %g %s", tol, why)
	}
}

// exampleChannels returns a few valid channel names for error messages.
func exampleChannels(valid []string) []string {
	if len(valid) > 6 {
		return valid[:6]
	}
	return valid
}

// shape checks a body's viewer shape in a model of dimension dim: the sizes its type needs,
// positive, and no key of another type.
func (v *validator) shape(p string, sh *Shape, dim int) {
	if sh == nil {
		return
	}
	allowed := map[string][]string{ShapeBox: {"size"}, ShapeCylinder: {"radius", "length", "axis"}, ShapeSphere: {"radius"}}
	keys, ok := allowed[sh.Type]
	if !ok {
		v.errorf(p+".type", "unknown shape %q; want box, cylinder or sphere", sh.Type)
		return
	}
	given := map[string]bool{"size": sh.Size != nil, "radius": sh.Radius != 0, "length": sh.Length != 0, "axis": sh.Axis != nil}
	for _, k := range []string{"size", "radius", "length", "axis"} {
		if given[k] && !slices.Contains(keys, k) {
			v.errorf(p+"."+k, "a %s has no %s; its keys are %s", sh.Type, k, strings.Join(keys, ", "))
		}
	}
	switch sh.Type {
	case ShapeBox:
		if n := len(sh.Size); n != dim && !(dim == 2 && n == 3) {
			v.errorf(p+".size", "%d edge lengths; want %d (m, along the body's axes)", n, dim)
		}
		for i, x := range sh.Size {
			v.positive(fmt.Sprintf("%s.size[%d]", p, i), "edge length (m)", x)
		}
	case ShapeCylinder:
		v.positive(p+".radius", "radius (m)", sh.Radius)
		v.positive(p+".length", "length (m)", sh.Length)
		if sh.Axis != nil && (len(sh.Axis) != dim || norm(sh.Axis) == 0) {
			v.errorf(p+".axis", "axis %v; want a nonzero direction of %d components in the body frame", sh.Axis, dim)
		}
	case ShapeSphere:
		v.positive(p+".radius", "radius (m)", sh.Radius)
	}
}

func norm(x []float64) float64 {
	s := 0.0
	for _, c := range x {
		s += c * c
	}
	return math.Sqrt(s)
}

// methodOptions checks simulation.method_options against e's parameters, one error per
// bad name or value at its line, naming the allowed names or range.
func (v *validator) methodOptions(e integrate.Entry) {
	opts := v.m.Simulation.MethodOptions
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if err := e.CheckParams(map[string]float64{k: opts[k]}); err != nil {
			v.errorf("simulation.method_options."+k, "%v", err)
		}
	}
}
