package planar

import (
	"linkage/assembly"
	"linkage/law"
)

// force.go: (t, q, v) ⇒ f, ∂f/∂q, ∂f/∂v.
//
//	gravity:         f_R += m g
//	spring-damper:   F = spring(c − c_free) + damper(c') + act(t),  f_p = −F ∇c,
//	                 ∂f_p/∂q = −∇c (k ∇c + d ∇²c v_p)ᵀ − F ∇²c,   ∂f_p/∂v = −d ∇c ∇cᵀ,
//	                 with k = spring', d = damper', c' = ∇c·v_p (TSDA, RSDA, bushing)
//	point force:     f_R += F,  f_θ += b·F  (b = ∂a/∂θ: the moment a × F about the centre)
//	torque:          f_θ += τ(t)
//	custom:          the user's function; derivatives by central differences.

// sdState is a spring-damper element evaluated at (t, q, v).
type sdState struct {
	e    coordEval
	vp   [6]float64
	load law.SDLoad
}

func (s *System) evalSD(sd *springDamper, t float64, q, v []float64, st *sdState) {
	var k pairKin
	pr := &s.pairs[sd.Pair]
	pr.kin(q, &k)
	st.e.eval(sd.Coord, &k)
	st.vp = pr.rate(v)
	st.load = sd.Load(t, st.e.val, st.e.dotGrad(&st.vp))
}

// pointLoad returns the force of p in global axes and the rotated offset a of its point.
func (p *pointForce) load(t float64, q []float64) (F, a Vec) {
	if p.fx != nil {
		F[0], _, _ = p.fx.Eval(t)
	}
	if p.fy != nil {
		F[1], _, _ = p.fy.Eval(t)
	}
	th := q[p.col+2]
	if !p.global {
		F = rotate(F, th+p.phi)
	}
	return F, rotate(p.s, th)
}

// Force writes f(t, q, v).
func (s *System) Force(dst []float64, t float64, q, v []float64) {
	copy(dst, s.weights)
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st)
		assembly.AddScaled(dst, s.pairs[sd.Pair].col[:], -st.load.Force(), st.e.grad[:])
	}
	for i := range s.points {
		p := &s.points[i]
		F, a := p.load(t, q)
		dst[p.col] += F[0]
		dst[p.col+1] += F[1]
		dst[p.col+2] += a[0]*F[1] - a[1]*F[0]
	}
	for _, tq := range s.torques {
		tau, _, _ := tq.tau.Eval(t)
		dst[tq.col+2] += tau
	}
	for i := range s.beams {
		s.beams[i].AddForce(dst, q, v, s.gravity)
	}
	s.customs.AddForce(dst, t, q, v)
}

// bodyWeights returns the rigid bodies' weights m·g as generalized forces (length nq,
// zero in the angles and the other coordinates), which Force starts from: a copy of nq
// values rather than a pass over the bodies' records (88 bytes each, of which it read
// 16: on the 10 000-bar chain 0.9 MB per evaluation).
func (s *System) bodyWeights() []float64 {
	w := make([]float64, s.nq)
	for _, b := range s.bodies[1:] {
		w[b.col] = b.Mass * s.gravity[0]
		w[b.col+1] = b.Mass * s.gravity[1]
	}
	return w
}

// WriteForceDerivativeQ writes ∂f/∂q (assembly.MatrixWriter: ForceDerivativeQ and
// ForceDerivativeQValues).
func (s *System) WriteForceDerivativeQ(dst assembly.Target, t float64, q, v []float64) {
	dst.Zero()
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st)
		assembly.AddJacobianQ(dst, sd.Pair, s.pairs[sd.Pair].col[:], &st.load, st.e.grad[:], st.e.hess[:], st.vp[:])
	}
	for i := range s.points {
		p := &s.points[i]
		F, a := p.load(t, q)
		c := p.col
		if p.global {
			// ∂(a × F)/∂θ = b × F... written out: ∂(b·F)/∂θ = −a·F.
			dst.Add(c+2, c+2, -dot(a, F))
		} else {
			// F = A(θ+φ) F_local: ∂F/∂θ = (−F_y, F_x); the moment a × F is invariant.
			dst.Add(c, c+2, -F[1])
			dst.Add(c+1, c+2, F[0])
		}
	}
	for i := range s.beams {
		s.beams[i].WriteForceDerivativeQ(s.beamTarget(dst), q, v, s.gravity)
	}
	s.customs.AddJacobian(dst, t, q, v, true)
}

// WriteForceDerivativeV writes ∂f/∂v (assembly.MatrixWriter).
func (s *System) WriteForceDerivativeV(dst assembly.Target, t float64, q, v []float64) {
	dst.Zero()
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st)
		if st.load.Kd != 0 {
			assembly.AddOuter(dst, sd.Pair, s.pairs[sd.Pair].col[:], -st.load.Kd, st.e.grad[:])
		}
	}
	for i := range s.beams {
		s.beams[i].WriteForceDerivativeV(s.beamTarget(dst), q, v)
	}
	s.customs.AddJacobian(dst, t, q, v, false)
}

// SpringDamperReadings returns the state of force element name at (t, q, v), written into
// dst (grown if short): one reading for a TSDA (along its length) or an RSDA (its angle),
// one per axis for a bushing (along, normal, angle). ok is false when
// name is no spring-damper element.
func (s *System) SpringDamperReadings(dst []law.SDReading, name string, t float64, q, v []float64) (out []law.SDReading, ok bool) {
	r, ok := s.sdRange[name]
	if !ok {
		return dst[:0], false
	}
	dst = dst[:0]
	var st sdState
	for i := r[0]; i < r[1]; i++ {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st)
		dst = append(dst, sd.Reading(st.e.val, &st.load))
	}
	return dst, true
}
