package dae

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ImplicitMass is the optional capability of a LinearlyImplicit system whose K is not a
// constant diagonal: full, or depending on t and y,
//
//	K(t, y) y' = φ(t, y)
//
// (Hairer & Wanner 1996, VI.6 and VII.1, "problems of the form M(y) y' = f(y)"): a
// mechanism in minimal coordinates written first order with its configuration-dependent
// mass matrix, y = (q, v), K = diag(I, M(q)), or Andrews' squeezer as M(q) v' = f − Gᵀλ.
// With it, MassDiagonal is not called (it may write anything). A variable whose column of
// K(t₀, y₀) is zero is algebraic (its derivative appears in no equation); an equation
// whose row of K is zero is algebraic.
//
// The Newton matrices of the integrators need the derivative of K(t, y) z in y for the
// current y' = z, ∂(K(t, y) z)/∂y; ImplicitMassDerivative gives it, else the integrators
// take central differences of Mass (MassProductFD).
type ImplicitMass interface {
	// Mass writes K(t, y) (n×n) into dst, every entry.
	Mass(dst *mat.Dense, t float64, y []float64)
	// ConstantMass reports that K depends on neither t nor y: Mass is then called once
	// per run and ∂(K z)/∂y = 0.
	ConstantMass() bool
}

// ImplicitMassDerivative is the optional capability ∂(K(t, y) z)/∂y (n×n) of an
// ImplicitMass system: entry (i, j) is Σ_k ∂K_ik/∂y_j z_k.
type ImplicitMassDerivative interface {
	MassProductJacobian(dst *mat.Dense, t float64, y, z []float64)
}

// AsImplicitMass returns the ImplicitMass capability of sys, or nil when its K is the
// constant diagonal of MassDiagonal.
func AsImplicitMass(sys LinearlyImplicit) ImplicitMass {
	m, _ := sys.(ImplicitMass)
	return m
}

// MassOf writes K(t, y) of sys into dst (n×n): Mass for an ImplicitMass system, else the
// diagonal of MassDiagonal (diag is scratch of length n).
func MassOf(dst *mat.Dense, sys LinearlyImplicit, t float64, y, diag []float64) {
	if m := AsImplicitMass(sys); m != nil {
		m.Mass(dst, t, y)
		return
	}
	sys.MassDiagonal(diag)
	dst.Zero()
	for i, k := range diag {
		dst.Set(i, i, k)
	}
}

// MassProductFD gives ∂(K(t, y) z)/∂y of an ImplicitMass system by central differences
// of Mass, column j with step FDStep(y_j): 2n evaluations of K. It owns its scratch (one
// MassProductFD serves one goroutine) and does not allocate after NewMassProductFD.
type MassProductFD struct {
	sys        ImplicitMass
	Kp, Km     *mat.Dense
	yp         []float64
	colP, colM []float64
}

// NewMassProductFD returns the difference quotient of sys's K for n variables.
func NewMassProductFD(sys ImplicitMass, n int) *MassProductFD {
	return &MassProductFD{sys: sys, Kp: mat.NewDense(n, n, nil), Km: mat.NewDense(n, n, nil),
		yp: make([]float64, n), colP: make([]float64, n), colM: make([]float64, n)}
}

// Jacobian writes ∂(K(t, y) z)/∂y into dst and returns the number of Mass evaluations.
func (d *MassProductFD) Jacobian(dst *mat.Dense, t float64, y, z []float64) int {
	copy(d.yp, y)
	for j := range y {
		h := FDStep(y[j])
		d.yp[j] = y[j] + h
		d.sys.Mass(d.Kp, t, d.yp)
		d.yp[j] = y[j] - h
		d.sys.Mass(d.Km, t, d.yp)
		d.yp[j] = y[j]
		mulVec(d.colP, d.Kp, z)
		mulVec(d.colM, d.Km, z)
		for i := range y {
			dst.Set(i, j, (d.colP[i]-d.colM[i])/(2*h))
		}
	}
	return 2 * len(y)
}

// mulVec writes A z into dst without allocating.
func mulVec(dst []float64, A *mat.Dense, z []float64) {
	for i := range dst {
		var s float64
		for k, a := range A.RawRowView(i) {
			s += a * z[k]
		}
		dst[i] = s
	}
}

// CheckImplicitMass compares the analytic ∂(K(t, y) z)/∂y of sys (ImplicitMassDerivative)
// with central differences of Mass at (t, y, z), entry by entry with the relative gap
// |a − d| ≤ tol·max(1, |d|), and checks that a ConstantMass K does not change between
// (t, y) and a perturbed point. The error names the worst entry. A system with neither
// capability passes.
func CheckImplicitMass(sys LinearlyImplicit, t float64, y, z []float64, tol float64) error {
	m := AsImplicitMass(sys)
	if m == nil {
		return nil
	}
	n := sys.Dim()
	fd := NewMassProductFD(m, n)
	D := mat.NewDense(n, n, nil)
	fd.Jacobian(D, t, y, z)
	if m.ConstantMass() {
		if worst, i, j := maxAbsEntry(D); worst > tol {
			return fmt.Errorf("dae: ConstantMass K changes with y: ∂(K z)/∂y[%d][%d] (%s) = %.3g by differences, want 0", i, j, VariableName(sys, j), worst)
		}
		return nil
	}
	an, ok := sys.(ImplicitMassDerivative)
	if !ok {
		return nil
	}
	A := mat.NewDense(n, n, nil)
	an.MassProductJacobian(A, t, y, z)
	for i := range n {
		for j := range n {
			a, d := A.At(i, j), D.At(i, j)
			if !(math.Abs(a-d) <= tol*math.Max(1, math.Abs(d))) {
				return fmt.Errorf("dae: ∂(K z)/∂y[%d][%d] (equation %d, variable %s) = %.8g analytic, %.8g by differences (want within %g relative)",
					i, j, i, VariableName(sys, j), a, d, tol)
			}
		}
	}
	return nil
}

func maxAbsEntry(A *mat.Dense) (worst float64, wi, wj int) {
	r, c := A.Dims()
	for i := range r {
		for j := range c {
			if a := math.Abs(A.At(i, j)); a > worst {
				worst, wi, wj = a, i, j
			}
		}
	}
	return worst, wi, wj
}
