package joint_test

import (
	"fmt"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
)

// chain3DTipOnPlane is Chain3D with the free end of the last rod held on the horizontal
// plane through the pivot by a one-row cut joint (its world z), a loop whose constraint
// Jacobian depends on every joint angle, so that ∂(Gᵀλ)/∂q ≠ 0 and daealpha's CM
// iteration differs from Newton's method. The stretched start turning about the vertical
// is consistent: the tip stays at z = 0.
func chain3DTipOnPlane(n int) (*joint.System, integrate.State, error) {
	const l, m, r, w = 0.5, 1.0, 0.01, 1.0
	md := &joint.Model{Gravity: [3]float64{0, 0, -9.81}}
	rod := joint.Body{Mass: m, COM: [3]float64{l / 2, 0, 0},
		Inertia: [3][3]float64{{m * r * r / 2, 0, 0}, {0, m * l * l / 12, 0}, {0, 0, m * l * l / 12}}}
	f, origin := joint.Ground, [3]float64{}
	for i := range n {
		rod.Name = fmt.Sprint("rod", i+1)
		f = md.Spherical(fmt.Sprint("ball", i+1), f, origin, rod)
		origin = [3]float64{l, 0, 0}
	}
	md.Cut("tip", f, [3]float64{l, 0, 0}, joint.Ground, [3]float64{}, [3]float64{0, 0, 1})
	sys, err := md.System()
	if err != nil {
		return nil, integrate.State{}, err
	}
	nq, nc := sys.Size()
	s := integrate.NewState(nq, nc)
	s.V[md.Coordinate("ball1.z")] = w
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
	for _, form := range []integrate.Formulation{integrate.Index2, integrate.CoordinateSplit, integrate.CoordinateSplitQR} {
		for _, route := range []string{"joint", "joint-dense"} {
			for _, n := range []int{10, 100, 1000} {
				if route == "joint-dense" && n > 100 {
					continue
				}
				b.Run(fmt.Sprintf("form=%s/route=%s/N=%d", form, route, n), func(b *testing.B) {
					js, s, err := chain3DTipOnPlane(n)
					if err != nil {
						b.Fatal(err)
					}
					var sys dae.System = js
					if route == "joint-dense" {
						sys = denseOnly{js, js, js, js}
					}
					m := integrate.DefaultDAEAlpha()
					m.Formulation = form
					benchSteps(b, &m, sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
				})
			}
		}
	}
}
