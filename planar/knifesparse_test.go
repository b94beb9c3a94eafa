package planar_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/planar"
)

// sleighTrain is n Chaplygin sleighs in a row, each on a knife edge 0.3 behind its
// centre, hitched by revolutes (a tractor and its trailers), sliding down the plane under
// gravity (0, −1) with the leader turning: nq = 3n, nc = 2(n − 1) + n, which for n = 8 is
// 46 rows of the KKT matrix, above the integrators' sparse threshold (40).
func sleighTrain(t *testing.T, n int) *planar.System {
	t.Helper()
	md := planar.NewModel()
	md.SetGravity(planar.Vec{0, -1})
	var prev planar.BodyID
	for i := range n {
		b := md.AddBody(planar.Body{Name: fmt.Sprintf("sleigh%d", i), Mass: 1 + 0.1*float64(i), Inertia: 0.1, Pos: planar.Vec{-1.2 * float64(i), 0},
			Vel: planar.Vec{1, 0}, AngVel: 0.8 * float64(1-min(i, 1))})
		k := md.AddMarker(planar.Marker{Body: b, Point: planar.Vec{-0.3, 0}})
		md.AddKnifeEdge(fmt.Sprintf("blade%d", i), k)
		if i > 0 {
			p1 := md.AddMarker(planar.Marker{Body: prev, Point: planar.Vec{-0.6, 0}})
			p2 := md.AddMarker(planar.Marker{Body: b, Point: planar.Vec{0.6, 0}})
			md.AddRevolute(fmt.Sprintf("hitch%d", i), p1, p2)
		}
		prev = b
	}
	sys, err := md.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// denseValues hides the sparse values of a planar System (its MassValues is shadowed, so
// it is no dae.SparseEvaluator): the dense evaluation path, with every other capability
// (the Pfaffian rows included, which hideSparse of friction_test.go drops) and the
// patterns, with which the Newton matrices are factorized sparsely as on the sparse path.
type denseValues struct{ *planar.System }

func (denseValues) MassValues() {}

// countingSparse counts the evaluations of the Pfaffian rows on their pattern.
type countingSparse struct {
	*planar.System
	n *int
}

func (c countingSparse) PfaffianValues(dst, b []float64, t float64, q []float64) {
	*c.n++
	c.System.PfaffianValues(dst, b, t, q)
}

// TestSleighTrainSparseMatchesDense: on the train of 8 sleighs (holonomic hitches and
// nonholonomic blades), hht, bdf (ggl and index2), radau5, dopri5 and mdop5 take the sparse
// path with the Pfaffian rows on their patterns (dae.SparseNonholonomic; the rows' values
// are evaluated, counted; genalpha steps densely, its start and Solve's residual meter
// evaluate them) and give the run of the dense path: the same steps, rejections and Newton
// iterations, and states within 1e-10 at t = 1 (rtol = atol = 1e-6), as
// problems.TestEveryMethodSparseMatchesDense asks of the holonomic rows; and a step on
// the sparse path allocates nothing after warm-up.
func TestSleighTrainSparseMatchesDense(t *testing.T) {
	sys := sleighTrain(t, 8)
	if _, ok := dae.WithPfaffianRows(sys).(dae.SparseEvaluator); !ok {
		t.Fatal("WithPfaffianRows of the train is not a dae.SparseEvaluator")
	}
	if _, ok := dae.WithPfaffianRows(denseValues{sys}).(dae.SparseEvaluator); ok {
		t.Fatal("denseValues still reaches the sparse path")
	}
	s0, _ := start(t, sys)
	const tEnd = 1
	for _, method := range []string{"hht", "bdf", "bdf/index2", "radau5", "dopri5", "mdop5", "genalpha"} {
		var sol [2]*integrate.Solution
		var evals int
		for k, s := range []dae.System{countingSparse{sys, &evals}, denseValues{sys}} {
			var err error
			sol[k], err = integrate.Solve(newMethod(t, method), method, s, s0.Clone(), tEnd,
				integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-6, ATol: 1e-6}, Output: []float64{tEnd}})
			if err != nil {
				t.Fatalf("%s (path %d): %v", method, k, err)
			}
		}
		if evals == 0 {
			t.Errorf("%s: the Pfaffian rows were never evaluated on their pattern: the run did not take the sparse path", method)
		}
		var d float64
		for i := range sol[0].Final.Q {
			d = math.Max(d, math.Abs(sol[0].Final.Q[i]-sol[1].Final.Q[i]))
			d = math.Max(d, math.Abs(sol[0].Final.V[i]-sol[1].Final.V[i]))
		}
		a, b := sol[0].Stats, sol[1].Stats
		t.Logf("%s: %d steps, %d Newton iterations, %d sparse evaluations of A; sparse vs dense states differ by %.2g",
			method, a.Steps, a.NewtonIters, evals, d)
		if a.Steps != b.Steps || a.Rejected != b.Rejected || a.NewtonIters != b.NewtonIters || !(d <= 1e-10) {
			t.Errorf("%s: sparse path %d steps (%d rejected, %d Newton iterations), dense %d (%d, %d); states differ by %.3g: want the same run to rounding",
				method, a.Steps, a.Rejected, a.NewtonIters, b.Steps, b.Rejected, b.NewtonIters, d)
		}
		m := newMethod(t, method)
		if err := m.Init(sys, s0.Clone(), integrate.StepControl{RTol: 1e-6, ATol: 1e-6}); err != nil {
			t.Fatal(err)
		}
		for range 5 {
			if err := m.Step(100); err != nil {
				t.Fatal(err)
			}
		}
		if n := testing.AllocsPerRun(10, func() { _ = m.Step(100) }); n != 0 {
			t.Errorf("%s: a step on the sparse path with Pfaffian rows allocates %v times, want 0", method, n)
		}
	}
}

// badRate writes ∂(A v + b)/∂q on the pattern with the wrong sign.
type badRate struct{ *planar.System }

func (b badRate) PfaffianRateDerivativeValues(dst []float64, t float64, q, v []float64) {
	b.System.PfaffianRateDerivativeValues(dst, t, q, v)
	for i := range dst {
		dst[i] = -dst[i]
	}
}

// TestKnifeEdgeSparseCheck: dae.Check compares the knife edges' values on their patterns
// (dae.SparseNonholonomic) with the dense matrices, and names a wrong ∂(A v + b)/∂q.
func TestKnifeEdgeSparseCheck(t *testing.T) {
	sys := sleighTrain(t, 3)
	s0, _ := start(t, sys)
	p := dae.CheckPoint{T: 0, Q: s0.Q, V: s0.V}
	if _, err := dae.Check(sys, p, 1e-6); err != nil {
		t.Errorf("train of 3: %v", err)
	}
	_, err := dae.Check(badRate{sys}, p, 1e-6)
	if err == nil || !strings.Contains(err.Error(), "d(A v + b)/dq") {
		t.Errorf("wrong sparse ∂(A v + b)/∂q: err = %v, want it named", err)
	}
}

// BenchmarkSleighTrainStep times one step of fixed size 1e-3 on a train of 100 sleighs
// (nq = 300, 198 hitch rows, 100 knife rows) with hht and bdf, on the sparse path (the
// Pfaffian rows on their patterns) and with dense evaluation (denseValues, the path a
// system with nonholonomic rows took before): BENCHMARKS.md records it.
func BenchmarkSleighTrainStep(b *testing.B) {
	t := &testing.T{}
	sys := sleighTrain(t, 100)
	s0, _ := start(t, sys)
	for _, method := range []string{"hht", "bdf"} {
		for _, c := range []struct {
			name string
			sys  dae.System
		}{{"sparse", sys}, {"dense", denseValues{sys}}} {
			b.Run(method+"/"+c.name, func(b *testing.B) {
				e, _ := integrate.Lookup(method)
				m := e.New()
				if err := m.Init(c.sys, s0.Clone(), integrate.StepControl{FixedH: 1e-3}); err != nil {
					b.Fatal(err)
				}
				for range 5 {
					if err := m.Step(100); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := m.Step(100); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
