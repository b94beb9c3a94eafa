package problems

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// checkTol is the relative gap dae.Check allows: central differences are accurate to about
// 1e-10 relative on these well-scaled problems (dae.Check's doc), so 1e-6 leaves a wide
// margin and still catches any wrong term.
const checkTol = 1e-6

// perturbScales gives, per problem, the size of the random perturbation of q and of the
// random v, a and λ of the generic check point. Velocities are kept at the size of the
// problem's own so that dae.Check's difference of G v along (q + s v) stays in its
// asymptotic range (truncation error (s·|v|)²/6 with s ≈ 6e-6 below 1e-7).
type perturbScales struct {
	q, v, a, lambda []float64 // per component; a single entry applies to all
}

func scalesFor(name string) perturbScales {
	switch {
	case name == "pendulum" || name == "pipendulum" || strings.HasPrefix(name, "chain"):
		return perturbScales{q: []float64{0.1}, v: []float64{1}, a: []float64{10}, lambda: []float64{10}}
	case name == "andrews":
		return perturbScales{q: []float64{0.3}, v: []float64{30}, a: []float64{1e4}, lambda: []float64{100}}
	case name == "heavytop":
		// |Ω| ≈ 1.5 rad/s, so |ṗ| = |Ω|/2 ≈ 1 and |ẋ| ≈ 1.5 m/s; λ of the fixed point ≈ m g.
		return perturbScales{q: []float64{0.1}, v: []float64{1}, a: []float64{10}, lambda: []float64{100}}
	case name == "heavytop-fast":
		// Spin 150 rad/s: |ṗ| = |Ω|/2 = 75, |ẋ| ≈ 5 m/s; centripetal λ ≈ m |Ω_z|² ≈ 300.
		return perturbScales{q: []float64{0.1}, v: []float64{5, 5, 5, 75, 75, 75, 75},
			a: []float64{100, 100, 100, 1e3, 1e3, 1e3, 1e3}, lambda: []float64{300}}
	case name == "crank":
		// Rigid angles and slider O(1), elastic coordinates O(1e-5); φ̇₁ = Ω = 150.
		return perturbScales{
			q: []float64{0.3, 0.3, 0.05, 1e-5, 1e-5, 1e-5, 1e-5},
			v: []float64{150, 75, 10, 0.5, 0.05, 1e-3, 1e-3},
			a: []float64{1, 5e3, 1e3, 1, 1, 1, 1}, lambda: []float64{100, 400, 100},
		}
	case name == "stiffchain":
		// Bars of 0.5 m swinging by a few degrees; joint springs of 1e5 N·m/rad.
		return perturbScales{q: []float64{0.05}, v: []float64{1}, a: []float64{100}, lambda: []float64{1e3}}
	}
	panic("no scales for " + name)
}

func scale(s []float64, i int) float64 {
	if len(s) == 1 {
		return s[0]
	}
	return s[i]
}

// genericPoint returns a random (seeded) check point near p's start.
func genericPoint(p Problem, seed uint64) dae.CheckPoint {
	rng := rand.New(rand.NewPCG(seed, 7))
	sc := scalesFor(p.Name)
	nq, nc := p.System.Size()
	cp := dae.CheckPoint{T: p.T0 + 0.37*(p.TEnd-p.T0), Q: make([]float64, nq), V: make([]float64, nq),
		A: make([]float64, nq), Lambda: make([]float64, nc)}
	for i := range nq {
		cp.Q[i] = p.Start.Q[i] + scale(sc.q, i)*rng.NormFloat64()
		cp.V[i] = scale(sc.v, i) * rng.NormFloat64()
		cp.A[i] = scale(sc.a, i) * rng.NormFloat64()
	}
	for i := range nc {
		cp.Lambda[i] = scale(sc.lambda, i) * rng.NormFloat64()
	}
	return cp
}

func TestDerivativesCheck(t *testing.T) {
	ps := List()
	// The test set's crank has gravity 0; check the gravity terms of f and ∂f/∂q too.
	pg := crankProblem()
	pg.System = newCrank(9.81)
	ps = append(ps, pg)
	for _, p := range ps {
		points := map[string]dae.CheckPoint{
			"start": {T: p.T0, Q: p.Start.Q, V: p.Start.V, A: p.Start.A, Lambda: p.Start.Lambda},
		}
		for s := range uint64(3) {
			points["generic"+string(rune('1'+s))] = genericPoint(p, 100+s)
		}
		for where, cp := range points {
			ms, err := dae.Check(p.System, cp, checkTol)
			if err != nil {
				t.Errorf("%s at %s: %v", p.Name, where, err)
				continue
			}
			// Every capability must have been compared: G, g_t, γ, M symmetric, and the
			// three optional derivatives (d(M a)/dq only without ConstantMass).
			want := 7
			if _, ok := p.System.(dae.MassDerivative); ok {
				want = 8
			}
			if _, ok := p.System.(dae.GammaDerivative); ok {
				want += 3 // d(G w)/dq, dγ/dq, dγ/dv (planar models)
			}
			if len(ms) != want {
				t.Errorf("%s at %s: dae.Check compared %d quantities, want %d", p.Name, where, len(ms), want)
			}
		}
	}
}

// kktResidual returns max|M a + Gᵀλ − f| / max(|M a|, |Gᵀλ|, |f|) (seed 002, eq. 17).
//
// For a dae.FirstOrder system the state force f_X(t, q, v, x) is part of the applied force.
func kktResidual(sys dae.System, t float64, q, v, a, lambda, x []float64) float64 {
	nq, nc := sys.Size()
	M := mat.NewDense(nq, nq, nil)
	G := mat.NewDense(nc, nq, nil)
	f := make([]float64, nq)
	sys.Mass(M, t, q)
	sys.ConstraintJacobian(G, t, q)
	sys.Force(f, t, q, v)
	if fo, ok := sys.(dae.FirstOrder); ok {
		fx := make([]float64, nq)
		fo.StateForce(fx, t, q, v, x)
		for i := range f {
			f[i] += fx[i]
		}
	}
	var worst, sc float64
	for i := range nq {
		var ma, gl float64
		for j := range nq {
			ma += M.At(i, j) * a[j]
		}
		for k := range nc {
			gl += G.At(k, i) * lambda[k]
		}
		worst = math.Max(worst, math.Abs(ma+gl-f[i]))
		sc = math.Max(sc, math.Max(math.Abs(ma), math.Max(math.Abs(gl), math.Abs(f[i]))))
	}
	return worst / sc
}

// consistency tolerances of the start (and reference) states, per problem:
//   - pendulum: exact formulas in O(1) quantities, rounding only: 1e-14 absolute, 1e-14
//     relative in eq. 17;
//   - chain: positions are cumulative sums of N sines/cosines, (a, λ) from an LU solve:
//     rounding only, 1e-13;
//   - andrews: the test set's 30-digit values rounded to doubles; g of size 0.07, G v and
//     G a of size 0.04·|a| ≈ 600, so 1e-15, 1e-15 and 1e-12 absolute; eq. 17 1e-13 relative;
//   - crank: INIT gives x₃ = 0.450016933 and the velocities to 9 significant digits
//     (g₂ = 2.0e-10, G v + g_t = 1.2e-8 at the printed values); crankProblem completes them
//     with dae.Initialize, whose tolerance is 1e-12·(size of g's terms ≈ 0.5) for g and
//     1e-12·(size of G v's terms ≈ 45) for G v + g_t, so 1e-12 and 5e-11; (a, λ) come from
//     an LU solve of eq. 17 with |G a| ≈ 1.5e3: 1e-11 and 1e-13 relative.
type consTol struct{ pos, vel, acc, kkt float64 }

var startTol = map[string]consTol{
	"pendulum":   {1e-14, 1e-14, 1e-14, 1e-14},
	"pipendulum": {1e-14, 1e-14, 1e-14, 1e-14}, // at rest at the bottom: exact zeros
	"chain10":    {1e-13, 1e-13, 1e-13, 1e-13},
	"andrews":    {1e-15, 1e-15, 1e-12, 1e-13},
	"crank":      {1e-12, 5e-11, 1e-11, 1e-13},
	// heavy tops: closed-form start (x = R(p) X, ṗ = H(p) Ω₀) and an LU solve of eq. 17;
	// the fast top's G a terms are of size |ṗ|² = 75² ≈ 6e3, so 1e-12 there.
	"heavytop":      {1e-14, 1e-14, 1e-14, 1e-14},
	"heavytop-fast": {1e-14, 1e-14, 1e-12, 1e-14},
	// stiff chain: dae.Initialize from the horizontal pose at rest (exact g = 0, v = 0);
	// eq. 17 by LU with |G a| terms of size |a| ≈ 10 at 20 bars.
	"stiffchain": {1e-14, 1e-14, 1e-12, 1e-13},
}

func TestStartConsistent(t *testing.T) {
	for _, p := range List() {
		tol, ok := startTol[p.Name]
		if !ok {
			t.Fatalf("no tolerance for %s", p.Name)
		}
		r := dae.NewResidualMeter(p.System).Measure(p.T0, p.Start.Q, p.Start.V, p.Start.A)
		if !(r.Pos <= tol.pos && r.Vel <= tol.vel && r.Acc <= tol.acc) {
			t.Errorf("%s: start residuals pos %.2g vel %.2g acc %.2g, want ≤ %.0g, %.0g, %.0g",
				p.Name, r.Pos, r.Vel, r.Acc, tol.pos, tol.vel, tol.acc)
		}
		if e := kktResidual(p.System, p.T0, p.Start.Q, p.Start.V, p.Start.A, p.Start.Lambda, p.Start.X); !(e <= tol.kkt) {
			t.Errorf("%s: start violates M a + Gᵀλ = f by %.2g relative, want ≤ %.0g", p.Name, e, tol.kkt)
		}
		if p.Start.T != p.T0 || p.Ref.T != p.TEnd {
			t.Errorf("%s: Start.T = %g, T0 = %g, Ref.T = %g, TEnd = %g", p.Name, p.Start.T, p.T0, p.Ref.T, p.TEnd)
		}
	}
}

// The reference states of the test-set problems carry a and λ too: they must satisfy
// eq. 17 with our M, f, G, which checks the velocity-dependent terms of f at a state far
// from the start. The references are runs at tolerance 1e-14, but a and λ are index-3
// (andrews) or index-2 (crank) components, accurate to fewer digits (the test set's two
// crank references differ by 1.4e-2 relative in a), so the bounds are a factor 10-30
// above the measured residuals: andrews eq. 17 5.9e-11, G v 9.9e-10 against |G v| terms
// of size 40 (v ≈ 1.4e3, G ≈ 0.03); crank eq. 17 8.2e-15 (a and λ to 16 digits; this confirms M, f, G
// including the truncated π), g = 2.0e-10 (the rounding of
// INIT, kept by the index-2 run), G v 9.3e-14.
func TestReferenceSatisfiesEquations(t *testing.T) {
	for _, c := range []struct {
		name string
		kkt  float64
		pos  float64
		vel  float64
	}{
		{"andrews", 1e-9, 1e-13, 1e-8},
		{"crank", 1e-13, 1e-9, 1e-12},
	} {
		p, err := Get(c.name)
		if err != nil {
			t.Fatal(err)
		}
		r := p.Ref
		if e := kktResidual(p.System, r.T, r.Q, r.V, r.A, r.Lambda, nil); !(e <= c.kkt) {
			t.Errorf("%s: reference violates M a + Gᵀλ = f by %.2g relative, want ≤ %.0g", c.name, e, c.kkt)
		}
		res := dae.NewResidualMeter(p.System).Measure(r.T, r.Q, r.V, nil)
		if !(res.Pos <= c.pos && res.Vel <= c.vel) {
			t.Errorf("%s: reference residuals pos %.2g vel %.2g, want ≤ %.0g, %.0g", c.name, res.Pos, res.Vel, c.pos, c.vel)
		}
	}
}

func TestEvaluationsDoNotAllocate(t *testing.T) {
	for _, p := range List() {
		sys := p.System
		nq, nc := sys.Size()
		M := mat.NewDense(nq, nq, nil)
		G := mat.NewDense(nc, nq, nil)
		f, g := make([]float64, nq), make([]float64, nc)
		s := p.Start
		md, _ := sys.(dae.MassDerivative)
		cf := sys.(dae.ConstraintForceDerivative)
		fd := sys.(dae.ForceDerivative)
		n := testing.AllocsPerRun(20, func() {
			sys.Mass(M, s.T, s.Q)
			sys.Force(f, s.T, s.Q, s.V)
			sys.Constraint(g, s.T, s.Q)
			sys.ConstraintJacobian(G, s.T, s.Q)
			sys.ConstraintTimeDerivative(g, s.T, s.Q)
			sys.Gamma(g, s.T, s.Q, s.V)
			if md != nil {
				md.MassDerivative(M, s.T, s.Q, s.A)
			}
			cf.ConstraintForceDerivative(M, s.T, s.Q, s.Lambda)
			fd.ForceDerivativeQ(M, s.T, s.Q, s.V)
			fd.ForceDerivativeV(M, s.T, s.Q, s.V)
		})
		if n != 0 {
			t.Errorf("%s: evaluations allocate %v times, want 0", p.Name, n)
		}
	}
}

func TestNames(t *testing.T) {
	want := map[string]struct{ q0, q6, g0, gLast string }{
		"andrews": {"beta", "epsilon", "loop B x", "loop A y via Omega-epsilon"},
		"crank":   {"phi1 (crank angle)", "q4 (rod longitudinal, end)", "slider joint y", "crank driver phi1 = Omega t"},
	}
	for name, w := range want {
		p, _ := Get(name)
		_, nc := p.System.Size()
		got := [4]string{dae.CoordinateName(p.System, 0), dae.CoordinateName(p.System, 6),
			dae.ConstraintName(p.System, 0), dae.ConstraintName(p.System, nc-1)}
		if got != [4]string{w.q0, w.q6, w.g0, w.gLast} {
			t.Errorf("%s: names %q", name, got)
		}
	}
	p, _ := Get("andrews")
	var all []string
	for i := range 7 {
		all = append(all, dae.CoordinateName(p.System, i))
	}
	if s := strings.Join(all, " "); s != "beta theta gamma phi delta Omega epsilon" {
		t.Errorf("andrews coordinate names %q", s)
	}
	c, _ := Get("chain3")
	if a, b := dae.CoordinateName(c.System, 5), dae.ConstraintName(c.System, 2); a != "y3" || b != "rod 3" {
		t.Errorf("chain3 names %q, %q, want y3, rod 3", a, b)
	}
}

func TestGet(t *testing.T) {
	for _, bad := range []string{"nope", "chain1", "chain51", "chainx", "chain-3", ""} {
		_, err := Get(bad)
		if err == nil {
			t.Errorf("Get(%q): no error", bad)
			continue
		}
		if !strings.Contains(err.Error(), "chain") || !strings.Contains(err.Error(), "50") {
			t.Errorf("Get(%q) error %q does not give the chain range", bad, err)
		}
	}
	_, err := Get("nope")
	for _, n := range []string{"pendulum", "chain", "andrews", "crank", "chainN"} {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("Get error %q does not list %q", err, n)
		}
	}
	ps := List()
	got := make([]string, len(ps))
	for i, p := range ps {
		got[i] = p.Name
	}
	if s := strings.Join(got, " "); s != "pendulum chain10 andrews crank pipendulum heavytop heavytop-fast stiffchain" {
		t.Errorf("List names %q", s)
	}
	for _, p := range ps {
		q, err := Get(p.Name)
		if err != nil || q.Name != p.Name || len(q.Ref.SCDIndices) == 0 || q.Ref.Source == "" || q.Source == "" || q.Tol <= 0 {
			t.Errorf("Get(%q) = %q, %v: incomplete", p.Name, q.Name, err)
		}
	}
	c4, err := Get("chain4")
	if err != nil {
		t.Fatal(err)
	}
	if nq, nc := c4.System.Size(); nq != 8 || nc != 4 || len(c4.Ref.Q) != 8 || len(c4.Ref.SCDIndices) != 8 {
		t.Errorf("chain4: sizes %d, %d, ref %d, scd indices %d", nq, nc, len(c4.Ref.Q), len(c4.Ref.SCDIndices))
	}
}

func TestSCD(t *testing.T) {
	r := Reference{Q: []float64{2, -4, 0, 1e-12}, SCDIndices: []int{0, 1, 2, 3}}
	if s := r.SCD([]float64{2, -4, 0, 1e-12}); !math.IsInf(s, 1) {
		t.Errorf("exact: scd %g, want +Inf", s)
	}
	// Relative error 1e-5 in component 1 (|−4| ≥ 1e-10); absolute 1e-7 in 2 and 3.
	if s := r.SCD([]float64{2, -4 * (1 + 1e-5), 1e-7, 1e-12 + 1e-7}); math.Abs(s-5) > 1e-9 {
		t.Errorf("scd %g, want 5", s)
	}
	if s := r.SCD([]float64{2, -4, 1e-3, 1e-12}); math.Abs(s-3) > 1e-9 {
		t.Errorf("absolute for zero reference: scd %g, want 3", s)
	}
	if s := r.SCD([]float64{2, math.NaN(), 0, 0}); !math.IsNaN(s) {
		t.Errorf("NaN component: scd %g, want NaN", s)
	}
	// Components outside SCDIndices do not count.
	r.SCDIndices = []int{0}
	if s := r.SCD([]float64{2.002, 0, 0, 0}); math.Abs(s-3) > 1e-9 {
		t.Errorf("one index: scd %g, want 3", s)
	}
}

// The test set's two crank references agree to scd 5.44 over the seven positions (the
// elastic q₄ of size 8e-6 differs by 3.0e-11), while the rigid positions agree to 9 digits:
// this is what the choice SCDIndices = y1..y7 implies.
func TestCrankReferencesAgree(t *testing.T) {
	p, _ := Get("crank")
	alt := mustParse(crankRefMDOP5[:])
	if s := p.Ref.SCD(alt[:7]); math.Abs(s-5.44) > 0.01 {
		t.Errorf("crank: MDOP5 vs MEBDFI reference scd %.3f, want 5.44", s)
	}
	rigid := p.Ref
	rigid.SCDIndices = []int{0, 1, 2}
	if s := rigid.SCD(alt[:7]); s < 8.9 {
		t.Errorf("crank: rigid positions agree to scd %.2f, want ≥ 8.9", s)
	}
}

// TestCrankStartMassOrthogonal: the crank's start corrects the printed velocities
// mass-orthogonally, as the reference's index-2 run does in its first step
// (crankVelocities): M (v − v_printed) lies in the range of Gᵀ, and v is consistent.
// Completing v by coordinate partitioning instead (φ₂' alone, by 4e-8) fails the first
// check with a residual of the size of M (v − v_printed).
func TestCrankStartMassOrthogonal(t *testing.T) {
	p, _ := Get("crank")
	sys := p.System
	nq, nc := sys.Size()
	printed := mustParse(crankY0[:])[7:14]
	d := make([]float64, nq)
	for i := range d {
		d[i] = p.Start.V[i] - printed[i]
	}
	M := mat.NewDense(nq, nq, nil)
	sys.Mass(M, 0, p.Start.Q)
	G := mat.NewDense(nc, nq, nil)
	sys.ConstraintJacobian(G, 0, p.Start.Q)
	var md mat.VecDense
	md.MulVec(M, mat.NewVecDense(nq, d))
	// Least-squares fit Gᵀ μ ≈ M d; the residual is the part of M d outside range(Gᵀ).
	var qr mat.QR
	qr.Factorize(G.T())
	var mu, fit mat.VecDense
	if err := qr.SolveVecTo(&mu, false, &md); err != nil {
		t.Fatal(err)
	}
	fit.MulVec(G.T(), &mu)
	fit.SubVec(&fit, &md)
	// d is a difference of velocities up to 150 rad/s (rounding 3e-14) of size 4e-8.
	if r, n := mat.Norm(&fit, math.Inf(1)), mat.Norm(&md, math.Inf(1)); !(n > 0 && r <= 1e-5*n) {
		t.Errorf("crank start: |M d − Gᵀμ| = %.3g against |M d| = %.3g, want the correction mass-orthogonal", r, n)
	}
	res := dae.NewResidualMeter(sys).Measure(0, p.Start.Q, p.Start.V, nil)
	if res.Vel > 1e-13 {
		t.Errorf("crank start: |G v + g_t| = %.3g, want consistent", res.Vel)
	}
}
