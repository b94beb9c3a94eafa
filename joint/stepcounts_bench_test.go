package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/cputime"
	"linkage/dae"
	"linkage/integrate"
)

// BenchmarkChainStepCounts accounts for the work per step of radau5, hht, genalpha and bdf
// (ggl) on the 3D chain of N rods at tolerance 1e-4 (issue 21 item 4: why the cost per
// step grows faster than N): on the joint route (Newton-Krylov path) and on the body route
// (spatial, sparse direct), from the chain's start (t0=0) and from a dopri5 run's state at
// t = 0.25 s (t0=0.25, the rods loaded; stateAt). After 5 warm-up steps it counts, per
// accepted step: attempts refused by the error test (rejected/step) and abandoned by
// the Newton iteration (nfail/step: not converged, singular, non-finite), Newton
// iterations per attempt, Jacobians, residual evaluations (fevals/step) and the mean step
// h-ms; on the joint route the GMRES products per solve: radau5's real system (its Newton
// increments and error estimates) and complex system (two evaluations per product) from
// Radau5.KrylovCounts, with the solves that missed the forcing term; for the others
// prod/iter, the evaluations per Newton iteration less their one residual. A run that
// stops (h below HMin) reports stopped=1 and the counts up to there. Run:
//
//	go test -run X -bench ChainStepCounts -benchtime 20x ./joint/
func BenchmarkChainStepCounts(b *testing.B) {
	for _, t0 := range []float64{0, 0.25} {
		for _, route := range []string{"joint", "body"} {
			for _, n := range []int{10, 100, 1000} {
				var sys dae.System
				var s integrate.State // the state at t0, computed for the first case run
				for _, method := range []string{"radau5", "hht", "genalpha", "bdf"} {
					b.Run(fmt.Sprintf("method=%s/route=%s/t0=%g/N=%d", method, route, t0, n), func(b *testing.B) {
						if sys == nil {
							sys, s = chainOnRoute(b, route, n)
							s = stateAt(b, sys, s, t0)
						}
						stepCounts(b, method, route, sys, s.Clone())
					})
				}
			}
		}
	}
}

// chainOnRoute returns the chain of n rods in joint or body coordinates and its start.
func chainOnRoute(b *testing.B, route string, n int) (dae.System, integrate.State) {
	var sys dae.System
	var s integrate.State
	var err error
	if route == "joint" {
		sys, s, err = Chain3D(n)
	} else {
		sys, s, err = bodyChain3D(n)
	}
	if err != nil {
		b.Fatal(err)
	}
	return sys, s
}

// stepCounts is one case of BenchmarkChainStepCounts.
func stepCounts(b *testing.B, method, route string, sys dae.System, s integrate.State) {
	var m integrate.Method = &integrate.Radau5{}
	if method != "radau5" {
		m = implicitMethod(method)
	}
	methodCounts(b, m, route, sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4})
}

// methodCounts is stepCounts for the method m under the step control ctl.
func methodCounts(b *testing.B, m integrate.Method, route string, sys dae.System, s integrate.State, ctl integrate.StepControl) {
	if err := m.Init(sys, s, ctl); err != nil {
		b.Fatal(err)
	}
	var stopped error
	for range 5 {
		if stopped = m.Step(math.Inf(1)); stopped != nil {
			break
		}
	}
	s0, t0 := m.Stats(), m.Current().T
	r0, c0 := radauKrylov(m)
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		if stopped == nil {
			stopped = m.Step(math.Inf(1))
		}
	}
	cpu := cputime.Process() - cpu0
	st := m.Stats()
	if stopped != nil {
		b.Logf("stopped at t = %.6g: %v", m.Current().T, stopped)
		b.ReportMetric(1, "stopped")
	}
	steps := float64(max(st.Steps-s0.Steps, 1))
	per := func(x, y int) float64 { return float64(x-y) / steps }
	attempts := st.Steps + st.Rejected + st.NewtonFailures + st.Singular + st.NonFinite
	attempts0 := s0.Steps + s0.Rejected + s0.NewtonFailures + s0.Singular + s0.NonFinite
	iters := st.NewtonIters - s0.NewtonIters
	b.ReportMetric(float64(cpu.Microseconds())/1e3/steps, "cpu-ms/step")
	b.ReportMetric((m.Current().T-t0)/steps*1e3, "h-ms")
	b.ReportMetric(per(st.FuncEvals, s0.FuncEvals), "fevals/step")
	b.ReportMetric(per(st.Rejected, s0.Rejected), "rejected/step")
	b.ReportMetric(per(st.NewtonFailures+st.Singular+st.NonFinite, s0.NewtonFailures+s0.Singular+s0.NonFinite), "nfail/step")
	b.ReportMetric(float64(iters)/float64(max(attempts-attempts0, 1)), "newton/attempt")
	b.ReportMetric(per(st.Jacobians, s0.Jacobians), "jacobians/step")
	r, c := radauKrylov(m)
	switch {
	case r.Solves > r0.Solves:
		b.ReportMetric(float64(r.Products-r0.Products)/float64(r.Solves-r0.Solves), "real-prod/solve")
		b.ReportMetric(float64(c.Products-c0.Products)/float64(max(c.Solves-c0.Solves, 1)), "cplx-prod/solve")
		b.ReportMetric(per(r.Solves, r0.Solves), "real-solves/step")
		b.ReportMetric(float64(r.Missed-r0.Missed+c.Missed-c0.Missed), "missed")
	case route == "joint" && iters > 0:
		b.ReportMetric(float64(st.FuncEvals-s0.FuncEvals-iters)/float64(iters), "prod/iter")
	}
}

// radauKrylov returns radau5's GMRES counts (zero for the other methods).
func radauKrylov(m integrate.Method) (real, cplx integrate.KrylovCounts) {
	if r, ok := m.(*integrate.Radau5); ok {
		return r.KrylovCounts()
	}
	return
}
