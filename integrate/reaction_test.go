package integrate

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// frictionPendulum is the pendulum of testsys_test.go with a force that depends on the
// rod's reaction λ, shaped like pin friction: with w = (−y, x) (the tangent, |w| = L on the
// constraint), s = w·v the tangential rate and n = √(λ² + ε²),
//
//	f_λ = −μ n tanh(s/vReg) w,
//	∂f_λ/∂v = −μ n φ' w wᵀ / vReg,   ∂f_λ/∂q = −μ n (φ' w (∂s/∂q)ᵀ / vReg + φ J),
//	∂f_λ/∂λ = −μ (λ/n) φ w,
//
// φ = tanh(s/vReg), φ' = 1 − φ², J = ∂w/∂q = [0 −1; 1 0], ∂s/∂q = (v_y, −v_x).
type frictionPendulum struct {
	*pendulum
	mu, vReg, eps float64
}

func (p *frictionPendulum) HasReactionForce() bool { return true }

func (p *frictionPendulum) parts(q, v, lambda []float64) (w [2]float64, s, n, phi float64) {
	w = [2]float64{-q[1], q[0]}
	s = w[0]*v[0] + w[1]*v[1]
	n = math.Sqrt(lambda[0]*lambda[0] + p.eps*p.eps)
	return w, s, n, math.Tanh(s / p.vReg)
}

func (p *frictionPendulum) AddReactionForce(dst []float64, _ float64, q, v, lambda []float64) {
	w, _, n, phi := p.parts(q, v, lambda)
	dst[0] -= p.mu * n * phi * w[0]
	dst[1] -= p.mu * n * phi * w[1]
}

func (p *frictionPendulum) ReactionForceDerivative(fq, fv, fl *mat.Dense, _ float64, q, v, lambda []float64) {
	w, _, n, phi := p.parts(q, v, lambda)
	dphi := (1 - phi*phi) / p.vReg
	ds := [2]float64{v[1], -v[0]}
	J := [2][2]float64{{0, -1}, {1, 0}}
	for i := range 2 {
		for j := range 2 {
			fv.Set(i, j, -p.mu*n*dphi*w[i]*w[j])
			fq.Set(i, j, -p.mu*n*(dphi*w[i]*ds[j]+phi*J[i][j]))
		}
		fl.Set(i, 0, -p.mu*lambda[0]/n*phi*w[i])
	}
}

// newFrictionPendulum returns a pendulum with a strong λ-dependent force (μ = 0.5) whose
// tanh is in its bend (vReg = 0.5 m/s, tangential speeds up to about 1) at the test states.
func newFrictionPendulum() *frictionPendulum {
	return &frictionPendulum{pendulum: newPendulum(1, 1, 9.81), mu: 0.5, vReg: 0.5, eps: 1e-3}
}

// TestReactionForcePendulumDerivatives checks the inline system's analytic derivatives,
// on which the Newton matrix tests below rely, against central differences.
func TestReactionForcePendulumDerivatives(t *testing.T) {
	p := newFrictionPendulum()
	if _, err := dae.Check(p, dae.CheckPoint{Q: []float64{0.6, -0.8}, V: []float64{0.4, 0.3}, Lambda: []float64{7}}, 1e-6); err != nil {
		t.Error(err)
	}
}

// checkSolvesFD asserts that the factorized Newton matrix J at x is the derivative of the
// residual: for directions d, the central difference D = (r(x + εd) − r(x − εd))/(2ε)
// equals J d, so solve(D) returns d. A Newton matrix without ∂f_λ/∂λ (or with a wrong sign)
// fails it by the size of that term (checked by hand: 0.1 to 1 relative here).
func checkSolvesFD(t *testing.T, name string, x []float64, res func() []float64, solve func([]float64)) {
	t.Helper()
	n := len(x)
	x0 := append([]float64(nil), x...)
	for k := range n {
		d := make([]float64, n)
		d[k] = 1
		d[(k+1)%n] = 0.5
		eps := 1e-6 * math.Max(1, math.Abs(x0[k]))
		for i := range x {
			x[i] = x0[i] + eps*d[i]
		}
		rp := append([]float64(nil), res()...)
		for i := range x {
			x[i] = x0[i] - eps*d[i]
		}
		rm := res()
		D := make([]float64, n)
		for i := range D {
			D[i] = (rp[i] - rm[i]) / (2 * eps)
		}
		copy(x, x0)
		solve(D)
		for i := range D {
			// central differences with ε = 1e-6 are accurate to about 1e-9 relative; the
			// solve amplifies that by cond(J) (below 1e4 for these scaled matrices)
			if math.Abs(D[i]-d[i]) > 1e-5 {
				t.Errorf("%s: direction %d: J⁻¹·(FD of the residual)[%d] = %.8g, want %g", name, k, i, D[i], d[i])
				return
			}
		}
	}
	copy(x, x0)
}

// TestReactionNewtonMatrices: the Newton matrices of hht, genalpha (index 3 and stabilized
// index 2) and of the first-order form of bdf and radau5 (every formulation) include
// ∂f_λ/∂(q, v, λ): they equal the derivative of their residuals, which include f_λ.
func TestReactionNewtonMatrices(t *testing.T) {
	p := newFrictionPendulum()
	s0 := pendulumStart(p.pendulum, 0.7, 1.2)
	const h = 0.01
	ctl := StepControl{FixedH: h}

	hht := DefaultHHT()
	if err := hht.Init(p, s0, ctl); err != nil {
		t.Fatal(err)
	}
	if err := hht.Step(1); err != nil {
		t.Fatal(err)
	}
	w := hht.w
	w.predict(h, false)
	res := func() []float64 {
		if err := w.residual(); err != nil {
			t.Fatal(err)
		}
		return w.du
	}
	res()
	if err := w.factor(); err != nil {
		t.Fatal(err)
	}
	checkSolvesFD(t, "hht", w.u, res, w.lu.Solve)

	// genalpha: the assembled matrix against central differences of the residual, entry by
	// entry in the rows of the equations of motion and of g (where f_λ enters); the velocity
	// rows of the stabilized index-2 form leave out O(h) terms by design (GenAlpha.jacobian)
	// and hold no force.
	for _, form := range []Formulation{Index3, StabilizedIndex2} {
		ga := DefaultGenAlpha()
		ga.Formulation = form
		if err := ga.Init(p, s0, ctl); err != nil {
			t.Fatal(err)
		}
		if err := ga.Step(1); err != nil {
			t.Fatal(err)
		}
		g := ga.w
		g.predict(h, false)
		g.x[g.nq] *= 1.1 // hλ off the converged value
		if !g.evalResidual(h) {
			t.Fatal("genalpha: residual not finite")
		}
		g.assemble(h)
		J, n := g.lu.Matrix(), g.nx
		x0 := append([]float64(nil), g.x...)
		for j := range n {
			eps := 1e-6 * math.Max(1, math.Abs(x0[j]))
			g.x[j] = x0[j] + eps
			g.evalResidual(h)
			rp := append([]float64(nil), g.res...)
			g.x[j] = x0[j] - eps
			g.evalResidual(h)
			g.x[j] = x0[j]
			for i := range g.nq + g.nc {
				fd := (rp[i] - g.res[i]) / (2 * eps)
				// central differences: about 1e-9 relative to the largest entries (O(1))
				if math.Abs(fd-J[i*n+j]) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("genalpha %s: J[%d,%d] = %.8g, central difference %.8g", form, i, j, J[i*n+j], fd)
				}
			}
		}
	}

	for _, form := range []Formulation{Index3, Index2, StabilizedIndex2, Index1, Baumgarte, Index2Baumgarte} {
		se, err := newSemiExplicit(p, form, false)
		if err != nil {
			t.Fatal(err)
		}
		se.baumAlpha, se.baumBeta, se.alpha0 = 5, 25, 10
		y := make([]float64, se.n)
		se.pack(y, &s0)
		y[se.il()] += 0.3 // off the solution: the residual's λ-dependence is exercised
		J := mat.NewDense(se.n, se.n, nil)
		se.jacobian(J, 0.1, y)
		phi := make([]float64, se.n)
		resS := func() []float64 { se.residual(phi, 0.1, y); return phi }
		var lu mat.LU
		lu.Factorize(J)
		solve := func(b []float64) {
			v := mat.NewVecDense(len(b), b)
			if err := lu.SolveVecTo(v, false, v); err != nil {
				t.Fatal(err)
			}
		}
		checkSolvesFD(t, "first-order form "+string(form), y, resS, solve)
	}
}

// TestReactionForceRegistry: every registered method either accepts λ-dependent forces
// (Entry.ReactionForces, in every formulation) and
// integrates the friction pendulum about as accurately as the pendulum without friction
// at the same tolerances, or refuses it at Init with an error naming the capability and
// itself.
func TestReactionForceRegistry(t *testing.T) {
	p := newFrictionPendulum()
	s0 := pendulumStart(p.pendulum, 0.7, 1.2)
	const tEnd = 0.5
	tight := StepControl{RTol: 1e-11, ATol: 1e-11}
	reference := func(sys dae.System) State {
		m := DefaultHHT()
		sol, err := Solve(&m, "hht", sys, s0, tEnd, SolveOptions{Control: tight})
		if err != nil {
			t.Fatal(err)
		}
		return sol.Final
	}
	refFric, refFree := reference(p), reference(p.pendulum)
	// The friction takes a visible part of the energy: x(t_end) moves by far more than the
	// accuracy compared below.
	if d := math.Abs(refFree.Q[0] - refFric.Q[0]); d < 1e-2 {
		t.Fatalf("friction changes x(t_end) by %.2g only", d)
	}
	run := func(e Entry, form Formulation, sys dae.System, ref State) (float64, error) {
		m, err := e.NewMethod(form)
		if err != nil {
			t.Fatal(err)
		}
		ctl := StepControl{RTol: 1e-7, ATol: 1e-7}
		if !e.Adaptive {
			ctl = StepControl{FixedH: 1e-3}
		}
		sol, err := Solve(m, e.Name, sys, s0, tEnd, SolveOptions{Control: ctl})
		if err != nil {
			return 0, err
		}
		return math.Max(math.Abs(sol.Final.Q[0]-ref.Q[0]), math.Abs(sol.Final.Q[1]-ref.Q[1])), nil
	}
	for _, e := range Methods() {
		for _, form := range e.Formulations {
			errFric, err := run(e, form, p, refFric)
			if !e.ReactionForces || slices.Contains(e.ReactionRefused, form) {
				if err == nil || !strings.Contains(err.Error(), "dae.ReactionForce") || !strings.Contains(err.Error(), e.Name) {
					t.Errorf("%s %s: err = %v, want a refusal naming dae.ReactionForce and the method", e.Name, form, err)
				}
				continue
			}
			errFree, errF := run(e, form, p.pendulum, refFree)
			if errF != nil { // newmark index3: undamped, unstable on this pendulum either way
				if err == nil {
					t.Errorf("%s %s: fails without friction (%v) but not with it", e.Name, form, errF)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %s: %v", e.Name, form, err)
				continue
			}
			// Friction may not cost accuracy beyond a factor 10 (measured: at most 2.2, bdf
			// index3); 1e-7 is the requested tolerance, a floor for runs far below it.
			if errFric > 10*errFree+1e-7 {
				t.Errorf("%s %s: |Δq(t_end)| = %.2g with friction, %.2g without", e.Name, form, errFric, errFree)
			}
		}
	}
}

// radialReaction adds f_λ = k λ G = k λ q to the pendulum: with |k| > 1 the start's
// fixed-point iteration on λ (eq17.solveReaction) diverges.
type radialReaction struct {
	*pendulum
	k float64
}

func (p radialReaction) HasReactionForce() bool { return true }
func (p radialReaction) AddReactionForce(dst []float64, _ float64, q, v, lambda []float64) {
	dst[0] += p.k * lambda[0] * q[0]
	dst[1] += p.k * lambda[0] * q[1]
}
func (p radialReaction) ReactionForceDerivative(fq, fv, fl *mat.Dense, _ float64, q, v, lambda []float64) {
	fq.Zero()
	fv.Zero()
	fq.Set(0, 0, p.k*lambda[0])
	fq.Set(1, 1, p.k*lambda[0])
	fl.Set(0, 0, p.k*q[0])
	fl.Set(1, 0, p.k*q[1])
}

// TestReactionStartFailure: a λ-dependent force that changes the reaction by more than
// itself makes the start's fixed-point iteration diverge; Init says so (and not that the
// KKT matrix is singular).
func TestReactionStartFailure(t *testing.T) {
	p := radialReaction{newPendulum(1, 1, 9.81), 2}
	s0 := pendulumStart(p.pendulum, 0.7, 1.2)
	m := DefaultHHT()
	err := m.Init(p, s0, StepControl{})
	if err == nil || !strings.Contains(err.Error(), "fixed-point iteration on λ did not converge") || strings.Contains(err.Error(), "singular") {
		t.Errorf("Init: err = %v, want the fixed-point failure named", err)
	}
}

// TestReactionExplicitNewton: the explicit methods solve eq. 17 with f_λ by Newton on λ,
// which converges where the start's fixed-point iteration diverges (k = 2: the force
// changes λ by twice itself) and gives (a, λ) that satisfy M a + Gᵀλ = f + f_λ(λ),
// G a = γ to rounding; with k = 1 the equation for λ has no solution (the Newton matrix
// 1 − k is zero) and Init names the failure.
func TestReactionExplicitNewton(t *testing.T) {
	for _, name := range []string{"dopri5", "mdop5", "rk4"} {
		e, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		p := radialReaction{newPendulum(1, 1, 9.81), 2}
		s0 := pendulumStart(p.pendulum, 0.7, 1.2)
		m := e.New()
		if err := m.Init(p, s0, StepControl{RTol: 1e-8, ATol: 1e-8, FixedH: 1e-3}); err != nil {
			t.Fatalf("%s, k = 2: %v", name, err)
		}
		c := m.Current()
		M, G := mat.NewDense(2, 2, nil), mat.NewDense(1, 2, nil)
		f, gamma := make([]float64, 2), make([]float64, 1)
		p.Mass(M, c.T, c.Q)
		p.ConstraintJacobian(G, c.T, c.Q)
		p.Force(f, c.T, c.Q, c.V)
		p.AddReactionForce(f, c.T, c.Q, c.V, c.Lambda)
		p.Gamma(gamma, c.T, c.Q, c.V)
		for i := range 2 {
			r := M.At(i, 0)*c.A[0] + M.At(i, 1)*c.A[1] + G.At(0, i)*c.Lambda[0] - f[i]
			if math.Abs(r) > 1e-12*(1+math.Abs(f[i])) {
				t.Errorf("%s: row %d of M a + Gᵀλ − f − f_λ(λ) = %.2g", name, i, r)
			}
		}
		if r := G.At(0, 0)*c.A[0] + G.At(0, 1)*c.A[1] - gamma[0]; math.Abs(r) > 1e-12*(1+math.Abs(gamma[0])) {
			t.Errorf("%s: G a − γ = %.2g", name, r)
		}
		if err := m.Step(0.01); err != nil {
			t.Errorf("%s, k = 2: step: %v", name, err)
		}

		p.k = 1
		err = e.New().Init(p, s0, StepControl{RTol: 1e-8, ATol: 1e-8, FixedH: 1e-3})
		if !errors.Is(err, errReactionNewton) || !strings.Contains(err.Error(), "Newton iteration on λ of eq. 17 did not converge") {
			t.Errorf("%s, k = 1: err = %v, want the Newton failure on λ named", name, err)
		}
	}
}

// frictionReference is the friction pendulum's state at tEnd by radau5 (index2) with 2000
// fixed steps, checked against 1000: order 5 in q puts its error near 1e-14.
func frictionReference(t *testing.T, p *frictionPendulum, s0 State, tEnd float64) State {
	t.Helper()
	_, ref := radauFixed(t, p, s0, Index2, 2000, tEnd)
	_, coarse := radauFixed(t, p, s0, Index2, 1000, tEnd)
	if d := math.Max(math.Abs(ref.Q[0]-coarse.Q[0]), math.Abs(ref.Q[1]-coarse.Q[1])); d > 1e-12 {
		t.Fatalf("reference: 1000 and 2000 steps differ by %.2g in q", d)
	}
	return ref
}

// TestRadau5Index3Reaction: radau5 index3 on the friction pendulum (a λ-dependent force
// of the size of the rod's reaction) keeps the global error of q within the requested
// tolerance at RTol = ATol = 1e-5 … 1e-9 (measured |Δq|/tol = 0.07, 0.14, 0.025, 0.016,
// 0.026; before v was measured at its index-1 scale it was 290 at 1e-7 and 2150 at 1e-9:
// Radau5), and with fixed steps converges with the orders of
// Radau IIA on index 3 (5 in q, 3 in v, 2 in λ; Hairer & Wanner 1996, VII.4), which the
// λ-dependent force does not change.
func TestRadau5Index3Reaction(t *testing.T) {
	p := newFrictionPendulum()
	s0 := pendulumStart(p.pendulum, 0.7, 1.2)
	const tEnd = 0.5
	ref := frictionReference(t, p, s0, tEnd)
	dq := func(c State) float64 {
		return math.Max(math.Abs(c.Q[0]-ref.Q[0]), math.Abs(c.Q[1]-ref.Q[1]))
	}
	for _, tol := range []float64{1e-5, 1e-6, 1e-7, 1e-8, 1e-9} {
		m := &Radau5{Formulation: Index3}
		sol, err := Solve(m, "radau5", p, s0, tEnd, SolveOptions{Control: StepControl{RTol: tol, ATol: tol}})
		if err != nil {
			t.Fatalf("tol %g: %v", tol, err)
		}
		if e := dq(sol.Final); e > tol {
			t.Errorf("tol %g: |Δq(%g)| = %.2g, want ≤ the tolerance (%d steps, %d rejected)", tol, tEnd, e, sol.Stats.Steps, sol.Stats.Rejected)
		}
	}
	var eq, ev, el [3]float64
	for k, n := range []int{40, 80, 160} {
		_, c := radauFixed(t, p, s0, Index3, n, tEnd)
		eq[k] = dq(c)
		ev[k] = math.Max(math.Abs(c.V[0]-ref.V[0]), math.Abs(c.V[1]-ref.V[1]))
		el[k] = math.Abs(c.Lambda[0] - ref.Lambda[0])
	}
	for _, o := range []struct {
		name string
		e    [3]float64
		want float64
	}{{"q", eq, 5}, {"v", ev, 3}, {"λ", el, 2}} {
		// half an order of slack for the pre-asymptotic range at 40 to 160 steps
		for _, got := range observedOrders(o.e) {
			if got < o.want-0.5 {
				t.Errorf("fixed steps: %s converges with order %.2f (errors %.2g), want %g", o.name, got, o.e, o.want)
			}
		}
	}
}

// TestReactionNewtonMatricesDAEAlpha: daealpha's Newton matrices (index2, index1-proj)
// include ∂f_λ/∂(q, v) and ∂f_λ/∂λ through the multiplier that presses f_λ (μ/(γ̂h),
// ν/(β̂h²)): they equal the derivative of the residual, off the converged iterate.
func TestReactionNewtonMatricesDAEAlpha(t *testing.T) {
	p := newFrictionPendulum()
	s0 := pendulumStart(p.pendulum, 0.7, 1.2)
	const h = 0.01
	for _, form := range []Formulation{Index2, Index1Projected} {
		m := DefaultDAEAlpha()
		m.Formulation = form
		if err := m.Init(p, s0, StepControl{FixedH: h}); err != nil {
			t.Fatal(err)
		}
		if err := m.Step(1); err != nil {
			t.Fatal(err)
		}
		w := m.w
		w.predict(h, false)
		w.x[2*w.nq] *= 1.1 // ν off the converged value
		w.x[2*w.nq+w.nc] *= 1.1
		res := func() []float64 {
			if err := w.residual(); err != nil {
				t.Fatal(err)
			}
			return w.res
		}
		res()
		if err := w.factor(); err != nil {
			t.Fatal(err)
		}
		checkSolvesFD(t, "daealpha "+string(form), w.x, res, w.lu.Solve)
	}
}

// TestReactionOrders: with the λ-dependent force of the friction pendulum on, the methods
// that took it up in issue 16's second round converge with fixed steps at their orders
// (Entry.Order: q and λ), against frictionReference.
func TestReactionOrders(t *testing.T) {
	p := newFrictionPendulum()
	s0 := pendulumStart(p.pendulum, 0.7, 1.2)
	const tEnd = 0.5
	ref := frictionReference(t, p, s0, tEnd)
	for _, c := range []struct {
		name  string
		form  Formulation
		steps [3]int
		slack float64 // below the order allowed for the pre-asymptotic range [0.1]
	}{
		{"daealpha", Index2, [3]int{50, 100, 200}, 0},
		{"daealpha", Index1Projected, [3]int{50, 100, 200}, 0},
		{"lie-genalpha", Index3, [3]int{50, 100, 200}, 0},
		{"lie-genalpha", StabilizedIndex2, [3]int{50, 100, 200}, 0},
		// order 5 from 40 steps on (20 → 40 reads 4.0 with friction; the errors at 160
		// steps, 5e-14, are 1.5 times the reference's rounding floor)
		{"hedop5", Index2Projected, [3]int{40, 80, 160}, 0},
		{"hedop5", Index2, [3]int{40, 80, 160}, 0},
		{"gcp-newmark", StateSpace, [3]int{50, 100, 200}, 0},
		{"gcp-fv", StateSpace, [3]int{50, 100, 200}, 0},
		// q: errors of two signs cancel below 200 steps (orders 5.1, 3.2 at 50-200 steps),
		// 3.90 and 3.98 at 200-800; without friction gcp-abm reads 3.9 and 3.95 at 50-200
		{"gcp-abm", StateSpace, [3]int{200, 400, 800}, 0.15},
	} {
		e, err := Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		var eq, el [3]float64
		for k, n := range c.steps {
			m, err := e.NewMethod(c.form)
			if err != nil {
				t.Fatal(err)
			}
			sol, err := Solve(m, c.name, p, s0, tEnd, SolveOptions{Control: StepControl{FixedH: tEnd / float64(n)}})
			if err != nil {
				t.Fatalf("%s %s n=%d: %v", c.name, c.form, n, err)
			}
			f := sol.Final
			eq[k] = math.Max(math.Abs(f.Q[0]-ref.Q[0]), math.Abs(f.Q[1]-ref.Q[1]))
			el[k] = math.Abs(f.Lambda[0] - ref.Lambda[0])
		}
		for _, o := range []struct {
			what string
			e    [3]float64
			want int
		}{{"q", eq, e.Order.Q}, {"λ", el, lambdaOrder(e, c.form)}} {
			if o.want == 0 {
				continue
			}
			slack := c.slack
			if slack == 0 {
				slack = 0.1
			}
			for _, got := range observedOrders(o.e) {
				if got < float64(o.want)-slack {
					t.Errorf("%s %s: %s converges with order %.2f (errors %.2g), want %d", c.name, c.form, o.what, got, o.e, o.want)
				}
			}
		}
	}
}

// TestReactionNewtonMatrixLie: lie-genalpha's index-3 Newton matrix on ℝⁿ includes
// ∂f_λ/∂(q, v, λ): it equals the derivative of its residual, off the converged iterate.
func TestReactionNewtonMatrixLie(t *testing.T) {
	p := newFrictionPendulum()
	s0 := pendulumStart(p.pendulum, 0.7, 1.2)
	const h = 0.01
	m := DefaultLieGenAlpha()
	if err := m.Init(p, s0, StepControl{FixedH: h}); err != nil {
		t.Fatal(err)
	}
	if err := m.Step(1); err != nil {
		t.Fatal(err)
	}
	w := m.w
	w.prepare(h)
	if err := w.predict(h, false); err != nil {
		t.Fatal(err)
	}
	w.x[w.nv] *= 1.1 // hλ off the converged value
	res := func() []float64 {
		if err := w.residual(); err != nil {
			t.Fatal(err)
		}
		return w.res
	}
	res()
	if err := w.factor(); err != nil {
		t.Fatal(err)
	}
	checkSolvesFD(t, "lie-genalpha", w.x, res, w.lu.Solve)
}

// lambdaOrder is the order of λ of e in formulation form that TestReactionOrders checks:
// Entry.Order's, except the stabilized index-2 form of lie-genalpha, second order in λ
// (its Entry's 1 is index3's), and hedop5, whose λ reaches the rounding level
// ε/(h|a₈₇|) of HEDOP5 (1e-11 with friction, 3e-10 without) at the steps that make q
// asymptotic, and gcp-abm, whose λ reaches 1e-11, the stop of the Newton iteration on λ
// (reactionNewtonTol·|λ|), at 400 steps: 0, not checked.
func lambdaOrder(e Entry, form Formulation) int {
	switch {
	case e.Name == "lie-genalpha" && form == StabilizedIndex2:
		return 2
	case e.Name == "hedop5", e.Name == "gcp-abm":
		return 0
	}
	return e.Order.Lambda
}

// TestReactionNewtonMatrixGCP: gcp-newmark's Newton matrix (eq. 29 with λ from eq. 38
// with λ-dependent forces, reactionReduce) is the derivative of Ψ (eq. 20) with respect to
// qInd”, off the converged iterate.
func TestReactionNewtonMatrixGCP(t *testing.T) {
	p := newFrictionPendulum()
	s0 := pendulumStart(p.pendulum, 0.7, 1.2)
	const h = 0.01
	m := DefaultGCP()
	if err := m.Init(p, s0, StepControl{FixedH: h}); err != nil {
		t.Fatal(err)
	}
	if err := m.Step(1); err != nil {
		t.Fatal(err)
	}
	w := m.w
	if err := w.predict(h, false); err != nil {
		t.Fatal(err)
	}
	w.vdd[0] += 0.3 // off the solution
	res := func() []float64 {
		if err := w.evaluate(h); err != nil {
			t.Fatal(err)
		}
		return w.psi
	}
	res()
	if err := w.jacobian(h); err != nil {
		t.Fatal(err)
	}
	checkSolvesFD(t, "gcp-newmark", w.vdd, res, w.jlu.Solve)
}
