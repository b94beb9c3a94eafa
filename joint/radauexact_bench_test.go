package joint_test

import (
	"fmt"
	"testing"

	"linkage/cputime"
	"linkage/dae"
	"linkage/integrate"
)

// BenchmarkRadau5ExactProducts compares radau5's (ggl, tol 1e-4 and 3e-5, adaptive) Newton-Krylov
// products on the 3D chain of N rods: exact directional derivatives (the default on the
// joint route, dae.DirectionalDerivatives) against forward differences of φ
// (Radau5.DifferenceProducts), from the chain's start (t0=0) and from the loaded state
// (t0=0.25, dopri5's; stateAt), over 20 ms. It reports per run the accepted steps, Newton
// failures and rejections, residual evaluations (an exact product counts as one), GMRES
// products and missed solves of both systems, CPU seconds and the tip error at the end
// against dopri5 (index 1) at tol 1e-10 (tip-err-um, micrometres, the largest over the rods). Run:
//
//	go test -run X -bench Radau5ExactProducts -benchtime 1x -timeout 60m ./joint/
func BenchmarkRadau5ExactProducts(b *testing.B) {
	const span = 0.02
	for _, n := range []int{10, 100, 1000} {
		for _, t0 := range []float64{0, 0.25} {
			sys, s0, err := Chain3D(n)
			if err != nil {
				b.Fatal(err)
			}
			var ref []float64 // dopri5's tips at t0 + span, computed for the first case run
			for _, c := range []struct {
				products string
				tol      float64
			}{{"exact", 1e-4}, {"difference", 1e-4}, {"exact", 3e-5}, {"difference", 3e-5}} {
				products, tol := c.products, c.tol
				b.Run(fmt.Sprintf("N=%d/t0=%g/products=%s/tol=%g", n, t0, products, tol), func(b *testing.B) {
					tips := func(q []float64) []float64 { return chainTips(sys.Position, q, n) }
					if ref == nil {
						s0 = stateAt(b, sys, s0, t0)
						ref = run(b, "dopri5", sys, s0, []float64{t0 + span}, 1e-10, tips).tips[0]
					}
					for b.Loop() {
						radau5ChainWindow(b, &integrate.Radau5{DifferenceProducts: products == "difference"},
							sys, s0, integrate.StepControl{RTol: tol, ATol: tol}, t0+span, span, tips, ref)
					}
				})
			}
		}
	}
}

// radau5ChainWindow runs m from s0 to tEnd (a window of span seconds) and reports its
// accepted steps, Newton failures and iterations, rejections, residual evaluations (an exact
// product counts as one) in all and per simulated ms, the GMRES products of the real,
// complex and (after a frozen failure, or with Newton.Jacobian every-iteration) coupled stage systems and their missed solves, CPU
// seconds and the largest tip distance from ref in micrometres (tip-err-um).
func radau5ChainWindow(b *testing.B, m *integrate.Radau5, sys dae.System, s0 integrate.State,
	c integrate.StepControl, tEnd, span float64, tips func([]float64) []float64, ref []float64) {
	if err := m.Init(sys, s0.Clone(), c); err != nil {
		b.Fatal(err)
	}
	cpu0 := cputime.Process()
	for m.Current().T < tEnd {
		if err := m.Step(tEnd); err != nil {
			b.Fatal(err)
		}
	}
	cpu := (cputime.Process() - cpu0).Seconds()
	st := m.Stats()
	re, cx := m.KrylovCounts()
	sg := m.StageKrylovCounts()
	b.ReportMetric(float64(st.Steps), "steps")
	b.ReportMetric(float64(st.NewtonFailures), "nfail")
	b.ReportMetric(float64(st.Rejected), "rejected")
	b.ReportMetric(float64(st.NewtonIters), "newton")
	b.ReportMetric(float64(st.FuncEvals), "fevals")
	b.ReportMetric(float64(st.FuncEvals)/(1e3*span), "f/sim-ms")
	b.ReportMetric(float64(re.Products), "real-prod")
	b.ReportMetric(float64(cx.Products), "cplx-prod")
	b.ReportMetric(float64(sg.Products), "stage-prod")
	b.ReportMetric(float64(re.Missed+cx.Missed+sg.Missed), "missed")
	b.ReportMetric(cpu, "cpu-s")
	b.ReportMetric(1e6*maxTipDistance(tips(m.Current().Q), ref), "tip-err-um")
}

// BenchmarkDirectionalProduct measures one Newton-Krylov product's work on the 3D chain of
// N rods (no constraint rows) at a random state: product=exact is one
// InverseDynamicsDirection at q₀ (the positions held, as in a GMRES solve at the simplified
// Newton's point), product=difference one evaluation of φ's dynamic rows, Force and MassMul,
// at a perturbed q (its positions computed), which a forward-difference product costs.
// Count instructions with callgrind (-benchtime 100x, both cases):
//
//	go test -run X -bench DirectionalProduct -benchtime 100x ./joint/
func BenchmarkDirectionalProduct(b *testing.B) {
	for _, n := range []int{100, 1000} {
		sys, s, err := Chain3D(n)
		if err != nil {
			b.Fatal(err)
		}
		nq, _ := sys.Size()
		x := make([][]float64, 5)
		for k := range x {
			x[k] = make([]float64, nq)
			for i := range x[k] {
				x[k][i] = float64((i*7+k*3)%11)/11 - 0.5
			}
		}
		q, v, a, dq, dv := x[0], x[1], x[2], x[3], x[4]
		for i := range q {
			q[i] *= 0.2
			v[i] += s.V[i]
		}
		dst, f := make([]float64, nq), make([]float64, nq)
		b.Run(fmt.Sprintf("N=%d/product=exact", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sys.InverseDynamicsDirection(dst, 0, q, v, a, dq, dv, a)
			}
		})
		qp := make([]float64, nq)
		b.Run(fmt.Sprintf("N=%d/product=difference", n), func(b *testing.B) {
			b.ReportAllocs()
			sign := 1.0
			for b.Loop() {
				sign = -sign
				for i := range q {
					qp[i] = q[i] + sign*1e-7*dq[i]
				}
				sys.Force(f, 0, qp, v)
				sys.MassMul(dst, 0, qp, a)
			}
		})
	}
}
