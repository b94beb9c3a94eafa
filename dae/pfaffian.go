package dae

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Nonholonomic is the optional capability of constraints on the velocities alone, in the
// Pfaffian form of seed 002, eq. 44 (and seed 004, eq. 8c):
//
//	A(t,q) v + b(t,q) = 0,
//
// nn rows that no position constraint integrates (a knife edge, a disk rolling without
// slipping). They add the reaction −Aᵀμ with their own multipliers μ, and at the
// acceleration level
//
//	A a = γ_A,    γ_A = −(A v)_q v − A_t v − b_q v − b_t,
//
// so the equations of motion are
//
//	M a = f − Gᵀλ − Aᵀμ,   0 = g(t,q),   0 = A v + b.
//
// Systems without the capability pay nothing: methods test for it once, at Init, and the
// methods that cannot take it refuse the system naming it. A modeling route whose systems
// may or may not have such rows implements the methods on every system and answers
// NumPfaffian = 0 for none; AsNonholonomic is the one test every caller uses.
type Nonholonomic interface {
	// NumPfaffian returns nn, the number of velocity constraint rows (0: none).
	NumPfaffian() int
	// Pfaffian writes A(t,q) (nn×nq) into A and b(t,q) (length nn) into b.
	Pfaffian(A *mat.Dense, b []float64, t float64, q []float64)
	// PfaffianGamma writes γ_A(t,q,v) = −(A v)_q v − A_t v − b_q v − b_t (length nn).
	PfaffianGamma(dst []float64, t float64, q, v []float64)
	// PfaffianRateDerivative writes ∂(A v + b)/∂q (nn×nq), the velocity rows' Jacobian in
	// q that implicit methods need.
	PfaffianRateDerivative(dst *mat.Dense, t float64, q, v []float64)
	// PfaffianForceDerivative writes ∂(Aᵀμ)/∂q (nq×nq), where ∂(Gᵀλ)/∂q goes.
	PfaffianForceDerivative(dst *mat.Dense, t float64, q, mu []float64)
}

// AsNonholonomic returns the Pfaffian rows of sys, and false when it has none (it does not
// implement Nonholonomic, or NumPfaffian is 0).
func AsNonholonomic(sys System) (Nonholonomic, bool) { return asNonholonomic(sys) }

// asNonholonomic is the test of AsNonholonomic and AsLieNonholonomic.
func asNonholonomic(sys any) (Nonholonomic, bool) {
	n, ok := sys.(Nonholonomic)
	if !ok || n.NumPfaffian() == 0 {
		return nil, false
	}
	return n, true
}

// HasNonholonomic reports whether sys has Pfaffian rows (AsNonholonomic).
func HasNonholonomic(sys System) bool {
	_, ok := AsNonholonomic(sys)
	return ok
}

// WithPfaffianRows returns sys with its Pfaffian rows appended below its constraints as
// nc + nn rows of one System, for Initialize and for the methods whose constraint rows
// are at the velocity or acceleration level (or that treat the rows after
// PfaffianRows.HolonomicRows apart, as hht and GGL do):
//
//	G' = [G; A],   g'_t = [g_t; b],   γ' = [γ; γ_A],   g' = [g; 0],
//
// so G' v + g'_t = 0 holds both velocity levels and G' a = γ' both acceleration levels,
// with multipliers (λ, μ). The zero position residual of the Pfaffian rows makes a
// position correction (a Newton step on g' = 0, a projection) keep A Δq = 0, which leaves
// the velocity rows in force; it is no position constraint. sys itself when it has no
// Pfaffian rows. The result is a PfaffianRows; it forwards Namer (the Pfaffian rows are
// named "pfaffian[k]" unless sys names them through PfaffianNamer), ConstantMass and Energy, and
// has the derivatives ∂(M a)/∂q, ∂f/∂q, ∂f/∂v and ∂(Gᵀλ + Aᵀμ)/∂q (those of sys,
// analytic where sys has them, else finite differences, plus PfaffianForceDerivative),
// MassSolver and MassMultiplier when sys has them and declares no patterns (M is unchanged
// by the rows), and no other capability but one: when sys declares patterns (Sparsity) and its rows are
// SparseNonholonomic, the result declares those of G' (G's rows followed by A's), and
// when sys is a SparseEvaluator it is one too, and a SparsePfaffianRows. A system that also has first-order states or
// λ-dependent forces is refused by RefusePfaffianWith. It keeps scratch, so unlike sys it
// is not safe for concurrent use.
func WithPfaffianRows(sys System) System {
	n, ok := AsNonholonomic(sys)
	if !ok {
		return sys
	}
	nq, nc := sys.Size()
	nn := n.NumPfaffian()
	p := &pfaffianRows{System: sys, rows: newStackedRows(sys, n, nc, nq), n: n, nq: nq, nc: nc, nn: nn,
		der: NewDerivatives(sys), work: mat.NewDense(nq, nq, nil)}
	if s := newSparsePfaffianRows(p); s != System(p) {
		return s
	}
	return withMassCapabilities(p)
}

// withMassCapabilities returns p carrying the wrapped system's dae.MassSolver and
// dae.MassMultiplier: the Pfaffian rows change G, not M, so the articulated-body solve
// and the Newton-Euler product of a joint-coordinate tree stay exact, and eq. 17's Schur
// complement [G; A] M⁻¹ [G; A]ᵀ takes the rows as it takes G's. One type per combination,
// as Go's method sets are static.
func withMassCapabilities(p *pfaffianRows) System {
	ms, solves := p.System.(MassSolver)
	mm, multiplies := p.System.(MassMultiplier)
	switch {
	case solves && multiplies:
		return pfaffianSolveMul{pfaffianSolve{p, ms}, mm}
	case solves:
		return pfaffianSolve{p, ms}
	case multiplies:
		return pfaffianMul{p, mm}
	}
	return p
}

// pfaffianSolve is a pfaffianRows whose wrapped system solves with M (MassSolver).
type pfaffianSolve struct {
	*pfaffianRows
	ms MassSolver
}

// MassSolve is the wrapped system's x = M⁻¹ b (M does not see the Pfaffian rows).
func (p pfaffianSolve) MassSolve(x []float64, t float64, q, b []float64) { p.ms.MassSolve(x, t, q, b) }

// pfaffianMul is a pfaffianRows whose wrapped system multiplies by M (MassMultiplier).
type pfaffianMul struct {
	*pfaffianRows
	mm MassMultiplier
}

// MassMul is the wrapped system's M x.
func (p pfaffianMul) MassMul(dst []float64, t float64, q, x []float64) { p.mm.MassMul(dst, t, q, x) }

// pfaffianSolveMul is a pfaffianRows whose wrapped system has both capabilities.
type pfaffianSolveMul struct {
	pfaffianSolve
	mm MassMultiplier
}

// MassMul is the wrapped system's M x.
func (p pfaffianSolveMul) MassMul(dst []float64, t float64, q, x []float64) {
	p.mm.MassMul(dst, t, q, x)
}

// RefusePfaffianWith returns an error when sys has Pfaffian rows together with a
// capability that WithPfaffianRows does not carry (first-order states, λ-dependent
// forces), naming both; who is the caller ("integrate: dopri5").
func RefusePfaffianWith(who string, sys System) error {
	if !HasNonholonomic(sys) {
		return nil
	}
	switch {
	case StateSize(sys) > 0:
		return fmt.Errorf("%s: %T has nonholonomic constraints (dae.Nonholonomic) and first-order states (dae.FirstOrder); the two together are not supported", who, sys)
	case HasReactionForce(sys):
		return fmt.Errorf("%s: %T has nonholonomic constraints (dae.Nonholonomic) and forces that depend on λ (dae.ReactionForce); the two together are not supported", who, sys)
	}
	return nil
}

// PfaffianRows is implemented by the systems WithPfaffianRows returns: HolonomicRows is the
// number nc of the underlying System's rows, after which the Pfaffian rows follow. A
// formulation that also holds g = 0 (the GGL stabilizer) applies it to those rows only.
type PfaffianRows interface {
	HolonomicRows() int
}

// HolonomicRows returns the number of rows of g (PfaffianRows).
func (p *pfaffianRows) HolonomicRows() int { return p.nc }

// PfaffianNamer is implemented by systems that name their Pfaffian rows.
type PfaffianNamer interface {
	PfaffianName(k int) string
}

type pfaffianRows struct {
	System
	n          Nonholonomic
	nq, nc, nn int
	der        *Derivatives // of the underlying System: analytic where it has them
	rows       stackedRows
	work       *mat.Dense
}

// MassDerivative is the underlying system's ∂(M a)/∂q (analytic or finite differences).
func (p *pfaffianRows) MassDerivative(dst *mat.Dense, t float64, q, a []float64) {
	p.der.MassDerivative(dst, t, q, a)
}

// ForceDerivativeQ is the underlying system's ∂f/∂q (analytic or finite differences).
func (p *pfaffianRows) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	p.der.ForceDerivativeQ(dst, t, q, v)
}

// ForceDerivativeV is the underlying system's ∂f/∂v (analytic or finite differences).
func (p *pfaffianRows) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	p.der.ForceDerivativeV(dst, t, q, v)
}

// ConstraintForceDerivative writes ∂(Gᵀλ + Aᵀμ)/∂q with (λ, μ) = lm: the underlying
// system's ∂(Gᵀλ)/∂q (analytic or finite differences) plus PfaffianForceDerivative.
func (p *pfaffianRows) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lm []float64) {
	if p.nc > 0 {
		p.der.ConstraintForceDerivative(dst, t, q, lm[:p.nc])
	} else {
		dst.Zero()
	}
	p.n.PfaffianForceDerivative(p.work, t, q, lm[p.nc:])
	dst.Add(dst, p.work)
}

func (p *pfaffianRows) Size() (int, int) { return p.nq, p.nc + p.nn }

func (p *pfaffianRows) Constraint(dst []float64, t float64, q []float64) {
	p.rows.constraint(dst, t, q)
}

func (p *pfaffianRows) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	p.rows.jacobian(dst, t, q)
}

func (p *pfaffianRows) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	p.rows.timeDerivative(dst, t, q)
}

func (p *pfaffianRows) Gamma(dst []float64, t float64, q, v []float64) {
	p.rows.gamma(dst, t, q, v)
}

func (p *pfaffianRows) CoordinateName(i int) string { return CoordinateName(p.System, i) }

func (p *pfaffianRows) ConstraintName(i int) string {
	return p.rows.name(p.System, i, func(i int) string { return ConstraintName(p.System, i) })
}

func (p *pfaffianRows) ConstantMass() bool {
	c, ok := p.System.(ConstantMass)
	return ok && c.ConstantMass()
}

func (p *pfaffianRows) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	if e, ok := p.System.(Energy); ok {
		return e.Energy(t, q, v)
	}
	return 0, 0
}

// checkPfaffian compares ∂(A v + b)/∂q and ∂(Aᵀμ)/∂q with central differences of
// Pfaffian, and γ_A with the derivative of A v + b along (t + s, q + s v) at fixed v:
// d/ds (A v + b) = (A v)_q v + A_t v + b_q v + b_t = −γ_A.
func checkPfaffian(n Nonholonomic, p CheckPoint, nq int) []Mismatch {
	nn := n.NumPfaffian()
	mu := make([]float64, nn)
	for k := range mu {
		mu[k] = 1 + 0.5*float64(k) // a generic μ: Check's λ is for the holonomic rows
	}
	A, b := mat.NewDense(nn, nq, nil), make([]float64, nn)
	q := append([]float64(nil), p.Q...)
	rate := func(dst []float64, t float64) { // A v + b at (t, q)
		n.Pfaffian(A, b, t, q)
		mat.NewVecDense(nn, dst).MulVec(A, mat.NewVecDense(nq, p.V))
		for k := range dst {
			dst[k] += b[k]
		}
	}
	force := func(dst []float64, t float64) { // Aᵀμ at (t, q)
		n.Pfaffian(A, b, t, q)
		mat.NewVecDense(nq, dst).MulVec(A.T(), mat.NewVecDense(nn, mu))
	}
	rp, rm := make([]float64, nn), make([]float64, nn)
	fp, fm := make([]float64, nq), make([]float64, nq)
	dr, df := mat.NewDense(nn, nq, nil), mat.NewDense(nq, nq, nil)
	for j, q0 := range p.Q {
		h := FDStep(q0)
		q[j] = q0 + h
		rate(rp, p.T)
		force(fp, p.T)
		q[j] = q0 - h
		rate(rm, p.T)
		force(fm, p.T)
		q[j] = q0
		for k := range nn {
			dr.Set(k, j, (rp[k]-rm[k])/(2*h))
		}
		for i := range nq {
			df.Set(i, j, (fp[i]-fm[i])/(2*h))
		}
	}
	// −γ_A: the rate along the path (t + s, q + s v).
	s := FDStep(1)
	for j := range q {
		q[j] = p.Q[j] + s*p.V[j]
	}
	rate(rp, p.T+s)
	for j := range q {
		q[j] = p.Q[j] - s*p.V[j]
	}
	rate(rm, p.T-s)
	copy(q, p.Q)
	gFD, gAn := mat.NewDense(nn, 1, nil), mat.NewDense(nn, 1, nil)
	n.PfaffianGamma(gAn.RawMatrix().Data, p.T, p.Q, p.V)
	for k := range nn {
		gFD.Set(k, 0, -(rp[k]-rm[k])/(2*s))
	}
	an := mat.NewDense(nn, nq, nil)
	n.PfaffianRateDerivative(an, p.T, p.Q, p.V)
	fn := mat.NewDense(nq, nq, nil)
	n.PfaffianForceDerivative(fn, p.T, p.Q, mu)
	return []Mismatch{
		compare("d(A v + b)/dq", an, dr),
		compare("d(A^T mu)/dq", fn, df),
		compare("gamma_A", gAn, gFD),
	}
}
