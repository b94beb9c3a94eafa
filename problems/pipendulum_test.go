package problems

import (
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// TestPIPendulumDerivatives: the analytic derivatives of the mechanics and of the
// first-order capability against central differences (1e-6: dae.Check's documented
// tolerance), off the set point and in motion.
func TestPIPendulumDerivatives(t *testing.T) {
	p := DefaultPIPendulum()
	s := p.State(0.3, 0.9, -1.2, 0.4)
	pt := dae.CheckPoint{T: s.T, Q: s.Q, V: s.V, A: s.A, Lambda: s.Lambda}
	if _, err := dae.Check(p, pt, 1e-6); err != nil {
		t.Error(err)
	}
	ms, err := dae.CheckFirstOrder(p, pt, s.X, 1e-6)
	if err != nil {
		t.Error(err)
	}
	if len(ms) != 6 {
		t.Errorf("CheckFirstOrder compared %d blocks, want 6", len(ms))
	}
}

// TestPIPendulumReference: the start and the reference state are consistent (g, G v and
// G a − γ at rounding, and M a = f + f_X − Gᵀλ), and Richardson's correction of the RK4
// reference is small: |y_{h/2} − y_h|/15 ≤ 1e-12 bounds the error of y_{h/2} (O(h⁴)), and
// the extrapolated value is better still.
func TestPIPendulumReference(t *testing.T) {
	p := DefaultPIPendulum()
	pr := PIPendulumProblem()
	phi, om, x := p.AngleReference(pr.TEnd)
	for _, s := range []integrate.State{pr.Start, p.State(pr.TEnd, phi, om, x)} {
		r := dae.NewResidualMeter(p).Measure(s.T, s.Q, s.V, s.A)
		if r.Pos > 1e-15 || r.Vel > 1e-15 || r.Acc > 1e-13 { // rounding of l = 1, |v| ≲ 3, |a| ≲ 30
			t.Errorf("t=%g: residuals %+v, want rounding", s.T, r)
		}
		f, fx := make([]float64, 2), make([]float64, 2)
		p.Force(f, s.T, s.Q, s.V)
		p.StateForce(fx, s.T, s.Q, s.V, s.X)
		for i := range 2 {
			res := p.M*s.A[i] - f[i] - fx[i] + s.Q[i]*s.Lambda[0]
			if math.Abs(res) > 1e-13 {
				t.Errorf("t=%g: equation of motion %d residual %.3g", s.T, i, res)
			}
		}
	}
	n := int(math.Ceil(4000 * PIPendulumTEnd))
	a1, b1, c1 := p.rk4(PIPendulumTEnd, n)
	a2, b2, c2 := p.rk4(PIPendulumTEnd, 2*n)
	if d := math.Max(math.Abs(a2-a1), math.Max(math.Abs(b2-b1), math.Abs(c2-c1))) / 15; d > 1e-12 {
		t.Errorf("Richardson correction %.3g, want ≤ 1e-12", d)
	}
}

// hhtPIRun integrates the PI pendulum with HHT and returns the errors in q and X at t_end.
func hhtPIRun(t *testing.T, rho float64, ctl integrate.StepControl) (eq, ex float64, st integrate.Stats) {
	t.Helper()
	pr := PIPendulumProblem()
	_, _, xRef := DefaultPIPendulum().AngleReference(pr.TEnd)
	m := integrate.DefaultHHT()
	m.Rho = rho
	sol, err := integrate.Solve(&m, "hht", pr.System, pr.Start, pr.TEnd, integrate.SolveOptions{Control: ctl})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		eq = math.Max(eq, math.Abs(sol.Final.Q[i]-pr.Ref.Q[i]))
	}
	return eq, math.Abs(sol.Final.X[0] - xRef), sol.Stats
}

// TestPIPendulumHHTOrder: fixed steps h, h/2, h/4 against the reference. With ρ = 1/2
// (trapezoidal eq. 9a) q and X converge with order 2; with ρ = 0.8 (the default γ(α))
// eq. 9a is first order (local error (ρ − 1/2) h² X”, seed 004 eq. 33) and so is the
// coupled q. Each log2 ratio within ±0.2 of the order.
func TestPIPendulumHHTOrder(t *testing.T) {
	for _, c := range []struct {
		rho   float64
		order float64
	}{{0.5, 2}, {0.8, 1}} {
		var eqs, exs []float64
		for _, h := range []float64{2e-3, 1e-3, 5e-4} { // at 4e-3 the ρ = 0.8 q ratio is 0.82: pre-asymptotic
			eq, ex, _ := hhtPIRun(t, c.rho, integrate.StepControl{FixedH: h, RTol: 1e-12, ATol: 1e-12})
			eqs, exs = append(eqs, eq), append(exs, ex)
		}
		t.Logf("rho %g: errors q %.3g, X %.3g", c.rho, eqs, exs)
		for i := 1; i < len(eqs); i++ {
			for _, b := range []struct {
				name string
				e    []float64
			}{{"q", eqs}, {"X", exs}} {
				if o := math.Log2(b.e[i-1] / b.e[i]); math.Abs(o-c.order) > 0.2 || math.IsNaN(o) {
					t.Errorf("rho %g: %s order %.3f, want %g ± 0.2", c.rho, b.name, o, c.order)
				}
			}
		}
	}
}

// TestPIPendulumHHTAdaptive: with error control in q and X (seed 004, eqs. 35-39) the
// errors in q and X fall as the tolerance falls (first order overall, ρ = 0.8: the error
// test on δ_X ~ h² makes h ∝ tol^(1/2) and the global error ∝ h ∝ tol^(1/2), so ×1/100 in
// tol gives ×1/10; measured ×8.5 in q and ×9.5 in X; asserted ≥ ×1/5). Looser
// tolerances are pre-asymptotic (tol 1e-4 → 1e-6 gains only ×2.2 in q).
func TestPIPendulumHHTAdaptive(t *testing.T) {
	var prevQ, prevX float64
	for i, tol := range []float64{1e-6, 1e-8} {
		eq, ex, st := hhtPIRun(t, 0, integrate.StepControl{RTol: tol, ATol: tol})
		t.Logf("tol %g: error q %.3g X %.3g, stats %+v", tol, eq, ex, st)
		if i > 0 && (eq > prevQ/5 || ex > prevX/5) {
			t.Errorf("tol %g: errors q %.3g, X %.3g; want ≤ 1/5 of %.3g, %.3g", tol, eq, ex, prevQ, prevX)
		}
		if st.NewtonIters < 2*st.Steps || st.Rejected > st.Steps/5 || st.FDEvals != 0 {
			t.Errorf("tol %g: implausible stats %+v", tol, st)
		}
		prevQ, prevX = eq, ex
	}
}

// dopri5PIRun integrates the PI pendulum with DOPRI5 and returns its final state.
func dopri5PIRun(t *testing.T, ctl integrate.StepControl) *integrate.Solution {
	t.Helper()
	pr := PIPendulumProblem()
	sol, err := integrate.Solve(&integrate.DOPRI5{}, "dopri5", pr.System, pr.Start, pr.TEnd, integrate.SolveOptions{Control: ctl})
	if err != nil {
		t.Fatal(err)
	}
	return sol
}

// TestPIPendulumDOPRI5Reference: DOPRI5 on the DAE with the state X at tol 1e-12 and the
// angle-ODE reference agree to 1e-10 in q, v and X (two independent computations), and
// HHT at tol 1e-8 meets that DOPRI5 solution as it meets the angle reference (seed 004's
// issue asks for a DOPRI5 reference at tight tolerance).
func TestPIPendulumDOPRI5Reference(t *testing.T) {
	pr := PIPendulumProblem()
	_, _, xRef := DefaultPIPendulum().AngleReference(pr.TEnd)
	ref := dopri5PIRun(t, integrate.StepControl{RTol: 1e-12, ATol: 1e-12}).Final
	d := math.Abs(ref.X[0] - xRef)
	for i := range 2 {
		d = math.Max(d, math.Max(math.Abs(ref.Q[i]-pr.Ref.Q[i]), math.Abs(ref.V[i]-pr.Ref.V[i])))
	}
	t.Logf("DOPRI5 at 1e-12 vs the angle reference: %.2g", d)
	if d > 1e-10 {
		t.Errorf("DOPRI5 at tol 1e-12 differs from the angle reference by %.3g, want ≤ 1e-10", d)
	}
	eq, ex, _ := hhtPIRun(t, 0, integrate.StepControl{RTol: 1e-8, ATol: 1e-8})
	m := integrate.DefaultHHT()
	sol, err := integrate.Solve(&m, "hht", pr.System, pr.Start, pr.TEnd, integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-8, ATol: 1e-8}})
	if err != nil {
		t.Fatal(err)
	}
	dq := math.Max(math.Abs(sol.Final.Q[0]-ref.Q[0]), math.Abs(sol.Final.Q[1]-ref.Q[1]))
	dx := math.Abs(sol.Final.X[0] - ref.X[0])
	t.Logf("HHT at 1e-8: error q %.3g, X %.3g against DOPRI5 (%.3g, %.3g against the angle reference)", dq, dx, eq, ex)
	if dq > 1e-4 || dx > 1e-4 || math.Abs(dq-eq) > 1e-9 || math.Abs(dx-ex) > 1e-9 {
		t.Errorf("HHT at tol 1e-8: errors q %.3g, X %.3g against DOPRI5, %.3g, %.3g against the angle reference; want ≤ 1e-4 and equal to 1e-9", dq, dx, eq, ex)
	}
}

// TestPIPendulumDOPRI5Order: fixed steps h and h/2 give errors in q and X falling by 2⁵
// (log2 ratio 5 ± 0.3): the state X is integrated by the same fifth-order stages.
func TestPIPendulumDOPRI5Order(t *testing.T) {
	pr := PIPendulumProblem()
	_, _, xRef := DefaultPIPendulum().AngleReference(pr.TEnd)
	var eqs, exs []float64
	for _, h := range []float64{0.02, 0.01, 0.005} { // at 0.04 X is pre-asymptotic (ratio 2^4.6)
		s := dopri5PIRun(t, integrate.StepControl{FixedH: h}).Final
		eqs = append(eqs, math.Max(math.Abs(s.Q[0]-pr.Ref.Q[0]), math.Abs(s.Q[1]-pr.Ref.Q[1])))
		exs = append(exs, math.Abs(s.X[0]-xRef))
	}
	t.Logf("errors q %.3g, X %.3g", eqs, exs)
	for i := 1; i < len(eqs); i++ {
		for _, b := range []struct {
			name string
			e    []float64
		}{{"q", eqs}, {"X", exs}} {
			if o := math.Log2(b.e[i-1] / b.e[i]); math.Abs(o-5) > 0.3 || math.IsNaN(o) {
				t.Errorf("%s order %.3f between steps %d and %d, want 5 ± 0.3", b.name, o, i-1, i)
			}
		}
	}
}
