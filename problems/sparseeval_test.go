package problems

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"fmt"
	"linkage/dae"
	"runtime"
	"strings"
	"testing"

	"linkage/integrate"
	"linkage/planar"
)

// guardBars is the size of the memory guard's chain: nq = 6000, so that one nq×nq matrix
// (288 MB) is far above the budget.
const guardBars = 2000

// guardBudget bounds the bytes allocated by Init and a few steps on the guard's chain, per
// method: the measured allocation (hht 58 MB, dopri5 18 MB, bdf 147 MB, radau5 286 MB,
// daealpha 132 MB (index2; its Newton matrix has order 2nq + 2nc), gcp-newmark 128 MB and gcp-fv
// 100 MB (their augmented Newton matrix of eq. 29 has order nq + 3nc and nq + 2nc; 64 and
// 49 MB at 1000 bars, 260 and 202 MB at 4000: linear), gcp-abm 35 MB (fixed step 1e-4),
// most of it the sparse
// LUs' symbolic analysis, radau5 having a real and a complex one)
// with a margin smaller than one nq×nq matrix (288 MB), so that any such matrix exceeds
// it.
var guardBudget = map[string]uint64{"hht": 100 << 20, "genalpha": 100 << 20, "dopri5": 100 << 20, "rk4": 100 << 20, "hedop5": 100 << 20, "mdop5": 100 << 20, "bdf": 200 << 20, "radau5": 400 << 20, "daealpha": 200 << 20, "gcp-newmark": 200 << 20, "gcp-fv": 200 << 20, "gcp-abm": 100 << 20}

// horizontalBarChain assembles a planar chain of n pinned bars laid out along +x at rest:
// the model's guess is exactly assembled, so the start is consistent without
// dae.Initialize (still dense on this branch).
func horizontalBarChain(t *testing.T, n int) (*planar.System, integrate.State) {
	t.Helper()
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	prev := m.AddMarker(planar.Marker{Name: "O", Body: planar.Ground})
	for i := range n {
		b := m.AddBody(planar.Body{Name: fmt.Sprintf("bar%d", i+1), Mass: chainBarM, Inertia: chainBarM * chainBarL * chainBarL / 12,
			Pos: planar.Vec{chainBarL * (float64(i) + 0.5), 0}})
		a := m.AddMarker(planar.Marker{Name: fmt.Sprintf("bar%d.A", i+1), Body: b, Point: planar.Vec{-chainBarL / 2, 0}})
		m.AddRevolute(fmt.Sprintf("pin%d", i+1), prev, a)
		prev = m.AddMarker(planar.Marker{Name: fmt.Sprintf("bar%d.B", i+1), Body: b, Point: planar.Vec{chainBarL / 2, 0}})
	}
	return assembleAtGuess(t, m)
}

// assembleAtGuess assembles m and returns its initial guess as the start, for models laid
// out exactly assembled and at rest.
func assembleAtGuess(t *testing.T, m *planar.Model) (*planar.System, integrate.State) {
	t.Helper()
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	q0, v0 := sys.InitialGuess()
	nq, nc := sys.Size()
	return sys, integrate.State{Q: q0, V: v0, A: make([]float64, nq), Lambda: make([]float64, nc)}
}

// TestSparseEvalMemoryGuard: on a planar chain of 2000 bars (nq = 6000) Init and three
// steps (tolerance 1e-4) allocate less than guardBudget, so that one nq×nq matrix (288
// MB) on the sparse evaluation path fails it.
func TestSparseEvalMemoryGuard(t *testing.T) {
	sys, start := horizontalBarChain(t, guardBars)
	for _, name := range append(sparseEvalMethods, "rk4", "gcp-newmark", "gcp-fv", "gcp-abm") {
		if name == "genalpha-si2" || name == "newmark" {
			continue // their μ block fills quadratically in linalg.SparseLU (see guardMethod)
		}
		m := guardMethod(name)
		ctl := integrate.StepControl{RTol: 1e-4, ATol: 1e-4}
		if name == "rk4" || name == "gcp-abm" {
			ctl = integrate.StepControl{FixedH: 1e-4}
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := m.Init(sys, start.Clone(), ctl); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for range 3 {
			if err := m.Step(1); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: Init and 3 steps on %d bars allocated %.1f MB", name, guardBars, float64(alloc)/(1<<20))
		if alloc > guardBudget[name] {
			t.Errorf("%s: Init and 3 steps on %d bars allocated %.0f MB, want < %d MB (an nq×nq matrix is 288 MB)",
				name, guardBars, float64(alloc)/(1<<20), guardBudget[name]>>20)
		}
	}
}

// TestGCPRefusesLargeSystems: on a system without the sparse evaluation path (the guard's
// chain with dae.SparseEvaluator hidden) the gcp methods, whose dense path stores
// partitioned nq×nq matrices (2.7 GB at 2000 bars), refuse in Init with a message naming
// its size and the methods that take it, before allocating anything of its size.
func TestGCPRefusesLargeSystems(t *testing.T) {
	big, start := horizontalBarChain(t, guardBars)
	sys := hideValues(big)
	for _, name := range []string{"gcp-newmark", "gcp-fv", "gcp-abm"} {
		e, _ := integrate.Lookup(name)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := e.New().Init(sys, start.Clone(), integrate.StepControl{FixedH: 1e-3})
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("%s took a chain of %d bars (nq = 6000), want a refusal", name, guardBars)
		}
		for _, want := range []string{name, "6000 coordinates", "4000 constraints", "exceed the 2000", "hht", "bdf"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v: want the message to name %q", name, err, want)
			}
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 10<<20 {
			t.Errorf("%s: refusing allocated %d MB, want < 10 (nothing of size nq×nq)", name, d>>20)
		}
	}
}

// guardMethod returns the method name for the memory guard: bdf and radau5 in the
// index-2 form, as their default GGL form's Newton matrix fills quadratically in
// linalg.SparseLU on long chains (bdf: 93 MB at 200 bars, 405 MB at 400), a limit of the
// factorization, not of the evaluation this guard is about. genalpha-si2 and newmark,
// whose Newton matrices have the same μ block, are left out of the guard for the same
// reason (1.25 GB allocated each at 2000 bars, nearly all by the LU's pivoting).
func guardMethod(name string) integrate.Method {
	switch name {
	case "bdf":
		m := integrate.DefaultBDF()
		m.Formulation = integrate.Index2
		return &m
	case "radau5":
		return &integrate.Radau5{Formulation: integrate.Index2}
	}
	e, _ := integrate.Lookup(name)
	return e.New()
}

// sparseEvalMethods are the methods whose steps run on dae.SparseEvaluator.
// gcp-abm joins them in the tests that take a fixed step (it has no error control).
var sparseEvalMethods = []string{"hht", "genalpha", "genalpha-si2", "newmark", "daealpha", "bdf", "dopri5", "mdop5", "hedop5", "radau5"}

// patternsNoValues forwards a System with its patterns and its analytic dense derivatives
// but hides dae.SparseEvaluator, so that the integrators assemble their matrices densely
// and gather them into the same sparse solvers: the path before the sparse evaluation.
type patternsNoValues struct {
	dae.System
	sp dae.Sparsity
	fd dae.ForceDerivative
	cf dae.ConstraintForceDerivative
	md dae.MassDerivative
}

// patternsNoValuesSecond adds the constraint second derivatives of systems that have them.
type patternsNoValuesSecond struct {
	patternsNoValues
	gd dae.GammaDerivative
	jd dae.ConstraintJacobianDerivative
}

// hideValues returns sys without dae.SparseEvaluator (see patternsNoValues).
func hideValues(sys dae.System) dae.System {
	p := patternsNoValues{System: sys, sp: sys.(dae.Sparsity), fd: sys.(dae.ForceDerivative), cf: sys.(dae.ConstraintForceDerivative),
		md: sys.(dae.MassDerivative)}
	gd, ok1 := sys.(dae.GammaDerivative)
	jd, ok2 := sys.(dae.ConstraintJacobianDerivative)
	if ok1 && ok2 {
		return patternsNoValuesSecond{p, gd, jd}
	}
	return p
}

func (s patternsNoValues) MassPattern() [][]int       { return s.sp.MassPattern() }
func (s patternsNoValues) ConstraintPattern() [][]int { return s.sp.ConstraintPattern() }
func (s patternsNoValues) CouplingPattern() [][]int   { return s.sp.CouplingPattern() }
func (s patternsNoValues) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	s.fd.ForceDerivativeQ(dst, t, q, v)
}
func (s patternsNoValues) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	s.fd.ForceDerivativeV(dst, t, q, v)
}
func (s patternsNoValues) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	s.cf.ConstraintForceDerivative(dst, t, q, lambda)
}
func (s patternsNoValues) MassDerivative(dst *mat.Dense, t float64, q, a []float64) {
	s.md.MassDerivative(dst, t, q, a)
}
func (s patternsNoValuesSecond) GammaDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	s.gd.GammaDerivativeQ(dst, t, q, v)
}
func (s patternsNoValuesSecond) GammaDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	s.gd.GammaDerivativeV(dst, t, q, v)
}
func (s patternsNoValuesSecond) ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64) {
	s.jd.ConstraintJacobianDerivative(dst, t, q, w)
}

// TestSparseEvalMatchesDense: every method on the sparse evaluation path (values written
// by dae.SparseEvaluator into the solvers' patterns) takes the same steps as the dense
// evaluation into the same solvers and ends in the same state to rounding, on planar and
// spatial chains, and a step allocates nothing.
func TestSparseEvalMatchesDense(t *testing.T) {
	for _, prob := range []string{"stiffchain", "chain-bars:20", "chain3d:8"} {
		p, err := Get(prob)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range append(sparseEvalMethods, "gcp-newmark", "gcp-fv", "gcp-abm") {
			e, _ := integrate.Lookup(name)
			ctl := integrate.StepControl{RTol: 1e-6, ATol: 1e-6}
			if name == "gcp-abm" {
				ctl = integrate.StepControl{FixedH: 1e-4} // constant step only, explicit: stiffchain diverges at 1e-3
			}
			var final [2]*integrate.Solution
			for k, sys := range []dae.System{p.System, hideValues(p.System)} {
				m := e.New()
				sol, err := integrate.Solve(m, name, sys, p.Start.Clone(), 0.1,
					integrate.SolveOptions{Control: ctl, Output: []float64{0.1}})
				if err != nil {
					t.Fatalf("%s on %s: %v", name, prob, err)
				}
				final[k] = sol
				if k == 0 {
					if n := testing.AllocsPerRun(10, func() { _ = m.Step(1) }); n != 0 {
						t.Errorf("%s on %s, sparse evaluation: Step allocates %v times", name, prob, n)
					}
				}
			}
			var d float64
			for i := range final[0].Final.Q {
				d = math.Max(d, math.Abs(final[0].Final.Q[i]-final[1].Final.Q[i]))
			}
			t.Logf("%s on %s: sparse vs dense evaluation: %d and %d steps, max difference %.2g", name, prob, final[0].Stats.Steps, final[1].Stats.Steps, d)
			r0, r1 := final[0].MaxResidual, final[1].MaxResidual
			// The residuals are cancellations (‖G v + g_t‖ of 1e-6 from terms of 1), and the
			// acceleration level is amplified by 1/(βh²) in the implicit methods, so states
			// equal to 1e-13 give residuals equal to a few digits less.
			near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9+1e-4*math.Abs(y) }
			if !near(r0.Pos, r1.Pos) || !near(r0.Vel, r1.Vel) || !near(r0.Acc, r1.Acc) {
				t.Errorf("%s on %s: Solve's residuals on the sparse path %+v, dense %+v", name, prob, r0, r1)
			}
			if s0, s1 := final[0].Stats, final[1].Stats; strings.HasPrefix(name, "gcp") && (s0.NewtonIters != s1.NewtonIters || s0.Rejected != s1.Rejected) {
				t.Errorf("%s on %s: sparse path %d Newton iterations, %d rejected; dense %d, %d: want the same run", name, prob, s0.NewtonIters, s0.Rejected, s1.NewtonIters, s1.Rejected)
			}
			if final[0].Stats.Steps != final[1].Stats.Steps || d > 1e-10 {
				t.Errorf("%s on %s: sparse and dense evaluation: %d vs %d steps, states differ by %.3g; want the same run to rounding",
					name, prob, final[0].Stats.Steps, final[1].Stats.Steps, d)
			}
		}
	}
}

// TestResidualMeterSparse: dae.ResidualMeter on a SparseEvaluator (G as pattern values)
// gives bit for bit the residuals of the dense meter at an off-manifold state of a bar
// chain, and a 2000-bar chain's meter neither stores nor allocates an nc×nq matrix
// (modelfile's recorder measures every output row with it).
func TestResidualMeterSparse(t *testing.T) {
	sys, s := horizontalBarChain(t, 30)
	nq, _ := sys.Size()
	q, v, a := make([]float64, nq), make([]float64, nq), make([]float64, nq)
	for i := range q {
		q[i] = s.Q[i] + 1e-3*math.Sin(float64(3*i+1))
		v[i] = math.Cos(float64(i))
		a[i] = math.Sin(float64(2 * i))
	}
	sparse := dae.NewResidualMeter(sys).Measure(0.3, q, v, a)
	dense := dae.NewResidualMeter(hideValues(sys)).Measure(0.3, q, v, a)
	if sparse != dense || sparse.Vel == 0 || sparse.Acc == 0 {
		t.Errorf("sparse meter %+v, dense %+v: want the same nonzero residuals", sparse, dense)
	}

	big, bs := horizontalBarChain(t, 2000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m := dae.NewResidualMeter(big)
	m.Measure(0, bs.Q, bs.V, bs.A)
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > 10<<20 {
		t.Errorf("a 2000-bar chain's residual meter allocated %d MB, want < 10 (an nc×nq G is 192 MB)", d>>20)
	}
	if n := testing.AllocsPerRun(5, func() { m.Measure(0, bs.Q, bs.V, bs.A) }); n != 0 {
		t.Errorf("Measure allocates %v times, want 0", n)
	}
}
