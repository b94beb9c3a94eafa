package integrate

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// rootedTree is a rooted tree given by its children, for the Runge-Kutta order conditions
// (Butcher; Hairer, Nørsett & Wanner 1993, II.2).
type rootedTree []*rootedTree

func (t *rootedTree) order() int {
	n := 1
	for _, c := range *t {
		n += c.order()
	}
	return n
}

// density is γ(t) = |t|·Π γ(children).
func (t *rootedTree) density() float64 {
	g := float64(t.order())
	for _, c := range *t {
		g *= c.density()
	}
	return g
}

// weights returns Φ_i(t) = Π_children Σ_j a_ij Φ_j(child) for the 7-stage tableau.
func (t *rootedTree) weights() [7]float64 {
	var phi [7]float64
	for i := range phi {
		phi[i] = 1
	}
	for _, c := range *t {
		pc := c.weights()
		for i := range phi {
			var s float64
			for j := 0; j < i && j < 6; j++ {
				s += dp5A[i][j] * pc[j]
			}
			phi[i] *= s
		}
	}
	return phi
}

// treesUpTo returns all rooted trees with at most n nodes (1, 1, 2, 4, 9 of orders 1-5).
func treesUpTo(n int) []*rootedTree {
	byOrder := make([][]*rootedTree, n+1)
	var all []*rootedTree
	for k := 1; k <= n; k++ {
		// Children: multisets of earlier trees (by index in all) with orders summing to k−1.
		var gen func(start, left int, kids rootedTree)
		gen = func(start, left int, kids rootedTree) {
			if left == 0 {
				t := append(rootedTree(nil), kids...)
				byOrder[k] = append(byOrder[k], &t)
				return
			}
			for i := start; i < len(all); i++ {
				if o := all[i].order(); o <= left {
					gen(i, left-o, append(kids, all[i]))
				}
			}
		}
		gen(0, k-1, nil)
		all = append(all, byOrder[k]...)
	}
	return all
}

// denseWeights returns b_i(θ) of the dense output written in dp5D's doc comment:
// b_i(θ) = θ b_i + θθ₁(δ_i1 − b_i) + θ²θ₁(2b_i − δ_i1 − δ_i7) + θ²θ₁² d_i.
func denseWeights(theta float64) [7]float64 {
	var bt [7]float64
	th1 := 1 - theta
	for i := range bt {
		var d1, d7 float64
		if i == 0 {
			d1 = 1
		}
		if i == 6 {
			d7 = 1
		}
		bt[i] = theta*dp5B[i] + theta*th1*(d1-dp5B[i]) + theta*theta*th1*(2*dp5B[i]-d1-d7) + theta*theta*th1*th1*dp5D[i]
	}
	return bt
}

// TestDOPRI5Tableau checks the published coefficients by their identities: row sums equal
// c_i, FSAL (a₇ = b, c₇ = 1), e = b − b̂, the order conditions of all 17 trees up to order
// 5 for b and of the 8 trees up to order 4 for b̂, and order 4 of the dense output at
// several θ. The tolerance 1e-14 is rounding: the coefficients are ratios of integers up to
// 1e12 evaluated in float64 and summed over 7 terms.
func TestDOPRI5Tableau(t *testing.T) {
	const tol = 1e-14
	for i := range 7 {
		var s float64
		for _, a := range dp5A[i] {
			s += a
		}
		if math.Abs(s-dp5C[i]) > tol {
			t.Errorf("row %d: Σ a = %.17g, want c = %.17g", i+1, s, dp5C[i])
		}
	}
	for j := range 6 {
		if dp5A[6][j] != dp5B[j] {
			t.Errorf("FSAL: a_7%d = %g, want b_%d = %g", j+1, dp5A[6][j], j+1, dp5B[j])
		}
	}
	if dp5C[6] != 1 || dp5B[6] != 0 {
		t.Errorf("FSAL: c_7 = %g, b_7 = %g, want 1, 0", dp5C[6], dp5B[6])
	}
	for i := range 7 {
		if d := dp5B[i] - dp5BHat[i] - dp5E[i]; math.Abs(d) > tol {
			t.Errorf("e_%d = %g, want b − b̂ = %g", i+1, dp5E[i], dp5B[i]-dp5BHat[i])
		}
	}
	trees := treesUpTo(5)
	if len(trees) != 17 {
		t.Fatalf("%d rooted trees up to order 5, want 17", len(trees))
	}
	check := func(name string, b [7]float64, maxOrder int, theta float64) {
		for _, tr := range trees {
			if tr.order() > maxOrder {
				continue
			}
			phi := tr.weights()
			var s float64
			for i := range 7 {
				s += b[i] * phi[i]
			}
			want := math.Pow(theta, float64(tr.order())) / tr.density()
			if math.Abs(s-want) > tol {
				t.Errorf("%s: tree of order %d, γ = %g: Σ b Φ = %.17g, want %.17g", name, tr.order(), tr.density(), s, want)
			}
		}
	}
	check("b", dp5B, 5, 1)
	check("b̂", dp5BHat, 4, 1)
	for _, th := range []float64{0.2, 0.5, 0.8, 1} {
		check("dense output b(θ)", denseWeights(th), 4, th)
	}
	// u(1) = y₁: b(1) = b.
	b1 := denseWeights(1)
	for i := range 7 {
		if math.Abs(b1[i]-dp5B[i]) > tol {
			t.Errorf("dense output b_%d(1) = %g, want b_%d = %g", i+1, b1[i], i+1, dp5B[i])
		}
	}
	// The estimator really is only of order 4: some order-5 condition fails for b̂.
	var worst float64
	for _, tr := range trees {
		if tr.order() == 5 {
			phi := tr.weights()
			var s float64
			for i := range 7 {
				s += dp5BHat[i] * phi[i]
			}
			worst = math.Max(worst, math.Abs(s-1/tr.density()))
		}
	}
	if worst < 1e-4 {
		t.Errorf("b̂ satisfies the order-5 conditions to %g; the estimator would not estimate", worst)
	}
}

// testPendulum is the pendulum of the order and accuracy tests: φ₀ = 1 rad (a nonlinear
// swing), at rest, period about 2.1 s.
func testPendulum() (*pendulum, State, float64, float64) {
	p := newPendulum(1, 1, 9.81)
	const phi0, omega0 = 1.0, 0.0
	return p, pendulumStart(p, phi0, omega0), phi0, omega0
}

// pendulumRef returns the reference q, v and λ at t from the angle equation (about 1e-14
// accurate with 20000 RK4 steps per unit time; see pendulumAngle). λ follows from the
// tension: the rod force −Gᵀλ = −λ(x, y) has magnitude λL = m(grav·cos φ + L φ'²).
func pendulumRef(p *pendulum, phi0, omega0, t float64) (q, v [2]float64, lambda float64) {
	q, v = pendulumAngle(p, phi0, omega0, t, 20000)
	cosPhi := -q[1] / p.L
	om2 := (v[0]*v[0] + v[1]*v[1]) / (p.L * p.L)
	return q, v, p.m * (p.grav*cosPhi + p.L*om2) / p.L
}

func maxAbsDiff(x []float64, y [2]float64) float64 {
	return math.Max(math.Abs(x[0]-y[0]), math.Abs(x[1]-y[1]))
}

// runTo integrates with m from start to tEnd by Step alone and fails the test on error.
func runTo(t *testing.T, m Method, sys dae.System, start State, tEnd float64, ctl StepControl) {
	t.Helper()
	if err := m.Init(sys, start, ctl); err != nil {
		t.Fatal(err)
	}
	for m.Current().T < tEnd {
		if err := m.Step(tEnd); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDOPRI5Order checks convergence order 5 of q, v and λ with fixed steps h, h/2, h/4 on
// the pendulum against the independent angle-equation reference, for both formulations.
// Each log2 error ratio must lie within ±0.3 of 5 (the brief's bound; STYLE's conformance
// suite uses ±0.2). h = 1/32 is in the asymptotic range: at h = 1/16 the first ratio was
// measured at 5.35-5.49, the h⁶ term still showing. The errors at h/4 (~1e-11) stay three
// digits above the reference's accuracy (~1e-14). Observed ratios are printed with -v.
func TestDOPRI5Order(t *testing.T) {
	p, start, phi0, omega0 := testPendulum()
	const tEnd = 1.0
	qRef, vRef, lamRef := pendulumRef(p, phi0, omega0, tEnd)
	for _, form := range []Formulation{Index1Projected, Index1} {
		var eq, ev, el [3]float64
		for k := range 3 {
			h := 1.0 / 32 / float64(int(1)<<k)
			m := &DOPRI5{Formulation: form}
			runTo(t, m, p, start, tEnd, StepControl{FixedH: h})
			c := m.Current()
			if c.T != tEnd {
				t.Fatalf("%s: ended at t = %g, want %g", form, c.T, tEnd)
			}
			eq[k] = maxAbsDiff(c.Q, qRef)
			ev[k] = maxAbsDiff(c.V, vRef)
			el[k] = math.Abs(c.Lambda[0] - lamRef)
		}
		for _, b := range []struct {
			name string
			e    [3]float64
		}{{"q", eq}, {"v", ev}, {"lambda", el}} {
			for k := range 2 {
				r := math.Log2(b.e[k] / b.e[k+1])
				t.Logf("%s %s: e(h/%d) = %.3g, e(h/%d) = %.3g, order %.3f", form, b.name, 1<<k, b.e[k], 1<<(k+1), b.e[k+1], r)
				if math.Abs(r-5) > 0.3 {
					t.Errorf("%s: observed order of %s = %.3f (errors %.3g, %.3g), want 5 ± 0.3", form, b.name, r, b.e[k], b.e[k+1])
				}
			}
		}
	}
}

// TestDOPRI5DenseOutput checks the continuous extension: at θ = 1 it reproduces the step
// result exactly, it is continuous with matching derivative data at the step ends (through
// Previous/Current), and its local error at θ = 1/2 of one step from an exact start is of
// order 5 in h (a 4th-order continuous extension: error O(h⁵)); each log2 ratio within
// ±0.3 of 5, as for the step order.
func TestDOPRI5DenseOutput(t *testing.T) {
	p, start, phi0, omega0 := testPendulum()
	var e [3]float64
	for k := range 3 {
		h := 0.1 / float64(int(1)<<k)
		for _, form := range []Formulation{Index1, Index1Projected} {
			m := &DOPRI5{Formulation: form}
			if err := m.Init(p, start, StepControl{FixedH: h}); err != nil {
				t.Fatal(err)
			}
			if err := m.Step(10); err != nil {
				t.Fatal(err)
			}
			d := NewState(2, 1)
			c := m.Current()
			// At θ = 1 the formula itself (not the t == Current().T shortcut) must give y₁.
			m.Interpolate(&d, math.Nextafter(c.T, 0))
			for i := range 2 {
				if math.Abs(d.Q[i]-c.Q[i]) > 1e-15 || math.Abs(d.V[i]-c.V[i]) > 1e-14 {
					t.Errorf("%s h=%g: u(1⁻) = (%v, %v), want the step result (%v, %v)", form, h, d.Q, d.V, c.Q, c.V)
				}
			}
			m.Interpolate(&d, start.T)
			if d.Q[0] != start.Q[0] || d.V[1] != start.V[1] {
				t.Errorf("%s: u(0) = %v, want the start %v", form, d.Q, start.Q)
			}
			if form == Index1 {
				m.Interpolate(&d, h/2)
				qr, vr, _ := pendulumRef(p, phi0, omega0, h/2)
				e[k] = math.Max(maxAbsDiff(d.Q, qr), maxAbsDiff(d.V, vr))
			}
		}
	}
	for k := range 2 {
		r := math.Log2(e[k] / e[k+1])
		t.Logf("dense output at θ = 1/2: e = %.3g, %.3g: order %.3f", e[k], e[k+1], r)
		if math.Abs(r-5) > 0.3 {
			t.Errorf("dense output local error order %.3f (errors %.3g, %.3g), want 5 ± 0.3", r, e[k], e[k+1])
		}
	}
}

// TestDOPRI5Adaptive checks the error at t_end (two periods) against the reference: it
// decreases with tol, stays within 50·tol, and err/tol varies by less than a factor 3
// over tol = 1e-4…1e-10 (tolerance proportionality, HNW II.4). 50 is the "modest factor":
// each step's local error is at most tol·(1 + |y|) ≤ 4·tol here (|y| ≤ 3.1) and errors
// of ~60-350 steps accumulate, partly cancelling; measured factors were 15-17 (-v).
func TestDOPRI5Adaptive(t *testing.T) {
	p, start, phi0, omega0 := testPendulum()
	const tEnd = 4.0
	qRef, vRef, _ := pendulumRef(p, phi0, omega0, tEnd)
	prev := math.Inf(1)
	lo, hi := math.Inf(1), 0.0
	for _, tol := range []float64{1e-4, 1e-6, 1e-8, 1e-10} {
		m := &DOPRI5{}
		runTo(t, m, p, start, tEnd, StepControl{RTol: tol, ATol: tol})
		c := m.Current()
		err := math.Max(maxAbsDiff(c.Q, qRef), maxAbsDiff(c.V, vRef))
		st := m.Stats()
		t.Logf("tol %g: error %.3g (%.2f·tol), steps %d, rejected %d", tol, err, err/tol, st.Steps, st.Rejected)
		if !(err < prev) {
			t.Errorf("tol %g: error %.3g did not decrease from %.3g", tol, err, prev)
		}
		if err > 50*tol {
			t.Errorf("tol %g: error %.3g exceeds 50·tol", tol, err)
		}
		prev = err
		lo, hi = math.Min(lo, err/tol), math.Max(hi, err/tol)
	}
	if hi > 3*lo {
		t.Errorf("err/tol ranges over [%.3g, %.3g], want within a factor 3", lo, hi)
	}
}

// TestDOPRI5Drift runs 10 s: with projection ‖g‖ and ‖G v + g_t‖ stay below 1e-10 (the
// brief's bound; the projection stops at a millionth of the tolerance and the velocity
// projection is exact up to rounding), also for the rheonomic driven pendulum (g_t ≠ 0)
// and chain10; without projection (Index1) the drift is larger and grows.
func TestDOPRI5Drift(t *testing.T) {
	if testing.Short() {
		t.Skip("10 s runs")
	}
	ctl := StepControl{RTol: 1e-6, ATol: 1e-6}
	for _, c := range driftCases() {
		sol, err := Solve(&DOPRI5{}, "dopri5", c.sys, c.start, 10, SolveOptions{Control: ctl})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r := sol.MaxResidual
		t.Logf("%s projected: max ‖g‖ = %.2g, ‖Gv+g_t‖ = %.2g, ‖Ga−γ‖ = %.2g over %d steps", c.name, r.Pos, r.Vel, r.Acc, sol.Stats.Steps)
		if !(r.Pos < 1e-10 && r.Vel < 1e-10) {
			t.Errorf("%s projected: max residuals ‖g‖ = %.3g, ‖G v + g_t‖ = %.3g, want < 1e-10", c.name, r.Pos, r.Vel)
		}

		// Index1: record ‖g‖ in each half of the run.
		half, obs := driftByHalf(c.sys, 5)
		sol1, err := Solve(&DOPRI5{Formulation: Index1}, "dopri5", c.sys, c.start, 10, SolveOptions{Control: ctl, Observer: obs})
		if err != nil {
			t.Fatalf("%s index1: %v", c.name, err)
		}
		t.Logf("%s index1: max ‖g‖ on [0,5] = %.2g, on (5,10] = %.2g; ‖Gv+g_t‖ = %.2g", c.name, half[0], half[1], sol1.MaxResidual.Vel)
		if !(sol1.MaxResidual.Pos > 100*r.Pos && sol1.MaxResidual.Pos > 1e-10) {
			t.Errorf("%s index1: drift ‖g‖ = %.3g not clearly above the projected %.3g", c.name, sol1.MaxResidual.Pos, r.Pos)
		}
		if !(half[1] > half[0]) {
			t.Errorf("%s index1: drift did not grow: max ‖g‖ %.3g on [0,5], %.3g on (5,10]", c.name, half[0], half[1])
		}
	}
}

// counting wraps a System and counts Force calls (one per right-side evaluation: eval and
// the projected-state evaluation each call Force once) and Mass calls.
type counting struct {
	dae.System
	force, mass int
}

func (c *counting) Force(dst []float64, t float64, q, v []float64) {
	c.force++
	c.System.Force(dst, t, q, v)
}

func (c *counting) Mass(dst *mat.Dense, t float64, q []float64) {
	c.mass++
	c.System.Mass(dst, t, q)
}

// TestDOPRI5Stats checks the counters against their documented formulas and a counting
// System: FuncEvals = 1 (Init) + 1 (starting step) + 6·(Steps + Rejected) (+ Steps with
// projection), Factorizations = FuncEvals, Projections = 2·Steps; fixed steps: 1 + 6·Steps.
func TestDOPRI5Stats(t *testing.T) {
	ch := newChain(3, 1, 1, 9.81)
	for _, c := range []struct {
		form  Formulation
		ctl   StepControl
		evals func(s Stats) int
	}{
		{Index1Projected, StepControl{RTol: 1e-7}, func(s Stats) int { return 2 + 6*(s.Steps+s.Rejected) + s.Steps }},
		{Index1, StepControl{RTol: 1e-7}, func(s Stats) int { return 2 + 6*(s.Steps+s.Rejected) }},
		{Index1, StepControl{FixedH: 0.01}, func(s Stats) int { return 1 + 6*s.Steps }},
		{Index1Projected, StepControl{RTol: 1e-5, H0: 0.3}, func(s Stats) int { return 1 + 6*(s.Steps+s.Rejected) + s.Steps }},
	} {
		sys := &counting{System: ch}
		m := &DOPRI5{Formulation: c.form}
		runTo(t, m, sys, chainStart(ch, nil), 2, c.ctl)
		s := m.Stats()
		t.Logf("%s %+v: %+v", c.form, c.ctl, s)
		if s.Steps == 0 {
			t.Errorf("%s: no steps", c.form)
		}
		if want := c.evals(s); s.FuncEvals != want {
			t.Errorf("%s %+v: FuncEvals = %d, want %d", c.form, c.ctl, s.FuncEvals, want)
		}
		if sys.force != s.FuncEvals || sys.mass != s.FuncEvals {
			t.Errorf("%s: counting System saw %d Force and %d Mass calls, Stats.FuncEvals = %d", c.form, sys.force, sys.mass, s.FuncEvals)
		}
		if s.Factorizations != s.FuncEvals {
			t.Errorf("%s: Factorizations = %d, want FuncEvals = %d", c.form, s.Factorizations, s.FuncEvals)
		}
		wantProj := 0
		if c.form == Index1Projected {
			wantProj = 2 * s.Steps
		}
		if s.Projections != wantProj {
			t.Errorf("%s: Projections = %d, want %d", c.form, s.Projections, wantProj)
		}
		// Solves: one per evaluation, plus ≥ 1 position iteration and 1 velocity solve per projection.
		if s.Solves < s.FuncEvals+s.Projections {
			t.Errorf("%s: Solves = %d < FuncEvals + Projections = %d", c.form, s.Solves, s.FuncEvals+s.Projections)
		}
		if c.ctl.H0 == 0.3 && s.Rejected == 0 {
			t.Errorf("H0 = 0.3 at RTol 1e-5 should be rejected at least once, got %+v", s)
		}
	}
}

// poisoned returns NaN forces for t ≥ from.
type poisoned struct {
	dae.System
	from float64
}

func (p *poisoned) Force(dst []float64, t float64, q, v []float64) {
	p.System.Force(dst, t, q, v)
	if t >= p.from {
		dst[1] = math.NaN()
	}
}

// CoordinateName forwards the wrapped system's names.
func (p *poisoned) CoordinateName(i int) string { return dae.CoordinateName(p.System, i) }
func (p *poisoned) ConstraintName(i int) string { return dae.ConstraintName(p.System, i) }

// degenerate zeroes the constraint Jacobian for t ≥ from, making the KKT matrix singular.
type degenerate struct {
	dae.System
	from float64
}

func (d *degenerate) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	d.System.ConstraintJacobian(dst, t, q)
	if t >= d.from {
		dst.Zero()
	}
}

// TestDOPRI5Failure: NaN forces planted for t ≥ 0.5. Adaptive runs cut h by 0.25 per
// non-finite attempt until h < HMin and return a *StepError for which both
// errors.Is(err, ErrStepSizeTooSmall) and errors.Is(err, ErrNonFinite) hold, with T just
// below 0.5 (within 1e-9: every attempt ending before 0.5 succeeds, so t creeps up to 0.5
// until the step needed is below HMin ≈ 1e-14) and Worst naming the coordinate.
// The partial Solution holds the samples before 0.5. A singular KKT matrix likewise gives
// linalg.ErrSingular; in fixed-step mode the first failure stops the run.
func TestDOPRI5Failure(t *testing.T) {
	p, start, _, _ := testPendulum()
	sys := &poisoned{System: p, from: 0.5}
	sol, err := Solve(&DOPRI5{}, "dopri5", sys, start, 1, SolveOptions{})
	var se *StepError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *StepError", err)
	}
	t.Logf("%v", err)
	if !errors.Is(err, ErrNonFinite) || !errors.Is(err, ErrStepSizeTooSmall) {
		t.Errorf("err = %v, want both ErrNonFinite and ErrStepSizeTooSmall", err)
	}
	if !(se.T < 0.5 && se.T > 0.5-1e-9) {
		t.Errorf("StepError.T = %.17g, want just below 0.5", se.T)
	}
	if se.Worst.Block != "acceleration" || se.Worst.Owner == "" {
		t.Errorf("StepError.Worst = %+v, want an acceleration component with its owner", se.Worst)
	}
	if sol == nil || len(sol.T) < 2 {
		t.Fatalf("partial solution %+v, want samples before the failure", sol)
	}
	if last := sol.T[len(sol.T)-1]; last != se.T || sol.Final.T != se.T {
		t.Errorf("last sample at %g, Final.T = %g, want the failure time %g", last, sol.Final.T, se.T)
	}
	// Every failed attempt met the NaN: each counts as NonFinite, none as an error-test
	// rejection (Stats: one counter per cause).
	if st := sol.Stats; st.Steps != len(sol.T)-1 || st.NonFinite == 0 || st.Rejected+st.NewtonFailures+st.Singular != 0 {
		t.Errorf("partial Stats %+v for %d samples, want NonFinite > 0 and no other failure", sol.Stats, len(sol.T))
	}

	// Fixed steps: the first poisoned attempt stops the run, at the grid point before 0.5.
	_, err = Solve(&DOPRI5{}, "dopri5", sys, start, 1, SolveOptions{Control: StepControl{FixedH: 0.1}})
	if !errors.As(err, &se) || !errors.Is(err, ErrNonFinite) || errors.Is(err, ErrStepSizeTooSmall) {
		t.Fatalf("fixed step: err = %v, want ErrNonFinite alone", err)
	}
	if math.Abs(se.T-0.4) > 1e-12 { // the last accepted grid point, 4 steps of 0.1
		t.Errorf("fixed step: StepError.T = %g, want 0.4", se.T)
	}

	// Singular KKT matrix.
	sol, err = Solve(&DOPRI5{}, "dopri5", &degenerate{System: p, from: 0.5}, start, 1, SolveOptions{})
	if !errors.Is(err, linalg.ErrSingular) || !errors.As(err, &se) {
		t.Fatalf("singular: err = %v, want a *StepError wrapping linalg.ErrSingular", err)
	}
	if st := sol.Stats; st.Singular == 0 || st.Rejected+st.NewtonFailures+st.NonFinite != 0 {
		t.Errorf("singular: Stats %+v, want Singular > 0 and no other failure", st)
	}
	if !(se.T < 0.5 && se.T > 0.5-1e-9) {
		t.Errorf("singular: StepError.T = %.17g, want just below 0.5", se.T)
	}
}

// TestDOPRI5InitErrors checks that Init names bad input.
func TestDOPRI5InitErrors(t *testing.T) {
	p, start, _, _ := testPendulum()
	if err := (&DOPRI5{Formulation: Index3}).Init(p, start, StepControl{}); err == nil {
		t.Error("Formulation index3 accepted")
	}
	bad := start.Clone()
	bad.Q[0] += 1e-3
	if err := (&DOPRI5{}).Init(p, bad, StepControl{}); err == nil {
		t.Error("inconsistent start (‖g‖ ≈ 1e-3) accepted")
	} else {
		t.Log(err)
	}
	bad = start.Clone()
	bad.V[0] = 1
	if err := (&DOPRI5{}).Init(p, bad, StepControl{}); err == nil {
		t.Error("inconsistent start velocity accepted")
	}
	if err := (&DOPRI5{}).Init(p, start, StepControl{RTol: -1}); err == nil {
		t.Error("RTol = -1 accepted")
	}
	m := &DOPRI5{}
	if err := m.Init(p, start, StepControl{}); err != nil {
		t.Fatal(err)
	}
	if err := m.Step(start.T); err == nil {
		t.Error("Step(tEnd = t) accepted")
	}
}

// BenchmarkDOPRI5Step measures one fixed step (h = 1e-3) after warm-up.
func BenchmarkDOPRI5Step(b *testing.B) {
	ch := newChain(10, 1, 0.5, 9.81)
	p, ps, _, _ := testPendulum()
	for _, c := range []struct {
		name  string
		sys   dae.System
		start State
	}{{"pendulum", p, ps}, {"chain10", ch, chainStart(ch, nil)}} {
		b.Run(c.name, func(b *testing.B) { benchExplicitSteps(b, &DOPRI5{}, c.sys, c.start) })
	}
}

// TestDOPRI5InitSingular: a singular KKT matrix at the start is reported by Init.
func TestDOPRI5InitSingular(t *testing.T) {
	p, start, _, _ := testPendulum()
	err := (&DOPRI5{}).Init(&degenerate{System: p, from: 0}, start, StepControl{})
	if !errors.Is(err, linalg.ErrSingular) {
		t.Fatalf("err = %v, want linalg.ErrSingular", err)
	}
	t.Log(err)
}
