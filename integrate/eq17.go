package integrate

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// eq17 solves the KKT system of seed 002, eq. 17, for the accelerations and multipliers
// of a state (t, q, v):
//
//	[ M  Gᵀ ] [a]   [f]
//	[ G  0  ] [λ] = [γ]
//
// with workspace sized once. Methods use it for consistent start values of a and λ and,
// where their formulas need it, for q̈ at an arbitrary state.
type eq17 struct {
	sys  dae.System
	M, G *mat.Dense
	sp   *sparseEval // the sparse evaluation path (M, G nil), or nil
	rec  *massSchur  // the recursive path by dae.MassSolver (M nil), or nil
	kkt  linalg.SaddlePoint
	// rxa, when set (newtonOnLambda), solves eq. 17 with λ-dependent forces by Newton on
	// λ instead of the start's fixed-point iteration (solveReaction).
	rxa *reactionAccel
}

// newtonOnLambda makes e solve eq. 17 with λ-dependent forces (dae.ReactionForce) by
// Newton's method on λ (reactionaccel.go), which converges where the fixed-point iteration
// does not and does not allocate, for a method that solves eq. 17 at every step. It does
// nothing for a system without such forces.
func (e *eq17) newtonOnLambda() *eq17 {
	if e.rec != nil { // the recursive path stores no nq×nq matrix
		e.rxa = newReactionAccelFD(e.sys)
		return e
	}
	e.rxa = newReactionAccel(e.sys, e.sp)
	return e
}

func newEq17(sys dae.System) *eq17 {
	nq, nc := sys.Size()
	if sp := newSparseEval(sys, false); sp != nil {
		return &eq17{sys: sys, sp: sp, kkt: newSaddlePoint(sys)}
	}
	if rec := massSchurOf(sys); rec != nil { // f_λ by solveWith's iterations on it
		e := &eq17{sys: sys, rec: rec}
		if nc > 0 && !rec.ownsRows() { // else rec evaluates G's loop-closure rows alone
			e.G = mat.NewDense(nc, nq, nil)
		}
		return e
	}
	e := &eq17{sys: sys, M: mat.NewDense(nq, nq, nil), kkt: newSaddlePoint(sys)}
	if nc > 0 {
		e.G = mat.NewDense(nc, nq, nil)
	}
	return e
}

// sparseMinSize is the size nq + nc of the KKT matrix from which a system with the
// dae.Sparsity capability is factorized by linalg.SparseKKT instead of dense LU: the
// sparse solver is 4 times faster already on a 10-body chain (50 unknowns; BENCHMARKS.md,
// "Sparse KKT solver").
const sparseMinSize = 40

// newSaddlePoint returns the factorization of [M Gᵀ; G 0] for sys: sparse when sys
// declares its patterns (dae.Sparsity) and the matrix has at least sparseMinSize rows,
// dense otherwise. A pattern that linalg rejects is a bug of the System: it panics with
// the pattern error.
func newSaddlePoint(sys dae.System) linalg.SaddlePoint {
	nq, nc := sys.Size()
	if sp, ok := sys.(dae.Sparsity); ok && nq+nc >= sparseMinSize {
		k, err := linalg.NewSparseKKT(nq, nc, sp.MassPattern(), sp.ConstraintPattern())
		if err != nil {
			panic(fmt.Sprintf("integrate: %T declares a bad sparsity pattern: %v", sys, err))
		}
		return k
	}
	return linalg.NewKKT(nq, nc)
}

// solve writes a and λ at (t, q, v) with f = System.Force; it counts one evaluation, one
// factorization and one solve in st.
func (e *eq17) solve(a, lambda []float64, t float64, q, v []float64, st *Stats) error {
	e.sys.Force(a, t, q, v)
	return e.solveWithForce(a, lambda, t, q, v, a, st)
}

// solveWithForce is solve with the applied force f given (it may alias a), for systems
// whose force has more terms than System.Force (first-order states, seed 004 eq. 8a).
func (e *eq17) solveWithForce(a, lambda []float64, t float64, q, v, f []float64, st *Stats) error {
	if e.sp == nil && e.rec != nil {
		return e.solveRecursive(a, lambda, t, q, v, f, st)
	}
	copy(a, f)
	err := e.factorKKT(lambda, t, q, v)
	st.FuncEvals++
	st.Factorizations++
	if err != nil {
		return err
	}
	return e.solveFactored(a, lambda, t, q, v, st)
}

// factorKKT evaluates M, G and γ (into lambda) at (t, q, v) and factorizes [M Gᵀ; G 0]:
// dense, or on the sparse evaluation path with M and G as pattern values.
func (e *eq17) factorKKT(lambda []float64, t float64, q, v []float64) error {
	if sp := e.sp; sp != nil {
		sp.evalM(t, q)
		if sp.nc > 0 {
			sp.evalG(t, q)
			e.sys.Gamma(lambda, t, q, v)
		}
		return e.kkt.FactorizeSym(sp.kktArgs())
	}
	e.sys.Mass(e.M, t, q)
	if e.G == nil {
		return e.kkt.FactorizeSym(e.M, nil)
	}
	e.sys.ConstraintJacobian(e.G, t, q)
	e.sys.Gamma(lambda, t, q, v)
	return e.kkt.FactorizeSym(e.M, e.G)
}

// solveRecursive is solveWithForce through dae.MassSolver (massschur.go): M never formed.
func (e *eq17) solveRecursive(a, lambda []float64, t float64, q, v, f []float64, st *Stats) error {
	if e.G != nil {
		e.sys.ConstraintJacobian(e.G, t, q)
	}
	if len(lambda) > 0 {
		e.sys.Gamma(lambda, t, q, v)
	}
	copy(a, f)
	st.FuncEvals++
	st.Factorizations++
	if err := e.rec.factor(t, q, e.G); err != nil {
		return err
	}
	return e.solveWith(e.rec, a, lambda, t, q, v, st)
}

// solveFactored solves the factorized KKT system for (a, λ), f and γ in a and lambda;
// with λ-dependent forces (dae.ReactionForce) by the fixed-point iteration solveReaction.
func (e *eq17) solveFactored(a, lambda []float64, t float64, q, v []float64, st *Stats) error {
	return e.solveWith(e.kkt, a, lambda, t, q, v, st)
}

// solveWith is solveFactored on the factorization solver of [M Gᵀ; G 0]: the KKT
// matrix's, or massSchur's on the recursive path.
func (e *eq17) solveWith(solver saddleSolver, a, lambda []float64, t float64, q, v []float64, st *Stats) error {
	if e.rxa != nil {
		return e.rxa.solve(solver, a, lambda, t, q, v, st)
	}
	if rf, ok := dae.AsReactionForce(e.sys); ok && len(lambda) > 0 {
		return solveReaction(solver, rf, a, lambda, t, q, v, st)
	}
	solver.Solve(a, lambda)
	st.Solves++
	return nil
}

// saddleSolver solves [M Gᵀ; G 0](x, y) = (r, s) in place at a factorized point.
type saddleSolver interface{ Solve(x, y []float64) }

// solveEq17OnNewton is eq17.solveWithForce with the KKT matrix [M Gᵀ; G 0] written into
// the values of an index-3 Newton matrix's sparse LU lu, whose unknowns start with (a, λ)
// and whose pattern holds M, G and Gᵀ where x places them (the coupling entries, βh²-sized
// in the Newton matrix, are zero here): the Newton matrix's symbolic analysis serves eq. 17
// as well, instead of a second one of the KKT pattern (linalg.NewSparseKKT), and the full
// factorization here chooses the pivots that the first Newton matrices refactorize with.
// buf is scratch of lu's size. It counts one evaluation, one factorization and one solve.
func solveEq17OnNewton(sys dae.System, sp *sparseEval, lu *newtonFactor, x *kktScatter, buf, a, lambda []float64, t float64, q, v, f []float64, st *Stats) error {
	sp.evalM(t, q)
	if sp.nc > 0 {
		sp.evalG(t, q)
		sys.Gamma(lambda, t, q, v)
	}
	K := lu.Values()
	clear(K)
	scatterAdd(K, x.m, sp.M, 1)
	scatterAdd(K, x.gt, sp.G, 1)
	scatterAdd(K, x.g, sp.G, 1)
	copy(a, f)
	st.FuncEvals++
	st.Factorizations++
	if err := lu.Factor(); err != nil {
		return err
	}
	e := eq17{sys: sys, sp: sp}
	return e.solveWith(&newtonSaddle{lu: lu, nq: sp.nq, buf: buf}, a, lambda, t, q, v, st)
}

// newtonSaddle is a saddleSolver on a Newton matrix's LU holding [M Gᵀ; G 0] in its
// unknowns (a, λ) (solveEq17OnNewton; the sparse path has no others).
type newtonSaddle struct {
	lu  *newtonFactor
	nq  int
	buf []float64
}

func (s *newtonSaddle) Solve(x, y []float64) {
	clear(s.buf)
	copy(s.buf, x)
	copy(s.buf[s.nq:], y)
	s.lu.Solve(s.buf)
	copy(x, s.buf[:s.nq])
	copy(y, s.buf[s.nq:s.nq+len(y)])
}

// startError words a failure of eq. 17 at the start of a run.
// consistentStart computes s.A and s.Lambda from s.Q and s.V by eq. 17 (seed 002), so that
// a start is consistent at the acceleration level too.
func consistentStart(method string, sys dae.System, s *State, stats *Stats) error {
	if err := newEq17(sys).solve(s.A, s.Lambda, s.T, s.Q, s.V, stats); err != nil {
		return startError(method, s.T, err)
	}
	return nil
}

func startError(method string, t float64, err error) error {
	if errors.Is(err, errReactionFixedPoint) {
		return fmt.Errorf("integrate: %s: start at t=%g: eq. 17 %w", method, t, err)
	}
	return fmt.Errorf("integrate: %s: start at t=%g: KKT matrix [M Gᵀ; G 0] %w (redundant constraints or M singular on ker G)", method, t, err)
}

// allFinite reports whether x holds no NaN or Inf.
func allFinite(x []float64) bool {
	// v − v is 0 for a finite v and NaN for ±Inf and NaN, and a NaN stays in the sum: one
	// subtraction and one addition per entry instead of two tests and branches.
	var s float64
	for _, v := range x {
		s += v - v
	}
	return s == 0
}
