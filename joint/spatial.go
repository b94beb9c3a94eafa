package joint

import "math"

// vec3 is a 3-vector and mat3 a 3×3 matrix stored by rows.
type (
	vec3 [3]float64
	mat3 [3][3]float64
	// sv is a spatial vector at the world origin: motion [ω; v_O] or force [n_O; f].
	sv [6]float64
	// inertia6 is a symmetric 6×6 spatial inertia at the world origin (eq. 48 of seed 002
	// in Plücker form): [J_O  m c̃; m c̃ᵀ  m 1].
	inertia6 [6]sv
)

func (a vec3) add(b vec3) vec3      { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec3) sub(b vec3) vec3      { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec3) scale(s float64) vec3 { return vec3{s * a[0], s * a[1], s * a[2]} }
func (a vec3) dot(b vec3) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec3) cross(b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func (m mat3) mulv(v vec3) vec3 {
	return vec3{
		m[0][0]*v[0] + m[0][1]*v[1] + m[0][2]*v[2],
		m[1][0]*v[0] + m[1][1]*v[1] + m[1][2]*v[2],
		m[2][0]*v[0] + m[2][1]*v[1] + m[2][2]*v[2],
	}
}

// mul is the product m n, written out (Go does not unroll loops, and the position pass
// of the recursions runs it for every frame at every new q).
func (m *mat3) mul(n *mat3) mat3 {
	return mat3{
		{m[0][0]*n[0][0] + m[0][1]*n[1][0] + m[0][2]*n[2][0], m[0][0]*n[0][1] + m[0][1]*n[1][1] + m[0][2]*n[2][1], m[0][0]*n[0][2] + m[0][1]*n[1][2] + m[0][2]*n[2][2]},
		{m[1][0]*n[0][0] + m[1][1]*n[1][0] + m[1][2]*n[2][0], m[1][0]*n[0][1] + m[1][1]*n[1][1] + m[1][2]*n[2][1], m[1][0]*n[0][2] + m[1][1]*n[1][2] + m[1][2]*n[2][2]},
		{m[2][0]*n[0][0] + m[2][1]*n[1][0] + m[2][2]*n[2][0], m[2][0]*n[0][1] + m[2][1]*n[1][1] + m[2][2]*n[2][1], m[2][0]*n[0][2] + m[2][1]*n[1][2] + m[2][2]*n[2][2]},
	}
}

// column is column k of m.
func (m *mat3) column(k int) vec3 { return vec3{m[0][k], m[1][k], m[2][k]} }

// turnTo sets r to m Rot(e_k, angle): columns a and b after k (cyclically) turn by angle
// in their plane, column k stays. Rodrigues' matrix for a coordinate axis gives the same
// up to rounding (its diagonal entry c + (1 − c) can miss 1 by an ulp). Written out for
// each k on the arrays in place (the position pass runs it for every frame at every q).
func (m *mat3) turnTo(r *mat3, k int, angle float64) {
	s, c := sincos(angle)
	m0, m1, m2 := &m[0], &m[1], &m[2]
	r0, r1, r2 := &r[0], &r[1], &r[2]
	switch k {
	case 0:
		a0, a1, a2, b0, b1, b2 := m0[1], m1[1], m2[1], m0[2], m1[2], m2[2]
		r0[0], r0[1], r0[2] = m0[0], c*a0+s*b0, c*b0-s*a0
		r1[0], r1[1], r1[2] = m1[0], c*a1+s*b1, c*b1-s*a1
		r2[0], r2[1], r2[2] = m2[0], c*a2+s*b2, c*b2-s*a2
	case 1:
		a0, a1, a2, b0, b1, b2 := m0[2], m1[2], m2[2], m0[0], m1[0], m2[0]
		r0[0], r0[1], r0[2] = c*b0-s*a0, m0[1], c*a0+s*b0
		r1[0], r1[1], r1[2] = c*b1-s*a1, m1[1], c*a1+s*b1
		r2[0], r2[1], r2[2] = c*b2-s*a2, m2[1], c*a2+s*b2
	default:
		a0, a1, a2, b0, b1, b2 := m0[0], m1[0], m2[0], m0[1], m1[1], m2[1]
		r0[0], r0[1], r0[2] = c*a0+s*b0, c*b0-s*a0, m0[2]
		r1[0], r1[1], r1[2] = c*a1+s*b1, c*b1-s*a1, m1[2]
		r2[0], r2[1], r2[2] = c*a2+s*b2, c*b2-s*a2, m2[2]
	}
}

func identity3() mat3 { return mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

// axisRotation is Rodrigues' formula: the rotation by angle about the unit vector u.
func axisRotation(u vec3, angle float64) mat3 {
	s, c := sincos(angle)
	k := 1 - c
	return mat3{
		{c + k*u[0]*u[0], k*u[0]*u[1] - s*u[2], k*u[0]*u[2] + s*u[1]},
		{k*u[1]*u[0] + s*u[2], c + k*u[1]*u[1], k*u[1]*u[2] - s*u[0]},
		{k*u[2]*u[0] - s*u[1], k*u[2]*u[1] + s*u[0], c + k*u[2]*u[2]},
	}
}

func (a sv) ang() vec3 { return vec3{a[0], a[1], a[2]} }
func (a sv) lin() vec3 { return vec3{a[3], a[4], a[5]} }

func join(ang, lin vec3) sv { return sv{ang[0], ang[1], ang[2], lin[0], lin[1], lin[2]} }

// The spatial-vector operations are written out by components: they are the recursions'
// inner loops, and a loop over six entries costs as much in its control as in its work.

func (a sv) add(b sv) sv {
	return sv{a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5]}
}

func (a sv) sub(b sv) sv {
	return sv{a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4], a[5] - b[5]}
}

func (a sv) scale(s float64) sv {
	return sv{a[0] * s, a[1] * s, a[2] * s, a[3] * s, a[4] * s, a[5] * s}
}

// dot sums from +0 in index order, as a loop would: the same bits, signed zeros included.
func (a sv) dot(b sv) float64 {
	return 0 + a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] + a[4]*b[4] + a[5]*b[5]
}

// crossM is the motion cross product V × m = [ω×m_ω; ω×m_v + v×m_ω], written out by
// components (the hot loop of the velocity recursion).
func crossM(V, m sv) sv {
	return sv{
		V[1]*m[2] - V[2]*m[1],
		V[2]*m[0] - V[0]*m[2],
		V[0]*m[1] - V[1]*m[0],
		(V[1]*m[5] - V[2]*m[4]) + (V[4]*m[2] - V[5]*m[1]),
		(V[2]*m[3] - V[0]*m[5]) + (V[5]*m[0] - V[3]*m[2]),
		(V[0]*m[4] - V[1]*m[3]) + (V[3]*m[1] - V[4]*m[0]),
	}
}

// crossF is the force cross product V ×* f = [ω×n + v×f; ω×f], written out by components.
func crossF(V, f sv) sv {
	return sv{
		(V[1]*f[2] - V[2]*f[1]) + (V[4]*f[5] - V[5]*f[4]),
		(V[2]*f[0] - V[0]*f[2]) + (V[5]*f[3] - V[3]*f[5]),
		(V[0]*f[1] - V[1]*f[0]) + (V[3]*f[4] - V[4]*f[3]),
		V[1]*f[5] - V[2]*f[4],
		V[2]*f[3] - V[0]*f[5],
		V[0]*f[4] - V[1]*f[3],
	}
}

// mulv is I x, each row summed from +0 in index order (the bits of the loop it replaces).
func (I *inertia6) mulv(x sv) sv {
	return sv{
		0 + I[0][0]*x[0] + I[0][1]*x[1] + I[0][2]*x[2] + I[0][3]*x[3] + I[0][4]*x[4] + I[0][5]*x[5],
		0 + I[1][0]*x[0] + I[1][1]*x[1] + I[1][2]*x[2] + I[1][3]*x[3] + I[1][4]*x[4] + I[1][5]*x[5],
		0 + I[2][0]*x[0] + I[2][1]*x[1] + I[2][2]*x[2] + I[2][3]*x[3] + I[2][4]*x[4] + I[2][5]*x[5],
		0 + I[3][0]*x[0] + I[3][1]*x[1] + I[3][2]*x[2] + I[3][3]*x[3] + I[3][4]*x[4] + I[3][5]*x[5],
		0 + I[4][0]*x[0] + I[4][1]*x[1] + I[4][2]*x[2] + I[4][3]*x[3] + I[4][4]*x[4] + I[4][5]*x[5],
		0 + I[5][0]*x[0] + I[5][1]*x[1] + I[5][2]*x[2] + I[5][3]*x[3] + I[5][4]*x[4] + I[5][5]*x[5],
	}
}

func (I *inertia6) addTo(J *inertia6) {
	for i := range I {
		J[i] = J[i].add(I[i])
	}
}

// symm3 is a symmetric 3×3 matrix by its upper triangle: 00, 01, 02, 11, 12, 22.
type symm3 [6]float64

// rigidInertiaTo writes into I the spatial inertia at the world origin of a body of mass
// m whose centre of mass is at c with central inertia tensor Jc, both in world
// coordinates (in place: the position pass's step for every body at every q). I is
// symmetric to the bit: each off-diagonal entry is computed once and mirrored.
func rigidInertiaTo(I *inertia6, m float64, c *vec3, Jc *symm3) {
	// J_O = J_c + m (cᵀc 1 − c cᵀ), the parallel-axis theorem, with m c̃ in the upper
	// right block and its transpose in the lower left; x = m c.
	x, mcc := c.scale(m), m*c.dot(*c)
	j01, j02, j12 := Jc[1]-x[0]*c[1], Jc[2]-x[0]*c[2], Jc[4]-x[1]*c[2]
	I[0][0], I[0][1], I[0][2], I[0][3], I[0][4], I[0][5] = Jc[0]-x[0]*c[0]+mcc, j01, j02, 0, -x[2], x[1]
	I[1][0], I[1][1], I[1][2], I[1][3], I[1][4], I[1][5] = j01, Jc[3]-x[1]*c[1]+mcc, j12, x[2], 0, -x[0]
	I[2][0], I[2][1], I[2][2], I[2][3], I[2][4], I[2][5] = j02, j12, Jc[5]-x[2]*c[2]+mcc, -x[1], x[0], 0
	I[3][0], I[3][1], I[3][2], I[3][3], I[3][4], I[3][5] = 0, x[2], -x[1], m, 0, 0
	I[4][0], I[4][1], I[4][2], I[4][3], I[4][4], I[4][5] = -x[2], 0, x[0], 0, m, 0
	I[5][0], I[5][1], I[5][2], I[5][3], I[5][4], I[5][5] = x[1], -x[0], 0, 0, 0, m
}

// rigidMulTo sets y to I x for a rigid-body inertia I as rigidInertiaTo writes it (or
// zero): I's exact zeros (the diagonals of the off-diagonal blocks, the off-diagonal of
// m 1) are left out of each row's sum, 24 products instead of 36. The sums are mulvTo's
// to the bit: each row still starts at +0 and adds its other products in index order,
// and a product with an exact zero (±0 for finite x) leaves a sum that starts at +0
// unchanged.
func rigidMulTo(y *sv, I *inertia6, x *sv) {
	x0, x1, x2, x3, x4, x5 := x[0], x[1], x[2], x[3], x[4], x[5]
	I0, I1, I2, I3, I4, I5 := &I[0], &I[1], &I[2], &I[3], &I[4], &I[5]
	y[0] = 0 + I0[0]*x0 + I0[1]*x1 + I0[2]*x2 + I0[4]*x4 + I0[5]*x5
	y[1] = 0 + I1[0]*x0 + I1[1]*x1 + I1[2]*x2 + I1[3]*x3 + I1[5]*x5
	y[2] = 0 + I2[0]*x0 + I2[1]*x1 + I2[2]*x2 + I2[3]*x3 + I2[4]*x4
	y[3] = 0 + I3[1]*x1 + I3[2]*x2 + I3[3]*x3
	y[4] = 0 + I4[0]*x0 + I4[2]*x2 + I4[4]*x4
	y[5] = 0 + I5[0]*x0 + I5[1]*x1 + I5[5]*x5
}

// sinCoef and cosCoef are the coefficients of the minimax polynomials of sin and cos on
// [0, π/4] in S. L. Moshier's Cephes library (sin.c), as Go's math package uses them
// (math/sin.go, with their bit patterns there).
var (
	sinCoef = [6]float64{1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
		-1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1}
	cosCoef = [6]float64{-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
		2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2}
)

// sincos returns sin x and cos x: for 0 < |x| < π/4 (|x|·4/π < 1, no octant to reduce
// by) the Cephes polynomials on z = |x| in Horner form, sin's sign then x's, which are
// the operations math.Sincos takes there (its reduction is then z = x − 0, and its
// results are these to the bit, which TestSincos checks); other x
// (zero, larger angles, NaN, ±Inf) by math.Sincos. The position pass turns every joint
// by an angle, most of them small: math.Sincos's case tests and reduction cost as much
// as its polynomials.
func sincos(x float64) (sin, cos float64) {
	z := math.Abs(x)
	if !(z*(4/math.Pi) < 1) || x == 0 {
		return math.Sincos(x)
	}
	zz := z * z
	cos = 1.0 - 0.5*zz + zz*zz*((((((cosCoef[0]*zz)+cosCoef[1])*zz+cosCoef[2])*zz+cosCoef[3])*zz+cosCoef[4])*zz+cosCoef[5])
	sin = z + z*zz*((((((sinCoef[0]*zz)+sinCoef[1])*zz+sinCoef[2])*zz+sinCoef[3])*zz+sinCoef[4])*zz+sinCoef[5])
	if x < 0 {
		sin = -sin
	}
	return sin, cos
}
