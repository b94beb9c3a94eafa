package spatial

import (
	"linkage/assembly"
	"linkage/law"
)

// force.go: (t, q, v) ⇒ f, ∂f/∂q, ∂f/∂v.
//
//	gravity:          f_R += m g
//	quadratic velocity (Lagrange's equations for T = 2 ṗᵀGᵀJ'Gṗ, using Ġṗ = 0 and
//	                  G(p)ṗ = −G(ṗ)p; Haug 1989, ch. 11; Nikravesh 1988, ch. 11; derived here):
//	                  f_p = −8 G(ṗ)ᵀ J' G(p) ṗ = −4 G(ṗ)ᵀ J' ω',   ω' = 2 G(p) ṗ,
//	                  ∂f_p/∂p = 8 G(ṗ)ᵀ J' G(ṗ),   ∂f_p/∂ṗ = −4 T(J'ω') − 8 G(ṗ)ᵀ J' G(p)
//	spring-damper:    F = spring(c − c_free) + damper(c') + act(t),  f_P = −F ∇c,
//	                  ∂f_P/∂q = −∇c (k ∇c + d ∇²c v_P)ᵀ − F ∇²c,   ∂f_P/∂v = −d ∇c ∇cᵀ
//	point force F at r = R + A(p)s:   f_R += F,  f_p += (∂(A s)/∂p)ᵀ F = 2 Σ_k F_k S_k(s) p
//	                  (body-axes F' enters as F = A(p) F', which depends on p)
//	torque:           f_p += 2 E(p)ᵀ n (global n),  2 G(p)ᵀ n' (body axes n'),
//	                  the generalized forces of the virtual rotations δπ = 2Eδp, δπ' = 2Gδp
//	custom:           the user's function; derivatives by central differences.
//
// The quadratic velocity force does no work: ṗᵀ f_p = −8 (G(ṗ)ṗ)ᵀ J' G ṗ = 0.

// sdState is a spring-damper element evaluated at (t, q, v).
type sdState struct {
	e    coordEval
	vp   [14]float64
	load law.SDLoad
}

func (s *System) evalSD(sd *springDamper, t float64, q, v []float64, st *sdState, hess bool) {
	var k pairKin
	pr := &s.pairs[sd.Pair]
	pr.kin(q, &k)
	st.e.eval(&sd.Coord, &k, hess)
	st.vp = pr.rate(v)
	st.load = sd.Load(t, st.e.val, st.e.dotGrad(&st.vp))
}

func eval3(fn *[3]law.Func, t float64) (x Vec3) {
	for k, f := range fn {
		if f != nil {
			x[k], _, _ = f.Eval(t)
		}
	}
	return x
}

// pointLoad is a point force at one (t, q): the global force F, the Jacobian of the
// point 2 S_k p (3×4) and, for body-axes forces, ∂F/∂p (3×4).
type pointLoad struct {
	F    Vec3
	jp   [3][4]float64
	dFdp [3][4]float64
}

func (s *System) pointLoad(pf *pointForce, t float64, q []float64, L *pointLoad) {
	p := bodyP(q, pf.col)
	F := eval3(&pf.fn, t)
	_, L.jp = pf.qs.apply(&p)
	L.dFdp = [3][4]float64{}
	if !pf.global {
		var G Vec3
		for m := range 3 {
			if F[m] == 0 {
				continue
			}
			am, jm := s.axesQF[m].apply(&p)
			G = G.Add(am.Scale(F[m]))
			for k := range 3 {
				for a := range 4 {
					L.dFdp[k][a] += F[m] * jm[k][a]
				}
			}
		}
		F = G
	}
	L.F = F
}

// torqueLoad returns the generalized torque 2Eᵀn or 2Gᵀn' of tq on p and its ∂/∂p.
func torqueLoad(tq *torqueElem, t float64, q []float64) (fp [4]float64, d [4][4]float64) {
	n := eval3(&tq.fn, t)
	if tq.global {
		d = teMat(n)
	} else {
		d = tMat(n)
	}
	p := bodyP(q, tq.col)
	for a := range 4 {
		for b := range 4 {
			d[a][b] *= 2
			fp[a] += d[a][b] * p[b]
		}
	}
	return fp, d
}

// Force writes f(t, q, v).
func (s *System) Force(dst []float64, t float64, q, v []float64) {
	for i := range dst {
		dst[i] = 0
	}
	for _, b := range s.bodies[1:] {
		c := b.col
		for k := range 3 {
			dst[c+k] += b.Mass * s.gravity[k]
		}
		p, pd := bodyP(q, c), bodyP(v, c)
		G, Gd := gMat(&p), gMat(&pd)
		y := b.Inertia.MulVec(mulG(&G, &pd).Scale(2)) // J'ω'
		fp := mulGT(&Gd, y)
		for a := range 4 {
			dst[c+3+a] -= 4 * fp[a]
		}
	}
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st, false)
		assembly.AddScaled(dst, s.pairs[sd.Pair].col[:], -st.load.Force(), st.e.grad[:])
	}
	var L pointLoad
	for i := range s.points {
		pf := &s.points[i]
		s.pointLoad(pf, t, q, &L)
		for k := range 3 {
			dst[pf.col+k] += L.F[k]
			for a := range 4 {
				dst[pf.col+3+a] += L.jp[k][a] * L.F[k]
			}
		}
	}
	for i := range s.torques {
		fp, _ := torqueLoad(&s.torques[i], t, q)
		for a := range 4 {
			dst[s.torques[i].col+3+a] += fp[a]
		}
	}
	s.customs.AddForce(dst, t, q, v)
}

// WriteForceDerivativeQ writes ∂f/∂q.
func (s *System) WriteForceDerivativeQ(dst assembly.Target, t float64, q, v []float64) {
	dst.Zero()
	for _, b := range s.bodies[1:] {
		c := b.col + 3
		pd := bodyP(v, b.col)
		Gd := gMat(&pd)
		var JGd [3][4]float64
		for i := range 3 {
			for j := range 4 {
				JGd[i][j] = b.Inertia[i][0]*Gd[0][j] + b.Inertia[i][1]*Gd[1][j] + b.Inertia[i][2]*Gd[2][j]
			}
		}
		for a := range 4 {
			var row [4]float64
			for bb := range 4 {
				row[bb] = 8 * (Gd[0][a]*JGd[0][bb] + Gd[1][a]*JGd[1][bb] + Gd[2][a]*JGd[2][bb])
			}
			dst.Row(c+a).AddRun(c, row[:])
		}
	}
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st, true)
		assembly.AddJacobianQ(dst, sd.Pair, s.pairs[sd.Pair].col[:], &st.load, st.e.grad[:], st.e.hess[:], st.vp[:])
	}
	var L pointLoad
	for i := range s.points {
		pf := &s.points[i]
		s.pointLoad(pf, t, q, &L)
		c := pf.col
		for k := range 3 {
			// ∂(2 S_k p F_k)/∂p = 2 F_k S_k + (2 S_k p)(∂F_k/∂p)ᵀ;  ∂f_R/∂p = ∂F/∂p.
			for a := range 4 {
				out := dst.Row(c + 3 + a)
				for b := range 4 {
					out.Add(c+3+b, 2*L.F[k]*pf.qs[k][a][b]+L.jp[k][a]*L.dFdp[k][b])
				}
				dst.Add(c+k, c+3+a, L.dFdp[k][a])
			}
		}
	}
	for i := range s.torques {
		_, d := torqueLoad(&s.torques[i], t, q)
		c := s.torques[i].col + 3
		for a := range 4 {
			out := dst.Row(c + a)
			for b := range 4 {
				out.Add(c+b, d[a][b])
			}
		}
	}
	s.customs.AddJacobian(dst, t, q, v, true)
}

// WriteForceDerivativeV writes ∂f/∂v.
func (s *System) WriteForceDerivativeV(dst assembly.Target, t float64, q, v []float64) {
	dst.Zero()
	for _, b := range s.bodies[1:] {
		c := b.col + 3
		p, pd := bodyP(q, b.col), bodyP(v, b.col)
		G, Gd := gMat(&p), gMat(&pd)
		T := tMat(b.Inertia.MulVec(mulG(&G, &pd).Scale(2)))
		var JG [3][4]float64
		for i := range 3 {
			for j := range 4 {
				JG[i][j] = b.Inertia[i][0]*G[0][j] + b.Inertia[i][1]*G[1][j] + b.Inertia[i][2]*G[2][j]
			}
		}
		for a := range 4 {
			var row [4]float64
			for bb := range 4 {
				row[bb] = -4*T[a][bb] - 8*(Gd[0][a]*JG[0][bb]+Gd[1][a]*JG[1][bb]+Gd[2][a]*JG[2][bb])
			}
			dst.Row(c+a).AddRun(c, row[:])
		}
	}
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		s.evalSD(sd, t, q, v, &st, false)
		if st.load.Kd != 0 {
			assembly.AddOuter(dst, sd.Pair, s.pairs[sd.Pair].col[:], -st.load.Kd, st.e.grad[:])
		}
	}
	s.customs.AddJacobian(dst, t, q, v, false)
}

// SpringDamperReadings returns the state of force element name at (t, q, v), written into
// dst (grown if short): one reading for a TSDA (along its length) or an RSDA (its angle),
// one per axis for a bushing (x, y, z of marker I, then the rotations about them). ok is false when
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
		s.evalSD(sd, t, q, v, &st, false)
		dst = append(dst, sd.Reading(st.e.val, &st.load))
	}
	return dst, true
}
