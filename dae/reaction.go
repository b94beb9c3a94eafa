package dae

import (
	"gonum.org/v1/gonum/mat"
)

// ReactionForce is the optional capability of applied forces that depend on the
// multipliers, as joint friction does (its normal force is a joint reaction; seed 004,
// eq. 8b lists such forces in the HHT-I3 formulation). The equations of motion become
//
//	M(t,q) a = f(t,q,v) + f_λ(t,q,v,λ) − G(t,q)ᵀ λ,    0 = g(t,q),
//
// with System.Force returning f alone, so that a method unaware of f_λ can be told apart
// from one that includes it: every integrator either adds f_λ with its derivatives to its
// residual and Newton matrix or refuses the system at Init (no λ-dependent force is
// evaluated with a stale λ). Systems without the capability pay nothing: the methods test
// for it once, at Init.
//
// The derivative ∂f_λ/∂λ is nq×nc; its nonzeros lie in the pattern of Gᵀ (a reaction
// force acts on the coordinates of the bodies its constraint joins), which lets the sparse
// path write it on ConstraintCSR and place it in the Newton matrices where Gᵀ already is.
//
// A modeling route whose systems may or may not have such forces (a planar model with or
// without joint friction) implements the methods on every system and answers
// HasReactionForce per instance; AsReactionForce is the one test every caller uses.
type ReactionForce interface {
	// HasReactionForce reports whether this system has λ-dependent forces at all; false
	// makes it a System without the capability.
	HasReactionForce() bool
	// AddReactionForce adds f_λ(t,q,v,λ) to dst (length nq).
	AddReactionForce(dst []float64, t float64, q, v, lambda []float64)
	// ReactionForceDerivative writes ∂f_λ/∂q and ∂f_λ/∂v (nq×nq) into fq and fv and
	// ∂f_λ/∂λ (nq×nc) into fl (nil when nc = 0).
	ReactionForceDerivative(fq, fv, fl *mat.Dense, t float64, q, v, lambda []float64)
}

// SparseReactionForce is the sparse evaluation path of ReactionForce for a
// SparseEvaluator: ∂f_λ/∂q and ∂f_λ/∂v on CouplingCSR (fq, fv) and the transpose
// (∂f_λ/∂λ)ᵀ on ConstraintCSR (flT, entry (i, j) = ∂f_λ,j/∂λ_i). Like the other value
// methods it writes every entry, retains nothing and does not allocate; CheckSparse
// verifies it against ReactionForceDerivative.
type SparseReactionForce interface {
	ReactionForce
	ReactionForceDerivativeValues(fq, fv, flT []float64, t float64, q, v, lambda []float64)
}

// AsReactionForce returns the λ-dependent forces of sys, and false when it has none (it
// does not implement ReactionForce, or HasReactionForce is false).
func AsReactionForce(sys System) (ReactionForce, bool) {
	r, ok := sys.(ReactionForce)
	if !ok || !r.HasReactionForce() {
		return nil, false
	}
	return r, true
}

// HasReactionForce reports whether sys has λ-dependent forces (AsReactionForce).
func HasReactionForce(sys System) bool {
	_, ok := AsReactionForce(sys)
	return ok
}

// checkReaction compares ∂f_λ/∂q, ∂f_λ/∂v and ∂f_λ/∂λ with central differences of
// AddReactionForce at p.
func checkReaction(r ReactionForce, p CheckPoint, nq, nc int) []Mismatch {
	lambda := orZero(p.Lambda, nc)
	fq, fv, fl := mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil), mat.NewDense(nq, max(nc, 1), nil)
	if nc == 0 {
		fl = nil
	}
	r.ReactionForceDerivative(fq, fv, fl, p.T, p.Q, p.V, lambda)
	q, v, l := append([]float64(nil), p.Q...), append([]float64(nil), p.V...), append([]float64(nil), lambda...)
	fp, fm := make([]float64, nq), make([]float64, nq)
	eval := func(dst []float64) {
		clear(dst)
		r.AddReactionForce(dst, p.T, q, v, l)
	}
	// diff returns the central differences of f_λ with respect to x (one of q, v, λ).
	diff := func(x []float64) *mat.Dense {
		d := mat.NewDense(nq, max(len(x), 1), nil)
		for j, x0 := range x {
			h := FDStep(x0)
			x[j] = x0 + h
			eval(fp)
			x[j] = x0 - h
			eval(fm)
			x[j] = x0
			for i := range nq {
				d.Set(i, j, (fp[i]-fm[i])/(2*h))
			}
		}
		return d
	}
	out := []Mismatch{
		compare("df_lambda/dq", fq, diff(q)),
		compare("df_lambda/dv", fv, diff(v)),
	}
	if nc > 0 {
		out = append(out, compare("df_lambda/dlambda", fl, diff(l)))
	}
	return out
}
