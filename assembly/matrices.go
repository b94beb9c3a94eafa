package assembly

import (
	"sync"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// matrices.go: one writer per matrix ⇒ both the dense methods of dae.System and its
// derivative capabilities and the sparse ones of dae.SparseEvaluator.

// MatrixWriter is what a route writes once, against a Target, for both paths: M, G, and the
// coupling matrices ∂(M a)/∂q, ∂(Gᵀλ)/∂q, ∂f/∂q, ∂f/∂v (dae.System and its capabilities
// give their meaning). Each writes every entry of its Target and does not allocate.
type MatrixWriter interface {
	WriteMass(dst Target, t float64, q []float64)
	WriteConstraintJacobian(dst Target, t float64, q []float64)
	WriteMassDerivative(dst Target, t float64, q, a []float64)
	WriteConstraintForceDerivative(dst Target, t float64, q, lambda []float64)
	WriteForceDerivativeQ(dst Target, t float64, q, v []float64)
	WriteForceDerivativeV(dst Target, t float64, q, v []float64)
}

// Matrices gives a route's System the dense matrix methods (Mass, ConstraintJacobian,
// MassDerivative, ConstraintForceDerivative, ForceDerivativeQ, ForceDerivativeV) and the
// sparse ones of dae.SparseEvaluator (MassValues, …) from its MatrixWriter: the System
// embeds Matrices and calls Init at the end of assembly. The CSR patterns are built on the
// first sparse evaluation (a dense coupling, from custom forces, has nq² entries and is
// built only when asked for).
type Matrices struct {
	w      MatrixWriter
	sp     dae.Sparsity
	nq, nc int
	elems  Elements

	once                             sync.Once
	mass, g, coupling                dae.CSR
	massSlots, gSlots, couplingSlots slots // positions on the patterns (slots.go)
}

// Init binds the writer and its patterns (usually the same System), the sizes and the
// route's elements, whose entries' positions in the patterns are found once with them.
func (m *Matrices) Init(w MatrixWriter, sp dae.Sparsity, nq, nc int, e Elements) {
	m.w, m.sp, m.nq, m.nc, m.elems = w, sp, nq, nc, e
}

// patterns builds the CSR patterns and the positions on them once.
func (m *Matrices) patterns() {
	m.once.Do(func() {
		m.mass = dae.MassCSR(m.sp, m.nq)
		m.g = dae.ConstraintCSR(m.sp, m.nq, m.nc)
		m.coupling = dae.CouplingCSR(m.sp, m.nq)
		m.massSlots = newSlots(&m.mass, true, Elements{})
		m.gSlots = newSlots(&m.g, false, m.elems)
		m.couplingSlots = newSlots(&m.coupling, true, m.elems)
	})
}

// CouplingTarget returns the target writing into vals aligned with the coupling pattern,
// with the positions found once (for a route's further value methods, as
// dae.SparseReactionForce's).
func (m *Matrices) CouplingTarget(vals []float64) Target {
	m.patterns()
	return sparseAt(&m.couplingSlots, vals)
}

// ConstraintTarget returns the target writing into vals aligned with G's pattern, with
// the positions found once.
func (m *Matrices) ConstraintTarget(vals []float64) Target {
	m.patterns()
	return sparseAt(&m.gSlots, vals)
}

// ConstraintValuesOf returns the value array t writes into when t is a target on G's
// pattern that m made (ConstraintTarget), else nil: a route may then add at the positions
// it took from ConstraintTarget once (planar's revolute rows) instead of asking t for them
// term by term.
func (m *Matrices) ConstraintValuesOf(t *Target) []float64 {
	if t.slots != &m.gSlots {
		return nil
	}
	return t.vals
}

// CouplingValuesOf returns the value array t writes into when t is a target on the
// coupling pattern that m made (CouplingTarget and the coupling matrices' value methods),
// else nil, as ConstraintValuesOf.
func (m *Matrices) CouplingValuesOf(t *Target) []float64 {
	if t.slots != &m.couplingSlots {
		return nil
	}
	return t.vals
}

// Patterns returns the CSR patterns of the coupling matrices and of G (shared: do not
// modify), for a route's further value methods (dae.SparseReactionForce).
func (m *Matrices) Patterns() (coupling, g *dae.CSR) {
	m.patterns()
	return &m.coupling, &m.g
}

// Mass writes M(t, q) (nq×nq).
func (m *Matrices) Mass(dst *mat.Dense, t float64, q []float64) { m.w.WriteMass(Dense(dst), t, q) }

// ConstraintJacobian writes G = ∂g/∂q (nc×nq).
func (m *Matrices) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	m.w.WriteConstraintJacobian(Dense(dst), t, q)
}

// MassDerivative writes ∂(M a)/∂q.
func (m *Matrices) MassDerivative(dst *mat.Dense, t float64, q, a []float64) {
	m.w.WriteMassDerivative(Dense(dst), t, q, a)
}

// ConstraintForceDerivative writes ∂(Gᵀλ)/∂q = Σ_r λ_r ∇²g_r.
func (m *Matrices) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	m.w.WriteConstraintForceDerivative(Dense(dst), t, q, lambda)
}

// ForceDerivativeQ writes ∂f/∂q.
func (m *Matrices) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	m.w.WriteForceDerivativeQ(Dense(dst), t, q, v)
}

// ForceDerivativeV writes ∂f/∂v.
func (m *Matrices) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	m.w.WriteForceDerivativeV(Dense(dst), t, q, v)
}

// MassValues writes M into the values of dae.MassCSR (dae.SparseEvaluator).
func (m *Matrices) MassValues(dst []float64, t float64, q []float64) {
	m.patterns()
	m.w.WriteMass(sparseAt(&m.massSlots, dst), t, q)
}

// ConstraintJacobianValues writes G into the values of dae.ConstraintCSR.
func (m *Matrices) ConstraintJacobianValues(dst []float64, t float64, q []float64) {
	m.patterns()
	m.w.WriteConstraintJacobian(sparseAt(&m.gSlots, dst), t, q)
}

// MassDerivativeValues writes ∂(M a)/∂q into the values of dae.CouplingCSR.
func (m *Matrices) MassDerivativeValues(dst []float64, t float64, q, a []float64) {
	m.patterns()
	m.w.WriteMassDerivative(sparseAt(&m.couplingSlots, dst), t, q, a)
}

// ConstraintForceDerivativeValues writes ∂(Gᵀλ)/∂q into the values of dae.CouplingCSR.
func (m *Matrices) ConstraintForceDerivativeValues(dst []float64, t float64, q, lambda []float64) {
	m.patterns()
	m.w.WriteConstraintForceDerivative(sparseAt(&m.couplingSlots, dst), t, q, lambda)
}

// ForceDerivativeQValues writes ∂f/∂q into the values of dae.CouplingCSR.
func (m *Matrices) ForceDerivativeQValues(dst []float64, t float64, q, v []float64) {
	m.patterns()
	m.w.WriteForceDerivativeQ(sparseAt(&m.couplingSlots, dst), t, q, v)
}

// ForceDerivativeVValues writes ∂f/∂v into the values of dae.CouplingCSR.
func (m *Matrices) ForceDerivativeVValues(dst []float64, t float64, q, v []float64) {
	m.patterns()
	m.w.WriteForceDerivativeV(sparseAt(&m.couplingSlots, dst), t, q, v)
}
