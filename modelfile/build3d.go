package modelfile

import (
	"fmt"
	"strings"

	"linkage/law"
	"linkage/spatial"
)

// SpatialBuilt is the 3D part of a Built: the spatial model and system and the names of
// its elements. Built's Integrated, Consistent and Start hold the rest, as for planar models.
type SpatialBuilt struct {
	Model  *spatial.Model
	System *spatial.System // the full system, every joint row included
	Bodies map[string]spatial.BodyID
	Joints map[string]spatial.JointID
	// Lie is the system on the Lie group (rotations: lie-group; nil otherwise): the joint
	// rows Build kept, without the normalizations (onLieGroup).
	Lie *spatial.LieSystem
}

// assemble3 turns doc.Spatial into a spatial model and assembles it, as assemble does for
// planar models.
func assemble3(doc *Document) (*Built, mechanism, error) {
	m := doc.Spatial
	sm := spatial.NewModel()
	sm.SetGravity(spatial.Vec3(m.Gravity))
	sb := &SpatialBuilt{Model: sm, Bodies: map[string]spatial.BodyID{groundName: spatial.Ground}, Joints: map[string]spatial.JointID{}}
	for _, body := range m.Bodies {
		st := m.Initial.Bodies[body.Name]
		orient := spatial.Identity()
		switch {
		case st.Quaternion != nil:
			orient = spatial.Quat(*st.Quaternion)
		case len(st.Angles) == 3:
			orient = spatial.QuatFromRollPitchYaw(float64(st.Angles[0]), float64(st.Angles[1]), float64(st.Angles[2]))
		}
		sb.Bodies[body.Name] = sm.AddBody(spatial.Body{Name: body.Name, Mass: body.Mass, Inertia: spatial.Mat3(inertiaMatrix(body.Inertia)),
			Pos: spatial.Vec3(st.Position), Orient: orient, Vel: spatial.Vec3(st.Velocity), AngVel: spatial.Vec3(st.AngularVelocity)})
	}
	markers := map[string]spatial.MarkerID{}
	for _, mk := range m.Markers {
		markers[mk.Name] = sm.AddMarker(spatial.Marker{Name: mk.Name, Body: sb.Bodies[mk.Body],
			Point: spatial.Vec3(mk.Point), Axis: spatial.Vec3(mk.Axis), XAxis: spatial.Vec3(mk.XAxis)})
	}
	for _, jt := range m.Joints {
		i, j := markers[jt.I], markers[jt.J]
		var id spatial.JointID
		switch jt.Type {
		case JointSpherical:
			id = sm.AddSpherical(jt.Name, i, j)
		case JointRevolute:
			id = sm.AddRevolute(jt.Name, i, j)
		case JointTranslational:
			id = sm.AddTranslational(jt.Name, i, j)
		case JointCylindrical:
			id = sm.AddCylindrical(jt.Name, i, j)
		case JointUniversal:
			id = sm.AddUniversal(jt.Name, i, j)
		case JointPlanar:
			id = sm.AddPlanar(jt.Name, i, j)
		case JointWeld:
			id = sm.AddWeld(jt.Name, i, j)
		case JointDistance:
			id = sm.AddDistance(jt.Name, i, j, jt.Length)
		case JointPointOnLine:
			id = sm.AddPointOnLine(jt.Name, i, j)
		case JointPointOnPlane:
			id = sm.AddPointOnPlane(jt.Name, i, j)
		case JointRollingDisk:
			id = sm.AddRollingDisk(jt.Name, i, jt.Radius)
		}
		sb.Joints[jt.Name] = id
		if jt.Friction != nil {
			sm.SetFriction(id, jt.Friction.spec())
		}
	}
	c := compiler{doc: doc}
	c.motions(m.Motions, func(mo Motion, f law.Func) {
		sb.Joints[mo.Name] = sm.AddMotion(mo.Name, sb.Joints[mo.Joint], f)
	})
	for k, f := range m.Forces {
		p := fmt.Sprintf("forces[%d].", k)
		switch f.Type {
		case ForceTSDA:
			sm.AddTSDA(spatial.TSDA{Name: f.Name, I: markers[f.I], J: markers[f.J], K: f.K, C: f.C, FreeLength: f.FreeLength,
				Actuator: c.fn(p+"actuator", f.Actuator), Spring: c.force(p+"spring", f.Spring), Damper: c.force(p+"damper", f.Damper)})
		case ForceRSDA:
			e := spatial.RSDA{Name: f.Name, K: f.K, C: f.C, FreeAngle: float64(f.FreeAngle),
				Actuator: c.fn(p+"actuator", f.Actuator), Spring: c.force(p+"spring", f.Spring), Damper: c.force(p+"damper", f.Damper)}
			if f.Joint != "" {
				e.Joint = sb.Joints[f.Joint]
			} else {
				e.I, e.J = markers[f.I], markers[f.J]
			}
			sm.AddRSDA(e)
		case ForcePointForce:
			sm.AddPointForce(f.Name, markers[f.Marker], c.vec(p+"force", f.Force), f.Frame != "body")
		case ForceTorque:
			sm.AddTorque(f.Name, sb.Bodies[f.Body], c.vec(p+"torque", f.Torque), f.Frame != "body")
		case ForceBushing:
			sm.AddBushing(spatial.Bushing{Name: f.Name, I: markers[f.I], J: markers[f.J],
				K: spatial.Vec3(f.Stiffness), C: spatial.Vec3(f.Damping), KRot: spatial.Vec3(f.RotStiffness), CRot: spatial.Vec3(f.RotDamping)})
		}
	}
	if err := c.err(); err != nil {
		return nil, nil, err
	}
	sys, err := sm.Assemble()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", doc.File, err)
	}
	sb.System = sys
	return &Built{Doc: doc, Spatial: sb}, sys, nil
}

// body3Value reads one body channel; c is the column of the body's x.
func body3Value(c int, suffix string, q, v, a []float64) float64 {
	switch suffix {
	case "x", "y", "z", "p0", "p1", "p2", "p3":
		return q[c+map[string]int{"x": 0, "y": 1, "z": 2, "p0": 3, "p1": 4, "p2": 5, "p3": 6}[suffix]]
	case "vx", "vy", "vz":
		return v[c+int(suffix[1]-'x')]
	case "ax", "ay", "az":
		return a[c+int(suffix[1]-'x')]
	}
	// ω' = 2 G(p) ṗ with rows G = [−p1 p0 p3 −p2; −p2 −p3 p0 p1; −p3 p2 −p1 p0].
	p, pd := q[c+3:c+7], v[c+3:c+7]
	var row [4]float64
	switch suffix {
	case "wx":
		row = [4]float64{-p[1], p[0], p[3], -p[2]}
	case "wy":
		row = [4]float64{-p[2], -p[3], p[0], p[1]}
	default:
		row = [4]float64{-p[3], p[2], -p[1], p[0]}
	}
	return 2 * (row[0]*pd[0] + row[1]*pd[1] + row[2]*pd[2] + row[3]*pd[3])
}

// reaction3Value reads one reaction channel (joint3Suffixes) of the load on body J.
func reaction3Value(re spatial.Reaction, suffix string) float64 {
	w := re.OnJ
	if base, ok := strings.CutSuffix(suffix, "_local"); ok {
		w, suffix = re.OnJLocal, base
	}
	axis := int(suffix[1] - 'x')
	if suffix[0] == 'f' {
		return w.Force[axis]
	}
	return w.Torque[axis]
}
