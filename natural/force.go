package natural

import (
	"linkage/assembly"
	"linkage/law"
)

// force.go: (t, q, v) ⇒ f, ∂f/∂q, ∂f/∂v.
//
//	gravity:        f_b += C(0)ᵀ m g at the body's basic points (C(0): its centre of mass)
//	spring-damper:  F = spring(c − c_free) + damper(c') + act(t), f_p = −F ∇c (TSDA: c = |d|;
//	                RSDA: c = the wrapped angle; bushing: one per axis)
//	point force:    f_p += L_rᵀ F, F = (fx, fy) or, in the marker's axes, fx u + fy n
//	torque:         f_j = −f_i = τ R e/L²: the virtual work τ δθ with δθ = e × δe/|e|² and
//	                |e| = L, which the rigid row keeps (so ∂f/∂q is constant)

// sdState is a spring-damper evaluated at (t, q, v).
type sdState struct {
	e    coordEval
	vp   [8]float64
	load law.SDLoad
}

func (s *System) evalSD(sd *springDamper, t float64, q, v []float64, st *sdState, hess bool) {
	pr := &s.pairs[sd.Pair]
	p := pr.values(q)
	st.e.eval(sd.Coord, pr, &p, hess)
	st.vp = pr.rate(v)
	st.load = sd.Load(t, st.e.val, st.e.dotGrad(&st.vp))
}

// SpringDamperReadings returns the state of force element name at (t, q, v), written into
// dst (grown if short): one reading for a TSDA (along its length) or an RSDA (its angle,
// the free angle plus the deflection δ its coordinate measures), one per axis for a bushing
// (along, normal, angle). ok is false when name is no spring-damper element.
func (s *System) SpringDamperReadings(dst []law.SDReading, name string, t float64, q, v []float64) (out []law.SDReading, ok bool) {
	r, ok := s.sdRange[name]
	dst = dst[:0]
	if !ok {
		return dst, false
	}
	var st sdState
	for i := r[0]; i < r[1]; i++ {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st, false)
		rd := sd.Reading(st.e.val, &st.load)
		rd.Value += sd.Coord.ref // δ = β − ref: the angle is ref + δ, its deflection δ
		dst = append(dst, rd)
	}
	return dst, true
}

// load returns the point force in global axes at (t, q), its pair and p.
func (pf *pointForce) load(s *System, t float64, q []float64) (F Vec, pr *pairRef, p [8]float64) {
	var fl Vec
	if pf.fx != nil {
		fl[0], _, _ = pf.fx.Eval(t)
	}
	if pf.fy != nil {
		fl[1], _, _ = pf.fy.Eval(t)
	}
	pr = &s.pairs[pf.pair]
	p = pr.values(q)
	if pf.global {
		return fl, pr, p
	}
	u, n := pr.uI.apply(&p), pr.nI.apply(&p)
	return Vec{fl[0]*u[0] + fl[1]*n[0], fl[0]*u[1] + fl[1]*n[1]}, pr, p
}

// torqueLoad returns τ/L² and R e of torque tq at (t, q).
func (s *System) torqueLoad(tq *torqueElem, t float64, q []float64) (scale float64, re Vec) {
	tau, _, _ := tq.tau.Eval(t)
	b := &s.bodies[tq.body]
	x := s.frames[tq.body].values(q)
	return tau / (b.L * b.L), Vec{-(x[3] - x[1]), x[2] - x[0]}
}

// gravityLoad returns the generalized gravity force on body k's four slots.
func (s *System) gravityLoad(k int) (f [4]float64) {
	b := &s.bodies[k]
	l := pointMap(0, b.zc)
	for c := range 4 {
		f[c] = b.Mass * (l[0][c]*s.gravity[0] + l[1][c]*s.gravity[1])
	}
	return f
}

// Force writes f(t, q, v).
func (s *System) Force(dst []float64, t float64, q, v []float64) {
	clear(dst)
	for k := 1; k < len(s.bodies); k++ {
		g := s.gravityLoad(k)
		assembly.AddScaled(dst, s.frames[k].col[:], 1, g[:])
	}
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st, false)
		assembly.AddScaled(dst, s.pairs[sd.Pair].col[:], -st.load.Force(), st.e.grad[:])
	}
	for i := range s.pointForces {
		F, pr, _ := s.pointForces[i].load(s, t, q)
		for r := range 2 {
			assembly.AddScaled(dst, pr.col[:], F[r], pr.rI[r][:])
		}
	}
	for i := range s.torques {
		tq := &s.torques[i]
		sc, re := s.torqueLoad(tq, t, q)
		f := [4]float64{-sc * re[0], -sc * re[1], sc * re[0], sc * re[1]}
		assembly.AddScaled(dst, s.frames[tq.body].col[:], 1, f[:])
	}
}

// WriteForceDerivativeQ writes ∂f/∂q (assembly.MatrixWriter).
func (s *System) WriteForceDerivativeQ(dst assembly.Target, t float64, q, v []float64) {
	dst.Zero()
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st, true)
		assembly.AddJacobianQ(dst, sd.Pair, s.pairs[sd.Pair].col[:], &st.load, st.e.grad[:], st.e.hess[:], st.vp[:])
	}
	for i := range s.pointForces {
		pf := &s.pointForces[i]
		if pf.global {
			continue
		}
		// f_p = L_rᵀ (fx L_u + fy L_n) p: constant Jacobian L_rᵀ (fx L_u + fy L_n).
		var fl Vec
		if pf.fx != nil {
			fl[0], _, _ = pf.fx.Eval(t)
		}
		if pf.fy != nil {
			fl[1], _, _ = pf.fy.Eval(t)
		}
		pr := &s.pairs[pf.pair]
		for a, ca := range pr.col {
			if ca < 0 || pr.rI[0][a] == 0 && pr.rI[1][a] == 0 {
				continue
			}
			for b, cb := range pr.col {
				if cb < 0 {
					continue
				}
				var x float64
				for r := range 2 {
					x += pr.rI[r][a] * (fl[0]*pr.uI[r][b] + fl[1]*pr.nI[r][b])
				}
				if x != 0 {
					dst.Add(ca, cb, x)
				}
			}
		}
	}
	for i := range s.torques {
		tq := &s.torques[i]
		sc, _ := s.torqueLoad(tq, t, q)
		// f_j = sc (−e_y, e_x), f_i = −f_j, e = r_j − r_i.
		dfj := [2][4]float64{{0, sc, 0, -sc}, {-sc, 0, sc, 0}}
		col := s.frames[tq.body].col
		for r := range 2 {
			for c := range 4 {
				if col[c] < 0 || dfj[r][c] == 0 {
					continue
				}
				if col[2+r] >= 0 {
					dst.Add(col[2+r], col[c], dfj[r][c])
				}
				if col[r] >= 0 {
					dst.Add(col[r], col[c], -dfj[r][c])
				}
			}
		}
	}
}

// WriteForceDerivativeV writes ∂f/∂v (assembly.MatrixWriter).
func (s *System) WriteForceDerivativeV(dst assembly.Target, t float64, q, v []float64) {
	dst.Zero()
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st, false)
		if st.load.Kd != 0 {
			assembly.AddOuter(dst, sd.Pair, s.pairs[sd.Pair].col[:], -st.load.Kd, st.e.grad[:])
		}
	}
}
