package natural

import "math"

// kinematics.go: (q; a pair of rigid elements) ⇒ the scalar coordinates every constraint
// row and force element is built from, with gradients and Hessians over the pair's eight
// point coordinates p = (r_iA, r_jA, r_iB, r_jB), the basic points of elements A and B.
//
// A point of an element at s in its body frame is, with e = r_j − r_i and the complex
// number z = (s − s_i)/(s_j − s_i) written as the matrix Z = [a −b; b a],
//
//	r = r_i + Z e = (I − Z) r_i + Z r_j,
//
// and an axis at angle φ in the body frame is u = Z_u e with z_u = e^{iφ}/(s_j − s_i): both
// linear in p (L p with a constant 2×8 map L), exact wherever |e| = |s_j − s_i|, which the
// element's rigid row keeps. Every coordinate used in a constraint row is then a bilinear
// form c = (L_a p)ᵀ K (L_b p) with constant Hessian L_aᵀ K L_b + L_bᵀ Kᵀ L_a:
//
//	d = r_J − r_I,  d_x, d_y (linear),  u_I·d,  n_I·d  (n = R u, R the rotation by 90°),
//	u_I × u_J = sin β,  u_I·u_J = cos β,  d·d/2,
//
// and the force elements add |d| and the wrapped angle δ = atan2(sin(β−β₀), cos(β−β₀)).

// lin is a constant linear map from p to a planar vector.
type lin [2][8]float64

// pointMap returns the map p ⇒ r of the point with complex coordinate z on side 0 (A) or 1
// (B) of a pair.
func pointMap(side int, z complex128) (l lin) {
	a, b := real(z), imag(z)
	o := 4 * side
	l[0][o], l[0][o+1], l[0][o+2], l[0][o+3] = 1-a, b, a, -b
	l[1][o], l[1][o+1], l[1][o+2], l[1][o+3] = -b, 1-a, b, a
	return l
}

// axisMap returns the map p ⇒ u = Z_u e of an axis with complex coordinate z.
func axisMap(side int, z complex128) (l lin) {
	a, b := real(z), imag(z)
	o := 4 * side
	l[0][o], l[0][o+1], l[0][o+2], l[0][o+3] = -a, b, a, -b
	l[1][o], l[1][o+1], l[1][o+2], l[1][o+3] = -b, -a, b, a
	return l
}

// rot90 returns R L: the map of the axis turned by 90° (n from u).
func (l *lin) rot90() (out lin) {
	for k := range 8 {
		out[0][k], out[1][k] = -l[1][k], l[0][k]
	}
	return out
}

// sub returns l − m.
func (l *lin) sub(m *lin) (out lin) {
	for r := range 2 {
		for k := range 8 {
			out[r][k] = l[r][k] - m[r][k]
		}
	}
	return out
}

// apply returns L p.
func (l *lin) apply(p *[8]float64) Vec {
	var v Vec
	for r := range 2 {
		for k, x := range p {
			v[r] += l[r][k] * x
		}
	}
	return v
}

type coordKind int

const (
	coordDx     coordKind = iota // d_x
	coordDy                      // d_y
	coordAlong                   // u_I·d
	coordNormal                  // n_I·d
	coordCross                   // u_I × u_J = sin β
	coordDot                     // u_I·u_J = cos β
	coordDist2                   // d·d/2
	coordLength                  // |d|
	coordAngle                   // δ = β − ref wrapped into (−π, π]
)

// coord is a scalar coordinate of a pair; ref is the reference angle of coordAngle.
type coord struct {
	kind coordKind
	ref  float64
}

// coordEval is a scalar coordinate c(p), its gradient and (when asked for) its Hessian.
type coordEval struct {
	val  float64
	grad [8]float64
	hess [8][8]float64
}

// pairRef is a pair of rigid elements resolved at assembly: the columns of q of p's entries
// (−1 for a fixed point, whose value is in fixed) and the maps of markers I (side A) and J
// (side B).
type pairRef struct {
	fa, fb int // frames (rigid elements) of sides A and B
	col    [8]int
	fixed  [8]float64
	rI, uI lin
	rJ, uJ lin
	d, nI  lin // rJ − rI and R uI
}

// values returns p at q.
func (pr *pairRef) values(q []float64) (p [8]float64) {
	for k, c := range pr.col {
		if c >= 0 {
			p[k] = q[c]
		} else {
			p[k] = pr.fixed[k]
		}
	}
	return p
}

// rate returns the pair's part of v (zero on fixed entries).
func (pr *pairRef) rate(v []float64) (vp [8]float64) {
	for k, c := range pr.col {
		if c >= 0 {
			vp[k] = v[c]
		}
	}
	return vp
}

var (
	kIdentity = [2][2]float64{{1, 0}, {0, 1}}
	kHalf     = [2][2]float64{{0.5, 0}, {0, 0.5}}
	kCross    = [2][2]float64{{0, 1}, {-1, 0}} // aᵀ K b = a × b
)

// bilinear writes c = (L_a p)ᵀ K (L_b p) into e.
func (e *coordEval) bilinear(la, lb *lin, K *[2][2]float64, p *[8]float64, hess bool) {
	a, b := la.apply(p), lb.apply(p)
	kb := Vec{K[0][0]*b[0] + K[0][1]*b[1], K[1][0]*b[0] + K[1][1]*b[1]}
	kta := Vec{K[0][0]*a[0] + K[1][0]*a[1], K[0][1]*a[0] + K[1][1]*a[1]}
	e.val = a[0]*kb[0] + a[1]*kb[1]
	for m := range 8 {
		e.grad[m] = la[0][m]*kb[0] + la[1][m]*kb[1] + lb[0][m]*kta[0] + lb[1][m]*kta[1]
	}
	if !hess {
		return
	}
	// K L_b and Kᵀ L_a, then L_aᵀ (K L_b) + L_bᵀ (Kᵀ L_a).
	var klb, ktla lin
	for r := range 2 {
		for n := range 8 {
			klb[r][n] = K[r][0]*lb[0][n] + K[r][1]*lb[1][n]
			ktla[r][n] = K[0][r]*la[0][n] + K[1][r]*la[1][n]
		}
	}
	for m := range 8 {
		for n := range 8 {
			e.hess[m][n] = la[0][m]*klb[0][n] + la[1][m]*klb[1][n] + lb[0][m]*ktla[0][n] + lb[1][m]*ktla[1][n]
		}
	}
}

// linear writes c = row r of L p into e (zero Hessian).
func (e *coordEval) linear(l *lin, r int, p *[8]float64) {
	v := l.apply(p)
	e.val = v[r]
	e.grad = l[r]
}

// eval writes coordinate c of pair pr at p into e (every entry; the Hessian only when hess).
func (e *coordEval) eval(c coord, pr *pairRef, p *[8]float64, hess bool) {
	*e = coordEval{}
	switch c.kind {
	case coordDx, coordDy:
		e.linear(&pr.d, int(c.kind-coordDx), p)
	case coordAlong:
		e.bilinear(&pr.uI, &pr.d, &kIdentity, p, hess)
	case coordNormal:
		e.bilinear(&pr.nI, &pr.d, &kIdentity, p, hess)
	case coordCross:
		e.bilinear(&pr.uI, &pr.uJ, &kCross, p, hess)
	case coordDot:
		e.bilinear(&pr.uI, &pr.uJ, &kIdentity, p, hess)
	case coordDist2:
		e.bilinear(&pr.d, &pr.d, &kHalf, p, hess)
	case coordLength:
		e.bilinear(&pr.d, &pr.d, &kHalf, p, true)
		e.length(hess)
	case coordAngle:
		e.angle(c.ref, pr, p, hess)
	}
}

// length turns e from d·d/2 into |d| = √(2c): ∇l = ∇c/l, ∇²l = (∇²c − ∇l ∇lᵀ)/l
// (singular at l = 0).
func (e *coordEval) length(hess bool) {
	l := math.Sqrt(2 * e.val)
	e.val = l
	for r := range 8 {
		e.grad[r] /= l
	}
	if !hess {
		return
	}
	for r := range 8 {
		for c := range 8 {
			e.hess[r][c] = (e.hess[r][c] - e.grad[r]*e.grad[c]) / l
		}
	}
}

// angle writes δ = atan2(s, c) with s = sin(β − ref), c = cos(β − ref), both bilinear:
//
//	∇δ = (c ∇s − s ∇c)/ρ,  ∇²δ = (∇s ∇cᵀ − ∇c ∇sᵀ + c ∇²s − s ∇²c)/ρ − ∇δ ∇ρᵀ/ρ,
//
// ρ = s² + c² (1 on the rigid rows), symmetrized.
func (e *coordEval) angle(ref float64, pr *pairRef, p *[8]float64, hess bool) {
	var cr, dt coordEval
	cr.bilinear(&pr.uI, &pr.uJ, &kCross, p, hess)
	dt.bilinear(&pr.uI, &pr.uJ, &kIdentity, p, hess)
	sr, cs := math.Sincos(ref)
	var s, c coordEval // sin(β − ref) = sin β cos ref − cos β sin ref, cos(β − ref) = cos β cos ref + sin β sin ref
	s.val, c.val = cr.val*cs-dt.val*sr, dt.val*cs+cr.val*sr
	for m := range 8 {
		s.grad[m], c.grad[m] = cr.grad[m]*cs-dt.grad[m]*sr, dt.grad[m]*cs+cr.grad[m]*sr
		if hess {
			for n := range 8 {
				s.hess[m][n] = cr.hess[m][n]*cs - dt.hess[m][n]*sr
				c.hess[m][n] = dt.hess[m][n]*cs + cr.hess[m][n]*sr
			}
		}
	}
	rho := s.val*s.val + c.val*c.val
	e.val = math.Atan2(s.val, c.val)
	var grho [8]float64
	for m := range 8 {
		e.grad[m] = (c.val*s.grad[m] - s.val*c.grad[m]) / rho
		grho[m] = 2 * (s.val*s.grad[m] + c.val*c.grad[m])
	}
	if !hess {
		return
	}
	for m := range 8 {
		for n := range 8 {
			e.hess[m][n] = (s.grad[m]*c.grad[n]-c.grad[m]*s.grad[n]+c.val*s.hess[m][n]-s.val*c.hess[m][n])/rho - e.grad[m]*grho[n]/rho
		}
	}
	for m := range 8 {
		for n := m + 1; n < 8; n++ {
			h := (e.hess[m][n] + e.hess[n][m]) / 2
			e.hess[m][n], e.hess[n][m] = h, h
		}
	}
}

// quad returns xᵀ H x.
func (e *coordEval) quad(x *[8]float64) float64 {
	var s float64
	for r := range 8 {
		if x[r] == 0 {
			continue
		}
		var hr float64
		for c := range 8 {
			hr += e.hess[r][c] * x[c]
		}
		s += x[r] * hr
	}
	return s
}

// dotGrad returns ∇c · x.
func (e *coordEval) dotGrad(x *[8]float64) float64 {
	var s float64
	for r := range 8 {
		s += e.grad[r] * x[r]
	}
	return s
}

func dot(a, b Vec) float64 { return a[0]*b[0] + a[1]*b[1] }

func cross(a, b Vec) float64 { return a[0]*b[1] - a[1]*b[0] }

func rotate(s Vec, th float64) Vec {
	sn, cs := math.Sincos(th)
	return Vec{cs*s[0] - sn*s[1], sn*s[0] + cs*s[1]}
}

func cplx(v Vec) complex128 { return complex(v[0], v[1]) }
