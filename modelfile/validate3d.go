package modelfile

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// validate3 checks the names, references and values of a decoded 3D model with the same
// rules and messages as the planar validator (which it reuses for names, laws, functions
// and the simulation's method).
func validate3(d *decoder) {
	m := d.doc.Spatial
	v := &validator{decoder: d, m: &d.doc.Model, bodies: map[string]int{groundName: -1},
		markers: map[string]int{}, joints: map[string]int{}, names: map[string]string{}}
	if m.Dimension != 3 {
		v.errorf("dimension", "dimension = %g; want 2 (planar) or 3", m.Dimension)
	}
	v.someBodies(len(m.Bodies))
	for i, b := range m.Bodies {
		p := fmt.Sprintf("bodies[%d]", i)
		if v.claim(p, "body", b.Name) {
			v.bodies[b.Name] = i
		}
		v.positive(p+".mass", "mass (kg)", b.Mass)
		if n := len(b.Inertia); n != 3 && n != 6 {
			v.errorf(p+".inertia", "%d values; want [Jxx, Jyy, Jzz] or [Jxx, Jyy, Jzz, Jxy, Jxz, Jyz] (kg·m² about the centre of mass)", n)
		} else if !positiveDefinite3(inertiaMatrix(b.Inertia)) {
			v.errorf(p+".inertia", "inertia %v is not positive definite; want a symmetric positive definite tensor (principal moments > 0)", b.Inertia)
		}
		v.shape(p+".shape", b.Shape, 3)
	}
	for i, mk := range m.Markers {
		p := fmt.Sprintf("markers[%d]", i)
		if mk.Name == "" {
			v.errorf(p+".name", "empty name; want a non-empty marker name")
		} else if _, dup := v.markers[mk.Name]; dup {
			v.errorf(p+".name", "duplicate marker name %q", mk.Name)
		} else {
			v.markers[mk.Name] = i
		}
		if _, ok := v.bodies[mk.Body]; !ok {
			v.errorf(p+".body", "unknown body %q; want ground or a body: %s", mk.Body, v.movingBodies())
		}
		if v.doc.has(p+".axis") && mk.Axis == (Vec3{}) {
			v.errorf(p+".axis", "zero axis; want a nonzero direction (or omit it for the body's z axis)")
		}
	}
	markerBody := func(path, name string) (string, bool) {
		k, ok := v.markers[name]
		if !ok {
			v.errorf(path, "unknown marker %q; want one of: %s", name, v.list(v.markers))
			return "", false
		}
		return m.Markers[k].Body, true
	}
	pair := func(path, kind, name, i, j string) {
		bi, okI := markerBody(path+".i", i)
		bj, okJ := markerBody(path+".j", j)
		if okI && okJ && bi == bj {
			v.errorf(path+".j", "%s %q connects body %q to itself (markers %q and %q are both on it); want markers on two different bodies", kind, name, bi, i, j)
		}
	}
	for k, jt := range m.Joints {
		p := fmt.Sprintf("joints[%d]", k)
		if v.claim(p, "joint", jt.Name) {
			v.joints[jt.Name] = k
		}
		if !slices.Contains(joint3Types(), jt.Type) {
			v.errorf(p+".type", "unknown joint type %q; want one of: %s", jt.Type, strings.Join(joint3Types(), ", "))
			continue
		}
		if jt.Type == JointRollingDisk {
			v.onlyFields(p, "joint", jt.Type, []string{"i", "radius"}, structKeys(reflect.TypeFor[Joint3]()))
			v.rollingDisk(p, jt, markerBody)
			continue
		}
		allowed := []string{"i", "j"}
		switch jt.Type {
		case JointDistance:
			allowed = append(allowed, "length")
		case JointRevolute, JointTranslational:
			allowed = append(allowed, "friction")
		}
		v.onlyFields(p, "joint", jt.Type, allowed, structKeys(reflect.TypeFor[Joint3]()))
		if !v.doc.has(p + ".j") {
			v.errorf(p, "missing required key \"j\" (the second marker of the %s joint)", jt.Type)
			continue
		}
		pair(p, "joint", jt.Name, jt.I, jt.J)
		v.friction(p+".friction", jt.Type, jt.Friction)
		if jt.Type == JointDistance {
			if !v.doc.has(p + ".length") {
				v.errorf(p, "missing required key \"length\" (m) of the distance joint")
			} else {
				v.positive(p+".length", "length (m)", jt.Length)
			}
		}
	}
	for k, mo := range m.Motions {
		p := fmt.Sprintf("motions[%d]", k)
		v.claim(p, "motion", mo.Name)
		jk, ok := v.joints[mo.Joint]
		var typ string
		if ok {
			typ = m.Joints[jk].Type
		}
		if !ok || (typ != JointRevolute && typ != JointTranslational && typ != JointCylindrical && typ != JointPointOnLine) {
			what := fmt.Sprintf("unknown joint %q", mo.Joint)
			if ok {
				what = fmt.Sprintf("joint %q is a %s", mo.Joint, typ)
			}
			v.errorf(p+".joint", "%s; want a revolute (angle) or translational, cylindrical or point-on-line joint (displacement along z_I)", what)
		}
		v.function(p+".function", mo.Function, typ == JointRevolute)
	}
	for k, f := range m.Forces {
		p := fmt.Sprintf("forces[%d]", k)
		v.claim(p, "force", f.Name)
		if fields := force3Fields(f.Type); fields == nil {
			v.errorf(p+".type", "unknown force type %q; want one of: %s", f.Type, strings.Join(forceTypes(), ", "))
			continue
		} else {
			v.onlyFields(p, "force", f.Type, fields, structKeys(reflect.TypeFor[Force3]()))
		}
		switch f.Type {
		case ForceTSDA, ForceRSDA:
			if f.Type == ForceRSDA && v.doc.has(p+".joint") {
				if v.doc.has(p+".i") || v.doc.has(p+".j") {
					v.errorf(p+".joint", "give either joint or the markers i and j, not both")
				}
				if jk, ok := v.joints[f.Joint]; !ok {
					v.errorf(p+".joint", "unknown joint %q; want a revolute joint", f.Joint)
				} else if typ := m.Joints[jk].Type; typ != JointRevolute {
					v.errorf(p+".joint", "joint %q is a %s; an rsda needs a revolute joint", f.Joint, typ)
				}
			} else {
				pair(p, f.Type, f.Name, f.I, f.J)
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
		case ForcePointForce, ForceTorque:
			key, fs := "force", f.Force
			if f.Type == ForcePointForce {
				if _, ok := v.markers[f.Marker]; !ok {
					v.errorf(p+".marker", "unknown or missing marker %q; want one of: %s", f.Marker, v.list(v.markers))
				}
			} else {
				key, fs = "torque", f.Torque
				if b, ok := v.bodies[f.Body]; !ok || b < 0 {
					v.errorf(p+".body", "unknown or missing body %q; want a moving body: %s", f.Body, v.movingBodies())
				}
			}
			if len(fs) != 3 {
				v.errorf(p+"."+key, "%d components; want a list of three functions of time [x, y, z]", len(fs))
			}
			for c := range fs {
				v.function(fmt.Sprintf("%s.%s[%d]", p, key, c), fs[c], false)
			}
			if f.Frame != "" && f.Frame != "global" && f.Frame != "body" {
				v.errorf(p+".frame", "unknown frame %q; want global or body", f.Frame)
			}
		case ForceBushing:
			pair(p, "bushing", f.Name, f.I, f.J)
			for _, c := range []struct {
				key string
				x   Vec3
			}{{"stiffness", f.Stiffness}, {"damping", f.Damping}, {"rot_stiffness", f.RotStiffness}, {"rot_damping", f.RotDamping}} {
				for i, x := range c.x {
					v.nonNegative(fmt.Sprintf("%s.%s[%d]", p, c.key, i), c.key, x)
				}
			}
		}
	}
	for name, st := range m.Initial.Bodies {
		p := "initial.bodies." + name
		if b, ok := v.bodies[name]; !ok || b < 0 {
			v.errorf(p, "unknown body %q; want a moving body: %s", name, v.movingBodies())
		}
		if st.Quaternion != nil && st.Angles != nil {
			v.errorf(p+".angles", "give either quaternion or angles, not both")
		}
		if st.Quaternion != nil && *st.Quaternion == (Quat{}) {
			v.errorf(p+".quaternion", "zero quaternion; want Euler parameters [p0, p1, p2, p3], e.g. [1, 0, 0, 0] for no rotation")
		}
		if st.Angles != nil && len(st.Angles) != 3 {
			v.errorf(p+".angles", "%d angles; want [roll, pitch, yaw]", len(st.Angles))
		}
	}
	for i, c := range m.Initial.Keep {
		body, coord, _ := strings.Cut(c, ".")
		if b, ok := v.bodies[body]; !ok || b < 0 || !slices.Contains([]string{"x", "y", "z", "p0", "p1", "p2", "p3"}, coord) {
			v.errorf(fmt.Sprintf("initial.keep[%d]", i), "unknown coordinate %q; want BODY.x, .y, .z or .p0 … .p3 with a moving body: %s", c, v.movingBodies())
		}
	}
	v.coordinates3(m)
	v.rotations(3)
	v.simulationCommon(m.Initial.Time, channelNames3(m))
}

// joint3TreeTypes are the 3D joints the joint route takes (assembleJoint3).
func joint3TreeTypes() []string {
	return []string{JointSpherical, JointRevolute, JointTranslational, JointCylindrical, JointUniversal}
}

// coordinates3 checks the coordinates key of a 3D model and, for joint coordinates, refuses
// by element what package joint cannot take: joints without a tree or cut form, friction
// on other than revolute joints.
func (v *validator) coordinates3(m *SpatialModel) {
	switch m.Coordinates {
	case "", CoordinatesBody:
		return
	case CoordinatesJoint:
	default:
		v.errorf("coordinates", "coordinates = %q; want %q (x, y, z and Euler parameters of every body, the default) or %q (relative coordinates of a spanning tree)",
			m.Coordinates, CoordinatesBody, CoordinatesJoint)
		return
	}
	for k, jt := range m.Joints {
		if jt.Friction != nil && jt.Type != JointRevolute {
			v.errorf(fmt.Sprintf("joints[%d].friction", k), "joint %q: friction on a %s joint is not available with coordinates: joint in 3D (revolute joints take it); use coordinates: body", jt.Name, jt.Type)
		}
		if !slices.Contains(joint3TreeTypes(), jt.Type) && !v.jointRouteCut3(jt) {
			v.errorf(fmt.Sprintf("joints[%d].type", k), "joint %q: %s joints are not available with coordinates: joint "+
				"(a tree of %s joints, any of them a cut joint, point-on-line joints and rolling disks); use coordinates: body", jt.Name, jt.Type, strings.Join(joint3TreeTypes(), ", "))
		}
	}
}

// rollingDisk checks a rolling disk (p is its path): a radius > 0 and a marker i on a
// moving body (its point is the disk's centre, its z axis the disk's axis; a zero axis is
// reported with the marker).
func (v *validator) rollingDisk(p string, jt Joint3, markerBody func(path, name string) (string, bool)) {
	if !v.doc.has(p + ".radius") {
		v.errorf(p, "missing required key \"radius\" (m) of the rolling disk")
	} else {
		v.positive(p+".radius", "radius (m)", jt.Radius)
	}
	if b, ok := markerBody(p+".i", jt.I); ok && b == groundName {
		v.errorf(p+".i", "rolling disk %q: marker %q is on the ground; want a marker on the moving disk body (its point the disk's centre, its z axis the disk's axis)", jt.Name, jt.I)
	}
}

// inertiaMatrix expands the file's inertia list into the symmetric tensor.
func inertiaMatrix(j []float64) [3][3]float64 {
	J := [3][3]float64{{j[0], 0, 0}, {0, j[1], 0}, {0, 0, j[2]}}
	if len(j) == 6 {
		J[0][1], J[0][2], J[1][2] = j[3], j[4], j[5]
		J[1][0], J[2][0], J[2][1] = j[3], j[4], j[5]
	}
	return J
}

// positiveDefinite3 tests a symmetric 3×3 matrix by its leading principal minors
// (Sylvester's criterion).
func positiveDefinite3(J [3][3]float64) bool {
	m1 := J[0][0]
	m2 := J[0][0]*J[1][1] - J[0][1]*J[1][0]
	m3 := J[0][0]*(J[1][1]*J[2][2]-J[1][2]*J[2][1]) - J[0][1]*(J[1][0]*J[2][2]-J[1][2]*J[2][0]) + J[0][2]*(J[1][0]*J[2][1]-J[1][1]*J[2][0])
	return m1 > 0 && m2 > 0 && m3 > 0
}
