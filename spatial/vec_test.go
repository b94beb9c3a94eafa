package spatial_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"linkage/spatial"
)

// roundOff bounds the error of a few dozen floating-point operations on O(1) numbers:
// 1e-14 is about 50 units of 2⁻⁵² rounding.
const roundOff = 1e-14

func maxDiffMat(a, b spatial.Mat3) float64 {
	var d float64
	for i := range 3 {
		for j := range 3 {
			d = math.Max(d, math.Abs(a[i][j]-b[i][j]))
		}
	}
	return d
}

func mulMat(a, b spatial.Mat3) (c spatial.Mat3) {
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

// TestQuaternions: A(p) is orthogonal with det 1 for unit p, A(p*r) = A(p)A(r) (seed 002,
// Remark 7b), Rotate equals Matrix, QuatFromMatrix inverts Matrix up to the sign of p
// (p and −p are the same rotation), and RollPitchYaw inverts QuatFromRollPitchYaw away
// from pitch = ±π/2.
func TestQuaternions(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	rq := func() spatial.Quat {
		return spatial.Quat{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalized()
	}
	for range 50 {
		p, q := rq(), rq()
		A := p.Matrix()
		var AT spatial.Mat3
		for i := range 3 {
			for j := range 3 {
				AT[i][j] = A[j][i]
			}
		}
		if d := maxDiffMat(mulMat(AT, A), spatial.Diag(1, 1, 1)); d > roundOff {
			t.Errorf("AᵀA − I = %.2g for p = %v", d, p)
		}
		if d := maxDiffMat(p.Mul(q).Matrix(), mulMat(A, q.Matrix())); d > roundOff {
			t.Errorf("A(p*q) − A(p)A(q) = %.2g", d)
		}
		s := spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		if d := p.Rotate(s).Sub(A.MulVec(s)).Norm(); d > roundOff*s.Norm() {
			t.Errorf("Rotate − Matrix·s = %.2g", d)
		}
		back := spatial.QuatFromMatrix(A)
		sign := 1.0
		if back[0]*p[0] < 0 {
			sign = -1
		}
		for k := range 4 {
			if d := math.Abs(back[k] - sign*p[k]); d > roundOff {
				t.Errorf("QuatFromMatrix(A(p))[%d] = %g, want ±%g", k, back[k], p[k])
			}
		}
		roll, pitch, yaw := (2*r.Float64()-1)*math.Pi, (2*r.Float64()-1)*1.5, (2*r.Float64()-1)*math.Pi
		gr, gp, gy := spatial.QuatFromRollPitchYaw(roll, pitch, yaw).RollPitchYaw()
		// asin near |pitch| = 1.5 amplifies rounding by 1/cos(1.5) ≈ 14.
		if math.Abs(gr-roll) > 20*roundOff || math.Abs(gp-pitch) > 20*roundOff || math.Abs(gy-yaw) > 20*roundOff {
			t.Errorf("RollPitchYaw round trip: (%g, %g, %g) -> (%g, %g, %g)", roll, pitch, yaw, gr, gp, gy)
		}
	}
	// A rotation by π/2 about z takes x to y.
	if v := spatial.QuatFromAxisAngle(spatial.Vec3{0, 0, 2}, math.Pi/2).Rotate(spatial.Vec3{1, 0, 0}); v.Sub(spatial.Vec3{0, 1, 0}).Norm() > roundOff {
		t.Errorf("rotation by π/2 about z maps x to %v, want (0, 1, 0)", v)
	}
}
