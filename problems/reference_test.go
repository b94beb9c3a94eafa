package problems

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"linkage/dae"
	"linkage/integrate"
)

// rk4Pendulum integrates α̈ = −(g/l) sin α (seed 002, eq. 5) from rest at α₀ to t with n
// classical Runge-Kutta steps and returns α, α̇.
func rk4Pendulum(p Pendulum, t float64, n int) (alpha, dalpha float64) {
	w2 := p.Grav / p.Length
	h := t / float64(n)
	a, da := p.Alpha0, 0.0
	for range n {
		k1a, k1v := da, -w2*math.Sin(a)
		k2a, k2v := da+h/2*k1v, -w2*math.Sin(a+h/2*k1a)
		k3a, k3v := da+h/2*k2v, -w2*math.Sin(a+h/2*k2a)
		k4a, k4v := da+h*k3v, -w2*math.Sin(a+h*k3a)
		a += h / 6 * (k1a + 2*k2a + 2*k3a + k4a)
		da += h / 6 * (k1v + 2*k2v + 2*k3v + k4v)
	}
	return a, da
}

func TestPendulumExactAgreesWithRK4(t *testing.T) {
	for _, p := range []Pendulum{DefaultPendulum(), {M: 2, Length: 0.5, Grav: 9.81, Alpha0: 2.5}} {
		s := integrate.NewState(2, 1)
		for _, tt := range []float64{0.1, 0.77, 1.25, 3} {
			p.Exact(tt, &s)
			// RK4 with h = 1e-3 and 5e-4: its error is ≈ 16/15·|α_h − α_{h/2}| (order 4),
			// 2e-12 at most here; the exact solution must agree with the finer run to
			// twice that plus rounding (1e-13 over 6000 steps).
			a1, _ := rk4Pendulum(p, tt, int(math.Round(tt/1e-3)))
			a2, da2 := rk4Pendulum(p, tt, int(math.Round(tt/5e-4)))
			tol := 2*math.Abs(a1-a2) + 1e-13
			sa, ca := math.Sincos(a2)
			x, y := p.Length*sa, -p.Length*ca
			vx, vy := p.Length*da2*ca, p.Length*da2*sa
			for i, d := range []float64{s.Q[0] - x, s.Q[1] - y, s.V[0] - vx, s.V[1] - vy} {
				sc := 1.0
				if i >= 2 {
					sc = math.Sqrt(p.Grav/p.Length) * p.Length // velocity scale ω l
				}
				if math.Abs(d) > tol*sc*(1+math.Abs(p.Alpha0)) {
					t.Errorf("α₀ = %g, t = %g: component %d of (x, y, ẋ, ẏ) differs from RK4 by %.2g, tolerance %.2g", p.Alpha0, tt, i, d, tol*sc)
				}
			}
			// Acceleration and λ: eqs. 6a, 6b with λ of eq. 15.
			if d := math.Max(math.Abs(p.M*s.A[0]+s.Q[0]*s.Lambda[0]), math.Abs(p.M*s.A[1]+p.M*p.Grav+s.Q[1]*s.Lambda[0])); d > 1e-13*p.M*p.Grav {
				t.Errorf("α₀ = %g, t = %g: m a ≠ f − Gᵀλ by %.2g", p.Alpha0, tt, d)
			}
		}
		// Period 4K(k²)/ω (Abramowitz & Stegun 16.1; K from gonum's mathext): the motion
		// returns to its start to rounding (1e-13 relative for sums over 4K ≈ 7 in u).
		k := math.Sin(p.Alpha0 / 2)
		period := 4 * mathext.CompleteK(k*k) / math.Sqrt(p.Grav/p.Length)
		s0, sT := integrate.NewState(2, 1), integrate.NewState(2, 1)
		p.Exact(0, &s0)
		p.Exact(period, &sT)
		for i := range 2 {
			if d := math.Abs(sT.Q[i] - s0.Q[i]); d > 1e-13 {
				t.Errorf("α₀ = %g: q[%d] after one period differs by %.2g", p.Alpha0, i, d)
			}
		}
		if x0 := p.Length * math.Sin(p.Alpha0); math.Abs(s0.Q[0]-x0) > 1e-15 || s0.V[0] != 0 || s0.V[1] != 0 {
			t.Errorf("α₀ = %g: start q = %v v = %v, want x = l sin α₀ at rest", p.Alpha0, s0.Q, s0.V)
		}
	}
}

func TestPendulumEnergyAndReference(t *testing.T) {
	p, _ := Get("pendulum")
	e := p.System.(dae.Energy)
	t0, u0 := e.Energy(p.T0, p.Start.Q, p.Start.V)
	t1, u1 := e.Energy(p.TEnd, p.Ref.Q, p.Ref.V)
	// Conservative motion; rounding of O(10) energies: 1e-13.
	if d := math.Abs(t1 + u1 - t0 - u0); d > 1e-13 {
		t.Errorf("pendulum: energy changes by %.2g from T0 to TEnd", d)
	}
	var s integrate.State = integrate.NewState(2, 1)
	PendulumExact(p.TEnd, &s)
	if sc := p.Ref.SCD(s.Q); !math.IsInf(sc, 1) {
		t.Errorf("pendulum: Ref differs from PendulumExact(TEnd): scd %g", sc)
	}
}

// The chain reference comes from the relative-angle ODE; at TEnd it must satisfy the
// Cartesian DAE: the constraints at all three levels and M a + Gᵀλ = f, whose component
// normal to each rod is not imposed by the conversion (chainODE.cartesian) and so tests the
// ODE's mass matrix and forces. Energy is conserved. Tolerances: the reference's estimated
// error (2.4e-14 for N = 10) times the O(10) size of a and λ, plus rounding: 1e-11.
func TestChainReferenceSatisfiesDAE(t *testing.T) {
	for _, name := range []string{"chain", "chain2", "chain5"} {
		p, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		r := p.Ref
		res := dae.NewResidualMeter(p.System).Measure(r.T, r.Q, r.V, r.A)
		if !(res.Pos <= 1e-12 && res.Vel <= 1e-12 && res.Acc <= 1e-11) {
			t.Errorf("%s: reference residuals pos %.2g vel %.2g acc %.2g", name, res.Pos, res.Vel, res.Acc)
		}
		if e := kktResidual(p.System, r.T, r.Q, r.V, r.A, r.Lambda, nil); !(e <= 1e-11) {
			t.Errorf("%s: reference violates M a + Gᵀλ = f by %.2g relative", name, e)
		}
		en := p.System.(dae.Energy)
		k0, u0 := en.Energy(p.T0, p.Start.Q, p.Start.V)
		k1, u1 := en.Energy(r.T, r.Q, r.V)
		if d := math.Abs(k1 + u1 - k0 - u0); d > 1e-11 {
			t.Errorf("%s: energy of the reference differs from the start by %.2g", name, d)
		}
		// The Cartesian start (from angles) and the ODE's λ at t = 0 must agree too.
		c := p.System.(Chain)
		o := newChainODE(c)
		y0 := make([]float64, 2*c.N)
		y0[0], y0[1] = chainAlpha0, -chainAlpha0
		q, _, a, lambda := o.cartesian(y0)
		for i := range q {
			if d := math.Max(math.Abs(q[i]-p.Start.Q[i]), math.Abs(a[i]-p.Start.A[i])); d > 1e-12 {
				t.Errorf("%s: start q/a[%d] of the angle route differs by %.2g", name, i, d)
			}
		}
		for i := range lambda {
			if d := math.Abs(lambda[i] - p.Start.Lambda[i]); d > 1e-11 {
				t.Errorf("%s: start λ[%d] of the angle route differs by %.2g", name, i, d)
			}
		}
	}
}

// A chain of one mass is the pendulum: the RK4 + Richardson route must reproduce the
// elliptic-function solution to its own estimated error (1.4e-17) plus rounding of O(10) quantities:
// 1e-14 (measured 7e-17 in q, v).
func TestChainOfOneIsPendulum(t *testing.T) {
	c := Chain{N: 1, M: 1, Length: 1, Grav: 9.81}
	r := c.reference(chainTEnd, chainRefSteps)
	s := integrate.NewState(2, 1)
	PendulumExact(chainTEnd, &s)
	for i := range 2 {
		if d := math.Max(math.Abs(r.Q[i]-s.Q[i]), math.Abs(r.V[i]-s.V[i])); d > 1e-14 {
			t.Errorf("q/v[%d]: chain1 reference and exact pendulum differ by %.2g", i, d)
		}
		if d := math.Abs(r.A[i] - s.A[i]); d > 1e-13 {
			t.Errorf("a[%d]: chain1 reference and exact pendulum differ by %.2g", i, d)
		}
	}
	if d := math.Abs(r.Lambda[0] - s.Lambda[0]); d > 1e-13 {
		t.Errorf("λ: chain1 reference and exact pendulum differ by %.2g", d)
	}
}

// The reference at chainRefSteps agrees with one at twice the steps to its estimate.
func TestChainReferenceConverged(t *testing.T) {
	if testing.Short() {
		t.Skip("computes the 10-chain reference at 4000-16000 steps (0.3 s)")
	}
	c := Chain{N: DefaultChainN, M: 1, Length: 1, Grav: 9.81}
	r1 := c.reference(chainTEnd, chainRefSteps)
	r2 := c.reference(chainTEnd, 2*chainRefSteps)
	var d float64
	for i := range r1.Q {
		d = math.Max(d, math.Max(math.Abs(r1.Q[i]-r2.Q[i]), math.Abs(r1.V[i]-r2.V[i])))
	}
	// The estimated error of r1 in its Source is 2.4e-14 (measured change 2.9e-15).
	if d > 2.4e-14 {
		t.Errorf("chain10 reference changes by %.2g when the steps are doubled", d)
	}
}

// testSetJSON reads the problem description gathered from the IVP test set (copied
// unchanged from the team's shared/problems into data/, so the test runs anywhere).
func testSetJSON(t *testing.T, name string) map[string]any {
	f, err := os.Open("data/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func jsonVector(t *testing.T, m map[string]any, keys ...string) []string {
	var cur any = m
	for _, k := range keys {
		cur = cur.(map[string]any)[k]
	}
	var out []string
	for _, x := range cur.([]any) {
		out = append(out, string(x.(json.Number)))
	}
	return out
}

// The Go sources hold the test set's digits exactly as published.
func TestTestSetDigits(t *testing.T) {
	and := testSetJSON(t, "andrews")
	y0 := jsonVector(t, and, "initial_values", "y")
	want := append(append(append(append([]string{}, andrewsQ0[:]...), "0", "0", "0", "0", "0", "0", "0"), andrewsA0[:]...), andrewsLambda0[:]...)
	same(t, "andrews y0", y0, want)
	same(t, "andrews reference", jsonVector(t, and, "reference_solution", "y"), andrewsRef[:])
	crk := testSetJSON(t, "crank")
	same(t, "crank y0", jsonVector(t, crk, "initial_values", "y"), crankY0[:])
	same(t, "crank reference", jsonVector(t, crk, "reference_solution", "y"), crankRef[:])
	alt := crk["alternative_reference_solutions"].([]any)[0].(map[string]any)
	same(t, "crank MDOP5 reference", jsonVector(t, alt, "y"), crankRefMDOP5[:])
	// And the parsed Start is those numbers.
	p, _ := Get("andrews")
	if p.Start.Q[0] != -0.0617138900142764496358948458001 || p.Start.A[0] != 14222.4439199541138705911625887 || p.Start.Lambda[1] != -6.12268834425566265503114393122 {
		t.Errorf("andrews start parsed as q₁ = %v, a₁ = %v, λ₂ = %v", p.Start.Q[0], p.Start.A[0], p.Start.Lambda[1])
	}
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values in the JSON, %d in the source", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s[%d]: JSON %s, source %s", what, i, got[i], want[i])
		}
	}
}
