package dae

import (
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// System is the constrained equations of motion of seed 002, eq. 16:
//
//	M(t,q) a = f(t,q,v) − G(t,q)ᵀ λ,    0 = g(t,q).
//
// Implementations are read-only during a run: evaluations take the destination first,
// write all of it, retain none of their arguments and do not allocate.
type System interface {
	// Size returns the number of generalized coordinates nq and of constraints nc.
	Size() (nq, nc int)
	// Mass writes the nq×nq mass matrix M(t,q) into dst.
	Mass(dst *mat.Dense, t float64, q []float64)
	// Force writes the applied and gyroscopic generalized forces f(t,q,v) into dst (length nq).
	Force(dst []float64, t float64, q, v []float64)
	// Constraint writes the position constraints g(t,q) into dst (length nc).
	Constraint(dst []float64, t float64, q []float64)
	// ConstraintJacobian writes the nc×nq constraint Jacobian G = ∂g/∂q into dst.
	ConstraintJacobian(dst *mat.Dense, t float64, q []float64)
	// ConstraintTimeDerivative writes g_t = ∂g/∂t into dst (length nc); zero for
	// scleronomic constraints.
	ConstraintTimeDerivative(dst []float64, t float64, q []float64)
	// Gamma writes the right side of the acceleration constraints G a = γ into dst
	// (length nc): γ = −(G v)_q v − 2 G_t v − g_tt.
	Gamma(dst []float64, t float64, q, v []float64)
}

// MassDerivative is the optional capability ∂(M(t,q) a)/∂q, an nq×nq matrix, needed in
// the iteration matrices of implicit methods (seed 004, eq. 14). Systems with a constant
// mass matrix may instead implement ConstantMass.
type MassDerivative interface {
	MassDerivative(dst *mat.Dense, t float64, q, a []float64)
}

// ConstraintForceDerivative is the optional capability ∂(G(t,q)ᵀ λ)/∂q, an nq×nq matrix
// (the constraint Hessians contracted with λ).
type ConstraintForceDerivative interface {
	ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64)
}

// ForceDerivative is the optional capability of the force Jacobians ∂f/∂q and ∂f/∂v
// (stiffness and damping matrices up to sign), both nq×nq.
type ForceDerivative interface {
	ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64)
	ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64)
}

// ConstantMass is implemented by systems whose mass matrix depends on neither t nor q;
// ∂(M a)/∂q is then zero and M may be factorized once.
type ConstantMass interface {
	ConstantMass() bool
}

// Namer is the optional capability of naming coordinates and constraints, so that errors
// can say which joint or element owns a residual.
type Namer interface {
	CoordinateName(i int) string
	ConstraintName(i int) string
}

// Energy is the optional capability of reporting kinetic and potential energy, for the
// energy invariant T + V − ∫ vᵀ f_nc dt of seed 001 (eqs. 11-12).
type Energy interface {
	Energy(t float64, q, v []float64) (kinetic, potential float64)
}

// CoordinateName returns the name sys gives coordinate i, or "q[i]".
func CoordinateName(sys System, i int) string {
	if n, ok := sys.(Namer); ok {
		if s := n.CoordinateName(i); s != "" {
			return s
		}
	}
	return indexName(0, "q[", i)
}

// ConstraintName returns the name sys gives constraint i, or "g[i]".
func ConstraintName(sys System, i int) string {
	if n, ok := sys.(Namer); ok {
		if s := n.ConstraintName(i); s != "" {
			return s
		}
	}
	return indexName(1, "g[", i)
}

// indexNameCount is how many names "q[i]" and "g[i]" indexNames holds made.
const indexNameCount = 1024

// indexNames holds "q[i]" and "g[i]" for i < indexNameCount, made when the package is
// loaded and never changed: the integrators name the worst residual of every failed Newton
// iteration (a step's normal work), and for a System without Namer formatting the name
// there allocated inside a step (made lazily, the table's first use did).
var indexNames = func() *[2][indexNameCount]string {
	names := new([2][indexNameCount]string)
	for k, prefix := range [2]string{"q[", "g["} {
		for i := range indexNameCount {
			names[k][i] = prefix + strconv.Itoa(i) + "]"
		}
	}
	return names
}()

// indexName returns prefix + i + "]", from indexNames[k] when i is small enough.
func indexName(k int, prefix string, i int) string {
	if 0 <= i && i < indexNameCount {
		return indexNames[k][i]
	}
	return prefix + strconv.Itoa(i) + "]"
}
