package dae

import "gonum.org/v1/gonum/mat"

// A LieSystem has Pfaffian rows A(t,q) v + b(t,q) = 0 when it implements Nonholonomic
// with NumPfaffian > 0 (AsLieNonholonomic). On the group the methods read in the algebra:
// A is nn×nv in the velocities v of the Lie algebra (the body-frame twists, as B is),
// PfaffianRateDerivative is the derivative of A v + b along q∘exp(εe_j) (column j, at
// fixed v), PfaffianForceDerivative that of Aᵀμ, and PfaffianGamma is
// γ_A = −d/ds (A v + b) along (t + s, q∘exp(s v)); on a VectorSpace they are the System's.

// AsLieNonholonomic returns the Pfaffian rows of sys, and false when it has none.
func AsLieNonholonomic(sys LieSystem) (Nonholonomic, bool) { return asNonholonomic(sys) }

// WithLiePfaffianRows is WithPfaffianRows on the group: sys with its Pfaffian rows appended
// below Φ as nc + nn rows of one LieSystem,
//
//	B' = [B; A],   Φ' = [Φ; 0],   Φ'_t = [Φ_t; b],   γ' = [γ; γ_A],
//
// so that B' v + Φ'_t = 0 holds both velocity levels and B' v̇ = γ' both acceleration
// levels, with multipliers (λ, μ); Stiffness adds the derivative of Aᵀμ along the group to
// K_t, and ConstraintJacobianDerivative gives the Pfaffian rows' PfaffianRateDerivative.
// The rows after HolonomicRows are no position constraint: a method holds them at the
// velocity level (integrate.LieGenAlpha). sys itself when it has no Pfaffian rows. The
// result is a Namer (the Pfaffian rows named as WithPfaffianRows names them) and a
// PfaffianRows; it keeps scratch and serves one goroutine.
func WithLiePfaffianRows(sys LieSystem) LieSystem {
	n, ok := AsLieNonholonomic(sys)
	if !ok {
		return sys
	}
	nq, nv, nc := sys.LieSize()
	nn := n.NumPfaffian()
	return &liePfaffianRows{LieSystem: sys, rows: newStackedRows(sys, n, nc, nv), n: n, nq: nq, nv: nv,
		nc: nc, nn: nn, work: mat.NewDense(nv, nv, nil)}
}

type liePfaffianRows struct {
	LieSystem
	n              Nonholonomic
	nq, nv, nc, nn int
	rows           stackedRows
	work           *mat.Dense
}

var (
	_ PfaffianRows = (*liePfaffianRows)(nil)
	_ Namer        = (*liePfaffianRows)(nil)
)

// HolonomicRows returns the number of rows of Φ (PfaffianRows).
func (p *liePfaffianRows) HolonomicRows() int { return p.nc }

func (p *liePfaffianRows) LieSize() (nq, nv, nc int) { return p.nq, p.nv, p.nc + p.nn }

func (p *liePfaffianRows) Constraint(dst []float64, t float64, q []float64) {
	p.rows.constraint(dst, t, q)
}

func (p *liePfaffianRows) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	p.rows.jacobian(dst, t, q)
}

func (p *liePfaffianRows) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	p.rows.timeDerivative(dst, t, q)
}

func (p *liePfaffianRows) Gamma(dst []float64, t float64, q, v []float64) {
	p.rows.gamma(dst, t, q, v)
}

// ConstraintJacobianDerivative writes the derivative of B w along the group (sys), then
// the Pfaffian rows' PfaffianRateDerivative (of A w + b).
func (p *liePfaffianRows) ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64) {
	if r := &p.rows; r.hol != nil {
		p.LieSystem.ConstraintJacobianDerivative(r.hol, t, q, w)
		copyRows(dst, 0, r.hol, p.nc)
	}
	p.n.PfaffianRateDerivative(p.rows.A, t, q, w)
	copyRows(dst, p.nc, p.rows.A, p.nn)
}

// Stiffness writes sys's K_t with λ = lambda[:nc] plus the derivative of Aᵀμ along the
// group, μ = lambda[nc:].
func (p *liePfaffianRows) Stiffness(dst *mat.Dense, t float64, q, v, vdot, lambda []float64) {
	p.LieSystem.Stiffness(dst, t, q, v, vdot, lambda[:p.nc])
	p.n.PfaffianForceDerivative(p.work, t, q, lambda[p.nc:])
	dst.Add(dst, p.work)
}

// CoordinateName is sys's name of velocity i ("" without one).
func (p *liePfaffianRows) CoordinateName(i int) string {
	if n, ok := p.LieSystem.(Namer); ok {
		return n.CoordinateName(i)
	}
	return ""
}

// ConstraintName is sys's name of row i of Φ, else the Pfaffian row's name
// (PfaffianNamer), else pfaffian[k].
func (p *liePfaffianRows) ConstraintName(i int) string {
	return p.rows.name(p.LieSystem, i, func(i int) string {
		if n, ok := p.LieSystem.(Namer); ok {
			return n.ConstraintName(i)
		}
		return ""
	})
}
