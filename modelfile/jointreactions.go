package modelfile

import (
	"fmt"
	"math"
	"slices"

	"linkage/joint"
)

// sampleWrenches holds the constraint wrench of every tree joint at one sample: the wrench
// its parent passes to its subtree (joint.System.TransmittedWrenches, one O(N) pass per
// sample however many channels read it) less the part its coordinate takes (AxisLoad: a
// motion's λ, friction), which the body route counts apart from the joint's rows.
type sampleWrenches struct {
	sys    *JointMechanism
	seq    int
	primed bool
	w, raw []joint.Wrench // the constraint wrenches and the transmitted ones
}

// at returns the constraint wrench of tree frame i at sample c.
func (r *sampleWrenches) at(c *sample, i int) joint.Wrench {
	if !r.primed || r.seq != c.seq {
		if r.w == nil {
			nq, _ := r.sys.Size()
			r.w, r.raw = make([]joint.Wrench, nq), make([]joint.Wrench, nq)
		}
		if err := r.sys.TransmittedWrenches(r.raw, c.s.T, c.s.Q, c.s.V, c.s.A, c.full); err != nil {
			nan := math.NaN() // refused at build (jointReactionsReadable): never read as a number
			for k := range r.raw {
				r.raw[k] = joint.Wrench{Moment: [3]float64{nan, nan, nan}, Force: [3]float64{nan, nan, nan}}
			}
		}
		for k, F := range r.raw {
			a := r.sys.AxisLoad(k, F)
			r.w[k] = joint.Wrench{Moment: sub3(F.Moment, a.Moment), Force: sub3(F.Force, a.Force)}
		}
		r.seq, r.primed = c.seq, true
	}
	return r.w[i]
}

func sub3(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// jointReaction returns the reader of reaction channel suffix (jointSuffixes, and a cam's
// u) of joint name without friction, as the body route's (planar.Reaction): the load on
// marker j's body in global axes and in marker i's, its moment about marker j's point. A
// tree joint's load is the constraint wrench it transmits (sampleWrenches), on the child
// when that is marker j's body and its negative on the parent otherwise; a cut joint's is
// its rows' −Gᵀλ on marker j's frame (joint.System.CutLoad); a cam's u is the follower's
// polar angle (joint.System.CamParameter). ok is false for other names.
func (jb *JointBuilt) jointReaction(doc *Document, rw *sampleWrenches, mo *sampleMotion, name, suffix string, angle func(int, *sample) float64) (channelFunc, bool) {
	m := &doc.Model
	k := slices.IndexFunc(m.Joints, func(j Joint) bool { return j.Name == name })
	if k < 0 {
		return nil, false
	}
	jt := m.Joints[k]
	sys := jb.System
	if suffix == "u" {
		// continued from sample to sample across the ±π that CamParameter keeps it within,
		// as the body route's u, an integrated coordinate, is
		var prev float64
		started := false
		return func(c *sample) float64 {
			u, _ := sys.CamParameter(name, c.s.Q)
			if started {
				u = prev + math.Remainder(u-prev, 2*math.Pi)
			}
			prev, started = u, true
			return u
		}, true
	}
	mi, mj := m.marker(jt.I), m.marker(jt.J)
	fi, fj := jb.frames[mi.Body], jb.frames[mj.Body]
	pj := fj.toFrame(mj.Point)
	load := func(c *sample) joint.Wrench {
		w, _ := sys.CutLoad(name, fj.f, c.s.Q, c.full)
		return w
	}
	if tj, ok := jb.tree[name]; ok {
		load = func(c *sample) joint.Wrench {
			w := rw.at(c, tj.i)
			if tj.s < 0 { // marker j's body is the parent
				return joint.Wrench{Moment: sub3([3]float64{}, w.Moment), Force: sub3([3]float64{}, w.Force)}
			}
			return w
		}
	}
	return func(c *sample) float64 {
		w := load(c)
		torque := w.About(mo.at(c, fj.f, pj).Pos)[2]
		f := Vec{w.Force[0], w.Force[1]}
		local := rot(-angle(fi.f, c)-fi.phi-float64(mi.Angle), f)
		return reactionValue([2]float64(f), torque, [2]float64(local), suffix)
	}, true
}

// marker returns the marker named name (validate has checked that it exists).
func (m *Model) marker(name string) Marker {
	k := slices.IndexFunc(m.Markers, func(mk Marker) bool { return mk.Name == name })
	return m.Markers[k]
}

// jointReactionsReadable refuses, by channel, a reaction channel of a tree joint without
// friction in outputs or plot when the transmitted wrenches are not available
// (joint.System.TransmittedWrenches: knife edges, friction on a cut joint).
func (jb *JointBuilt) jointReactionsReadable(doc *Document) error {
	m := &doc.Model
	err := jb.System.wrenchesAvailable()
	if err == nil {
		return nil
	}
	for _, ch := range append(m.OutputChannels(), m.PlotChannels()...) {
		elem, _ := splitChannel(ch)
		_, tree := jb.tree[elem]
		if _, friction := jb.holds[elem]; tree && !friction {
			return fmt.Errorf("%s: simulation: channel %q: the reaction of tree joint %q is not available with coordinates: joint here (%v); use coordinates: body", doc.File, ch, elem, err)
		}
	}
	return nil
}

// wrenchesAvailable returns why TransmittedWrenches cannot be read for m (knife edges,
// rolling disks, friction on a cut joint), or nil.
func (m *JointMechanism) wrenchesAvailable() error {
	nq, nc := m.Size()
	z := make([]float64, nq)
	return m.TransmittedWrenches(make([]joint.Wrench, nq), 0, z, z, z, make([]float64, nc))
}
