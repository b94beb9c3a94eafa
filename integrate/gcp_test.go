package integrate

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// polar is a test system for the state-space methods with everything seed 000's Jacobian
// (eq. 29) has to get right: a configuration-dependent mass matrix, velocity-dependent and
// time-dependent forces, two nonlinear constraints (one rheonomic) and two degrees of
// freedom, so that H (eq. 31) is a full 2×2 matrix. q = (r, φ, s, p):
//
//	M = diag(1, r², 1 + s², 2 + p²)
//	f = (r φ'² − 2r − 0.3 r',  −0.2 φ' + 0.5 cos t − r r' φ',  −s − 0.4 s' + p'²,  −3p − 0.1 p'³)
//	g0 = r cos φ + s² − 1 − 0.1 sin t,    g1 = s p − 0.5 sin φ + 0.2 r.
//
// It implements no derivative capability: the methods use the finite-difference fallbacks.
type polar struct{}

func (polar) Size() (int, int) { return 4, 2 }

func (polar) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	dst.Set(0, 0, 1)
	dst.Set(1, 1, q[0]*q[0])
	dst.Set(2, 2, 1+q[2]*q[2])
	dst.Set(3, 3, 2+q[3]*q[3])
}

func (polar) Force(dst []float64, t float64, q, v []float64) {
	dst[0] = q[0]*v[1]*v[1] - 2*q[0] - 0.3*v[0]
	dst[1] = -0.2*v[1] + 0.5*math.Cos(t) - q[0]*v[0]*v[1]
	dst[2] = -q[2] - 0.4*v[2] + v[3]*v[3]
	dst[3] = -3*q[3] - 0.1*v[3]*v[3]*v[3]
}

func (polar) Constraint(dst []float64, t float64, q []float64) {
	dst[0] = q[0]*math.Cos(q[1]) + q[2]*q[2] - 1 - 0.1*math.Sin(t)
	dst[1] = q[2]*q[3] - 0.5*math.Sin(q[1]) + 0.2*q[0]
}

func (polar) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	s, c := math.Sincos(q[1])
	dst.Set(0, 0, c)
	dst.Set(0, 1, -q[0]*s)
	dst.Set(0, 2, 2*q[2])
	dst.Set(0, 3, 0)
	dst.Set(1, 0, 0.2)
	dst.Set(1, 1, -0.5*c)
	dst.Set(1, 2, q[3])
	dst.Set(1, 3, q[2])
}

func (polar) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	dst[0] = -0.1 * math.Cos(t)
	dst[1] = 0
}

func (polar) Gamma(dst []float64, t float64, q, v []float64) {
	s, c := math.Sincos(q[1])
	dst[0] = 2*s*v[0]*v[1] + q[0]*c*v[1]*v[1] - 2*v[2]*v[2] - 0.1*math.Sin(t)
	dst[1] = -0.5*s*v[1]*v[1] - 2*v[2]*v[3]
}

// polarStart returns a consistent state at t = 0 from (r, φ) and (r', φ').
func polarStart() State {
	r, phi, dr, dphi := 0.8, 0.5, 0.3, -0.7
	sn, cs := math.Sincos(phi)
	s := math.Sqrt(1 - r*cs)
	p := (0.5*sn - 0.2*r) / s
	ds := (0.1 - cs*dr + r*sn*dphi) / (2 * s)
	dp := -(0.2*dr - 0.5*cs*dphi + p*ds) / s
	return consistentState(polar{}, 0, []float64{r, phi, s, p}, []float64{dr, dphi, ds, dp})
}

// TestPolarDerivatives guards the hand-written γ of the test system.
func TestPolarDerivatives(t *testing.T) {
	st := polarStart()
	if _, err := dae.Check(polar{}, dae.CheckPoint{T: 0.3, Q: st.Q, V: st.V}, 1e-6); err != nil {
		t.Fatal(err)
	}
}

// gcpAt returns a GCP initialized at start and advanced into the middle of the corrector
// of a step of size h: the predictor has run and w.vdd holds a trial qInd”.
func gcpAt(t *testing.T, variant GCPVariant, sys dae.System, start State, h float64) *GCP {
	t.Helper()
	m := DefaultGCP()
	m.Variant = variant
	if err := m.Init(sys, start, StepControl{FixedH: h}); err != nil {
		t.Fatal(err)
	}
	if err := m.Step(math.Inf(1)); err != nil { // one step, so that a, λ are not start values
		t.Fatal(err)
	}
	w := m.w
	if err := w.predict(h, true); err != nil {
		t.Fatal(err)
	}
	for j := range w.vdd {
		w.vdd[j] += 0.3 * float64(j+1) // away from the solution: Ψ ≠ 0, λ ≠ its converged value
	}
	return &m
}

// TestGCPJacobianMatchesFD is issue 6's requirement: the Newton matrix of eq. 29 equals the
// finite-difference Jacobian of Ψ (eq. 20) as a function of qInd”, with every dependent
// quantity recovered from eqs. 10-13 at each perturbed qInd”. The FV matrix must differ by
// the terms of eq. 40.
func TestGCPJacobianMatchesFD(t *testing.T) {
	const h = 0.05
	for _, c := range []struct {
		name  string
		sys   dae.System
		start State
	}{
		{"polar", polar{}, polarStart()},
		{"driven-damped-pendulum", &pendulum{m: 1.3, L: 0.9, grav: 9.81, c: 0.7, amp: 0.2, omega: 3}, State{}},
	} {
		if c.name == "driven-damped-pendulum" {
			c.start = pendulumStart(c.sys.(*pendulum), 1.1, 0.4)
		}
		m := gcpAt(t, GCPExact, c.sys, c.start, h)
		w := m.w
		nd := len(w.vdd)
		if err := w.evaluate(h); err != nil {
			t.Fatal(err)
		}
		if err := w.jacobian(h); err != nil {
			t.Fatal(err)
		}
		exact := mat.DenseCopyOf(w.jac)
		w.v = GCPFisetteVaneghem
		if err := w.jacobian(h); err != nil {
			t.Fatal(err)
		}
		fv := mat.DenseCopyOf(w.jac)
		w.v = GCPExact

		base := append([]float64(nil), w.vdd...)
		fd := mat.NewDense(nd, nd, nil)
		pp, pm := make([]float64, nd), make([]float64, nd)
		for j := range nd {
			d := 1e-4 * math.Max(1, math.Abs(base[j]))
			copy(w.vdd, base)
			w.vdd[j] = base[j] + d
			if err := w.evaluate(h); err != nil {
				t.Fatal(err)
			}
			copy(pp, w.psi)
			w.vdd[j] = base[j] - d
			if err := w.evaluate(h); err != nil {
				t.Fatal(err)
			}
			copy(pm, w.psi)
			for i := range nd {
				fd.Set(i, j, (pp[i]-pm[i])/(2*d))
			}
		}
		copy(w.vdd, base)
		var diff mat.Dense
		diff.Sub(exact, fd)
		scale := mat.Norm(fd, math.Inf(1))
		gap := mat.Norm(&diff, math.Inf(1)) / scale
		// Central differences of Ψ with δ = 1e-4 (truncation ~δ²·Ψ''' ≈ 1e-8) on top of the
		// finite-difference second derivatives inside eq. 29 (~1e-9 relative): 1e-6 leaves margin.
		if gap > 1e-6 {
			t.Errorf("%s: |Ψ_v'' (eq. 29) − FD| / |FD| = %.2g, want ≤ 1e-6\nexact %v\nfd    %v", c.name, gap, mat.Formatted(exact), mat.Formatted(fd))
		}
		diff.Sub(fv, fd)
		fvGap := mat.Norm(&diff, math.Inf(1)) / scale
		// The terms of eq. 40 are O(h) and O(h²) relative to Zᵀ M Z; here they are at least 1e-3.
		if fvGap < 1e-3 {
			t.Errorf("%s: FV matrix within %.2g of the exact Jacobian; the eq. 40 terms are missing", c.name, fvGap)
		}
		t.Logf("%s: relative gap exact %.2g, FV %.2g", c.name, gap, fvGap)
	}
}

// fixedRun integrates sys with method m and fixed step h from start to tEnd and returns
// the final state.
func fixedRun(t *testing.T, m Method, sys dae.System, start State, tEnd, h float64) State {
	t.Helper()
	if err := m.Init(sys, start.Clone(), StepControl{FixedH: h}); err != nil {
		t.Fatal(err)
	}
	for m.Current().T < tEnd {
		if err := m.Step(tEnd); err != nil {
			t.Fatalf("h=%g: %v", h, err)
		}
	}
	return m.Current().Clone()
}

// gcpOrders runs with h, h/2, h/4, h/8 and returns, per block (q, v, λ), the two
// Richardson orders log2(|y_h − y_h/2| / |y_h/2 − y_h/4|) and log2(|y_h/2 − y_h/4| / |y_h/4 − y_h/8|)
// (max norms at tEnd), which need no reference solution.
func gcpOrders(t *testing.T, newM func() Method, sys dae.System, start State, tEnd, h float64) (q, v, l [2]float64) {
	t.Helper()
	var s [4]State
	for k := range s {
		s[k] = fixedRun(t, newM(), sys, start, tEnd, h/float64(int(1)<<k))
	}
	ord := func(get func(*State) []float64) [2]float64 {
		var out [2]float64
		for k := range 2 {
			out[k] = math.Log2(gcpMaxDiff(get(&s[k]), get(&s[k+1])) / gcpMaxDiff(get(&s[k+1]), get(&s[k+2])))
		}
		return out
	}
	return ord(func(x *State) []float64 { return x.Q }), ord(func(x *State) []float64 { return x.V }),
		ord(func(x *State) []float64 { return x.Lambda })
}

func gcpMaxDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// TestGCPOrder: gcp-newmark and gcp-fv converge with order 2 in q, v and λ (seed 000,
// section 4: the trapezoidal rule) on the polar system.
func TestGCPOrder(t *testing.T) {
	for _, variant := range []GCPVariant{GCPExact, GCPFisetteVaneghem} {
		newM := func() Method { m := DefaultGCP(); m.Variant = variant; return &m }
		q, v, l := gcpOrders(t, newM, polar{}, polarStart(), 1, 0.02)
		checkGCPOrder2(t, fmt.Sprintf("variant %d", variant), q, v, l)
	}
}

// checkGCPOrder2 asserts that every observed order of gcpOrders is 2 ± 0.2 (the band of
// the conformance suite, OrdinaryDiffEq's).
func checkGCPOrder2(t *testing.T, label string, q, v, l [2]float64) {
	t.Helper()
	for name, o := range map[string][2]float64{"q": q, "v": v, "lambda": l} {
		if math.Abs(o[0]-2) > 0.2 || math.Abs(o[1]-2) > 0.2 {
			t.Errorf("%s: %s: observed orders %.3f, %.3f, want 2 ± 0.2", label, name, o[0], o[1])
		}
	}
	t.Logf("%s: orders q %.3f %.3f, v %.3f %.3f, λ %.3f %.3f", label, q[0], q[1], v[0], v[1], l[0], l[1])
}

// TestGCPAccuracyAdaptive: the variable-step mode reaches the pendulum's angle reference
// with an error that follows the tolerance, and keeps g = 0 at every step.
func TestGCPAccuracyAdaptive(t *testing.T) {
	p := &pendulum{m: 1, L: 1, grav: 9.81, c: 0.1}
	start := pendulumStart(p, 1.2, 0)
	const tEnd = 2.0
	qRef, _ := pendulumAngle(p, 1.2, 0, tEnd, 10000)
	prevErr := math.Inf(1)
	for _, tol := range []float64{1e-4, 1e-6} {
		m := DefaultGCP()
		sol, err := Solve(&m, "gcp-newmark", p, start.Clone(), tEnd, SolveOptions{Control: StepControl{RTol: tol, ATol: tol}, Output: []float64{tEnd}})
		if err != nil {
			t.Fatal(err)
		}
		e := gcpMaxDiff(sol.Final.Q, qRef[:])
		// The controller bounds the local error per step; over ~100-1000 steps and a swing
		// that does not amplify errors much, the global error stays within 100·tol.
		if !(e <= 100*tol) {
			t.Errorf("tol %g: |q − ref| = %.2g, want ≤ %g", tol, e, 100*tol)
		}
		if !(e < prevErr) {
			t.Errorf("tol %g: error %.2g did not decrease from %.2g", tol, e, prevErr)
		}
		prevErr = e
		if r := sol.MaxResidual; !(r.Pos <= 1e-10) || !(r.Vel <= 1e-10) {
			t.Errorf("tol %g: max |g| = %.2g, |G v| = %.2g, want ≤ 1e-10 (recovered at every step)", tol, r.Pos, r.Vel)
		}
		st := sol.Stats
		if st.NewtonIters < st.Steps || st.Jacobians < st.Steps || st.Steps < 10 {
			t.Errorf("tol %g: implausible statistics %+v", tol, st)
		}
		t.Logf("tol %g: error %.3g, %+v", tol, e, st)
	}
}

// TestGCPRepartition: a pendulum swinging through ±86° must change its dependent coordinate
// (x near the bottom is ill suited, y near the horizontal) and stay accurate.
func TestGCPRepartition(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	start := pendulumStart(p, 1.5, 0)
	const tEnd = 2.2
	m := DefaultGCP()
	got := fixedRun(t, &m, p, start, tEnd, 1e-3)
	st := m.Stats()
	// Released at 86° (period ≈ 2.75 s): x → y near the bottom (t ≈ 0.69), y → x near the
	// turn at −86° where |x/y| = 14 > 10 (t ≈ 1.37), x → y at the bottom again (t ≈ 2.06).
	if st.Repartitions != 3 {
		t.Errorf("%d re-partitions, want 3", st.Repartitions)
	}
	qRef, _ := pendulumAngle(p, 1.5, 0, tEnd, 10000)
	// Trapezoidal with h = 1e-3 over 2 s: error ≈ h²/12·|q'''|·t ≈ 1e-5; the partition
	// changes do not add more than that.
	if e := gcpMaxDiff(got.Q, qRef[:]); e > 2e-5 {
		t.Errorf("|q − ref| = %.2g with %d re-partitions, want ≤ 2e-5", e, st.Repartitions)
	}
	if m.MaxH() > DefaultRepartition*10 {
		t.Errorf("max|H| = %g at the end, want a well-conditioned partition", m.MaxH())
	}
}

// gcpNaN returns NaN forces for t ≥ tBad (hiding the derivative capabilities).
type gcpNaN struct {
	dae.System
	tBad float64
}

func (s gcpNaN) Force(dst []float64, t float64, q, v []float64) {
	s.System.Force(dst, t, q, v)
	if t >= s.tBad {
		dst[0] = math.NaN()
	}
}

// TestGCPFailure: NaN forces from t = 0.5 stop the run with ErrNonFinite at the step
// before, in both modes; a step too large to converge stops a fixed-step run with
// ErrNoConvergence and leaves the accepted state untouched.
func TestGCPFailure(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	start := pendulumStart(p, 1, 0)
	for _, ctl := range []StepControl{{FixedH: 0.01}, {RTol: 1e-6}} {
		m := DefaultGCP()
		sol, err := Solve(&m, "gcp-newmark", gcpNaN{p, 0.5}, start.Clone(), 1, SolveOptions{Control: ctl})
		var se *StepError
		if !errors.As(err, &se) || !errors.Is(err, ErrNonFinite) {
			t.Fatalf("%+v: error %v, want a *StepError with ErrNonFinite", ctl, err)
		}
		if !(se.T < 0.5 && se.T > 0.45) || sol.Final.T != se.T || math.IsNaN(sol.Final.Q[0]) {
			t.Errorf("%+v: failed at t=%g, final state at %g, want just below 0.5: %v", ctl, se.T, sol.Final.T, err)
		}
	}
	// A stiff spring (the pendulum with a rod stiffness of 1e8 in the force) and a huge step.
	stiff := &stiffPendulum{pendulum: newPendulum(1, 1, 9.81), k: 1e9}
	m := DefaultGCP()
	m.Newton.MaxIters = 3
	if err := m.Init(stiff, start.Clone(), StepControl{FixedH: 0.5}); err != nil {
		t.Fatal(err)
	}
	before := m.Current().Clone()
	err := m.Step(10)
	if !errors.Is(err, ErrNoConvergence) {
		t.Fatalf("error %v, want ErrNoConvergence", err)
	}
	if m.Stats().Steps != 0 || gcpMaxDiff(m.Current().Q, before.Q) != 0 {
		t.Errorf("a failed step changed the accepted state or counted as a step")
	}
}

// stiffPendulum adds f_x = −k sin(x)·x², a strongly nonlinear stiff force that Newton cannot
// follow with large steps.
type stiffPendulum struct {
	*pendulum
	k float64
}

func (s *stiffPendulum) Force(dst []float64, t float64, q, v []float64) {
	s.pendulum.Force(dst, t, q, v)
	dst[0] -= s.k * math.Sin(q[0]) * q[0] * q[0]
}

func (s *stiffPendulum) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	dst.Zero()
	dst.Set(0, 0, -s.k*(math.Cos(q[0])*q[0]*q[0]+2*math.Sin(q[0])*q[0]))
}

// TestGCPNewtonIterations: on a stiff problem at the same step the exact Jacobian needs
// fewer Newton iterations than the Fisette-Vaneghem matrix (seed 000, Figs. 9-11).
func TestGCPNewtonIterations(t *testing.T) {
	iters := map[GCPVariant]int{}
	for _, variant := range []GCPVariant{GCPExact, GCPFisetteVaneghem} {
		m := DefaultGCP()
		m.Variant = variant
		fixedRun(t, &m, polar{}, polarStart(), 1, 0.05)
		iters[variant] = m.Stats().NewtonIters
	}
	if !(iters[GCPExact] < iters[GCPFisetteVaneghem]) {
		t.Errorf("Newton iterations: exact %d, FV %d; want exact < FV", iters[GCPExact], iters[GCPFisetteVaneghem])
	}
	t.Logf("Newton iterations over 20 steps: exact %d, FV %d", iters[GCPExact], iters[GCPFisetteVaneghem])
}

// TestGCPAllocs: a step allocates nothing after warm-up, with analytic and with
// finite-difference derivatives, fixed and adaptive.
func TestGCPAllocs(t *testing.T) {
	for _, c := range []struct {
		sys   dae.System
		start State
		ctl   StepControl
	}{
		{polar{}, polarStart(), StepControl{FixedH: 1e-3}},
		{newPendulum(1, 1, 9.81), pendulumStart(newPendulum(1, 1, 9.81), 1, 0), StepControl{RTol: 1e-6}},
	} {
		m := DefaultGCP()
		if err := m.Init(c.sys, c.start, c.ctl); err != nil {
			t.Fatal(err)
		}
		if n := stepAllocs(t, &m, 3, 20); n != 0 {
			t.Errorf("gcp: Step allocates %v times per call after warm-up, want 0", n)
		}
	}
}

// TestGCPJacobianPolicies: reusing the Newton matrix (JacobianAuto) needs fewer matrix
// assemblies than full Newton and reaches the same solution within the Newton tolerance.
func TestGCPJacobianPolicies(t *testing.T) {
	var q [2]State
	var st [2]Stats
	for k, pol := range []JacobianPolicy{JacobianEveryIteration, JacobianAuto} {
		m := DefaultGCP()
		m.Newton.Jacobian = pol
		q[k] = fixedRun(t, &m, polar{}, polarStart(), 1, 0x1p-8)
		st[k] = m.Stats()
	}
	if !(st[1].Jacobians < st[0].Jacobians/2) {
		t.Errorf("Jacobians: auto %d, every-iteration %d; want auto below half", st[1].Jacobians, st[0].Jacobians)
	}
	// Both stop at θ/(1−θ)·‖Δ‖ ≤ 1e-3 in weights 1e-6(1+|q''|): the iterates differ by at most
	// about 1e-9·|q''| per step, far below the discretization error (~1e-5 at h = 1/256).
	if d := gcpMaxDiff(q[0].Q, q[1].Q); d > 1e-7 {
		t.Errorf("auto and full Newton differ by %.2g in q at t = 1, want ≤ 1e-7", d)
	}
	t.Logf("every-iteration %+v\nauto %+v", st[0], st[1])
}

// TestGCPPredictors: on a stiff system (a linear spring along x, ωh ≈ 2.5 here) both starts
// of the corrector converge over the run, and the section 3.3 predictor, whose start
// carries the step's predicted acceleration, needs fewer full-Newton iterations than the
// last-acceleration start (measured 3.9 and 5.4 per step; with the Taylor reading of the
// predictor, eqs. 18-19 with β = γ = 0, the first step did not converge at all).
func TestGCPPredictors(t *testing.T) {
	stiff := &springPendulum{pendulum: newPendulum(1, 1, 9.81), k: 1e5}
	start := pendulumStart(stiff.pendulum, 0.3, 0)
	const h = 0x1p-7
	var perStep [2]float64
	for k, p := range []GCPPredictor{GCPPredictSection33, GCPPredictLastAcceleration} {
		m := DefaultGCP()
		m.Predictor = p
		fixedRun(t, &m, stiff, start, 0.5, h)
		st := m.Stats()
		perStep[k] = float64(st.NewtonIters) / float64(st.Steps)
		t.Logf("predictor %d: %+v", p, st)
	}
	if !(perStep[0] <= 4.5 && perStep[0] < perStep[1]) {
		t.Errorf("Newton iterations per step: section 3.3 %.2f, last acceleration %.2f; want section 3.3 ≤ 4.5 and fewer",
			perStep[0], perStep[1])
	}
}

// springPendulum adds a stiff linear spring f_x = −k x.
type springPendulum struct {
	*pendulum
	k float64
}

func (s *springPendulum) Force(dst []float64, t float64, q, v []float64) {
	s.pendulum.Force(dst, t, q, v)
	dst[0] -= s.k * q[0]
}

func (s *springPendulum) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	dst.Zero()
	dst.Set(0, 0, -s.k)
}
