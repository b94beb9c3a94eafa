package joint_test

import (
	"testing"

	"linkage/integrate"
	"linkage/joint"
)

// chain3DTipOnPlane is Chain3D with the free end of the last rod held on the horizontal
// plane through the pivot by a one-row cut joint (its world z), a loop whose constraint
// Jacobian depends on every joint angle, so that ∂(Gᵀλ)/∂q ≠ 0 and daealpha's CM
// iteration differs from Newton's method. The stretched start turning about the vertical
// is consistent: the tip stays at z = 0.
func chain3DTipOnPlane(n int) (*joint.System, integrate.State, error) {
	md, last := chain3DModel(n)
	md.Cut("tip", last, [3]float64{chain3DRod, 0, 0}, joint.Ground, [3]float64{}, [3]float64{0, 0, 1})
	sys, err := md.System()
	if err != nil {
		return nil, integrate.State{}, err
	}
	nq, nc := sys.Size()
	s := integrate.NewState(nq, nc)
	s.V[md.Coordinate("ball1.z")] = 1
	return sys, s, nil // daealpha's Init takes a and λ from eq. 17
}

// BenchmarkChainDAEAlphaCSStep: one accepted daealpha step (tolerance 1e-4, 5 warm-up
// steps) on chain3DTipOnPlane of N rods for index2 and the coordinate-split forms cs and
// cs-qr (seed 003, eq. 3.6 by the CM iteration), "joint" on the Newton-Krylov corrector
// (cs: integrate's daeAlphaCM, the CM matrix's products), "joint-dense" with MassSolve
// hidden (the dense CM matrix, N ≤ 100). Run:
//
//	go test -run X -bench ChainDAEAlphaCSStep -benchtime 20x ./joint/
func BenchmarkChainDAEAlphaCSStep(b *testing.B) {
	benchFormsOnChain(b, []integrate.Formulation{integrate.Index2, integrate.CoordinateSplit, integrate.CoordinateSplitQR},
		func(form integrate.Formulation) integrate.Method {
			m := integrate.DefaultDAEAlpha()
			m.Formulation = form
			return &m
		}, chain3DTipOnPlane)
}
