package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
)

// BenchmarkChain3DHHTTolerance measures whether hht's tolerance controls its error on the
// joint route's spinning 3D chain of N rods (Chain3D, from the start to t = 0.15 s, the run
// of issue 21's hht tolerance finding): for each tolerance it logs the largest error
// |q − q_ref| at t_end against dopri5 (index 1) at tol 1e-11, split by the spherical joints'
// Cardan angles (about z, x and y of the successive frames, Model.Spherical), the largest
// velocity error, the rods' tip error in metres, and the steps, evaluations and Newton
// iterations. Run:
//
//	go test -run X -bench Chain3DHHTTolerance -benchtime 1x -timeout 60m ./joint/
func BenchmarkChain3DHHTTolerance(b *testing.B) {
	for _, n := range []int{10, 100, 400} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				hhtTolerance(b, n, []float64{1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8}, false)
			}
		})
	}
}

// BenchmarkChain3DHHTLocalError is BenchmarkChain3DHHTTolerance at tol 1e-4 and 1e-6
// logging every accepted step: its size, hht's estimate (the weighted RMS of δ_q =
// (β − 1/(6(1+α))) h² (a₁ − a₀), seed 004 eq. 26, with a₀, a₁ recovered from the step's
// Newmark formulas) and the true local errors of q and v (dopri5 at tol 1e-11 from the
// step's start) in the same weights, as RMS and as the largest weighted component. Run
// with -v:
//
//	go test -run X -bench Chain3DHHTLocalError -benchtime 1x -v ./joint/
func BenchmarkChain3DHHTLocalError(b *testing.B) {
	for _, n := range []int{10, 100, 400} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				hhtTolerance(b, n, []float64{1e-4, 1e-6}, true)
			}
		})
	}
}

// hhtTolerance is one case of BenchmarkChain3DHHTTolerance (trace: of
// BenchmarkChain3DHHTLocalError).
func hhtTolerance(b *testing.B, n int, tols []float64, trace bool) {
	const tEnd = 0.15
	sys, s, err := Chain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
	ref := dopri5StateAt(b, sys, s, tEnd, 1e-11)
	if !trace {
		chk := dopri5StateAt(b, sys, s, tEnd, 1e-10)
		b.Logf("N = %d: reference dopri5 1e-11 against 1e-10: %.2g rad, %.2g m", n, maxAbsDiff(ref.Q, chk.Q), maxTipDistance(tips(chk.Q), tips(ref.Q)))
	}
	refTips := tips(ref.Q)
	for _, tol := range tols {
		m := integrate.DefaultHHT()
		if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
			b.Fatal(err)
		}
		for m.Current().T < tEnd {
			if err := m.Step(tEnd); err != nil {
				b.Fatalf("N = %d, tol %g: %v", n, tol, err)
			}
			if trace {
				hhtTraceStep(b, sys, &m, tol)
			}
		}
		st := m.Stats()
		q, v := m.Current().Q, m.Current().V
		var kind [3]float64
		worst := 0
		for i := range q {
			d := math.Abs(q[i] - ref.Q[i])
			kind[i%3] = math.Max(kind[i%3], d)
			if d > math.Abs(q[worst]-ref.Q[worst]) {
				worst = i
			}
		}
		b.Logf("N = %d, tol %g: |Δq| z %.2g x %.2g y %.2g rad (worst %s), |Δv| %.2g rad/s, tips %.2g m; %d steps, %d rejected, %d f evals, %d Newton it., %d failures",
			n, tol, kind[0], kind[1], kind[2], dae.CoordinateName(sys, worst), maxAbsDiff(v, ref.V), maxTipDistance(tips(q), refTips),
			st.Steps, st.Rejected, st.FuncEvals, st.NewtonIters, st.NewtonFailures)
		if !trace && tol == 1e-6 { // the angles about y around the worst one: reference, hht
			line := ""
			for j := max(worst/3-8, 0); j <= min(worst/3+8, n-1); j += 2 {
				line += fmt.Sprintf(" %d: %.3g %.3g;", j+1, ref.Q[3*j+2], q[3*j+2])
			}
			b.Logf("  ball, y angle of dopri5, of hht:%s", line)
		}
		b.ReportMetric(maxAbsDiff(q, ref.Q), fmt.Sprintf("err-rad/tol=%g", tol))
		b.ReportMetric(float64(st.FuncEvals), fmt.Sprintf("fevals/tol=%g", tol))
	}
}

// hhtTraceStep logs hht's last accepted step against its true local error.
func hhtTraceStep(b *testing.B, sys dae.System, m *integrate.HHT, tol float64) {
	p, c := m.Previous(), m.Current()
	h := c.T - p.T
	alpha := m.Alpha
	beta, gamma := (1-alpha)*(1-alpha)/4, (1-2*alpha)/2
	errQ := beta - 1/(6*(1+alpha))
	det := (1-gamma)*beta - gamma*(0.5-beta)
	r := dopri5StateAt(b, sys, p.Clone(), c.T, 1e-11)
	w := func(i int) float64 { return tol + tol*math.Max(math.Abs(p.Q[i]), math.Abs(c.Q[i])) }
	var se, sq, sv, me, mq, mv float64
	we, wq, wv := 0, 0, 0
	nq := len(c.Q)
	for i := range nq {
		// a₀, a₁ from v₁ = v₀ + h[(1−γ)a₀ + γa₁], q₁ = q₀ + h v₀ + h²[(1/2−β)a₀ + βa₁]
		dv := (c.V[i] - p.V[i]) / h
		dq := (c.Q[i] - p.Q[i] - h*p.V[i]) / (h * h)
		a0 := (beta*dv - gamma*dq) / det
		a1 := ((1-gamma)*dq - (0.5-beta)*dv) / det
		e := errQ * h * h * (a1 - a0) / w(i)
		eq := (c.Q[i] - r.Q[i]) / w(i)
		ev := (c.V[i] - r.V[i]) / w(i)
		se += e * e
		if math.Abs(e) > me {
			me, we = math.Abs(e), i
		}
		sq += eq * eq
		sv += ev * ev
		if math.Abs(eq) > mq {
			mq, wq = math.Abs(eq), i
		}
		if math.Abs(ev) > mv {
			mv, wv = math.Abs(ev), i
		}
	}
	k := float64(nq)
	b.Logf("  t %.5f h %.3g est rms %.3g max %.3g (%s) lteQ rms %.3g max %.3g (%s) lteV rms %.3g max %.3g (%s)", c.T, h,
		math.Sqrt(se/k), me, dae.CoordinateName(sys, we), math.Sqrt(sq/k), mq, dae.CoordinateName(sys, wq), math.Sqrt(sv/k), mv, dae.CoordinateName(sys, wv))
}

// chain3DReference returns Chain3D(n), its start and dopri5's state at tEnd at tolerance
// 1e-11, the reference of the fixed-step and α benchmarks.
func chain3DReference(b *testing.B, n int, tEnd float64) (*joint.System, integrate.State, integrate.State) {
	sys, s, err := Chain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	return sys, s, dopri5StateAt(b, sys, s, tEnd, 1e-11)
}

// dopri5StateAt is dopri5 (index 1) from s to t at tolerance tol; it returns the state.
func dopri5StateAt(b *testing.B, sys dae.System, s integrate.State, t, tol float64) integrate.State {
	e, err := integrate.Lookup("dopri5")
	if err != nil {
		b.Fatal(err)
	}
	m, err := e.NewMethod(integrate.Index1)
	if err != nil {
		b.Fatal(err)
	}
	if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: tol, ATol: tol, HMax: t - s.T}); err != nil {
		b.Fatal(err)
	}
	for m.Current().T < t {
		if err := m.Step(t); err != nil {
			b.Fatal(err)
		}
	}
	return m.Current().Clone()
}

// BenchmarkChain3DHHTFixedH is BenchmarkChain3DHHTTolerance with fixed steps h: the
// observed order of hht's global error at t_end on the chain. Run:
//
//	go test -run X -bench Chain3DHHTFixedH -benchtime 1x -v ./joint/
func BenchmarkChain3DHHTFixedH(b *testing.B) {
	for _, n := range []int{100, 400} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				const tEnd = 0.15
				sys, s, ref := chain3DReference(b, n, tEnd)
			steps:
				for _, steps := range []int{15, 30, 60, 120, 240, 480, 960} {
					m := integrate.DefaultHHT()
					m.Newton.Tol = 1e-6
					if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: 1e-8, ATol: 1e-8, FixedH: tEnd / float64(steps)}); err != nil {
						b.Fatal(err)
					}
					for m.Current().T < tEnd*(1-1e-12) {
						if err := m.Step(tEnd); err != nil {
							b.Logf("N = %d, %d steps: %v", n, steps, err)
							continue steps
						}
					}
					q, v := m.Current().Q, m.Current().V
					b.Logf("N = %d, %d steps: |Δq| %.3g rad, |Δv| %.3g rad/s, tips %.3g m", n, steps, maxAbsDiff(q, ref.Q), maxAbsDiff(v, ref.V),
						maxTipDistance(chainTips(sys.Position, q, n), chainTips(sys.Position, ref.Q, n)))
				}
			}
		})
	}
}

// BenchmarkChain3DHHTAlpha is BenchmarkChain3DHHTTolerance for α = −0.3 (the default),
// −0.1 and 0 (the trapezoidal rule, no damping): whether less numerical damping keeps the
// ringing at the chain's kink that the default damps. Run:
//
//	go test -run X -bench Chain3DHHTAlpha -benchtime 1x -timeout 60m -v ./joint/
func BenchmarkChain3DHHTAlpha(b *testing.B) {
	for _, n := range []int{100, 400} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				const tEnd = 0.15
				sys, s, ref := chain3DReference(b, n, tEnd)
				for _, alpha := range []float64{-0.3, -0.1, 0} {
					for _, tol := range []float64{1e-5, 1e-6, 1e-7} {
						m := integrate.DefaultHHT()
						m.Alpha = alpha
						if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
							b.Fatal(err)
						}
						failed := false
						for m.Current().T < tEnd && !failed {
							if err := m.Step(tEnd); err != nil {
								b.Logf("N = %d, α %g, tol %g: %v", n, alpha, tol, err)
								failed = true
							}
						}
						if failed {
							continue
						}
						st := m.Stats()
						q := m.Current().Q
						b.Logf("N = %d, α %g, tol %g: |Δq| %.2g rad, tips %.2g m; %d steps, %d f evals, %d Newton failures", n, alpha, tol,
							maxAbsDiff(q, ref.Q), maxTipDistance(chainTips(sys.Position, q, n), chainTips(sys.Position, ref.Q, n)), st.Steps, st.FuncEvals, st.NewtonFailures)
					}
				}
			}
		})
	}
}
