package planar

import (
	"math/bits"

	"gonum.org/v1/gonum/mat"

	"linkage/assembly"
)

// constraint.go: (t, q) ⇒ g, G, g_t;  (t, q, v) ⇒ γ, ∂γ/∂q, ∂γ/∂v;  (q, λ) ⇒ ∂(Gᵀλ)/∂q;
// (q, w) ⇒ ∂(G w)/∂q.
//
// Every row is g_r = Σ_k w_k c_k(q) − c0 − f(t), a weighted sum of at most two joint
// coordinates c_k (kinematics.go) minus a constant and, for motions, a drive f. Hence
//
//	G_r = Σ w_k ∇c_k,   g_t = −f'(t),   γ_r = −Σ w_k vᵀ(∇²c_k)v + f''(t),
//	∂(Gᵀλ)/∂q = Σ_r λ_r Σ_k w_k ∇²c_k,
//
// the last two because G_t = 0 (the drive does not depend on q).

// evalTerm evaluates term tm of a row at q, its pair's kinematics through c.
func (s *System) evalTerm(c *pairCache, tm *term, q []float64, e *coordEval) {
	e.eval(tm.Coord, c.at(s, tm.Pair, tm.Coord, q))
}

// Constraint writes g(t, q).
func (s *System) Constraint(dst []float64, t float64, q []float64) {
	var c pairCache
	for r := range s.rows {
		rw := &s.rows[r]
		g := -rw.C0
		for k := range rw.N {
			tm := &rw.Terms[k]
			g += tm.W * coordValue(tm.Coord, c.at(s, tm.Pair, tm.Coord, q))
		}
		if rw.Drive != nil {
			f, _, _ := rw.Drive.Eval(t)
			g -= f
		}
		dst[r] = g
	}
	s.addOffsetsConstraint(dst, q)
	s.addCamsConstraint(dst, q)
}

// WriteConstraintJacobian writes G = ∂g/∂q (assembly.MatrixWriter: ConstraintJacobian
// and ConstraintJacobianValues).
func (s *System) WriteConstraintJacobian(dst assembly.Target, t float64, q []float64) {
	s.writeConstraintRows(nil, &dst, t, q)
}

// ConstraintWithJacobianValues writes g and G's values in one pass over the rows
// (dae.SparseConstraintWithJacobian): each pair's kinematics once for both, the numbers
// of Constraint and ConstraintJacobianValues.
func (s *System) ConstraintWithJacobianValues(g, G []float64, t float64, q []float64) {
	dst := s.ConstraintTarget(G)
	s.writeConstraintRows(g, &dst, t, q)
}

// ConstraintJacobianGammaValues writes g, G's values and γ(t, q, v) in one pass over the
// rows (dae.SparseConstraintJacobianGamma): each pair's kinematics once for the three,
// the numbers of Constraint, ConstraintJacobianValues and Gamma. The residual meter's
// measure after each step of the 1000-bar chain: 2.12 → 1.64 M instructions.
func (s *System) ConstraintJacobianGammaValues(g, G, gamma []float64, t float64, q, v []float64) {
	dst := s.ConstraintTarget(G)
	s.writeConstraintGammaRows(g, gamma, &dst, t, q, v)
}

// writeConstraintGammaRows is writeConstraintRows with g, and γ at velocity v added in
// the same loop as Gamma adds it (the same operations in the same order). A loop of its
// own: the residuals of every step take writeConstraintRows, whose loop with γ's
// branches in it cost 2.7 % more (g with G at 1000 bars).
func (s *System) writeConstraintGammaRows(g, gamma []float64, dst *assembly.Target, t float64, q, v []float64) {
	dst.Zero()
	var c pairCache
	vals, runs := s.revoluteRuns(s.ConstraintValuesOf(dst))
	r := 0
	for _, run := range runs { // revolute joints' rows (revrows.go) between generic rows
		for ; r < int(run.row); r++ {
			s.constraintGammaRow(r, g, gamma, dst, &c, t, q, v)
		}
		js := run.joints(s.rev.joints)
		for k := range js {
			j := &js[k]
			aix, aiy, ajx, ajy, dx, dy := j.kin(q, &c.tr)
			wI, wJ := j.rates(v)
			j.values(g, dx, dy)
			j.gammas(gamma, aix, aiy, ajx, ajy, wI, wJ)
			j.addGradients(vals, aix, aiy, ajx, ajy)
		}
		r = run.end()
	}
	for ; r < len(s.rows); r++ {
		s.constraintGammaRow(r, g, gamma, dst, &c, t, q, v)
	}
	s.addOffsetsJacobian(*dst, q)
	s.addCamsJacobian(*dst, q)
	s.addOffsetsConstraint(g, q)
	s.addCamsConstraint(g, q)
	s.addOffsetsGamma(gamma, q, v)
	s.addCamsGamma(gamma, q, v)
}

// constraintGammaRow writes row r's g and γ and adds its G into dst (writeConstraintGammaRows).
func (s *System) constraintGammaRow(r int, g, gamma []float64, dst *assembly.Target, c *pairCache, t float64, q, v []float64) {
	var grad [6]float64
	var e coordEval
	rw := &s.rows[r]
	gr, gm := -rw.C0, 0.0
	for k := range rw.N {
		tm := &rw.Terms[k]
		kin := c.at(s, tm.Pair, tm.Coord, q)
		gr += tm.W * coordValue(tm.Coord, kin)
		vp := s.pairs[tm.Pair].rate(v)
		gm -= tm.W * quadOf(tm.Coord, kin, &vp, &e)
		if tm.Coord <= coordDy && addSeparationGradient(dst, r, k, tm.W, int(tm.Coord-coordDx), kin) {
			continue
		}
		coordGrad(tm.Coord, kin, &grad)
		dst.AddTermGradient(r, k, s.pairs[tm.Pair].col[:], tm.W, grad[:])
	}
	if rw.Drive != nil {
		f, _, ddf := rw.Drive.Eval(t)
		gr -= f
		gm += ddf
	}
	g[r], gamma[r] = gr, gm
}

// writeConstraintRows writes G into dst and, when g is not nil, g (as Constraint does).
func (s *System) writeConstraintRows(g []float64, dst *assembly.Target, t float64, q []float64) {
	dst.Zero()
	var c pairCache
	vals, runs := s.revoluteRuns(s.ConstraintValuesOf(dst))
	r := 0
	for _, run := range runs { // revolute joints' rows (revrows.go) between generic rows
		for ; r < int(run.row); r++ {
			s.constraintRow(r, g, dst, &c, t, q)
		}
		js := run.joints(s.rev.joints)
		for k := range js {
			j := &js[k]
			aix, aiy, ajx, ajy, dx, dy := j.kin(q, &c.tr)
			if g != nil {
				j.values(g, dx, dy)
			}
			j.addGradients(vals, aix, aiy, ajx, ajy)
		}
		r = run.end()
	}
	for ; r < len(s.rows); r++ {
		s.constraintRow(r, g, dst, &c, t, q)
	}
	s.addOffsetsJacobian(*dst, q)
	s.addCamsJacobian(*dst, q)
	if g != nil {
		s.addOffsetsConstraint(g, q)
		s.addCamsConstraint(g, q)
	}
}

// constraintRow adds row r's G into dst and, when g is not nil, writes its g
// (writeConstraintRows).
func (s *System) constraintRow(r int, g []float64, dst *assembly.Target, c *pairCache, t float64, q []float64) {
	var grad [6]float64
	rw := &s.rows[r]
	gr := -rw.C0
	for k := range rw.N {
		tm := &rw.Terms[k]
		kin := c.at(s, tm.Pair, tm.Coord, q)
		if g != nil {
			gr += tm.W * coordValue(tm.Coord, kin)
		}
		if tm.Coord <= coordDy && addSeparationGradient(dst, r, k, tm.W, int(tm.Coord-coordDx), kin) {
			continue
		}
		coordGrad(tm.Coord, kin, &grad)
		dst.AddTermGradient(r, k, s.pairs[tm.Pair].col[:], tm.W, grad[:])
	}
	if g == nil {
		return
	}
	if rw.Drive != nil {
		f, _, _ := rw.Drive.Eval(t)
		gr -= f
	}
	g[r] = gr
}

// revoluteRuns returns vals and the revolute plan's runs when vals is not nil (the
// target is one of the System's own patterns, whose positions the plan holds), else
// nil, nil: the generic loop then writes every row.
func (s *System) revoluteRuns(vals []float64) ([]float64, []revRun) {
	if vals == nil {
		return nil, nil
	}
	return vals, s.revolutePlan().runs
}

// addSeparationGradient adds w·∇d_c (c = 0: d_x, 1: d_y) into row r of dst at the
// positions of term k, when dst holds them, and reports whether it did. ∇d_c has four
// nonzeros (coordGrad): −1 at entry c, −b_I[c] at θ_I, 1 at 3 + c, b_J[c] at θ_J; it adds
// w times each, as AddTermGradient does, and leaves out the two exact zeros, which would
// change no value (slots.go). A nonzero outside the pattern goes to AddTermGradient, which
// reports it. g with G of the 1000-bar chain: 0.75 → 0.61 M instructions.
func addSeparationGradient(dst *assembly.Target, r, k int, w float64, c int, kin *pairKin) bool {
	vals, pos := dst.TermPositions(r, k)
	if len(pos) != 6 {
		return false
	}
	ok := addAtPosition(vals, pos[c], w*-1)
	ok = addAtPosition(vals, pos[2], w*-kin.bi[c]) && ok
	ok = addAtPosition(vals, pos[3+c], w*1) && ok
	ok = addAtPosition(vals, pos[5], w*kin.bj[c]) && ok
	return ok
}

// addSeparationHessian adds w·∇²d_c (c = 0: d_x, 1: d_y) into pair k's block of dst,
// when dst holds it, and reports whether it did. ∇²d_c has two nonzeros (coordEval.eval):
// a_I[c] at (θ_I, θ_I) and −a_J[c] at (θ_J, θ_J); it adds w times each, as AddHessianOver
// does over the support {θ_I, θ_J}, without forming the value, gradient and 6×6 Hessian
// of the coordinate, and leaves out the two exact zeros at (θ_I, θ_J) and (θ_J, θ_I),
// which would change no value. A nonzero outside the pattern goes to AddHessianOver,
// which reports it. ∂(Gᵀλ)/∂q of the 1000-bar chain: 1.34 → 0.69 M instructions.
func addSeparationHessian(dst *assembly.Target, k int, w float64, c int, kin *pairKin) bool {
	vals, blk := dst.PairBlockPositions(k, 6)
	if len(blk) != 36 {
		return false
	}
	ok := kin.ai[c] == 0 || addAtPosition(vals, blk[2*6+2], w*kin.ai[c])
	return (-kin.aj[c] == 0 || addAtPosition(vals, blk[5*6+5], w*-kin.aj[c])) && ok
}

// addAtPosition adds y at position p of vals when p is a value, and reports false for a
// nonzero y at an entry the pattern lacks.
func addAtPosition(vals []float64, p int32, y float64) bool {
	if p >= 0 {
		vals[p] += y
		return true
	}
	return p != assembly.PosMissing || y == 0
}

// ConstraintTimeDerivative writes g_t = −f'(t) for motions, 0 for the other rows.
func (s *System) ConstraintTimeDerivative(dst []float64, t float64, _ []float64) {
	clear(dst[:len(s.rows)])
	for _, r := range s.driven {
		_, df, _ := s.rows[r].Drive.Eval(t)
		dst[r] = -df
	}
}

// Gamma writes γ = −(G v)_q v − 2 G_t v − g_tt = −Σ w vᵀ∇²c v + f″(t).
func (s *System) Gamma(dst []float64, t float64, q, v []float64) {
	s.gamma(dst, t, q, v, s.revolutePlan().runs)
}

// gamma is Gamma with the revolute joints of runs written by the plan (revrows.go); nil:
// every row by the generic loop.
func (s *System) gamma(dst []float64, t float64, q, v []float64, runs []revRun) {
	var c pairCache
	r := 0
	for _, run := range runs {
		for ; r < int(run.row); r++ {
			dst[r] = s.gammaRow(r, &c, t, q, v)
		}
		js := run.joints(s.rev.joints)
		for k := range js {
			j := &js[k]
			aix, aiy, ajx, ajy, _, _ := j.kin(q, &c.tr)
			wI, wJ := j.rates(v)
			j.gammas(dst, aix, aiy, ajx, ajy, wI, wJ)
		}
		r = run.end()
	}
	for ; r < len(s.rows); r++ {
		dst[r] = s.gammaRow(r, &c, t, q, v)
	}
	s.addOffsetsGamma(dst, q, v)
	s.addCamsGamma(dst, q, v)
}

// gammaRow returns row r's γ (Gamma).
func (s *System) gammaRow(r int, c *pairCache, t float64, q, v []float64) float64 {
	var e coordEval
	rw := &s.rows[r]
	var g float64
	for k := range rw.N {
		tm := &rw.Terms[k]
		vp := s.pairs[tm.Pair].rate(v)
		g -= tm.W * quadOf(tm.Coord, c.at(s, tm.Pair, tm.Coord, q), &vp, &e)
	}
	if rw.Drive != nil {
		_, _, ddf := rw.Drive.Eval(t)
		g += ddf
	}
	return g
}

// WriteConstraintForceDerivative writes ∂(Gᵀλ)/∂q = Σ_r λ_r ∇²g_r (assembly.MatrixWriter).
func (s *System) WriteConstraintForceDerivative(dst assembly.Target, _ float64, q, lambda []float64) {
	dst.Zero()
	var c pairCache
	vals, runs := s.revoluteRuns(s.CouplingValuesOf(&dst))
	r := 0
	for _, run := range runs { // revolute joints' rows (revrows.go) between generic rows
		for ; r < int(run.row); r++ {
			s.constraintHessianRow(r, &dst, &c, q, lambda)
		}
		js := run.joints(s.rev.joints)
		for k := range js {
			j := &js[k]
			if l := lambda[j.row : j.row+2]; l[0] != 0 || l[1] != 0 {
				aix, aiy, ajx, ajy, _, _ := j.kin(q, &c.tr)
				j.addHessians(vals, l, aix, aiy, ajx, ajy)
			}
		}
		r = run.end()
	}
	for ; r < len(s.rows); r++ {
		s.constraintHessianRow(r, &dst, &c, q, lambda)
	}
	s.addOffsetsHessian(dst, q, lambda)
	s.addCamsHessian(dst, q, lambda)
}

// constraintHessianRow adds row r's λ_r ∇²g_r into dst (WriteConstraintForceDerivative).
func (s *System) constraintHessianRow(r int, dst *assembly.Target, c *pairCache, q, lambda []float64) {
	rw := &s.rows[r]
	if lambda[r] == 0 {
		return
	}
	var e coordEval
	for k := range rw.N {
		tm := &rw.Terms[k]
		sup := hessianSupport(tm.Coord)
		if sup == 0 {
			continue // a linear coordinate
		}
		if tm.Coord <= coordDy && addSeparationHessian(dst, tm.Pair, lambda[r]*tm.W, int(tm.Coord-coordDx), c.at(s, tm.Pair, tm.Coord, q)) {
			continue
		}
		s.evalTerm(c, tm, q, &e)
		assembly.AddHessianOver(*dst, tm.Pair, s.pairs[tm.Pair].col[:], lambda[r]*tm.W, e.hess[:], sup)
	}
}

// ConstraintJacobianDerivative writes ∂(G w)/∂q, row r = Σ_k w_k (∇²c_k w_p)ᵀ: the
// constraint Hessians contracted with w (seed 000, eqs. 22-25, 32-33).
func (s *System) ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64) {
	s.writeConstraintJacobianDerivative(assembly.Dense(dst), t, q, w)
}

// ConstraintJacobianDerivativeValues writes ∂(G w)/∂q into the values of G's pattern
// (dae.SparseConstraintJacobianDerivative), the same additions as the dense method.
func (s *System) ConstraintJacobianDerivativeValues(dst []float64, t float64, q, w []float64) {
	s.writeConstraintJacobianDerivative(s.ConstraintTarget(dst), t, q, w)
}

// ConstraintJacobianTimeDerivativeValues writes G_t = 0: no row's weights depend on t
// (a drive enters only as −f(t)).
func (s *System) ConstraintJacobianTimeDerivativeValues(dst []float64, _ float64, _ []float64) {
	clear(dst)
}

func (s *System) writeConstraintJacobianDerivative(dst assembly.Target, _ float64, q, w []float64) {
	dst.Zero()
	var c pairCache
	vals, runs := s.revoluteRuns(s.ConstraintValuesOf(&dst))
	r := 0
	for _, run := range runs { // revolute joints' rows (revrows.go) between generic rows
		for ; r < int(run.row); r++ {
			s.jacobianDerivativeRow(r, &dst, &c, q, w)
		}
		js := run.joints(s.rev.joints)
		for k := range js {
			j := &js[k]
			aix, aiy, ajx, ajy, _, _ := j.kin(q, &c.tr)
			wI, wJ := j.rates(w)
			j.addJacobianDerivative(vals, aix, aiy, ajx, ajy, wI, wJ)
		}
		r = run.end()
	}
	for ; r < len(s.rows); r++ {
		s.jacobianDerivativeRow(r, &dst, &c, q, w)
	}
	s.addOffsetsJacobianDerivative(dst, q, w)
	s.addCamsJacobianDerivative(dst, q, w)
}

// jacobianDerivativeRow adds row r's Σ_k w_k (∇²c_k w_p)ᵀ into dst
// (writeConstraintJacobianDerivative).
func (s *System) jacobianDerivativeRow(r int, dst *assembly.Target, c *pairCache, q, w []float64) {
	var e coordEval
	var hw [6]float64
	rw := &s.rows[r]
	for k := range rw.N {
		tm := &rw.Terms[k]
		sup := hessianSupport(tm.Coord)
		if sup == 0 {
			continue // a linear coordinate
		}
		s.evalTerm(c, tm, q, &e)
		pr := &s.pairs[tm.Pair]
		wp := pr.rate(w)
		hw = [6]float64{}
		for ra := sup; ra != 0; ra &= ra - 1 { // ∇²c w over the support (exact zeros left out)
			a := bits.TrailingZeros16(ra)
			var x float64
			for rb := sup; rb != 0; rb &= rb - 1 {
				b := bits.TrailingZeros16(rb)
				x += e.hess[a][b] * wp[b]
			}
			hw[a] = x
		}
		dst.AddTermGradient(r, k, pr.col[:], tm.W, hw[:])
	}
}

// GammaDerivativeV writes ∂γ/∂v = −2 ∂(G v)/∂q (γ is quadratic in v and G_t = 0).
func (s *System) GammaDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	s.ConstraintJacobianDerivative(dst, t, q, v)
	r, c := dst.Dims()
	for i := range r {
		row := dst.RawRowView(i)[:c]
		for j := range row {
			row[j] *= -2
		}
	}
}

// GammaDerivativeQ writes ∂γ/∂q = −Σ_k w_k ∇_p(v_pᵀ ∇²c_k v_p) (quadGrad; the drives do not
// depend on q).
func (s *System) GammaDerivativeQ(dst *mat.Dense, _ float64, q, v []float64) {
	dst.Zero()
	var c pairCache
	var g [6]float64
	for r := range s.rows {
		rw := &s.rows[r]
		out := dst.RawRowView(r)
		for i := range rw.N {
			tm := &rw.Terms[i]
			pr := &s.pairs[tm.Pair]
			vp := pr.rate(v)
			quadGrad(tm.Coord, c.at(s, tm.Pair, tm.Coord, q), &vp, &g)
			assembly.AddScaled(out, pr.col[:], -tm.W, g[:])
		}
	}
	s.addOffsetsGammaDerivativeQ(dst, q, v)
	s.addCamsGammaDerivativeQ(dst, q, v)
}
