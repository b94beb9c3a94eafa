package natural

import "linkage/assembly"

// constraint.go: (t, q) ⇒ g, G, g_t;  (t, q, v) ⇒ γ;  (t, q, λ) ⇒ ∂(Gᵀλ)/∂q.
//
// Every row is g = Σ_k W_k(t) c_k(p) − c0 − F(t) (assembly.Row) over coordinates of one pair:
// the rigid rows (|e|² − L²)/(2L), the link rows of points held beyond the basic two, the
// joints' rows and the motions (a revolute's through sin(β − f), Trig). Hence
//
//	G = Σ W ∇c,  g_t = Σ W' c − F',  γ = −Σ W vᵀ∇²c v − 2 Σ W' ∇c·v − Σ W'' c + F'',
//	∂(Gᵀλ)/∂q = Σ_r λ_r Σ_k W_k ∇²c_k,
//
// and the Hessians are constant (every row coordinate is bilinear in the points).

// Constraint writes g(t, q).
func (s *System) Constraint(dst []float64, t float64, q []float64) {
	var e coordEval
	for r := range s.rows {
		rw := &s.rows[r]
		pr := &s.pairs[s.rowPair[r]]
		p := pr.values(q)
		w, _, _, F, _, _ := rw.Weights(t)
		g := -rw.C0 - F
		for k := range rw.N {
			e.eval(rw.Terms[k].Coord, pr, &p, false)
			g += w[k] * e.val
		}
		dst[r] = g
	}
}

// WriteConstraintJacobian writes G = ∂g/∂q (assembly.MatrixWriter).
func (s *System) WriteConstraintJacobian(dst assembly.Target, t float64, q []float64) {
	dst.Zero()
	var e coordEval
	for r := range s.rows {
		rw := &s.rows[r]
		pr := &s.pairs[s.rowPair[r]]
		p := pr.values(q)
		w, _, _, _, _, _ := rw.Weights(t)
		for k := range rw.N {
			e.eval(rw.Terms[k].Coord, pr, &p, false)
			dst.AddTermGradient(r, k, pr.col[:], w[k], e.grad[:])
		}
	}
}

// ConstraintTimeDerivative writes g_t = Σ W' c − F' (zero for scleronomic rows).
func (s *System) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	var e coordEval
	clear(dst[:len(s.rows)])
	for _, r := range s.driven {
		rw := &s.rows[r]
		_, dw, _, _, dF, _ := rw.Weights(t)
		g := -dF
		if rw.Trig {
			pr := &s.pairs[s.rowPair[r]]
			p := pr.values(q)
			for k := range rw.N {
				e.eval(rw.Terms[k].Coord, pr, &p, false)
				g += dw[k] * e.val
			}
		}
		dst[r] = g
	}
}

// Gamma writes γ = −Σ W vᵀ∇²c v − 2 Σ W' ∇c·v − Σ W” c + F”.
func (s *System) Gamma(dst []float64, t float64, q, v []float64) {
	var e coordEval
	for r := range s.rows {
		rw := &s.rows[r]
		pr := &s.pairs[s.rowPair[r]]
		p := pr.values(q)
		vp := pr.rate(v)
		w, dw, ddw, _, _, ddF := rw.Weights(t)
		g := ddF
		for k := range rw.N {
			e.eval(rw.Terms[k].Coord, pr, &p, true)
			g -= w[k]*e.quad(&vp) + 2*dw[k]*e.dotGrad(&vp) + ddw[k]*e.val
		}
		dst[r] = g
	}
}

// WriteConstraintForceDerivative writes ∂(Gᵀλ)/∂q = Σ_r λ_r Σ_k W_k ∇²c_k.
func (s *System) WriteConstraintForceDerivative(dst assembly.Target, t float64, q, lambda []float64) {
	dst.Zero()
	var e coordEval
	for r := range s.rows {
		if lambda[r] == 0 {
			continue
		}
		rw := &s.rows[r]
		pr := &s.pairs[s.rowPair[r]]
		p := pr.values(q)
		w, _, _, _, _, _ := rw.Weights(t)
		for k := range rw.N {
			if c := rw.Terms[k].Coord.kind; c == coordDx || c == coordDy {
				continue // linear
			}
			e.eval(rw.Terms[k].Coord, pr, &p, true)
			assembly.AddHessian(dst, s.rowPair[r], pr.col[:], lambda[r]*w[k], e.hess[:])
		}
	}
}
