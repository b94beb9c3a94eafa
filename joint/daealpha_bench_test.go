package joint_test

import (
	"fmt"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
)

// BenchmarkChainDAEAlphaStep is BenchmarkChainImplicitStep for daealpha's index2 (seed
// 003, eqs. 3.3-3.4) and index1-proj (eqs. 2.5-2.6) forms on the joint route's 3D chain
// of N rods: "joint" on their Newton-Krylov corrector (GMRES on residual differences
// preconditioned by [M Gᵀ; G 0] solves through the articulated-body recursion),
// "joint-dense" with MassSolve hidden, where they factorize the dense Newton matrix of
// order 2nq + 2nc (N ≤ 100). Run:
//
//	go test -run X -bench ChainDAEAlphaStep -benchtime 20x ./joint/
func BenchmarkChainDAEAlphaStep(b *testing.B) {
	benchFormsOnJointRoutes(b, []integrate.Formulation{integrate.Index2, integrate.Index1Projected},
		func(form integrate.Formulation) integrate.Method {
			m := integrate.DefaultDAEAlpha()
			m.Formulation = form
			return &m
		})
}

// benchFormsOnJointRoutes runs benchSteps (tolerance 1e-4, 5 warm-up steps) for each form
// of the method newMethod makes on the 3D chain of N = 10, 100, 1000 rods, on the joint
// route ("joint", the Newton-Krylov path) and with MassSolve hidden ("joint-dense", the
// dense Newton matrix; N ≤ 100).
func benchFormsOnJointRoutes(b *testing.B, forms []integrate.Formulation, newMethod func(integrate.Formulation) integrate.Method) {
	benchFormsOnChain(b, forms, newMethod, Chain3D)
}

// benchFormsOnChain is benchFormsOnJointRoutes on the chain of N rods that chain builds.
func benchFormsOnChain(b *testing.B, forms []integrate.Formulation, newMethod func(integrate.Formulation) integrate.Method,
	chain func(n int) (*joint.System, integrate.State, error)) {
	for _, form := range forms {
		for _, route := range []string{"joint", "joint-dense"} {
			for _, n := range []int{10, 100, 1000} {
				if route == "joint-dense" && n > 100 {
					continue
				}
				b.Run(fmt.Sprintf("form=%s/route=%s/N=%d", form, route, n), func(b *testing.B) {
					js, s, err := chain(n)
					if err != nil {
						b.Fatal(err)
					}
					var sys dae.System = js
					if route == "joint-dense" {
						sys = denseOnly{js, js, js, js}
					}
					benchSteps(b, newMethod(form), sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
				})
			}
		}
	}
}
