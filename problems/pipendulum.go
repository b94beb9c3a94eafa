package problems

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
)

// PIPendulum is a pendulum held at an angle by a PI controller whose integrator is a
// first-order state X (seed 004, eq. 8a: "controls active in the system"). The plant is
// the Cartesian pendulum of seed 002, Example 1 (q = (x, y), rod length l, pivot at the
// origin) with viscous damping −c v; the controller measures φ = atan2(x, −y), the angle
// from the downward vertical, and applies the torque τ about the pivot:
//
//	X' = φ − φ_ref,                      τ = −K_p (φ − φ_ref) − K_i X,
//	M = m I,  f = (−c ẋ, −m g − c ẏ),    f_X = τ·(−y, x)/(x² + y²),
//	g = (x² + y² − l²)/2,  G = (x, y),   g_t = 0,  γ = −(ẋ² + ẏ²).
//
// f_X is the force perpendicular to the rod whose moment about the pivot is τ. In the
// angle the same system is the ODE
//
//	m l² φ'' = −m g l sin φ − c l² φ' + τ,    X' = φ − φ_ref,
//
// which gives the reference independently of the DAE. At rest at φ_ref the integrator
// holds the gravity torque: X = −m g l sin(φ_ref)/K_i.
type PIPendulum struct {
	M, Length, Grav, Damping float64 // m, l, g, c
	Kp, Ki, PhiRef           float64 // controller gains [N m/rad, N m/(rad s)] and set point [rad]
}

var (
	_ dae.System                    = PIPendulum{}
	_ dae.FirstOrder                = PIPendulum{}
	_ dae.FirstOrderDerivative      = PIPendulum{}
	_ dae.ConstantMass              = PIPendulum{}
	_ dae.ConstraintForceDerivative = PIPendulum{}
	_ dae.ForceDerivative           = PIPendulum{}
	_ dae.Namer                     = PIPendulum{}
)

// DefaultPIPendulum: m = 1 kg, l = 1 m, g = 9.81 m/s², c = 0.5 N s/m, K_p = 20 N m/rad,
// K_i = 10 N m/(rad s), φ_ref = 0.5 rad. The linearized closed loop s³ + 0.5 s² + 29.8 s + 10
// (about φ = 0) is stable (Routh: 0.5·29.8 > 10) and lightly damped, so over
// PIPendulumTEnd the pendulum swings toward φ_ref while X builds up the holding torque.
func DefaultPIPendulum() PIPendulum {
	return PIPendulum{M: 1, Length: 1, Grav: 9.81, Damping: 0.5, Kp: 20, Ki: 10, PhiRef: 0.5}
}

// PIPendulumTEnd is the end of the problem's time span, 3 s (about 2.6 periods of the
// closed loop).
const PIPendulumTEnd = 3.0

// PIPendulumProblem returns the PI-controlled pendulum, hanging at rest with X = 0 at t = 0,
// with its reference at PIPendulumTEnd (Ref.Q, Ref.V, Ref.A, Ref.Lambda; Reference has no
// X, whose reference is the third result of AngleReference).
func PIPendulumProblem() Problem {
	p := DefaultPIPendulum()
	start := p.State(0, 0, 0, 0)
	phi, om, x := p.AngleReference(PIPendulumTEnd)
	ref := p.State(PIPendulumTEnd, phi, om, x)
	return Problem{
		Name:   "pipendulum",
		Title:  "pendulum held by a PI controller whose integrator is a first-order state",
		Source: "seed 004, eq. 8a (control states coupled to the mechanics); plant: seed 002, Example 1, eq. 6, with damping; parameters of DefaultPIPendulum",
		System: p,
		T0:     0, TEnd: PIPendulumTEnd,
		Start: start,
		Ref: Reference{
			T: PIPendulumTEnd, Q: ref.Q, V: ref.V, A: ref.A, Lambda: ref.Lambda,
			SCDIndices: []int{0, 1},
			Source:     "the angle ODE (φ, φ', X) by classical Runge-Kutta with h = 2.5e-4 and 1.25e-4 and Richardson extrapolation (correction 3.5e-14, error below it; see TestPIPendulumReference)",
		},
		Tol: 1e-6,
	}
}

// AngleReference integrates the angle form of the system (see PIPendulum) from rest at
// φ = 0 with X = 0 to t by classical Runge-Kutta at steps t/n and t/(2n), n = ⌈4000 t⌉,
// and extrapolates (Richardson, order 4): y = y_{h/2} + (y_{h/2} − y_h)/15.
func (p PIPendulum) AngleReference(t float64) (phi, omega, x float64) {
	n := int(math.Ceil(4000 * math.Abs(t)))
	a1, b1, c1 := p.rk4(t, n)
	a2, b2, c2 := p.rk4(t, 2*n)
	return a2 + (a2-a1)/15, b2 + (b2-b1)/15, c2 + (c2-c1)/15
}

// rk4 integrates (φ, ω, X) from rest at 0 to t in n classical Runge-Kutta steps.
func (p PIPendulum) rk4(t float64, n int) (phi, om, x float64) {
	if n == 0 {
		return 0, 0, 0
	}
	h := t / float64(n)
	ml2 := p.M * p.Length * p.Length
	rhs := func(phi, om, x float64) (float64, float64, float64) {
		tau := -p.Kp*(phi-p.PhiRef) - p.Ki*x
		return om, (-p.M*p.Grav*p.Length*math.Sin(phi) - p.Damping*p.Length*p.Length*om + tau) / ml2, phi - p.PhiRef
	}
	for range n {
		k1p, k1o, k1x := rhs(phi, om, x)
		k2p, k2o, k2x := rhs(phi+h/2*k1p, om+h/2*k1o, x+h/2*k1x)
		k3p, k3o, k3x := rhs(phi+h/2*k2p, om+h/2*k2o, x+h/2*k2x)
		k4p, k4o, k4x := rhs(phi+h*k3p, om+h*k3o, x+h*k3x)
		phi += h / 6 * (k1p + 2*k2p + 2*k3p + k4p)
		om += h / 6 * (k1o + 2*k2o + 2*k3o + k4o)
		x += h / 6 * (k1x + 2*k2x + 2*k3x + k4x)
	}
	return phi, om, x
}

// State returns the consistent Cartesian state at t for angle φ, rate ω = φ' and
// integrator state X: q = l(sin φ, −cos φ), v = lω(cos φ, sin φ), a from the angle ODE
// (φ” tangential, lω² centripetal), λ = (m g cos φ + m l ω²)/l from the radial balance.
func (p PIPendulum) State(t, phi, omega, x float64) integrate.State {
	s := integrate.NewState(2, 1)
	s.X = []float64{x}
	s.T = t
	l := p.Length
	sn, cs := math.Sincos(phi)
	tau := -p.Kp*(phi-p.PhiRef) - p.Ki*x
	acc := (-p.M*p.Grav*l*sn - p.Damping*l*l*omega + tau) / (p.M * l * l)
	s.Q[0], s.Q[1] = l*sn, -l*cs
	s.V[0], s.V[1] = l*omega*cs, l*omega*sn
	s.A[0] = l*acc*cs - l*omega*omega*sn
	s.A[1] = l*acc*sn + l*omega*omega*cs
	s.Lambda[0] = (p.M*p.Grav*cs + p.M*l*omega*omega) / l
	return s
}

// Size returns nq = 2, nc = 1.
func (p PIPendulum) Size() (nq, nc int) { return 2, 1 }

// Mass writes m I.
func (p PIPendulum) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, p.M)
	dst.Set(0, 1, 0)
	dst.Set(1, 0, 0)
	dst.Set(1, 1, p.M)
}

// ConstantMass reports that M is constant.
func (p PIPendulum) ConstantMass() bool { return true }

// Force writes gravity and damping, f = (−c ẋ, −m g − c ẏ); the controller is StateForce.
func (p PIPendulum) Force(dst []float64, t float64, q, v []float64) {
	dst[0] = -p.Damping * v[0]
	dst[1] = -p.M*p.Grav - p.Damping*v[1]
}

// ForceDerivativeQ writes ∂f/∂q = 0.
func (p PIPendulum) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) { dst.Zero() }

// ForceDerivativeV writes ∂f/∂v = −c I.
func (p PIPendulum) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	dst.Zero()
	dst.Set(0, 0, -p.Damping)
	dst.Set(1, 1, -p.Damping)
}

// Constraint writes g = (x² + y² − l²)/2.
func (p PIPendulum) Constraint(dst []float64, t float64, q []float64) {
	dst[0] = (q[0]*q[0] + q[1]*q[1] - p.Length*p.Length) / 2
}

// ConstraintJacobian writes G = (x, y).
func (p PIPendulum) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, q[0])
	dst.Set(0, 1, q[1])
}

// ConstraintTimeDerivative writes g_t = 0.
func (p PIPendulum) ConstraintTimeDerivative(dst []float64, t float64, q []float64) { dst[0] = 0 }

// Gamma writes γ = −(ẋ² + ẏ²).
func (p PIPendulum) Gamma(dst []float64, t float64, q, v []float64) {
	dst[0] = -(v[0]*v[0] + v[1]*v[1])
}

// ConstraintForceDerivative writes ∂(Gᵀλ)/∂q = λ I.
func (p PIPendulum) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	dst.Zero()
	dst.Set(0, 0, lambda[0])
	dst.Set(1, 1, lambda[0])
}

// StateSize returns 1: the controller's integrator.
func (p PIPendulum) StateSize() int { return 1 }

// angle returns φ = atan2(x, −y), the unit-moment direction n = (−y, x)/(x² + y²) (also
// ∂φ/∂q) and the torque τ.
func (p PIPendulum) angle(q, x []float64) (phi, nx, ny, tau float64) {
	r2 := q[0]*q[0] + q[1]*q[1]
	phi = math.Atan2(q[0], -q[1])
	return phi, -q[1] / r2, q[0] / r2, -p.Kp*(phi-p.PhiRef) - p.Ki*x[0]
}

// StateRate writes X' = φ − φ_ref.
func (p PIPendulum) StateRate(dst []float64, t float64, q, v, x []float64) {
	phi, _, _, _ := p.angle(q, x)
	dst[0] = phi - p.PhiRef
}

// StateForce writes f_X = τ·(−y, x)/(x² + y²).
func (p PIPendulum) StateForce(dst []float64, t float64, q, v, x []float64) {
	_, nx, ny, tau := p.angle(q, x)
	dst[0], dst[1] = tau*nx, tau*ny
}

// StateRateDerivative writes ∂F/∂q = n = ∂φ/∂q, ∂F/∂v = 0, ∂F/∂X = 0.
func (p PIPendulum) StateRateDerivative(dq, dv, dx *mat.Dense, t float64, q, v, x []float64) {
	_, nx, ny, _ := p.angle(q, x)
	dq.Set(0, 0, nx)
	dq.Set(0, 1, ny)
	dv.Zero()
	dx.Zero()
}

// StateForceDerivative writes ∂f_X/∂q = −K_p n nᵀ + τ ∂n/∂q (∂τ/∂q = −K_p n), ∂f_X/∂v = 0
// and ∂f_X/∂X = −K_i n, with ∂n/∂q = [2xy, y²−x²; y²−x², −2xy]/(x²+y²)².
func (p PIPendulum) StateForceDerivative(dq, dv, dx *mat.Dense, t float64, q, v, x []float64) {
	_, nx, ny, tau := p.angle(q, x)
	r2 := q[0]*q[0] + q[1]*q[1]
	r4 := r2 * r2
	xy, d := q[0]*q[1], q[1]*q[1]-q[0]*q[0]
	dq.Set(0, 0, -p.Kp*nx*nx+tau*2*xy/r4)
	dq.Set(0, 1, -p.Kp*nx*ny+tau*d/r4)
	dq.Set(1, 0, -p.Kp*ny*nx+tau*d/r4)
	dq.Set(1, 1, -p.Kp*ny*ny-tau*2*xy/r4)
	dv.Zero()
	dx.Set(0, 0, -p.Ki*nx)
	dx.Set(1, 0, -p.Ki*ny)
}

// CoordinateName names x and y of the bob.
func (p PIPendulum) CoordinateName(i int) string { return [...]string{"bob.x", "bob.y"}[i] }

// ConstraintName names the rod.
func (p PIPendulum) ConstraintName(i int) string { return "rod length" }
