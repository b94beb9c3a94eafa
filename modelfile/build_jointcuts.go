package modelfile

import (
	"fmt"
	"math"

	"linkage/law"
	"linkage/spatial"
)

// cut adds joint jt, which the spanning tree left out, to the joint route and returns its
// number of position rows: a revolute, translational or point-on-line joint becomes a cut
// joint (listed in Cuts) with the body route's conditions, a cam one row with its contact
// parameter eliminated (joint.Model.Cam), a knife edge a Pfaffian row of its body's frame
// (joint.Model.KnifeEdge), which has no position row.
func (t *treeBuilder) cut(jt Joint) int {
	if t.touchesFlexible(jt) {
		return t.flexCut(jt)
	}
	jb := t.jb
	mi := t.markers[jt.I]
	fi := jb.frames[mi.Body]
	pi := fi.toFrame(mi.Point)
	nI := rot(fi.phi+float64(mi.Angle), Vec{0, 1}) // marker i's y axis in its frame
	if jt.Type == JointKnifeEdge {
		// n_I·v_P = 0: the blade's point does not slide along marker i's y axis
		// (planar.AddKnifeEdge).
		jb.Model.KnifeEdge(jt.Name, fi.f, pi, [3]float64{nI[0], nI[1]})
		return 0
	}
	mj := t.markers[jt.J]
	fj := jb.frames[mj.Body]
	pj := fj.toFrame(mj.Point)
	jb.Cuts = append(jb.Cuts, jt.Name)
	switch jt.Type {
	case JointCam:
		t.cam(jt, mi, mj, fi, fj)
		return 1
	case JointPointOnLine:
		// n_I·(r_J − r_I) = 0: marker j's point on marker i's x axis, turning with its frame
		// (planar.AddPointOnLine), the angle free.
		jb.Model.CutSlide(jt.Name, fi.f, pi, fj.f, pj, [3]float64{nI[0], nI[1]})
		return 1
	case JointTranslational:
		// The slide row and u_I·n_J = 0 for the angle (planar.AddTranslational; −sin of its
		// angle row).
		u, nJ := rot(fi.phi+float64(mi.Angle), Vec{1, 0}), rot(fj.phi+float64(mj.Angle), Vec{0, 1})
		jb.Model.CutSlide(jt.Name, fi.f, pi, fj.f, pj, [3]float64{nI[0], nI[1]})
		jb.Model.CutAxes(jt.Name, fi.f, [3]float64{u[0], u[1]}, fj.f, [3]float64{nJ[0], nJ[1]})
		return 2
	}
	jb.Model.Cut(jt.Name, fi.f, pi, fj.f, pj, [3]float64{1, 0, 0}, [3]float64{0, 1, 0})
	return 2
}

// jointRouteType refuses joint k (jt) when coordinates: joint cannot take its type, and a
// motion on a point-on-line joint, which is always a cut joint there.
func (v *validator) jointRouteType(k int, jt Joint) {
	p := fmt.Sprintf("joints[%d].type", k)
	switch jt.Type {
	case JointRevolute, JointTranslational, JointKnifeEdge:
	case JointCam:
		if f, err := jt.Profile.radius(); err == nil && !closedProfile(f) {
			v.errorf(fmt.Sprintf("joints[%d].profile", k), "cam %q: the profile is not 2π-periodic (an open contour, or a table, which continues linearly past its ends): "+
				"coordinates: joint takes the contact parameter as the follower's polar angle, defined modulo 2π (joint.Model.Cam); use coordinates: body", jt.Name)
		}
	case JointPointOnLine:
		for n, mo := range v.m.Motions {
			if mo.Joint == jt.Name {
				v.errorf(fmt.Sprintf("motions[%d].joint", n), "motion %q: joint %q is a point-on-line joint, always a cut joint with coordinates: joint, "+
					"whose displacement is no coordinate to drive; use coordinates: body", mo.Name, jt.Name)
			}
		}
	default:
		v.errorf(p, "joint %q: %s joints are not available with coordinates: joint "+
			"(a tree of revolute and translational joints, any of them a cut joint, point-on-line joints, cams and knife edges); use coordinates: body", jt.Name, jt.Type)
	}
}

// jointRouteCut3 reports whether the 3D joint jt, of no tree type, is one the joint route
// takes outside the tree (point-on-line as a cut joint, a rolling disk's rows); it refuses
// a motion on a point-on-line joint, which would need a coordinate.
func (v *validator) jointRouteCut3(jt Joint3) bool {
	if jt.Type == JointRollingDisk {
		return true
	}
	if jt.Type != JointPointOnLine {
		return false
	}
	for n, mo := range v.doc.Spatial.Motions {
		if mo.Joint == jt.Name {
			v.errorf(fmt.Sprintf("motions[%d].joint", n), "motion %q: joint %q is a point-on-line joint, always a cut joint with coordinates: joint, "+
				"whose displacement is no coordinate to drive; use coordinates: body", mo.Name, jt.Name)
		}
	}
	return true
}

// cam adds cam joint jt (marker i on the cam, j the follower's point; both bodies in the
// tree): the contour's centre and polar axis are marker i's point and x axis in its frame,
// and u0, the contact parameter at the start, is the polar angle of marker j's point there
// (the branch joint.Model.Cam keeps u on; validate has checked the profile).
func (t *treeBuilder) cam(jt Joint, mi, mj Marker, fi, fj bodyFrame) {
	f, _ := jt.Profile.radius()
	pi, pj := t.poses[mi.Body], t.poses[mj.Body]
	d := worldPoint(pj, mj.Point)
	o := worldPoint(pi, mi.Point)
	u0 := math.Atan2(d[1]-o[1], d[0]-o[0]) - pi.th - float64(mi.Angle)
	ex := rot(fi.phi+float64(mi.Angle), Vec{1, 0})
	t.jb.Model.Cam(jt.Name, fi.f, fi.toFrame(mi.Point), [3]float64{ex[0], ex[1]}, fj.f, fj.toFrame(mj.Point),
		func(u float64) (r, r1, r2 float64) { return f.Eval(u) }, u0)
}

// closedProfile reports whether the cam profile r(u) and its first two derivatives repeat
// after a turn, to 1e-9 relative, at a few polar angles: a closed contour, whose contact
// parameter the joint route recovers modulo 2π.
func closedProfile(f law.Func) bool {
	for _, u := range []float64{0, 0.7, 1.9, 3.1, 4.4} {
		a0, a1, a2 := f.Eval(u)
		b0, b1, b2 := f.Eval(u + 2*math.Pi)
		scale := 1 + math.Abs(a0) + math.Abs(a1) + math.Abs(a2)
		if !(math.Abs(a0-b0)+math.Abs(a1-b1)+math.Abs(a2-b2) <= 1e-9*scale) {
			return false
		}
	}
	return true
}

// rollingDisk adds rolling disk jt to the joint route (joint.Model.RollingDisk): marker i's
// point and z axis in its body's frame, which is oriented as the world at the start, and
// returns its one position row (NAME.h; NAME.x, NAME.y are Pfaffian rows).
func (t *tree3Builder) rollingDisk(jt Joint3) int {
	k := t.marker[jt.I]
	f := t.jb.frames[t.m.Markers[k].Body]
	r, _, _ := t.markerAt(k)
	_, _, z := t.sb.System.MarkerAxes(spatial.MarkerID(k+1), t.q)
	t.jb.Model.RollingDisk(jt.Name, f.f, vec3(r.Sub(t.origin[f.f])), vec3(z), jt.Radius)
	return 1
}

// freeAxes chooses the Cardan axes of floating body name: for a rolling disk's body the
// vertical, then the horizontal perpendicular to the disk's axis, then the axis's
// horizontal direction (heading, tilt, spin: a disk rolling tilted by θ keeps the middle
// angle within about 2θ, far from ±90° until it falls flat, where the disk's rows are
// singular anyway), else freeChart's.
func (t *tree3Builder) freeAxes(name string, J [3][3]float64, omega vec3) (a1, a2, a3 vec3) {
	for _, jt := range t.m.Joints {
		k := t.marker[jt.I]
		if jt.Type != JointRollingDisk || t.m.Markers[k].Body != name {
			continue
		}
		_, _, z := t.sb.System.MarkerAxes(spatial.MarkerID(k+1), t.q)
		if h := math.Hypot(z[0], z[1]); h > 1e-6 {
			a1, a3 = vec3{0, 0, 1}, vec3{z[0] / h, z[1] / h, 0}
			return a1, vec3(spatial.Vec3(a3).Cross(spatial.Vec3(a1))), a3
		}
	}
	return freeChart(J, omega, t.m.Gravity)
}

// diskLambda3 is the channel NAME.lambda of a rolling disk on the joint route, the
// multiplier of its contact row NAME.h, as on the body route; none for other joints.
func diskLambda3(j Joint3) []string {
	if j.Type != JointRollingDisk {
		return nil
	}
	return []string{j.Name + ".lambda"}
}

// constraintRow returns the index of the constraint row named name (the system's row
// names), or −1.
func constraintRow(sys *JointMechanism, name string) int {
	_, nc := sys.Size()
	for i := range nc {
		if sys.ConstraintName(i) == name {
			return i
		}
	}
	return -1
}
