package joint_test

import (
	"testing"

	"linkage/integrate"
)

// BenchmarkChainDAEAlphaCSStep: one accepted daealpha step (tolerance 1e-4, 5 warm-up
// steps) on chain3DTipOnPlane of N rods (its tip held on a plane by a one-row cut joint,
// so ∂(Gᵀλ)/∂q ≠ 0 and the CM iteration is not Newton's method) for index2 and the
// coordinate-split forms cs and cs-qr (seed 003, eq. 3.6 by the CM iteration), "joint"
// on the Newton-Krylov corrector (cs: integrate's daeAlphaCM, the CM matrix's products),
// "joint-dense" with MassSolve hidden (the dense CM matrix, N ≤ 100). Run:
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
