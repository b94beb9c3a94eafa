package problems

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// SpringPendulum is the stiff spring pendulum of seed 003 (Yen, Petzold, Raha 1998), eq.
// 4.3: a unit mass on a massless spring of natural length 1 and stiffness 1/ε² about the
// origin, unit gravity along +y (eq. 4.3d: v̇ = 1 − yλ), in Cartesian coordinates q = (x, y)
// with no constraint: the seed's algebraic variable
//
//	ε² λ = (r − 1)/r,   r = √(x² + y²)                                       (eq. 4.3e)
//
// is the spring force per unit length, eliminated here, so f = (−x λ, 1 − y λ), M = I.
// The total energy is E = (ẋ² + ẏ²)/2 + (r − 1)²/(2ε²) − y (the seed's V plus gravity).
type SpringPendulum struct {
	Eps2 float64 // ε², the compliance of the spring (seed 003: 1e-3)
}

var (
	_ dae.System          = SpringPendulum{}
	_ dae.ConstantMass    = SpringPendulum{}
	_ dae.ForceDerivative = SpringPendulum{}
	_ dae.EnergyInvariant = SpringPendulum{}
	_ dae.Namer           = SpringPendulum{}
)

// Size returns nq = 2, nc = 0.
func (p SpringPendulum) Size() (nq, nc int) { return 2, 0 }

// Mass writes M = I.
func (p SpringPendulum) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, 1)
	dst.Set(0, 1, 0)
	dst.Set(1, 0, 0)
	dst.Set(1, 1, 1)
}

// ConstantMass reports that M does not depend on t or q.
func (p SpringPendulum) ConstantMass() bool { return true }

// Lambda returns the seed's algebraic variable λ = (r − 1)/(ε² r) of eq. 4.3e.
func (p SpringPendulum) Lambda(q []float64) float64 {
	r := math.Hypot(q[0], q[1])
	return (r - 1) / (p.Eps2 * r)
}

// Force writes f = (−x λ, 1 − y λ) (eqs. 4.3c, d).
func (p SpringPendulum) Force(dst []float64, t float64, q, v []float64) {
	l := p.Lambda(q)
	dst[0], dst[1] = -q[0]*l, 1-q[1]*l
}

// ForceDerivativeQ writes ∂f/∂q = −λ I − q (∂λ/∂q)ᵀ with ∂λ/∂q = q/(ε² r³).
func (p SpringPendulum) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	l := p.Lambda(q)
	r := math.Hypot(q[0], q[1])
	c := 1 / (p.Eps2 * r * r * r)
	for i := range 2 {
		for j := range 2 {
			d := -q[i] * c * q[j]
			if i == j {
				d -= l
			}
			dst.Set(i, j, d)
		}
	}
}

// ForceDerivativeV writes ∂f/∂v = 0.
func (p SpringPendulum) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) { dst.Zero() }

// Constraint, ConstraintJacobian, ConstraintTimeDerivative and Gamma: no constraints.
func (p SpringPendulum) Constraint(dst []float64, t float64, q []float64)               {}
func (p SpringPendulum) ConstraintJacobian(dst *mat.Dense, t float64, q []float64)      {}
func (p SpringPendulum) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {}
func (p SpringPendulum) Gamma(dst []float64, t float64, q, v []float64)                 {}
func (p SpringPendulum) NonConservativePower(t float64, q, v []float64) float64         { return 0 }
func (p SpringPendulum) DrivingPower(t float64, q, lambda []float64) float64            { return 0 }
func (p SpringPendulum) ConstraintName(i int) string                                    { return "" }
func (p SpringPendulum) CoordinateName(i int) string                                    { return [...]string{"x", "y"}[i] }

// Energy returns T = (ẋ² + ẏ²)/2 and U = (r − 1)²/(2ε²) − y.
func (p SpringPendulum) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	r := math.Hypot(q[0], q[1])
	return (v[0]*v[0] + v[1]*v[1]) / 2, (r-1)*(r-1)/(2*p.Eps2) - q[1]
}

// Bushing is the nonlinear bushing example of seed 003, eq. 4.4: a unit mass at (x, y) on
// the unit circle, g = x² + y² − 1 = 0 (eq. 4.4d), joined by a bushing of stiffness 1/ε² to
// the point (1/2 + cos θ/2, sin θ/2) of a body with angle θ and torsional stiffness
// 1/(10ε²), under unit gravity along +y:
//
//	ẍ = f_x/ε² − 2x λ,   ÿ = f_y/ε² + 1 − 2y λ                                (eqs. 4.4a, b)
//	θ̈ = −θ/(10ε²) + (cos θ (1 − f_y/ε²) + sin θ f_x/ε²)/2                    (eq. 4.4c, see below)
//	f_x = 1/2 − x + cos θ/2,   f_y = −y + sin θ/2.
//
// The seed prints eqs. 4.4a-c without the constraint force −Gᵀλ (a constrained system
// needs it; G = (2x, 2y, 0)) and with the bushing torque of eq. 4.4c as
// +(cos θ f_y − sin θ f_x)/(2ε²), which is not the gradient of any potential, so that the
// energy of its Table 1 would not be defined. With the sign of the reaction of the
// bushing, −(cos θ f_y − sin θ f_x)/(2ε²), used here, the forces derive from
//
//	U = (f_x² + f_y²)/(2ε²) + θ²/(20ε²) − y − sin θ/2,
//
// and the linearization about the equilibrium (x, y, θ) ≈ (1, 0, 0) has frequencies
// 1.13/ε and 0.28/ε: 22 and 5.6 cycles over T = 40π·ε, the seed's "around 20 cycles for
// x and y, roughly 6 of θ" (the printed sign gives 0.84/ε and 0.38/ε: 17 and 7.5 cycles).
type Bushing struct {
	Eps float64 // ε (seed 003: 1e-5)
}

var (
	_ dae.System                    = Bushing{}
	_ dae.ConstantMass              = Bushing{}
	_ dae.ForceDerivative           = Bushing{}
	_ dae.ConstraintForceDerivative = Bushing{}
	_ dae.EnergyInvariant           = Bushing{}
	_ dae.Namer                     = Bushing{}
)

// Size returns nq = 3 (x, y, θ), nc = 1.
func (b Bushing) Size() (nq, nc int) { return 3, 1 }

// Mass writes M = I.
func (b Bushing) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for i := range 3 {
		dst.Set(i, i, 1)
	}
}

// ConstantMass reports that M does not depend on t or q.
func (b Bushing) ConstantMass() bool { return true }

// Force writes f = (f_x/ε², f_y/ε² + 1, −θ/(10ε²) + (cos θ (1 − f_y/ε²) + sin θ f_x/ε²)/2).
func (b Bushing) Force(dst []float64, t float64, q, v []float64) {
	k := 1 / (b.Eps * b.Eps)
	s, c := math.Sincos(q[2])
	fx, fy := 0.5-q[0]+c/2, -q[1]+s/2
	dst[0] = k * fx
	dst[1] = k*fy + 1
	dst[2] = -k*q[2]/10 + (c*(1-k*fy)+s*k*fx)/2
}

// ForceDerivativeQ writes ∂f/∂q.
func (b Bushing) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	k := 1 / (b.Eps * b.Eps)
	s, c := math.Sincos(q[2])
	fx, fy := 0.5-q[0]+c/2, -q[1]+s/2
	// ∂f_x/∂θ = −sin θ/2, ∂f_y/∂θ = cos θ/2
	dst.Set(0, 0, -k)
	dst.Set(0, 1, 0)
	dst.Set(0, 2, -k*s/2)
	dst.Set(1, 0, 0)
	dst.Set(1, 1, -k)
	dst.Set(1, 2, k*c/2)
	dst.Set(2, 0, -s*k/2)
	dst.Set(2, 1, c*k/2)
	dst.Set(2, 2, -k/10+(-s*(1-k*fy)-c*k*c/2+c*k*fx-s*k*s/2)/2)
}

// ForceDerivativeV writes ∂f/∂v = 0.
func (b Bushing) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) { dst.Zero() }

// Constraint writes g = x² + y² − 1 (eq. 4.4d).
func (b Bushing) Constraint(dst []float64, t float64, q []float64) {
	dst[0] = q[0]*q[0] + q[1]*q[1] - 1
}

// ConstraintJacobian writes G = (2x, 2y, 0).
func (b Bushing) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, 2*q[0])
	dst.Set(0, 1, 2*q[1])
	dst.Set(0, 2, 0)
}

// ConstraintTimeDerivative writes g_t = 0.
func (b Bushing) ConstraintTimeDerivative(dst []float64, t float64, q []float64) { dst[0] = 0 }

// Gamma writes γ = −2(ẋ² + ẏ²).
func (b Bushing) Gamma(dst []float64, t float64, q, v []float64) {
	dst[0] = -2 * (v[0]*v[0] + v[1]*v[1])
}

// ConstraintForceDerivative writes ∂(Gᵀλ)/∂q = diag(2λ, 2λ, 0).
func (b Bushing) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	dst.Zero()
	dst.Set(0, 0, 2*lambda[0])
	dst.Set(1, 1, 2*lambda[0])
}

// Energy returns T = |v|²/2 and U = (f_x² + f_y²)/(2ε²) + θ²/(20ε²) − y − sin θ/2.
func (b Bushing) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	k := 1 / (b.Eps * b.Eps)
	s, c := math.Sincos(q[2])
	fx, fy := 0.5-q[0]+c/2, -q[1]+s/2
	return (v[0]*v[0] + v[1]*v[1] + v[2]*v[2]) / 2, k*(fx*fx+fy*fy)/2 + k*q[2]*q[2]/20 - q[1] - s/2
}

// NonConservativePower is 0 (dae.EnergyInvariant).
func (b Bushing) NonConservativePower(t float64, q, v []float64) float64 { return 0 }

// DrivingPower is 0: the circle is scleronomic (dae.EnergyInvariant).
func (b Bushing) DrivingPower(t float64, q, lambda []float64) float64 { return 0 }

// CoordinateName names x, y and θ.
func (b Bushing) CoordinateName(i int) string { return [...]string{"x", "y", "theta"}[i] }

// ConstraintName names the circle.
func (b Bushing) ConstraintName(i int) string { return "unit circle" }
