package joint_test

import (
	"fmt"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
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
	benchGCPRoutes(b, "", Chain3D, integrate.GCPExact)
}

// benchGCPRoutes runs gcp with variant (tolerance 1e-4, after 5 warm-up steps) on model(N)
// for N = 10, 100, 1000 on the Newton-Krylov path ("route=joint") and, for N ≤ 100, on
// the dense one ("route=joint-dense", MassSolve hidden), the sub-benchmarks' names
// starting with prefix.
func benchGCPRoutes(b *testing.B, prefix string, model func(int) (*joint.System, integrate.State, error), variant integrate.GCPVariant) {
	for _, route := range []string{"joint", "joint-dense"} {
		for _, n := range []int{10, 100, 1000} {
			if route == "joint-dense" && n > 100 {
				continue
			}
			b.Run(fmt.Sprintf("%sroute=%s/N=%d", prefix, route, n), func(b *testing.B) {
				js, s, err := model(n)
				if err != nil {
					b.Fatal(err)
				}
				var sys dae.System = js
				if route == "joint-dense" {
					sys = denseOnly{js, js, js, js}
				}
				m := integrate.DefaultGCP()
				m.Variant = variant
				benchSteps(b, &m, sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
			})
		}
	}
}

// chain3DTipOnPlane is Chain3D with its tip held in the plane z = 0 by a cut joint of one
// row: a loop, so that gcp's partition, H (eq. 31) and the terms of eq. 40 that gcp-fv's
// dense Newton matrix drops (N, L and (Gᵀλ)_q) are present, which Chain3D, a tree without
// constraint rows, lacks. The start is Chain3D's (the tip moves horizontally).
func chain3DTipOnPlane(n int) (*joint.System, integrate.State, error) {
	md, tip := chain3DModel(n)
	md.Cut("tip", tip, [3]float64{chain3DRod, 0, 0}, joint.Ground, [3]float64{float64(n) * chain3DRod, 0, 0}, [3]float64{0, 0, 1})
	sys, err := md.System()
	if err != nil {
		return nil, integrate.State{}, err
	}
	nq, nc := sys.Size()
	s := integrate.NewState(nq, nc)
	s.V[md.Coordinate("ball1.z")] = chain3DRate
	return sys, s, nil
}

// BenchmarkChainGCPLoopStep measures an accepted step of gcp-fv and gcp-newmark (tolerance
// 1e-4, full Newton as the paper, after 5 warm-up steps) on chain3DTipOnPlane of N rods:
// "joint", the Newton-Krylov corrector (GMRES on differences of Ψ, eq. 20, preconditioned
// by Zᵀ M Z through the recursion; integrate/gcpmass.go), where the two methods are one
// iteration; "joint-dense", MassSolve hidden (CRBA M, eq. 29 assembled, for gcp-fv less
// eq. 40, dense LU; N ≤ 100). Run:
//
//	go test -run X -bench ChainGCPLoopStep -benchtime 10x ./joint/
func BenchmarkChainGCPLoopStep(b *testing.B) {
	benchGCPRoutes(b, "method=gcp-fv/", chain3DTipOnPlane, integrate.GCPFisetteVaneghem)
	benchGCPRoutes(b, "method=gcp-newmark/", chain3DTipOnPlane, integrate.GCPExact)
}

// BenchmarkChainGCPNewmarkIters measures accepted gcp-newmark steps on the Newton-Krylov
// path (tolerance 1e-4, after 5 warm-up steps) on Chain3D of N rods with the default
// budget of full Newton iterations (8) and with 16: the step collapse at N = 1000 is full
// Newton running out of iterations from the section 3.3 predictor, not the error test
// (BENCHMARKS "gcp-newmark's step collapse on the 1000-rod chain"). Run with
// -benchtime 40x so that the collapse (after the 15th step at N = 1000) is inside:
//
//	go test -run X -bench ChainGCPNewmarkIters -benchtime 40x ./joint/
func BenchmarkChainGCPNewmarkIters(b *testing.B) {
	for _, iters := range []int{8, 16} {
		for _, n := range []int{100, 300, 1000} {
			b.Run(fmt.Sprintf("maxiters=%d/N=%d", iters, n), func(b *testing.B) {
				js, s, err := Chain3D(n)
				if err != nil {
					b.Fatal(err)
				}
				m := integrate.DefaultGCP()
				m.Newton.MaxIters = iters
				benchSteps(b, &m, js, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
			})
		}
	}
}
