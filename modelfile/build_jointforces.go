package modelfile

import (
	"fmt"
	"slices"

	"linkage/joint"
	"linkage/law"
	"linkage/spatial"
)

// The force elements of a model in joint coordinates act between the tree frames of their
// markers' bodies (joint.Model.TSDA, RSDA, Bushing, PointForce, Torque; an rsda on a joint
// between the joint's markers, tree joint or cut joint), with the body route's definitions,
// so that both routes apply the same forces and read the same spring-damper channels.

// sdLaw compiles a spring-damper law (p the path of its forces entry).
func sdLaw(c *compiler, p string, k, d, free float64, spring, damper *Law, act *Func) joint.SpringDamper {
	return joint.SpringDamper{K: k, C: d, Free: free, Spring: c.force(p+"spring", spring),
		Damper: c.force(p+"damper", damper), Actuator: c.fn(p+"actuator", act)}
}

// marker is marker name in its body's tree frame: its point and its axes x, y (turned by
// the marker's angle), z.
func (t *treeBuilder) marker(name string) joint.Marker {
	mk := t.markers[name]
	bf := t.jb.frames[mk.Body]
	x, y := rot(bf.phi+float64(mk.Angle), Vec{1, 0}), rot(bf.phi+float64(mk.Angle), Vec{0, 1})
	return joint.Marker{Frame: bf.f, Point: bf.toFrame(mk.Point), X: [3]float64{x[0], x[1]}, Y: [3]float64{y[0], y[1]}, Z: [3]float64{0, 0, 1}}
}

// angleOffset is the angle of marker j's x axis less marker i's when their frames are at
// zero angle: the planar RSDA's β = φ_j − φ_i + offset.
func (t *treeBuilder) angleOffset(i, j string) float64 {
	mi, mj := t.markers[i], t.markers[j]
	return t.jb.frames[mj.Body].phi + float64(mj.Angle) - t.jb.frames[mi.Body].phi - float64(mi.Angle)
}

// forces adds the force elements of a planar model.
func (t *treeBuilder) forces() error {
	m, jm := &t.doc.Model, t.jb.Model
	c := compiler{doc: t.doc}
	for k, f := range m.Forces {
		p := fmt.Sprintf("forces[%d].", k)
		switch f.Type {
		case ForceTSDA:
			jm.TSDA(f.Name, t.marker(f.I), t.marker(f.J), sdLaw(&c, p, f.K, f.C, f.FreeLength, f.Spring, f.Damper, f.Actuator))
		case ForceRSDA:
			i, j := f.I, f.J
			if f.Joint != "" {
				jt := m.Joints[slices.IndexFunc(m.Joints, func(jt Joint) bool { return jt.Name == f.Joint })]
				i, j = jt.I, jt.J
			}
			jm.PlanarRSDA(f.Name, t.marker(i).Frame, t.marker(j).Frame, t.angleOffset(i, j),
				sdLaw(&c, p, f.K, f.C, float64(f.FreeAngle), f.Spring, f.Damper, f.Actuator))
		case ForcePointForce:
			jm.PointForce(f.Name, t.marker(f.Marker), [3]law.Func{c.fn(p+"fx", f.Fx), c.fn(p+"fy", f.Fy)}, f.Frame == "body")
		case ForceTorque:
			on := joint.Marker{Frame: t.jb.frames[f.Body].f}
			jm.Torque(f.Name, on, [3]law.Func{2: c.fn(p+"torque", f.Torque)}, false)
		case ForceBushing:
			jm.PlanarBushing(f.Name, t.marker(f.I), t.marker(f.J), t.angleOffset(f.I, f.J),
				[3]float64{f.Kx, f.Ky, f.Ktheta}, [3]float64{f.Cx, f.Cy, f.Ctheta})
		}
	}
	return c.err()
}

// marker3 is marker name in its body's tree frame: its point and axes at the start, which
// are frame coordinates since every tree frame starts oriented as the world.
func (t *tree3Builder) marker3(name string) joint.Marker {
	k := t.marker[name]
	r, _, _ := t.markerAt(k)
	fr := t.jb.frames[t.m.Markers[k].Body]
	x, y, z := t.sb.System.MarkerAxes(spatial.MarkerID(k+1), t.q)
	return joint.Marker{Frame: fr.f, Point: vec3(r.Sub(t.origin[fr.f])), X: vec3(x), Y: vec3(y), Z: vec3(z)}
}

// bodyAxes is the point of marker name in its body's frame with the body's axes (frame
// coordinates at the start: the columns of its start orientation), for loads in body axes.
func (t *tree3Builder) bodyAxes(name string, body string) joint.Marker {
	fr := t.jb.frames[body]
	on := joint.Marker{Frame: fr.f}
	if name != "" {
		on = t.marker3(name)
	}
	R := fr.p0.Matrix()
	on.X, on.Y, on.Z = vec3{R[0][0], R[1][0], R[2][0]}, vec3{R[0][1], R[1][1], R[2][1]}, vec3{R[0][2], R[1][2], R[2][2]}
	return on
}

// forces adds the force elements of a 3D model.
func (t *tree3Builder) forces(c *compiler) {
	m, jm := t.m, t.jb.Model
	for k, f := range m.Forces {
		p := fmt.Sprintf("forces[%d].", k)
		switch f.Type {
		case ForceTSDA:
			jm.TSDA(f.Name, t.marker3(f.I), t.marker3(f.J), sdLaw(c, p, f.K, f.C, f.FreeLength, f.Spring, f.Damper, f.Actuator))
		case ForceRSDA:
			i, j := f.I, f.J
			if f.Joint != "" {
				jt := m.Joints[slices.IndexFunc(m.Joints, func(jt Joint3) bool { return jt.Name == f.Joint })]
				i, j = jt.I, jt.J
			}
			jm.RSDA(f.Name, t.marker3(i), t.marker3(j), sdLaw(c, p, f.K, f.C, float64(f.FreeAngle), f.Spring, f.Damper, f.Actuator))
		case ForcePointForce:
			at := t.marker3(f.Marker)
			if f.Frame == "body" {
				at = t.bodyAxes(f.Marker, t.m.Markers[t.marker[f.Marker]].Body)
			}
			jm.PointForce(f.Name, at, c.vec(p+"force", f.Force), f.Frame == "body")
		case ForceTorque:
			jm.Torque(f.Name, t.bodyAxes("", f.Body), c.vec(p+"torque", f.Torque), f.Frame == "body")
		case ForceBushing:
			jm.Bushing(f.Name, t.marker3(f.I), t.marker3(f.J), [3]float64(f.Stiffness), [3]float64(f.Damping),
				[3]float64(f.RotStiffness), [3]float64(f.RotDamping))
		}
	}
}
