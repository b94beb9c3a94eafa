package dae

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// LinearlyImplicit is a differential-algebraic system that is not M q” = f − Gᵀλ: the
// linearly implicit form of the IVP test set (Mazzia & Iavernaro 2003) and of RADAU5 with
// a mass matrix (Hairer & Wanner 1996, VII.1 and IV.8),
//
//	K y' = φ(t, y),   K = diag(k₁, …, k_n) constant,
//
// with every variable's differentiation index declared, as the test set does: a
// variable of index 1 is differential or an index-1 algebraic unknown, those of index 2
// and 3 are the higher-index algebraic unknowns (and the velocities of an index-3
// mechanism). The implicit integrators (radau5, bdf) scale the error of a variable of
// index i by h^(i−1) (Hairer & Wanner 1996, VII.8, RADAU5's NIND1/2/3), so the declared
// indices decide what the error test measures. The equations of motion of a System are
// integrated by radau5 and bdf in this very form (y = (q, v, a, λ), K = diag(I, I, 0, 0)).
//
// K is constant and diagonal here; a full or state-dependent K(t, y) is the optional
// capability ImplicitMass, which adds ∂(K y')/∂y to the Newton matrices. Implementations are read-only
// during a run, take the destination first, write all of it, retain none of their
// arguments and do not allocate.
type LinearlyImplicit interface {
	// Dim returns n, the number of variables.
	Dim() int
	// MassDiagonal writes the diagonal k₁, …, k_n of K into dst; k_i = 0 marks an
	// algebraic equation.
	MassDiagonal(dst []float64)
	// Indices writes the differentiation index (1, 2 or 3) of each variable into dst.
	Indices(dst []int)
	// Rhs writes φ(t, y) into dst (length n).
	Rhs(dst []float64, t float64, y []float64)
}

// LinearlyImplicitJacobian is the optional capability ∂φ/∂y of a LinearlyImplicit
// system (n×n); without it the integrators take central differences of Rhs (FDStep).
type LinearlyImplicitJacobian interface {
	RhsJacobian(dst *mat.Dense, t float64, y []float64)
}

// VariableNamer is the optional capability of naming the variables of a LinearlyImplicit
// system, so that errors say which variable or equation is meant.
type VariableNamer interface {
	VariableName(i int) string
}

// VariableName returns the name sys gives variable i, or "y[i]".
func VariableName(sys LinearlyImplicit, i int) string {
	if n, ok := sys.(VariableNamer); ok {
		if s := n.VariableName(i); s != "" {
			return s
		}
	}
	return fmt.Sprintf("y[%d]", i)
}

// CheckLinearlyImplicit checks the declaration of sys and that (y0, yp0) is a consistent
// start at t0: every index is 1, 2 or 3, every entry of K(t0, y0) is finite (the diagonal,
// or the full matrix of an ImplicitMass system), and every equation holds,
//
//	|(K y')_i − φ_i(t0, y0)| ≤ tol·max(1, |φ_i|, |(K y')_i|).
//
// The error lists every inconsistent equation with its residual (the test set's users
// supply y0 and y'0 together; a wrong y'0 in a differential equation is as fatal as a
// violated algebraic one). Lengths other than Dim() panic (misuse).
func CheckLinearlyImplicit(sys LinearlyImplicit, t0 float64, y0, yp0 []float64, tol float64) error {
	n := sys.Dim()
	if len(y0) != n || len(yp0) != n {
		panic(fmt.Sprintf("dae: CheckLinearlyImplicit: len(y0) = %d, len(yp0) = %d, want Dim() = %d", len(y0), len(yp0), n))
	}
	idx, phi, kyp := make([]int, n), make([]float64, n), make([]float64, n)
	K := mat.NewDense(n, n, nil)
	MassOf(K, sys, t0, y0, kyp)
	sys.Indices(idx)
	for i := range n {
		if idx[i] < 1 || idx[i] > 3 {
			return fmt.Errorf("dae: linearly implicit system: variable %d (%s) has index %d, want 1, 2 or 3", i, VariableName(sys, i), idx[i])
		}
		for j, k := range K.RawRowView(i) {
			if math.IsNaN(k) || math.IsInf(k, 0) {
				return fmt.Errorf("dae: linearly implicit system: K[%d][%d] (equation %d, variable %s) = %g at t=%g, want a finite value", i, j, i, VariableName(sys, j), k, t0)
			}
		}
	}
	mulVec(kyp, K, yp0)
	sys.Rhs(phi, t0, y0)
	var bad []string
	for i := range n {
		lhs := kyp[i]
		r := lhs - phi[i]
		if !(math.Abs(r) <= tol*math.Max(1, math.Max(math.Abs(phi[i]), math.Abs(lhs)))) {
			bad = append(bad, fmt.Sprintf("equation %d (%s): K y' − φ = %.3g", i, VariableName(sys, i), r))
		}
	}
	if bad != nil {
		return fmt.Errorf("dae: inconsistent start at t=%g (want |K y' − φ| ≤ %g relative): %s", t0, tol, strings.Join(bad, "; "))
	}
	return nil
}
