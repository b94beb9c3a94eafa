package planar

import "linkage/assembly"

// energy.go: (t, q, v) ⇒ T, V, P_nc;  (t, q, λ) ⇒ P_driving: the terms of the energy
// invariant of seed 001 (Cardenal et al.), eqs. 11-12. With M a = f − Gᵀλ and
// f = −∂V/∂q + f_nc, premultiplying by vᵀ gives
//
//	d(T + V)/dt = vᵀ f_nc − λᵀ G v.
//
// On the velocity constraint G v + g_t = 0, so −λᵀ G v = λᵀ g_t, which is zero on the
// scleronomic rows: only the motions (rheonomic rows, g_t = −f'(t)) do work. Hence
//
//	P_nc = vᵀ f_nc,   P_driving = Σ_motions λ_r g_t,r,   Π = T + V − ∫₀ᵗ (P_nc + P_driving) dτ
//
// is constant along the exact solution. P_driving is written with g_t, not with −G v:
// a method that does not enforce the velocity constraint (index 3) leaves G v + g_t
// at its velocity residual, and −λᵀ G v would add λ times that residual, the power of
// the reactions on an integration error, to the work of the forces. With g_t that error
// stays in Π, where it is measured.

// Energies are the parts of the mechanical energy of one state (assembly.Energies), with
// T = Σ ½ m |R'|² + ½ J θ'².
type Energies = assembly.Energies

// Energies returns the kinetic, gravitational, spring and strain energy of (t, q, v).
func (s *System) Energies(t float64, q, v []float64) Energies {
	var e Energies
	for _, b := range s.bodies[1:] {
		c := b.col
		e.Kinetic += 0.5 * (b.Mass*(v[c]*v[c]+v[c+1]*v[c+1]) + b.Inertia*v[c+2]*v[c+2])
		e.Gravity -= b.Mass * (s.gravity[0]*q[c] + s.gravity[1]*q[c+1])
	}
	var k pairKin
	var ce coordEval
	for i := range s.sds {
		sd := &s.sds[i]
		if !sd.HasPotential() {
			continue
		}
		s.pairs[sd.Pair].kin(q, &k)
		ce.eval(sd.Coord, &k)
		e.Spring += sd.Energy(ce.val)
	}
	for i := range s.beams {
		kin, grav, strain := s.beams[i].Energies(q, v, s.gravity)
		e.Kinetic, e.Gravity, e.Strain = e.Kinetic+kin, e.Gravity+grav, e.Strain+strain
	}
	return e
}

// Energy returns T and V = gravity + springs (dae.Energy).
func (s *System) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	e := s.Energies(t, q, v)
	return e.Kinetic, e.Potential()
}

// Conservative reports whether NonConservativePower, DrivingPower and ReactionPower are
// zero at every state (assembly.Conservative): every spring-damper Conservative, no point
// force, torque, custom force, joint friction or motion. Keep it in step with them.
func (s *System) Conservative() bool {
	return len(s.points) == 0 && len(s.torques) == 0 && s.customs.Len() == 0 && !s.HasReactionForce() &&
		assembly.Conserves(s.sds, s.rows)
}

// NonConservativePower returns P_nc = vᵀ f_nc at (t, q, v), the power of the applied forces
// that no potential accounts for: dampers, actuators, springs without Potential, point
// forces, torques and custom forces. Constraint forces are not included (DrivingPower
// gives the motions' share). It does not allocate, except that custom forces are
// evaluated into the System's scratch under its lock.
func (s *System) NonConservativePower(t float64, q, v []float64) float64 {
	var p float64
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st)
		p += sd.Power(&st.load)
	}
	for i := range s.points {
		pf := &s.points[i]
		F, a := pf.load(t, q)
		c := pf.col
		// r' = R' + b θ' with b = (−a_y, a_x).
		p += F[0]*(v[c]-a[1]*v[c+2]) + F[1]*(v[c+1]+a[0]*v[c+2])
	}
	for _, tq := range s.torques {
		tau, _, _ := tq.tau.Eval(t)
		p += tau * v[tq.col+2]
	}
	p += s.customs.Power(t, q, v)
	return p
}

// DrivingPower returns P_driving = Σ λ_r g_t,r = −Σ λ_r f_r'(t) over the rows of the
// motions at (t, λ): the power the prescribed motions put into the mechanism through
// their reactions −G_rᵀ λ_r (zero for every scleronomic row). λ has the length of the
// full constraint vector. It does not allocate.
func (s *System) DrivingPower(t float64, _, lambda []float64) float64 {
	var p float64
	for r := range s.rows {
		if d := s.rows[r].Drive; d != nil && lambda[r] != 0 {
			_, df, _ := d.Eval(t)
			p -= lambda[r] * df
		}
	}
	return p
}
