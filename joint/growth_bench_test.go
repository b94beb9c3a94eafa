package joint_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"linkage/cputime"
	"linkage/dae"
	"linkage/integrate"
)

// BenchmarkLoadedChainGrowth judges the step-growth bound StepControl.MaxGrow by accuracy at
// equal work on the joint route's loaded 3D chain (issue 21 item 4: on the 1000-rod chain
// half of hht's and genalpha's steps first abandon an attempt grown ×5 past where their
// Newton iteration converges; BenchmarkChainKrylovSplit): hht and genalpha from dopri5's
// state at t = 0.25 s run free to t = 0.75 s at tol 1e-4 and 1e-5 with MaxGrow 5 (the
// default) and 1.5; the reference is dopri5 at tol 1e-10 (index 1; ref-conv-m its distance
// from dopri5 at 1e-9). It reports the largest distance over the rods between a rod's tip
// and the reference's at t = 0.75 s (tip-err-m), the residual evaluations, accepted steps,
// Newton failures and the CPU seconds of the run. Run:
//
//	go test -run X -bench LoadedChainGrowth -benchtime 1x -timeout 30m ./joint/
func BenchmarkLoadedChainGrowth(b *testing.B) {
	const t0, t1 = 0.25, 0.75
	for _, n := range []int{100, 1000} {
		sys, s, err := Chain3D(n)
		if err != nil {
			b.Fatal(err)
		}
		s = stateAt(b, sys, s, t0)
		tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
		end := []float64{t1}
		ref := run(b, "dopri5 1e-10", sys, s, end, 1e-10, tips)
		conv := maxTipDistance(run(b, "dopri5 1e-9", sys, s, end, 1e-9, tips).tips[0], ref.tips[0])
		for _, method := range []string{"hht", "genalpha"} {
			for _, tol := range []float64{1e-4, 1e-5} {
				for _, grow := range []float64{5, 1.5} {
					b.Run(fmt.Sprintf("N=%d/method=%s/tol=%g/maxgrow=%g", n, method, tol, grow), func(b *testing.B) {
						for b.Loop() {
							ctl := integrate.StepControl{RTol: tol, ATol: tol, MaxGrow: grow, HMax: t1 - t0}
							q := freeRun(b, method, sys, s, ctl, t1)
							b.ReportMetric(maxTipDistance(tips(q), ref.tips[0]), "tip-err-m")
							b.ReportMetric(conv, "ref-conv-m")
						}
					})
				}
			}
		}
	}
}

// BenchmarkLoadedChainOffsetTol asks whether the rounding of the world-origin moments costs
// hht and genalpha work at tight tolerances: the 100-rod chain hung from the origin and
// from (0, 450, 0) m (the rods' spin axes 450 m from the origin: BenchmarkResidualNoise
// measures the 1000-rod chain's spin-row noise there), both from the origin chain's loaded
// state (dopri5's at t = 0.25 s; the joint coordinates mean the same motion at both
// suspension points), run free to t = 0.75 s at tol 1e-5 and 1e-6 with MaxGrow 5 and 1.5.
// The tips are compared with dopri5's at tol 1e-10 on the chain at the origin, shifted by
// the suspension point. Metrics as BenchmarkLoadedChainGrowth. Run:
//
//	go test -run X -bench LoadedChainOffsetTol -benchtime 1x -timeout 30m ./joint/
func BenchmarkLoadedChainOffsetTol(b *testing.B) {
	const n, t0, t1 = 100, 0.25, 0.75
	sys0, s, err := Chain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	s = stateAt(b, sys0, s, t0)
	ref := run(b, "dopri5 1e-10", sys0, s, []float64{t1}, 1e-10, func(q []float64) []float64 { return chainTips(sys0.Position, q, n) })
	for _, p := range [][3]float64{{}, {0, 450, 0}} {
		md, _ := chain3DModelHungAt(n, 0.01, p)
		sys, _ := startedChain(b, md)
		sp := s.Clone()
		sys.Accelerations(sp.A, sp.T, sp.Q, sp.V)
		tips := func(q []float64) []float64 {
			x := chainTips(sys.Position, q, n)
			for i := range x {
				x[i] -= p[i%3]
			}
			return x
		}
		for _, method := range []string{"hht", "genalpha"} {
			for _, tol := range []float64{1e-5, 1e-6} {
				if method == "genalpha" && tol == 1e-6 && p != ([3]float64{}) {
					continue // minutes of µs steps: BenchmarkLoadedChainTightTol counts them
				}
				for _, grow := range []float64{5, 1.5} {
					b.Run(fmt.Sprintf("p=%g,%g,%g/method=%s/tol=%g/maxgrow=%g", p[0], p[1], p[2], method, tol, grow), func(b *testing.B) {
						for b.Loop() {
							ctl := integrate.StepControl{RTol: tol, ATol: tol, MaxGrow: grow, HMax: t1 - t0}
							q := freeRun(b, method, sys, sp, ctl, t1)
							b.ReportMetric(maxTipDistance(tips(q), ref.tips[0]), "tip-err-m")
						}
					})
				}
			}
		}
	}
}

// BenchmarkLoadedChainTightTol measures what the rounding of the world-origin moments costs
// genalpha and hht at tight tolerances on the loaded 3D chain: 60 steps from dopri5's
// state at t = 0.25 s on the chain hung from the origin and from a point far from it (the
// same motion in joint coordinates, more rounding in the spin rows: BenchmarkResidualNoise),
// with MaxGrow 5 (default) and 1.5: 1000 rods at tol 1e-5 hung from (0, 2000, 0) m, 100
// rods at tol 1e-6 hung from (0, 450, 0) m (the 1000-rod chain's spin-row noise). It
// reports the simulated time the 60 steps cover (sim-ms) and their work (reportWork). Run:
//
//	go test -run X -bench LoadedChainTightTol -benchtime 1x -timeout 30m ./joint/
func BenchmarkLoadedChainTightTol(b *testing.B) {
	const t0, steps = 0.25, 60
	for _, c := range []struct {
		n   int
		tol float64
		far [3]float64
	}{{1000, 1e-5, [3]float64{0, 2000, 0}}, {100, 1e-6, [3]float64{0, 450, 0}}} {
		sys0, s, err := Chain3D(c.n)
		if err != nil {
			b.Fatal(err)
		}
		s = stateAt(b, sys0, s, t0)
		for _, p := range [][3]float64{{}, c.far} {
			md, _ := chain3DModelHungAt(c.n, 0.01, p)
			sys, _ := startedChain(b, md)
			sp := s.Clone()
			sys.Accelerations(sp.A, sp.T, sp.Q, sp.V)
			for _, method := range []string{"genalpha", "hht"} {
				for _, grow := range []float64{5, 1.5} {
					name := fmt.Sprintf("N=%d/tol=%g/p=%g,%g,%g/method=%s/maxgrow=%g", c.n, c.tol, p[0], p[1], p[2], method, grow)
					b.Run(name, func(b *testing.B) {
						for b.Loop() {
							tightSteps(b, method, sys, sp, integrate.StepControl{RTol: c.tol, ATol: c.tol, MaxGrow: grow}, steps)
						}
					})
				}
			}
		}
	}
}

// tightSteps takes steps steps of the method from s and reports BenchmarkLoadedChainTightTol's
// metrics.
func tightSteps(b *testing.B, method string, sys dae.System, s integrate.State, ctl integrate.StepControl, steps int) {
	m := implicitMethod(method)
	if err := m.Init(sys, s.Clone(), ctl); err != nil {
		b.Fatal(err)
	}
	cpu0 := cputime.Process()
	for range steps {
		if err := m.Step(math.Inf(1)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((m.Current().T-s.T)*1e3, "sim-ms")
	reportWork(b, m, cpu0)
}

// freeRun runs the method (implicitMethod's) from s to t1 under ctl, reports its work
// (reportWork) and returns its positions at t1.
func freeRun(b *testing.B, method string, sys dae.System, s integrate.State, ctl integrate.StepControl, t1 float64) []float64 {
	m := implicitMethod(method)
	if err := m.Init(sys, s.Clone(), ctl); err != nil {
		b.Fatal(err)
	}
	cpu0 := cputime.Process()
	for m.Current().T < t1 {
		if err := m.Step(t1); err != nil {
			b.Fatal(err)
		}
	}
	reportWork(b, m, cpu0)
	return m.Current().Q
}

// reportWork reports m's residual evaluations, accepted steps, attempts abandoned by the
// Newton iteration and the CPU seconds since cpu0.
func reportWork(b *testing.B, m integrate.Method, cpu0 time.Duration) {
	cpu := cputime.Process() - cpu0
	st := m.Stats()
	b.ReportMetric(float64(st.FuncEvals), "fevals")
	b.ReportMetric(float64(st.Steps), "steps")
	b.ReportMetric(float64(st.NewtonFailures+st.Singular+st.NonFinite), "nfail")
	b.ReportMetric(cpu.Seconds(), "cpu-s")
}
