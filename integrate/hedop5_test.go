package integrate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/linalg"
)

// TestHEDOP5Tableau checks the extra row of HEDOP5: Σⱼ a₈ⱼ = c₈ = 19/20 (the row-sum
// condition every stage of eq. 81d satisfies), to rounding of the rationals (1e-15).
func TestHEDOP5Tableau(t *testing.T) {
	var sum float64
	for _, a := range hedA8 {
		sum += a
	}
	if math.Abs(sum-hedC8) > 1e-15 {
		t.Errorf("Σ a₈ⱼ = %.17g, want c₈ = %g", sum, hedC8)
	}
	// Σ a₈ⱼ cⱼ = c₈²/2 (second-order stage condition), to the same rounding.
	var s2 float64
	for j, a := range hedA8 {
		s2 += a * dp5C[j]
	}
	if math.Abs(s2-hedC8*hedC8/2) > 1e-14 {
		t.Errorf("Σ a₈ⱼ cⱼ = %.17g, want c₈²/2 = %g", s2, hedC8*hedC8/2)
	}
}

// hedop5Errors runs HEDOP5 with fixed steps h = h0, h0/2, h0/4 on the test pendulum to
// tEnd and returns the max-norm errors of q, v and λ over all accepted steps (a single
// time can hide an error component through a sign change; the conformance suite measures
// the same way).
func hedop5Errors(t *testing.T, form Formulation, h0, tEnd float64) (eq, ev, el [3]float64) {
	t.Helper()
	p, start, phi0, omega0 := testPendulum()
	for k := range 3 {
		h := h0 / float64(int(1)<<k)
		m := &HEDOP5{Formulation: form}
		if err := m.Init(p, start, StepControl{FixedH: h}); err != nil {
			t.Fatal(err)
		}
		for m.Current().T < tEnd {
			if err := m.Step(tEnd); err != nil {
				t.Fatal(err)
			}
			c := m.Current()
			qRef, vRef, lamRef := pendulumRef(p, phi0, omega0, c.T)
			eq[k] = math.Max(eq[k], maxAbsDiff(c.Q, qRef))
			ev[k] = math.Max(ev[k], maxAbsDiff(c.V, vRef))
			el[k] = math.Max(el[k], math.Abs(c.Lambda[0]-lamRef))
		}
		if c := m.Current(); c.T != tEnd {
			t.Fatalf("%s: ended at t = %g, want %g", form, c.T, tEnd)
		}
	}
	return eq, ev, el
}

// TestHEDOP5Order checks the convergence order with fixed steps h = 1/80, 1/160, 1/320 on
// the pendulum (φ₀ = 1 rad) against the angle-equation reference (~1e-14), errors taken
// as maxima over the accepted steps on [0, 1]. Each log2 error ratio of q and v must lie
// within ±0.3 of 5 (the band of TestDOPRI5Order), for both formulations. λ with
// Index2Projected (eq. 17 at the projected state) is checked on the finer pair only: the
// coarser pair measured 5.32, its h⁶ term still showing, and at h/8 rounding amplified by
// the KKT solve takes over (~1e-13). λ = Λ₇ of Index2 is of order 4: TestHEDOP5LambdaOrder.
// h = 1/80 is the coarsest h in the asymptotic range for v (1/32 gave 5.52, 1/64 5.30).
func TestHEDOP5Order(t *testing.T) {
	for _, form := range []Formulation{Index2, Index2Projected} {
		eq, ev, el := hedop5Errors(t, form, 1.0/80, 1)
		for _, b := range []struct {
			name  string
			e     [3]float64
			first int // first ratio asserted
		}{{"q", eq, 0}, {"v", ev, 0}, {"lambda", el, 1}} {
			for k := range 2 {
				r := math.Log2(b.e[k] / b.e[k+1])
				t.Logf("%s %s: e(h/%d) = %.3g, e(h/%d) = %.3g, order %.3f", form, b.name, 1<<k, b.e[k], 1<<(k+1), b.e[k+1], r)
				if b.name == "lambda" && form == Index2 || k < b.first {
					continue
				}
				if math.Abs(r-5) > 0.3 || math.IsNaN(r) {
					t.Errorf("%s: observed order of %s = %.3f (errors %.3g, %.3g), want 5 ± 0.3", form, b.name, r, b.e[k], b.e[k+1])
				}
			}
		}
	}
}

// TestHEDOP5LambdaOrder measures the order of λ₁ = Λ₇ (Index2, d = e₇ in eq. 81f) from the
// local error of one step from the exact state at t = 0.3 (exact λ₀ from eq. 17): with
// r(h) = |λ₁ − λ(t+h)|/h⁴ and the Richardson estimates B = 2 r(h/2) − r(h) of the h⁴
// coefficient, h = 0.025, 0.0125, 0.00625 gave B = 1.51 and 1.74 and r ≈ B + 280 h: the
// local (and so the global) λ error of Index2 is O(h⁴), with a large h⁵ term that makes
// fixed-step ratios look like 5 for h ≥ 1/64 (TestHEDOP5Order logs them). Asserted: both B
// in [1, 2.5] (an order-5 λ gives B → 0; the range is the measured values ±0.5) and the
// q, v local errors at h = 0.00625 below 1e-12 (measured 1.6e-13: order 5 globally).
func TestHEDOP5LambdaOrder(t *testing.T) {
	p, _, phi0, omega0 := testPendulum()
	const t0 = 0.3
	q0, v0, _ := pendulumRef(p, phi0, omega0, t0)
	start := consistentState(p, t0, q0[:], v0[:])
	hs := []float64{0.025, 0.0125, 0.00625}
	var r [3]float64
	for i, h := range hs {
		m := &HEDOP5{Formulation: Index2}
		if err := m.Init(p, start, StepControl{FixedH: h}); err != nil {
			t.Fatal(err)
		}
		if err := m.Step(t0 + h); err != nil {
			t.Fatal(err)
		}
		c := m.Current()
		qr, vr, lr := pendulumRef(p, phi0, omega0, c.T)
		r[i] = math.Abs(c.Lambda[0]-lr) / math.Pow(h, 4)
		eqv := math.Max(maxAbsDiff(c.Q, qr), maxAbsDiff(c.V, vr))
		t.Logf("h = %g: λ local error / h⁴ = %.3g, (q, v) local error %.3g", h, r[i], eqv)
		if i == 2 && !(eqv < 1e-12) {
			t.Errorf("h = %g: (q, v) local error %.3g, want < 1e-12", h, eqv)
		}
	}
	for i := range 2 {
		b := 2*r[i+1] - r[i]
		t.Logf("h⁴ coefficient from h = %g, %g: %.3g", hs[i], hs[i+1], b)
		if !(b >= 1 && b <= 2.5) {
			t.Errorf("h⁴ coefficient of the λ local error from h = %g, %g is %.3g, want in [1, 2.5]", hs[i], hs[i+1], b)
		}
	}
}

// TestHEDOP5Adaptive: with error control to t = 4 on the pendulum the global error of (q,
// v) decreases with tol and stays below 50·tol (the bound of TestDOPRI5Adaptive, whose
// error estimator this is; measured factors are logged), for both formulations.
func TestHEDOP5Adaptive(t *testing.T) {
	p, start, phi0, omega0 := testPendulum()
	const tEnd = 4.0
	qRef, vRef, _ := pendulumRef(p, phi0, omega0, tEnd)
	for _, form := range []Formulation{Index2Projected, Index2} {
		prev := math.Inf(1)
		for _, tol := range []float64{1e-4, 1e-6, 1e-8, 1e-10} {
			m := &HEDOP5{Formulation: form}
			runTo(t, m, p, start, tEnd, StepControl{RTol: tol, ATol: tol})
			c := m.Current()
			err := math.Max(maxAbsDiff(c.Q, qRef), maxAbsDiff(c.V, vRef))
			st := m.Stats()
			t.Logf("%s tol %g: error %.3g (%.2f·tol), steps %d, rejected %d", form, tol, err, err/tol, st.Steps, st.Rejected)
			if !(err < prev) {
				t.Errorf("%s tol %g: error %.3g did not decrease from %.3g", form, tol, err, prev)
			}
			if err > 50*tol {
				t.Errorf("%s tol %g: error %.3g exceeds 50·tol", form, tol, err)
			}
			prev = err
		}
	}
}

// TestHEDOP5Drift runs 10 s at tol 1e-6 on the pendulum, the rheonomic driven pendulum
// (g_t ≠ 0, which enters the right side of eq. 81e) and chain10. Index2: the velocity
// constraint holds at every step end (stage 6 imposes it at Q₇; only rounding and the
// drift of G remain: < 1e-10), while ‖g‖ drifts (seed 002, eq. 86): it ends far above the
// projected run's, and on the two pendulums, whose local errors keep one sign over a swing,
// it is larger in the second half of the run (eq. 86's linear growth; the chain's errors
// change sign from step to step, so its drift is a random walk whose maximum may come
// early). Index2Projected: ‖g‖ and ‖G v + g_t‖ < 1e-10 (as DOPRI5's
// projection, TestDOPRI5Drift).
func TestHEDOP5Drift(t *testing.T) {
	if testing.Short() {
		t.Skip("10 s runs")
	}
	ctl := StepControl{RTol: 1e-6, ATol: 1e-6}
	for _, c := range driftCases() {
		sol, err := Solve(&HEDOP5{Formulation: Index2Projected}, "hedop5", c.sys, c.start, 10, SolveOptions{Control: ctl})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r := sol.MaxResidual
		t.Logf("%s projected: max ‖g‖ = %.2g, ‖Gv+g_t‖ = %.2g over %d steps", c.name, r.Pos, r.Vel, sol.Stats.Steps)
		if !(r.Pos < 1e-10 && r.Vel < 1e-10) {
			t.Errorf("%s projected: max ‖g‖ = %.3g, ‖G v + g_t‖ = %.3g, want < 1e-10", c.name, r.Pos, r.Vel)
		}
		half, obs := driftByHalf(c.sys, 5)
		sol2, err := Solve(&HEDOP5{Formulation: Index2}, "hedop5", c.sys, c.start, 10, SolveOptions{Control: ctl, Observer: obs})
		if err != nil {
			t.Fatalf("%s index2: %v", c.name, err)
		}
		r2 := sol2.MaxResidual
		t.Logf("%s index2: max ‖g‖ on [0,5] = %.2g, on (5,10] = %.2g; ‖Gv+g_t‖ = %.2g", c.name, half[0], half[1], r2.Vel)
		if !(r2.Vel < 1e-10) {
			t.Errorf("%s index2: ‖G v + g_t‖ = %.3g, want < 1e-10", c.name, r2.Vel)
		}
		growth := c.name == "chain10" || half[1] > half[0]
		if !(growth && r2.Pos > 100*r.Pos) {
			t.Errorf("%s index2: no drift: max ‖g‖ %.3g on [0,5], %.3g on (5,10] (projected %.3g)", c.name, half[0], half[1], r.Pos)
		}
	}
}

// TestHEDOP5Stats checks the counters against a counting System: FuncEvals = Force calls,
// = 1 (Init) + 1 (starting step) + 6·(Steps + Rejected) (+ Steps with projection);
// fixed steps: 1 + 6·Steps. Factorizations = FuncEvals, Projections = 2·Steps (projected).
func TestHEDOP5Stats(t *testing.T) {
	p, start, _, _ := testPendulum()
	for _, c := range []struct {
		form Formulation
		ctl  StepControl
		want func(s Stats) int
	}{
		{Index2Projected, StepControl{RTol: 1e-7}, func(s Stats) int { return 2 + 6*(s.Steps+s.Rejected) + s.Steps }},
		{Index2, StepControl{RTol: 1e-7}, func(s Stats) int { return 2 + 6*(s.Steps+s.Rejected) }},
		{Index2, StepControl{FixedH: 0.01}, func(s Stats) int { return 1 + 6*s.Steps }},
	} {
		sys := &counting{System: p}
		m := &HEDOP5{Formulation: c.form}
		runTo(t, m, sys, start, 2, c.ctl)
		s := m.Stats()
		t.Logf("%s %+v: %+v", c.form, c.ctl, s)
		if s.Steps == 0 || s.FuncEvals != c.want(s) || sys.force != s.FuncEvals {
			t.Errorf("%s %+v: FuncEvals = %d, Force calls = %d, want %d", c.form, c.ctl, s.FuncEvals, sys.force, c.want(s))
		}
		if s.Factorizations != s.FuncEvals {
			t.Errorf("%s: Factorizations = %d, want FuncEvals = %d", c.form, s.Factorizations, s.FuncEvals)
		}
		wantProj := 0
		if c.form == Index2Projected {
			wantProj = 2 * s.Steps
		}
		if s.Projections != wantProj {
			t.Errorf("%s: Projections = %d, want %d", c.form, s.Projections, wantProj)
		}
	}
}

// TestHEDOP5DenseOutput: the shared continuous extension of DOPRI5 reproduces the step
// ends exactly; at mid-step its max error over [0, 1] (fixed h = 0.0125, 0.00625) drops
// with order 5 in q (measured log2 ratio 5.01; DOPRI5 4.99) but only order 4 in v
// (measured 3.86; DOPRI5 5.0): the half-explicit V̇ᵢ carry stage multipliers Λᵢ that the
// dense weights dᵢ were not built for. Asserted: ratios within ±0.3 of 5 and 4.
func TestHEDOP5DenseOutput(t *testing.T) {
	p, start, phi0, omega0 := testPendulum()
	var eq, ev [2]float64
	for i, h := range []float64{0.0125, 0.00625} {
		m := &HEDOP5{}
		if err := m.Init(p, start, StepControl{FixedH: h}); err != nil {
			t.Fatal(err)
		}
		d := start.Clone()
		for m.Current().T < 1 {
			if err := m.Step(1); err != nil {
				t.Fatal(err)
			}
			c := m.Current()
			m.Interpolate(&d, c.T)
			if d.Q[0] != c.Q[0] || d.Q[1] != c.Q[1] || d.V[0] != c.V[0] {
				t.Fatalf("u(1) = %v, want the step result %v", d.Q, c.Q)
			}
			mid := (m.Previous().T + c.T) / 2
			m.Interpolate(&d, mid)
			qr, vr, _ := pendulumRef(p, phi0, omega0, mid)
			eq[i] = math.Max(eq[i], maxAbsDiff(d.Q, qr))
			ev[i] = math.Max(ev[i], maxAbsDiff(d.V, vr))
		}
	}
	rq, rv := math.Log2(eq[0]/eq[1]), math.Log2(ev[0]/ev[1])
	t.Logf("mid-step errors q %.3g → %.3g (order %.2f), v %.3g → %.3g (order %.2f)", eq[0], eq[1], rq, ev[0], ev[1], rv)
	if math.Abs(rq-5) > 0.3 || math.Abs(rv-4) > 0.3 {
		t.Errorf("dense output orders q %.2f, v %.2f, want 5 ± 0.3 and 4 ± 0.3", rq, rv)
	}
}

// TestHEDOP5Failure: NaN forces for t ≥ 0.5 stop an adaptive run with a *StepError
// wrapping ErrNonFinite and ErrStepSizeTooSmall, T just below 0.5 (within 1e-9, as for
// DOPRI5 whose failure ladder this is) and the method named "hedop5"; a fixed-step run
// stops at the last grid point before 0.5 with ErrNonFinite alone; a singular KKT matrix
// gives linalg.ErrSingular. Bad formulations and inconsistent starts are refused by Init.
func TestHEDOP5Failure(t *testing.T) {
	p, start, _, _ := testPendulum()
	sys := &poisoned{System: p, from: 0.5}
	sol, err := Solve(&HEDOP5{}, "hedop5", sys, start, 1, SolveOptions{})
	var se *StepError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *StepError", err)
	}
	t.Logf("%v", err)
	if !errors.Is(err, ErrNonFinite) || !errors.Is(err, ErrStepSizeTooSmall) || se.Method != "hedop5" {
		t.Errorf("err = %v, want hedop5 with both ErrNonFinite and ErrStepSizeTooSmall", err)
	}
	if !(se.T < 0.5 && se.T > 0.5-1e-9) {
		t.Errorf("StepError.T = %.17g, want just below 0.5", se.T)
	}
	if sol == nil || sol.Final.T != se.T || math.IsNaN(sol.Final.Q[0]) {
		t.Errorf("partial solution %+v, want it to end at the failure time %g", sol, se.T)
	}
	_, err = Solve(&HEDOP5{Formulation: Index2}, "hedop5", sys, start, 1, SolveOptions{Control: StepControl{FixedH: 0.1}})
	if !errors.As(err, &se) || !errors.Is(err, ErrNonFinite) || errors.Is(err, ErrStepSizeTooSmall) {
		t.Fatalf("fixed step: err = %v, want ErrNonFinite alone", err)
	}
	if math.Abs(se.T-0.4) > 1e-12 {
		t.Errorf("fixed step: StepError.T = %g, want 0.4", se.T)
	}
	_, err = Solve(&HEDOP5{}, "hedop5", &degenerate{System: p, from: 0.5}, start, 1, SolveOptions{})
	if !errors.Is(err, linalg.ErrSingular) {
		t.Errorf("singular: err = %v, want linalg.ErrSingular", err)
	}
	if err := (&HEDOP5{Formulation: Index1}).Init(p, start, StepControl{}); err == nil || !strings.Contains(err.Error(), "hedop5") {
		t.Errorf("Formulation index1: err = %v, want a hedop5 error", err)
	}
	bad := start.Clone()
	bad.V[0] = 1
	if err := (&HEDOP5{}).Init(p, bad, StepControl{}); err == nil {
		t.Error("inconsistent start velocity accepted")
	}
}

// TestMDOP5Alias: the mdop5 entry runs DOPRI5 (Remark 10's stages are eq. 84's right side)
// with projection by default, names itself in errors and computes what dopri5 computes.
func TestMDOP5Alias(t *testing.T) {
	e, err := Lookup("mdop5")
	if err != nil {
		t.Fatal(err)
	}
	p, start, _, _ := testPendulum()
	a, b := e.New(), &DOPRI5{}
	runTo(t, a, p, start, 1, StepControl{FixedH: 0.05})
	runTo(t, b, p, start, 1, StepControl{FixedH: 0.05})
	if ca, cb := a.Current(), b.Current(); ca.Q[0] != cb.Q[0] || ca.V[1] != cb.V[1] || ca.Lambda[0] != cb.Lambda[0] {
		t.Errorf("mdop5 %v differs from dopri5 %v", ca, cb)
	}
	if a.Stats().Projections == 0 {
		t.Error("mdop5 did not project by default")
	}
	_, err = Solve(e.New(), "mdop5", &poisoned{System: p, from: 0.5}, start, 1, SolveOptions{})
	var se *StepError
	if !errors.As(err, &se) || se.Method != "mdop5" {
		t.Errorf("err = %v, want a StepError of mdop5", err)
	}
}

// BenchmarkHEDOP5Step measures one fixed step (h = 1e-3) after warm-up, per formulation,
// next to BenchmarkDOPRI5Step on the same systems.
func BenchmarkHEDOP5Step(b *testing.B) {
	ch := newChain(10, 1, 0.5, 9.81)
	p, ps, _, _ := testPendulum()
	for _, c := range []struct {
		name  string
		sys   dae.System
		start State
	}{{"pendulum", p, ps}, {"chain10", ch, chainStart(ch, nil)}} {
		for _, form := range []Formulation{Index2, Index2Projected} {
			b.Run(c.name+"/"+string(form), func(b *testing.B) {
				benchExplicitSteps(b, &HEDOP5{Formulation: form}, c.sys, c.start)
			})
		}
	}
}
