package joint_test

import (
	"fmt"
	"testing"
)

// BenchmarkChainStepCountsOffset asks whether the rounding of the joint route's world-origin
// moments costs the implicit methods work (issue 21 item 4): hht and genalpha (BenchmarkChainStepCounts'
// counts) on the 3D chain of 100 rods hung from the origin and from a point p 450 m away
// (chainOffsets: the rods then 450-500 m from the origin, as the far half of the 1000-rod
// chain hung from the origin; along x the rods' spin axes pass near the origin, along y
// and z they pass 450 m from it), from the start and from the loaded state (dopri5's at
// t = 0.25 s on the chain at the origin). The joint coordinates, velocities and physics are
// the same at both x0; only the rounding differs. Run:
//
//	go test -run X -bench ChainStepCountsOffset -benchtime 20x ./joint/
func BenchmarkChainStepCountsOffset(b *testing.B) {
	const n = 100
	for _, t0 := range []float64{0, 0.25} {
		md, _ := chain3DModelHungAt(n, 0.01, [3]float64{})
		sys, s := startedChain(b, md)
		s = stateAt(b, sys, s, t0)
		for _, p := range chainOffsets {
			for _, method := range []string{"hht", "genalpha"} {
				b.Run(fmt.Sprintf("method=%s/t0=%g/N=%d/p=%g,%g,%g", method, t0, n, p[0], p[1], p[2]), func(b *testing.B) {
					md, _ := chain3DModelHungAt(n, 0.01, p)
					sysX, _ := startedChain(b, md)
					sx := s.Clone()
					sysX.Accelerations(sx.A, sx.T, sx.Q, sx.V)
					stepCounts(b, method, "joint", sysX, sx)
				})
			}
		}
	}
}

// chainOffsets are BenchmarkChainStepCountsOffset's suspension points (m).
var chainOffsets = [][3]float64{{0, 0, 0}, {450, 0, 0}, {0, 450, 0}, {0, 0, 450}}
