package joint_test

import (
	"fmt"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// BenchmarkChainGCPABMStep measures one gcp-abm step (h = 2.5e-4; a PECE step, two
// evaluations of the state-space ODE) on the joint-route chain of N rods, after 10 warm-up
// steps (past the three RK4 starting steps): "gcp-abm", eq. 39 as eq. 17 by the
// articulated-body recursion through dae.MassSolver (integrate/gcpmass.go; no nq×nq
// matrix); "gcp-abm-dense", MassSolve hidden (CRBA M, the reduced mass of eq. 39 and its
// dense LU; N ≤ 100); and rk4 on the same chain (four evaluations of eq. 17). The step is
// small because ABM4's stability region is: at N = 1000 gcp-abm diverges at h = 1e-3 and
// 5e-4, where rk4 does not. Run:
//
//	go test -run X -bench ChainGCPABMStep -benchtime 100x ./joint/
func BenchmarkChainGCPABMStep(b *testing.B) {
	for _, method := range []string{"gcp-abm", "gcp-abm-dense", "rk4"} {
		for _, n := range []int{10, 100, 1000} {
			if method == "gcp-abm-dense" && n > 100 {
				continue
			}
			b.Run(fmt.Sprintf("method=%s/N=%d", method, n), func(b *testing.B) {
				js, s, err := Chain3D(n)
				if err != nil {
					b.Fatal(err)
				}
				var sys dae.System = js
				var m integrate.Method = &integrate.ABM{}
				switch method {
				case "gcp-abm-dense":
					sys = denseOnly{js, js, js, js}
				case "rk4":
					m = &integrate.RK4{}
				}
				benchSteps(b, m, sys, s, integrate.StepControl{FixedH: 2.5e-4}, 10)
			})
		}
	}
}

// BenchmarkChainGCPNewmarkStep measures an accepted gcp-newmark step (tolerance 1e-4,
// after 5 warm-up steps) on the joint-route chain of N rods: "joint", the Newton-Krylov
// corrector (GMRES on differences of Ψ, eq. 20, preconditioned by Zᵀ M Z through the
// recursion; integrate/gcpmass.go); "joint-dense", MassSolve hidden (CRBA M, eq. 29
// assembled with the analytic derivatives and factorized; N ≤ 100). Run:
//
//	go test -run X -bench ChainGCPNewmarkStep -benchtime 20x ./joint/
func BenchmarkChainGCPNewmarkStep(b *testing.B) {
	for _, route := range []string{"joint", "joint-dense"} {
		for _, n := range []int{10, 100, 1000} {
			if route == "joint-dense" && n > 100 {
				continue
			}
			b.Run(fmt.Sprintf("route=%s/N=%d", route, n), func(b *testing.B) {
				js, s, err := Chain3D(n)
				if err != nil {
					b.Fatal(err)
				}
				var sys dae.System = js
				if route == "joint-dense" {
					sys = denseOnly{js, js, js, js}
				}
				m := integrate.DefaultGCP()
				benchSteps(b, &m, sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
			})
		}
	}
}
