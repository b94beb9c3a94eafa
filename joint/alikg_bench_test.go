package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/cputime"
	"linkage/dae"
	"linkage/integrate"
)

// BenchmarkALIChainAccuracy is the accuracy at equal work of ali3 (fixed steps) and
// multi-index (tolerances) on the joint route's 3D chain of N rods from the start: the
// largest |q − q_ref| over the joint angles at t_end (0.1 s at N = 100, 0.02 s at N =
// 1000) against the trapezoidal rule ali3 solves, taken tight (hht with α = 0 at h =
// 5e-5 s), with the run's steps, force evaluations (GMRES products among them),
// factorizations and CPU. Run (minutes at N = 1000):
//
//	go test -run X -bench ALIChainAccuracy -benchtime 1x ./joint/
func BenchmarkALIChainAccuracy(b *testing.B) {
	for _, n := range []int{100, 1000} {
		tEnd := 0.1
		if n == 1000 {
			tEnd = 0.02
		}
		js, s, err := Chain3D(n)
		if err != nil {
			b.Fatal(err)
		}
		var ref []float64
		reference := func() []float64 {
			if ref == nil {
				m := &integrate.HHT{Alpha: 0}
				if err := runTo(m, js, s, tEnd, integrate.StepControl{FixedH: 5e-5, RTol: 1e-8, ATol: 1e-8}); err != nil {
					b.Fatal(err)
				}
				ref = append([]float64(nil), m.Current().Q...)
			}
			return ref
		}
		type run struct {
			method string
			ctl    integrate.StepControl
			label  string
		}
		var runs []run
		for _, method := range []string{"ali3"} {
			for _, h := range []float64{1, 0.4} {
				runs = append(runs, run{method, integrate.StepControl{FixedH: h * 1e-3, RTol: 1e-4, ATol: 1e-4}, fmt.Sprintf("h=%gms", h)})
			}
		}
		for _, tol := range []float64{1e-4, 1e-5, 1e-6} {
			runs = append(runs, run{"multi-index", integrate.StepControl{RTol: tol, ATol: tol}, fmt.Sprintf("tol=%g", tol)})
		}
		for _, r := range runs {
			b.Run(fmt.Sprintf("N=%d/method=%s/%s", n, r.method, r.label), func(b *testing.B) {
				want := reference()
				for b.Loop() {
					m := methodFor(b, r.method, "")
					cpu0 := cputime.Process()
					err := runTo(m, js, s, tEnd, r.ctl)
					cpu := cputime.Process() - cpu0
					st := m.Stats()
					if err != nil {
						b.Logf("%v", err)
						b.ReportMetric(1, "stopped")
					}
					var d float64
					for i, q := range m.Current().Q {
						d = math.Max(d, math.Abs(q-want[i]))
					}
					b.ReportMetric(d, "max-err")
					b.ReportMetric(float64(st.Steps), "steps")
					b.ReportMetric(float64(st.FuncEvals), "fevals")
					b.ReportMetric(float64(st.NewtonIters), "newton")
					b.ReportMetric(float64(st.Factorizations), "factors")
					b.ReportMetric(cpu.Seconds(), "cpu-s")
				}
			})
		}
	}
}

// runTo initializes m on sys at s and steps it to tEnd.
func runTo(m integrate.Method, sys dae.System, s integrate.State, tEnd float64, ctl integrate.StepControl) error {
	if err := m.Init(sys, s, ctl); err != nil {
		return err
	}
	for m.Current().T < tEnd*(1-1e-12) {
		if err := m.Step(tEnd); err != nil {
			return err
		}
	}
	return nil
}
