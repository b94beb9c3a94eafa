package problems

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
	"linkage/lie"
)

// LieHeavyTop is the heavy top of seed 002, Example 6, on the Lie group SO(3) × ℝ³ (seed
// 002, Remark 5a; Brüls, Cardona & Arnold 2012, section 6.1): configuration q = (x, R) with
// R stored as the unit quaternion p (q = (x, p) ∈ ℝ⁷, the layout of HeavyTop), velocities
// v = (u, Ω) ∈ ℝ⁶ with u = ẋ in the inertial frame and Ω the body-frame angular velocity,
// ẋ = u and Ṙ = R Ω̃ (eqs. 33a-b), and
//
//	m u̇ = m γ − λ,   J Ω̇ + Ω × J Ω = −(R X̃)ᵀ λ,   Φ(q) = x − R X = 0,
//
// with γ = (0, 0, −g_grav), J about the centre of mass and X the centre of mass relative
// to the fixed point in the body frame. B = (I₃, R X̃) is the derivative of Φ along
// q∘exp(εw). Eliminating x and λ gives eq. 34b, J̄ Ω̇ + Ω × J̄ Ω = X × Rᵀ m γ. There is no
// normalization constraint: p changes only by composition with exp (package lie).
//
// Its parameters are a HeavyTop's, held as a field and not embedded: embedding would promote
// HeavyTop's Size and derivatives and make the Lie form pass for a dae.System on ℝ⁷.
type LieHeavyTop struct {
	Top HeavyTop
}

var _ dae.LieSystem = LieHeavyTop{}

// Lie returns the top h on the Lie group SO(3) × ℝ³.
func (h HeavyTop) Lie() LieHeavyTop { return LieHeavyTop{Top: h} }

// LieSize returns (7, 6, 3).
func (h LieHeavyTop) LieSize() (nq, nv, nc int) { return 7, 6, 3 }

// Compose writes q∘exp(w) = (x + u, p·exp(Ω)).
func (h LieHeavyTop) Compose(dst, q, w []float64) { lie.ComposeBodies(dst, q, w) }

// Tangent writes diag(I₃, T(Ω)).
func (h LieHeavyTop) Tangent(dst *mat.Dense, w []float64) {
	r := dst.RawMatrix()
	lie.TangentBodies(r.Data, r.Stride, w)
}

// Bracket writes (0, Ω_a × Ω_b).
func (h LieHeavyTop) Bracket(dst, a, b []float64) { lie.BracketBodies(dst, a, b) }

func (h LieHeavyTop) rot(q []float64) [3][3]float64 { return lie.Quat{q[3], q[4], q[5], q[6]}.Matrix() }

// Mass writes diag(m I₃, J).
func (h LieHeavyTop) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for i := range 3 {
		dst.Set(i, i, h.Top.M)
		dst.Set(3+i, 3+i, h.Top.J[i])
	}
}

// Force writes f = (m γ, −Ω × J Ω).
func (h LieHeavyTop) Force(dst []float64, t float64, q, v []float64) {
	om := [3]float64{v[3], v[4], v[5]}
	g := lie.Cross(om, [3]float64{h.Top.J[0] * om[0], h.Top.J[1] * om[1], h.Top.J[2] * om[2]})
	dst[0], dst[1], dst[2] = 0, 0, -h.Top.M*h.Top.Grav
	dst[3], dst[4], dst[5] = -g[0], -g[1], -g[2]
}

// Constraint writes Φ = x − R X.
func (h LieHeavyTop) Constraint(dst []float64, t float64, q []float64) {
	r := h.rot(q)
	rx := lie.MatVec(&r, h.Top.X)
	for i := range 3 {
		dst[i] = q[i] - rx[i]
	}
}

// ConstraintJacobian writes B = (I₃, R X̃).
func (h LieHeavyTop) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	r := h.rot(q)
	xt := lie.Hat(h.Top.X)
	dst.Zero()
	for i := range 3 {
		dst.Set(i, i, 1)
		for j := range 3 {
			dst.Set(i, 3+j, r[i][0]*xt[0][j]+r[i][1]*xt[1][j]+r[i][2]*xt[2][j])
		}
	}
}

// ConstraintTimeDerivative writes Φ_t = 0.
func (h LieHeavyTop) ConstraintTimeDerivative(dst []float64, t float64, q []float64) { clear(dst) }

// Gamma writes γ = −d/dε (B(q∘exp(εv)) v) = −R (Ω × (X × Ω)).
func (h LieHeavyTop) Gamma(dst []float64, t float64, q, v []float64) {
	r := h.rot(q)
	om := [3]float64{v[3], v[4], v[5]}
	c := lie.Cross(om, lie.Cross(h.Top.X, om))
	rc := lie.MatVec(&r, c)
	for i := range 3 {
		dst[i] = -rc[i]
	}
}

// ConstraintJacobianDerivative writes d/dε (B(q∘exp(εW)) w) = R W̃ X̃ Ω_w = −R (X × Ω_w)~ W
// (the rotation columns; the translation columns are zero).
func (h LieHeavyTop) ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64) {
	dst.Zero()
	r := h.rot(q)
	ct := lie.Hat(lie.Cross(h.Top.X, [3]float64{w[3], w[4], w[5]}))
	for i := range 3 {
		for j := range 3 {
			dst.Set(i, 3+j, -(r[i][0]*ct[0][j] + r[i][1]*ct[1][j] + r[i][2]*ct[2][j]))
		}
	}
}

// Stiffness writes K_t: only Bᵀλ depends on q; along R exp(εW̃), −X̃ Rᵀλ changes by
// −X̃ (Rᵀλ)~ W.
func (h LieHeavyTop) Stiffness(dst *mat.Dense, t float64, q, v, vdot, lambda []float64) {
	dst.Zero()
	r := h.rot(q)
	var a [3]float64 // Rᵀ λ
	for i := range 3 {
		a[i] = r[0][i]*lambda[0] + r[1][i]*lambda[1] + r[2][i]*lambda[2]
	}
	xt, at := lie.Hat(h.Top.X), lie.Hat(a)
	for i := range 3 {
		for j := range 3 {
			dst.Set(3+i, 3+j, -(xt[i][0]*at[0][j] + xt[i][1]*at[1][j] + xt[i][2]*at[2][j]))
		}
	}
}

// Damping writes C_t = ∂(Ω × J Ω)/∂Ω = Ω̃ J − (J Ω)~.
func (h LieHeavyTop) Damping(dst *mat.Dense, t float64, q, v []float64) {
	dst.Zero()
	om := [3]float64{v[3], v[4], v[5]}
	ot := lie.Hat(om)
	jt := lie.Hat([3]float64{h.Top.J[0] * om[0], h.Top.J[1] * om[1], h.Top.J[2] * om[2]})
	for i := range 3 {
		for j := range 3 {
			dst.Set(3+i, 3+j, ot[i][j]*h.Top.J[j]-jt[i][j])
		}
	}
}

// Start returns the state at t = 0: q = (R(P0) X, P0), v = (R(Ω₀ × X), Ω₀); v̇ and λ are
// left zero (the integrator solves for them).
func (h LieHeavyTop) Start() (integrate.State, error) {
	p := lie.Quat(h.Top.P0)
	if n := math.Sqrt(p[0]*p[0] + p[1]*p[1] + p[2]*p[2] + p[3]*p[3]); !(math.Abs(n-1) <= 1e-12) {
		return integrate.State{}, fmt.Errorf("problems: heavy top: |P0| = %.17g; want a unit quaternion", n)
	}
	return h.stateAt(0, p, h.Top.Omega0), nil
}

// stateAt is the Lie-group state of the top with rotation p and body angular velocity om.
func (h LieHeavyTop) stateAt(t float64, p lie.Quat, om [3]float64) integrate.State {
	s := integrate.State{T: t, Q: make([]float64, 7), V: make([]float64, 6), A: make([]float64, 6), Lambda: make([]float64, 3)}
	x := p.Rotate(h.Top.X)
	u := p.Rotate(lie.Cross(om, h.Top.X))
	copy(s.Q, x[:])
	copy(s.Q[3:], p[:])
	copy(s.V, u[:])
	copy(s.V[3:], om[:])
	return s
}

// LieReference returns the state (q, v) at tEnd of the independent ODE route of
// HeavyTop.Reference (eq. 34b with ṗ = H(p)Ω by RK4 with n and 2n steps and Richardson
// extrapolation), in the layout of LieHeavyTop.
func (h LieHeavyTop) LieReference(tEnd float64, n int) integrate.State {
	a := h.Top.rk4(tEnd, n)
	b := h.Top.rk4(tEnd, 2*n)
	var y [7]float64
	for i := range y {
		y[i] = b[i] + (b[i]-a[i])/15
	}
	return h.stateAt(tEnd, lie.Quat{y[0], y[1], y[2], y[3]}, [3]float64{y[4], y[5], y[6]})
}
