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
	benchFormsOnJointRoutes(b, []integrate.Formulation{integrate.Index3, integrate.StabilizedIndex2},
		func(form integrate.Formulation) integrate.Method {
			m := integrate.DefaultLieGenAlpha()
			m.Formulation = form
			return &m
		})
}

// BenchmarkChainALIStep is BenchmarkChainImplicitStep for the augmented Lagrangian
// methods of seed 001 on the joint route's 3D chain of N rods: ali3 and ali1 at the fixed
// step 1e-3, multi-index at tolerance 1e-4. "joint" is the Newton-Krylov path (GMRES on
// the forward-dynamics residual M(q)⁻¹R, preconditioned by (M + βΦ_qᵀΦ_q)⁻¹M,
// integrate/alikrylov.go), "joint-dense" the dense tangent matrix with MassSolve hidden
// (N ≤ 100). Run:
//
//	go test -run X -bench ChainALIStep -benchtime 20x ./joint/
func BenchmarkChainALIStep(b *testing.B) {
	for _, method := range []string{"ali3", "ali1", "multi-index"} {
		for _, route := range []string{"joint", "joint-dense"} {
			for _, n := range []int{10, 100, 1000} {
				if route == "joint-dense" && n > 100 {
					continue
				}
				b.Run(fmt.Sprintf("method=%s/route=%s/N=%d", method, route, n), func(b *testing.B) {
					js, s, err := Chain3D(n)
					if err != nil {
						b.Fatal(err)
					}
					var sys dae.System = js
					if route == "joint-dense" {
						sys = denseInvariant{denseOnly{js, js, js, js}, js}
					}
					e, err := integrate.Lookup(method)
					if err != nil {
						b.Fatal(err)
					}
					m, err := e.NewMethod("")
					if err != nil {
						b.Fatal(err)
					}
					ctl := integrate.StepControl{FixedH: 1e-3, RTol: 1e-4, ATol: 1e-4}
					if method == "multi-index" {
						ctl = integrate.StepControl{RTol: 1e-4, ATol: 1e-4}
					}
					benchSteps(b, m, sys, s, ctl, 5)
				})
			}
		}
	}
}

// denseInvariant keeps the energy invariant (multi-index's error estimate) on denseOnly.
type denseInvariant struct {
	denseOnly
	dae.EnergyInvariant
}
