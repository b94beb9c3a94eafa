package joint_test

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMassSolveFactorReuse: the solves that reuse the articulated-body factorization of
// an earlier solve at the same point (abaFactor: the two last points kept) give the bits
// of a full recursion on a fresh System, for M and M + k K_g, as the points alternate,
// and a changed K_g or k at the same q is not taken for the kept one.
func TestMassSolveFactorReuse(t *testing.T) {
	md, _ := chain3DModel(7)
	sys, err := md.System()
	if err != nil {
		t.Fatal(err)
	}
	n, _ := sys.Size()
	rng := rand.New(rand.NewPCG(3, 5))
	vec := func(s float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = s * (2*rng.Float64() - 1)
		}
		return x
	}
	q1, q2 := vec(1), vec(1)
	kgA, kgB := make([]float64, sys.GeometricStiffnessLen()), make([]float64, sys.GeometricStiffnessLen())
	sys.GeometricStiffness(kgA, 0, q1, vec(1), vec(3), nil)
	sys.GeometricStiffness(kgB, 0, q1, vec(1), vec(3), nil)
	type solve struct {
		q, kg []float64
		k     float64
	}
	seq := []solve{{q1, kgA, 0.3}, {q2, nil, 0}, {q1, kgA, 0.3}, {q2, nil, 0}, {q1, kgA, 0.3},
		{q1, kgB, 0.3}, {q1, kgB, 0.7}, {q1, nil, 0}, {q2, kgA, 0.7}, {q1, nil, 0}, {q2, kgA, 0.7}}
	x, want := make([]float64, n), make([]float64, n)
	for i, c := range seq {
		b := vec(10)
		fresh, err := md.System()
		if err != nil {
			t.Fatal(err)
		}
		if c.kg == nil {
			sys.MassSolve(x, 0, c.q, b)
			fresh.MassSolve(want, 0, c.q, b)
		} else {
			sys.StiffMassSolve(x, 0, c.q, b, nil, c.kg, c.k)
			fresh.StiffMassSolve(want, 0, c.q, b, nil, c.kg, c.k)
		}
		for j := range x {
			if math.Float64bits(x[j]) != math.Float64bits(want[j]) {
				t.Fatalf("solve %d: x[%d] = %v, a full recursion gives %v", i, j, x[j], want[j])
			}
		}
	}
}
