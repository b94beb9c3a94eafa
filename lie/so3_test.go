package lie

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randVec(r *rand.Rand, scale float64) [3]float64 {
	return [3]float64{scale * (2*r.Float64() - 1), scale * (2*r.Float64() - 1), scale * (2*r.Float64() - 1)}
}

func dist3(a, b [3]float64) float64 {
	return math.Max(math.Abs(a[0]-b[0]), math.Max(math.Abs(a[1]-b[1]), math.Abs(a[2]-b[2])))
}

// TestExpMatchesRodrigues: R(Exp(Θ)) equals I + sin θ/θ Θ̃ + (1 − cos θ)/θ² Θ̃², computed
// here independently of the quaternion route.
func TestExpMatchesRodrigues(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		a := randVec(r, 2)
		th := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
		h := Hat(a)
		got := Exp(a).Matrix()
		for i := range 3 {
			for j := range 3 {
				var h2 float64
				for k := range 3 {
					h2 += h[i][k] * h[k][j]
				}
				want := math.Sin(th)/th*h[i][j] + (1-math.Cos(th))/(th*th)*h2
				if i == j {
					want++
				}
				if d := math.Abs(got[i][j] - want); d > 1e-15 {
					t.Fatalf("Θ = %v: R[%d][%d] = %.17g, Rodrigues %.17g", a, i, j, got[i][j], want)
				}
			}
		}
	}
}

// TestLogInvertsExp: Log(Exp(Θ)) = Θ for |Θ| < π, including angles in the series range and 0.
func TestLogInvertsExp(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, scale := range []float64{0, 1e-12, 1e-6, 1e-3, 0.1, 1, 1.8} {
		for range 100 {
			a := randVec(r, scale)
			if d := dist3(Log(Exp(a)), a); d > 4e-16*math.Max(1, scale) {
				t.Fatalf("Θ = %v: Log(Exp(Θ)) = %v, error %.2g", a, Log(Exp(a)), d)
			}
		}
	}
	// exp∘log on rotations: Log(q) maps back to q or −q.
	for range 100 {
		q := Exp(randVec(r, 3))
		p := Exp(Log(q))
		s := math.Copysign(1, p[0]*q[0]+p[1]*q[1]+p[2]*q[2]+p[3]*q[3])
		for i := range 4 {
			if math.Abs(s*p[i]-q[i]) > 1e-15 {
				t.Fatalf("Exp(Log(%v)) = %v", q, p)
			}
		}
	}
}

// TestTangentFiniteDifference: T(Θ)δ = d/dε Log(Exp(Θ)⁻¹ Exp(Θ + εδ)) at ε = 0 (central
// differences), across the series switch; T⁻¹ is its inverse.
func TestTangentFiniteDifference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, scale := range []float64{1e-5, 5e-3, 2e-2, 0.3, 2.5} {
		for range 20 {
			a := randVec(r, scale)
			tg := Tangent(a)
			ti := TangentInv(a)
			inv := Exp(a).Conj()
			for j := range 3 {
				const eps = 1e-6
				ap, am := a, a
				ap[j] += eps
				am[j] -= eps
				lp := Log(Mul(inv, Exp(ap)))
				lm := Log(Mul(inv, Exp(am)))
				for i := range 3 {
					fd := (lp[i] - lm[i]) / (2 * eps)
					if d := math.Abs(tg[i][j] - fd); d > 1e-9 {
						t.Fatalf("Θ = %v: T[%d][%d] = %.12g, finite difference %.12g", a, i, j, tg[i][j], fd)
					}
				}
			}
			for i := range 3 {
				for j := range 3 {
					var p float64
					for k := range 3 {
						p += tg[i][k] * ti[k][j]
					}
					if i == j {
						p--
					}
					if math.Abs(p) > 1e-14 {
						t.Fatalf("Θ = %v: (T T⁻¹ − I)[%d][%d] = %.2g", a, i, j, p)
					}
				}
			}
		}
	}
}

// TestSeriesContinuity: the series and closed forms of T and T⁻¹ agree at the switch.
func TestSeriesContinuity(t *testing.T) {
	for _, inv := range []bool{false, true} {
		for _, th := range []float64{seriesAngle * (1 - 1e-12), seriesAngle} {
			a := [3]float64{th, 0, 0}
			b := [3]float64{seriesAngle * (1 + 1e-12), 0, 0}
			c1, c2 := tangentCoef(a, inv)
			d1, d2 := tangentCoef(b, inv)
			// c2's closed forms carry the cancellation error ε/θ² ≈ 2e-12 at the switch.
			if math.Abs(c1-d1) > 1e-15 || math.Abs(c2-d2) > 1e-11 {
				t.Errorf("inverse %v: coefficients jump at θ = %g: (%.17g, %.17g) vs (%.17g, %.17g)", inv, th, c1, c2, d1, d2)
			}
		}
	}
}

// TestCompositionStaysOrthogonal: after 10⁶ compositions R ← R exp(Θ̃) the quaternion is
// unit and RᵀR = I to rounding, and the product equals exp of the summed angle when all
// increments share one axis.
func TestCompositionStaysOrthogonal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	q := Identity
	p := Identity
	axis := [3]float64{0.48, -0.6, 0.64} // unit
	const n = 1000000
	const dth = 1e-3
	for range n {
		q = Mul(q, Exp(randVec(r, 0.05)))
		p = Mul(p, Exp([3]float64{dth * axis[0], dth * axis[1], dth * axis[2]}))
	}
	if e := math.Abs(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3] - 1); e > 4e-16 {
		t.Errorf("|q|² − 1 = %.2g after %d compositions", e, n)
	}
	m := q.Matrix()
	for i := range 3 {
		for j := range 3 {
			var s float64
			for k := range 3 {
				s += m[k][i] * m[k][j]
			}
			if i == j {
				s--
			}
			if math.Abs(s) > 1e-15 {
				t.Errorf("(RᵀR − I)[%d][%d] = %.2g after %d compositions", i, j, s, n)
			}
		}
	}
	// one axis: exp((n·dth) axis) up to the rounding of n additions of the angle
	want := Exp([3]float64{n * dth * axis[0], n * dth * axis[1], n * dth * axis[2]})
	for i := range 4 {
		if d := math.Abs(p[i] - want[i]); d > 1e-9 {
			t.Errorf("composed rotation [%d] = %.15g, exp of the sum %.15g", i, p[i], want[i])
		}
	}
}

// TestBodies: the SO(3) × ℝ³ helpers compose translation additively and rotation by
// Exp, and TangentBodies is block diagonal with T(Ω).
func TestBodies(t *testing.T) {
	q := []float64{1, 2, 3, 1, 0, 0, 0, -1, 0, 0, 0, 1, 0, 0}
	w := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 1, 1, 1, 0, 0, 0.7}
	dst := make([]float64, 14)
	ComposeBodies(dst, q, w)
	e := Exp([3]float64{0.4, 0.5, 0.6})
	want := []float64{1.1, 2.2, 3.3, e[0], e[1], e[2], e[3], 0, 1, 1, 0, math.Cos(0.35), -math.Sin(0.35), 0}
	for i, x := range want {
		if math.Abs(dst[i]-x) > 1e-15 {
			t.Fatalf("ComposeBodies[%d] = %g, want %g", i, dst[i], x)
		}
	}
	m := make([]float64, 12*12)
	TangentBodies(m, 12, w)
	tg := Tangent([3]float64{0.4, 0.5, 0.6})
	for i := range 12 {
		for j := range 12 {
			var want float64
			switch {
			case i == j && (i%6) < 3:
				want = 1
			case i < 6 && j < 6 && i >= 3 && j >= 3:
				want = tg[i-3][j-3]
			case i >= 9 && j >= 9:
				want = Tangent([3]float64{0, 0, 0.7})[i-9][j-9]
			}
			if m[i*12+j] != want {
				t.Fatalf("TangentBodies[%d][%d] = %g, want %g", i, j, m[i*12+j], want)
			}
		}
	}
	br := make([]float64, 12)
	BracketBodies(br, w, []float64{9, 9, 9, 1, 0, 0, 9, 9, 9, 0, 1, 0})
	c := Cross([3]float64{0.4, 0.5, 0.6}, [3]float64{1, 0, 0})
	if br[0] != 0 || br[3] != c[0] || br[4] != c[1] || br[5] != c[2] || br[9] != -0.7 {
		t.Fatalf("BracketBodies = %v", br)
	}
}
