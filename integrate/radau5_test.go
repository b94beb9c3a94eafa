package integrate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// TestRadau5Coefficients checks the identities the constants of radauCoef must satisfy.
func TestRadau5Coefficients(t *testing.T) {
	k := &radauCoef
	s6 := math.Sqrt(6)
	// Radau IIA, s = 3 (Hairer & Wanner 1996, IV.5, Table 5.6).
	A := mat.NewDense(3, 3, []float64{
		(88 - 7*s6) / 360, (296 - 169*s6) / 1800, (-2 + 3*s6) / 225,
		(296 + 169*s6) / 1800, (88 + 7*s6) / 360, (-2 - 3*s6) / 225,
		(16 - s6) / 36, (16 + s6) / 36, 1.0 / 9})
	c := [3]float64{k.c1, k.c2, 1}
	for i := range 3 { // row sums are the nodes (C(1))
		if d := A.At(i, 0) + A.At(i, 1) + A.At(i, 2) - c[i]; math.Abs(d) > 1e-15 {
			t.Errorf("row %d of A sums to c_i%+.2g", i, d)
		}
	}
	var Ai mat.Dense
	if err := Ai.Inverse(A); err != nil {
		t.Fatal(err)
	}
	T := mat.NewDense(3, 3, nil)
	Ti := mat.NewDense(3, 3, nil)
	for i := range 3 {
		for j := range 3 {
			T.Set(i, j, k.t[i][j])
			Ti.Set(i, j, k.ti[i][j])
		}
	}
	var L, tmp, I mat.Dense
	tmp.Mul(&Ai, T)
	L.Mul(Ti, &tmp)
	want := mat.NewDense(3, 3, []float64{k.gamma, 0, 0, 0, k.alpha, -k.beta, 0, k.beta, k.alpha})
	I.Mul(T, Ti)
	// The constants carry 17 digits; A⁻¹ (entries up to 10) and the products lose about
	// one digit each: 1e-13 absolute.
	for i := range 3 {
		for j := range 3 {
			if d := L.At(i, j) - want.At(i, j); math.Abs(d) > 1e-13 {
				t.Errorf("(T⁻¹A⁻¹T)[%d][%d] = %.17g, want %.17g", i, j, L.At(i, j), want.At(i, j))
			}
			id := 0.0
			if i == j {
				id = 1
			}
			if d := I.At(i, j) - id; math.Abs(d) > 1e-14 {
				t.Errorf("(T T⁻¹)[%d][%d] = %.17g, want %g", i, j, I.At(i, j), id)
			}
		}
	}
	// Closed forms of the eigenvalues: γ·(α² + β²) = det A⁻¹ = 60 and γ + 2α = tr A⁻¹ = 9
	// for Radau IIA 3 (the denominator 1 − 3z/5 + 3z²/20 − z³/60 of its stability function).
	if d := k.gamma*(k.alpha*k.alpha+k.beta*k.beta) - 60; math.Abs(d) > 1e-12 {
		t.Errorf("γ(α²+β²) = 60%+.2g", d)
	}
	if d := k.gamma + 2*k.alpha - 9; math.Abs(d) > 1e-14 {
		t.Errorf("γ + 2α = 9%+.2g", d)
	}
	// Embedded formula (eq. 8.20): γ₀h f₀ + γ₀Σ d_i z_i is O(h⁴), i.e. exact for y = t, t², t³.
	d := [3]float64{k.d1, k.d2, k.d3}
	for p, want := range []float64{-1, 0, 0} {
		var s float64
		for i := range 3 {
			s += d[i] * math.Pow(c[i], float64(p+1))
		}
		if math.Abs(s-want) > 1e-13 {
			t.Errorf("Σ d_i c_i^%d = %.3g, want %g", p+1, s, want)
		}
	}
}

// angleODE is the pendulum's angle equation φ” = −(grav/L) sin φ as a System with nc = 0.
type angleODE struct{ k float64 }

func (s angleODE) Size() (int, int)                                               { return 1, 0 }
func (s angleODE) Mass(dst *mat.Dense, t float64, q []float64)                    { dst.Set(0, 0, 1) }
func (s angleODE) Force(dst []float64, t float64, q, v []float64)                 { dst[0] = -s.k * math.Sin(q[0]) }
func (s angleODE) Constraint(dst []float64, t float64, q []float64)               {}
func (s angleODE) ConstraintJacobian(dst *mat.Dense, t float64, q []float64)      {}
func (s angleODE) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {}
func (s angleODE) Gamma(dst []float64, t float64, q, v []float64)                 {}

// radauFixed runs Radau5 in formulation form with n fixed steps over [0, tEnd].
func radauFixed(t *testing.T, sys dae.System, start State, form Formulation, n int, tEnd float64) (*Radau5, State) {
	t.Helper()
	m := &Radau5{Formulation: form}
	if err := m.Init(sys, start, StepControl{FixedH: tEnd / float64(n)}); err != nil {
		t.Fatal(err)
	}
	for m.Current().T < tEnd {
		if err := m.Step(tEnd); err != nil {
			t.Fatalf("%s n=%d: %v", form, n, err)
		}
	}
	if m.Stats().Steps != n {
		t.Errorf("%s: %d steps, want %d", form, m.Stats().Steps, n)
	}
	return m, m.Current().Clone()
}

func observedOrders(e [3]float64) [2]float64 {
	return [2]float64{math.Log2(e[0] / e[1]), math.Log2(e[1] / e[2])}
}

// TestRadau5OrderODE: on an ODE (nc = 0) Radau IIA with 3 stages has order 2s − 1 = 5.
func TestRadau5OrderODE(t *testing.T) {
	sys := angleODE{k: 9.81}
	start := NewState(1, 0)
	start.Q[0], start.V[0] = 1, 0.5
	start.A[0] = -9.81 * math.Sin(1)
	ref := start.Clone()
	// Reference: the same ODE by radau5 with 8 times the finest step count (error 8⁵ times
	// smaller than the finest run's).
	_, ref = radauFixed(t, sys, start, StabilizedIndex2, 512, 1)
	var eq, ev [3]float64
	for k, n := range []int{16, 32, 64} {
		_, s := radauFixed(t, sys, start.Clone(), StabilizedIndex2, n, 1)
		eq[k] = math.Abs(s.Q[0] - ref.Q[0])
		ev[k] = math.Abs(s.V[0] - ref.V[0])
	}
	t.Logf("ODE: q orders %.2f, v orders %.2f", observedOrders(eq), observedOrders(ev))
	for name, e := range map[string][3]float64{"q": eq, "v": ev} {
		for _, p := range observedOrders(e) {
			// ±0.2: the band of OrdinaryDiffEq's convergence tests (STYLE).
			if math.Abs(p-5) > 0.2 {
				t.Errorf("ODE %s: observed order %.2f from errors %.3g, want 5 ± 0.2", name, p, e)
			}
		}
	}
}

// TestRadau5OrderDAE measures the orders of q, v, a and λ at t_end on the pendulum
// (Hairer & Wanner 1996, VII.4): on index3, q (index-1 variable) has order 2s − 1 = 5, v
// (index 2) order s = 3 and a, λ (index 3) order s − 1 = 2; on index2 and ggl q and v have
// order 5 and a, λ (index 2) order 3.
func TestRadau5OrderDAE(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	phi0, om0 := 1.0, 0.5
	const tEnd = 1.0
	qr, vr := pendulumAngle(p, phi0, om0, tEnd, 10000)
	lamr := p.m * (vr[0]*vr[0] + vr[1]*vr[1] - p.grav*qr[1]) / (p.L * p.L) // radial balance
	// a from M a = f − Gᵀλ
	ar := [2]float64{-qr[0] * lamr / p.m, (-p.m*p.grav - qr[1]*lamr) / p.m}
	for _, c := range []struct {
		form       Formulation
		q, v, a, l float64 // expected orders
	}{{Index3, 5, 3, 2, 2}, {Index2, 5, 5, 3, 3}, {StabilizedIndex2, 5, 5, 3, 3}} {
		var eq, ev, ea, el [3]float64
		for k, n := range []int{16, 32, 64} {
			_, s := radauFixed(t, p, pendulumStart(p, phi0, om0), c.form, n, tEnd)
			for i := range 2 {
				eq[k] = math.Max(eq[k], math.Abs(s.Q[i]-qr[i]))
				ev[k] = math.Max(ev[k], math.Abs(s.V[i]-vr[i]))
				ea[k] = math.Max(ea[k], math.Abs(s.A[i]-ar[i]))
			}
			el[k] = math.Abs(s.Lambda[0] - lamr)
		}
		t.Logf("%s: orders q %.2f v %.2f a %.2f λ %.2f (errors q %.2g v %.2g a %.2g λ %.2g)", c.form,
			observedOrders(eq), observedOrders(ev), observedOrders(ea), observedOrders(el), eq, ev, ea, el)
		for _, b := range []struct {
			name string
			e    [3]float64
			want float64
		}{{"q", eq, c.q}, {"v", ev, c.v}, {"a", ea, c.a}, {"λ", el, c.l}} {
			for _, p := range observedOrders(b.e) {
				if math.Abs(p-b.want) > 0.2 { // ±0.2 as in STYLE's order tests
					t.Errorf("%s: %s observed order %.2f from errors %.3g, want %g ± 0.2", c.form, b.name, p, b.e, b.want)
				}
			}
		}
	}
}

// TestRadau5Adaptive: on the pendulum the global error at t_end follows the tolerance
// (RADAU5's transformed tolerances make the global error about RTol), and the dense
// output between steps has the accuracy of the collocation polynomial.
func TestRadau5Adaptive(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	phi0, om0 := 1.0, 0.5
	const tEnd = 2.0
	qr, _ := pendulumAngle(p, phi0, om0, tEnd, 10000)
	for _, form := range []Formulation{StabilizedIndex2, Index2, Index3} {
		for _, tol := range []float64{1e-5, 1e-8} {
			m := &Radau5{Formulation: form}
			sol, err := Solve(m, "radau5", p, pendulumStart(p, phi0, om0), tEnd, SolveOptions{Control: StepControl{RTol: tol, ATol: tol}})
			if err != nil {
				t.Fatalf("%s tol %g: %v", form, tol, err)
			}
			e := math.Max(math.Abs(sol.Final.Q[0]-qr[0]), math.Abs(sol.Final.Q[1]-qr[1]))
			t.Logf("%s tol %g: |q error| %.2g, %d steps, %d rejected, %d Newton failures, %d Jacobians, %d LU",
				form, tol, e, sol.Stats.Steps, sol.Stats.Rejected, sol.Stats.NewtonFailures, sol.Stats.Jacobians, sol.Stats.Factorizations)
			// ggl and index2: measured 0.007-0.11 tol, bound 1·tol. index3: measured 18 and
			// 34 tol, the sensitivity of the index-3 form to the Newton tolerance of seed
			// 002, Example 10 (see reproduce.RadauSens); bound 100·tol.
			bound := tol
			if form == Index3 {
				bound = 100 * tol
			}
			if !(e <= bound) {
				t.Errorf("%s tol %g: |q error| at t_end = %.3g, want ≤ %.2g", form, tol, e, bound)
			}
			// Index-3 holds g = 0 to the Newton tolerance, index2/ggl drift at most by the
			// integrated velocity error: 100·tol.
			if r := sol.MaxResidual.Pos; !(r <= 100*tol) {
				t.Errorf("%s tol %g: max |g| = %.3g over the run, want ≤ 100·tol", form, tol, r)
			}
		}
	}
}

// TestRadau5Interpolate compares the dense output in the middle of each step of a run
// with the angle reference.
func TestRadau5Interpolate(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	m := &Radau5{}
	start := pendulumStart(p, 1, 0.5)
	if err := m.Init(p, start, StepControl{RTol: 1e-8, ATol: 1e-8}); err != nil {
		t.Fatal(err)
	}
	dst := NewState(2, 1)
	var worst, worstStep float64
	for m.Current().T < 1 {
		if err := m.Step(1); err != nil {
			t.Fatal(err)
		}
		tm := (m.Previous().T + m.Current().T) / 2
		m.Interpolate(&dst, tm)
		qr, _ := pendulumAngle(p, 1, 0.5, tm, 20000)
		worst = math.Max(worst, math.Max(math.Abs(dst.Q[0]-qr[0]), math.Abs(dst.Q[1]-qr[1])))
		qe, _ := pendulumAngle(p, 1, 0.5, m.Current().T, 20000)
		worstStep = math.Max(worstStep, math.Abs(m.Current().Q[0]-qe[0]))
		m.Interpolate(&dst, m.Current().T)
		if d := math.Abs(dst.Q[0] - m.Current().Q[0]); d > 1e-14 {
			t.Fatalf("dense output at t_n differs from the step's end by %.2g", d)
		}
	}
	t.Logf("dense output error %.2g, step-end error %.2g", worst, worstStep)
	// The collocation polynomial has stage order 3: its error between nodes is O(h⁴),
	// larger than the O(h⁵) at the nodes; 1e-6 is 100·tol for tol = 1e-8.
	if worst > 1e-6 {
		t.Errorf("dense output error %.3g, want ≤ 1e-6", worst)
	}
}

// countingPendulum counts Force calls (one per right-side evaluation of radau5).
type countingPendulum struct {
	*pendulum
	forces *int
}

func (c countingPendulum) Force(dst []float64, t float64, q, v []float64) {
	*c.forces++
	c.pendulum.Force(dst, t, q, v)
}

// TestRadau5Stats: the counters agree with a counting System and with each other.
func TestRadau5Stats(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	var jac [2]int
	for k, pol := range []JacobianPolicy{JacobianAuto, JacobianEveryStep} {
		var forces int
		sys := countingPendulum{p, &forces}
		m := &Radau5{Formulation: Index2, Newton: NewtonSettings{Jacobian: pol}}
		sol, err := Solve(m, "radau5", sys, pendulumStart(p, 0.3, 0), 3, SolveOptions{Control: StepControl{RTol: 1e-6}})
		if err != nil {
			t.Fatal(err)
		}
		st := sol.Stats
		t.Logf("%v: %+v", pol, st)
		// The embedded *pendulum keeps its analytic derivatives, and the finite differences
		// of the velocity-constraint row call no Force: every Force call is a FuncEval.
		if forces != st.FuncEvals {
			t.Errorf("%v: %d Force calls, FuncEvals %d, FDEvals %d", pol, forces, st.FuncEvals, st.FDEvals)
		}
		if st.NewtonIters < st.Steps || st.Steps == 0 || st.Factorizations < 1 || st.Solves < 2*st.NewtonIters {
			t.Errorf("%v: implausible %+v", pol, st)
		}
		// 3 stage evaluations per iteration, one φ(t₁, y₁) per step, one KKT start, the start's φ.
		if st.FuncEvals < 3*st.NewtonIters+st.Steps+2 {
			t.Errorf("%v: FuncEvals %d < 3·NewtonIters + Steps + 2 = %d", pol, st.FuncEvals, 3*st.NewtonIters+st.Steps+2)
		}
		jac[k] = st.Jacobians
	}
	if jac[0] >= jac[1] {
		t.Errorf("JacobianAuto took %d Jacobians, JacobianEveryStep %d: want fewer", jac[0], jac[1])
	}
}

// TestRadau5Allocs: no allocation per Step after warm-up, for every formulation and with
// the approximate Jacobian.
func TestRadau5Allocs(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	for _, form := range []Formulation{StabilizedIndex2, Index2, Index3} {
		for _, approx := range []bool{false, true} {
			m := &Radau5{Formulation: form, ApproxJacobian: approx}
			if err := m.Init(p, pendulumStart(p, 1, 0.5), StepControl{RTol: 1e-6, HMax: 0.01}); err != nil {
				t.Fatal(err)
			}
			for range 5 {
				if err := m.Step(math.Inf(1)); err != nil {
					t.Fatal(err)
				}
			}
			dst := NewState(2, 1)
			if n := testing.AllocsPerRun(50, func() {
				_ = m.Step(math.Inf(1))
				m.Interpolate(&dst, m.Current().T)
			}); n != 0 {
				t.Errorf("%s approx=%v: Step allocates %v times per call after warm-up, want 0", form, approx, n)
			}
		}
	}
}

// nanForce returns NaN forces for t ≥ tBad (the embedded interface hides the analytic
// derivatives, so the Jacobian comes from finite differences).
type nanForce struct {
	dae.System
	tBad float64
}

func (s nanForce) Force(dst []float64, t float64, q, v []float64) {
	s.System.Force(dst, t, q, v)
	if t >= s.tBad {
		dst[1] = math.NaN()
	}
}

// TestRadau5Failure: NaN forces from t = 0.5 on stop the run with a StepError just before
// 0.5 that wraps ErrNonFinite; the failed Step leaves the state and Steps untouched.
func TestRadau5Failure(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	for _, form := range []Formulation{StabilizedIndex2, Index3} {
		m := &Radau5{Formulation: form}
		if err := m.Init(nanForce{p, 0.5}, pendulumStart(p, 1, 0.5), StepControl{RTol: 1e-6}); err != nil {
			t.Fatal(err)
		}
		var err error
		for err == nil {
			steps := m.Stats().Steps
			before := m.Current().Clone()
			err = m.Step(1)
			if err != nil {
				if m.Stats().Steps != steps || m.Current().T != before.T || m.Current().Q[0] != before.Q[0] {
					t.Errorf("%s: a failed Step changed the state or Steps", form)
				}
			}
		}
		var se *StepError
		if !errors.As(err, &se) || !errors.Is(err, ErrNonFinite) {
			t.Fatalf("%s: error %v, want a *StepError wrapping ErrNonFinite", form, err)
		}
		t.Logf("%s: %v", form, err)
		// The steps close in on 0.5 by halving until h < HMin = 1e-14.
		if !(se.T < 0.5 && se.T > 0.5-1e-9) || math.IsNaN(m.Current().Q[0]) {
			t.Errorf("%s: failed at t=%.15g, want just below 0.5", form, se.T)
		}
		// nanForce hides the pendulum's Namer: the owner is the default name q[1].
		if se.Worst.Block != "equation of motion" || se.Worst.Owner != "q[1]" {
			t.Errorf("%s: worst residual %+v, want the equation of motion of q[1]", form, se.Worst)
		}
	}
}

// TestRadau5NewtonFailureFixed: a fixed step too large for Newton stops with
// ErrNoConvergence after a fresh-Jacobian retry.
func TestRadau5NewtonFailureFixed(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	m := &Radau5{Formulation: Index3, ApproxJacobian: true, Newton: NewtonSettings{MaxIters: 3}}
	if err := m.Init(p, pendulumStart(p, 2, 3), StepControl{FixedH: 0.5}); err != nil {
		t.Fatal(err)
	}
	err := m.Step(1)
	if !errors.Is(err, ErrNoConvergence) || m.Stats().Steps != 0 {
		t.Errorf("error %v after %d steps, want ErrNoConvergence and no step", err, m.Stats().Steps)
	}
}

// TestRadau5BadInput: options out of range are errors naming the field.
func TestRadau5BadInput(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	start := pendulumStart(p, 1, 0)
	for _, c := range []struct {
		m    Radau5
		want string
	}{
		{Radau5{Formulation: Index1}, "Formulation"},
		{Radau5{Newton: NewtonSettings{Jacobian: JacobianEveryIteration}}, "Newton.Jacobian"},
		{Radau5{Newton: NewtonSettings{ReuseRate: 2}}, "ReuseRate"},
	} {
		if err := c.m.Init(p, start, StepControl{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one naming %s", c.m, err, c.want)
		}
	}
	bad := start.Clone()
	bad.Q[0] += 0.1
	if err := (&Radau5{}).Init(p, bad, StepControl{}); err == nil || !strings.Contains(err.Error(), "inconsistent") {
		t.Errorf("inconsistent start: error %v", err)
	}
}

// TestApproxJacobian: the test set's approximate Jacobian equals ∂φ/∂y except for the
// neglected derivatives of f, M and G, which for the undamped pendulum (f and M constant)
// are −λ·I in the dynamics row's q block and, for index2, the q-derivative vᵀ of the
// velocity constraint G v = x v_x + y v_y.
func TestApproxJacobian(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	st := pendulumStart(p, 0.7, 0.4)
	for _, form := range []Formulation{Index3, Index2, StabilizedIndex2} {
		se, _ := newSemiExplicit(p, form, false)
		y := make([]float64, se.n)
		se.pack(y, &st)
		J, Ja := mat.NewDense(se.n, se.n, nil), mat.NewDense(se.n, se.n, nil)
		se.jacobian(J, 0, y)
		se.approxJacobian(Ja, 0, y)
		want := mat.NewDense(se.n, se.n, nil)
		lam := st.Lambda[0]
		want.Set(4, 0, -lam) // rows 4, 5: dynamics; columns 0, 1: q
		want.Set(5, 1, -lam)
		if form != Index3 {
			want.Set(6, 0, st.V[0]) // row 6: velocity constraint
			want.Set(6, 1, st.V[1])
		}
		// ggl's q' = v − Gᵀμ also has ∂/∂q = −μ I, zero at μ = 0.
		for i := range se.n {
			for j := range se.n {
				// The index2 row is a central difference of step 6e-6 (error ~1e-10).
				if d := J.At(i, j) - Ja.At(i, j) - want.At(i, j); math.Abs(d) > 1e-8 {
					t.Errorf("%s: (J − J_approx)[%d][%d] = %.6g, want %.6g", form, i, j, J.At(i, j)-Ja.At(i, j), want.At(i, j))
				}
			}
		}
	}
}

// TestRadauMonitorRules: radau5's stopRule in the one Newton loop keeps RADAU5's rules
// (Hairer & Wanner 1996, IV.8), which differ from newtonMonitor's: θ = 0.995 diverges
// (θ ≥ 0.99), θ is the geometric mean of the last two quotients from the third iteration,
// and a rate that predicts FACCON·‖Δ‖·θ^left > FNEWT stops the attempt as slow with the
// cut 0.8·min(20, predicted)^(−1/(4+left)).
func TestRadauMonitorRules(t *testing.T) {
	fresh := func(nit int) *radauMonitor {
		r := &radauMonitor{maxIters: nit, fnewt: 1e-3, roundoff: 1e-12, reuseRate: 1e-3}
		r.start()
		return r
	}
	r := fresh(7)
	if st := r.update(1); st != newtonContinue {
		t.Fatalf("first iteration: %v, want continue", st)
	}
	if st := r.update(0.995); st != newtonDiverged || r.slow {
		t.Errorf("θ = 0.995: %v (slow %v), want diverged, not slow", st, r.slow)
	}

	r = fresh(20)
	r.update(1)
	r.update(0.5)
	if st := r.update(0.125); st != newtonContinue || math.Abs(r.theta-math.Sqrt(0.25*0.5)) > 1e-15 {
		t.Errorf("third iteration: %v, θ = %v; want continue, θ = sqrt(0.25·0.5)", st, r.theta)
	}

	r = fresh(7)
	r.update(1)
	// θ = 0.5, FACCON = 1, left = 7 − 1 − 2 = 4: predicted 0.5·0.5⁴/1e-3 = 31.25, capped at 20.
	if st := r.update(0.5); st != newtonDiverged || !r.slow {
		t.Fatalf("slow rate: %v (slow %v), want diverged and slow", st, r.slow)
	}
	if want := 0.8 * math.Pow(20, -1.0/8); math.Abs(r.hhfac-want) > 1e-15 {
		t.Errorf("hhfac = %v, want %v", r.hhfac, want)
	}
	r.start()
	if r.slow || r.theta != 1e-3 {
		t.Errorf("start: slow %v, θ = %v; want a new attempt not slow with θ = THET", r.slow, r.theta)
	}
}

// TestRadau5MuNewtonNorm: radau5's Newton norm measures ggl's μ block of a transformed
// increment by the q increment f·Gᵀx it stands for, in q's scales (radauWork.muNorm2),
// with G of the last stage residual, on systems of sparseMinSize unknowns and more: on
// the chain of 14 point masses (nq + nc = 42) the sum of squares is that of f·Gᵀx over
// q's scales; on the chain of 4 (12 unknowns) μ keeps its own scale (no gtMu).
func TestRadau5MuNewtonNorm(t *testing.T) {
	small := newChain(4, 1, 0.5, 9.81)
	m := &Radau5{}
	if err := m.Init(small, chainStart(small, nil), StepControl{RTol: 1e-6, ATol: 1e-6}); err != nil {
		t.Fatal(err)
	}
	if m.w.gtMu != nil || m.w.muStart() != m.w.n {
		t.Errorf("chain of 4: μ measured through Gᵀ; want its own scale below %d unknowns", sparseMinSize)
	}

	ch := newChain(14, 1, 0.5, 9.81)
	m = &Radau5{}
	if err := m.Init(ch, chainStart(ch, nil), StepControl{RTol: 1e-6, ATol: 1e-6}); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if err := m.Step(1); err != nil {
			t.Fatal(err)
		}
	}
	w := m.w
	if w.muStart() != w.se.imu() {
		t.Fatalf("chain of 14: μ block at %d, want %d", w.muStart(), w.se.imu())
	}
	w.hTry = w.h
	w.setScal(w.hTry)
	if err := w.residual(); err != nil { // G at the last stage, as increment finds it
		t.Fatal(err)
	}
	nq, nc := ch.Size()
	q := make([]float64, nq)
	for i := range q {
		q[i] = w.y0[i] + w.z[2][i]
	}
	G := mat.NewDense(nc, nq, nil)
	ch.ConstraintJacobian(G, w.cur.T+w.hTry, q)
	x := make([]float64, nc)
	for r := range x {
		x[r] = 1e-3 * float64(r%3-1)
	}
	f := w.hTry / radauCoef.gamma
	var want float64
	for i := range nq {
		var g float64
		for r := range nc {
			g += G.At(r, i) * x[r]
		}
		want += (f * g / w.scal[i]) * (f * g / w.scal[i])
	}
	if got := w.muNorm2(x, f); math.Abs(got-want) > 1e-12*want || want == 0 {
		t.Errorf("muNorm2 = %g, want Σ((f·Gᵀx)_i/sc_i)² = %g", got, want)
	}
}
