package problems

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
)

// Pendulum is the mathematical pendulum of seed 002, Example 1: a point mass on a massless
// rod of length l about the origin, in Cartesian coordinates q = (x, y) with gravity along
// −y (seed 002, eq. 6):
//
//	m ẍ = −x λ,   m ÿ = −m g_grav − y λ,   0 = (x² + y² − l²)/2,
//
// so M = m I, f = (0, −m g_grav), G = (x, y), g_t = 0 and γ = −(ẋ² + ẏ²). λ is the rod
// force per unit length (tension/l). The motion starts at rest at the angle Alpha0 between
// rod and −y axis, x = l sin α, y = −l cos α.
type Pendulum struct {
	M, Length, Grav float64 // m > 0, l > 0, g_grav
	Alpha0          float64 // initial angle α₀ [rad], |α₀| < π; α̇₀ = 0
}

var (
	_ dae.System                    = Pendulum{}
	_ dae.ConstantMass              = Pendulum{}
	_ dae.ConstraintForceDerivative = Pendulum{}
	_ dae.ForceDerivative           = Pendulum{}
	_ dae.Namer                     = Pendulum{}
	_ dae.EnergyInvariant           = Pendulum{}
)

// DefaultPendulum has the parameters of seed 002, Example 1: m = 1 kg, l = 1 m,
// g_grav = 9.81 m/s², α₀ = 5°, α̇₀ = 0.
func DefaultPendulum() Pendulum {
	return Pendulum{M: 1, Length: 1, Grav: 9.81, Alpha0: 5 * math.Pi / 180}
}

// pendulumTEnd is 1.25 s, about 0.62 periods: x, ẋ and λ are all far from zero there, so
// relative errors of every block are meaningful.
const pendulumTEnd = 1.25

func pendulumProblem() Problem {
	p := DefaultPendulum()
	start := integrate.NewState(2, 1)
	p.Exact(0, &start)
	ref := integrate.NewState(2, 1)
	p.Exact(pendulumTEnd, &ref)
	return Problem{
		Name:   "pendulum",
		Title:  "mathematical pendulum in Cartesian coordinates, 5° from rest",
		Source: "seed 002 (Arnold 2016), Example 1, eqs. 5-6 (m = 1, l = 1, g_grav = 9.81, α₀ = 5°, α̇₀ = 0); hidden constraints Example 4, eq. 15",
		System: p,
		T0:     0, TEnd: pendulumTEnd,
		Start: start,
		Ref: Reference{
			T: pendulumTEnd, Q: ref.Q, V: ref.V, A: ref.A, Lambda: ref.Lambda,
			SCDIndices: []int{0, 1},
			Source:     "exact solution of eq. 5 by Jacobi elliptic functions, sin(α/2) = k·cd(ω t, k), k = sin(α₀/2), ω = √(g/l) (sn, cn, dn by the AGM, Abramowitz & Stegun 16.4); λ from eq. 15; accurate to rounding (~1e-15)",
		},
		Tol: 1e-6,
	}
}

// PendulumExact writes the exact solution of the default pendulum (DefaultPendulum) at
// time t into dst, whose slices must have lengths 2, 2, 2, 1.
func PendulumExact(t float64, dst *integrate.State) { DefaultPendulum().Exact(t, dst) }

// Exact writes the exact motion of p at time t into dst (Q, V, A of length 2, Lambda of
// length 1). The angle solves α̈ = −(g/l) sin α (seed 002, eq. 5) from rest at α₀:
//
//	sin(α/2) = k cd(u, k),   α̇ = −2kk'ω sn(u, k)/dn(u, k),   u = ω t,
//
// with k = sin(α₀/2), k' = cos(α₀/2), ω = √(g/l) (the standard solution in terms of
// sn(K − u) = cd(u) and cn(K − u) = k' sd(u)). x, y and their derivatives follow from
// x = l sin α, y = −l cos α, and λ = m(−g y + ẋ² + ẏ²)/l² (seed 002, eq. 15).
func (p Pendulum) Exact(t float64, dst *integrate.State) {
	if len(dst.Q) != 2 || len(dst.V) != 2 || len(dst.A) != 2 || len(dst.Lambda) != 1 {
		panic("problems: Pendulum.Exact: dst must have len(Q), len(V), len(A) = 2 and len(Lambda) = 1")
	}
	l := p.Length
	w := math.Sqrt(p.Grav / l)
	k := math.Sin(p.Alpha0 / 2)
	kc := math.Cos(p.Alpha0 / 2)
	sn, cn, dn := jacobiSNCNDN(w*t, k*k)
	// sin α = 2 sin(α/2) cos(α/2) with cos(α/2) = k'/dn (from dn² − k² cn² = k'²).
	sinA := 2 * k * kc * cn / (dn * dn)
	cosA := 1 - 2*k*k*cn*cn/(dn*dn)
	da := -2 * k * kc * w * sn / dn
	dda := -w * w * sinA
	dst.T = t
	dst.Q[0], dst.Q[1] = l*sinA, -l*cosA
	dst.V[0], dst.V[1] = l*da*cosA, l*da*sinA
	dst.A[0] = l * (dda*cosA - da*da*sinA)
	dst.A[1] = l * (dda*sinA + da*da*cosA)
	v2 := dst.V[0]*dst.V[0] + dst.V[1]*dst.V[1]
	dst.Lambda[0] = p.M * (-p.Grav*dst.Q[1] + v2) / (l * l)
}

// jacobiSNCNDN returns the Jacobi elliptic functions sn, cn, dn of argument u and
// parameter m = k² ∈ [0, 1) by the descending arithmetic-geometric mean (Abramowitz &
// Stegun 16.4): a₀ = 1, b₀ = √(1−m), c₀ = √m; aₙ = (aₙ₋₁+bₙ₋₁)/2, bₙ = √(aₙ₋₁bₙ₋₁),
// cₙ = (aₙ₋₁−bₙ₋₁)/2 until c_N is negligible; φ_N = 2^N a_N u and
// sin(2φₙ₋₁ − φₙ) = (cₙ/aₙ) sin φₙ; then sn = sin φ₀, cn = cos φ₀,
// dn = cos φ₀ / cos(φ₁ − φ₀).
func jacobiSNCNDN(u, m float64) (sn, cn, dn float64) {
	// The AGM converges quadratically: fewer than 10 halvings take c/a to rounding level
	// for m ≤ 1 − 1e-12; maxN only guards against a rounding stall.
	const maxN = 16
	var a, c [maxN + 1]float64
	a[0] = 1
	b := math.Sqrt(1 - m)
	c[0] = math.Sqrt(m)
	n := 0
	for n < maxN && math.Abs(c[n]) > 1e-16*a[n] {
		a[n+1] = (a[n] + b) / 2
		c[n+1] = (a[n] - b) / 2
		b = math.Sqrt(a[n] * b)
		n++
	}
	phi := math.Ldexp(a[n]*u, n)
	phiPrev := phi
	for i := n; i > 0; i-- {
		phiPrev = phi
		phi = (phi + math.Asin(c[i]/a[i]*math.Sin(phi))) / 2
	}
	sn, cn = math.Sin(phi), math.Cos(phi)
	if n == 0 {
		return sn, cn, 1
	}
	return sn, cn, cn / math.Cos(phiPrev-phi)
}

// Size returns nq = 2, nc = 1.
func (p Pendulum) Size() (nq, nc int) { return 2, 1 }

// Mass writes M = m I.
func (p Pendulum) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, p.M)
	dst.Set(0, 1, 0)
	dst.Set(1, 0, 0)
	dst.Set(1, 1, p.M)
}

// ConstantMass reports that M does not depend on t or q.
func (p Pendulum) ConstantMass() bool { return true }

// Force writes f = (0, −m g_grav).
func (p Pendulum) Force(dst []float64, t float64, q, v []float64) {
	dst[0], dst[1] = 0, -p.M*p.Grav
}

// ForceDerivativeQ writes ∂f/∂q = 0.
func (p Pendulum) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) { dst.Zero() }

// ForceDerivativeV writes ∂f/∂v = 0.
func (p Pendulum) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) { dst.Zero() }

// Constraint writes g = (x² + y² − l²)/2 (seed 002, eq. 6c).
func (p Pendulum) Constraint(dst []float64, t float64, q []float64) {
	dst[0] = (q[0]*q[0] + q[1]*q[1] - p.Length*p.Length) / 2
}

// ConstraintJacobian writes G = (x, y).
func (p Pendulum) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, q[0])
	dst.Set(0, 1, q[1])
}

// ConstraintTimeDerivative writes g_t = 0.
func (p Pendulum) ConstraintTimeDerivative(dst []float64, t float64, q []float64) { dst[0] = 0 }

// Gamma writes γ = −(ẋ² + ẏ²) (seed 002, Example 4).
func (p Pendulum) Gamma(dst []float64, t float64, q, v []float64) {
	dst[0] = -(v[0]*v[0] + v[1]*v[1])
}

// ConstraintForceDerivative writes ∂(Gᵀλ)/∂q = λ I.
func (p Pendulum) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	dst.Set(0, 0, lambda[0])
	dst.Set(0, 1, 0)
	dst.Set(1, 0, 0)
	dst.Set(1, 1, lambda[0])
}

// CoordinateName names x and y.
func (p Pendulum) CoordinateName(i int) string {
	if i == 0 {
		return "x"
	}
	return "y"
}

// ConstraintName names the rod.
func (p Pendulum) ConstraintName(i int) string { return "rod length" }

// Energy returns T = m(ẋ² + ẏ²)/2 and U = m g_grav y.
func (p Pendulum) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	return p.M * (v[0]*v[0] + v[1]*v[1]) / 2, p.M * p.Grav * q[1]
}

// NonConservativePower is 0: gravity is the only force (dae.EnergyInvariant).
func (p Pendulum) NonConservativePower(t float64, q, v []float64) float64 { return 0 }

// DrivingPower is 0: the rod is scleronomic (dae.EnergyInvariant).
func (p Pendulum) DrivingPower(t float64, q, lambda []float64) float64 { return 0 }
