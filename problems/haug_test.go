package problems

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/planar"
)

// TestHaugModels: the three models of seed 000, section 4, have the paper's sizes (the
// Andrews model 21 coordinates and 20 constraints, section 4.3), start consistently at
// position, velocity and acceleration level (seed 002, eqs. 17, 19) with the kept
// coordinates at the paper's values (Tables 2 and 4), and pass dae.Check at the start and
// at random points near it.
func TestHaugModels(t *testing.T) {
	ps, err := Haug1997()
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string][2]int{"haug-pendulum": {6, 4}, "haug-crank": {6, 5}, "haug-andrews": {21, 20}}
	ends := map[string]float64{"haug-pendulum": 0.1, "haug-crank": 0.1, "haug-andrews": 0.035}
	for _, p := range ps {
		nq, nc := p.System.Size()
		if want := sizes[p.Name]; nq != want[0] || nc != want[1] {
			t.Errorf("%s: size (%d, %d), want %v", p.Name, nq, nc, want)
		}
		if p.TEnd != ends[p.Name] {
			t.Errorf("%s: TEnd = %g, want %g (seed 000, section 4)", p.Name, p.TEnd, ends[p.Name])
		}
		g := make([]float64, nc)
		G := mat.NewDense(nc, nq, nil)
		gamma := make([]float64, nc)
		p.System.Constraint(g, 0, p.Start.Q)
		p.System.ConstraintJacobian(G, 0, p.Start.Q)
		p.System.Gamma(gamma, 0, p.Start.Q, p.Start.V)
		var gv, ga, ascale float64
		for i := range nc {
			var s, sa float64
			for j := range nq {
				s += G.At(i, j) * p.Start.V[j]
				sa += G.At(i, j) * p.Start.A[j]
				ascale = math.Max(ascale, math.Abs(G.At(i, j)*p.Start.A[j]))
			}
			gv = math.Max(gv, math.Abs(s))
			ga = math.Max(ga, math.Abs(sa-gamma[i]))
		}
		ascale = math.Max(ascale, 1)
		// dae.Initialize's default targets: 1e-12 times the size of the terms of g (lengths
		// of order 1 m or less here) and of G v.
		if w := haugMaxAbs(g); w > 1e-12 {
			t.Errorf("%s: start |g|∞ = %.2e, want <= 1e-12", p.Name, w)
		}
		if gv > 1e-11 {
			t.Errorf("%s: start |G v|∞ = %.2e, want <= 1e-11", p.Name, gv)
		}
		// a and λ solve the KKT system of eq. 17 by a backward-stable factorization: the
		// residual is rounding times the condition number, 1e-9 relative leaves a margin of
		// 1e3 over the worst conditioned (Andrews, whose masses span 1e-7 to 7e-2).
		if ga/ascale > 1e-9 {
			t.Errorf("%s: start |G a − γ|∞ = %.2e (terms %.2e), want relative <= 1e-9", p.Name, ga, ascale)
		}
		if r := kktResidual(p.System, 0, p.Start.Q, p.Start.V, p.Start.A, p.Start.Lambda, nil); r > 1e-9 {
			t.Errorf("%s: start |M a + Gᵀλ − f| relative = %.2e, want <= 1e-9", p.Name, r)
		}
		rng := rand.New(rand.NewPCG(11, 3))
		points := map[string]dae.CheckPoint{"start": {Q: p.Start.Q, V: p.Start.V, A: p.Start.A, Lambda: p.Start.Lambda}}
		for k := range 2 {
			cp := dae.CheckPoint{T: 0.01, Q: make([]float64, nq), V: make([]float64, nq), A: make([]float64, nq), Lambda: make([]float64, nc)}
			for i := range nq {
				// Perturbations of 0.01 m or rad keep every TSDA away from l = 0 (its only
				// singularity) and velocities of order 1 keep dae.Check's γ difference in
				// its asymptotic range (see perturbScales).
				cp.Q[i] = p.Start.Q[i] + 0.01*rng.NormFloat64()
				cp.V[i] = rng.NormFloat64()
				cp.A[i] = 100 * rng.NormFloat64()
			}
			for i := range nc {
				cp.Lambda[i] = 10 * rng.NormFloat64()
			}
			points[[]string{"random1", "random2"}[k]] = cp
		}
		for where, cp := range points {
			ms, err := dae.Check(p.System, cp, checkTol)
			if err != nil {
				t.Errorf("%s at %s: %v", p.Name, where, err)
			}
			// G, g_t, γ, d(G w)/dq, dγ/dq, dγ/dv, M symmetric, d(Gᵀλ)/dq, df/dq, df/dv
			// (planar has ConstantMass and also reports d(M a)/dq = 0).
			if len(ms) != 11 {
				t.Errorf("%s at %s: dae.Check compared %d quantities, want 11", p.Name, where, len(ms))
			}
		}
	}
	pend, crank := ps[0], ps[1]
	// Table 2: bars horizontal, bar 2 turning at 10 rad/s, bar 1 at rest (kept coordinates
	// are copied exactly).
	if pend.Start.Q[2] != 0 || pend.Start.Q[5] != 0 || pend.Start.V[2] != 0 || pend.Start.V[5] != 10 {
		t.Errorf("haug-pendulum: start θ = (%g, %g), θ' = (%g, %g), want (0, 0), (0, 10)",
			pend.Start.Q[2], pend.Start.Q[5], pend.Start.V[2], pend.Start.V[5])
	}
	// Table 4: crank vertical, rod's tip on the slot at x = √(0.6² − 0.3²) = 0.5196152.
	if crank.Start.Q[2] != math.Pi/2 {
		t.Errorf("haug-crank: crank angle %g, want π/2", crank.Start.Q[2])
	}
	tipX := crank.Start.Q[3] + 0.3*math.Cos(crank.Start.Q[5])
	// Table 4 prints 7 digits.
	if math.Abs(tipX-0.5196152) > 1e-7 {
		t.Errorf("haug-crank: rod tip x = %.9f, want 0.5196152 (Table 4)", tipX)
	}
}

// TestHaugAndrewsSpringDamper: the second TSDA of HaugAndrews acts between the same
// points as planar.Andrews' spring, and C enters only through it. With K = 2·4530 and C =
// 0 the added element equals the original spring, so at the start (v = 0)
// f_haug − f_andrews = f_andrews − f_motor, where the motor torque mom = 0.033 N·m acts
// on body 1's angle alone; ∂f/∂v is C ∇l ∇lᵀ up to sign, linear in C.
func TestHaugAndrewsSpringDamper(t *testing.T) {
	base, err := planar.Andrews().Assemble()
	if err != nil {
		t.Fatal(err)
	}
	double, err := HaugAndrews(HaugAndrewsParams{K: 2 * andrewsSpringK, C: 0})
	if err != nil {
		t.Fatal(err)
	}
	q, v := double.Start.Q, make([]float64, 21)
	fb, fd := make([]float64, 21), make([]float64, 21)
	base.Force(fb, 0, q, v)
	double.System.Force(fd, 0, q, v)
	motor := make([]float64, 21)
	motor[2] = 0.033
	for i := range fb {
		spring := fb[i] - motor[i]
		// Both sides are one TSDA evaluation: rounding of terms of size |f| ≈ 1e2.
		if d := math.Abs(fd[i] - fb[i] - spring); d > 1e-12*math.Max(1, math.Abs(spring)) {
			t.Errorf("f[%d]: added element %.15g, original spring %.15g", i, fd[i]-fb[i], spring)
		}
	}
	if haugMaxAbs(fb) < 1 {
		t.Fatalf("the original spring exerts %g, want a force of order 1e2 to compare", haugMaxAbs(fb))
	}
	dv := func(c float64) *mat.Dense {
		p, err := HaugAndrews(HaugAndrewsParams{K: 30000, C: c})
		if err != nil {
			t.Fatal(err)
		}
		d := mat.NewDense(21, 21, nil)
		p.System.(dae.ForceDerivative).ForceDerivativeV(d, 0, p.Start.Q, v)
		return d
	}
	full, half := dv(1e5), dv(5e4)
	// Linear in C: the ratio is 2 up to rounding.
	if r := mat.Norm(full, 2) / mat.Norm(half, 2); math.Abs(r-2) > 1e-12 {
		t.Errorf("|∂f/∂v|(C=1e5) / |∂f/∂v|(C=5e4) = %.15g, want 2", r)
	}
	if _, err := HaugAndrews(HaugAndrewsParams{K: 1000, C: 1}); err == nil {
		t.Error("K = 1000 below the test set's spring: want an error")
	}
	if _, err := HaugPendulum(HaugPendulumParams{L1: 1, L2: -1, M1: 1, M2: 1}); err == nil {
		t.Error("L2 = -1: want an error")
	}
	if _, err := HaugCrank(HaugCrankParams{L1: 0.6, M1: 1, L2: 0.3, M2: 1, FreeLength: 1}); err == nil {
		t.Error("L2 < L1: want an error")
	}
}

func haugMaxAbs(x []float64) float64 {
	var m float64
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}
