package natural

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// TestMassMatrix: T = ½ ẋᵀ M ẋ over two basic points anywhere on a rigid element equals
// ½ m |v_G|² + ½ J ω² for any rigid motion: the constant mass matrix (García de Jalón &
// Bayo) is exact, and it needs only m, J and the points' positions.
func TestMassMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		m, J := 0.5+rng.Float64(), 0.01+rng.Float64()
		si, sj := Vec{rng.NormFloat64(), rng.NormFloat64()}, Vec{rng.NormFloat64(), rng.NormFloat64()}
		e0 := cplx(sj) - cplx(si)
		zc := -cplx(si) / e0
		M := massMatrix(m, J, si, zc, cmplx.Abs(e0))
		R, th := Vec{rng.NormFloat64(), rng.NormFloat64()}, rng.NormFloat64()
		V, om := Vec{rng.NormFloat64(), rng.NormFloat64()}, rng.NormFloat64()
		var x, xd [4]float64
		for k, s := range []Vec{si, sj} {
			a := rotate(s, th)
			x[2*k], x[2*k+1] = R[0]+a[0], R[1]+a[1]
			xd[2*k], xd[2*k+1] = V[0]-om*a[1], V[1]+om*a[0]
		}
		var T float64
		for a := range 4 {
			for b := range 4 {
				T += 0.5 * xd[a] * M[a][b] * xd[b]
			}
		}
		want := 0.5*m*dot(V, V) + 0.5*J*om*om
		if math.Abs(T-want) > 1e-12*math.Max(1, want) {
			t.Fatalf("T = %.15g, want %.15g", T, want)
		}
		// The centre of mass is C(0) x.
		l := pointMap(0, zc)
		var p [8]float64
		copy(p[:], x[:])
		if g := l.apply(&p); math.Hypot(g[0]-R[0], g[1]-R[1]) > 1e-12 {
			t.Fatalf("centre %v, want %v", g, R)
		}
	}
}
