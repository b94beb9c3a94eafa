package spatial

import "linkage/assembly"

// energy.go: (t, q, v) ⇒ T, V, P_nc;  (t, q, λ) ⇒ P_driving: the terms of the energy
// invariant of seed 001 (eqs. 11-12). With M a = f − Gᵀλ and f = −∂V/∂q + f_nc + f_gyro,
// where the quadratic velocity force f_gyro does no work (force.go),
//
//	d(T + V)/dt = vᵀ f_nc − λᵀ G v = vᵀ f_nc + λᵀ g_t   (on G v + g_t = 0),
//
// and g_t is zero except on the motions' rows, so P_nc = vᵀ f_nc, P_driving = Σ_motions
// λ_r g_t,r and Π = T + V − ∫₀ᵗ (P_nc + P_driving) dτ is constant. As in planar, the
// driving power is written with g_t so that a velocity residual of the integrator (index
// 3) stays in Π instead of entering the work as λ times the residual.

// Energies are the parts of the mechanical energy of one state (assembly.Energies), with
// T = Σ ½ m |Ṙ|² + 2 ṗᵀ Gᵀ J' G ṗ  (= ½ ω'ᵀ J' ω').
type Energies = assembly.Energies

// Energies returns the kinetic, gravitational and spring energy of (t, q, v).
func (s *System) Energies(t float64, q, v []float64) Energies {
	var e Energies
	for _, b := range s.bodies[1:] {
		c := b.col
		p, pd := bodyP(q, c), bodyP(v, c)
		G := gMat(&p)
		w := mulG(&G, &pd).Scale(2)
		e.Kinetic += 0.5*b.Mass*(v[c]*v[c]+v[c+1]*v[c+1]+v[c+2]*v[c+2]) + 0.5*w.Dot(b.Inertia.MulVec(w))
		e.Gravity -= b.Mass * (s.gravity[0]*q[c] + s.gravity[1]*q[c+1] + s.gravity[2]*q[c+2])
	}
	var k pairKin
	var ce coordEval
	for i := range s.sds {
		sd := &s.sds[i]
		if !sd.HasPotential() {
			continue
		}
		s.pairs[sd.Pair].kin(q, &k)
		ce.eval(&sd.Coord, &k, false)
		e.Spring += sd.Energy(ce.val)
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
	var pw float64
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st, false)
		pw += sd.Power(&st.load)
	}
	var L pointLoad
	for i := range s.points {
		pf := &s.points[i]
		s.pointLoad(pf, t, q, &L)
		pd := bodyP(v, pf.col)
		rd := mulG(&L.jp, &pd) // ṙ = Ṙ + (2 S p) ṗ
		for k := range 3 {
			pw += L.F[k] * (v[pf.col+k] + rd[k])
		}
	}
	for i := range s.torques {
		fp, _ := torqueLoad(&s.torques[i], t, q)
		pd := bodyP(v, s.torques[i].col)
		for a := range 4 {
			pw += fp[a] * pd[a]
		}
	}
	pw += s.customs.Power(t, q, v)
	return pw
}

// DrivingPower returns P_driving = Σ λ_r g_t,r over the rows of the motions at (t, q, λ),
// with g_t,r = −F' for translational and Σ W_k' c_k for revolute motions
// (ConstraintTimeDerivative): the power the prescribed motions put into the mechanism
// through their reactions −G_rᵀ λ_r (zero for the normalizations and every scleronomic
// row). λ has the length of the full constraint vector. It does not allocate.
func (s *System) DrivingPower(t float64, q, lambda []float64) float64 {
	var pw float64
	var k pairKin
	var e coordEval
	for r := range s.rows {
		rw := &s.rows[r]
		l := lambda[s.nbody+r]
		if rw.Drive == nil || l == 0 {
			continue
		}
		_, dw, _, _, dF, _ := rw.Weights(t)
		gt := -dF
		if rw.Trig {
			s.pairs[rw.Terms[0].Pair].kin(q, &k)
			for i := range rw.N {
				e.eval(&rw.Terms[i].Coord, &k, false)
				gt += dw[i] * e.val
			}
		}
		pw += l * gt
	}
	return pw
}
