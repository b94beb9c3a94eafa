package planar

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestQuadGrad: for every coordinate kind, quadGrad (the gradient of vᵀ∇²c v written
// through the velocity kinematics) agrees with central differences of vᵀ∇²c v built from
// the analytic Hessian, at random poses of two bodies and of a body and the ground.
func TestQuadGrad(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	u := func() float64 { return 2*r.Float64() - 1 }
	kinds := []coordKind{coordDx, coordDy, coordAlong, coordNormal, coordAngle, coordDist2, coordLength}
	for _, ground := range []bool{false, true} {
		pr, nq := randomPair(u, ground)
		for range 3 {
			q, v := make([]float64, nq), make([]float64, nq)
			for i := range q {
				q[i], v[i] = u(), u()
			}
			vp := pr.rate(v)
			for _, kind := range kinds {
				quad := func(q []float64) float64 {
					var k pairKin
					var e coordEval
					pr.kin(q, &k)
					e.eval(kind, &k)
					return e.quad(&vp)
				}
				var k pairKin
				var g [6]float64
				pr.kin(q, &k)
				quadGrad(kind, &k, &vp, &g)
				for a, col := range pr.col {
					if col < 0 {
						continue
					}
					const h = 1e-6
					x := q[col]
					q[col] = x + h
					fp := quad(q)
					q[col] = x - h
					fm := quad(q)
					q[col] = x
					fd := (fp - fm) / (2 * h)
					if math.Abs(g[a]-fd) > 1e-7*math.Max(1, math.Abs(fd)) {
						t.Errorf("ground %v, kind %d, entry %d: quadGrad %.10g, central difference %.10g", ground, kind, a, g[a], fd)
					}
				}
			}
		}
	}
}

// randomPair returns a pair of two bodies (q = both bodies' x, y, θ) or, with ground, of
// the ground and a body (q = its x, y, θ) with random markers, and the length of q.
func randomPair(u func() float64, ground bool) (pairRef, int) {
	pr := pairRef{si: Vec{u(), u()}, sj: Vec{u(), u()}, phiI: u(), phiJ: u(), col: [6]int{0, 1, 2, 3, 4, 5}}
	if ground {
		pr.col = [6]int{-1, -1, -1, 0, 1, 2}
		return pr, 3
	}
	return pr, 6
}

// TestQuadOf: quadOf, the quadratic form vpᵀ ∇²c vp that γ sums, is the number of the full
// Hessian's eval and quad to the bit for every coordinate kind, at random poses of two
// bodies and of a body and the ground, with velocities whose entries are all nonzero or
// partly zero (quad skips zero entries).
func TestQuadOf(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	u := func() float64 { return 2*r.Float64() - 1 }
	kinds := []coordKind{coordDx, coordDy, coordAlong, coordNormal, coordAngle, coordDist2, coordLength}
	for _, ground := range []bool{false, true} {
		pr, nq := randomPair(u, ground)
		for trial := range 20 {
			q, v := make([]float64, nq), make([]float64, nq)
			for i := range q {
				q[i], v[i] = u(), u()
				if trial%2 == 1 && r.IntN(3) == 0 {
					v[i] = 0
				}
			}
			vp := pr.rate(v)
			var k pairKin
			pr.kin(q, &k)
			for _, kind := range kinds {
				var e, scratch coordEval
				e.eval(kind, &k)
				want := e.quad(&vp)
				if got := quadOf(kind, &k, &vp, &scratch); math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("ground %v, kind %d, v %v: quadOf %v, eval and quad %v", ground, kind, v, got, want)
				}
			}
		}
	}
}
