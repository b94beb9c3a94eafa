package integrate

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// reaction.go: forces that depend on the multipliers, f_λ(t,q,v,λ) (dae.ReactionForce,
// issue 16). An implicit method adds f_λ to f in its residual and, in its Newton matrix,
// ∂f_λ/∂q and ∂f_λ/∂v where ∂f/∂q and ∂f/∂v go and −∂f_λ/∂λ where Gᵀ goes (the residual
// holds Gᵀλ − f − f_λ). A method that does not refuses the system at Init.

// reaction holds the λ-dependent force of a system and its derivatives for one method: on
// the dense path Fq, Fv (nq×nq) and Fl (nq×nc), on the sparse path the values Vq, Vv on
// CouplingCSR and VlT = (∂f_λ/∂λ)ᵀ on ConstraintCSR. A nil *reaction (a system without
// the capability) adds nothing.
type reaction struct {
	rf         dae.ReactionForce
	srf        dae.SparseReactionForce // sparse path, else nil
	Fq, Fv, Fl *mat.Dense
	Vq, Vv     []float64
	VlT        []float64
}

// newReaction returns the λ-dependent force of sys for a method on the sparse path sp (or
// dense when sp is nil), or nil when sys has none.
func newReaction(sys dae.System, sp *sparseEval) *reaction {
	rf, ok := dae.AsReactionForce(sys)
	if !ok {
		return nil
	}
	r := &reaction{rf: rf}
	if sp != nil {
		r.srf = sys.(dae.SparseReactionForce) // newSparseEval refuses a system without it
		r.Vq, r.Vv = make([]float64, sp.coup.NNZ()), make([]float64, sp.coup.NNZ())
		r.VlT = make([]float64, sp.con.NNZ())
		return r
	}
	r.allocDense(sys.Size())
	return r
}

// newReactionDeferred is newReaction without the dense derivative matrices, which
// allocDense sizes when needed: for a method whose Newton-Krylov path takes only f_λ
// (hht, genalpha), so that it stores no nq×nq matrix.
func newReactionDeferred(sys dae.System, sp *sparseEval) *reaction {
	if sp != nil {
		return newReaction(sys, sp)
	}
	if rf, ok := dae.AsReactionForce(sys); ok {
		return &reaction{rf: rf}
	}
	return nil
}

// allocDense sizes Fq, Fv (nq×nq) and Fl (nq×nc) on the dense path, once; it does nothing
// on the sparse path or for a nil r.
func (r *reaction) allocDense(nq, nc int) {
	if r == nil || r.srf != nil || r.Fq != nil {
		return
	}
	r.Fq, r.Fv = mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
	if nc > 0 {
		r.Fl = mat.NewDense(nq, nc, nil)
	}
}

// add adds f_λ(t, q, v, λ) to dst.
func (r *reaction) add(dst []float64, t float64, q, v, lambda []float64) {
	if r != nil {
		r.rf.AddReactionForce(dst, t, q, v, lambda)
	}
}

// derivatives evaluates ∂f_λ/∂(q, v, λ) at (t, q, v, λ) into Fq, Fv, Fl or the values.
func (r *reaction) derivatives(t float64, q, v, lambda []float64) {
	if r.srf != nil {
		r.srf.ReactionForceDerivativeValues(r.Vq, r.Vv, r.VlT, t, q, v, lambda)
		return
	}
	r.rf.ReactionForceDerivative(r.Fq, r.Fv, r.Fl, t, q, v, lambda)
}

// addDense adds, to the row-major matrix K of row stride n, wq·∂f_λ/∂q at (r0, cq),
// wv·∂f_λ/∂v at (r0, cv) and wl·∂f_λ/∂λ at (r0, cl), after derivatives.
func (r *reaction) addDense(K []float64, n, r0, cq, cv, cl int, wq, wv, wl float64) {
	nq, _ := r.Fq.Dims()
	for i := range nq {
		fq, fv := r.Fq.RawRowView(i), r.Fv.RawRowView(i)
		row := K[(r0+i)*n:]
		for j := range nq {
			row[cq+j] += wq * fq[j]
			row[cv+j] += wv * fv[j]
		}
		if r.Fl != nil {
			for k, x := range r.Fl.RawRowView(i) {
				row[cl+k] += wl * x
			}
		}
	}
}

// addSparse adds wq·∂f_λ/∂q, wv·∂f_λ/∂v and wl·∂f_λ/∂λ to a Newton matrix's values at
// the positions cq, cv (maps of the coupling pattern) and cl (a transposed map of G's
// pattern), after derivatives.
func (r *reaction) addSparse(K []float64, cq, cv, cl []int, wq, wv, wl float64) {
	scatterAdd(K, cq, r.Vq, wq)
	scatterAdd(K, cv, r.Vv, wv)
	scatterAdd(K, cl, r.VlT, wl)
}

// reactionIters bounds the fixed-point iteration of eq17 for λ-dependent forces; each
// iteration is one solve with the factorization of [M Gᵀ; G 0], which f_λ does not change.
// Joint friction changes the reactions by about μ·(pin radius/lever arm) of itself, so the
// iteration contracts by that factor (2 solves on the friction pendulum of
// reaction_test.go, whose friction is tangential to the rod and leaves λ unchanged).
const reactionIters = 100

// errReactionFixedPoint is the failure of solveReaction.
var errReactionFixedPoint = errors.New("with forces that depend on λ (dae.ReactionForce): the fixed-point iteration on λ did not converge")

// solveReaction solves eq. 17 with the λ-dependent force, M a + Gᵀλ = f + f_λ(λ), G a = γ,
// by the fixed-point iteration λ_{k+1} = λ(f + f_λ(λ_k)) on solver, the factorization of the
// KKT matrix (which f_λ does not change), until λ changes by less than 1e-14 relative. f
// and γ are in a and lambda on entry (as solver.Solve takes them); a start, not a step,
// uses it, so it may allocate.
func solveReaction(solver saddleSolver, rf dae.ReactionForce, a, lambda []float64, t float64, q, v []float64, st *Stats) error {
	f, gamma := append([]float64(nil), a...), append([]float64(nil), lambda...)
	clear(lambda)
	prev := make([]float64, len(lambda))
	for k := range reactionIters {
		copy(prev, lambda)
		copy(a, f)
		rf.AddReactionForce(a, t, q, v, prev)
		copy(lambda, gamma)
		solver.Solve(a, lambda)
		st.FuncEvals++
		st.Solves++
		var d, s float64
		for i := range lambda {
			d = math.Max(d, math.Abs(lambda[i]-prev[i]))
			s = math.Max(s, math.Abs(lambda[i]))
		}
		if k > 0 && d <= 1e-14*math.Max(1, s) {
			return nil
		}
	}
	return fmt.Errorf("%w in %d iterations at t=%g (the forces change the reactions by as much as the reactions themselves)", errReactionFixedPoint, reactionIters, t)
}
