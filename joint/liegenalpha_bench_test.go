package joint_test

import (
	"fmt"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// BenchmarkChainLieGenAlphaStep is BenchmarkChainImplicitStep for lie-genalpha (index 3
// and ggl) on the joint route's 3D chain of N rods: "joint" runs it as genalpha on the
// Newton-Krylov corrector preconditioned through the articulated-body recursion
// (integrate.LieGenAlpha on a dae.MassSolver System), "joint-dense" with MassSolve hidden,
// where it forms its own dense eq. 64 iteration matrix on ℝⁿ (N ≤ 100). Run:
//
//	go test -run X -bench ChainLieGenAlphaStep -benchtime 20x ./joint/
func BenchmarkChainLieGenAlphaStep(b *testing.B) {
	for _, form := range []integrate.Formulation{integrate.Index3, integrate.StabilizedIndex2} {
		for _, route := range []string{"joint", "joint-dense"} {
			for _, n := range []int{10, 100, 1000} {
				if route == "joint-dense" && n > 100 {
					continue
				}
				b.Run(fmt.Sprintf("form=%s/route=%s/N=%d", form, route, n), func(b *testing.B) {
					js, s, err := Chain3D(n)
					if err != nil {
						b.Fatal(err)
					}
					var sys dae.System = js
					if route == "joint-dense" {
						sys = denseOnly{js, js, js, js}
					}
					m := integrate.DefaultLieGenAlpha()
					m.Formulation = form
					benchSteps(b, &m, sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
				})
			}
		}
	}
}
