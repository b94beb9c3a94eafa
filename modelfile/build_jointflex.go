package modelfile

import (
	"fmt"
	"slices"

	"linkage/dae"
)

// build_jointflex.go: flexible bodies with coordinates: joint. A flexible body is never a
// tree body: it floats beside the tree with the body route's coordinates (frame x, y, θ and
// its elastic coordinates; joint.Model.Flexible), the spanning tree does not enter it, and
// every revolute joint touching it is a cut joint at its node (joint.Model.FlexCut). Its
// channels read its columns as the body route does.

// isFlexible reports whether body name is flexible.
func (m *Model) isFlexible(name string) bool { return m.body(name).Flexible != nil }

// touchesFlexible reports whether joint jt has a marker on a flexible body.
func (t *treeBuilder) touchesFlexible(jt Joint) bool {
	m := &t.doc.Model
	return m.isFlexible(t.markers[jt.I].Body) || m.isFlexible(t.markers[jt.J].Body)
}

// addFlexible adds the flexible bodies of the file to the model, in file order.
func (t *treeBuilder) addFlexible() {
	for _, b := range t.doc.Model.Bodies {
		if b.Flexible != nil {
			t.jb.flex[b.Name] = t.jb.Model.Flexible(b.Name, b.Flexible.beam())
		}
	}
}

// flexStart appends the flexible bodies' coordinates and rates at the start (their order
// in q, after the tree's) to the initial guess.
func (t *treeBuilder) flexStart() {
	for _, b := range t.doc.Model.Bodies {
		if b.Flexible == nil {
			continue
		}
		p := t.poses[b.Name]
		n := len(b.Flexible.beam().ElasticCoordinates())
		t.q0 = append(t.q0, p.r[0], p.r[1], p.th)
		t.v0 = append(t.v0, p.v[0], p.v[1], p.om)
		for k := range n {
			t.q0 = append(t.q0, at(p.e, k))
			t.v0 = append(t.v0, at(p.ed, k))
		}
	}
}

// at returns x[k], zero past its end (a guess without elastic coordinates).
func at(x []float64, k int) float64 {
	if k < len(x) {
		return x[k]
	}
	return 0
}

// flexCut makes the revolute joint jt, which has a marker on a flexible body, a cut joint:
// the other marker's point (on a tree frame or the ground) and the beam's node coincide in
// x and y. Its two rows.
func (t *treeBuilder) flexCut(jt Joint) int {
	mi, mj := t.markers[jt.I], t.markers[jt.J]
	if t.doc.Model.isFlexible(mi.Body) {
		mi, mj = mj, mi
	}
	fi := t.jb.frames[mi.Body]
	t.jb.Model.FlexCut(jt.Name, fi.f, fi.toFrame(mi.Point), t.jb.flex[mj.Body], mj.Point[0], [3]float64{1, 0, 0}, [3]float64{0, 1, 0})
	t.jb.Cuts = append(t.jb.Cuts, jt.Name)
	return 2
}

// jointFlexible refuses what a flexible body cannot take with coordinates: joint, by
// element: a joint on it other than a revolute one, a joint between two flexible bodies, a
// force element acting on it, and in a model with one, friction and knife edges (whose
// capabilities denseJoint does not pass on).
func (v *validator) jointFlexible() {
	m := v.m
	flex := func(marker string) bool {
		i, ok := v.markers[marker]
		return ok && m.isFlexible(m.Markers[i].Body)
	}
	if !slices.ContainsFunc(m.Bodies, func(b Body) bool { return b.Flexible != nil }) {
		return
	}
	for k, jt := range m.Joints {
		fi, fj := flex(jt.I), flex(jt.J)
		switch {
		case jt.Friction != nil:
			v.errorf(fmt.Sprintf("joints[%d].friction", k), "joint %q: friction in a model with a flexible body is not available with coordinates: joint; use coordinates: body", jt.Name)
		case jt.Type == JointKnifeEdge:
			v.errorf(fmt.Sprintf("joints[%d].type", k), "joint %q: knife edges in a model with a flexible body are not available with coordinates: joint; use coordinates: body", jt.Name)
		case !fi && !fj:
		case jt.Type != JointRevolute:
			v.errorf(fmt.Sprintf("joints[%d].type", k), "joint %q: a %s joint on a flexible body; with coordinates: joint only revolute joints attach to one (cut joints at its nodes); use coordinates: body", jt.Name, jt.Type)
		case fi && fj:
			v.errorf(fmt.Sprintf("joints[%d]", k), "joint %q joins two flexible bodies; with coordinates: joint a flexible body's joints lead to rigid bodies or the ground; use coordinates: body", jt.Name)
		}
	}
	for k, f := range m.Forces {
		on := f.Body != "" && m.isFlexible(f.Body)
		for _, mk := range []string{f.I, f.J, f.Marker} {
			on = on || (mk != "" && flex(mk))
		}
		if on {
			v.errorf(fmt.Sprintf("forces[%d]", k), "force %q acts on a flexible body; with coordinates: joint force elements act on rigid bodies only; use coordinates: body", f.Name)
		}
	}
}

// flexFrame returns the frame of flexible body name read from its columns, or nil.
func (jb *JointBuilt) flexFrame(name string) planarFrame {
	fb, ok := jb.flex[name]
	if !ok {
		return nil
	}
	i := jb.System.FlexibleColumn(fb)
	return func(c *sample) ([2]float64, float64, [2]float64, float64) {
		q, v := c.s.Q, c.s.V
		return [2]float64{q[i], q[i+1]}, q[i+2], [2]float64{v[i], v[i+1]}, v[i+2]
	}
}

// flexChannel reads channel elem.suffix of flexible body elem (its frame's coordinates and
// rates, its elastic coordinates, its strain energy) as the body route does; ok is false
// when elem is no flexible body.
func (jb *JointBuilt) flexChannel(elem, suffix string) (channelFunc, bool) {
	fb, ok := jb.flex[elem]
	if !ok {
		return nil, false
	}
	sys := jb.System
	if suffix == "strain_energy" {
		return func(c *sample) float64 { return sys.StrainEnergy(fb, c.s.Q) }, true
	}
	col := sys.FlexibleColumn(fb)
	nq, _ := sys.Size()
	for i := col; i < nq; i++ {
		if sys.CoordinateName(i) == elem+"."+suffix && !contains(bodySuffixes(), suffix) {
			return func(c *sample) float64 { return c.s.Q[i] }, true
		}
	}
	return bodyChannel(col, suffix), true
}

// elastic returns the elastic coordinates and rates of body at the consistent start of a
// body-coordinate build (nil for a rigid body), in flexbeam's order.
func (b *Built) elastic(body Body) (e, ed []float64) {
	if body.Flexible == nil {
		return nil, nil
	}
	nq, _ := b.System.Size()
	col := map[string]int{}
	for i := range nq {
		col[b.System.CoordinateName(i)] = i
	}
	for _, s := range body.Flexible.beam().ElasticCoordinates() {
		i := col[body.Name+s]
		e, ed = append(e, b.Start.Q[i]), append(ed, b.Start.V[i])
	}
	return e, ed
}

// denseJoint is the joint System of a file with flexible bodies as the methods see it:
// without dae.MassSolver and dae.MassMultiplier, so that every method forms M and its
// dense Newton matrix (a flexible model has few coordinates). The mass-part preconditioner
// of the Newton-Krylov corrector (integrate/massnewton.go) leaves out the stiffness term
// h²K of the beam, which for a steel rod dwarfs M: genalpha on
// examples/flexible-slider-crank.yaml then fails its first step at h = 2e-3 and still at
// 1e-4, where the dense matrix takes every step at 2e-3.
type denseJoint struct{ denseJointCaps }

// denseJointCaps are the capabilities denseJoint passes on (jointFlexible refuses the
// elements that would need others: friction, knife edges).
type denseJointCaps interface {
	mechanism
	dae.EnergyInvariant
	dae.MassDerivative
	dae.ForceDerivative
	dae.ConstraintForceDerivative
}

// integrated returns the system the methods integrate: the joint System, or denseJoint
// when the model has flexible bodies.
func (jb *JointBuilt) integrated() mechanism {
	if len(jb.flex) > 0 {
		return denseJoint{jb.System}
	}
	return jb.System
}
