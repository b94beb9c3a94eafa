package spatial

import "math"

// vec.go: small fixed-size vectors, matrices and unit quaternions (Euler parameters).

// Vec3 is a vector (x, y, z).
type Vec3 [3]float64

// Mat3 is a 3×3 matrix, row-major: m[i][j] is row i, column j.
type Mat3 [3][3]float64

// Quat is a quaternion (p0, p1, p2, p3) with scalar part p0 and vector part e = (p1, p2, p3);
// unit quaternions are the Euler parameters of a rotation by φ about the unit axis u:
// p0 = cos(φ/2), e = sin(φ/2)·u (seed 002, Remark 7; Haug 1989, ch. 6).
type Quat [4]float64

// Identity returns the Euler parameters of no rotation, (1, 0, 0, 0).
func Identity() Quat { return Quat{1, 0, 0, 0} }

// Diag returns diag(a, b, c), e.g. the principal inertia tensor.
func Diag(a, b, c float64) Mat3 { return Mat3{{a, 0, 0}, {0, b, 0}, {0, 0, c}} }

// MulVec returns m v.
func (m Mat3) MulVec(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v[0] + m[0][1]*v[1] + m[0][2]*v[2],
		m[1][0]*v[0] + m[1][1]*v[1] + m[1][2]*v[2],
		m[2][0]*v[0] + m[2][1]*v[1] + m[2][2]*v[2],
	}
}

// MulTVec returns mᵀ v.
func (m Mat3) MulTVec(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v[0] + m[1][0]*v[1] + m[2][0]*v[2],
		m[0][1]*v[0] + m[1][1]*v[1] + m[2][1]*v[2],
		m[0][2]*v[0] + m[1][2]*v[1] + m[2][2]*v[2],
	}
}

// Dot returns aᵀb.
func (a Vec3) Dot(b Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Cross returns a × b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Norm returns |a|.
func (a Vec3) Norm() float64 { return math.Sqrt(a.Dot(a)) }

// Scale returns s·a.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{s * a[0], s * a[1], s * a[2]} }

// Add returns a + b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// Sub returns a − b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// QuatFromAxisAngle returns the Euler parameters of the rotation by angle about axis
// (normalized here; a zero axis gives Identity).
func QuatFromAxisAngle(axis Vec3, angle float64) Quat {
	n := axis.Norm()
	if n == 0 {
		return Identity()
	}
	s, c := math.Sincos(angle / 2)
	s /= n
	return Quat{c, s * axis[0], s * axis[1], s * axis[2]}
}

// QuatFromMatrix returns the Euler parameters of the rotation matrix R (columns: the body
// axes in global components) with p0 ≥ 0, by Shepperd's method: the largest of
// 4p_k² = 1 + 2R_kk − tr R (k ≥ 1) or 4p0² = 1 + tr R is taken first for accuracy
// (Shepperd 1978).
func QuatFromMatrix(R Mat3) Quat {
	tr := R[0][0] + R[1][1] + R[2][2]
	var p Quat
	switch {
	case tr >= R[0][0] && tr >= R[1][1] && tr >= R[2][2]:
		p[0] = math.Sqrt(1+tr) / 2
		p[1] = (R[2][1] - R[1][2]) / (4 * p[0])
		p[2] = (R[0][2] - R[2][0]) / (4 * p[0])
		p[3] = (R[1][0] - R[0][1]) / (4 * p[0])
	case R[0][0] >= R[1][1] && R[0][0] >= R[2][2]:
		p[1] = math.Sqrt(1+2*R[0][0]-tr) / 2
		p[0] = (R[2][1] - R[1][2]) / (4 * p[1])
		p[2] = (R[1][0] + R[0][1]) / (4 * p[1])
		p[3] = (R[0][2] + R[2][0]) / (4 * p[1])
	case R[1][1] >= R[2][2]:
		p[2] = math.Sqrt(1+2*R[1][1]-tr) / 2
		p[0] = (R[0][2] - R[2][0]) / (4 * p[2])
		p[1] = (R[1][0] + R[0][1]) / (4 * p[2])
		p[3] = (R[2][1] + R[1][2]) / (4 * p[2])
	default:
		p[3] = math.Sqrt(1+2*R[2][2]-tr) / 2
		p[0] = (R[1][0] - R[0][1]) / (4 * p[3])
		p[1] = (R[0][2] + R[2][0]) / (4 * p[3])
		p[2] = (R[2][1] + R[1][2]) / (4 * p[3])
	}
	if p[0] < 0 {
		p = Quat{-p[0], -p[1], -p[2], -p[3]}
	}
	return p
}

// QuatFromRollPitchYaw returns the Euler parameters of R = R_z(yaw) R_y(pitch) R_x(roll)
// (the z-y-x Tait-Bryan angles, aerospace convention).
func QuatFromRollPitchYaw(roll, pitch, yaw float64) Quat {
	qx := QuatFromAxisAngle(Vec3{1, 0, 0}, roll)
	qy := QuatFromAxisAngle(Vec3{0, 1, 0}, pitch)
	qz := QuatFromAxisAngle(Vec3{0, 0, 1}, yaw)
	return qz.Mul(qy).Mul(qx)
}

// Mul returns the quaternion product p * r (seed 002, Remark 7b): the rotation r followed
// by p.
func (p Quat) Mul(r Quat) Quat {
	return Quat{
		p[0]*r[0] - p[1]*r[1] - p[2]*r[2] - p[3]*r[3],
		p[0]*r[1] + r[0]*p[1] + p[2]*r[3] - p[3]*r[2],
		p[0]*r[2] + r[0]*p[2] + p[3]*r[1] - p[1]*r[3],
		p[0]*r[3] + r[0]*p[3] + p[1]*r[2] - p[2]*r[1],
	}
}

// Norm returns |p|.
func (p Quat) Norm() float64 { return math.Sqrt(p[0]*p[0] + p[1]*p[1] + p[2]*p[2] + p[3]*p[3]) }

// Normalized returns p/|p| (Identity for p = 0).
func (p Quat) Normalized() Quat {
	n := p.Norm()
	if n == 0 {
		return Identity()
	}
	return Quat{p[0] / n, p[1] / n, p[2] / n, p[3] / n}
}

// Matrix returns the rotation matrix A(p) of seed 002, Remark 7b, in the form homogeneous
// quadratic in p used throughout this package, A = (p0² − eᵀe) I + 2 e eᵀ + 2 p0 ẽ; for a
// unit p it is orthogonal.
func (p Quat) Matrix() Mat3 {
	p0, p1, p2, p3 := p[0], p[1], p[2], p[3]
	return Mat3{
		{p0*p0 + p1*p1 - p2*p2 - p3*p3, 2 * (p1*p2 - p0*p3), 2 * (p1*p3 + p0*p2)},
		{2 * (p1*p2 + p0*p3), p0*p0 - p1*p1 + p2*p2 - p3*p3, 2 * (p2*p3 - p0*p1)},
		{2 * (p1*p3 - p0*p2), 2 * (p2*p3 + p0*p1), p0*p0 - p1*p1 - p2*p2 + p3*p3},
	}
}

// Rotate returns A(p) s.
func (p Quat) Rotate(s Vec3) Vec3 {
	e := Vec3{p[1], p[2], p[3]}
	es := e.Cross(s)
	c := p[0]*p[0] - e.Dot(e)
	k := 2 * e.Dot(s)
	return Vec3{c*s[0] + k*e[0] + 2*p[0]*es[0], c*s[1] + k*e[1] + 2*p[0]*es[1], c*s[2] + k*e[2] + 2*p[0]*es[2]}
}

// RollPitchYaw returns the z-y-x Tait-Bryan angles of the rotation of a unit p,
// A = R_z(yaw) R_y(pitch) R_x(roll), with pitch in [−π/2, π/2]. Like every three-angle set
// (seed 002, Remark 6a) it is singular at pitch = ±π/2, where only roll ∓ yaw is defined
// (there roll is reported as 0); it is an output for reading, never a coordinate.
func (p Quat) RollPitchYaw() (roll, pitch, yaw float64) {
	A := p.Matrix()
	s := -A[2][0]
	if s >= 1 {
		return 0, math.Pi / 2, math.Atan2(-A[0][1], A[1][1])
	}
	if s <= -1 {
		return 0, -math.Pi / 2, math.Atan2(-A[0][1], A[1][1])
	}
	return math.Atan2(A[2][1], A[2][2]), math.Asin(s), math.Atan2(A[1][0], A[0][0])
}

// gMat returns G(p) = [−e, −ẽ + p0 I] (3×4), the matrix of the body-axes angular velocity
// ω' = 2 G(p) ṗ (seed 002, eq. 38: H₀(p) = 2G(p); Haug 1989, ch. 6).
func gMat(p *[4]float64) (g [3][4]float64) {
	p0, e1, e2, e3 := p[0], p[1], p[2], p[3]
	return [3][4]float64{
		{-e1, p0, e3, -e2},
		{-e2, -e3, p0, e1},
		{-e3, e2, -e1, p0},
	}
}

// eMat returns E(p) = [−e, ẽ + p0 I] (3×4), the matrix of the global angular velocity
// ω = 2 E(p) ṗ (Haug 1989, ch. 6).
func eMat(p *[4]float64) (g [3][4]float64) {
	p0, e1, e2, e3 := p[0], p[1], p[2], p[3]
	return [3][4]float64{
		{-e1, p0, -e3, e2},
		{-e2, e3, p0, -e1},
		{-e3, -e2, e1, p0},
	}
}

// mulG returns X y for a 3×4 X.
func mulG(x *[3][4]float64, y *[4]float64) (r Vec3) {
	for i := range 3 {
		r[i] = x[i][0]*y[0] + x[i][1]*y[1] + x[i][2]*y[2] + x[i][3]*y[3]
	}
	return r
}

// mulGT returns Xᵀ y for a 3×4 X.
func mulGT(x *[3][4]float64, y Vec3) (r [4]float64) {
	for j := range 4 {
		r[j] = x[0][j]*y[0] + x[1][j]*y[1] + x[2][j]*y[2]
	}
	return r
}
