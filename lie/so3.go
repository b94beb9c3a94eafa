// Package lie holds the rotation group SO(3) and the direct product SO(3) × ℝ³ of seed 002,
// Remark 5, as the Lie-group route of linkage stores them: a rotation is a unit quaternion
// (w, x, y, z), updated only by composition with the exponential map, R ← R·exp(Θ̃), never
// by adding increments; velocities live in the Lie algebra ℝ³ (body-frame angular velocity).
//
// The formulas (Brüls, Cardona & Arnold 2012, section 2; Iserles et al. 2000, section 3):
//
//	exp(Θ̃) = I + sin θ/θ Θ̃ + (1 − cos θ)/θ² Θ̃²                         (Rodrigues; θ = |Θ|)
//	T(Θ)   = I − (1 − cos θ)/θ² Θ̃ + (θ − sin θ)/θ³ Θ̃²                  (tangent operator)
//	T⁻¹(Θ) = I + ½ Θ̃ + (1 − (θ/2) cot(θ/2))/θ² Θ̃²
//
// with exp(Θ + εδ) = exp(Θ)·exp(ε T(Θ) δ) + O(ε²): T maps a perturbation of the exponential
// coordinates Θ to the body-frame variation of exp(Θ). Near θ = 0 the coefficients are
// taken from their Taylor series (relative error below 1e-16 for θ < seriesAngle).
//
// The package is a leaf (it imports only math): modeling code builds systems on it, and
// the integrators see the group only through dae.LieSystem.
package lie

import "math"

// Quat is a rotation of SO(3) stored as a unit quaternion (w, x, y, z); q and −q are the
// same rotation.
type Quat [4]float64

// Identity is the identity rotation.
var Identity = Quat{1, 0, 0, 0}

// seriesAngle is the angle below which the coefficients of exp, T and T⁻¹ come from their
// Taylor series to θ⁴: the first omitted term is below 3e-17 relative there, while the
// closed forms of (θ − sin θ)/θ³ and of 1 − (θ/2) cot(θ/2) lose digits to cancellation
// (relative error ε/θ²).
const seriesAngle = 1e-2

// Hat returns the skew matrix Θ̃ with Θ̃ b = Θ × b (seed 002, the tilde operator).
func Hat(a [3]float64) [3][3]float64 {
	return [3][3]float64{{0, -a[2], a[1]}, {a[2], 0, -a[0]}, {-a[1], a[0], 0}}
}

// Cross returns a × b, the Lie bracket [a, b] of so(3) in vector form.
func Cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Mul returns the product a·b, the rotation R(a)R(b). The result is renormalized: a product
// of unit quaternions is unit up to a rounding error of a few ulps, and dividing by its norm
// keeps that error from accumulating over millions of steps.
func Mul(a, b Quat) Quat {
	p := Quat{
		a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
		a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
		a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
		a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0],
	}
	return p.normalized()
}

func (q Quat) normalized() Quat {
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	return Quat{q[0] / n, q[1] / n, q[2] / n, q[3] / n}
}

// Conj returns the inverse rotation.
func (q Quat) Conj() Quat { return Quat{q[0], -q[1], -q[2], -q[3]} }

// Exp returns exp(Θ̃) as the quaternion (cos(θ/2), sin(θ/2)/θ · Θ).
func Exp(a [3]float64) Quat {
	t2 := a[0]*a[0] + a[1]*a[1] + a[2]*a[2]
	th := math.Sqrt(t2)
	var c, s float64 // cos(θ/2), sin(θ/2)/θ
	if th < seriesAngle {
		c = 1 - t2/8 + t2*t2/384
		s = 0.5 - t2/48 + t2*t2/3840
	} else {
		c = math.Cos(th / 2)
		s = math.Sin(th/2) / th
	}
	return Quat{c, s * a[0], s * a[1], s * a[2]}.normalized()
}

// Log returns the exponential coordinates Θ with |Θ| ≤ π and exp(Θ̃) = R(q), the inverse of
// Exp on the ball of radius π.
func Log(q Quat) [3]float64 {
	if q[0] < 0 {
		q = Quat{-q[0], -q[1], -q[2], -q[3]} // the same rotation, angle in [0, π]
	}
	s := math.Sqrt(q[1]*q[1] + q[2]*q[2] + q[3]*q[3]) // sin(θ/2)
	th := 2 * math.Atan2(s, q[0])
	k := 2.0 // θ / sin(θ/2) as s → 0
	if s > 1e-8 {
		k = th / s
	} else {
		k = 2 * (1 + s*s/6) // θ/sin(θ/2) = 2 asin(s)/s = 2(1 + s²/6 + ...) for q₀ ≈ 1
	}
	return [3]float64{k * q[1], k * q[2], k * q[3]}
}

// Matrix returns the rotation matrix R(q) (body to inertial frame).
func (q Quat) Matrix() [3][3]float64 {
	w, x, y, z := q[0], q[1], q[2], q[3]
	return [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)},
		{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)},
		{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)},
	}
}

// Rotate returns R(q) b.
func (q Quat) Rotate(b [3]float64) [3]float64 {
	r := q.Matrix()
	return MatVec(&r, b)
}

// MatVec returns A b.
func MatVec(a *[3][3]float64, b [3]float64) [3]float64 {
	return [3]float64{
		a[0][0]*b[0] + a[0][1]*b[1] + a[0][2]*b[2],
		a[1][0]*b[0] + a[1][1]*b[1] + a[1][2]*b[2],
		a[2][0]*b[0] + a[2][1]*b[1] + a[2][2]*b[2],
	}
}

// tangentCoef returns the coefficients (c1, c2) of I + c1 Θ̃ + c2 Θ̃² for T(Θ) (inverse
// false) or T⁻¹(Θ) (inverse true).
func tangentCoef(a [3]float64, inverse bool) (c1, c2 float64) {
	t2 := a[0]*a[0] + a[1]*a[1] + a[2]*a[2]
	th := math.Sqrt(t2)
	switch {
	case inverse && th < seriesAngle:
		return 0.5, 1.0/12 + t2/720 + t2*t2/30240
	case inverse:
		return 0.5, (1 - th/2/math.Tan(th/2)) / t2
	case th < seriesAngle:
		return -(0.5 - t2/24 + t2*t2/720), 1.0/6 - t2/120 + t2*t2/5040
	}
	s := math.Sin(th / 2)
	return -2 * s * s / t2, (th - math.Sin(th)) / (t2 * th) // 1 − cos θ = 2 sin²(θ/2), no cancellation
}

// Tangent returns the tangent operator T(Θ) of SO(3) (see the package comment).
func Tangent(a [3]float64) [3][3]float64 {
	c1, c2 := tangentCoef(a, false)
	return polyHat(a, c1, c2)
}

// TangentInv returns T⁻¹(Θ); it is regular for |Θ| < 2π.
func TangentInv(a [3]float64) [3][3]float64 {
	c1, c2 := tangentCoef(a, true)
	return polyHat(a, c1, c2)
}

// polyHat returns I + c1 Θ̃ + c2 Θ̃², with Θ̃² = Θ Θᵀ − θ² I.
func polyHat(a [3]float64, c1, c2 float64) [3][3]float64 {
	t2 := a[0]*a[0] + a[1]*a[1] + a[2]*a[2]
	h := Hat(a)
	var m [3][3]float64
	for i := range 3 {
		for j := range 3 {
			m[i][j] = c1*h[i][j] + c2*a[i]*a[j]
		}
		m[i][i] += 1 - c2*t2
	}
	return m
}
