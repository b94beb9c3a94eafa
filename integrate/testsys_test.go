package integrate

// Inline test systems shared by the integrate tests (STYLE: integrate tests use systems
// written inline; runs on library problems live in problems/). Each system implements
// dae.System with analytic derivatives (ConstantMass, MassDerivative,
// ConstraintForceDerivative, ForceDerivative) and dae.Namer, so the implicit methods need
// no finite differences and failures can name an owner.

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// pendulum is a point mass m on a massless rod of length L in Cartesian coordinates
// q = (x, y), gravity grav along −y, an optional viscous damping c (f = −c v) and an
// optional pivot driven along x as x_p(t) = amp·sin(omega·t) (a rheonomic constraint with
// g_t ≠ 0):
//
//	M = m I,   f = (−c v_x, −m grav − c v_y),
//	g = ((x − x_p)² + y² − L²)/2,   G = (x − x_p, y),   g_t = −(x − x_p)·x_p',
//	γ = −(v_x − x_p')² − v_y² + (x − x_p)·x_p''.
type pendulum struct {
	m, L, grav float64
	c          float64 // viscous damping coefficient
	amp, omega float64 // pivot motion x_p = amp·sin(omega t)
}

// newPendulum returns the scleronomic, undamped pendulum.
func newPendulum(m, L, grav float64) *pendulum { return &pendulum{m: m, L: L, grav: grav} }

// newDrivenPendulum returns a pendulum whose pivot moves as x_p = amp·sin(omega·t).
func newDrivenPendulum(m, L, grav, amp, omega float64) *pendulum {
	return &pendulum{m: m, L: L, grav: grav, amp: amp, omega: omega}
}

// pivot returns the pivot's position, velocity and acceleration along x at t.
func (p *pendulum) pivot(t float64) (xp, dxp, ddxp float64) {
	s, c := math.Sincos(p.omega * t)
	return p.amp * s, p.amp * p.omega * c, -p.amp * p.omega * p.omega * s
}

func (p *pendulum) Size() (nq, nc int) { return 2, 1 }

func (p *pendulum) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, p.m)
	dst.Set(0, 1, 0)
	dst.Set(1, 0, 0)
	dst.Set(1, 1, p.m)
}

func (p *pendulum) Force(dst []float64, t float64, q, v []float64) {
	dst[0] = -p.c * v[0]
	dst[1] = -p.m*p.grav - p.c*v[1]
}

func (p *pendulum) Constraint(dst []float64, t float64, q []float64) {
	xp, _, _ := p.pivot(t)
	dx := q[0] - xp
	dst[0] = (dx*dx + q[1]*q[1] - p.L*p.L) / 2
}

func (p *pendulum) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	xp, _, _ := p.pivot(t)
	dst.Set(0, 0, q[0]-xp)
	dst.Set(0, 1, q[1])
}

func (p *pendulum) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	xp, dxp, _ := p.pivot(t)
	dst[0] = -(q[0] - xp) * dxp
}

func (p *pendulum) Gamma(dst []float64, t float64, q, v []float64) {
	xp, dxp, ddxp := p.pivot(t)
	rx := v[0] - dxp
	dst[0] = -rx*rx - v[1]*v[1] + (q[0]-xp)*ddxp
}

func (p *pendulum) ConstantMass() bool { return true }

func (p *pendulum) MassDerivative(dst *mat.Dense, t float64, q, a []float64) { dst.Zero() }

// ConstraintForceDerivative is ∂(Gᵀλ)/∂q = λ·I (the Hessian of g is I).
func (p *pendulum) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	dst.Zero()
	dst.Set(0, 0, lambda[0])
	dst.Set(1, 1, lambda[0])
}

func (p *pendulum) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) { dst.Zero() }

func (p *pendulum) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	dst.Zero()
	dst.Set(0, 0, -p.c)
	dst.Set(1, 1, -p.c)
}

func (p *pendulum) CoordinateName(i int) string { return [...]string{"bob.x", "bob.y"}[i] }
func (p *pendulum) ConstraintName(i int) string { return "rod" }

func (p *pendulum) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	return p.m * (v[0]*v[0] + v[1]*v[1]) / 2, p.m * p.grav * q[1]
}

// pendulumStart returns the consistent state at t = 0 with the rod at angle phi0 from the
// downward vertical, turning at omega0 relative to the pivot:
// q = x_p + L(sin φ, −cos φ), v = x_p' + Lω(cos φ, sin φ), and a, λ from eq. 17.
func pendulumStart(p *pendulum, phi0, omega0 float64) State {
	xp, dxp, _ := p.pivot(0)
	s, c := math.Sincos(phi0)
	q := []float64{xp + p.L*s, -p.L * c}
	v := []float64{dxp + p.L*omega0*c, p.L * omega0 * s}
	return consistentState(p, 0, q, v)
}

// pendulumAngle integrates the angle equation of the fixed-pivot pendulum,
//
//	φ'' = −(grav/L) sin φ − (c/m) φ',
//
// by the classical Runge-Kutta method with about n steps per unit time, independently of
// the Cartesian DAE; its error is O(h⁴) (about 1e-15 relative for h = 1e-4 on the test
// pendulums). It returns the Cartesian (q, v) at t.
func pendulumAngle(p *pendulum, phi0, omega0, t float64, n int) (q, v [2]float64) {
	if p.amp != 0 {
		panic("pendulumAngle: only for a fixed pivot")
	}
	steps := int(math.Ceil(math.Abs(t) * float64(n)))
	phi, om := phi0, omega0
	if steps > 0 {
		h := t / float64(steps)
		k := p.grav / p.L
		d := p.c / p.m
		rhs := func(phi, om float64) (float64, float64) { return om, -k*math.Sin(phi) - d*om }
		for range steps {
			k1p, k1o := rhs(phi, om)
			k2p, k2o := rhs(phi+h/2*k1p, om+h/2*k1o)
			k3p, k3o := rhs(phi+h/2*k2p, om+h/2*k2o)
			k4p, k4o := rhs(phi+h*k3p, om+h*k3o)
			phi += h / 6 * (k1p + 2*k2p + 2*k3p + k4p)
			om += h / 6 * (k1o + 2*k2o + 2*k3o + k4o)
		}
	}
	s, c := math.Sincos(phi)
	return [2]float64{p.L * s, -p.L * c}, [2]float64{p.L * om * c, p.L * om * s}
}

// chain is n point masses m joined by massless rods of length L, the first hinged at the
// origin, in Cartesian coordinates q = (x₁, y₁, …, x_n, y_n), gravity grav along −y and
// optional viscous damping c on every mass:
//
//	g_i = (|p_i − p_{i−1}|² − L²)/2   (p₀ = 0),   G_i = ∂g_i/∂q,   g_t = 0,
//	γ_i = −|v_i − v_{i−1}|².
type chain struct {
	n          int
	m, L, grav float64
	c          float64
}

// newChain returns an undamped chain of n links.
func newChain(n int, m, L, grav float64) *chain { return &chain{n: n, m: m, L: L, grav: grav} }

func (c *chain) Size() (nq, nc int) { return 2 * c.n, c.n }

func (c *chain) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for i := range 2 * c.n {
		dst.Set(i, i, c.m)
	}
}

func (c *chain) Force(dst []float64, t float64, q, v []float64) {
	for i := range c.n {
		dst[2*i] = -c.c * v[2*i]
		dst[2*i+1] = -c.m*c.grav - c.c*v[2*i+1]
	}
}

// rel returns p_i − p_{i−1} (or of velocities) for link i.
func (c *chain) rel(x []float64, i int) (dx, dy float64) {
	dx, dy = x[2*i], x[2*i+1]
	if i > 0 {
		dx -= x[2*i-2]
		dy -= x[2*i-1]
	}
	return dx, dy
}

func (c *chain) Constraint(dst []float64, t float64, q []float64) {
	for i := range c.n {
		dx, dy := c.rel(q, i)
		dst[i] = (dx*dx + dy*dy - c.L*c.L) / 2
	}
}

func (c *chain) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for i := range c.n {
		dx, dy := c.rel(q, i)
		dst.Set(i, 2*i, dx)
		dst.Set(i, 2*i+1, dy)
		if i > 0 {
			dst.Set(i, 2*i-2, -dx)
			dst.Set(i, 2*i-1, -dy)
		}
	}
}

func (c *chain) ConstraintTimeDerivative(dst []float64, t float64, q []float64) { clear(dst) }

func (c *chain) Gamma(dst []float64, t float64, q, v []float64) {
	for i := range c.n {
		dx, dy := c.rel(v, i)
		dst[i] = -dx*dx - dy*dy
	}
}

func (c *chain) ConstantMass() bool { return true }

func (c *chain) MassDerivative(dst *mat.Dense, t float64, q, a []float64) { dst.Zero() }

// ConstraintForceDerivative is Σ λ_i ∂²g_i/∂q²: link i adds λ_i·[I −I; −I I] on the
// coordinates of masses i−1 and i (only +I on mass 0 for the hinge).
func (c *chain) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	dst.Zero()
	for i := range c.n {
		l := lambda[i]
		for k := range 2 {
			j := 2*i + k
			dst.Set(j, j, dst.At(j, j)+l)
			if i > 0 {
				jp := j - 2
				dst.Set(jp, jp, dst.At(jp, jp)+l)
				dst.Set(j, jp, dst.At(j, jp)-l)
				dst.Set(jp, j, dst.At(jp, j)-l)
			}
		}
	}
}

func (c *chain) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) { dst.Zero() }

func (c *chain) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	dst.Zero()
	for i := range 2 * c.n {
		dst.Set(i, i, -c.c)
	}
}

func (c *chain) CoordinateName(i int) string {
	return fmt.Sprintf("mass%d.%c", i/2+1, "xy"[i%2])
}

func (c *chain) ConstraintName(i int) string { return fmt.Sprintf("link%d", i+1) }

func (c *chain) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	for i := range c.n {
		kinetic += c.m * (v[2*i]*v[2*i] + v[2*i+1]*v[2*i+1]) / 2
		potential += c.m * c.grav * q[2*i+1]
	}
	return kinetic, potential
}

// chainStart returns the consistent state at t = 0, at rest, with link i at angle phi[i]
// from the downward vertical; phi == nil bends the chain from horizontal (link 1) toward
// hanging (φ_i = π/2·(1 − i/n)), a pose with no singular KKT matrix.
func chainStart(c *chain, phi []float64) State {
	q := make([]float64, 2*c.n)
	v := make([]float64, 2*c.n)
	var x, y float64
	for i := range c.n {
		a := math.Pi / 2 * (1 - float64(i)/float64(c.n))
		if phi != nil {
			a = phi[i]
		}
		s, co := math.Sincos(a)
		x += c.L * s
		y -= c.L * co
		q[2*i], q[2*i+1] = x, y
	}
	return consistentState(c, 0, q, v)
}

// consistentState completes (t, q, v) to a State with a and λ from the KKT system of seed
// 002, eq. 17: [M Gᵀ; G 0](a, λ) = (f, γ). q and v must already satisfy g = 0 and
// G v + g_t = 0.
func consistentState(sys dae.System, t float64, q, v []float64) State {
	nq, nc := sys.Size()
	s := NewState(nq, nc)
	s.T = t
	copy(s.Q, q)
	copy(s.V, v)
	M := mat.NewDense(nq, nq, nil)
	var G *mat.Dense
	sys.Mass(M, t, q)
	sys.Force(s.A, t, q, v)
	k := linalg.NewKKT(nq, nc)
	var err error
	if nc > 0 {
		G = mat.NewDense(nc, nq, nil)
		sys.ConstraintJacobian(G, t, q)
		sys.Gamma(s.Lambda, t, q, v)
		err = k.FactorizeSym(M, G)
	} else {
		err = k.Factorize(M, nil, nil, 0)
	}
	if err != nil {
		panic("consistentState: singular KKT matrix: " + err.Error())
	}
	k.Solve(s.A, s.Lambda)
	return s
}

// TestSystemsDerivatives checks the inline systems' analytic derivatives against central
// finite differences (dae.Check; 1e-6 is its documented tolerance for well-scaled problems).
func TestSystemsDerivatives(t *testing.T) {
	p := newDrivenPendulum(1.3, 0.8, 9.81, 0.1, 3)
	p.c = 0.2
	ps := pendulumStart(p, 0.7, -0.4)
	ps.T = 0.3 // off the start so that x_p, x_p', x_p'' are all nonzero
	ch := newChain(4, 0.5, 0.7, 9.81)
	ch.c = 0.1
	cs := chainStart(ch, nil)
	for i := range cs.V {
		cs.V[i] = 0.1 * float64(i+1) // any v will do for derivative checks
	}
	for _, c := range []struct {
		name string
		sys  dae.System
		s    State
	}{{"pendulum", p, ps}, {"chain4", ch, cs}} {
		lambda := make([]float64, len(c.s.Lambda))
		for i := range lambda {
			lambda[i] = 1.5 - float64(i)
		}
		_, err := dae.Check(c.sys, dae.CheckPoint{T: c.s.T, Q: c.s.Q, V: c.s.V, A: c.s.A, Lambda: lambda}, 1e-6)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestSystemsConsistentStart checks that the start states satisfy the constraints at all
// three levels (to rounding: 1e-14 relative to L² and L·|v|).
func TestSystemsConsistentStart(t *testing.T) {
	p := newDrivenPendulum(1, 1, 9.81, 0.2, 2)
	ch := newChain(10, 1, 1, 9.81)
	for _, c := range []struct {
		name string
		sys  dae.System
		s    State
	}{{"driven pendulum", p, pendulumStart(p, 0.5, 1.5)}, {"chain10", ch, chainStart(ch, nil)}} {
		r := dae.NewResidualMeter(c.sys).Measure(c.s.T, c.s.Q, c.s.V, c.s.A)
		if r.Pos > 1e-14*10 || r.Vel > 1e-14*10 || r.Acc > 1e-12 { // ×10: sums over up to 10 links
			t.Errorf("%s: start residuals %+v, want ~rounding", c.name, r)
		}
	}
}

// stepAllocs takes warm Steps of the initialized m toward +Inf, failing t on an error, and
// returns the allocations of one more Step averaged over runs (testing.AllocsPerRun): the
// "a step allocates nothing after warm-up" rule.
func stepAllocs(t *testing.T, m interface{ Step(tEnd float64) error }, warm, runs int) float64 {
	t.Helper()
	for range warm {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatalf("%T: warm-up step: %v", m, err)
		}
	}
	return testing.AllocsPerRun(runs, func() { _ = m.Step(math.Inf(1)) })
}

// driftByHalf returns the largest position residual ‖g‖ seen by its observer at times up
// to tMid (half[0]) and after (half[1]): the drift test of the formulations without a
// position projection.
func driftByHalf(sys dae.System, tMid float64) (half *[2]float64, observe func(*State) error) {
	half = new([2]float64)
	meter := dae.NewResidualMeter(sys)
	return half, func(s *State) error {
		i := 0
		if s.T > tMid {
			i = 1
		}
		half[i] = math.Max(half[i], meter.Measure(s.T, s.Q, s.V, nil).Pos)
		return nil
	}
}

// benchExplicitSteps times fixed steps of h = 1e-3 of m on sys after three warm-up steps,
// reporting allocations and function evaluations per step (the explicit methods' cost).
func benchExplicitSteps(b *testing.B, m Method, sys dae.System, start State) {
	if err := m.Init(sys, start, StepControl{FixedH: 1e-3}); err != nil {
		b.Fatal(err)
	}
	for range 3 {
		if err := m.Step(1e9); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := m.Step(1e9); err != nil {
			b.Fatal(err)
		}
	}
	s := m.Stats()
	b.ReportMetric(float64(s.FuncEvals)/float64(s.Steps), "evals/step")
}

// namedStart is a test system with its consistent start.
type namedStart struct {
	name  string
	sys   dae.System
	start State
}

// driftCases are the systems of the explicit methods' 10-s drift tests: the pendulum, the
// driven pendulum (rheonomic, g_t ≠ 0) and chain10.
func driftCases() []namedStart {
	dp := newDrivenPendulum(1, 1, 9.81, 0.1, 5)
	ch := newChain(10, 1, 0.5, 9.81)
	p, ps, _, _ := testPendulum()
	return []namedStart{{"pendulum", p, ps}, {"driven pendulum", dp, pendulumStart(dp, 0.5, 0)}, {"chain10", ch, chainStart(ch, nil)}}
}
