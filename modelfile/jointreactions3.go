package modelfile

import (
	"fmt"

	"linkage/joint"
	"linkage/spatial"
)

// reaction3 is where a 3D joint's reaction is read on the joint route: marker j's point pj
// in its frame fj, marker i's axes in its frame fi (frames are oriented as the world at
// the start), and for a tree joint its coordinates first…last (the last one carries the
// child) and s, +1 when the child is marker j's body.
type reaction3 struct {
	tree        bool
	first, last int
	s           float64
	fi, fj      int
	pj          vec3
	axesI       [3]vec3
}

// placeReaction records where joint jt's reaction is read (reaction3); for a tree joint
// call it after its coordinates are added, with tj its entry.
func (t *tree3Builder) placeReaction(jt Joint3, tj *treeJoint) {
	ki, kj := t.marker[jt.I], t.marker[jt.J]
	fi, fj := t.jb.frames[t.m.Markers[ki].Body], t.jb.frames[t.m.Markers[kj].Body]
	rj, _, _ := t.markerAt(kj)
	x, y, z := t.sb.System.MarkerAxes(spatial.MarkerID(ki+1), t.q)
	r := reaction3{fi: fi.f, fj: fj.f, pj: vec3(rj.Sub(t.origin[fj.f])), axesI: [3]vec3{vec3(x), vec3(y), vec3(z)}}
	if tj != nil {
		r.tree, r.first, r.last, r.s = true, t.coord[jt.Name], t.jb.frames[t.m.Markers[tj.mb].Body].f, tj.s
	}
	if t.jb.reactions == nil {
		t.jb.reactions = map[string]reaction3{}
	}
	t.jb.reactions[jt.Name] = r
}

// jointReaction3 returns the reader of reaction channel suffix (joint3Suffixes) of joint
// name, as the body route's (spatial.Reaction): the load on marker j's body in world axes
// and in marker i's, its moment about marker j's point. A tree joint's load is the
// constraint wrench it transmits (constraint3), on the child when that is marker j's body
// and its negative on the parent otherwise; a cut joint's is its rows' −Gᵀλ on marker j's
// frame (joint.System.CutLoad). ok is false for other names and suffixes.
func (jb *Joint3Built) jointReaction3(rw *sampleWrenches, mo *sampleMotion, name, suffix string) (channelFunc, bool) {
	r, ok := jb.reactions[name]
	if !ok || suffixIndex(joint3Suffixes(), suffix) < 0 {
		return nil, false
	}
	sys := jb.System
	return func(c *sample) float64 {
		var w joint.Wrench
		if r.tree {
			w = rw.constraint3(c, r.first, r.last)
			if r.s < 0 {
				w = joint.Wrench{Moment: sub3([3]float64{}, w.Moment), Force: sub3([3]float64{}, w.Force)}
			}
		} else {
			w, _ = sys.CutLoad(name, r.fj, c.s.Q, c.full)
		}
		var re spatial.Reaction
		re.OnJ = spatial.Wrench{Force: w.Force, Torque: w.About(mo.at(c, r.fj, r.pj).Pos)}
		R := spatial.Mat3(mo.at(c, r.fi, [3]float64{}).R)
		for k, a := range r.axesI {
			e := R.MulVec(spatial.Vec3(a))
			re.OnJLocal.Force[k], re.OnJLocal.Torque[k] = e.Dot(re.OnJ.Force), e.Dot(re.OnJ.Torque)
		}
		return reaction3Value(re, suffix)
	}, true
}

// constraint3 is the constraint wrench of the tree joint with coordinates first…last at
// sample c: the wrench F at its last frame less every coordinate's axis load (AxisLoad;
// its inner frames carry no body, so F is the same at each). Exact when the axes' loads do
// not mix (s_k of one coordinate does no work on another's unit load: a revolute, a
// translational, a cylindrical, a universal's perpendicular axes) or are zero (a
// spherical joint's Cardan angles: no motion drives them).
func (r *sampleWrenches) constraint3(c *sample, first, last int) joint.Wrench {
	w := r.at(c, last)
	for k := first; k < last; k++ {
		raw := r.raw[k]
		con := r.at(c, k)
		w = joint.Wrench{Moment: sub3(w.Moment, sub3(raw.Moment, con.Moment)), Force: sub3(w.Force, sub3(raw.Force, con.Force))}
	}
	return w
}

// jointReactionsReadable3 refuses, by channel, a reaction channel of a tree joint in
// outputs or plot when the transmitted wrenches are not available
// (joint.System.TransmittedWrenches: rolling disks).
func (jb *Joint3Built) jointReactionsReadable3(doc *Document) error {
	err := jb.System.wrenchesAvailable()
	if err == nil {
		return nil
	}
	m := doc.Spatial
	for _, ch := range append(m.OutputChannels(), m.PlotChannels()...) {
		elem, suffix := splitChannel(ch)
		if r, ok := jb.reactions[elem]; ok && r.tree && suffixIndex(joint3Suffixes(), suffix) >= 0 {
			return fmt.Errorf("%s: simulation: channel %q: the reaction of tree joint %q is not available with coordinates: joint here (%v); use coordinates: body", doc.File, ch, elem, err)
		}
	}
	return nil
}
