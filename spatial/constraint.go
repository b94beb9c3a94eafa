package spatial

import (
	"math/bits"

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

// bodyP returns p of the body whose x is at column c.
func bodyP(q []float64, c int) [4]float64 { return [4]float64{q[c+3], q[c+4], q[c+5], q[c+6]} }

// Constraint writes g(t, q).
func (s *System) Constraint(dst []float64, t float64, q []float64) {
	for i, b := range s.bodies[1:] {
		p := bodyP(q, b.col)
		dst[i] = p[0]*p[0] + p[1]*p[1] + p[2]*p[2] + p[3]*p[3] - 1
	}
	var k pairKin
	last := -1 // a joint's rows share its pair: evaluate the kinematics once per joint
	for r := range s.rows {
		rw := &s.rows[r]
		w, _, _, F, _, _ := rw.Weights(t)
		if rw.Terms[0].Pair != last {
			s.pairs[rw.Terms[0].Pair].kinValues(q, &k)
			last = rw.Terms[0].Pair
		}
		g := -rw.C0 - F
		for i := range rw.N {
			g += w[i] * rw.Terms[i].Coord.value(&k)
		}
		dst[s.nbody+r] = g
	}
}

// WriteConstraintJacobian writes G = ∂g/∂q.
func (s *System) WriteConstraintJacobian(dst assembly.Target, t float64, q []float64) {
	dst.Zero()
	for i, b := range s.bodies[1:] {
		p := bodyP(q, b.col)
		dst.Row(i).AddRun(b.col+3, []float64{2 * p[0], 2 * p[1], 2 * p[2], 2 * p[3]})
	}
	var k pairKin
	var e coordEval
	last := -1
	for r := range s.rows {
		rw := &s.rows[r]
		w, _, _, _, _, _ := rw.Weights(t)
		pr := &s.pairs[rw.Terms[0].Pair]
		if rw.Terms[0].Pair != last {
			pr.kinRows(q, &k)
			last = rw.Terms[0].Pair
		}
		for i := range rw.N {
			e.eval(&rw.Terms[i].Coord, &k, false)
			dst.AddTermGradient(s.nbody+r, i, pr.col[:], w[i], e.grad[:])
		}
	}
}

// ConstraintTimeDerivative writes g_t: 0 for scleronomic rows, −f' for translational
// motions, Σ W_k' c_k for revolute motions.
func (s *System) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	clear(dst[:s.nbody+len(s.rows)])
	var k pairKin
	for _, r := range s.driven {
		rw := &s.rows[r]
		_, dw, _, _, dF, _ := rw.Weights(t)
		g := -dF
		if rw.Trig {
			s.pairs[rw.Terms[0].Pair].kinValues(q, &k)
			for i := range rw.N {
				g += dw[i] * rw.Terms[i].Coord.value(&k)
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
		w, dw, ddw, _, _, ddF := rw.Weights(t)
		pr := &s.pairs[rw.Terms[0].Pair]
		if rw.Terms[0].Pair != last {
			pr.kinRows(q, &k)
			vp = pr.rate(v)
			last = rw.Terms[0].Pair
		}
		g := ddF
		for i := range rw.N {
			c := &rw.Terms[i].Coord // rows are built from dot products only
			e.eval(c, &k, false)
			g -= w[i]*c.quadAlong(&k, &vp) + 2*dw[i]*e.dotGrad(&vp) + ddw[i]*e.val
		}
		dst[s.nbody+r] = g
	}
}

// WriteConstraintForceDerivative writes ∂(Gᵀλ)/∂q = Σ_r λ_r ∇²g_r.
func (s *System) WriteConstraintForceDerivative(dst assembly.Target, t float64, q, lambda []float64) {
	dst.Zero()
	for i, b := range s.bodies[1:] {
		for a := range 4 {
			c := b.col + 3 + a
			dst.Add(c, c, 2*lambda[i])
		}
	}
	var k pairKin
	var e coordEval
	// h sums λ_r W_k ∇²c_k over the rows of one pair (a joint), which then enter dst at
	// once.
	var h [14][14]float64
	var curved uint16 // the entries h's rows curve in (addCurved sums there alone)
	sparse := dst.Sparse()
	last, kinAt := -1, -1
	for r := range s.rows {
		rw := &s.rows[r]
		l := lambda[s.nbody+r]
		if l == 0 {
			continue
		}
		w, _, _, _, _, _ := rw.Weights(t)
		p := rw.Terms[0].Pair
		if p != last {
			if last >= 0 {
				assembly.AddHessianOver(dst, last, s.pairs[last].col[:], 1, h[:], curved)
				clearCurved(&h, curved, sparse)
				curved = 0
			}
			last = p
		}
		for i := range rw.N {
			c := &rw.Terms[i].Coord
			if addSeparationComponentHessian(&h, &s.pairs[p], c, l*w[i]) {
				curved |= curveOf(c)
				continue
			}
			if kinAt != p { // the other coordinates' Hessians read the pair's vectors
				s.pairs[p].kinRows(q, &k)
				kinAt = p
			}
			e.evalHessian(c, &k)
			addCurved(&h, &e.hess, l*w[i], c.curve, sparse)
			curved |= curveOf(c)
		}
	}
	if last >= 0 {
		assembly.AddHessianOver(dst, last, s.pairs[last].col[:], 1, h[:], curved)
	}
}

// addSeparationComponentHessian adds sc·∇²c to h when c is a component of the separation,
// c = w·dᵀe_k (the rows of spherical, revolute, universal and weld joints), and reports
// whether it did. d = R_J + A(p_J) s_J − R_I − A(p_I) s_I is linear in R and quadratic in
// p, so ∇²c is constant: 2w·(−S_k(s_I)) in the p_I block and 2w·S_k(s_J) in the p_J block
// (kinematics.go), and the pair's vectors need not be evaluated. The numbers are those of
// evalHessian and addCurved, to the bit: there the block entry is (2w·(∓1))·S_k[a][b]
// (addQuad, with Σ_m (e_k)_m S_m = S_k exactly) and sc times it enters h.
func addSeparationComponentHessian(h *[14][14]float64, pr *pairRef, c *coord, sc float64) bool {
	if c.kind != coordDots || c.n != 1 || c.dots[0].a != vD || c.dots[0].b < vE0 || c.dots[0].b > vE2 {
		return false
	}
	k, w := int(c.dots[0].b-vE0), c.dots[0].w
	blocks := [2]struct {
		q   *quadForm
		c   float64
		off int
	}{{pr.mi.qs, 2 * w * -1, 3}, {pr.mj.qs, 2 * w * 1, 10}}
	for _, bl := range blocks {
		for a := range 4 {
			hb := (*[4]float64)(h[bl.off+a][bl.off:])
			for b := range 4 {
				hb[b] += sc * (bl.c * bl.q[k][a][b])
			}
		}
	}
	return true
}

// clearCurved zeroes h after a pair's entries have entered dst: on the sparse path only
// the rows and columns in curved, where addCurved and addSeparationComponentHessian sum;
// the dense path sums every entry.
func clearCurved(h *[14][14]float64, curved uint16, sparse bool) {
	if !sparse || curved == 0 {
		*h = [14][14]float64{}
		return
	}
	for ra := curved; ra != 0; ra &= ra - 1 {
		a := bits.TrailingZeros16(ra)
		for rb := curved; rb != 0; rb &= rb - 1 {
			h[a][bits.TrailingZeros16(rb)] = 0
		}
	}
}

// addCurved adds sc·H to h. On the sparse path (sparse set) only the rows and columns in
// curve, where the coordinate's Hessian can be nonzero, are summed: elsewhere H is exactly
// zero and h stays as it is (x + (±0) = x for the sums here, which start at +0). The dense
// path sums every entry, so that dae.CheckSparse, comparing both, still finds a curve that
// misses a nonzero of H.
func addCurved(h, H *[14][14]float64, sc float64, curve uint16, sparse bool) {
	if !sparse || curve == 0 {
		for a := range h {
			for b := range h[a] {
				h[a][b] += sc * H[a][b]
			}
		}
		return
	}
	for ra := curve; ra != 0; ra &= ra - 1 {
		a := bits.TrailingZeros16(ra)
		for rb := curve; rb != 0; rb &= rb - 1 {
			b := bits.TrailingZeros16(rb)
			h[a][b] += sc * H[a][b]
		}
	}
}

// curveOf returns the entries addCurved sums c's Hessian over: c.curve, every entry when
// unknown (0).
func curveOf(c *coord) uint16 {
	if c.curve == 0 {
		return 1<<14 - 1
	}
	return c.curve
}
