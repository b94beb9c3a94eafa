package problems

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/law"
)

// CamFollower is a planar disc cam, driven at constant speed or turning freely, that lifts a point follower
// translating along the vertical guide x = D, with the contact point's curve parameter u
// as an algebraic unknown (issue 16, item 3). The cam profile is given in polar form in the
// cam's frame, r = Profile(u) (an expression or a law.Table spline through sampled radii),
// so the cam's contour point at parameter u lies at r(u)(cos(θ+u), sin(θ+u)) when the cam
// has turned by θ. The coordinates are q = (θ, y, u):
//
//	θ   cam angle, inertia J,
//	y   follower height, mass m, weight m·g_grav and a spring K pressing it down (f = −m g_grav − K y),
//	u   contact parameter, massless and unloaded: an algebraic variable,
//	g₁ = r(u) cos(θ+u) − D = 0,  g₂ = r(u) sin(θ+u) − y = 0  (the point lies on the curve),
//	g₃ = θ − Ω t = 0  when Driven (else the cam turns freely: one degree of freedom).
//
// u is an index-1 unknown: g₁ = 0 determines it while ∂g₁/∂u = r' cos φ − r sin φ ≠ 0
// (φ = θ+u), i.e. while the guide crosses the contour transversally. Carried as a massless
// coordinate, its row of M a = f − Gᵀλ reads 0 = −(λ₁ ∂g₁/∂u + λ₂ ∂g₂/∂u): the contact force
// (−λ₁, −λ₂) on the follower has no component along the contour's tangent, the normal
// condition of frictionless contact. M = diag(J, m, 0) is singular but positive definite on
// the null space of G (seed 002, Lemma 1), so every method that solves the saddle-point
// system of M and G takes u as it takes a point mass's rotation.
type CamFollower struct {
	Profile law.Func // r(u) > 0 with r' and r″ [m]
	Driven  bool     // the cam turns at Ω by the row g₃ (else freely)
	Omega   float64  // cam speed Ω [rad/s] when Driven
	D       float64  // guide offset: the follower moves on x = D [m]
	J, M    float64  // cam inertia [kg m²], follower mass [kg]
	K, Grav float64  // spring stiffness [N/m], gravity [m/s²]
}

var (
	_ dae.System                    = CamFollower{}
	_ dae.ConstantMass              = CamFollower{}
	_ dae.ConstraintForceDerivative = CamFollower{}
	_ dae.ForceDerivative           = CamFollower{}
	_ dae.Namer                     = CamFollower{}
	_ dae.EnergyInvariant           = CamFollower{}
	_ dae.Algebraic                 = CamFollower{}
	_ dae.UserVariables             = CamFollower{}
)

// AlgebraicCoordinates returns {2}: u is an algebraic variable (dae.Algebraic).
func (c CamFollower) AlgebraicCoordinates() []int { return []int{2} }

// Size returns nq = 3 (θ, y, u) and nc = 3 when Driven, else 2.
func (c CamFollower) Size() (nq, nc int) {
	if c.Driven {
		return 3, 3
	}
	return 3, 2
}

// Mass writes M = diag(J, m, 0): u carries no inertia.
func (c CamFollower) Mass(dst *mat.Dense, _ float64, _ []float64) {
	dst.Zero()
	dst.Set(0, 0, c.J)
	dst.Set(1, 1, c.M)
}

// ConstantMass reports true.
func (c CamFollower) ConstantMass() bool { return true }

// Force writes f = (0, −m g_grav − K y, 0).
func (c CamFollower) Force(dst []float64, _ float64, q, _ []float64) {
	dst[0], dst[1], dst[2] = 0, -c.M*c.Grav-c.K*q[1], 0
}

// ForceDerivativeQ writes ∂f/∂q: −K at (y, y).
func (c CamFollower) ForceDerivativeQ(dst *mat.Dense, _ float64, _, _ []float64) {
	dst.Zero()
	dst.Set(1, 1, -c.K)
}

// ForceDerivativeV writes ∂f/∂v = 0.
func (c CamFollower) ForceDerivativeV(dst *mat.Dense, _ float64, _, _ []float64) { dst.Zero() }

// contour returns, at q, the contour point P = r(cos φ, sin φ), its derivative
// P_u = ∂P/∂u (= ∂P/∂θ + r'(cos φ, sin φ)) and the second derivatives of the contact rows
// g₁, g₂ in (θ, u): h[i] = (∂θθ, ∂θu, ∂uu) of component i of P.
func (c CamFollower) contour(q []float64) (p, pu [2]float64, h [2][3]float64) {
	r, dr, ddr := c.Profile.Eval(q[2])
	sn, cs := math.Sincos(q[0] + q[2])
	p = [2]float64{r * cs, r * sn}
	pu = [2]float64{dr*cs - r*sn, dr*sn + r*cs}
	h[0] = [3]float64{-r * cs, -dr*sn - r*cs, ddr*cs - 2*dr*sn - r*cs}
	h[1] = [3]float64{-r * sn, dr*cs - r*sn, ddr*sn + 2*dr*cs - r*sn}
	return p, pu, h
}

// Constraint writes g = (P_x − D, P_y − y[, θ − Ω t]).
func (c CamFollower) Constraint(dst []float64, t float64, q []float64) {
	p, _, _ := c.contour(q)
	dst[0] = p[0] - c.D
	dst[1] = p[1] - q[1]
	if c.Driven {
		dst[2] = q[0] - c.Omega*t
	}
}

// ConstraintJacobian writes G: ∂P/∂θ = (−P_y, P_x), ∂P/∂u = P_u, ∂g₃/∂y = −1.
func (c CamFollower) ConstraintJacobian(dst *mat.Dense, _ float64, q []float64) {
	p, pu, _ := c.contour(q)
	dst.Zero()
	dst.Set(0, 0, -p[1])
	dst.Set(0, 2, pu[0])
	dst.Set(1, 0, p[0])
	dst.Set(1, 1, -1)
	dst.Set(1, 2, pu[1])
	if c.Driven {
		dst.Set(2, 0, 1)
	}
}

// ConstraintTimeDerivative writes g_t = (0, 0[, −Ω]).
func (c CamFollower) ConstraintTimeDerivative(dst []float64, _ float64, _ []float64) {
	dst[0], dst[1] = 0, 0
	if c.Driven {
		dst[2] = -c.Omega
	}
}

// Gamma writes γ = (−wᵀH₁w, −wᵀH₂w[, 0]) with w = (θ', u') and H_i the Hessian of g_i in
// (θ, u) (G_t = 0, g_tt = 0; y enters linearly).
func (c CamFollower) Gamma(dst []float64, _ float64, q, v []float64) {
	_, _, h := c.contour(q)
	for i := range 2 {
		dst[i] = -(h[i][0]*v[0]*v[0] + 2*h[i][1]*v[0]*v[2] + h[i][2]*v[2]*v[2])
	}
	if c.Driven {
		dst[2] = 0
	}
}

// ConstraintForceDerivative writes ∂(Gᵀλ)/∂q = λ₁H₁ + λ₂H₂ on the (θ, u) block.
func (c CamFollower) ConstraintForceDerivative(dst *mat.Dense, _ float64, q, lambda []float64) {
	_, _, h := c.contour(q)
	dst.Zero()
	var k [3]float64
	for i := range 2 {
		for j := range 3 {
			k[j] += lambda[i] * h[i][j]
		}
	}
	dst.Set(0, 0, k[0])
	dst.Set(0, 2, k[1])
	dst.Set(2, 0, k[1])
	dst.Set(2, 2, k[2])
}

// CoordinateName names θ, y and u.
func (c CamFollower) CoordinateName(i int) string {
	return [...]string{"cam angle θ", "follower height y", "contact parameter u (algebraic)"}[i]
}

// ConstraintName names the two contact rows and the drive.
func (c CamFollower) ConstraintName(i int) string {
	return [...]string{"contact x (point on the contour)", "contact y (point on the contour)", "cam drive θ = Ω t"}[i]
}

// DiscMotion is the motion of a cam-follower whose Profile is an EccentricDisc, at cam
// angle θ and speed θ' with θ″ = 0, derived from the disc directly rather than from its
// polar profile: the disc's centre is at E(cos θ, sin θ) and the guide x = D meets its
// upper half at
//
//	y(θ) = E sin θ + S,   S = √(R² − w²),   w = D − E cos θ,
//
// so y_θ = E cos θ − w w'/S and y_θθ = −E sin θ − (w'² + w w″)/S − (w w')²/S³ with
// w' = E sin θ, w″ = E cos θ. The contact parameter is the polar angle of (D, y) in the
// cam's frame, u = atan2(y, D) − θ, u_θ = D y_θ/(D² + y²) − 1. The follower's equation
// m ÿ = −m g_grav − K y + λ₂ gives the multiplier of the contact row g₂ (the contact
// force's vertical component), λ₂ = m ÿ + m g_grav + K y. It returns q, v = q' and λ₂, and panics when Profile is not
// an EccentricDisc.
func (c CamFollower) DiscMotion(theta, omega float64) (q, v [3]float64, lambda2 float64) {
	disc := c.Profile.(EccentricDisc)
	e, r, d := disc.E, disc.R, c.D
	sn, cs := math.Sincos(theta)
	w, dw, ddw := d-e*cs, e*sn, e*cs
	s := math.Sqrt(r*r - w*w)
	y := e*sn + s
	yth := e*cs - w*dw/s
	ytt := -e*sn - (dw*dw+w*ddw)/s - (w*dw)*(w*dw)/(s*s*s)
	u := math.Atan2(y, d) - theta
	uth := d*yth/(d*d+y*y) - 1
	q = [3]float64{theta, y, u}
	v = [3]float64{omega, yth * omega, uth * omega}
	ydd := ytt * omega * omega
	return q, v, c.M*ydd + c.M*c.Grav + c.K*y
}

// EccentricDisc is the polar profile of a circular disc of radius R whose centre lies at
// distance E < R from the rotation axis, on the cam's x axis: the contour point at polar
// angle u is at distance r with |r(cos u, sin u) − (E, 0)| = R, so
//
//	r(u) = E cos u + S,   S = √(R² − E² sin² u),
//	r'(u) = −E sin u + S',   S' = −E² sin 2u / (2S),   S″ = −(E² cos 2u + S'²)/S.
type EccentricDisc struct{ E, R float64 }

// Eval returns r(u), r'(u), r″(u).
func (d EccentricDisc) Eval(u float64) (r, dr, ddr float64) {
	sn, cs := math.Sincos(u)
	s := math.Sqrt(d.R*d.R - d.E*d.E*sn*sn)
	ds := -d.E * d.E * sn * cs / s
	dds := -(d.E*d.E*(cs*cs-sn*sn) + ds*ds) / s
	return d.E*cs + s, -d.E*sn + ds, -d.E*cs + dds
}

// Energy returns T = ½Jθ'² + ½m y'² (u carries none) and V = m g_grav y + ½K y².
func (c CamFollower) Energy(_ float64, q, v []float64) (kinetic, potential float64) {
	return (c.J*v[0]*v[0] + c.M*v[1]*v[1]) / 2, c.M*c.Grav*q[1] + c.K*q[1]*q[1]/2
}

// NonConservativePower returns 0: weight and spring have the potential of Energy.
func (c CamFollower) NonConservativePower(float64, []float64, []float64) float64 { return 0 }

// DrivingPower returns λ₃ g_t,₃ = −Ω λ₃ when Driven, else 0.
func (c CamFollower) DrivingPower(_ float64, _, lambda []float64) float64 {
	if c.Driven {
		return -c.Omega * lambda[2]
	}
	return 0
}

// UserVariableNames names the user variables (dae.UserVariables): the pressure angle and
// the contact radius.
func (c CamFollower) UserVariableNames() []string {
	return []string{"pressure angle [rad]", "contact radius r(u) [m]"}
}

// UserVariables writes the pressure angle α, the angle from the follower's direction of
// motion (+y) to the contour's outward normal at the contact, positive towards +x:
// α = atan2(t_y, −t_x) with the tangent t = P_u (the contour runs counterclockwise in u, so
// its outward normal is (t_y, −t_x)); and the contact radius r(u). Both depend on q only.
func (c CamFollower) UserVariables(dst []float64, _ float64, q, _, _ []float64) {
	_, pu, _ := c.contour(q)
	r, _, _ := c.Profile.Eval(q[2])
	dst[0] = math.Atan2(pu[1], -pu[0])
	dst[1] = r
}
