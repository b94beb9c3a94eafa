package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/cputime"
	"linkage/dae"
	"linkage/integrate"
	"linkage/spatial"
)

// BenchmarkLoadedChainAccuracy checks the accuracy of bdf's (ggl, tol 1e-4) long steps on
// the joint route's Newton-Krylov path from the loaded state (dopri5's at t = 0.25 s) of
// the 3D chain of N rods (BenchmarkChainStepCounts's t0=0.25 case, issue 21 item 4): bdf
// takes 105 steps (the benchmark's 5 warm-up steps and 100) and its step ends t_k are the
// checkpoints. A reference, dopri5 on the joint route at tol 1e-10 (index 1), and the
// same at 1e-9 for its own convergence, stop at every t_k; hht and genalpha on the joint
// route and bdf on the body route (spatial, its own loaded state, dopri5's at tol 1e-8),
// all at tol 1e-4, stop there too. Each reports the maximum over the checkpoints and the
// rods of the tip position error |r_tip − r_tip,ref| in metres (tip-err-m; the chain is
// N/2 m long), its accepted steps and CPU seconds, and t_end. Run:
//
//	go test -run X -bench LoadedChainAccuracy -benchtime 1x -timeout 60m ./joint/
func BenchmarkLoadedChainAccuracy(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				loadedChainAccuracy(b, n)
			}
		})
	}
}

// loadedChainAccuracy is one case of BenchmarkLoadedChainAccuracy.
func loadedChainAccuracy(b *testing.B, n int) {
	sys, s, err := Chain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	body, bs, err := bodyChain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	jointTips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
	bodyTips := func(q []float64) []float64 { return bodyChainTips(body.(*spatial.System), q, n) }
	if d := maxTipDistance(jointTips(s.Q), bodyTips(bs.Q)); d > 1e-12 {
		b.Fatalf("the routes' tips differ by %g m at the start; want the same chain", d)
	}
	s, bs = stateAt(b, sys, s, 0.25), stateAt(b, body, bs, 0.25)

	bdf := implicitMethod("bdf")
	ts, bdfTips, st, cpu := runToCheckpoints(b, bdf, sys, s, 105, jointTips)
	b.ReportMetric(ts[len(ts)-1], "t_end")
	// The references stop at every checkpoint; the methods compared run free to t_end
	// (stopping them at bdf's step ends would cap their steps at bdf's). HMax: the whole
	// interval (Step resolves it from its first tEnd otherwise).
	end := ts[len(ts)-1:]
	var ref []runResult
	for _, tol := range []float64{1e-10, 1e-9} {
		ref = append(ref, run(b, fmt.Sprintf("dopri5 %g", tol), sys, s, ts, tol, jointTips))
	}
	ref = append(ref, runResult{"bdf", bdfTips, st, cpu})
	ref = append(ref, run(b, "hht", sys, s, end, 1e-4, jointTips))
	ref = append(ref, run(b, "genalpha", sys, s, end, 1e-4, jointTips))
	ref = append(ref, run(b, "bdf body", body, bs, end, 1e-4, bodyTips))
	last := len(ts) - 1
	for _, r := range ref[1:] {
		atEnd := maxTipDistance(r.tips[len(r.tips)-1], ref[0].tips[last])
		overall := atEnd
		if len(r.tips) == len(ts) {
			for k := range ts {
				overall = math.Max(overall, maxTipDistance(r.tips[k], ref[0].tips[k]))
			}
		}
		b.Logf("N = %d, %s: tip error %.3g m at t = %.4g s, at most %.3g m at the checkpoints it stopped at (%d); %d steps, %d rejected, %d Newton failures, %.1f CPU s",
			n, r.name, atEnd, ts[last], overall, len(r.tips), r.stats.Steps, r.stats.Rejected, r.stats.NewtonFailures, r.cpu)
		b.ReportMetric(atEnd, "tip-err-m/"+metricName(r.name))
	}
}

// metricName makes a method's label a benchmark unit.
func metricName(s string) string {
	out := []byte(s)
	for i, c := range out {
		if c == ' ' {
			out[i] = '-'
		}
	}
	return string(out)
}

// runResult is one method's tips at the checkpoints, its statistics and CPU seconds.
type runResult struct {
	name  string
	tips  [][]float64
	stats integrate.Stats
	cpu   float64
}

// run integrates sys from s through the checkpoints ts with the method named (hht,
// genalpha, bdf: implicitMethod's; "dopri5 …": dopri5 in index-1 form) at tolerance tol.
func run(b *testing.B, name string, sys dae.System, s integrate.State, ts []float64, tol float64, tips func([]float64) []float64) runResult {
	var m integrate.Method
	switch name {
	case "hht", "genalpha":
		m = implicitMethod(name)
	case "bdf", "bdf body":
		m = implicitMethod("bdf")
	default:
		e, err := integrate.Lookup("dopri5")
		if err != nil {
			b.Fatal(err)
		}
		if m, err = e.NewMethod(integrate.Index1); err != nil {
			b.Fatal(err)
		}
	}
	if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: tol, ATol: tol, HMax: ts[len(ts)-1] - s.T}); err != nil {
		b.Fatal(err)
	}
	cpu0 := cputime.Process()
	var out [][]float64
	for _, t := range ts {
		for m.Current().T < t {
			if err := m.Step(t); err != nil {
				b.Fatalf("%s: %v", name, err)
			}
		}
		out = append(out, tips(m.Current().Q))
	}
	return runResult{name, out, m.Stats(), (cputime.Process() - cpu0).Seconds()}
}

// runToCheckpoints takes steps free steps of m (Step(+Inf)) from s and returns its step
// ends, the tips there, its statistics and CPU seconds.
func runToCheckpoints(b *testing.B, m integrate.Method, sys dae.System, s integrate.State, steps int, tips func([]float64) []float64) ([]float64, [][]float64, integrate.Stats, float64) {
	if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
		b.Fatal(err)
	}
	cpu0 := cputime.Process()
	var ts []float64
	var out [][]float64
	for range steps {
		if err := m.Step(math.Inf(1)); err != nil {
			b.Fatal(err)
		}
		ts = append(ts, m.Current().T)
		out = append(out, tips(m.Current().Q))
	}
	return ts, out, m.Stats(), (cputime.Process() - cpu0).Seconds()
}

// chainTips returns the world positions of the tips (x = chain3DRod on each rod's frame)
// of Chain3D's n rods at q, three numbers a rod. Rod i's frame is the third of ball i's
// spherical joint, 3i+2.
func chainTips(position func(q []float64, f int, p [3]float64) [3]float64, q []float64, n int) []float64 {
	out := make([]float64, 0, 3*n)
	for i := range n {
		r := position(q, 3*i+2, [3]float64{chain3DRod, 0, 0})
		out = append(out, r[:]...)
	}
	return out
}

// bodyChainTips returns the tips of bodyChain3D's n rods: rod i's second marker, 2i+3
// (markers count from 1, the ground point O first).
func bodyChainTips(sys *spatial.System, q []float64, n int) []float64 {
	out := make([]float64, 0, 3*n)
	for i := range n {
		r := sys.MarkerPosition(spatial.MarkerID(2*i+3), q)
		out = append(out, r[:]...)
	}
	return out
}

// maxTipDistance returns the largest distance between corresponding tips.
func maxTipDistance(a, c []float64) float64 {
	d := 0.0
	for i := 0; i < len(a); i += 3 {
		d = math.Max(d, math.Hypot(math.Hypot(a[i]-c[i], a[i+1]-c[i+1]), a[i+2]-c[i+2]))
	}
	return d
}

// BenchmarkLoadedChainBDFLocalError traces BenchmarkLoadedChainAccuracy's bdf steps on the
// loaded 1000-rod chain: for each step its size and order, the Newton failures so far,
// its local error (dopri5 at tol 1e-8 from bdf's state at the step's start to its end,
// against bdf's end) as the weighted RMS norm over (q, v) with bdf's weights 1/(tol +
// tol |y_i|), tol 1e-4, which bdf's error test holds at ck‖e‖ ≤ 1, with its largest
// weighted component, and the global tip error against dopri5 from the loaded state.
// Run:
//
//	go test -run X -bench LoadedChainBDFLocalError -benchtime 1x -timeout 60m ./joint/
func BenchmarkLoadedChainBDFLocalError(b *testing.B) {
	for b.Loop() {
		const n, tol = 1000, 1e-4
		sys, s, err := Chain3D(n)
		if err != nil {
			b.Fatal(err)
		}
		s = stateAt(b, sys, s, 0.25)
		m := implicitMethod("bdf")
		if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
			b.Fatal(err)
		}
		ref := s.Clone()
		var worstRMS float64
		var orders [6]int
		for k := range 105 {
			start := m.Current().Clone()
			if err := m.Step(math.Inf(1)); err != nil {
				b.Fatal(err)
			}
			end := m.Current()
			local := stateAt(b, sys, start, end.T) // integrates from start.T
			ref = stateAt(b, sys, ref, end.T)
			rms, worst, at := weightedError(*end, local, tol)
			worstRMS = math.Max(worstRMS, rms)
			order := m.(*integrate.BDF).Order()
			orders[order]++
			if k%15 == 14 {
				b.Logf("step %3d: t = %.4f, h = %.3g ms, order %d, Newton failures %d, local error RMS %.3g (largest %.3g at %s), global tip error %.3g m",
					k+1, end.T, (end.T-start.T)*1e3, order, m.Stats().NewtonFailures, rms, worst, at,
					maxTipDistance(chainTips(sys.Position, end.Q, n), chainTips(sys.Position, ref.Q, n)))
			}
		}
		b.Logf("largest local error RMS over the 105 steps %.3g; steps at orders 1-5: %v", worstRMS, orders[1:])
	}
}

// weightedError returns the weighted RMS norm over (q, v) of x − y with weights
// 1/(tol + tol |y_i|), its largest component and that component's name.
func weightedError(x, y integrate.State, tol float64) (rms, worst float64, at string) {
	var sum float64
	for part, pair := range [2][2][]float64{{x.Q, y.Q}, {x.V, y.V}} {
		for i, xi := range pair[0] {
			e := (xi - pair[1][i]) / (tol + tol*math.Abs(pair[1][i]))
			sum += e * e
			if math.Abs(e) > worst {
				worst, at = math.Abs(e), fmt.Sprintf("%s[%d]", [2]string{"q", "v"}[part], i)
			}
		}
	}
	return math.Sqrt(sum / float64(len(x.Q)+len(x.V))), worst, at
}

// BenchmarkLoadedChainBDFFree runs bdf (tol 1e-4) on the joint route free from the loaded
// 1000-rod chain (dopri5's state at t = 0.25 s) to t = 2.670 s, the end of
// BenchmarkLoadedChainAccuracy's 105 bdf steps with bdf's increment from its rounding level
// (commit a6bea9d), and reports its tip error against dopri5 at tol 1e-9 (BENCHMARKS.md,
// "bdf's difference increment: diffNoise, not its rounding level"). About 4 minutes:
//
//	go test -run X -bench LoadedChainBDFFree -benchtime 1x -timeout 30m ./joint/
func BenchmarkLoadedChainBDFFree(b *testing.B) {
	const n = 1000
	sys, s, err := Chain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
	s = stateAt(b, sys, s, 0.25)
	end := []float64{2.670}
	for b.Loop() {
		bdf := run(b, "bdf", sys, s, end, 1e-4, tips)
		ref := run(b, "dopri5 1e-9", sys, s, end, 1e-9, tips)
		e := maxTipDistance(bdf.tips[0], ref.tips[0])
		b.Logf("bdf free to t = %g s: tip error %.3g m, %d steps, %d rejected, %d Newton failures, %.1f CPU s",
			end[0], e, bdf.stats.Steps, bdf.stats.Rejected, bdf.stats.NewtonFailures, bdf.cpu)
		b.ReportMetric(e, "tip-err-m")
	}
}
