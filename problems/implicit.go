package problems

import (
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// ImplicitProblem is a benchmark given as a linearly implicit system K y' = φ(t, y)
// (dae.LinearlyImplicit) rather than as a dae.System: consistent y₀ and y'₀, a time span
// and a reference for y. Only methods with integrate.Entry.Implicit (radau5, bdf) take it.
type ImplicitProblem struct {
	Name, Title, Source string
	System              dae.LinearlyImplicit
	T0, TEnd            float64
	Y0, YP0             []float64
	// Ref holds the reference y in Q (V, A and Lambda nil); SCD is taken over
	// Ref.SCDIndices of y.
	Ref Reference
	Tol float64 // a sensible default tolerance (RTol = ATol) for `linkage solve`
}

var implicitNames = [...]string{"andrews-implicit", "andrews-mass"}

// ImplicitNames returns the names of the problems GetImplicit knows.
func ImplicitNames() []string { return implicitNames[:] }

// GetImplicit returns the linearly implicit problem called name.
func GetImplicit(name string) (ImplicitProblem, error) {
	switch name {
	case "andrews-implicit":
		return andrewsImplicitProblem(), nil
	case "andrews-mass":
		return andrewsMassProblem(), nil
	}
	return ImplicitProblem{}, fmt.Errorf("problems: unknown linearly implicit problem %q; valid names: %s", name, strings.Join(implicitNames[:], ", "))
}

// andrewsImplicit is Andrews' squeezing mechanism written as the IVP test set writes it
// (Mazzia & Iavernaro 2003, II.13; andrews.json "equations"), a 27-variable linearly
// implicit DAE of index 3 with y = (q, v, w, λ), w = q”:
//
//	q' = v,   v' = w,   0 = f(q, v) − M(q) w − G(q)ᵀ λ,   0 = g(q),
//
// K = diag(I₁₄, 0₁₃), indices 1 (q), 2 (v), 3 (w, λ) as the test set declares them. M, f,
// g and G are those of the dae.System "andrews" (andfunc of the test set); ∂φ/∂y is left
// to the integrators' finite differences, as a user who writes only φ would.
type andrewsImplicit struct{ p *andrews }

func (a andrewsImplicit) Dim() int { return 27 }

func (a andrewsImplicit) MassDiagonal(dst []float64) {
	for i := range dst {
		dst[i] = 0
		if i < 14 {
			dst[i] = 1
		}
	}
}

func (a andrewsImplicit) Indices(dst []int) {
	for i := range dst {
		switch {
		case i < 7:
			dst[i] = 1
		case i < 14:
			dst[i] = 2
		default:
			dst[i] = 3
		}
	}
}

// Rhs writes φ(t, y). M and G are evaluated into stack arrays (7×7, 6×7), so it does
// not allocate and keeps no scratch.
func (a andrewsImplicit) Rhs(dst []float64, t float64, y []float64) {
	q, v, w, lambda := y[0:7], y[7:14], y[14:21], y[21:27]
	var mData [49]float64
	var gData [42]float64
	M := mat.NewDense(7, 7, mData[:])
	G := mat.NewDense(6, 7, gData[:])
	a.p.Mass(M, t, q)
	a.p.ConstraintJacobian(G, t, q)
	copy(dst[0:7], v)
	copy(dst[7:14], w)
	dyn := dst[14:21]
	a.p.Force(dyn, t, q, v)
	for i := range 7 {
		var s float64
		for j := range 7 {
			s += mData[7*i+j] * w[j]
		}
		for k := range 6 {
			s += gData[7*k+i] * lambda[k]
		}
		dyn[i] -= s
	}
	a.p.Constraint(dst[21:27], t, q)
}

// VariableName names y by the angles of the mechanism (andrewsCoordNames) and the loop
// constraints.
func (a andrewsImplicit) VariableName(i int) string { return andrewsVariableName(i, 3) }

// andrewsVariableName names variable i of y = (q, q', …, λ) with levels blocks of angles
// (q, then its derivatives marked by primes) before the multipliers.
func andrewsVariableName(i, levels int) string {
	if i < 7*levels {
		return andrewsCoordNames[i%7] + strings.Repeat("'", i/7)
	}
	return "lambda:" + andrewsConstraintNames[i-7*levels]
}

func andrewsImplicitProblem() ImplicitProblem {
	p := andrewsProblem()
	y0 := make([]float64, 27)
	copy(y0[0:7], p.Start.Q)
	copy(y0[14:21], p.Start.A)
	copy(y0[21:27], p.Start.Lambda)
	// y'₀ = (v₀, w₀, 0): the test set's andinit (andrews.json "initial_values".yprime).
	yp0 := make([]float64, 27)
	copy(yp0[7:14], p.Start.A)
	ref := p.Ref
	refY := append(append(append(append([]float64(nil), ref.Q...), ref.V...), ref.A...), ref.Lambda...)
	return ImplicitProblem{
		Name:   "andrews-implicit",
		Title:  "Andrews' squeezing mechanism as the IVP test set's linearly implicit index-3 DAE (27 variables)",
		Source: p.Source + "; written as K y' = φ(t, y) with K = diag(I14, 0), indices 7×1, 7×2, 13×3 (test set II.13)",
		System: andrewsImplicit{p: newAndrews()},
		T0:     p.T0, TEnd: p.TEnd,
		Y0: y0, YP0: yp0,
		Ref: Reference{T: ref.T, Q: refY, SCDIndices: ref.SCDIndices, Source: ref.Source},
		Tol: 1e-6,
	}
}

// andrewsMass is Andrews' squeezing mechanism with the configuration-dependent mass
// matrix in K (dae.ImplicitMass), the form Hairer & Wanner (1996, VII.7) write it in
// before the test set moves M into φ: 20 variables y = (q, v, λ),
//
//	q' = v,   M(q) v' = f(q, v) − G(q)ᵀ λ,   0 = g(q),
//
// K(y) = diag(I₇, M(q), 0₆), full in its M blocks and state-dependent, indices 1 (q),
// 2 (v), 3 (λ) as in andrews-implicit. ∂(K z)/∂y is ∂(M z_v)/∂q in rows v, columns q
// (the System's MassDerivative); ∂φ/∂y is left to finite differences.
type andrewsMass struct{ p *andrews }

var (
	_ dae.ImplicitMass           = andrewsMass{}
	_ dae.ImplicitMassDerivative = andrewsMass{}
)

func (a andrewsMass) Dim() int               { return 20 }
func (a andrewsMass) MassDiagonal([]float64) {} // not called: K is Mass's
func (a andrewsMass) ConstantMass() bool     { return false }

func (a andrewsMass) Indices(dst []int) {
	for i := range dst {
		dst[i] = 1 + min(i/7, 2)
	}
}

// Mass writes K(y) = diag(I₇, M(q), 0₆); M goes through a stack array, so it does not
// allocate.
func (a andrewsMass) Mass(dst *mat.Dense, t float64, y []float64) {
	var mData [49]float64
	a.p.Mass(mat.NewDense(7, 7, mData[:]), t, y[0:7])
	dst.Zero()
	for i := range 7 {
		dst.Set(i, i, 1)
		for j := range 7 {
			dst.Set(7+i, 7+j, mData[7*i+j])
		}
	}
}

// MassProductJacobian writes ∂(K z)/∂y: ∂(M(q) z_v)/∂q in rows 7..13, columns 0..6.
func (a andrewsMass) MassProductJacobian(dst *mat.Dense, t float64, y, z []float64) {
	var dData [49]float64
	a.p.MassDerivative(mat.NewDense(7, 7, dData[:]), t, y[0:7], z[7:14])
	dst.Zero()
	for i := range 7 {
		for j := range 7 {
			dst.Set(7+i, j, dData[7*i+j])
		}
	}
}

// Rhs writes φ(t, y) = (v, f(q, v) − G(q)ᵀλ, g(q)), G through a stack array.
func (a andrewsMass) Rhs(dst []float64, t float64, y []float64) {
	q, v, lambda := y[0:7], y[7:14], y[14:20]
	var gData [42]float64
	a.p.ConstraintJacobian(mat.NewDense(6, 7, gData[:]), t, q)
	copy(dst[0:7], v)
	dyn := dst[7:14]
	a.p.Force(dyn, t, q, v)
	for i := range 7 {
		for k := range 6 {
			dyn[i] -= gData[7*k+i] * lambda[k]
		}
	}
	a.p.Constraint(dst[14:20], t, q)
}

// VariableName names y as andrews-implicit does.
func (a andrewsMass) VariableName(i int) string { return andrewsVariableName(i, 2) }

func andrewsMassProblem() ImplicitProblem {
	p := andrewsProblem()
	y0 := make([]float64, 20)
	copy(y0[0:7], p.Start.Q)
	copy(y0[14:20], p.Start.Lambda)
	// y'₀ = (v₀, a₀, 0): M(q₀) a₀ = f − Gᵀλ₀ holds with the test set's andinit values.
	yp0 := make([]float64, 20)
	copy(yp0[7:14], p.Start.A)
	ref := p.Ref
	refY := append(append(append([]float64(nil), ref.Q...), ref.V...), ref.Lambda...)
	return ImplicitProblem{
		Name:   "andrews-mass",
		Title:  "Andrews' squeezing mechanism as M(q) v' = f − Gᵀλ: K(y) = diag(I7, M(q), 0), state-dependent (20 variables)",
		Source: p.Source + "; written as K(y) y' = φ(t, y) with K = diag(I7, M(q), 0), indices 7×1, 7×2, 6×3 (Hairer & Wanner 1996, VII.7)",
		System: andrewsMass{p: newAndrews()},
		T0:     p.T0, TEnd: p.TEnd,
		Y0: y0, YP0: yp0,
		Ref: Reference{T: ref.T, Q: refY, SCDIndices: ref.SCDIndices, Source: ref.Source},
		Tol: 1e-6,
	}
}
