package natural

import "linkage/assembly"

// energy.go: (t, q, v) ⇒ T, V, P_nc;  (t, q, λ) ⇒ P_driving: the terms of the energy invariant
// of seed 001 (eqs. 11-12), Π = T + V − ∫ (P_nc + P_driving) dτ, as in package planar:
// T = ½ vᵀ M v with the constant mass matrix, V = −Σ m gᵀ r_G + the springs' potentials,
// P_nc = vᵀ f_nc, P_driving = Σ λ_r g_t,r over the motions' rows.

// Energies are the parts of the mechanical energy of one state (assembly.Energies).
type Energies = assembly.Energies

// Energies returns the kinetic, gravitational and spring energy of (t, q, v).
func (s *System) Energies(t float64, q, v []float64) Energies {
	var e Energies
	for k := 1; k < len(s.bodies); k++ {
		b := &s.bodies[k]
		f := &s.frames[k]
		x, xd := f.values(q), f.rates(v)
		for a := range 4 {
			for c := range 4 {
				e.Kinetic += 0.5 * xd[a] * b.mass[a][c] * xd[c]
			}
		}
		g := s.gravityLoad(k) // C(0)ᵀ m g, and V = −m gᵀ C(0) x
		for a := range 4 {
			e.Gravity -= g[a] * x[a]
		}
	}
	var ce coordEval
	for i := range s.sds {
		sd := &s.sds[i]
		if !sd.HasPotential() {
			continue
		}
		pr := &s.pairs[sd.Pair]
		p := pr.values(q)
		ce.eval(sd.Coord, pr, &p, false)
		e.Spring += sd.Energy(ce.val)
	}
	return e
}

// Energy returns T and V (dae.Energy).
func (s *System) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	e := s.Energies(t, q, v)
	return e.Kinetic, e.Potential()
}

// NonConservativePower returns P_nc = vᵀ f_nc: dampers, actuators, springs without a
// potential, point forces and torques.
func (s *System) NonConservativePower(t float64, q, v []float64) float64 {
	var pw float64
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st, false)
		pw += sd.Power(&st.load)
	}
	for i := range s.pointForces {
		F, pr, _ := s.pointForces[i].load(s, t, q)
		vp := pr.rate(v)
		rd := pr.rI.apply(&vp)
		pw += dot(F, rd)
	}
	for i := range s.torques {
		tq := &s.torques[i]
		sc, re := s.torqueLoad(tq, t, q)
		xd := s.frames[tq.body].rates(v)
		pw += sc * (re[0]*(xd[2]-xd[0]) + re[1]*(xd[3]-xd[1]))
	}
	return pw
}

// DrivingPower returns P_driving = Σ λ_r g_t,r over the motions' rows (λ of the full system).
func (s *System) DrivingPower(t float64, q, lambda []float64) float64 {
	var pw float64
	var e coordEval
	for r := range s.rows {
		rw := &s.rows[r]
		if rw.Drive == nil || lambda[r] == 0 {
			continue
		}
		_, dw, _, _, dF, _ := rw.Weights(t)
		gt := -dF
		if rw.Trig {
			pr := &s.pairs[s.rowPair[r]]
			p := pr.values(q)
			for k := range rw.N {
				e.eval(rw.Terms[k].Coord, pr, &p, false)
				gt += dw[k] * e.val
			}
		}
		pw += lambda[r] * gt
	}
	return pw
}
