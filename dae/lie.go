package dae

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// LieSystem is the second contract of linkage's equations of motion: a configuration q on
// a Lie group G of dimension nv, velocities v ∈ ℝ^nv in its Lie algebra (the body frame of
// each rigid body) and the equations of Brüls, Cardona & Arnold (2012, eq. 1; seed 002,
// Remark 5 and eqs. 33-34):
//
//	q̇ = q·ṽ,    M(t,q) v̇ = f(t,q,v) − B(t,q)ᵀ λ,    Φ(t,q) = 0,
//
// with B the derivative of Φ along the group action, Φ(t, q∘exp(εw)) = Φ(t,q) + ε B w +
// O(ε²), hence the hidden constraints Φ̇ = B v + Φ_t = 0 and B v̇ = γ. Brüls, Cardona and
// Arnold write g(q, v, t) = −f; linkage keeps its one sign convention (the constraint
// force is −Bᵀλ, as −Gᵀλ in System).
//
// It is a contract of its own, not a capability of System, because q no longer lives in
// the space of v (a body stores 7 numbers for 6 velocities) and increments of q are group
// compositions, not sums: every method, consistent initialization and finite difference
// written for q' = v would be wrong on it. Integrators that take it say so in their
// registry entry (integrate.Entry.Lie); the others cannot be handed one. A System on ℝ^nq
// is the special case of the additive group (VectorSpace), which is how the Lie-group
// integrators are checked against the whole conformance suite.
//
// The integrator needs from the group only Compose (q∘exp(w)), its tangent operator T(w)
// (exp(w + εδ) = exp(w)∘exp(ε T(w) δ) + O(ε²)) and the Lie bracket of the algebra (for
// its error estimate); from the model the matrices of the iteration matrix of Brüls,
// Cardona & Arnold (2012, eq. 31): the tangent stiffness K_t and the tangent damping C_t.
// Evaluations follow System's rules: destination first, every entry written, nothing
// retained, no allocation.
type LieSystem interface {
	// LieSize returns the length nq of a stored configuration q, the dimension nv of the
	// group (the length of v, v̇ and of the algebra elements w) and the number nc of
	// constraints.
	LieSize() (nq, nv, nc int)
	// Compose writes q∘exp(w) into dst (length nq); dst may be q.
	Compose(dst, q, w []float64)
	// Tangent writes the tangent operator T(w) into dst (nv×nv).
	Tangent(dst *mat.Dense, w []float64)
	// Bracket writes the Lie bracket [a, b] of two algebra elements into dst (length nv).
	Bracket(dst, a, b []float64)

	// Mass writes M(t,q) (nv×nv) into dst.
	Mass(dst *mat.Dense, t float64, q []float64)
	// Force writes f(t,q,v) (applied minus gyroscopic forces, body frame) into dst.
	Force(dst []float64, t float64, q, v []float64)
	// Constraint writes Φ(t,q) (length nc) into dst.
	Constraint(dst []float64, t float64, q []float64)
	// ConstraintJacobian writes B(t,q) (nc×nv) into dst: Φ along q∘exp(εw) changes by ε B w.
	ConstraintJacobian(dst *mat.Dense, t float64, q []float64)
	// ConstraintTimeDerivative writes Φ_t into dst (length nc).
	ConstraintTimeDerivative(dst []float64, t float64, q []float64)
	// Gamma writes γ of the acceleration constraints B v̇ = γ into dst (length nc):
	// γ = −d/dε (B(t, q∘exp(εv)) v) − 2 B_t v − Φ_tt.
	Gamma(dst []float64, t float64, q, v []float64)
	// ConstraintJacobianDerivative writes d/dε (B(t, q∘exp(εe_j)) w) at ε = 0 as column j
	// of an nc×nv matrix: the derivative of B w along the group, needed by the velocity
	// constraint B v + Φ_t = 0 of the stabilized index-2 form.
	ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64)
	// Stiffness writes K_t = d/dε [M v̇ − f + Bᵀλ](t, q∘exp(εw), v) at ε = 0 as an nv×nv
	// matrix applied to w (Brüls, Cardona & Arnold 2012, eq. 31).
	Stiffness(dst *mat.Dense, t float64, q, v, vdot, lambda []float64)
	// Damping writes C_t = −∂f/∂v (nv×nv) into dst.
	Damping(dst *mat.Dense, t float64, q, v []float64)
}

// VectorSpace is a System on ℝ^nq seen as the additive Lie group: q∘exp(w) = q + w,
// T = I, [a, b] = 0, B = G, K_t = ∂(M a)/∂q + ∂(Gᵀλ)/∂q − ∂f/∂q and C_t = −∂f/∂v (from
// Derivatives: analytic where the System has them, central differences otherwise). A
// Lie-group method on it is the same method as its vector-space original.
type VectorSpace struct {
	System
	pf  Nonholonomic // the System's Pfaffian rows, or nil
	der *Derivatives
	sec *SecondDerivatives
	k   *mat.Dense
}

// NewVectorSpace wraps sys; the result owns derivative scratch and serves one goroutine.
func NewVectorSpace(sys System) *VectorSpace {
	nq, _ := sys.Size()
	pf, _ := AsNonholonomic(sys)
	return &VectorSpace{System: sys, pf: pf, der: NewDerivatives(sys), sec: NewSecondDerivatives(sys), k: mat.NewDense(nq, nq, nil)}
}

// NumPfaffian is the System's number of Pfaffian rows (Nonholonomic; 0: none). On ℝⁿ
// the algebra coordinates are q, so the rows and their derivatives are the System's.
func (s *VectorSpace) NumPfaffian() int {
	if s.pf == nil {
		return 0
	}
	return s.pf.NumPfaffian()
}

// Pfaffian is the System's A and b.
func (s *VectorSpace) Pfaffian(A *mat.Dense, b []float64, t float64, q []float64) {
	s.pf.Pfaffian(A, b, t, q)
}

// PfaffianGamma is the System's γ_A.
func (s *VectorSpace) PfaffianGamma(dst []float64, t float64, q, v []float64) {
	s.pf.PfaffianGamma(dst, t, q, v)
}

// PfaffianRateDerivative is the System's ∂(A v + b)/∂q.
func (s *VectorSpace) PfaffianRateDerivative(dst *mat.Dense, t float64, q, v []float64) {
	s.pf.PfaffianRateDerivative(dst, t, q, v)
}

// PfaffianForceDerivative is the System's ∂(Aᵀμ)/∂q.
func (s *VectorSpace) PfaffianForceDerivative(dst *mat.Dense, t float64, q, mu []float64) {
	s.pf.PfaffianForceDerivative(dst, t, q, mu)
}

// PfaffianName is the System's name of Pfaffian row k ("" without one).
func (s *VectorSpace) PfaffianName(k int) string {
	if n, ok := s.System.(PfaffianNamer); ok {
		return n.PfaffianName(k)
	}
	return ""
}

var _ LieSystem = (*VectorSpace)(nil)

// LieSize returns (nq, nq, nc).
func (s *VectorSpace) LieSize() (nq, nv, nc int) {
	nq, nc = s.Size()
	return nq, nq, nc
}

// Compose writes q + w.
func (s *VectorSpace) Compose(dst, q, w []float64) {
	for i := range dst {
		dst[i] = q[i] + w[i]
	}
}

// Tangent writes the identity.
func (s *VectorSpace) Tangent(dst *mat.Dense, w []float64) {
	dst.Zero()
	for i := range w {
		dst.Set(i, i, 1)
	}
}

// Bracket writes zero: ℝⁿ is commutative.
func (s *VectorSpace) Bracket(dst, a, b []float64) { clear(dst) }

// Stiffness writes ∂(M v̇)/∂q + ∂(Gᵀλ)/∂q − ∂f/∂q.
func (s *VectorSpace) Stiffness(dst *mat.Dense, t float64, q, v, vdot, lambda []float64) {
	s.der.MassDerivative(dst, t, q, vdot)
	if _, nc := s.Size(); nc > 0 {
		s.der.ConstraintForceDerivative(s.k, t, q, lambda)
		dst.Add(dst, s.k)
	}
	s.der.ForceDerivativeQ(s.k, t, q, v)
	dst.Sub(dst, s.k)
}

// Damping writes −∂f/∂v.
func (s *VectorSpace) Damping(dst *mat.Dense, t float64, q, v []float64) {
	s.der.ForceDerivativeV(dst, t, q, v)
	// Negated row by row in place: gonum's Scale(-1, dst) on its own receiver takes a
	// workspace (it allocates inside a step).
	raw := dst.RawMatrix()
	for i := range raw.Rows {
		floats.Scale(-1, raw.Data[i*raw.Stride:i*raw.Stride+raw.Cols])
	}
}

// ConstraintJacobianDerivative writes ∂(G w)/∂q (SecondDerivatives).
func (s *VectorSpace) ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64) {
	s.sec.ConstraintJacobianDerivative(dst, t, q, w)
}

// FDEvals counts the System evaluations spent on finite-difference derivatives.
func (s *VectorSpace) FDEvals() int { return s.der.Evals + s.sec.Evals }

// LieCheckPoint is a state at which CheckLie compares derivatives: configuration Q
// (stored), velocity V, acceleration VDot and multipliers Lambda (nil: zero).
type LieCheckPoint struct {
	T                  float64
	Q, V, VDot, Lambda []float64
}

// CheckLie compares, at p, the derivatives of a LieSystem with central finite differences
// along the group action q∘exp(εw): B against Φ, Φ_t against Φ, γ against the rate of
// B v + Φ_t along (t + s, q∘exp(s v)), K_t against the residual M v̇ − f + Bᵀλ, C_t
// against −f, the symmetry of M, and Pfaffian rows along the group (lieProbe.pfaffian).
// It returns the worst mismatch of each quantity and an
// error naming the worst entry when a relative gap exceeds tol, as Check does.
func CheckLie(sys LieSystem, p LieCheckPoint, tol float64) ([]Mismatch, error) {
	nq, nv, nc := sys.LieSize()
	c := lieProbe{sys: sys, p: p, nv: nv, nc: nc, qp: make([]float64, nq), w: make([]float64, nv)}
	c.p.VDot, c.p.Lambda = orZero(p.VDot, nv), orZero(p.Lambda, nc)
	var out []Mismatch
	if nc > 0 {
		out = append(out, c.constraints()...)
	}
	if n, ok := AsLieNonholonomic(sys); ok {
		out = append(out, c.pfaffian(n)...)
	}
	m := mat.NewDense(nv, nv, nil)
	sys.Mass(m, p.T, p.Q)
	out = append(out, checkSymmetric("M symmetric", m), c.stiffness(), c.damping())
	return out, worstMismatch(out, tol, "Lie-group derivative check", p.T)
}

// lieStep is the increment of the central differences of CheckLie in the algebra
// coordinates, FDStep(1): they are O(1) near the identity.
const lieStep = 6.0554544523933395e-06

// lieProbe evaluates a LieSystem along the group action for CheckLie.
type lieProbe struct {
	sys    LieSystem
	p      LieCheckPoint
	nv, nc int
	qp, w  []float64
}

// along returns q∘exp(s e_j) (j ≥ 0) or q∘exp(s v) (j < 0); the result is reused.
func (c *lieProbe) along(j int, s float64) []float64 {
	for i := range c.w {
		c.w[i] = 0
		if j < 0 {
			c.w[i] = s * c.p.V[i]
		}
	}
	if j >= 0 {
		c.w[j] = s
	}
	c.sys.Compose(c.qp, c.p.Q, c.w)
	return c.qp
}

// column fills column j of fd with the central difference of f (length of fd's rows)
// along q∘exp(±h e_j).
func (c *lieProbe) column(fd *mat.Dense, j int, f func(dst, q []float64)) {
	r, _ := fd.Dims()
	fp, fm := make([]float64, r), make([]float64, r)
	f(fp, c.along(j, lieStep))
	f(fm, c.along(j, -lieStep))
	for i := range r {
		fd.Set(i, j, (fp[i]-fm[i])/(2*lieStep))
	}
}

// constraints checks B, Φ_t, γ and the derivative of B v along the group.
func (c *lieProbe) constraints() []Mismatch {
	sys, p, nv, nc := c.sys, c.p, c.nv, c.nc
	b := mat.NewDense(nc, nv, nil)
	an := mat.NewDense(nc, nv, nil)
	fd := mat.NewDense(nc, nv, nil)
	bv := func(dst, q []float64, t float64) { // B v + Φ_t at (t, q)
		sys.ConstraintJacobian(b, t, q)
		sys.ConstraintTimeDerivative(dst, t, q)
		for i := range nc {
			for j := range nv {
				dst[i] += b.At(i, j) * p.V[j]
			}
		}
	}
	sys.ConstraintJacobian(an, p.T, p.Q)
	for j := range nv {
		c.column(fd, j, func(dst, q []float64) { sys.Constraint(dst, p.T, q) })
	}
	out := []Mismatch{compare("B = dPhi along q∘exp", an, fd)}

	x, y := mat.NewDense(nc, 1, nil), mat.NewDense(nc, 1, nil)
	sys.ConstraintTimeDerivative(x.RawMatrix().Data, p.T, p.Q)
	cp, cm := make([]float64, nc), make([]float64, nc)
	ht := FDStep(p.T)
	sys.Constraint(cp, p.T+ht, p.Q)
	sys.Constraint(cm, p.T-ht, p.Q)
	for i := range nc {
		y.Set(i, 0, (cp[i]-cm[i])/(2*ht))
	}
	out = append(out, compare("Phi_t", x, y))

	// γ = −d/ds (B v + Φ_t) along (t + s, q∘exp(s v)).
	sys.Gamma(x.RawMatrix().Data, p.T, p.Q, p.V)
	bv(cp, c.along(-1, lieStep), p.T+lieStep)
	bv(cm, c.along(-1, -lieStep), p.T-lieStep)
	for i := range nc {
		y.Set(i, 0, -(cp[i]-cm[i])/(2*lieStep))
	}
	out = append(out, compare("gamma", x, y))

	sys.ConstraintJacobianDerivative(an, p.T, p.Q, p.V)
	for j := range nv {
		c.column(fd, j, func(dst, q []float64) {
			bv(dst, q, p.T)
			sys.ConstraintTimeDerivative(cp, p.T, q)
			for i := range nc {
				dst[i] -= cp[i]
			}
		})
	}
	return append(out, compare("d(B v) along q∘exp", an, fd))
}

// stiffness checks K_t against the residual M v̇ − f + Bᵀλ along the group.
func (c *lieProbe) stiffness() Mismatch {
	sys, p, nv, nc := c.sys, c.p, c.nv, c.nc
	m := mat.NewDense(nv, nv, nil)
	b := mat.NewDense(max(nc, 1), nv, nil)
	residual := func(dst, q []float64) {
		sys.Mass(m, p.T, q)
		sys.Force(dst, p.T, q, p.V)
		for i := range nv {
			var s float64
			for j := range nv {
				s += m.At(i, j) * p.VDot[j]
			}
			dst[i] = s - dst[i]
		}
		if nc > 0 {
			sys.ConstraintJacobian(b, p.T, q)
			for i := range nv {
				for k := range nc {
					dst[i] += b.At(k, i) * p.Lambda[k]
				}
			}
		}
	}
	an, fd := mat.NewDense(nv, nv, nil), mat.NewDense(nv, nv, nil)
	sys.Stiffness(an, p.T, p.Q, p.V, p.VDot, p.Lambda)
	for j := range nv {
		c.column(fd, j, residual)
	}
	return compare("K_t = d(M vdot - f + B^T lambda) along q∘exp", an, fd)
}

// damping checks C_t against −∂f/∂v.
func (c *lieProbe) damping() Mismatch {
	sys, p, nv := c.sys, c.p, c.nv
	an, fd := mat.NewDense(nv, nv, nil), mat.NewDense(nv, nv, nil)
	sys.Damping(an, p.T, p.Q, p.V)
	vp := make([]float64, nv)
	fp, fm := make([]float64, nv), make([]float64, nv)
	for j := range nv {
		copy(vp, p.V)
		hv := FDStep(p.V[j])
		vp[j] = p.V[j] + hv
		sys.Force(fp, p.T, p.Q, vp)
		vp[j] = p.V[j] - hv
		sys.Force(fm, p.T, p.Q, vp)
		for i := range nv {
			fd.Set(i, j, -(fp[i]-fm[i])/(2*hv))
		}
	}
	return compare("C_t = -df/dv", an, fd)
}

// pfaffian checks the Pfaffian rows on the group (AsLieNonholonomic): the derivatives of
// A v + b and of Aᵀμ along q∘exp(εe_j) against central differences of Pfaffian, and γ_A
// against −d/ds (A v + b) along (t + s, q∘exp(s v)); μ is generic, as checkPfaffian's.
func (c *lieProbe) pfaffian(n Nonholonomic) []Mismatch {
	p, nv := c.p, c.nv
	nn := n.NumPfaffian()
	mu := make([]float64, nn)
	for k := range mu {
		mu[k] = 1 + 0.5*float64(k)
	}
	A, b := mat.NewDense(nn, nv, nil), make([]float64, nn)
	rate := func(dst, q []float64, t float64) { // A v + b
		n.Pfaffian(A, b, t, q)
		mat.NewVecDense(nn, dst).MulVec(A, mat.NewVecDense(nv, p.V))
		for k := range dst {
			dst[k] += b[k]
		}
	}
	an, fd := mat.NewDense(nn, nv, nil), mat.NewDense(nn, nv, nil)
	n.PfaffianRateDerivative(an, p.T, p.Q, p.V)
	for j := range nv {
		c.column(fd, j, func(dst, q []float64) { rate(dst, q, p.T) })
	}
	out := []Mismatch{compare("d(A v + b) along q∘exp", an, fd)}

	fan, ffd := mat.NewDense(nv, nv, nil), mat.NewDense(nv, nv, nil)
	n.PfaffianForceDerivative(fan, p.T, p.Q, mu)
	for j := range nv {
		c.column(ffd, j, func(dst, q []float64) {
			n.Pfaffian(A, b, p.T, q)
			mat.NewVecDense(nv, dst).MulVec(A.T(), mat.NewVecDense(nn, mu))
		})
	}
	out = append(out, compare("d(A^T mu) along q∘exp", fan, ffd))

	x, y := mat.NewDense(nn, 1, nil), mat.NewDense(nn, 1, nil)
	n.PfaffianGamma(x.RawMatrix().Data, p.T, p.Q, p.V)
	rp, rm := make([]float64, nn), make([]float64, nn)
	rate(rp, c.along(-1, lieStep), p.T+lieStep)
	rate(rm, c.along(-1, -lieStep), p.T-lieStep)
	for k := range nn {
		y.Set(k, 0, -(rp[k]-rm[k])/(2*lieStep))
	}
	return append(out, compare("gamma_A along q∘exp", x, y))
}
