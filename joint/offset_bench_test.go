package joint_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"linkage/cputime"
	"linkage/integrate"
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

// BenchmarkChainKrylovPolicy asks what doubles the loaded chain's GMRES products per Newton
// iteration from N = 100 to 1000 (hht 3.5 → 6.3, genalpha 3.3 → 6.8 under error control,
// BENCHMARKS.md "The cost per step against N"): hht and genalpha from the loaded state
// (dopri5's at t = 0.25 s) of the 3D chain, under error control (tol 1e-4) and at fixed
// steps h, with the preconditioner M + k K_g refreshed as the methods decide (auto), once
// per attempt (step) or at every Newton iteration (iter): products that fall with a fresh
// preconditioner were spent on its staleness (K_g, M at an earlier iterate and k at an
// earlier h), products that stay on what it lacks at the iterate. Counts as
// BenchmarkChainStepCounts. Run:
//
//	go test -run X -bench ChainKrylovPolicy -benchtime 20x ./joint/
func BenchmarkChainKrylovPolicy(b *testing.B) {
	policies := map[string]integrate.JacobianPolicy{"auto": integrate.JacobianAuto,
		"step": integrate.JacobianEveryStep, "iter": integrate.JacobianEveryIteration}
	for _, n := range []int{100, 1000} {
		sys, s := chainOnRoute(b, "joint", n)
		s = stateAt(b, sys, s, 0.25)
		for _, h := range []float64{0, 5e-3, 12e-3, 20e-3} {
			for _, method := range []string{"hht", "genalpha"} {
				for _, policy := range []string{"auto", "step", "iter"} {
					b.Run(fmt.Sprintf("method=%s/N=%d/h=%g/P=%s", method, n, h, policy), func(b *testing.B) {
						ctl := integrate.StepControl{RTol: 1e-4, ATol: 1e-4, FixedH: h}
						methodCounts(b, newtonPolicy(method, policies[policy]), "joint", sys, s.Clone(), ctl)
					})
				}
			}
		}
	}
}

// newtonPolicy returns the default hht or genalpha refreshing its iteration matrix by p.
func newtonPolicy(method string, p integrate.JacobianPolicy) integrate.Method {
	if method == "hht" {
		m := integrate.DefaultHHT()
		m.Newton.Jacobian = p
		return &m
	}
	m := integrate.DefaultGenAlpha()
	m.Newton.Jacobian = p
	return &m
}

// BenchmarkChainKrylovSplit splits the GMRES products per Newton iteration of hht and
// genalpha on the loaded 3D chain (tol 1e-4, dopri5's state at t = 0.25 s, 20 steps after 5
// warm-up steps) between the steps whose only attempt converged ("clean") and those that
// first abandoned an attempt to the Newton iteration ("failing": the failed attempt's
// iterations, whose GMRES solves run to their 20-product limit as the iteration diverges,
// and the retry's), with the default growth bound MaxGrow = 5 and with 1.5: prod/iter-clean
// and prod/iter-fail are the evaluations per Newton iteration less one in each class,
// f-fail-share the failing steps' share of all evaluations. Run:
//
//	go test -run X -bench ChainKrylovSplit -benchtime 20x ./joint/
func BenchmarkChainKrylovSplit(b *testing.B) {
	for _, n := range []int{100, 1000} {
		sys, s := chainOnRoute(b, "joint", n)
		s = stateAt(b, sys, s, 0.25)
		for _, grow := range []float64{5, 1.5} {
			for _, method := range []string{"hht", "genalpha"} {
				b.Run(fmt.Sprintf("method=%s/N=%d/maxgrow=%g", method, n, grow), func(b *testing.B) {
					m := implicitMethod(method)
					if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4, MaxGrow: grow}); err != nil {
						b.Fatal(err)
					}
					splitCounts(b, m)
				})
			}
		}
	}
}

// splitCounts steps m (5 warm-up steps, then b.N) and reports BenchmarkChainKrylovSplit's
// metrics.
func splitCounts(b *testing.B, m integrate.Method) {
	for range 5 {
		if err := m.Step(math.Inf(1)); err != nil {
			b.Fatal(err)
		}
	}
	t0 := m.Current().T
	var f, it [2]int // by class: clean, failing
	var steps [2]int
	cpu0 := cputime.Process()
	for b.Loop() {
		s0 := m.Stats()
		if err := m.Step(math.Inf(1)); err != nil {
			b.Fatal(err)
		}
		s1 := m.Stats()
		c := 0
		if s1.NewtonFailures+s1.Singular+s1.NonFinite > s0.NewtonFailures+s0.Singular+s0.NonFinite {
			c = 1
		}
		f[c] += s1.FuncEvals - s0.FuncEvals
		it[c] += s1.NewtonIters - s0.NewtonIters
		steps[c]++
	}
	cpu := cputime.Process() - cpu0
	total := float64(steps[0] + steps[1])
	b.ReportMetric(float64(cpu.Microseconds())/1e3/total, "cpu-ms/step")
	b.ReportMetric((m.Current().T-t0)/total*1e3, "h-ms")
	b.ReportMetric(float64(f[0]+f[1])/total, "fevals/step")
	b.ReportMetric(float64(steps[1])/total, "failing-steps")
	b.ReportMetric(float64(f[1])/float64(max(f[0]+f[1], 1)), "f-fail-share")
	for c, name := range []string{"prod/iter-clean", "prod/iter-fail"} {
		if it[c] > 0 {
			b.ReportMetric(float64(f[c]-it[c])/float64(it[c]), name)
			b.ReportMetric(float64(it[c])/float64(steps[c]), strings.TrimPrefix(name, "prod/")+"/step")
		}
	}
}
