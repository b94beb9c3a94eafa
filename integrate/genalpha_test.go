package integrate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// ex8Start returns the pendulum of seed 002, Example 8 (m = l = 1, grav = 9.81) started at
// x_0 with x'_0 ≥ 0 on the energy level T + U = m/2 − m·grav·l, as the angle φ_0 and rate
// ω_0 of the angle ODE (seed 002, eq. 5) and the consistent Cartesian state.
func ex8Start(x0 float64) (p *pendulum, phi0, omega0 float64, s State) {
	p = newPendulum(1, 1, 9.81)
	phi0 = math.Asin(x0 / p.L)
	// m l²ω²/2 − m grav l cos φ = m/2 − m grav l
	omega0 = math.Sqrt((1 - 2*p.grav*p.L*(1-math.Cos(phi0))) / (p.L * p.L))
	return p, phi0, omega0, pendulumStart(p, phi0, omega0)
}

// angleRef advances the angle ODE φ” = −(grav/L) sin φ by classical Runge-Kutta with
// sub steps per call (error O(h_sub⁴), below 1e-12 for h_sub = 1e-4 over a few seconds).
type angleRef struct {
	p          *pendulum
	phi, omega float64
	sub        int
}

func (r *angleRef) advance(h float64) {
	k := r.p.grav / r.p.L
	hs := h / float64(r.sub)
	f := func(phi, om float64) (float64, float64) { return om, -k * math.Sin(phi) }
	for range r.sub {
		k1p, k1o := f(r.phi, r.omega)
		k2p, k2o := f(r.phi+hs/2*k1p, r.omega+hs/2*k1o)
		k3p, k3o := f(r.phi+hs/2*k2p, r.omega+hs/2*k2o)
		k4p, k4o := f(r.phi+hs*k3p, r.omega+hs*k3o)
		r.phi += hs / 6 * (k1p + 2*k2p + 2*k3p + k4p)
		r.omega += hs / 6 * (k1o + 2*k2o + 2*k3o + k4o)
	}
}

// lambda is the exact multiplier of eq. 6 on the angle solution: λ = m(l ω² + grav cos φ)/l.
func (r *angleRef) lambda() float64 {
	return r.p.m * (r.p.L*r.omega*r.omega + r.p.grav*math.Cos(r.phi)) / r.p.L
}

// runErrs are the max errors over a fixed-step run.
type runErrs struct {
	q, v, lambda float64 // max over the grid of |error|
	lambdaEnd    float64 // |λ error| at t_end
	pos          float64 // max |g|
	energy       float64 // max |E − E_0|
	stats        Stats
}

// runEx8 integrates Example 8 with fixed steps h to tEnd and measures errors against the
// angle solution on every grid point.
func runEx8(t *testing.T, m *GenAlpha, x0, h, tEnd float64) runErrs {
	t.Helper()
	p, phi0, omega0, s := ex8Start(x0)
	if err := m.Init(p, s, StepControl{FixedH: h}); err != nil {
		t.Fatal(err)
	}
	ref := &angleRef{p: p, phi: phi0, omega: omega0, sub: 100}
	k0, u0 := p.Energy(0, s.Q, s.V)
	var e runErrs
	n := int(math.Round(tEnd / h))
	for range n {
		if err := m.Step(tEnd); err != nil {
			t.Fatal(err)
		}
		ref.advance(h)
		c := m.Current()
		sn, cs := math.Sincos(ref.phi)
		q := [2]float64{p.L * sn, -p.L * cs}
		v := [2]float64{p.L * ref.omega * cs, p.L * ref.omega * sn}
		for i := range 2 {
			e.q = math.Max(e.q, math.Abs(c.Q[i]-q[i]))
			e.v = math.Max(e.v, math.Abs(c.V[i]-v[i]))
		}
		e.lambdaEnd = math.Abs(c.Lambda[0] - ref.lambda())
		e.lambda = math.Max(e.lambda, e.lambdaEnd)
		e.pos = math.Max(e.pos, math.Abs((c.Q[0]*c.Q[0]+c.Q[1]*c.Q[1]-1)/2))
		k, u := p.Energy(c.T, c.Q, c.V)
		e.energy = math.Max(e.energy, math.Abs(k+u-k0-u0))
	}
	if math.Abs(m.Current().T-tEnd) > 1e-9 {
		t.Fatalf("run ended at t = %g, want %g", m.Current().T, tEnd)
	}
	e.stats = m.Stats()
	return e
}

// log2Ratios returns log2(e[i]/e[i+1]), the observed orders of errors at h, h/2, h/4, ….
func log2Ratios(e []float64) []float64 {
	r := make([]float64, len(e)-1)
	for i := range r {
		r[i] = math.Log2(e[i] / e[i+1])
	}
	return r
}

// checkOrders asserts every observed order within ±tol of want.
func checkOrders(t *testing.T, what string, e []float64, want, tol float64) {
	t.Helper()
	t.Logf("%s: errors %.3g, observed orders %.3f", what, e, log2Ratios(e))
	for i, p := range log2Ratios(e) {
		if math.Abs(p-want) > tol {
			t.Errorf("%s: observed order %.3f between h/%d and h/%d (errors %.3g), want %g ± %g",
				what, p, 1<<i, 1<<(i+1), e, want, tol)
		}
	}
}

// fixedErrs runs Example 8 for h = 0.02, 0.01, 0.005 over [0, 2] and collects max errors.
func fixedErrs(t *testing.T, mk func() GenAlpha, x0 float64) (q, v, lambda []float64, runs []runErrs) {
	for _, h := range []float64{0.02, 0.01, 0.005} {
		m := mk()
		e := runEx8(t, &m, x0, h, 2)
		q, v, lambda = append(q, e.q), append(v, e.v), append(lambda, e.lambda)
		runs = append(runs, e)
	}
	return q, v, lambda, runs
}

// TestGenAlphaSI2Order: the stabilized index-2 form (eqs. 93-94) converges with order 2 in
// q, v and λ (max over the run) from both starting positions of Example 8 (seed 002, Fig.
// 16). ±0.2 is the house tolerance on observed orders (STYLE, Tests); the λ level 2e-3
// to 4e-3 at h = 0.02 is the paper's "in the size of 2.0e-3" read off Fig. 16.
func TestGenAlphaSI2Order(t *testing.T) {
	for _, x0 := range []float64{0, 0.2} {
		q, v, l, runs := fixedErrs(t, func() GenAlpha {
			m := DefaultGenAlpha()
			m.Formulation = StabilizedIndex2
			return m
		}, x0)
		checkOrders(t, "si2 q", q, 2, 0.2)
		checkOrders(t, "si2 v", v, 2, 0.2)
		checkOrders(t, "si2 lambda", l, 2, 0.2)
		if l[0] > 4e-3 {
			t.Errorf("si2 x0=%g: max λ error %.3g at h = 0.02, want ≤ 4e-3 (seed 002 Fig. 16: ~2e-3)", x0, l[0])
		}
		for _, e := range runs {
			// Newton stops at θ/(1−θ)‖Δ‖ ≤ 1e-3 in weights 1e-6 (RTol = ATol default):
			// residuals stay near 1e-9 relative, 1e-10 absolute on |q| = 1.
			if e.pos > 1e-10 {
				t.Errorf("si2 x0=%g: max |g| = %.3g, want ≤ 1e-10", x0, e.pos)
			}
		}
	}
}

// TestGenAlphaIndex3Lambda reproduces seed 002, Example 8 / Fig. 10 for the index-3 form
// (eqs. 64, 67): from x_0 = 0.2 the max λ error is first order, 0.24 → 0.12 when h halves
// 0.02 → 0.01; from x_0 = 0 it is second order, 4.0e-3 → 1.0e-3; q and v are second order
// in both cases; CorrectStart restores second order in λ from x_0 = 0.2.
func TestGenAlphaIndex3Lambda(t *testing.T) {
	q, v, l, runs := fixedErrs(t, DefaultGenAlpha, 0.2)
	checkOrders(t, "index3 x0=0.2 q", q, 2, 0.2)
	checkOrders(t, "index3 x0=0.2 v", v, 2, 0.2)
	checkOrders(t, "index3 x0=0.2 lambda", l, 1, 0.1) // a clean n²ρ∞ⁿ h transient: ±0.1
	// The paper's two figures, read to two digits: within ±10 %.
	if math.Abs(l[0]-0.24) > 0.024 || math.Abs(l[1]-0.12) > 0.012 {
		t.Errorf("index3 x0=0.2: max λ errors %.3g, %.3g at h = 0.02, 0.01; seed 002 Fig. 10 reports 0.24, 0.12", l[0], l[1])
	}
	for _, e := range runs {
		if e.pos > 1e-10 { // as in TestGenAlphaSI2Order
			t.Errorf("index3: max |g| = %.3g, want ≤ 1e-10", e.pos)
		}
	}
	_, _, l0, _ := fixedErrs(t, DefaultGenAlpha, 0)
	checkOrders(t, "index3 x0=0 lambda", l0, 2, 0.2)
	if math.Abs(l0[0]-4.0e-3) > 0.4e-3 || math.Abs(l0[1]-1.0e-3) > 0.1e-3 {
		t.Errorf("index3 x0=0: max λ errors %.3g, %.3g; seed 002 Fig. 10 reports 4.0e-3, 1.0e-3", l0[0], l0[1])
	}
	_, _, lc, _ := fixedErrs(t, func() GenAlpha {
		m := DefaultGenAlpha()
		m.CorrectStart = true
		return m
	}, 0.2)
	checkOrders(t, "index3 corrected start x0=0.2 lambda", lc, 2, 0.2)
	if lc[0] > 0.05*l[0] { // measured 4.0e-3 vs 0.25: the transient is gone
		t.Errorf("index3 corrected start: max λ error %.3g at h = 0.02, want ≤ 5%% of the uncorrected %.3g", lc[0], l[0])
	}
}

// TestNewmarkEnergy: the trapezoidal rule is symmetric, so on the (integrable, reversible)
// pendulum its energy error is O(h²) and bounded, with no secular drift (Hairer, Lubich &
// Wanner 2006, XI); the quadratic energy of a linear oscillator would be exact, the
// nonlinear constraint leaves the O(h²) term. Asserted: order 2 ± 0.2 in max |E − E_0| over
// 10 s (about 5 periods of 2 s) and the second half no worse than the first (+10 %).
func TestNewmarkEnergy(t *testing.T) {
	var emax []float64
	for _, h := range []float64{0.02, 0.01, 0.005} {
		mk := newmarkEntry.New().(*GenAlpha)
		p, _, _, s := ex8Start(0.2)
		if err := mk.Init(p, s, StepControl{FixedH: h}); err != nil {
			t.Fatal(err)
		}
		k0, u0 := p.Energy(0, s.Q, s.V)
		var first, second float64
		for mk.Current().T < 10-h/2 {
			if err := mk.Step(10); err != nil {
				t.Fatal(err)
			}
			c := mk.Current()
			k, u := p.Energy(c.T, c.Q, c.V)
			d := math.Abs(k + u - k0 - u0)
			if c.T <= 5 {
				first = math.Max(first, d)
			} else {
				second = math.Max(second, d)
			}
		}
		if second > 1.1*first {
			t.Errorf("newmark h=%g: energy error %.3g on [5, 10] exceeds %.3g on [0, 5] by more than 10 %%: drift", h, second, first)
		}
		emax = append(emax, math.Max(first, second))
	}
	checkOrders(t, "newmark energy", emax, 2, 0.2)
	t.Logf("newmark: max energy errors %.3g", emax)
	if emax[1] > 1e-5 { // measured 7.8e-6 at h = 0.01 (E_0 = −9.31)
		t.Errorf("newmark: energy error %.3g at h = 0.01, want ≤ 1e-5", emax[1])
	}
}

// TestGenAlphaParams checks the Chung-Hulbert identities (seed 003, section 4) and that the
// spectral radius of the amplification matrix of q” = −ω²q at hω = 1e6 equals ρ∞.
func TestGenAlphaParams(t *testing.T) {
	for _, rho := range []float64{0, 0.5, 0.9, 1} {
		p, err := GenAlphaFromRhoInf(rho)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.check("genalpha"); err != nil {
			t.Errorf("rho=%g: %v", rho, err)
		}
		// hω = 1e6 is the limit to O(1/(hω)²) = 1e-12, except at ρ∞ = 0 where the limit is a
		// triple zero eigenvalue, perturbed by (1e-12)^(1/3) = 1e-4.
		if got := spectralRadius(p, 1e6); math.Abs(got-rho) > 2e-4 {
			t.Errorf("rho=%g: spectral radius at hω = 1e6 is %.6f", rho, got)
		}
	}
	hht, _ := HHTAlphaParams(-0.1)
	if got, want := spectralRadius(hht, 1e6), (1-0.1)/(1+0.1); math.Abs(got-want) > 1e-4 {
		t.Errorf("hht α=−0.1: spectral radius %.6f, want (1+α)/(1−α) = %.6f", got, want)
	}
	if got := spectralRadius(NewmarkParams(), 1e6); math.Abs(got-1) > 1e-9 {
		t.Errorf("newmark: spectral radius %.6f, want 1", got)
	}
}

// spectralRadius returns the spectral radius of the one-step map of the method on
// q” = −ω²q with h = 1, ω = hw, in the state (q, v, a, q”).
func spectralRadius(p GenAlphaParams, hw float64) float64 {
	w2 := hw * hw
	step := func(x [4]float64) [4]float64 {
		q, v, a, qdd := x[0], x[1], x[2], x[3]
		// q₁ = q + v + (½−β)a + β a₁;  (1−α_m)a₁ + α_m a = (1−α_f)(−ω² q₁) + α_f q”
		// ⇒ a₁ [(1−α_m) + (1−α_f)ω²β] = −(1−α_f)ω²(q + v + (½−β)a) − α_m a + α_f q”
		a1 := (-(1-p.AlphaF)*w2*(q+v+(0.5-p.Beta)*a) - p.AlphaM*a + p.AlphaF*qdd) / ((1 - p.AlphaM) + (1-p.AlphaF)*w2*p.Beta)
		q1 := q + v + (0.5-p.Beta)*a + p.Beta*a1
		v1 := v + (1-p.Gamma)*a + p.Gamma*a1
		return [4]float64{q1, v1, a1, -w2 * q1}
	}
	A := mat.NewDense(4, 4, nil)
	for j := range 4 {
		var e [4]float64
		e[j] = 1
		c := step(e)
		for i := range 4 {
			A.Set(i, j, c[i])
		}
	}
	var eig mat.Eigen
	if !eig.Factorize(A, mat.EigenNone) {
		return math.NaN()
	}
	var r float64
	for _, l := range eig.Values(nil) {
		r = math.Max(r, math.Hypot(real(l), imag(l)))
	}
	return r
}

// TestGenAlphaBadInput: parameters are rejected by name and range, nothing is clamped.
func TestGenAlphaBadInput(t *testing.T) {
	for _, rho := range []float64{-0.1, 1.5, math.NaN()} {
		_, err := GenAlphaFromRhoInf(rho)
		if err == nil || !strings.Contains(err.Error(), "RhoInf") || !strings.Contains(err.Error(), "[0, 1]") {
			t.Errorf("GenAlphaFromRhoInf(%g): error %v, want one naming RhoInf and [0, 1]", rho, err)
		}
	}
	if _, err := HHTAlphaParams(-0.5); err == nil || !strings.Contains(err.Error(), "[-1/3, 0]") {
		t.Errorf("HHTAlphaParams(-0.5): error %v, want one naming [-1/3, 0]", err)
	}
	if _, err := GenAlphaParamsByName("bdf", 0); err == nil || !strings.Contains(err.Error(), "bdf") {
		t.Errorf("GenAlphaParamsByName(bdf): error %v", err)
	}
	p, _, _, s := ex8Start(0.2)
	for _, c := range []struct {
		m    GenAlpha
		want string
	}{
		{GenAlpha{}, "Params.Beta"},
		{GenAlpha{Params: GenAlphaParams{AlphaM: 0.2, AlphaF: 0.3, Beta: 0.3, Gamma: 0.5}}, "Params.Gamma"},
		{GenAlpha{Params: NewmarkParams(), Formulation: Index1}, "Formulation"},
		{GenAlpha{Params: NewmarkParams(), Formulation: StabilizedIndex2, CorrectStart: true}, "CorrectStart"},
	} {
		if err := c.m.Init(p, s, StepControl{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Init(%+v): error %v, want one naming %s", c.m.Params, err, c.want)
		}
	}
	bad := s.Clone()
	bad.Q[0] += 1e-3
	m := DefaultGenAlpha()
	if err := m.Init(p, bad, StepControl{}); err == nil || !strings.Contains(err.Error(), "rod") {
		t.Errorf("Init from an inconsistent start: error %v, want one naming the constraint rod", err)
	}
}

// nanAfter wraps a system so that its forces are NaN for t ≥ tNaN.
type nanAfter struct {
	*pendulum
	tNaN float64
}

func (s nanAfter) Force(dst []float64, t float64, q, v []float64) {
	s.pendulum.Force(dst, t, q, v)
	if t >= s.tNaN {
		dst[1] = math.NaN()
	}
}

// TestGenAlphaFailure: NaN forces from t = 0.5 on stop the run with ErrNonFinite at the
// last accepted time just below 0.5, the state and step count untouched.
func TestGenAlphaFailure(t *testing.T) {
	for _, fixed := range []bool{true, false} {
		p, _, _, s := ex8Start(0.2)
		sys := nanAfter{p, 0.5}
		m := DefaultGenAlpha()
		ctl := StepControl{FixedH: 0.01}
		if !fixed {
			ctl = StepControl{RTol: 1e-4}
		}
		if err := m.Init(sys, s, ctl); err != nil {
			t.Fatal(err)
		}
		var err error
		for err == nil {
			err = m.Step(1)
		}
		var se *StepError
		if !errors.As(err, &se) || !errors.Is(err, ErrNonFinite) {
			t.Fatalf("fixed=%v: error %v, want a *StepError wrapping ErrNonFinite", fixed, err)
		}
		// Fixed steps: the last accepted point is 0.49 (to rounding of 49 additions);
		// adaptive: the steps shrink to HMin = 1e-14 in front of 0.5.
		lo := 0.49 - 1e-12
		if !fixed {
			lo = 0.5 - 1e-9
		}
		if se.T < lo || se.T >= 0.5 || m.Current().T != se.T {
			t.Errorf("fixed=%v: StepError.T = %.15g (state at %.15g), want in [%g, 0.5)", fixed, se.T, m.Current().T, lo)
		}
		if se.Worst.Owner == "" || !strings.Contains(err.Error(), "genalpha") {
			t.Errorf("fixed=%v: error %q names no owner or method", fixed, err)
		}
		t.Logf("fixed=%v: %v", fixed, err)
		steps := m.Stats().Steps
		if err2 := m.Step(1); err2 == nil || m.Stats().Steps != steps {
			t.Errorf("fixed=%v: a step after the failure was accepted", fixed)
		}
	}
}

// countMass counts the evaluations of M (one per residual or eq. 17 solve; the pendulum
// has analytic derivatives, so none are spent on finite differences).
type countMass struct {
	*pendulum
	n *int
}

func (c countMass) Mass(dst *mat.Dense, t float64, q []float64) {
	*c.n++
	c.pendulum.Mass(dst, t, q)
}

// TestGenAlphaStats: counters agree with a counting wrapper, every step takes at least one
// Newton iteration, and JacobianAuto reuses the iteration matrix.
func TestGenAlphaStats(t *testing.T) {
	var jac [2]int
	for i, pol := range []JacobianPolicy{JacobianAuto, JacobianEveryStep} {
		p, _, _, s := ex8Start(0.2)
		n := 0
		m := DefaultGenAlpha()
		m.Formulation = StabilizedIndex2
		m.Newton.Jacobian = pol
		if err := m.Init(countMass{p, &n}, s, StepControl{FixedH: 0.01}); err != nil {
			t.Fatal(err)
		}
		for m.Current().T < 1-1e-9 {
			if err := m.Step(1); err != nil {
				t.Fatal(err)
			}
		}
		st := m.Stats()
		if st.Steps != 100 || st.NewtonIters < 2*st.Steps || st.FuncEvals != n || st.FDEvals != 0 {
			t.Errorf("%v: stats %+v, Mass calls %d: want 100 steps, ≥ 2 iterations per step with a reused matrix, FuncEvals = Mass calls, no FD", pol, st, n)
		}
		t.Logf("%v: %+v", pol, st)
		jac[i] = st.Jacobians
	}
	if jac[0] >= jac[1]/4 || jac[1] < 100 { // measured 11 vs 100
		t.Errorf("Jacobians: auto %d, every-step %d; want auto < every-step/4 and every-step ≥ steps", jac[0], jac[1])
	}
}

// TestGenAlphaAdaptive: the error-controlled runs reach t_end, their error falls with the
// tolerance like tol^(2/3) (local error h³, controller on e ~ h^(p+1), p = 2), and both
// constraint levels hold for the stabilized index-2 form.
func TestGenAlphaAdaptive(t *testing.T) {
	var errs []float64
	for _, tol := range []float64{1e-4, 1e-6} {
		p, phi0, om0, s := ex8Start(0.2)
		m := DefaultGenAlpha()
		m.Formulation = StabilizedIndex2
		if err := m.Init(p, s, StepControl{RTol: tol, ATol: tol}); err != nil {
			t.Fatal(err)
		}
		meter := dae.NewResidualMeter(p)
		var res dae.ConstraintResiduals
		for m.Current().T < 2 {
			if err := m.Step(2); err != nil {
				t.Fatal(err)
			}
			c := m.Current()
			res = res.Max(meter.Measure(c.T, c.Q, c.V, nil))
		}
		ref := &angleRef{p: p, phi: phi0, omega: om0, sub: 20000}
		ref.advance(2)
		errs = append(errs, math.Abs(m.Current().Q[0]-math.Sin(ref.phi)))
		// Newton stops at 1e-3 of the weights ATol + RTol|y| (RMS over 7 components, so a
		// single one may reach ~3e-3·tol): bound 1e-2·tol; measured 1.4e-9 and 6.8e-8 at 1e-4.
		if res.Pos > 1e-2*tol || res.Vel > 1e-2*tol {
			t.Errorf("tol %g: constraint residuals %+v", tol, res)
		}
		if st := m.Stats(); st.Steps < 10 || st.NewtonIters < st.Steps {
			t.Errorf("tol %g: stats %+v", tol, st)
		}
	}
	t.Logf("adaptive si2: errors in x at t = 2: %.3g (tol 1e-4, 1e-6)", errs)
	// tol^(2/3) over two decades is 21.5; measured 18.
	if r := errs[0] / errs[1]; r < 10 || r > 50 {
		t.Errorf("adaptive errors %.3g at tol 1e-4, %.3g at 1e-6: ratio %.3g, want ~21 (tol^(2/3))", errs[0], errs[1], r)
	}
}

// TestGenAlphaInterpolate: dense output at mid-steps is as accurate as the grid values.
func TestGenAlphaInterpolate(t *testing.T) {
	p, phi0, om0, s := ex8Start(0.2)
	m := DefaultGenAlpha()
	m.Formulation = StabilizedIndex2
	h := 0.01
	if err := m.Init(p, s, StepControl{FixedH: h}); err != nil {
		t.Fatal(err)
	}
	ref := &angleRef{p: p, phi: phi0, omega: om0, sub: 50}
	d := NewState(2, 1)
	var worst float64
	for range 100 {
		if err := m.Step(1); err != nil {
			t.Fatal(err)
		}
		ref.advance(h / 2)
		m.Interpolate(&d, m.Current().T-h/2)
		worst = math.Max(worst, math.Abs(d.Q[0]-math.Sin(ref.phi)))
		ref.advance(h / 2)
	}
	if worst > 2e-4 { // grid error of q at h = 0.01 over 1 s is ~8e-5; Hermite adds O(h⁴)
		t.Errorf("interpolated q error %.3g at mid-steps, want ≤ 2e-4", worst)
	}
}

// BenchmarkGenAlphaStep times one fixed step (h = 1e-3) on the pendulum and the 10-link
// chain, for both formulations.
func BenchmarkGenAlphaStep(b *testing.B) {
	for _, form := range []Formulation{Index3, StabilizedIndex2} {
		for _, sys := range []string{"pendulum", "chain10"} {
			b.Run(string(form)+"/"+sys, func(b *testing.B) {
				m := DefaultGenAlpha()
				m.Formulation = form
				var err error
				if sys == "pendulum" {
					p, _, _, s := ex8Start(0.2)
					err = m.Init(p, s, StepControl{FixedH: 1e-3})
				} else {
					c := newChain(10, 1, 1, 9.81)
					err = m.Init(c, chainStart(c, nil), StepControl{FixedH: 1e-3})
				}
				if err != nil {
					b.Fatal(err)
				}
				for range 5 {
					if err := m.Step(math.Inf(1)); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := m.Step(math.Inf(1)); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(m.Stats().NewtonIters)/float64(m.Stats().Steps), "newton/step")
			})
		}
	}
}

// TestGenAlphaChainDriven runs the 10-link chain (nq = 20, nc = 10) and the pendulum with
// a driven pivot (g_t ≠ 0): constraint residuals stay at the Newton tolerance, the chain's
// energy error stays O(h²) small, and on the driven pendulum the self-convergence order
// of q at t = 1 (against h/8) is 2 for both forms.
func TestGenAlphaChainDriven(t *testing.T) {
	for _, form := range []Formulation{Index3, StabilizedIndex2} {
		c := newChain(10, 1, 1, 9.81)
		m := DefaultGenAlpha()
		m.Formulation = form
		if err := m.Init(c, chainStart(c, nil), StepControl{FixedH: 2e-3}); err != nil {
			t.Fatal(err)
		}
		meter := dae.NewResidualMeter(c)
		k0, u0 := c.Energy(0, m.Current().Q, m.Current().V)
		var res dae.ConstraintResiduals
		var de float64
		for m.Current().T < 0.5-1e-9 {
			if err := m.Step(0.5); err != nil {
				t.Fatal(err)
			}
			cur := m.Current()
			res = res.Max(meter.Measure(cur.T, cur.Q, cur.V, nil))
			k, u := c.Energy(cur.T, cur.Q, cur.V)
			de = math.Max(de, math.Abs(k+u-k0-u0))
		}
		t.Logf("chain10 %s: residuals %+v, energy error %.3g, %+v", form, res, de, m.Stats())
		// Newton at 1e-3 of weights 1e-6 (see TestGenAlphaSI2Order): 1e-9 on 10 links.
		if res.Pos > 1e-9 || (form == StabilizedIndex2 && res.Vel > 1e-9) {
			t.Errorf("chain10 %s: residuals %+v", form, res)
		}
		if de > 0.05 { // |E| ≈ 500 (10 masses, depth up to 7): 1e-4 relative; ρ∞ = 0.9 damps little
			t.Errorf("chain10 %s: energy error %.3g", form, de)
		}
	}
	for _, form := range []Formulation{Index3, StabilizedIndex2} {
		run := func(h float64) []float64 {
			p := newDrivenPendulum(1, 1, 9.81, 0.1, 3)
			m := DefaultGenAlpha()
			m.Formulation = form
			m.CorrectStart = form == Index3 // without it λ is first order (Example 8)
			m.Newton.Tol = 1e-6             // keep Newton errors out of the h/8 reference
			if err := m.Init(p, pendulumStart(p, 0.3, 0.5), StepControl{FixedH: h}); err != nil {
				t.Fatal(err)
			}
			for m.Current().T < 1-1e-9 {
				if err := m.Step(1); err != nil {
					t.Fatal(err)
				}
			}
			return append(append([]float64{}, m.Current().Q...), m.Current().Lambda...)
		}
		ref := run(0.01 / 8)
		var eq, el []float64
		for _, h := range []float64{0.01, 0.005} {
			x := run(h)
			eq = append(eq, math.Hypot(x[0]-ref[0], x[1]-ref[1]))
			el = append(el, math.Abs(x[2]-ref[2]))
		}
		// Against h/8 the reference error is 1/64 (h) and 1/16 (h/2) of the errors:
		// the observed order is log2(4·(1−1/64)/(1−1/16)) = 2.07; ±0.2 as elsewhere.
		checkOrders(t, "driven "+string(form)+" q", eq, 2.07, 0.2)
		checkOrders(t, "driven "+string(form)+" lambda at t=1", el, 2.07, 0.2)
	}
}

// TestHHTAlphaParamsDeriveFromHHT: the HHT member of the generalized-α family is the one
// HHT of hht.go (issue 14, item 3): α_f = −α, β and γ of seed 004, eq. 6, bit for bit, and
// the same range check and message.
func TestHHTAlphaParamsDeriveFromHHT(t *testing.T) {
	for _, alpha := range []float64{-1.0 / 3, -0.3, -0.1, 0} {
		p, err := HHTAlphaParams(alpha)
		if err != nil {
			t.Fatalf("alpha = %g: %v", alpha, err)
		}
		k := newHHTCoef(alpha, 0)
		if p.AlphaM != 0 || p.AlphaF != -alpha || p.Beta != k.beta || p.Gamma != k.gamma {
			t.Errorf("alpha = %g: HHTAlphaParams = %+v, want α_m = 0, α_f = %g, β = %g, γ = %g (hht.go)", alpha, p, -alpha, k.beta, k.gamma)
		}
	}
	for _, alpha := range []float64{-0.5, 0.1, math.NaN()} {
		_, errG := HHTAlphaParams(alpha)
		m := DefaultHHT()
		m.Alpha = alpha
		p := newPendulum(1, 1, 9.81)
		errH := m.Init(p, pendulumStart(p, 0.1, 0), StepControl{})
		if errG == nil || errH == nil || !strings.Contains(errG.Error(), "outside [-1/3, 0]") || !strings.Contains(errH.Error(), "outside [-1/3, 0]") {
			t.Errorf("alpha = %g: HHTAlphaParams error %v, HHT.Init error %v; want both to name [-1/3, 0]", alpha, errG, errH)
		}
	}
}
