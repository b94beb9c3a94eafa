package joint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCoordinateAxisRotation: a joint about ±e_k (any length) is found as coordinate axis k
// with its sign, other axes are not, and the position pass's column turn R Rot(e_k, ±q)
// equals R times Rodrigues' matrix about the joint's axis to rounding, for every k and
// sign, at angles all round the circle.
func TestCoordinateAxisRotation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := &Model{}
	for k := range 3 {
		for _, sign := range []float64{1, -1} {
			var axis [3]float64
			axis[k] = 2.5 * sign
			p := &m.prims[m.Revolute("r", Ground, [3]float64{}, axis, Body{})]
			if p.coord != k || p.sign != sign {
				t.Fatalf("axis %v: coordinate axis %d sign %g, want %d and %g", axis, p.coord, p.sign, k, sign)
			}
			for range 20 {
				R := axisRotation(unit(vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}), 7*rng.Float64())
				q := 4 * math.Pi * (rng.Float64() - 0.5)
				rot := axisRotation(p.axis, q)
				var got mat3
				want := R.mul(&rot)
				R.turnTo(&got, p.coord, p.sign*q)
				for i := range 3 {
					for j := range 3 {
						if d := math.Abs(got[i][j] - want[i][j]); d > 1e-15 {
							t.Fatalf("axis %v, q = %g: entry (%d, %d) %g, Rodrigues %g (|Δ| = %g)", axis, q, i, j, got[i][j], want[i][j], d)
						}
					}
				}
			}
		}
	}
	if p := m.prims[m.Revolute("oblique", Ground, [3]float64{}, [3]float64{1, 1e-9, 0}, Body{})]; p.coord != -1 {
		t.Errorf("axis (1, 1e-9, 0) taken for coordinate axis %d; want none (−1)", p.coord)
	}
}

// TestRigidMulBits: rigidMulTo, which leaves a rigid-body inertia's exact zeros out of
// its sums, gives mulvTo's I x to the bit (signed zeros included) on random bodies, on a
// body with its centre of mass at the origin (more zeros) and on a massless frame.
func TestRigidMulBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	r := func() float64 { return 2*rng.Float64() - 1 }
	for k := range 200 {
		m, c := rng.Float64(), vec3{r(), r(), r()}
		Jc := symm3{1 + r(), 0.1 * r(), 0.1 * r(), 1 + r(), 0.1 * r(), 1 + r()}
		switch k {
		case 0:
			c = vec3{}
		case 1:
			m, c, Jc = 0, vec3{}, symm3{}
		}
		var I inertia6
		rigidInertiaTo(&I, m, &c, &Jc)
		x := sv{r(), r(), r(), r(), r(), r()}
		if k == 2 {
			nz := math.Copysign(0, -1)
			x = sv{0, nz, 0, 1, 0, nz}
		}
		var want, got sv
		mulvTo(&want, &I, &x)
		rigidMulTo(&got, &I, &x)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("case %d row %d: rigidMulTo %v, mulvTo %v", k, i, got[i], want[i])
			}
		}
	}
}

// TestSincos: sincos gives math.Sincos's results to the bit (signed zeros included) at
// random angles below π/4 in size, at the ends of that range, at tiny and zero angles, and
// beyond it (where it is math.Sincos).
func TestSincos(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	xs := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 5e-324, 1e-8, -1e-8,
		math.Pi / 4, -math.Pi / 4, math.Nextafter(math.Pi/4, 0), -math.Nextafter(math.Pi/4, 0),
		math.Nextafter(math.Pi/4, 1), 1, -2, 10, 1e6, math.Inf(1), math.Inf(-1), math.NaN()}
	for range 20000 {
		xs = append(xs, (math.Pi/2)*(2*rng.Float64()-1), 1e-3*(2*rng.Float64()-1))
	}
	for _, x := range xs {
		s, c := sincos(x)
		ws, wc := math.Sincos(x)
		if math.Float64bits(s) != math.Float64bits(ws) || math.Float64bits(c) != math.Float64bits(wc) {
			t.Fatalf("sincos(%v) = %v, %v; math.Sincos %v, %v", x, s, c, ws, wc)
		}
	}
}
