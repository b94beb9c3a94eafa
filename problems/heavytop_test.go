package problems

import (
	"math"
	"testing"

	"linkage/integrate"
)

// The independent ODE route (Reference: eq. 34b with ṗ = H(p)Ω, RK4 + Richardson) must
// reproduce the published fast-top values at t = 1 and t = 2. heavy_top.json states that they
// are good to about 1e-6 (its two t = 2 vectors differ by 1.1e-6); measured: 1.12e-7 at
// t = 1 and 1.07e-7 at t = 2, with the published quaternion sign (the continuous
// trajectory's). With the unrounded Ω₃(0) = −60/13 the gap grows to 2.5e-6: the reference was
// computed with the rounded −4.61538 of the data, which FastHeavyTop therefore keeps.
func TestFastHeavyTopReferenceAgreesWithPublished(t *testing.T) {
	h := FastHeavyTop()
	// n = 20000 steps per second: h ω = 150/20000 = 7.5e-3; after extrapolation the change
	// from n to 2n is below 1e-11, far below the 1e-6 compared here.
	r1, err := h.Reference(1, 20000)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := h.Reference(2, 40000)
	for i := range 7 {
		if d := math.Abs(r1[i] - FastTopReference1[i]); !(d <= 1e-6) {
			t.Errorf("t = 1: %s = %.10f, published %.10f (|Δ| = %.2g > 1e-6)", h.CoordinateName(i), r1[i], FastTopReference1[i], d)
		}
		if d := math.Abs(r2[i] - fastTopReference2[i]); !(d <= 1e-6) {
			t.Errorf("t = 2: %s = %.10f, published %.10f (|Δ| = %.2g > 1e-6)", h.CoordinateName(i), r2[i], fastTopReference2[i], d)
		}
	}
	h.Omega0[2] = -60.0 / 13
	r2x, _ := h.Reference(2, 40000)
	var worst float64
	for i := range 7 {
		worst = math.Max(worst, math.Abs(r2x[i]-fastTopReference2[i]))
	}
	if !(worst > 1e-6) {
		t.Errorf("Ω₃(0) = −60/13 agrees with the published t = 2 state to %.2g; the data's rounded −4.61538 was expected to matter", worst)
	}
}

// The slow top's reference: the extrapolated RK4 from n = 10⁴ and 2·10⁴ steps against the one
// from 2·10⁴ and 4·10⁴ (measured 1.1e-13; the bound 1e-11 is what Ref.Source claims). And the
// one number seed 002 prints about this motion (Example 6, Remark 6d, Fig. 6): the nutation
// θ (cos θ = R₃₃ for R = R_z(ψ) R_y(θ) R_z(φ)) has its minimum 0.059 rad at t* ≈ 1.1 s.
// Measured on a 1 ms grid: 0.05931 rad at t = 1.090 s; the seed gives two digits of each.
func TestHeavyTopReference(t *testing.T) {
	h := DefaultHeavyTop()
	a, _ := h.Reference(heavyTopTEnd, heavyTopRefSteps)
	b, _ := h.Reference(heavyTopTEnd, 2*heavyTopRefSteps)
	for i := range 7 {
		if d := math.Abs(a[i] - b[i]); !(d <= 1e-11) {
			t.Errorf("slow top reference %s changes by %.2g from n to 2n steps, want ≤ 1e-11", h.CoordinateName(i), d)
		}
	}
	var y [7]float64
	copy(y[:4], h.P0[:])
	copy(y[4:], h.Omega0[:])
	thetaMin, tMin := math.Inf(1), 0.0
	for k := 1; k <= 2000; k++ { // t ∈ (0, 2], 1 ms apart, 2 RK4 steps each
		y = h.rk4From(y, 1e-3, 2)
		p := [4]float64{y[0], y[1], y[2], y[3]}
		ez := [3]float64{0, 0, 1}
		if th := math.Acos(rotQuad(&p, &p, &ez)[2]); th < thetaMin {
			thetaMin, tMin = th, float64(k)*1e-3
		}
	}
	if math.Abs(thetaMin-0.059) > 0.0005 || math.Abs(tMin-1.1) > 0.05 {
		t.Errorf("nutation minimum %.5f rad at t = %.3f s; seed 002 Fig. 6: 0.059 rad at t ≈ 1.1 s", thetaMin, tMin)
	}
}

// topRun integrates a heavy top and records the largest drifts of the invariants over the
// accepted steps: T + U, the vertical angular momentum about the fixed point, and |p| − 1.
type topRun struct {
	sol              *integrate.Solution
	dE, dL, dNorm    float64
	energy, momentum float64 // scales: m g_grav |X| and |H(0)|
}

func runTop(t *testing.T, p Problem, method string, tol float64) topRun {
	t.Helper()
	e, err := integrate.Lookup(method)
	if err != nil {
		t.Fatal(err)
	}
	ht := p.System.(HeavyTop)
	k0, u0 := ht.Energy(p.T0, p.Start.Q, p.Start.V)
	h0 := ht.AngularMomentum(p.Start.Q, p.Start.V)
	r := topRun{energy: ht.M * ht.Grav * math.Sqrt(ht.X[0]*ht.X[0]+ht.X[1]*ht.X[1]+ht.X[2]*ht.X[2]),
		momentum: math.Sqrt(h0[0]*h0[0] + h0[1]*h0[1] + h0[2]*h0[2])}
	obs := func(s *integrate.State) error {
		k, u := ht.Energy(s.T, s.Q, s.V)
		r.dE = math.Max(r.dE, math.Abs(k+u-k0-u0))
		r.dL = math.Max(r.dL, math.Abs(ht.AngularMomentum(s.Q, s.V)[2]-h0[2]))
		n := math.Sqrt(s.Q[3]*s.Q[3] + s.Q[4]*s.Q[4] + s.Q[5]*s.Q[5] + s.Q[6]*s.Q[6])
		r.dNorm = math.Max(r.dNorm, math.Abs(n-1))
		return nil
	}
	sol, err := integrate.Solve(e.New(), method, p.System, p.Start.Clone(), p.TEnd,
		integrate.SolveOptions{Control: integrate.StepControl{RTol: tol, ATol: tol}, Output: []float64{p.TEnd}, Observer: obs})
	if err != nil {
		t.Fatalf("%s on %s at tol %g: %v", method, p.Name, tol, err)
	}
	r.sol = sol
	return r
}

// The slow top over 10 s: T + U and the vertical angular momentum are first integrals, and
// a run at tolerance 1e-8 must keep them to its own accuracy. Bounds (relative to m g |X| =
// 147 J and |H(0)| = 0.994 N·m·s) and measurements:
//   - radau5 (GGL): scd 6.41 against the reference; energy 4.8e-8, momentum 9.2e-8 (bound
//     1e-6 each, about the run's global error 2.2e-7 times 5); |p| − 1 1.7e-10, the Newton
//     tolerance of the normalization row (bound 1e-9);
//   - dopri5 (index 1 with projection onto g = 0 after each step): scd 6.20; energy 2.1e-8,
//     momentum 4.0e-7 (bound 1e-6); |p| − 1 2.2e-16, round-off (bound 1e-15, a few ulps of 1).
func TestHeavyTopConservation(t *testing.T) {
	p, _ := Get("heavytop")
	for _, c := range []struct {
		method string
		scd    float64
		norm   float64
	}{{"radau5", 6, 1e-9}, {"dopri5", 6, 1e-15}} {
		r := runTop(t, p, c.method, 1e-8)
		if s := p.Ref.SCD(r.sol.Final.Q); !(s >= c.scd) {
			t.Errorf("%s: scd %.2f at t = 10, want ≥ %g", c.method, s, c.scd)
		}
		if e := r.dE / r.energy; !(e <= 1e-6) {
			t.Errorf("%s: T + U drifts by %.2g of m g |X| over 10 s, want ≤ 1e-6", c.method, e)
		}
		if e := r.dL / r.momentum; !(e <= 1e-6) {
			t.Errorf("%s: vertical angular momentum drifts by %.2g of |H(0)|, want ≤ 1e-6", c.method, e)
		}
		if !(r.dNorm <= c.norm) {
			t.Errorf("%s: max ||p| − 1| = %.2g, want ≤ %g", c.method, r.dNorm, c.norm)
		}
	}
}

// The fast top against the published state at t = 2 (done-when of issue 8: 1e-5 in the
// centre of mass and the quaternion, compared with its published sign, which is the
// continuous trajectory's). radau5 at 1e-10 measures 1.1e-7 (most of it the reference's own
// error, see TestFastHeavyTopReferenceAgreesWithPublished), scd 6.37, in 3845 steps; the
// energy drifts by 3.5e-9 of T + U = 5436 J and the vertical angular momentum by 1.2e-9 of
// |H(0)| = 99.4 N·m·s.
func TestFastHeavyTop(t *testing.T) {
	p, _ := Get("heavytop-fast")
	r := runTop(t, p, "radau5", 1e-10)
	q := r.sol.Final.Q
	ht := p.System.(HeavyTop)
	for i := range 7 {
		if d := math.Abs(q[i] - p.Ref.Q[i]); !(d <= 1e-5) {
			t.Errorf("t = 2: %s = %.8f, reference %.8f, |Δ| = %.2g > 1e-5", ht.CoordinateName(i), q[i], p.Ref.Q[i], d)
		}
	}
	if s := p.Ref.SCD(q); !(s >= 6) {
		t.Errorf("scd %.2f, want ≥ 6 (the reference is good to about 1e-6)", s)
	}
	k0, u0 := ht.Energy(0, p.Start.Q, p.Start.V)
	// Bounds 1e-8 relative: 3 and 8 times the measured 3.5e-9 (energy) and 1.2e-9 (momentum).
	if e := r.dE / (k0 + u0); !(e <= 1e-8) {
		t.Errorf("energy drift %.2g relative, want ≤ 1e-8", e)
	}
	if e := r.dL / r.momentum; !(e <= 1e-8) {
		t.Errorf("vertical angular momentum drift %.2g relative, want ≤ 1e-8", e)
	}
	if !(r.dNorm <= 1e-9) { // measured 1.9e-10: radau5's Newton tolerance on the normalization row
		t.Errorf("max ||p| − 1| = %.2g, want ≤ 1e-9", r.dNorm)
	}
}
