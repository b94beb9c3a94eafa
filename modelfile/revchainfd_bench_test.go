package modelfile

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkRevoluteChain3DForwardDynamics measures one forward-dynamics evaluation
// (joint.System.ForwardDynamics: the position pass, the velocity recursion and the
// articulated-body pass with the velocity terms) on Exudyn's 400-body revolute chain
// (examples/revolute-chain3d.yaml with N: 400, coordinates: joint) at three states near the
// start taken in turn (q0 + 0.3 r, random rates; so the kinematics' two kept positions
// never hold the next q and every evaluation runs the position pass). Instructions per
// evaluation by callgrind on -benchtime 1000x. Run:
//
//	go test -run X -bench RevoluteChain3DForwardDynamics ./modelfile/
func BenchmarkRevoluteChain3DForwardDynamics(b *testing.B) {
	sys := revoluteChainModel(b, "joint").Joint3.System
	q0, _ := sys.InitialGuess()
	nq := len(q0)
	rng := rand.New(rand.NewPCG(1, 2))
	var qs, vs [3][]float64
	for k := range qs {
		qs[k], vs[k] = make([]float64, nq), make([]float64, nq)
		for i := range nq {
			qs[k][i] = q0[i] + 0.3*(2*rng.Float64()-1)
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
}
