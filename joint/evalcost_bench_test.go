package joint_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkChain3DForwardDynamics measures one forward-dynamics evaluation
// (dae.ForwardDynamicsSolver: the position pass, the velocity recursion and the
// articulated-body pass with the velocity terms) on Chain3D at N = 100 and 400, at three
// random states taken in turn (so the kinematics' two kept positions never hold the next
// q and every evaluation runs the position pass). Instructions per evaluation by
// callgrind on -benchtime 1000x. Run:
//
//	go test -run X -bench Chain3DForwardDynamics ./joint/
func BenchmarkChain3DForwardDynamics(b *testing.B) {
	for _, n := range []int{100, 400} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			sys, s0, err := Chain3D(n)
			if err != nil {
				b.Fatal(err)
			}
			nq := len(s0.Q)
			rng := rand.New(rand.NewPCG(1, 2))
			var qs, vs [3][]float64
			for k := range qs {
				qs[k], vs[k] = make([]float64, nq), make([]float64, nq)
				for i := range nq {
					qs[k][i] = 0.3 * (2*rng.Float64() - 1)
					vs[k][i] = 2*rng.Float64() - 1
				}
			}
			x, bb := make([]float64, nq), make([]float64, nq)
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				sys.ForwardDynamics(x, 0, qs[k], vs[k], bb)
				k = (k + 1) % 3
			}
		})
	}
}
