package linalg

import "fmt"

// ComplexSparseLU is SparseLU for complex matrices: the same symbolic analysis, the same
// left-looking Gilbert–Peierls factorization with threshold partial pivoting, the same
// refactorization with a kept pivot sequence and the same solves (one generic
// implementation, sparseLUOf), in complex128 arithmetic. It serves the complex system of
// the Radau IIA integrator (Hairer & Wanner, "Solving Ordinary Differential Equations
// II", 1996, IV.8), which at every simplified Newton iteration solves
//
//	((α + iβ)/h K − J) w = r,    α ≈ 2.6811, β ≈ 3.0504,
//
// K diagonal (1 on differential rows, 0 on algebraic ones) and J real with the sparsity
// of the mechanism: the pattern is that of the real system γ/h K − J, so both
// factorizations share one pattern and their symbolic work is the same.
//
// Magnitudes, for the choice of pivots and their acceptance in a refactorization and for
// the backward error of Refine, are |Re z| + |Im z| (see magnitude): within √2 of |z|,
// as LAPACK's complex partial pivoting compares them.
//
// Storage is owned by the ComplexSparseLU: refactorizations and Solve do not allocate.
type ComplexSparseLU struct {
	// Refine is the most steps of iterative refinement per Solve, as SparseLU.Refine,
	// the componentwise backward error measured with |Re| + |Im|. On RADAU5's
	// matrices of chains (TestComplexSparseLUMatchesDense) the plain solve has a
	// normwise backward error below 2e-17 but a componentwise one up to 5.5e-10 at
	// h = 1e-5 (dense partial pivoting 7.6e-15); one step brings the latter to 4e-16. [0]
	Refine int

	sparseLUOf[complex128]
}

// NewComplexSparseLU returns a complex sparse LU for n×n matrices with the given
// pattern, as NewSparseLU: pattern[i] lists, strictly increasing, the columns of row i
// that can be nonzero, in real or imaginary part. A bad pattern returns a *PatternError
// with Block "A" naming the row; n < 1 returns an error.
func NewComplexSparseLU(n int, pattern [][]int) (*ComplexSparseLU, error) {
	return NewComplexSparseLURegularized(n, pattern, nil)
}

// NewComplexSparseLURegularized is NewComplexSparseLU with the weak diagonals of
// NewSparseLURegularized.
func NewComplexSparseLURegularized(n int, pattern [][]int, weak []bool) (*ComplexSparseLU, error) {
	f := &ComplexSparseLU{}
	f.weak = weak
	if err := f.init("ComplexSparseLU", n, pattern); err != nil {
		return nil, err
	}
	return f, nil
}

// Size returns n.
func (f *ComplexSparseLU) Size() int { return f.n }

// NNZ returns the number of nonzeros of L + U (fill-in included, the diagonal counted
// once) of the current pivot sequence; 0 before the first successful Factorize.
func (f *ComplexSparseLU) NNZ() int { return f.nnz() }

// FullFactorizations returns how many factorizations searched for pivots: the first
// Factorize and every one whose refactorization met a degraded pivot, successful or not.
func (f *ComplexSparseLU) FullFactorizations() int { return f.nFull }

// Refactorizations returns how many Factorize calls succeeded by refactorization, with
// the pivot sequence and patterns of an earlier full factorization.
func (f *ComplexSparseLU) Refactorizations() int { return f.nRefactor }

// Values returns the storage of A's pattern entries that Factor factorizes, the rows of
// the pattern one after another: entry Σ_{r<i} len(pattern[r]) + s is A(i,
// pattern[i][s]). A caller that holds the real system's values (SparseLU.Values, same
// pattern) fills it as c·K_i − J entry by entry and calls Factor.
func (f *ComplexSparseLU) Values() []complex128 { return f.vals }

// Factorize gathers the pattern entries of the n×n matrix a, stored densely by rows
// (A(i, j) = a[i·n + j]), and factorizes them (Factor). Entries outside the pattern are
// ignored. It panics if len(a) ≠ n².
func (f *ComplexSparseLU) Factorize(a []complex128) error {
	if len(a) != f.n*f.n {
		panic(fmt.Sprintf("linalg: ComplexSparseLU.Factorize: len(a) = %d, want %d×%d", len(a), f.n, f.n))
	}
	f.gather(a, f.n)
	return f.factor()
}

// Factor factorizes the matrix whose pattern entries are held in Values(), as
// SparseLU.Factor: by refactorization while no pivot degrades, by a full factorization
// with threshold partial pivoting otherwise. An entry with a non-finite part, or a pivot
// column without any nonzero candidate, returns ErrSingular.
func (f *ComplexSparseLU) Factor() error { return f.factor() }

// Solve overwrites b with the solution x of A x = b, followed by at most Refine steps of
// iterative refinement. It panics on a wrong length or without a successful Factorize.
// It does not allocate.
func (f *ComplexSparseLU) Solve(b []complex128) { f.solve(b, f.Refine) }
