package planar

import "math"

// kinematics.go: (q; a pair of markers) ⇒ the scalar joint coordinates every constraint
// row and force element is built from, with their gradients and Hessians with respect to
// the six coordinates p = (x_I, y_I, θ_I, x_J, y_J, θ_J) of the two bodies.
//
// A marker point is r = R + A(θ) s with A the rotation by θ; with a = A(θ) s and
// b = ∂a/∂θ = (−a_y, a_x), ∂²a/∂θ² = −a. The separation d = r_J − r_I has
//
//	∂d/∂p = D = [−I, −b_I, I, b_J],   ∂²d/∂θ_I² = a_I,   ∂²d/∂θ_J² = −a_J,
//
// and the axes of marker I, u_I = (cos α_I, sin α_I), n_I = (−sin α_I, cos α_I) with
// α_I = θ_I + φ_I, have ∂u_I/∂θ_I = n_I, ∂n_I/∂θ_I = −u_I.

// pairRef is a pair of markers resolved at assembly: bodies, points and angles in the body
// frames, and the columns of q of each body (−1 for the ground).
type pairRef struct {
	bi, bj     BodyID
	si, sj     Vec
	phiI, phiJ float64
	col        [6]int // column of q of each of p's six entries, −1 when fixed (ground)
}

// pairKin is the kinematics of a pair at one q.
type pairKin struct {
	ai, bi, aj, bj Vec
	d, u, n        Vec     // separation, axes of marker I
	alphaI, alphaJ float64 // absolute angles of the markers' x axes
}

type coordKind int

const (
	coordDx     coordKind = iota // d_x
	coordDy                      // d_y
	coordAlong                   // u_I·d
	coordNormal                  // n_I·d
	coordAngle                   // α_J − α_I
	coordDist2                   // d·d/2
	coordLength                  // |d|
)

// coordEval is a scalar coordinate c(p), its gradient and Hessian.
type coordEval struct {
	val  float64
	grad [6]float64
	hess [6][6]float64
}

// kin writes the whole kinematics of the pair at q into k.
func (pr *pairRef) kin(q []float64, k *pairKin) {
	var tr bodyTrig
	pr.kinPoints(q, k, &tr)
	k.axes()
}

// kinPoints writes the marker offsets, the separation and the markers' angles into k, not
// the axes u, n of marker I (axes), which only the along and normal coordinates read. The
// bodies' sines and cosines come through tr.
func (pr *pairRef) kinPoints(q []float64, k *pairKin, tr *bodyTrig) {
	var ri, rj Vec
	var thI, thJ float64
	if c := pr.col[0]; c >= 0 {
		ri, thI = Vec{q[c], q[c+1]}, q[c+2]
	}
	if c := pr.col[3]; c >= 0 {
		rj, thJ = Vec{q[c], q[c+1]}, q[c+2]
	}
	sn, cs := tr.sincos(pr.col[0], thI)
	k.ai = rotateSC(pr.si, sn, cs)
	sn, cs = tr.sincos(pr.col[3], thJ)
	k.aj = rotateSC(pr.sj, sn, cs)
	k.bi = Vec{-k.ai[1], k.ai[0]}
	k.bj = Vec{-k.aj[1], k.aj[0]}
	k.d = Vec{rj[0] + k.aj[0] - ri[0] - k.ai[0], rj[1] + k.aj[1] - ri[1] - k.ai[1]}
	k.alphaI, k.alphaJ = thI+pr.phiI, thJ+pr.phiJ
}

// bodyTrig holds sin θ and cos θ of the body asked for last in one evaluation (at one q),
// by its column: on a chain pair p's body J is pair p+1's body I, so the rows of
// consecutive pairs compute each body's sine and cosine once instead of twice (the same
// numbers: math.Sincos of the same angle).
type bodyTrig struct {
	key    int // column + 2 of the body held (1: the ground, whose θ is 0); 0: none
	sn, cs float64
}

// sincos returns sin θ, cos θ of the body at column col (θ = q[col+2]; the ground's θ = 0
// when col < 0).
func (tr *bodyTrig) sincos(col int, th float64) (sn, cs float64) {
	if tr.key != col+2 {
		tr.sn, tr.cs = math.Sincos(th)
		tr.key = col + 2
	}
	return tr.sn, tr.cs
}

// axes writes the axes u_I, n_I of marker I from its angle α_I (kinPoints).
func (k *pairKin) axes() {
	s, c := math.Sincos(k.alphaI)
	k.u, k.n = Vec{c, s}, Vec{-s, c}
}

// hessianSupport returns the entries of p in whose rows and columns ∇²c of coordinate
// kind can be nonzero (eval): θ_I and θ_J for d_x, d_y; none for the angle, which is
// linear; all six for the others. Sums over the Hessian restricted to it leave out exact
// zeros only.
func hessianSupport(kind coordKind) uint16 {
	switch kind {
	case coordDx, coordDy:
		return 1<<2 | 1<<5
	case coordAngle:
		return 0
	}
	return 1<<6 - 1
}

// needsAxes reports whether coordinate kind reads the axes of marker I (pairKin.axes).
func needsAxes(kind coordKind) bool { return kind == coordAlong || kind == coordNormal }

// pairCache holds the kinematics of the pair evaluated last in one evaluation of the rows,
// so that the rows of a joint, which share its pair (a revolute joint's x and y rows),
// compute the kinematics once: the same numbers as kin per row, a third of the sines and
// cosines on a chain of revolute joints (no axes needed).
type pairCache struct {
	pair int // index + 1 of the pair held in k; 0: none
	axes bool
	k    pairKin
	tr   bodyTrig
}

// at returns the kinematics of pair p at q with what coordinate kind reads.
func (c *pairCache) at(s *System, p int, kind coordKind, q []float64) *pairKin {
	if c.pair != p+1 {
		s.pairs[p].kinPoints(q, &c.k, &c.tr)
		c.pair, c.axes = p+1, false
	}
	if !c.axes && needsAxes(kind) {
		c.k.axes()
		c.axes = true
	}
	return &c.k
}

// rate returns the pair's part of v in p order (zeros for the ground).
func (pr *pairRef) rate(v []float64) (vp [6]float64) {
	for k, c := range pr.col {
		if c >= 0 {
			vp[k] = v[c]
		}
	}
	return vp
}

func rotate(s Vec, th float64) Vec {
	sn, cs := math.Sincos(th)
	return Vec{cs*s[0] - sn*s[1], sn*s[0] + cs*s[1]}
}

func dot(a, b Vec) float64 { return a[0]*b[0] + a[1]*b[1] }

// eval writes coordinate kind of k into e (every entry): value (coordValue), gradient
// (coordGrad) and Hessian.
func (e *coordEval) eval(kind coordKind, k *pairKin) {
	*e = coordEval{}
	e.val = coordValue(kind, k)
	coordGrad(kind, k, &e.grad)
	switch kind {
	case coordDx, coordDy:
		c := int(kind - coordDx)
		e.hess[2][2], e.hess[5][5] = k.ai[c], -k.aj[c]
	case coordAlong, coordNormal:
		w, dw := markerAxis(kind, k)
		// ∂²w/∂θ_I² = −w, ∂d/∂θ_I = −b_I, ∂b/∂θ = −a.
		e.hess[2][0], e.hess[2][1] = -dw[0], -dw[1]
		e.hess[3][2], e.hess[4][2] = dw[0], dw[1]
		e.hess[2][2] = -dot(w, k.d) - 2*dot(dw, k.bi) + dot(w, k.ai)
		e.hess[5][2] = dot(dw, k.bj)
		e.hess[5][5] = -dot(w, k.aj)
		symmetrize(&e.hess)
	case coordDist2, coordLength:
		// H = DᵀD + Σ_c d_c ∂²d_c/∂p².
		d := k.d
		cols := [6]Vec{{-1, 0}, {0, -1}, {-k.bi[0], -k.bi[1]}, {1, 0}, {0, 1}, k.bj}
		for r := range 6 {
			for c := range 6 {
				e.hess[r][c] = dot(cols[r], cols[c])
			}
		}
		e.hess[2][2] += dot(d, k.ai)
		e.hess[5][5] -= dot(d, k.aj)
		if kind == coordLength {
			// l = √(2c): ∂²l = ∂²c/l − ∂l ∂lᵀ/l (singular at l = 0), ∂l = e.grad.
			l := e.val
			for r := range 6 {
				for c := range 6 {
					e.hess[r][c] = (e.hess[r][c] - e.grad[r]*e.grad[c]) / l
				}
			}
		}
	}
}

// markerAxis returns the axis w of marker I that coordinate kind (along or normal)
// projects d on, and ∂w/∂θ_I.
func markerAxis(kind coordKind, k *pairKin) (w, dw Vec) {
	if kind == coordNormal {
		return k.n, Vec{-k.u[0], -k.u[1]}
	}
	return k.u, k.n
}

// coordValue returns the value of coordinate kind of k (coordEval.val of eval).
func coordValue(kind coordKind, k *pairKin) float64 {
	switch kind {
	case coordDx, coordDy:
		return k.d[kind-coordDx]
	case coordAlong, coordNormal:
		w, _ := markerAxis(kind, k)
		return dot(w, k.d)
	case coordAngle:
		return k.alphaJ - k.alphaI
	case coordDist2:
		return dot(k.d, k.d) / 2
	case coordLength:
		return math.Sqrt(2 * (dot(k.d, k.d) / 2))
	}
	return 0
}

// coordGrad writes the gradient of coordinate kind of k into g (coordEval.grad of eval).
func coordGrad(kind coordKind, k *pairKin, g *[6]float64) {
	*g = [6]float64{}
	switch kind {
	case coordDx, coordDy:
		c := int(kind - coordDx)
		g[c], g[3+c] = -1, 1
		g[2], g[5] = -k.bi[c], k.bj[c]
	case coordAlong, coordNormal:
		w, dw := markerAxis(kind, k)
		*g = [6]float64{-w[0], -w[1], dot(dw, k.d) - dot(w, k.bi), w[0], w[1], dot(w, k.bj)}
	case coordAngle:
		g[2], g[5] = -1, 1
	case coordDist2, coordLength:
		d := k.d
		*g = [6]float64{-d[0], -d[1], -dot(d, k.bi), d[0], d[1], dot(d, k.bj)}
		if kind == coordLength {
			// l = √(2c): ∂l = ∂c/l.
			l := math.Sqrt(2 * (dot(d, d) / 2))
			for r := range 6 {
				g[r] /= l
			}
		}
	}
}

// symmetrize copies the lower triangle of h into the upper one.
func symmetrize(h *[6][6]float64) {
	for r := range 6 {
		for c := r + 1; c < 6; c++ {
			h[r][c] = h[c][r]
		}
	}
}

// quad returns xᵀ H x.
func (e *coordEval) quad(x *[6]float64) float64 {
	var s float64
	for r := range 6 {
		if x[r] == 0 {
			continue
		}
		var hr float64
		for c := range 6 {
			hr += e.hess[r][c] * x[c]
		}
		s += x[r] * hr
	}
	return s
}

// quadOf returns vpᵀ ∇²c vp for coordinate kind at k, the number e.eval then e.quad give
// (e is scratch). For the separations d_x and d_y (a revolute joint's rows), whose Hessian
// is the two diagonal entries at θ_I and θ_J, it multiplies those alone: quad's other
// products are zeros, which leave its sums unchanged, so the result is the same to the bit
// (up to the sign of a zero result) for finite vp, without forming the value, the gradient
// and the 6×6 Hessian: γ of the 1000-bar chain 1.87 → 0.79 M instructions.
func quadOf(kind coordKind, k *pairKin, vp *[6]float64, e *coordEval) float64 {
	if kind != coordDx && kind != coordDy {
		e.eval(kind, k)
		return e.quad(vp)
	}
	c := kind - coordDx
	var s float64
	if vp[2] != 0 {
		s += vp[2] * (k.ai[c] * vp[2])
	}
	if vp[5] != 0 {
		s += vp[5] * (-k.aj[c] * vp[5])
	}
	return s
}

// dotGrad returns ∇c · x.
func (e *coordEval) dotGrad(x *[6]float64) float64 {
	var s float64
	for r := range 6 {
		s += e.grad[r] * x[r]
	}
	return s
}

// quadGrad writes into g the gradient with respect to p of Q(p) = vpᵀ ∇²c(p) vp for a
// fixed pair velocity vp: the velocity-squared part of c̈, whose derivative is the
// constraint part of ∂γ/∂q (seed 000, eqs. 24, 33). Q is written through the velocity
// kinematics instead of third derivatives: with ω_I = vp[2], ω_J = vp[5],
//
//	ḋ = ṙ_J − ṙ_I + ω_J b_J − ω_I b_I,   d̈₀ = ω_I² a_I − ω_J² a_J   (c̈ with zero accelerations),
//
// Q is d̈₀ (d_x, d_y), −ω_I² w·d + 2ω_I w'·ḋ + w·d̈₀ (w = u_I or n_I, w' = ∂w/∂θ_I), 0 (angle),
// ḋ·ḋ + d·d̈₀ (d·d/2), and (Q_c − ċ²/l²)/l with ċ = d·ḋ (|d|); and ∂ḋ/∂θ_I = ω_I a_I,
// ∂ḋ/∂θ_J = −ω_J a_J, ∂d̈₀/∂θ_I = ω_I² b_I, ∂d̈₀/∂θ_J = −ω_J² b_J.
func quadGrad(kind coordKind, k *pairKin, vp *[6]float64, g *[6]float64) {
	*g = [6]float64{}
	wI, wJ := vp[2], vp[5]
	dd := Vec{vp[3] - vp[0] + wJ*k.bj[0] - wI*k.bi[0], vp[4] - vp[1] + wJ*k.bj[1] - wI*k.bi[1]}
	d0 := Vec{wI*wI*k.ai[0] - wJ*wJ*k.aj[0], wI*wI*k.ai[1] - wJ*wJ*k.aj[1]}
	ddI := Vec{wI * k.ai[0], wI * k.ai[1]}           // ∂ḋ/∂θ_I
	ddJ := Vec{-wJ * k.aj[0], -wJ * k.aj[1]}         // ∂ḋ/∂θ_J
	d0I := Vec{wI * wI * k.bi[0], wI * wI * k.bi[1]} // ∂d̈₀/∂θ_I
	d0J := Vec{-wJ * wJ * k.bj[0], -wJ * wJ * k.bj[1]}
	// through d alone: ∂d/∂p = [−e_x, −e_y, −b_I, e_x, e_y, b_J], applied to a vector x
	throughD := func(x Vec, scale float64) {
		g[0] -= scale * x[0]
		g[1] -= scale * x[1]
		g[2] -= scale * dot(x, k.bi)
		g[3] += scale * x[0]
		g[4] += scale * x[1]
		g[5] += scale * dot(x, k.bj)
	}
	switch kind {
	case coordDx, coordDy:
		c := int(kind - coordDx)
		g[2], g[5] = d0I[c], d0J[c]
	case coordAlong, coordNormal:
		w, dw := k.u, k.n
		if kind == coordNormal {
			w, dw = k.n, Vec{-k.u[0], -k.u[1]}
		}
		throughD(w, -wI*wI)
		g[2] += -wI*wI*dot(dw, k.d) + 2*wI*(-dot(w, dd)+dot(dw, ddI)) + dot(dw, d0) + dot(w, d0I)
		g[5] += 2*wI*dot(dw, ddJ) + dot(w, d0J)
	case coordAngle:
	case coordDist2, coordLength:
		throughD(d0, 1)
		g[2] += 2*dot(dd, ddI) + dot(k.d, d0I)
		g[5] += 2*dot(dd, ddJ) + dot(k.d, d0J)
		if kind == coordLength {
			// Q_l = Q_c/l − ċ²/l³, l² = d·d, ∇l = ∇c/l, ∇ċ = Dᵀḋ + (∂ḋ/∂p)ᵀd.
			l2 := dot(k.d, k.d)
			l := math.Sqrt(l2)
			qc := dot(dd, dd) + dot(k.d, d0)
			cd := dot(k.d, dd)
			var gc, gcd [6]float64
			gc = [6]float64{-k.d[0], -k.d[1], -dot(k.d, k.bi), k.d[0], k.d[1], dot(k.d, k.bj)}
			gcd = [6]float64{-dd[0], -dd[1], -dot(dd, k.bi) + dot(k.d, ddI), dd[0], dd[1], dot(dd, k.bj) + dot(k.d, ddJ)}
			for r := range 6 {
				gl := gc[r] / l
				g[r] = g[r]/l - qc*gl/l2 - 2*cd*gcd[r]/(l2*l) + 3*cd*cd*gl/(l2*l2)
			}
		}
	}
}
