package joint_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkChain3DFactorParts measures the parts of hht's factorization of its
// Newton-Krylov preconditioner on Chain3D at N = 100 and 400 (one call each per
// iteration, at a fixed random state): part=kg the geometric stiffness (dae.StiffMassSolver,
// GeometricStiffness, with the kinematics' positions held), part=factor a StiffMassSolve
// with a K_g not yet factorized (the full articulated-body recursion), part=solve one at
// the factorized point (the right side's sweeps), part=massmul M x at held positions.
// Instructions per call by callgrind: (-benchtime 200x less 100x)/100. Run:
//
//	go test -run X -bench Chain3DFactorParts ./joint/
func BenchmarkChain3DFactorParts(b *testing.B) {
	for _, n := range []int{100, 400} {
		sys, s0, err := Chain3D(n)
		if err != nil {
			b.Fatal(err)
		}
		nq := len(s0.Q)
		rng := rand.New(rand.NewPCG(1, 2))
		q, v, a, x, r := make([]float64, nq), make([]float64, nq), make([]float64, nq), make([]float64, nq), make([]float64, nq)
		for i := range nq {
			q[i] = 0.3 * (2*rng.Float64() - 1)
			v[i] = 2*rng.Float64() - 1
			a[i] = 2*rng.Float64() - 1
			r[i] = 2*rng.Float64() - 1
		}
		kg := [2][]float64{make([]float64, sys.GeometricStiffnessLen()), make([]float64, sys.GeometricStiffnessLen())}
		sys.GeometricStiffness(kg[0], 0, q, v, a, nil)
		sys.GeometricStiffness(kg[1], 0, q, v, a, nil)
		for _, part := range []string{"kg", "factor", "solve", "massmul"} {
			b.Run(fmt.Sprintf("N=%d/part=%s", n, part), func(b *testing.B) {
				b.ReportAllocs()
				k := 0
				for b.Loop() {
					switch part {
					case "kg":
						sys.GeometricStiffness(kg[0], 0, q, v, a, nil)
					case "factor": // a new k each time: the kept factorizations never hold
						k++
						sys.StiffMassSolve(x, 0, q, r, nil, kg[0], 1e-3*float64(k))
					case "solve":
						sys.StiffMassSolve(x, 0, q, r, nil, kg[1], 1e-3)
					case "massmul":
						sys.MassMul(x, 0, q, r)
					}
				}
			})
		}
	}
}
