package spatial

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/assembly"
)

// constraint.go: (t, q) ⇒ g, G, g_t;  (t, q, v) ⇒ γ;  (q, λ) ⇒ ∂(Gᵀλ)/∂q.
//
// Rows 0..N−1 are the normalizations pᵀp − 1 of the N bodies (seed 002, Remark 7c):
//
//	∇ = 2pᵀ,   ∇² = 2I,   γ = −2ṗᵀṗ.
//
// A joint row is g = Σ_k W_k(t) c_k(q) − c0 − F(t), a weighted sum of at most two joint
// coordinates of one pair (kinematics.go); W_k = 1 and F = f(t) for ordinary rows and
// translational motions, W = (cos f, −sin f) and F = 0 for revolute motions. Hence
//
//	G = Σ W_k ∇c_k,   g_t = Σ W_k' c_k − F',
//	γ = −Σ W_k vᵀ∇²c_k v − 2 Σ W_k' ∇c_k·v − Σ W_k'' c_k + F'',
//	∂(Gᵀλ)/∂q = Σ_r λ_r Σ_k W_k ∇²c_k.

// weights returns W_k, W_k', W_k” of each term of rw and F, F', F” at t.
func (rw *row) weights(t float64) (w, dw, ddw [2]float64, F, dF, ddF float64) {
	var f, df, ddf float64
	if rw.drive != nil {
		f, df, ddf = rw.drive.Eval(t)
	}
	if !rw.trig {
		for k := range rw.n {
			w[k] = rw.terms[k].w
		}
		return w, dw, ddw, f, df, ddf
	}
	sn, cs := math.Sincos(f)
	for k := range rw.n {
		s := rw.terms[k].w
		switch rw.terms[k].wk {
		case weightCos:
			w[k], dw[k], ddw[k] = s*cs, -s*sn*df, s*(-cs*df*df-sn*ddf)
		case weightNegSin:
			w[k], dw[k], ddw[k] = -s*sn, -s*cs*df, s*(sn*df*df-cs*ddf)
		default:
			w[k] = s
		}
	}
	return w, dw, ddw, 0, 0, 0
}

// bodyP returns p of the body whose x is at column c.
func bodyP(q []float64, c int) [4]float64 { return [4]float64{q[c+3], q[c+4], q[c+5], q[c+6]} }

// Constraint writes g(t, q).
func (s *System) Constraint(dst []float64, t float64, q []float64) {
	for i, b := range s.bodies[1:] {
		p := bodyP(q, b.col)
		dst[i] = p[0]*p[0] + p[1]*p[1] + p[2]*p[2] + p[3]*p[3] - 1
	}
	var k pairKin
	var e coordEval
	last := -1 // a joint's rows share its pair: evaluate the kinematics once per joint
	for r := range s.rows {
		rw := &s.rows[r]
		w, _, _, F, _, _ := rw.weights(t)
		if rw.pair != last {
			s.pairs[rw.pair].kin(q, &k)
			last = rw.pair
		}
		g := -rw.c0 - F
		for i := range rw.n {
			e.eval(&rw.terms[i].c, &k, false)
			g += w[i] * e.val
		}
		dst[s.nbody+r] = g
	}
}

// ConstraintJacobian writes G = ∂g/∂q.
func (s *System) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for i, b := range s.bodies[1:] {
		out := dst.RawRowView(i)
		for a := range 4 {
			out[b.col+3+a] = 2 * q[b.col+3+a]
		}
	}
	var k pairKin
	var e coordEval
	last := -1
	for r := range s.rows {
		rw := &s.rows[r]
		w, _, _, _, _, _ := rw.weights(t)
		pr := &s.pairs[rw.pair]
		if rw.pair != last {
			pr.kin(q, &k)
			last = rw.pair
		}
		out := dst.RawRowView(s.nbody + r)
		for i := range rw.n {
			e.eval(&rw.terms[i].c, &k, false)
			assembly.AddScaled(out, pr.col[:], w[i], e.grad[:])
		}
	}
}

// ConstraintTimeDerivative writes g_t: 0 for scleronomic rows, −f' for translational
// motions, Σ W_k' c_k for revolute motions.
func (s *System) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	for i := range s.nbody {
		dst[i] = 0
	}
	var k pairKin
	var e coordEval
	for r := range s.rows {
		rw := &s.rows[r]
		dst[s.nbody+r] = 0
		if rw.drive == nil {
			continue
		}
		_, dw, _, _, dF, _ := rw.weights(t)
		g := -dF
		if rw.trig {
			s.pairs[rw.pair].kin(q, &k)
			for i := range rw.n {
				e.eval(&rw.terms[i].c, &k, false)
				g += dw[i] * e.val
			}
		}
		dst[s.nbody+r] = g
	}
}

// Gamma writes γ = −(G v)_q v − 2 G_t v − g_tt (formula at the top of this file).
func (s *System) Gamma(dst []float64, t float64, q, v []float64) {
	for i, b := range s.bodies[1:] {
		pd := bodyP(v, b.col)
		dst[i] = -2 * (pd[0]*pd[0] + pd[1]*pd[1] + pd[2]*pd[2] + pd[3]*pd[3])
	}
	var k pairKin
	var e coordEval
	var vp [14]float64
	last := -1
	for r := range s.rows {
		rw := &s.rows[r]
		w, dw, ddw, _, _, ddF := rw.weights(t)
		pr := &s.pairs[rw.pair]
		if rw.pair != last {
			pr.kin(q, &k)
			vp = pr.rate(v)
			last = rw.pair
		}
		g := ddF
		for i := range rw.n {
			c := &rw.terms[i].c // rows are built from dot products only
			e.eval(c, &k, false)
			g -= w[i]*c.quadAlong(&k, &vp) + 2*dw[i]*e.dotGrad(&vp) + ddw[i]*e.val
		}
		dst[s.nbody+r] = g
	}
}

// ConstraintForceDerivative writes ∂(Gᵀλ)/∂q = Σ_r λ_r ∇²g_r.
func (s *System) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	dst.Zero()
	for i, b := range s.bodies[1:] {
		for a := range 4 {
			c := b.col + 3 + a
			dst.Set(c, c, 2*lambda[i])
		}
	}
	var k pairKin
	var e coordEval
	last := -1
	for r := range s.rows {
		rw := &s.rows[r]
		l := lambda[s.nbody+r]
		if l == 0 {
			continue
		}
		w, _, _, _, _, _ := rw.weights(t)
		pr := &s.pairs[rw.pair]
		if rw.pair != last {
			pr.kin(q, &k)
			last = rw.pair
		}
		for i := range rw.n {
			e.eval(&rw.terms[i].c, &k, true)
			assembly.AddHessian(dst, pr.col[:], l*w[i], e.hess[:])
		}
	}
}
