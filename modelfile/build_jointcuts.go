package modelfile

import "fmt"

// cut adds joint jt, which the spanning tree left out, to the joint route and returns its
// number of position rows: a revolute, translational or point-on-line joint becomes a cut
// joint (listed in Cuts) with the body route's conditions, a knife edge a Pfaffian row of
// its body's frame (joint.Model.KnifeEdge), which has no position row.
func (t *treeBuilder) cut(jt Joint) int {
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
	case JointPointOnLine:
		for n, mo := range v.m.Motions {
			if mo.Joint == jt.Name {
				v.errorf(fmt.Sprintf("motions[%d].joint", n), "motion %q: joint %q is a point-on-line joint, always a cut joint with coordinates: joint, "+
					"whose displacement is no coordinate to drive; use coordinates: body", mo.Name, jt.Name)
			}
		}
	case JointCam:
		v.errorf(p, "cam %q: cam joints are not available with coordinates: joint: their contact parameter is an algebraic variable "+
			"of the body route (dae.Algebraic), which the joint route's mass-matrix solve by the recursion cannot carry; use coordinates: body", jt.Name)
	default:
		v.errorf(p, "joint %q: %s joints are not available with coordinates: joint "+
			"(a tree of revolute and translational joints, any of them a cut joint, point-on-line joints and knife edges); use coordinates: body", jt.Name, jt.Type)
	}
}

// jointRouteCut3 reports whether the 3D joint jt, of no tree type, is one the joint route
// takes as a cut joint (point-on-line); it refuses a motion on it, which would need a
// coordinate.
func (v *validator) jointRouteCut3(jt Joint3) bool {
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
