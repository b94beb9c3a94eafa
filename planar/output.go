package planar

import "math"

// output.go: (q, v, a) ⇒ body and marker kinematics;  (q, λ) ⇒ joint reactions.

// Pose returns the position of the centre of mass and the angle of body b from q (the
// ground: origin, 0). The same call on v or a gives the body's velocity or acceleration.
func (s *System) Pose(b BodyID, q []float64) (pos Vec, angle float64) {
	c := s.bodies[b].col
	if c < 0 {
		return Vec{}, 0
	}
	return Vec{q[c], q[c+1]}, q[c+2]
}

// MarkerPosition returns the global position r = R + A(θ)s of marker mk's point (at a
// beam node, s + δ with the node's displacement δ).
func (s *System) MarkerPosition(mk MarkerID, q []float64) Vec {
	m := &s.markers[mk-1]
	if m.col < 0 {
		return m.Point
	}
	a := rotate(s.markerPoint(mk, q), q[m.col+2])
	return Vec{q[m.col] + a[0], q[m.col+1] + a[1]}
}

// MarkerVelocity returns r' = R' + θ'·(−a_y, a_x) of marker mk's point (at a moving beam
// node, plus A δ').
func (s *System) MarkerVelocity(mk MarkerID, q, v []float64) Vec {
	m := &s.markers[mk-1]
	if m.col < 0 {
		return Vec{}
	}
	a := rotate(s.markerPoint(mk, q), q[m.col+2])
	w := v[m.col+2]
	ad := rotate(s.markerDisplacement(mk, v), q[m.col+2])
	return Vec{v[m.col] - w*a[1] + ad[0], v[m.col+1] + w*a[0] + ad[1]}
}

// MarkerAcceleration returns r″ = R″ + θ″·(−a_y, a_x) − θ'²·a of marker mk's point (at a
// moving beam node, plus 2θ' S A δ' + A δ″).
func (s *System) MarkerAcceleration(mk MarkerID, q, v, acc []float64) Vec {
	m := &s.markers[mk-1]
	if m.col < 0 {
		return Vec{}
	}
	th := q[m.col+2]
	a := rotate(s.markerPoint(mk, q), th)
	w, al := v[m.col+2], acc[m.col+2]
	ad, add := rotate(s.markerDisplacement(mk, v), th), rotate(s.markerDisplacement(mk, acc), th)
	return Vec{acc[m.col] - al*a[1] - w*w*a[0] - 2*w*ad[1] + add[0], acc[m.col+1] + al*a[0] - w*w*a[1] + 2*w*ad[0] + add[1]}
}

// Wrench is a force and a moment (counter-clockwise positive) about a stated point.
type Wrench struct {
	Force  Vec
	Torque float64
}

// Reaction is the constraint load a joint applies, −Gᵀλ (dae's sign convention) restricted
// to the joint's rows and to each of its two bodies.
type Reaction struct {
	// OnI and OnJ are the loads on the bodies of markers I and J, in global axes, with the
	// moment taken about the marker's point (r_I and r_J). OnI.Force = −OnJ.Force.
	OnI, OnJ Wrench
	// OnILocal and OnJLocal are the same loads with the forces in the axes of marker I
	// (x along the joint's axis u_I, y along n_I).
	OnILocal, OnJLocal Wrench
}

// Reaction returns the reaction of joint j at (q, λ). At a beam node that moves in the
// beam's frame the moments are taken about the undeformed node (the force is exact). For a motion it is the driving load
// (the revolute's torque or the translational's force appears in it); for a coupler, the
// load on the bodies of its second joint b.
func (s *System) Reaction(j JointID, q, lambda []float64) Reaction {
	jd := &s.joints[j-1]
	var gen [6]float64 // −Σ λ_r w ∇c on the pair p
	var c pairCache
	var e coordEval
	for r := jd.first; r < jd.first+jd.nrows; r++ {
		rw := &s.rows[r]
		for k := range rw.N {
			tm := &rw.Terms[k]
			if tm.Pair != jd.pair {
				continue
			}
			s.evalTerm(&c, tm, q, &e)
			for c := range 6 {
				gen[c] -= lambda[r] * tm.W * e.grad[c]
			}
		}
	}
	var k pairKin
	pr := &s.pairs[jd.pair]
	pr.kin(q, &k)
	var out Reaction
	// The gradient entries of a ground body are the load on it as if it were free (pose 0),
	// so the ground needs no special case. The moment of a force F at the centre about the
	// marker point r = R + a is τ − a × F.
	out.OnI.Force = Vec{gen[0], gen[1]}
	out.OnI.Torque = gen[2] - (k.ai[0]*gen[1] - k.ai[1]*gen[0])
	out.OnJ.Force = Vec{gen[3], gen[4]}
	out.OnJ.Torque = gen[5] - (k.aj[0]*gen[4] - k.aj[1]*gen[3])
	back := -k.alphaI
	out.OnILocal = Wrench{Force: rotate(out.OnI.Force, back), Torque: out.OnI.Torque}
	out.OnJLocal = Wrench{Force: rotate(out.OnJ.Force, back), Torque: out.OnJ.Torque}
	return out
}

// JointCoordinate returns the joint coordinate of joint j at q (a revolute's relative angle,
// a translational's or point-on-line's displacement) and false for joints without one.
func (s *System) JointCoordinate(j JointID, q []float64) (float64, bool) {
	jd := &s.joints[j-1]
	if !jd.hasCoord || jd.pair < 0 {
		return math.NaN(), false
	}
	var k pairKin
	var e coordEval
	s.pairs[jd.pair].kin(q, &k)
	e.eval(jd.coord, &k)
	return e.val, true
}
