package lie

// The direct product SO(3) × ℝ³ of seed 002, Remark 5a, (R_a, x_a)∘(R_b, x_b) = (R_a R_b,
// x_a + x_b), for a body stored as 7 numbers (x, p): the position x of a body point in the
// inertial frame and the unit quaternion p of its rotation, the layout of the Euler
// parameter bodies. Its Lie algebra element is w = (u, Ω) ∈ ℝ⁶: a translation in the
// inertial frame and a rotation vector in the body frame, so that
//
//	(x, R)∘exp(w) = (x + u, R exp(Ω̃)),   T(w) = diag(I₃, T(Ω)),   [w₁, w₂] = (0, Ω₁ × Ω₂).

// BodyStored and BodyDim are the stored and tangent sizes of one SO(3) × ℝ³ body.
const (
	BodyStored = 7
	BodyDim    = 6
)

// ComposeBodies writes q∘exp(w) into dst for bodies of SO(3) × ℝ³ laid out one after the
// other (q and dst: 7 numbers per body, w: 6). dst may be q.
func ComposeBodies(dst, q, w []float64) {
	for b := 0; 7*b < len(q); b++ {
		qs, ws, ds := q[7*b:7*b+7], w[6*b:6*b+6], dst[7*b:7*b+7]
		p := Mul(Quat{qs[3], qs[4], qs[5], qs[6]}, Exp([3]float64{ws[3], ws[4], ws[5]}))
		ds[0], ds[1], ds[2] = qs[0]+ws[0], qs[1]+ws[1], qs[2]+ws[2]
		copy(ds[3:], p[:])
	}
}

// TangentBodies writes T(w) into the rows-major dense n×n storage dst (n = len(w)) with
// stride, for bodies of SO(3) × ℝ³: block diagonal, I₃ for the translation and T(Ω) for the
// rotation of each body; every other entry is zero.
func TangentBodies(dst []float64, stride int, w []float64) {
	n := len(w)
	for i := range n {
		clear(dst[i*stride : i*stride+n])
	}
	for b := 0; 6*b < n; b++ {
		o := 6 * b
		for i := range 3 {
			dst[(o+i)*stride+o+i] = 1
		}
		t := Tangent([3]float64{w[o+3], w[o+4], w[o+5]})
		for i := range 3 {
			for j := range 3 {
				dst[(o+3+i)*stride+o+3+j] = t[i][j]
			}
		}
	}
}

// BracketBodies writes the Lie bracket [a, b] of the algebra of (SO(3) × ℝ³)ᴺ into dst:
// zero for translations, Ω_a × Ω_b for rotations.
func BracketBodies(dst, a, b []float64) {
	for o := 0; o < len(a); o += 6 {
		c := Cross([3]float64{a[o+3], a[o+4], a[o+5]}, [3]float64{b[o+3], b[o+4], b[o+5]})
		dst[o], dst[o+1], dst[o+2] = 0, 0, 0
		dst[o+3], dst[o+4], dst[o+5] = c[0], c[1], c[2]
	}
}
