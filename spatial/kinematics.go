package spatial

import "math"

// kinematics.go: (q; a pair of markers) ⇒ the scalar joint coordinates every constraint
// row and force element is built from, with gradients and Hessians with respect to the 14
// coordinates of the two bodies, in the order
//
//	P = (R_I, p_I, R_J, p_J),   entries 0-2, 3-6, 7-9, 10-13.
//
// Every vector a joint equation uses is A(p) w for a constant body vector w (a marker's
// axis), R + A(p) s (a marker's point) or a constant global axis. With the homogeneous
// quadratic A(p) of Quat.Matrix, each component of A(p) w is a quadratic form
//
//	(A(p) w)_k = pᵀ S_k(w) p,   ∂/∂p = 2 S_k p,   ∂²/∂p² = 2 S_k,
//
// with constant symmetric 4×4 matrices S_k(w) computed once at assembly. So the Hessian of
// a dot product c = aᵀb of two such vectors is exact and cheap:
//
//	∇c = J_aᵀ b + J_bᵀ a,   ∇²c = J_aᵀ J_b + J_bᵀ J_a + Σ_k (b_k ∇²a_k + a_k ∇²b_k).

// quadForm holds S_k(w), k = 0, 1, 2, for one body vector w.
type quadForm [3][4][4]float64

// newQuadForm computes S_k(w) by polarization of the quadratic p ↦ A(p) w, which is exact:
// S_aa = Q(e_a), S_ab = (Q(e_a + e_b) − Q(e_a) − Q(e_b))/2.
func newQuadForm(w Vec3) *quadForm {
	var s quadForm
	unit := func(a int) Quat {
		var p Quat
		p[a] = 1
		return p
	}
	for a := range 4 {
		qa := unit(a).Rotate(w)
		for k := range 3 {
			s[k][a][a] = qa[k]
		}
		for b := a + 1; b < 4; b++ {
			pab := unit(a)
			pab[b] = 1
			qab := pab.Rotate(w)
			qb := unit(b).Rotate(w)
			for k := range 3 {
				s[k][a][b] = (qab[k] - qa[k] - qb[k]) / 2
				s[k][b][a] = s[k][a][b]
			}
		}
	}
	return &s
}

// apply returns (pᵀS_k p)_k and the 3×4 Jacobian 2 S_k p.
func (s *quadForm) apply(p *[4]float64) (val Vec3, jac [3][4]float64) {
	for k := range 3 {
		for a := range 4 {
			sp := rowDot(&s[k][a], p)
			jac[k][a] = 2 * sp
			val[k] += sp * p[a]
		}
	}
	return val, jac
}

// applyVal returns (pᵀS_k p)_k as apply does, without the Jacobian.
func (s *quadForm) applyVal(p *[4]float64) (val Vec3) {
	for k := range 3 {
		for a := range 4 {
			val[k] += rowDot(&s[k][a], p) * p[a]
		}
	}
	return val
}

// rowDot returns Σ_b r[b] p[b], summed from +0 in the order of b as a loop would (the same
// bits): written out, the pair kinematics' most frequent operation costs half the
// instructions of the loop.
func rowDot(r, p *[4]float64) float64 {
	sp := 0.0
	sp += r[0] * p[0]
	sp += r[1] * p[1]
	sp += r[2] * p[2]
	sp += r[3] * p[3]
	return sp
}

// vecKind names the vectors of a pair.
type vecKind int

const (
	vXI vecKind = iota // axes of marker I
	vYI
	vZI
	vXJ // axes of marker J
	vYJ
	vZJ
	vD  // d = r_J − r_I
	vE0 // global axes
	vE1
	vE2
	numVec
)

// markerFrame is a marker resolved at assembly: its point and axes in body coordinates
// with their quadratic forms.
type markerFrame struct {
	s    Vec3
	axes [3]Vec3 // x, y, z in body axes
	qs   *quadForm
	qa   [3]*quadForm
}

// pairRef is a pair of markers resolved at assembly: their frames and the column of q of
// each of the 14 entries of P (−1 when fixed: the ground).
type pairRef struct {
	bi, bj BodyID
	mi, mj *markerFrame
	col    [14]int
	rows   vecMask // the vectors its constraint rows read (set at assembly)
}

// vexp is a vector of a pair at one q with its Jacobian; its Hessian is 2·wi·S(qi) in the
// p_I block plus 2·wj·S(qj) in the p_J block.
type vexp struct {
	val    Vec3
	jac    [3][14]float64
	qi, qj *quadForm
	wi, wj float64
	// cols lists the columns where jac can be nonzero (one of the tables below); nil for
	// a constant vector, whose jac is zero (addDot relies on it).
	cols []int
}

// Column tables of vexp.cols: an axis of I depends on p_I only, one of J on p_J, d on all.
var (
	colsI   = [...]int{3, 4, 5, 6}
	colsJ   = [...]int{10, 11, 12, 13}
	colsAll = [...]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}
)

// pairKin is the kinematics of a pair at one q.
type pairKin struct {
	v      [numVec]vexp
	pi, pj [4]float64
}

// bodyState reads (R, p) of the body at column c (identity pose for c < 0).
func bodyState(q []float64, c int) (R Vec3, p [4]float64) {
	if c < 0 {
		return Vec3{}, [4]float64{1, 0, 0, 0}
	}
	return Vec3{q[c], q[c+1], q[c+2]}, [4]float64{q[c+3], q[c+4], q[c+5], q[c+6]}
}

// vecMask is a set of the vectors of a pair (bit vecKind).
type vecMask uint16

// allVecs is every vector of a pair.
const allVecs vecMask = 1<<numVec - 1

func (m vecMask) has(v vecKind) bool { return m&(1<<v) != 0 }

// needs returns the vectors the coordinate reads.
func (c *coord) needs() vecMask {
	switch c.kind {
	case coordAngle:
		return 1<<vYI | 1<<vXJ | 1<<vXI
	case coordLength:
		return 1 << vD
	case coordContact:
		return 1<<vE2 | 1<<vD | 1<<vZJ
	}
	var m vecMask
	for _, t := range c.dots[:c.n] {
		m |= 1<<t.a | 1<<t.b
	}
	return m
}

// kin evaluates every vector of the pair at q.
func (pr *pairRef) kin(q []float64, k *pairKin) { pr.kinOf(q, k, allVecs) }

// kinRows evaluates the vectors the pair's constraint rows read (pr.rows): a spherical
// joint's rows read d alone, so the six axes, three quarters of kin's work, are skipped.
func (pr *pairRef) kinRows(q []float64, k *pairKin) { pr.kinOf(q, k, pr.rows) }

// kinValues evaluates the values of the vectors the pair's constraint rows read, without
// their derivatives (g needs none): the values kinRows computes, by the same arithmetic.
func (pr *pairRef) kinValues(q []float64, k *pairKin) {
	need := pr.rows
	ri, pi := bodyState(q, pr.col[0])
	rj, pj := bodyState(q, pr.col[7])
	for a := range 3 {
		if need.has(vXI + vecKind(a)) {
			k.v[vXI+vecKind(a)].val = pr.mi.qa[a].applyVal(&pi)
		}
		if need.has(vXJ + vecKind(a)) {
			k.v[vXJ+vecKind(a)].val = pr.mj.qa[a].applyVal(&pj)
		}
		if need.has(vE0 + vecKind(a)) {
			k.v[vE0+vecKind(a)].val = Vec3{}
			k.v[vE0+vecKind(a)].val[a] = 1
		}
	}
	if need.has(vD) {
		ai, aj := pr.mi.qs.applyVal(&pi), pr.mj.qs.applyVal(&pj)
		for r := range 3 {
			k.v[vD].val[r] = rj[r] + aj[r] - ri[r] - ai[r]
		}
	}
}

// value returns c at the vectors' values: eval's val without the derivatives, by the same
// arithmetic.
func (c *coord) value(k *pairKin) float64 {
	switch c.kind {
	case coordAngle:
		return math.Atan2(k.v[vYI].val.Dot(k.v[vXJ].val), k.v[vXI].val.Dot(k.v[vXJ].val))
	case coordLength:
		return math.Sqrt(k.v[vD].val.Dot(k.v[vD].val))
	case coordContact:
		uz := k.v[vZJ].val[2]
		return k.v[vD].val[2] - c.radius*math.Sqrt(1-uz*uz)
	}
	var v float64
	for _, t := range c.dots[:c.n] {
		v += t.w * k.v[t.a].val.Dot(k.v[t.b].val)
	}
	return v
}

// kinOf evaluates the vectors in need at q; the others keep stale values.
func (pr *pairRef) kinOf(q []float64, k *pairKin, need vecMask) {
	ri, pi := bodyState(q, pr.col[0])
	rj, pj := bodyState(q, pr.col[7])
	k.pi, k.pj = pi, pj
	for a := range 3 {
		var j [3][4]float64
		if need.has(vXI + vecKind(a)) {
			e := &k.v[vXI+vecKind(a)]
			*e = vexp{qi: pr.mi.qa[a], wi: 1, cols: colsI[:]}
			e.val, j = pr.mi.qa[a].apply(&pi)
			for r := range 3 {
				copy(e.jac[r][3:7], j[r][:])
			}
		}
		if need.has(vXJ + vecKind(a)) {
			e := &k.v[vXJ+vecKind(a)]
			*e = vexp{qj: pr.mj.qa[a], wj: 1, cols: colsJ[:]}
			e.val, j = pr.mj.qa[a].apply(&pj)
			for r := range 3 {
				copy(e.jac[r][10:14], j[r][:])
			}
		}
		if need.has(vE0 + vecKind(a)) {
			e := &k.v[vE0+vecKind(a)]
			*e = vexp{}
			e.val[a] = 1
		}
	}
	if !need.has(vD) {
		return
	}
	ai, ji := pr.mi.qs.apply(&pi)
	aj, jj := pr.mj.qs.apply(&pj)
	d := &k.v[vD]
	*d = vexp{qi: pr.mi.qs, wi: -1, qj: pr.mj.qs, wj: 1, cols: colsAll[:]}
	for r := range 3 {
		d.val[r] = rj[r] + aj[r] - ri[r] - ai[r]
		d.jac[r][r], d.jac[r][7+r] = -1, 1
		for c := range 4 {
			d.jac[r][3+c] = -ji[r][c]
			d.jac[r][10+c] = jj[r][c]
		}
	}
}

// rate returns the pair's part of v in P order (zeros for the ground).
func (pr *pairRef) rate(v []float64) (vp [14]float64) {
	for k, c := range pr.col {
		if c >= 0 {
			vp[k] = v[c]
		}
	}
	return vp
}

// coordEval is a scalar coordinate c(P), its gradient and Hessian.
type coordEval struct {
	val  float64
	grad [14]float64
	hess [14][14]float64
}

// addDot adds w·aᵀb (with gradient and, when hess, Hessian) to e.
func (e *coordEval) addDot(a, b *vexp, w float64, hess bool) {
	e.val += w * a.val.Dot(b.val)
	if b.cols == nil && !hess { // b constant (a base axis e_k, jac zero): ∇(aᵀb) = J_aᵀ b
		for c := range 14 {
			e.grad[c] += w * (a.jac[0][c]*b.val[0] + a.jac[1][c]*b.val[1] + a.jac[2][c]*b.val[2])
		}
		return
	}
	for c := range 14 {
		g := a.jac[0][c]*b.val[0] + b.jac[0][c]*a.val[0] // the loop over k written out
		g += a.jac[1][c]*b.val[1] + b.jac[1][c]*a.val[1]
		g += a.jac[2][c]*b.val[2] + b.jac[2][c]*a.val[2]
		e.grad[c] += w * g
	}
	if hess {
		e.addDotHessian(a, b, w)
	}
}

// addDotHessian adds w·∇²(aᵀb) = w (J_aᵀJ_b + J_bᵀJ_a + Σ_k (b_k ∇²a_k + a_k ∇²b_k)) to e.hess.
func (e *coordEval) addDotHessian(a, b *vexp, w float64) {
	// J_aᵀJ_b + (J_aᵀJ_b)ᵀ over the columns where both can be nonzero.
	for _, r := range a.cols {
		for _, c := range b.cols {
			h := w * (a.jac[0][r]*b.jac[0][c] + a.jac[1][r]*b.jac[1][c] + a.jac[2][r]*b.jac[2][c])
			e.hess[r][c] += h
			e.hess[c][r] += h
		}
	}
	e.addQuad(a, &b.val, w)
	e.addQuad(b, &a.val, w)
}

// addQuad adds w·Σ_k y_k ∇²x_k, the second-derivative part of x's components.
func (e *coordEval) addQuad(x *vexp, y *Vec3, w float64) {
	blocks := [2]struct {
		q   *quadForm
		s   float64
		off int
	}{{x.qi, x.wi, 3}, {x.qj, x.wj, 10}}
	for _, bl := range blocks {
		if bl.q == nil {
			continue
		}
		c := 2 * w * bl.s // as (2 w s) h was grouped
		for a := range 4 {
			hb := (*[4]float64)(e.hess[bl.off+a][bl.off:]) // bounds checked once per row
			for b := range 4 {
				// the sum Σ_k y_k S_k[a][b] written out, in the order of a loop over k
				h := y[0] * bl.q[0][a][b]
				h += y[1] * bl.q[1][a][b]
				h += y[2] * bl.q[2][a][b]
				hb[b] += c * h
			}
		}
	}
}

// quadDot returns xᵀ∇²(aᵀb)x = 2 (J_a x)ᵀ(J_b x) + Σ_k (b_k xᵀ∇²a_k x + a_k xᵀ∇²b_k x)
// without forming the Hessian (γ needs only this directional second derivative).
func quadDot(a, b *vexp, x *[14]float64) float64 {
	var ja, jb Vec3
	for k := range 3 {
		for _, c := range a.cols {
			ja[k] += a.jac[k][c] * x[c]
		}
		for _, c := range b.cols {
			jb[k] += b.jac[k][c] * x[c]
		}
	}
	return 2*ja.Dot(jb) + quadPart(a, &b.val, x) + quadPart(b, &a.val, x)
}

// quadPart returns Σ_k y_k xᵀ∇²v_k x for the quadratic parts of v (2 w S_k in p_I, p_J).
func quadPart(v *vexp, y *Vec3, x *[14]float64) float64 {
	var s float64
	blocks := [2]struct {
		q   *quadForm
		w   float64
		off int
	}{{v.qi, v.wi, 3}, {v.qj, v.wj, 10}}
	for _, bl := range blocks {
		if bl.q == nil {
			continue
		}
		xp := x[bl.off : bl.off+4]
		for k := range 3 {
			if y[k] == 0 {
				continue
			}
			var h float64
			for a := range 4 {
				for b := range 4 {
					h += xp[a] * bl.q[k][a][b] * xp[b]
				}
			}
			s += 2 * bl.w * y[k] * h
		}
	}
	return s
}

// quadAlong returns xᵀ∇²c x for a constraint row's coordinate: one built from dot
// products, or the contact height (coordContact),
//
//	xᵀ∇²c x = xᵀ∇²z_C x + r (u_z/φ · xᵀ∇²u_z x + (∇u_z·x)²/φ³),   φ = √(1 − u_z²).
//
// The angle and the length go through the full Hessian (coordEval).
func (c *coord) quadAlong(k *pairKin, x *[14]float64) float64 {
	if c.kind == coordContact {
		var eu coordEval
		eu.addDot(&k.v[vE2], &k.v[vZJ], 1, false)
		uz, du := eu.val, eu.dotGrad(x)
		phi := math.Sqrt(1 - uz*uz)
		return quadDot(&k.v[vE2], &k.v[vD], x) +
			c.radius*(uz/phi*quadDot(&k.v[vE2], &k.v[vZJ], x)+du*du/(phi*phi*phi))
	}
	var s float64
	for _, t := range c.dots[:c.n] {
		s += t.w * quadDot(&k.v[t.a], &k.v[t.b], x)
	}
	return s
}

// coordKind is the shape of a scalar coordinate.
type coordKind int

const (
	coordDots   coordKind = iota // Σ w_k a_kᵀ b_k (one or two terms)
	coordAngle                   // atan2(y_Iᵀx_J, x_Iᵀx_J): angle from x_I to x_J about z_I
	coordLength                  // |d|
	// coordContact is the height of the lowest point of a disk's rim above the ground
	// plane z = 0, z_C − r √(1 − u_z²), for the pair (ground origin, disk centre): z_C =
	// e_zᵀd the centre's height, u_z = e_zᵀz_J the disk axis's vertical component, r the
	// radius (disk.go). Singular where the disk lies flat (u_z = ±1).
	coordContact
)

type dotTerm struct {
	a, b vecKind
	w    float64
}

// coord is a scalar coordinate of a pair.
type coord struct {
	kind   coordKind
	n      int
	dots   [2]dotTerm
	radius float64 // coordContact: the disk's radius
	// curve holds the entries of P in whose rows and columns ∇²c can be nonzero (the support
	// of coordPattern's Hessian), set at assembly for joint rows (setCurves); 0: unknown.
	curve uint16
}

func dotCoord(a, b vecKind) coord {
	return coord{kind: coordDots, n: 1, dots: [2]dotTerm{{a, b, 1}}}
}

func dot2Coord(a1, b1 vecKind, w1 float64, a2, b2 vecKind, w2 float64) coord {
	return coord{kind: coordDots, n: 2, dots: [2]dotTerm{{a1, b1, w1}, {a2, b2, w2}}}
}

// evalHessian writes ∇²c of coordinate c of k into e.hess (every entry), leaving e.val and
// e.grad as they were: ∂(Gᵀλ)/∂q reads the Hessian alone, which a sum of dot products
// gives without its value and gradient (the same operations as eval's); the other kinds
// need their inner gradients (eval).
func (e *coordEval) evalHessian(c *coord, k *pairKin) {
	if c.kind != coordDots {
		e.eval(c, k, true)
		return
	}
	e.hess = [14][14]float64{}
	for _, t := range c.dots[:c.n] {
		e.addDotHessian(&k.v[t.a], &k.v[t.b], t.w)
	}
}

// eval writes coordinate c of k into e (every entry; the Hessian only when hess).
func (e *coordEval) eval(c *coord, k *pairKin, hess bool) {
	e.val = 0
	e.grad = [14]float64{}
	if hess {
		e.hess = [14][14]float64{}
	}
	switch c.kind {
	case coordDots:
		for _, t := range c.dots[:c.n] {
			e.addDot(&k.v[t.a], &k.v[t.b], t.w, hess)
		}
	case coordAngle:
		// β = atan2(s, c): ∂β/∂s = c/ρ, ∂β/∂c = −s/ρ, ρ = s² + c²; second derivatives
		// β_ss = −2sc/ρ², β_cc = 2sc/ρ², β_sc = (s² − c²)/ρ².
		var es, ec coordEval
		es.addDot(&k.v[vYI], &k.v[vXJ], 1, hess)
		ec.addDot(&k.v[vXI], &k.v[vXJ], 1, hess)
		s, co := es.val, ec.val
		rho := s*s + co*co
		bs, bc := co/rho, -s/rho
		e.val = math.Atan2(s, co)
		for i := range 14 {
			e.grad[i] = bs*es.grad[i] + bc*ec.grad[i]
		}
		if hess {
			bss, bcc, bsc := -2*s*co/(rho*rho), 2*s*co/(rho*rho), (s*s-co*co)/(rho*rho)
			for i := range 14 {
				for j := range 14 {
					e.hess[i][j] = bs*es.hess[i][j] + bc*ec.hess[i][j] +
						bss*es.grad[i]*es.grad[j] + bcc*ec.grad[i]*ec.grad[j] +
						bsc*(es.grad[i]*ec.grad[j]+ec.grad[i]*es.grad[j])
				}
			}
		}
	case coordLength:
		// l = √(dᵀd): ∇l = ∇(dᵀd)/(2l), ∇²l = ∇²(dᵀd)/(2l) − ∇l ∇lᵀ/l (singular at l = 0).
		e.addDot(&k.v[vD], &k.v[vD], 1, hess)
		l := math.Sqrt(e.val)
		e.val = l
		for i := range 14 {
			e.grad[i] /= 2 * l
		}
		if hess {
			for i := range 14 {
				for j := range 14 {
					e.hess[i][j] = e.hess[i][j]/(2*l) - e.grad[i]*e.grad[j]/l
				}
			}
		}
	case coordContact:
		// c = z_C − r φ(u_z), φ = √(1 − u_z²): φ' = −u_z/φ, φ'' = −1/φ³, so
		// ∇c = ∇z_C + r (u_z/φ) ∇u_z and ∇²c = ∇²z_C + r ((u_z/φ) ∇²u_z + ∇u_z ∇u_zᵀ/φ³).
		var eu coordEval
		e.addDot(&k.v[vE2], &k.v[vD], 1, hess)
		eu.addDot(&k.v[vE2], &k.v[vZJ], 1, hess)
		uz := eu.val
		phi := math.Sqrt(1 - uz*uz)
		e.val -= c.radius * phi
		w1, w2 := c.radius*uz/phi, c.radius/(phi*phi*phi)
		for i := range 14 {
			e.grad[i] += w1 * eu.grad[i]
		}
		if hess {
			for i := range 14 {
				for j := range 14 {
					e.hess[i][j] += w1*eu.hess[i][j] + w2*eu.grad[i]*eu.grad[j]
				}
			}
		}
	}
}

// dotGrad returns ∇c · x.
func (e *coordEval) dotGrad(x *[14]float64) float64 {
	var s float64
	for r := range 14 {
		s += e.grad[r] * x[r]
	}
	return s
}
