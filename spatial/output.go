package spatial

import "math"

// output.go: (q, v, a) ⇒ body and marker kinematics;  (q, λ) ⇒ joint reactions.
//
// With G(p) and E(p) linear in p and G(ṗ)ṗ = E(ṗ)ṗ = 0, the angular velocity and
// acceleration are ω' = 2G(p)ṗ, ω = 2E(p)ṗ, ω̇' = 2G(p)p̈, ω̇ = 2E(p)p̈ (Haug 1989,
// ch. 6); a marker point r = R + A(p)s moves with ṙ = Ṙ + (2 S(s) p) ṗ and
// r̈ = R̈ + (2 S(s) p) p̈ + (2 S(s) ṗ) ṗ (kinematics.go).

// Pose returns the position of the centre of mass and the Euler parameters of body b from
// q (the ground: origin, Identity). Quat.RollPitchYaw gives a readable angle set.
func (s *System) Pose(b BodyID, q []float64) (pos Vec3, p Quat) {
	c := s.bodies[b].col
	if c < 0 {
		return Vec3{}, Identity()
	}
	return Vec3{q[c], q[c+1], q[c+2]}, Quat(bodyP(q, c))
}

// Velocity returns Ṙ of body b's centre of mass and its angular velocity in global axes ω
// and in body axes ω' (zeros for the ground).
func (s *System) Velocity(b BodyID, q, v []float64) (vel, omega, omegaBody Vec3) {
	c := s.bodies[b].col
	if c < 0 {
		return
	}
	p, pd := bodyP(q, c), bodyP(v, c)
	G, E := gMat(&p), eMat(&p)
	return Vec3{v[c], v[c+1], v[c+2]}, mulG(&E, &pd).Scale(2), mulG(&G, &pd).Scale(2)
}

// Acceleration returns R̈ of body b's centre of mass and its angular acceleration in global
// axes ω̇ and in body axes ω̇' (zeros for the ground).
func (s *System) Acceleration(b BodyID, q, v, a []float64) (acc, alpha, alphaBody Vec3) {
	c := s.bodies[b].col
	if c < 0 {
		return
	}
	p, pdd := bodyP(q, c), bodyP(a, c)
	G, E := gMat(&p), eMat(&p)
	return Vec3{a[c], a[c+1], a[c+2]}, mulG(&E, &pdd).Scale(2), mulG(&G, &pdd).Scale(2)
}

// MarkerPosition returns the global position r = R + A(p)s of marker mk's point.
func (s *System) MarkerPosition(mk MarkerID, q []float64) Vec3 {
	m := &s.markers[mk-1]
	if m.col < 0 {
		return m.Point
	}
	p := bodyP(q, m.col)
	a, _ := m.frame.qs.apply(&p)
	return Vec3{q[m.col] + a[0], q[m.col+1] + a[1], q[m.col+2] + a[2]}
}

// MarkerVelocity returns ṙ of marker mk's point.
func (s *System) MarkerVelocity(mk MarkerID, q, v []float64) Vec3 {
	m := &s.markers[mk-1]
	if m.col < 0 {
		return Vec3{}
	}
	p, pd := bodyP(q, m.col), bodyP(v, m.col)
	_, j := m.frame.qs.apply(&p)
	return Vec3{v[m.col], v[m.col+1], v[m.col+2]}.Add(mulG(&j, &pd))
}

// MarkerAcceleration returns r̈ of marker mk's point.
func (s *System) MarkerAcceleration(mk MarkerID, q, v, acc []float64) Vec3 {
	m := &s.markers[mk-1]
	if m.col < 0 {
		return Vec3{}
	}
	p, pd, pdd := bodyP(q, m.col), bodyP(v, m.col), bodyP(acc, m.col)
	_, j := m.frame.qs.apply(&p)
	_, jd := m.frame.qs.apply(&pd)
	return Vec3{acc[m.col], acc[m.col+1], acc[m.col+2]}.Add(mulG(&j, &pdd)).Add(mulG(&jd, &pd))
}

// MarkerAxes returns the global directions of marker mk's x, y and z axes, A(p) times
// the axes in body coordinates.
func (s *System) MarkerAxes(mk MarkerID, q []float64) (x, y, z Vec3) {
	m := &s.markers[mk-1]
	p := [4]float64{1, 0, 0, 0}
	if m.col >= 0 {
		p = bodyP(q, m.col)
	}
	x, _ = m.frame.qa[0].apply(&p)
	y, _ = m.frame.qa[1].apply(&p)
	z, _ = m.frame.qa[2].apply(&p)
	return x, y, z
}

// Wrench is a force and a moment about a stated point.
type Wrench struct {
	Force, Torque Vec3
}

// Reaction is the constraint load a joint applies, −Gᵀλ (dae's sign convention) restricted
// to the joint's rows and to each of its two bodies.
type Reaction struct {
	// OnI and OnJ are the loads on the bodies of markers I and J in global axes, with the
	// moment taken about the marker's point (r_I and r_J).
	OnI, OnJ Wrench
	// OnILocal and OnJLocal are the same loads in the axes of marker I (x_I, y_I, z_I).
	OnILocal, OnJLocal Wrench
}

// Reaction returns the reaction of joint j at (q, λ); λ has full length nc. For a motion
// it is the driving load on the driven joint's bodies; a revolute motion's row is taken
// with the gradient of β, which equals that of sin(β − f) wherever the motion holds. A generalized force g_p on the
// Euler parameters is the torque n = ½ E(p) g_p about the centre of mass (the dual of
// δp = ½ E(p)ᵀ δπ on pᵀp = 1); the moment about the marker point r = R + a is n − a × F.
func (s *System) Reaction(j JointID, q, lambda []float64) Reaction {
	jd := &s.joints[j-1]
	var gen [14]float64 // −Σ λ_r W ∇c on the pair
	var k pairKin
	var e coordEval
	pr := &s.pairs[jd.pair]
	pr.kin(q, &k)
	for r := jd.first; r < jd.first+jd.nrows; r++ {
		rw := &s.rows[r-s.nbody]
		w, _, _, _, _, _ := rw.Weights(0)
		if rw.Trig {
			// Weights of a revolute motion depend on t; reactions need them at the state's
			// t, which Reaction does not take: on the joint the row's gradient is that of
			// sin(β − f), i.e. cos(β − f)·∇β with cos(β − f) = 1 where the motion holds.
			e.eval(&angleCoord, &k, false)
			for c := range 14 {
				gen[c] -= lambda[r] * e.grad[c]
			}
			continue
		}
		for i := range rw.N {
			e.eval(&rw.Terms[i].Coord, &k, false)
			for c := range 14 {
				gen[c] -= lambda[r] * w[i] * e.grad[c]
			}
		}
	}
	wrench := func(off int, p *[4]float64, s *quadForm) Wrench {
		F := Vec3{gen[off], gen[off+1], gen[off+2]}
		gp := [4]float64{gen[off+3], gen[off+4], gen[off+5], gen[off+6]}
		E := eMat(p)
		n := mulG(&E, &gp).Scale(0.5)
		a, _ := s.apply(p)
		return Wrench{Force: F, Torque: n.Sub(a.Cross(F))}
	}
	var out Reaction
	out.OnI = wrench(0, &k.pi, pr.mi.qs)
	out.OnJ = wrench(7, &k.pj, pr.mj.qs)
	x, y, z := k.v[vXI].val, k.v[vYI].val, k.v[vZI].val
	local := func(w Wrench) Wrench {
		return Wrench{
			Force:  Vec3{x.Dot(w.Force), y.Dot(w.Force), z.Dot(w.Force)},
			Torque: Vec3{x.Dot(w.Torque), y.Dot(w.Torque), z.Dot(w.Torque)},
		}
	}
	out.OnILocal, out.OnJLocal = local(out.OnI), local(out.OnJ)
	return out
}

// JointCoordinate returns the joint coordinate of joint j at q (a revolute's angle from
// x_I to x_J about z_I in (−π, π]; a translational's, cylindrical's or point-on-line's
// displacement z_Iᵀd) and false for joints without one.
func (s *System) JointCoordinate(j JointID, q []float64) (float64, bool) {
	jd := &s.joints[j-1]
	if !jd.hasCoord || jd.pair < 0 {
		return math.NaN(), false
	}
	var k pairKin
	var e coordEval
	s.pairs[jd.pair].kin(q, &k)
	e.eval(&jd.coord, &k, false)
	return e.val, true
}
