// Package linalg holds the linear algebra of linkage: dense LU with factorization reuse,
// the saddle-point (KKT) systems of constrained mechanics, and rank-revealing
// factorizations.
//
// The KKT system of seed 002, eq. 17 (and every iteration matrix of the same shape) is
//
//	[ A  Bᵀ ] [x]   [r]
//	[ C  D  ] [y] = [s]
//
// with A = M (or M plus stiffness and damping terms in implicit methods), B = C = G for the
// symmetric forms and D = 0 (or a scaled identity in regularized forms). KKT assembles the
// blocks into one dense matrix and factorizes it by LU with partial pivoting, which needs
// no definiteness of A: it works for singular mass matrices that are positive definite on
// ker G (seed 002, Lemma 1). SparseKKT solves the same systems for large models: a
// fill-reducing ordering (approximate minimum degree) and the symbolic factorization are
// computed once from the sparsity patterns of A and G, then each Factorize is an
// up-looking LDLᵀ of the statically regularized, quasi-definite matrix and each Solve
// refines against the unregularized K (sparse.go). Its constraint block is −d·I.
//
// SparseRankLU is the rank-revealing factorization of a sparse constraint Jacobian G for
// consistent initialization: an up-looking LU, rows in a fill-reducing order, threshold
// pivoting within each row, that finds the rank, the redundant rows (combinations of rows
// taken before them) and a well-conditioned square block of independent rows and dependent
// columns (sparserank.go).
//
// Dense LU factorizes by LAPACK's blocked DGETRF on one goroutine (gonum's Getrf runs its
// trailing update through a parallel Dgemm that allocates per factorization) and solves by
// DGETRS's substitutions written out, both bitwise equal to gonum's Getrf and Getrs; the
// dense solvers allocate nothing after construction at any size.
//
// Wrong sizes are programming errors and panic; a singular matrix is data and returns
// ErrSingular.
package linalg

import "errors"

// ErrSingular reports an exactly singular (or non-finite) matrix met during factorization.
var ErrSingular = errors.New("linalg: singular matrix")

// Solver is a factorized linear operator that solves in place: Solve overwrites b with the
// solution x of K x = b. Implementations do not allocate in Solve.
type Solver interface {
	Solve(b []float64)
}
