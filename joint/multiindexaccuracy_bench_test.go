package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/integrate"
)

// BenchmarkMultiIndexTolerance measures whether multi-index's tolerance (its energy
// estimate, seed 001 eqs. 11-14) controls its error on the joint route's 3D chain of N
// rods (Chain3D, from the start, t_end = 0.1 s): for each tolerance it reports the
// largest joint-angle error |q − q_ref| at t_end against dopri5 (index 1) at tol 1e-10,
// the tip error in metres, the accepted steps, force evaluations and Newton iterations,
// the largest change of the energy invariant over the run, and the estimate's energy
// scale E against the change X of T, V and the work (MultiIndex.EnergyVariation), whose
// ratio makes the run warn above 10; and hht (α = −0.3) at the same tolerances. Run:
//
//	go test -run X -bench MultiIndexTolerance -benchtime 1x -timeout 60m ./joint/
func BenchmarkMultiIndexTolerance(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				multiIndexTolerance(b, n, []float64{1e-4, 1e-5, 1e-6, 1e-7}, false)
			}
		})
	}
}

// BenchmarkMultiIndexLocalError is BenchmarkMultiIndexTolerance at tol 1e-4 and 1e-6
// logging every accepted step: its size, the estimate e (the relative change of Π,
// MultiIndex.LastError) and the true local error, max |q − q_ref| at the step's end
// against dopri5 at tol 1e-11 from the step's start. Run with -v:
//
//	go test -run X -bench MultiIndexLocalError -benchtime 1x -v ./joint/
func BenchmarkMultiIndexLocalError(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				multiIndexTolerance(b, n, []float64{1e-4, 1e-6}, true)
			}
		})
	}
}

// multiIndexTolerance is one case of BenchmarkMultiIndexTolerance (trace: and of
// BenchmarkMultiIndexLocalError).
func multiIndexTolerance(b *testing.B, n int, tols []float64, trace bool) {
	const tEnd = 0.1
	sys, s, err := Chain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
	refQ := dopri5StateAt(b, sys, s, tEnd, 1e-10).Q
	chk := dopri5StateAt(b, sys, s, tEnd, 1e-9).Q
	refTips := tips(refQ)
	b.Logf("N = %d: reference dopri5 1e-10 against 1e-9: %.2g rad, %.2g m", n, maxAbsDiff(refQ, chk), maxTipDistance(tips(chk), refTips))
	for _, tol := range tols {
		m := &integrate.MultiIndex{}
		if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
			b.Fatal(err)
		}
		pi0 := m.EnergyInvariant()
		dPi := 0.0
		for m.Current().T < tEnd {
			if err := m.Step(tEnd); err != nil {
				b.Fatalf("N = %d, tol %g: %v", n, tol, err)
			}
			dPi = math.Max(dPi, math.Abs(m.EnergyInvariant()-pi0))
			if trace {
				st := m.Stats()
				pv := m.Previous().Clone()
				lq := dopri5StateAt(b, sys, pv, m.Current().T, 1e-11).Q
				kin, pot := sys.Energy(m.Current().T, m.Current().Q, m.Current().V)
				b.Logf("  t %.5f h %.3g e %.3g lte %.3g iters %d rej %d fe %d T %.4g V %.4g", m.Current().T, m.Current().T-m.Previous().T, m.LastError(), maxAbsDiff(lq, m.Current().Q), st.NewtonIters, st.Rejected, st.FuncEvals, kin, pot)
			}
		}
		st := m.Stats()
		q := m.Current().Q
		eq, et := maxAbsDiff(q, refQ), maxTipDistance(tips(q), refTips)
		b.Logf("N = %d, tol %g: max angle error %.2g rad, tip error %.2g m; %d steps, %d rejected, %d f evals, %d Newton it., %d failures; max |ΔΠ| %.2g J; %s",
			n, tol, eq, et, st.Steps, st.Rejected, st.FuncEvals, st.NewtonIters, st.NewtonFailures, dPi, m.Report())
		b.Logf("  E %.4g J, X %.4g J, E/X %.3g; warnings %d", m.EnergyScale(), m.EnergyVariation(), m.EnergyScale()/m.EnergyVariation(), len(m.ControlWarnings()))
		b.ReportMetric(eq, fmt.Sprintf("err-rad/tol=%g", tol))
		b.ReportMetric(float64(st.FuncEvals), fmt.Sprintf("fevals/tol=%g", tol))
		if trace {
			continue
		}
		// hht (α = −0.3), the method with a local error estimate the warning names, at
		// the same tolerance and from the same state.
		h := implicitMethod("hht")
		if err := h.Init(sys, s.Clone(), integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
			b.Fatal(err)
		}
		for h.Current().T < tEnd {
			if err := h.Step(tEnd); err != nil {
				b.Fatalf("N = %d, hht tol %g: %v", n, tol, err)
			}
		}
		hs := h.Stats()
		b.Logf("  hht tol %g: max angle error %.2g rad, tip error %.2g m; %d steps, %d f evals, %d Newton it.",
			tol, maxAbsDiff(h.Current().Q, refQ), maxTipDistance(tips(h.Current().Q), refTips), hs.Steps, hs.FuncEvals, hs.NewtonIters)
	}
}

// maxAbsDiff is max |a_i − c_i|.
func maxAbsDiff(a, c []float64) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-c[i]))
	}
	return d
}
