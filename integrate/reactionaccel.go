package integrate

import (
	"cmp"
	"errors"
	"fmt"
	"math"

	"linkage/dae"
	"linkage/linalg"
)

// reactionaccel.go: the acceleration problem of the explicit methods with forces that
// depend on the multipliers (dae.ReactionForce, issue 16),
//
//	M a + Gᵀλ − f_λ(t,q,v,λ) = f,   G a = γ,
//
// nonlinear in λ. Newton's method on (a, λ) has the matrix [M  Gᵀ − ∂f_λ/∂λ; G 0]; with
// the first block row kept exact (a is the solution of eq. 17 for the current λ) its step
// reduces to the nc×nc system in λ
//
//	(I − S⁻¹ G M⁻¹ ∂f_λ/∂λ) Δλ = Φ(λ) − λ,   Φ(λ) = S⁻¹(G M⁻¹(f + f_λ(λ)) − γ),
//
// S = G M⁻¹ Gᵀ, whose matrix columns are the λ parts of eq. 17 solved with the right side
// (∂f_λ/∂λ e_k, 0). So the method's own factorization of [M Gᵀ; G 0] (dense, sparse) serves
// unchanged, one solve per nonzero column of ∂f_λ/∂λ per iteration, and the small matrix is
// factorized by dense LU.

// reactionNewtonIters bounds the Newton iteration on λ: from the λ of the previous stage
// it takes one or two iterations at explicit-method step sizes (the test systems of
// reaction_test.go and planar/friction_test.go).
const reactionNewtonIters = 20

// reactionContraction is the factor by which a correction of the simplified Newton
// iteration must shrink the next one for the iteration to keep its matrix.
const reactionContraction = 0.1

// reactionNewtonTol is the relative size of λ − Φ(λ) at which the iteration stops: a few
// hundred roundoffs, below any error tolerance of the step controls.
const reactionNewtonTol = 1e-12

// errReactionNewton is the failure of reactionAccel.solve.
var errReactionNewton = errors.New("with forces that depend on λ (dae.ReactionForce): the Newton iteration on λ of eq. 17 did not converge")

// reactionAccel holds the workspace of the Newton iteration for one explicit method.
type reactionAccel struct {
	rx        *reaction
	sp        *sparseEval // sparse path (∂f_λ/∂λ as transposed values on G's pattern), or nil
	f, gamma  []float64   // nq, nc: the right side of eq. 17 at the state
	lamPrev   []float64   // nc: the last solution, the start of the next iteration
	lam, rho  []float64   // nc: the iterate λ_k and λ_k − Φ(λ_k)
	colA, col []float64   // nq, nc: right side / solution of a column solve
	jac       *linalg.LU  // nc×nc: I − S⁻¹ G M⁻¹ ∂f_λ/∂λ
	jacOK     bool        // jac holds a factorization (of an earlier iterate, maybe)
	// tol is the relative stop of the iteration, reactionNewtonTol when zero (ali3, ali1:
	// their eq. 17 solver is an iterative projection, accurate to aliEq17Tol).
	tol float64

	// Without derivative matrices (newReactionAccelFD): ∂f_λ/∂λ e_k by a forward
	// difference of f_λ at (t, q, v, λ_k) of newtonMatrix; fl holds f_λ there, lt λ_k + ηe_k.
	fd     bool
	t      float64
	q, v   []float64
	fl, lt []float64
}

// newReactionAccel returns the workspace for sys on the sparse path sp (or dense), or nil
// when sys has no λ-dependent forces. Without constraints f_λ is a function of (t, q, v)
// alone and the iteration ends after its first solve.
func newReactionAccel(sys dae.System, sp *sparseEval) *reactionAccel {
	if !dae.HasReactionForce(sys) {
		return nil
	}
	if sp != nil && sp.coup.RowStart == nil {
		// The explicit methods' path has no coupling pattern; the derivative values on
		// it (∂f_λ/∂q, ∂f_λ/∂v) are written but not used here.
		sp.coup = dae.CouplingCSR(sp.se, sp.nq)
	}
	rx := newReaction(sys, sp)
	nq, nc := sys.Size()
	return &reactionAccel{
		rx: rx, sp: sp,
		f: make([]float64, nq), gamma: make([]float64, nc),
		lamPrev: make([]float64, nc), lam: make([]float64, nc), rho: make([]float64, nc),
		colA: make([]float64, nq), col: make([]float64, nc),
		jac: linalg.NewLU(nc),
	}
}

// newReactionAccelFD is newReactionAccel on the dense path without the derivative
// matrices (nq×nq ∂f_λ/∂q, ∂f_λ/∂v and nq×nc ∂f_λ/∂λ): newtonMatrix takes the columns of
// ∂f_λ/∂λ by differences of f_λ, nc + 1 evaluations per matrix, for the methods'
// Newton-Krylov paths on dae.MassSolver systems, which store no nq×nq matrix.
func newReactionAccelFD(sys dae.System) *reactionAccel {
	rx := newReactionDeferred(sys, nil)
	if rx == nil {
		return nil
	}
	nq, nc := sys.Size()
	return &reactionAccel{
		rx: rx, f: make([]float64, nq), gamma: make([]float64, nc),
		lamPrev: make([]float64, nc), lam: make([]float64, nc), rho: make([]float64, nc),
		colA: make([]float64, nq), col: make([]float64, nc), jac: linalg.NewLU(nc),
		fd: true, fl: make([]float64, nq), lt: make([]float64, nc),
	}
}

// solve overwrites (a, lam), holding (f, γ) at (t, q, v), with the solution of eq. 17 with
// f_λ added, using solver, which holds the factorization of [M Gᵀ; G 0] at (t, q). The
// iteration is a simplified Newton: it keeps the matrix of an earlier stage while the
// corrections shrink by at least reactionContraction per iteration and forms it afresh at
// the current iterate otherwise (so it is Newton's method where the matrix changes fast).
// It counts solves, Newton corrections, fresh matrices (Jacobians, Factorizations) in st
// and returns errReactionNewton (with t and the last correction) when it does not
// converge.
func (r *reactionAccel) solve(solver saddleSolver, a, lam []float64, t float64, q, v []float64, st *Stats) error {
	copy(r.f, a)
	copy(r.gamma, lam)
	copy(r.lam, r.lamPrev)
	d, dPrev := math.NaN(), math.Inf(1)
	for range reactionNewtonIters {
		copy(a, r.f)
		r.rx.add(a, t, q, v, r.lam)
		copy(lam, r.gamma)
		solver.Solve(a, lam) // (a, Φ(λ_k))
		st.Solves++
		d = 0
		s := 0.0
		for i, x := range lam {
			r.rho[i] = x - r.lam[i]
			d = math.Max(d, math.Abs(r.rho[i]))
			s = math.Max(s, math.Abs(x))
		}
		if d <= cmp.Or(r.tol, reactionNewtonTol)*math.Max(1, s) {
			copy(r.lamPrev, lam)
			return nil
		}
		if math.IsNaN(d) {
			break
		}
		if !r.jacOK || d > reactionContraction*dPrev {
			if r.newtonMatrix(solver, t, q, v, st) != nil {
				break
			}
		}
		r.jac.Solve(r.rho) // J Δ = Φ(λ) − λ
		st.NewtonIters++
		for i, x := range r.rho {
			r.lam[i] += x
		}
		dPrev = d
	}
	clear(r.lamPrev) // a failed iterate is no start for the next stage
	r.jacOK = false
	return fmt.Errorf("%w in %d iterations at t=%g (last |Φ(λ) − λ| = %.3g)", errReactionNewton, reactionNewtonIters, t, d)
}

// newtonMatrix forms and factorizes J = I − S⁻¹ G M⁻¹ ∂f_λ/∂λ at (t, q, v, λ_k) column by
// column: column k is e_k minus the λ part of eq. 17 solved with (∂f_λ/∂λ e_k, 0).
func (r *reactionAccel) newtonMatrix(solver saddleSolver, t float64, q, v []float64, st *Stats) error {
	if r.fd {
		r.t, r.q, r.v = t, q, v
		clear(r.fl)
		r.rx.add(r.fl, t, q, v, r.lam)
	} else {
		r.rx.derivatives(t, q, v, r.lam)
	}
	st.Jacobians++
	J := r.jac.Matrix()
	nc := len(r.lam)
	clear(J.Data)
	for k := range nc {
		J.Data[k*nc+k] = 1
		if !r.column(k) {
			continue
		}
		clear(r.col)
		solver.Solve(r.colA, r.col)
		st.Solves++
		for i, x := range r.col {
			J.Data[i*nc+k] -= x
		}
	}
	st.Factorizations++
	err := r.jac.Factor()
	r.jacOK = err == nil
	return err
}

// column writes column k of ∂f_λ/∂λ into colA and reports whether it is nonzero.
func (r *reactionAccel) column(k int) bool {
	clear(r.colA)
	nz := false
	if r.fd {
		copy(r.lt, r.lam)
		eta := math.Sqrt(epsilon) * math.Max(1, math.Abs(r.lam[k]))
		r.lt[k] += eta
		r.rx.add(r.colA, r.t, r.q, r.v, r.lt)
		for i, f := range r.fl {
			if r.colA[i] -= f; r.colA[i] != 0 {
				r.colA[i] /= eta
				nz = true
			}
		}
		return nz
	}
	if r.sp != nil {
		con := &r.sp.con
		for p := con.RowStart[k]; p < con.RowStart[k+1]; p++ {
			if x := r.rx.VlT[p]; x != 0 {
				r.colA[con.Cols[p]], nz = x, true
			}
		}
		return nz
	}
	for i := range r.colA {
		if x := r.rx.Fl.At(i, k); x != 0 {
			r.colA[i], nz = x, true
		}
	}
	return nz
}
