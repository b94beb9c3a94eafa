package linalg

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// SparseLU factorizes and solves general sparse square systems A x = b, the unsymmetric
// Newton matrices of the implicit integrators,
//
//	[ M̂  Gᵀ ]     M̂ = M + γh·C + βh²·K + βh²·(Gᵀλ)_q,
//	[ G  0  ]
//
// and the larger block matrices of first-order forms (BDF on (q, v, λ, μ)), which need
// pivoting because of their zero diagonal blocks. It is the sparse counterpart of LU,
// with the same calling shape: construct once, then Factorize and Solve repeatedly.
//
// NewSparseLU does the symbolic work once for a fixed pattern, as KLU does (T. Davis and
// E. Palamadai Natarajan, "Algorithm 907: KLU, a direct sparse solver for circuit
// simulation problems", ACM TOMS 37, 2010): a fill-reducing ordering Q of the
// symmetrized pattern A + Aᵀ by approximate minimum degree (Amestoy, Davis & Duff 1996,
// the ordering of SparseKKT) followed by a postorder of its elimination tree, applied
// symmetrically, C = Q A Qᵀ. The zero diagonal blocks of saddle-point matrices do not
// enter the ordering: it only sees which rows and columns couple, except that a row
// without a diagonal entry is ordered right after a partner row and pivots on it
// (pairedMinimumDegree), unless minimum degree on A + Aᵀ itself eliminates a neighbour
// that fills its diagonal before it (diagonalsFilled).
//
// Factorize computes P C = L U, L unit lower triangular, by the left-looking algorithm
// of Gilbert and Peierls ("Sparse partial pivoting in time proportional to arithmetic
// operations", SIAM J. Sci. Stat. Comput. 9, 1988; T. Davis, "Direct Methods for Sparse
// Linear Systems", SIAM 2006, ch. 6): column k of L and U solves the sparse triangular
// system L x = C(:,k), whose nonzero pattern — the rows reachable from the pattern of
// C(:,k) in the graph of the columns of L computed so far — a depth-first search finds
// in topological order, so the work is proportional to the arithmetic. The pivot of
// column k is chosen by threshold partial pivoting: the diagonal entry c_kk (in the
// symmetric ordering) when |x_k| ≥ τ·max_i |x_i| over the rows not yet pivotal, otherwise
// the earliest row in the elimination order with |x_i| ≥ sparseLULocalTau·max_i |x_i| (the
// largest would carry its row's fill along a chain). Preferring the diagonal keeps the
// fill-in close to what the symmetric ordering predicted; τ bounds the growth of the
// entries of L by 1/τ. A column
// whose row has no diagonal entry in the pattern, and was matched at NewSparseLU to a
// partner row p (with A(p, k) and A(k, p) in the pattern), prefers the entry of row p in
// its place, under the stricter threshold sparseLUPartnerTau; in an unpaired ordering
// (diagonalsFilled) it keeps its own diagonal, filled by the elimination, under the same
// threshold.
//
// The first Factorize fixes the pivot sequence P and the patterns of L and U. Later
// calls first try a refactorization: the same P and patterns, values only, no
// depth-first search and no allocation. If a pivot of the refactorization falls below τ
// times the largest entry below it in its column — the test the pivot passed when it was
// chosen — the pivots have degraded and the growth bound of threshold pivoting would be
// lost, so Factorize repeats the full factorization with a new pivot search (which may
// allocate). FullFactorizations and Refactorizations count both.
//
// Solve is a forward and a back substitution. Its normwise backward error stays below
// 1e-15 on the mechanisms' matrices of the tests, badly scaled ones included, so it does
// not refine by default; Refine adds steps of iterative refinement, which pay off when
// the solution of a badly scaled system must itself be accurate, or on matrices where
// threshold pivoting lets the backward error grow (see Refine).
//
// UseBlocks adds a factorization by dense pivot blocks (blockLU), taken where a
// refactorization fails, for patterns with a bordered block such as a body's Euler
// parameters with their normalization row.
//
// Storage is owned by the SparseLU: refactorizations and Solve do not allocate.
//
// The algorithm is shared with ComplexSparseLU: both wrap sparseLUOf, generic over the
// scalar.
type SparseLU struct {
	// Refine is the most steps of iterative refinement against A per Solve, x ← x +
	// (LU)⁻¹(b − A x), each ending early once the componentwise backward error
	// max_i |b − A x|_i / (|A| |x| + |b|)_i is at rounding level (Arioli, Demmel & Duff,
	// "Solving sparse linear systems with sparse backward error", SIAM J. Matrix Anal.
	// Appl. 10, 1989). A step costs a residual (nnz(A) multiply-adds) and a solve.
	// One step reduces the forward error on badly scaled matrices (entries of
	// 1e-6..1e6, κ₁ up to 1e20) from 3.4e-8 to 1.3e-13 (TestSparseLURefine) and the
	// backward error on random sparse matrices, where threshold pivoting shows, from
	// 3.3e-14 to 1.1e-16 (TestSparseLURandom); Newton iterations, which correct the
	// solution themselves, do not need it. [0]
	Refine int

	sparseLUOf[float64]

	// blk, when set (UseBlocks), is tried first by every Factor (sparseLUOf.byBlocks
	// records that the current factors are its own); nBlock counts its successes.
	blk          *blockLU
	nBlock       int
	preferBlocks bool // the last factorization was by blocks: try them first
}

var _ Solver = (*SparseLU)(nil)

// luScalar is the scalar of a sparse LU: float64 for SparseLU, complex128 for
// ComplexSparseLU.
type luScalar interface{ float64 | complex128 }

// magnitude is the size of a scalar that threshold pivoting compares: |v| for a real v,
// |Re v| + |Im v| for a complex one. The latter is LAPACK's choice in complex partial
// pivoting (zgetf2 picks the pivot by izamax, which compares dcabs1 = |Re| + |Im|) and
// that of radauComplexLU: it needs no square root nor the scaling of math.Hypot
// (cmplx.Abs), and lies within √2 of |v| (|v| ≤ |Re v| + |Im v| ≤ √2|v|), so the pivot
// test |x_k| ≥ τ·max_i |x_i| holds with τ/√2 in the modulus and the growth of L stays
// bounded by √2/τ. It is NaN if v has a NaN part and +Inf if v has an infinite one.
//
// The type assertion costs a comparison of the instantiation's type with float64, which
// branch prediction hides (BenchmarkLUChain unchanged by the generic code).
func magnitude[T luScalar](v T) float64 {
	if r, ok := any(v).(float64); ok {
		return math.Abs(r)
	}
	c := any(v).(complex128)
	return math.Abs(real(c)) + math.Abs(imag(c))
}

// sparseLUOf is the sparse LU of SparseLU and ComplexSparseLU for scalars T: the
// symbolic analysis (which depends on the pattern only), the factorizations and the
// solves. The exported wrappers add the input forms (mat.Matrix, dense complex slices),
// Refine and the documentation.
//
// The index arrays of C and of the factors (crow, cent and the patterns of L and
// U), whose length grows with nnz, hold row numbers or positions in vals as int32: half
// the memory of int, 38 MB less on bdf's Newton matrix of 10 000 bars (n = 130 000,
// nnz(A) = 1.6e6, nnz(L + U) = 3.7e6 in the patterns). init refuses n or nnz(A) beyond
// math.MaxInt32; the column pointers (ccp, lp, up, lnp, unp), positions in arrays that
// may outgrow it, stay int, and A's pattern (arp, acol) stays int so that callers can
// share it (Pattern).
type sparseLUOf[T luScalar] struct {
	name string // the wrapper's type name, for panics and errors
	n    int

	// The pattern of A by rows (arp, acol) and the values gathered by Factorize in the
	// same order: vals[t] = A(i, acol[t]) for arp[i] ≤ t < arp[i+1].
	arp, acol []int
	vals      []T

	// The fill-reducing ordering: row and column k of C = Q A Qᵀ are row and column
	// perm[k] of A; iperm inverts perm.
	perm, iperm []int

	// partner[i] is the row matched to row i of A by diagonalPartners (−1: none; nil: no
	// row lacks its diagonal), and pref[k] the row of C preferred as pivot of column k:
	// the partner of column k's row, else k itself (the diagonal).
	partner, pref []int
	// unpaired: the ordering is minimum degree on A + Aᵀ itself, every row without
	// diagonal eliminated after a neighbour that fills it (diagonalsFilled); pref is the
	// diagonal throughout and partner serves the pivot blocks only.
	unpaired bool
	// weak[i] marks a row whose diagonal is listed but holds a regularization (a small
	// −ε·s_ii in a constraint row, NewSparseLURegularized): the ordering treats it as a
	// row without diagonal; nil: none.
	weak []bool
	// diag[i]: row i lists its diagonal and it is not weak (hasDiagonal).
	diag []bool

	// C by columns: column k holds the rows crow[p] (in C's numbering) and the values
	// vals[cent[p].at] for ccp[k] ≤ p < ccp[k+1]; cent[p].step = pinv[crow[p]], the pivot step
	// of that row, is what the refactorization scatters to.
	ccp  []int
	crow []int32
	cent []cEntry

	// The pivot sequence: row i of C is pivot step pinv[i], prow[k] the row pivoted at
	// step k, and rowOf[k] = perm[prow[k]] that row in A's numbering. rowOf and col32, a
	// copy of perm, are int32 for the solves, which read both in full (at n = 70 000, 1.1
	// MB a solve with int).
	pinv, prow   []int
	rowOf, col32 []int32

	// The patterns of L strictly below the unit diagonal and of U strictly above its
	// diagonal udiag, both by columns, with row indices in pivot steps (during factorFull,
	// L's rows are C's). ui lists each column of U in topological order (each row after
	// every row it depends on), as the refactorization needs. The depth-first search walks
	// the pattern of L, the refactorization gathers and clears x on both.
	lp, up []int
	li, ui []int32
	udiag  []T

	// The values of L and U: their nonzeros, by columns as above, without the entries of
	// the patterns that are exactly zero, which neither the column updates nor the solves
	// need (x − l·0 = x, for the finite values Factor accepts). On the 400-rod 3D chain
	// (BenchmarkChain3DStep) 60 % of the entries of L and U in their patterns are exact
	// zeros, and so 60 % of the multiply-adds: the pattern of the Newton matrix holds every
	// entry that can be nonzero, such as the cross-body blocks of ∂(Gᵀλ)/∂q of a
	// spherical joint, whose values are zero.
	lnp, unp []int
	lnz, unz []luEntry[T]

	// Work arrays of length n. x is the dense accumulator of one column, zero between
	// columns; xi, stack, pstack and mark serve the depth-first search.
	x                 []T
	xi, stack, pstack []int
	mark              []int
	w, bcopy, res     []T

	tau float64 // the pivot threshold, sparseLUTau (a field so tests can vary it)
	// altSolve, when set, solves in place of L and U while byBlocks (SparseLU.UseBlocks).
	altSolve  func(b []T)
	byBlocks  bool // the current factors are altSolve's
	symbolic  bool // the pivot sequence and the patterns of L and U are valid
	factored  bool // the last Factorize succeeded
	nFull     int
	nRefactor int
	lEstimate int // nnz of the Cholesky factor of C + Cᵀ: the first capacity of L and U
}

// luEntry is a nonzero of L or U: its value and its row (a pivot step). A column is
// one contiguous run of entries, so that the column updates of the refactorization and
// the substitutions of the solve read one stream and slice one array per column (with
// rows and values in two arrays, slicing both cost about 40 instructions per column
// against about 10 per multiply-add; BENCHMARKS.md "SparseLU against KLU per nonzero").
// For float64 an entry takes 16 bytes where the two arrays took 12.
type luEntry[T luScalar] struct {
	v T
	r int32
}

// cEntry is an entry of C by columns as the refactorization reads it: the pivot step of
// its row, where it scatters, and the position of its value in vals. One array of pairs
// rather than two of indices, so that a column is one slice (the refactorization sliced
// two per column, about 30 instructions).
type cEntry struct{ step, at int32 }

// sparseLURefineTarget ends refinement once the componentwise backward error is at
// rounding level: the residual itself carries errors of a few ε.
const sparseLURefineTarget = 2 * 0x1p-52

// sparseLUTau is τ, the threshold of threshold partial pivoting: the diagonal is kept as
// pivot while |x_k| ≥ τ·max_i |x_i| in the partially eliminated column, and a
// refactorization is accepted while every pivot passes the same test. Measured on the
// generators of sparselu_gen_test.go: worst normwise backward error of Solve (no
// refinement) over 720 systems drawn like TestSparseLUMatchesDense's (KKT- and
// BDF-like; chains, trees, ladders; well scaled, entries of 1e-6..1e6 from stiffness or
// from units; 20 per case); mean nnz(L+U) over 5 draws of N = 1000 bodies; share of 100
// refactorizations of N = 200 chains that fell back to a full factorization when every
// entry was perturbed by a factor 1 ± 1 % (1 ± 10 %). Measured before rows without a
// diagonal entry were paired (pairedMinimumDegree, sparseLUPartnerTau), which changes the
// pivots of the saddle-point rows; not re-measured since:
//
//	τ       backward error   KKT chain  KKT tree  BDF chain  BDF ladder   fallbacks KKT  BDF
//	1       9.0e-17          76564      77755     151364     247354       100 (100) %    100 (100) %
//	0.1     6.7e-17          72465      70727     142181     253579        60 (100) %     66 (100) %
//	0.01    5.7e-16          61304      61369     138011     274042        37 (100) %     10 (100) %
//	0.001   6.3e-16          56263      56731     131076     323091         1  (69) %      0 (100) %
//	0.0001  6.8e-15          55196      55508     131045     326808         0  (22) %      0  (56) %
//
// τ = 0.001 (KLU's default) takes nearly all the fill reduction of preferring the
// diagonal and keeps refactorizations valid under changes of a percent, at a backward
// error still below 1e-15; below it the backward error grows tenfold for no gain. The
// BDF ladder is the exception where the diagonal the symmetric ordering offers is a
// poor choice: partial pivoting (τ = 1) fills 23 % less there.
const sparseLUTau = 0.001

// sparseLUPartnerTau is the pivot threshold of the partner row of a row without
// diagonal entry (pairedMinimumDegree): that entry is preferred for the locality of the
// ordering, not as a diagonal is, so it must be nearly as large as the column's largest.
// Worst backward error of TestSparseLURandom without pairing 3.3e-14; with pairing and
// this threshold 0.001: 2.2e-13, 0.1: 9.2e-14, 0.5 and 1: 5.7e-14 (the bdf GGL chain's
// fill is the same for all). A refactorization still accepts the pivot down to τ. The
// filled diagonal of a row without one in an unpaired ordering takes it too
// (TestSparseLUUnpairedOrdering: 5.7e-14 against 2.1e-13 under τ).
const sparseLUPartnerTau = 0.5

// sparseLULocalTau is the threshold of the pivot taken where the preferred one fails its
// test: the earliest row in the elimination order within this factor of the column's
// largest entry (pivot). On the 400-rod 3D chain (BenchmarkChain3DStep: the Euler
// parameters' singular mass blocks leave βh² diagonals that cross τ as h and λ change)
// the largest row made nnz(U) range from 34 000 to 330 000 between full factorizations,
// which grew the factors' storage during steps. Measured over 300 steps: with 0.01 nnz(U)
// stays at 34 000-36 300 (0 B per step), 0.1 at 34 000-37 300 (0 B), 0.2 reaches 44 500
// (5.7 kB per step), 0.5 160 000. TestSparseLURandom's worst backward error (≤ 1e-13
// wanted; 5.7e-14 with the largest row) is 1.05e-13 at 0.1 and 2.3e-13 at 0.3; with τ
// itself (1e-3) it is 4.1e-13 and refactorizations fail under changes of 1e-3, since a
// pivot chosen at the edge of τ fails the refactorization's test. 0.01 = 10τ passes both.
const sparseLULocalTau = 0.01

// NewSparseLU returns a sparse LU for n×n matrices with the given pattern: pattern[i]
// lists, strictly increasing, the columns of row i that can be nonzero. The diagonal
// need not be listed and is not assumed nonzero (a saddle-point matrix has none in its
// constraint rows); entries outside the pattern are ignored by Factorize. A bad pattern
// returns a *PatternError with Block "A" naming the row; n < 1 returns an error.
//
// All symbolic work happens here: ordering, the pattern of C = Q A Qᵀ by columns, and
// every work array. The factors themselves are allocated by the first Factorize, sized
// from the Cholesky factor of C + Cᵀ, whose pattern holds those of L and Uᵀ when every
// pivot is diagonal.
func NewSparseLU(n int, pattern [][]int) (*SparseLU, error) {
	return NewSparseLURegularized(n, pattern, nil)
}

// NewSparseLURegularized is NewSparseLU for a pattern whose rows with weak[i] list a
// diagonal that holds only a regularization, small against the row's other entries
// (a constraint row's −ε·s_ii): the ordering pairs them as rows without diagonal
// (pairedMinimumDegree), so that the fill stays that of the unregularized pattern
// instead of the μ-row chain's.
func NewSparseLURegularized(n int, pattern [][]int, weak []bool) (*SparseLU, error) {
	f := &SparseLU{}
	f.weak = weak
	if err := f.init("SparseLU", n, pattern); err != nil {
		return nil, err
	}
	return f, nil
}

// init does the symbolic work of a constructor: it checks the pattern, orders it, stores
// C by columns and allocates every work array.
func (f *sparseLUOf[T]) init(name string, n int, pattern [][]int) error {
	if n < 1 {
		return fmt.Errorf("linalg: New%s: n = %d, want n >= 1", name, n)
	}
	if err := checkPattern("A", pattern, n, n); err != nil {
		return err
	}
	f.name, f.n, f.tau = name, n, sparseLUTau
	f.arp = make([]int, n+1)
	for i, row := range pattern {
		f.arp[i+1] = f.arp[i] + len(row)
	}
	if nnz := f.arp[n]; n > math.MaxInt32 || nnz > math.MaxInt32 {
		return fmt.Errorf("linalg: New%s: n = %d with %d pattern entries, want both at most %d", name, n, nnz, math.MaxInt32)
	}
	f.acol = slices.Concat(pattern...)
	f.vals = make([]T, len(f.acol))
	f.findDiagonals()
	f.order()
	f.columnsOfC()
	f.pinv, f.prow, f.rowOf = make([]int, n), make([]int, n), make([]int32, n)
	f.col32 = make([]int32, n)
	for k, j := range f.perm {
		f.col32[k] = int32(j)
	}
	f.lp, f.up = make([]int, n+1), make([]int, n+1)
	f.lnp, f.unp = make([]int, n+1), make([]int, n+1)
	f.udiag = make([]T, n)
	f.x = make([]T, n)
	f.xi, f.stack, f.pstack, f.mark = make([]int, n), make([]int, n), make([]int, n), make([]int, n)
	f.w, f.bcopy, f.res = make([]T, n), make([]T, n), make([]T, n)
	return nil
}

// order computes the symmetric fill-reducing ordering from the pattern of A + Aᵀ and
// the size of the Cholesky factor of C + Cᵀ it gives.
func (f *sparseLUOf[T]) order() {
	n := f.n
	// The graph of A + Aᵀ, each list increasing, and from it the upper-triangle pairs of
	// A + Aᵀ by columns (rows increasing), each once, with the whole diagonal: the same
	// lists and pairs the per-column appends, sorts and adjacency's appends built before
	// (the ordering depends on their order), in O(n + nnz).
	adj := symmetricAdjacency(n, f.arp, f.acol)
	m := n
	for j, l := range adj {
		m += lowerCount(l, j)
	}
	rows, cols := make([]int, 0, m), make([]int, 0, m)
	for j, l := range adj {
		for _, i := range l[:lowerCount(l, j)] {
			rows, cols = append(rows, i), append(cols, j)
		}
		rows, cols = append(rows, j), append(cols, j)
	}
	md := f.pairedMinimumDegree(adj)
	cp, ci, _ := permutedUpper(n, inverse(md), rows, cols)
	f.perm = make([]int, n)
	for k, p := range postorder(eliminationTree(cp, ci)) {
		f.perm[k] = md[p]
	}
	f.iperm = inverse(f.perm)
	f.pref = make([]int, n)
	for k, i := range f.perm {
		f.pref[k] = k
		if f.partner != nil && f.partner[i] >= 0 && !f.unpaired {
			f.pref[k] = f.iperm[f.partner[i]]
		}
	}
	cp, ci, _ = permutedUpper(n, f.iperm, rows, cols)
	f.lEstimate = factorCount(cp, ci, eliminationTree(cp, ci))
}

// lowerCount returns how many entries of the increasing list l are below j.
func lowerCount(l []int, j int) int {
	k := 0
	for k < len(l) && l[k] < j {
		k++
	}
	return k
}

// pairedMinimumDegree orders the graph adj of A + Aᵀ by minimum degree with every row
// that has no diagonal entry in A's pattern (a constraint row of a saddle-point or
// first-order form) eliminated right after a partner: a neighbour with a diagonal entry,
// matched to it alone (diagonalPartners). Each pair is one node of the graph given to
// minimumDegree, the partner is placed first and the row without diagonal right after.
//
// Why: such a row's diagonal is zero when its column is reached, and threshold pivoting
// then takes another row of that column as pivot, a row that the symmetric ordering
// placed elsewhere, perhaps far later. Minimum degree eliminates low-degree rows first,
// and the μ rows of the GGL form (μ_r couples only to the coordinates of constraint r)
// all came first on a chain: each took a coordinate row as pivot, which carried the fill
// of the previous one along the whole chain, and nnz(L+U) of bdf's Newton matrix grew as
// N² (4.1e6 at 400 bars against 1.0e5 for index2). A pair pivots crosswise instead (the
// partner's column on the row without diagonal and that row's column on the partner's
// row, pref), a row exchange inside two adjacent steps that leaves the fill of the
// symmetric ordering nearly as predicted: 1.5e5 at 400 bars, linear in N.
//
// Where minimum degree on the whole graph already eliminates, before each row without
// diagonal, a neighbour that fills that diagonal (diagonalsFilled: the constraint rows of
// hht's [M̂ Gᵀ; G 0] on the planar chains, whose coordinates go first), that order is
// kept unpaired (unpaired; pref is then the diagonal), since the pairs' contracted graph
// orders less well: 22 % less fill on the 1000-bar chain.
func (f *sparseLUOf[T]) pairedMinimumDegree(adj [][]int) []int {
	partner := diagonalPartners(f.arp, f.acol, adj, f.diag)
	f.partner = partner
	if partner == nil {
		return minimumDegree(adj)
	}
	if md := minimumDegree(adj); f.diagonalsFilled(adj, md) {
		f.unpaired = true
		return md
	}
	n := len(adj)
	// Each node of the contracted graph holds one row (a lone row, or a partner) or two
	// (the partner, then its row without diagonal): partner is one-to-one.
	id := make([]int, n)       // node of each row in the contracted graph
	first := make([]int, 0, n) // the first row of each node
	for i := range n {
		if partner[i] < 0 || f.diag[i] {
			id[i] = len(first)
			first = append(first, i)
		}
	}
	second := make([]int, len(first))
	for c := range second {
		second[c] = -1
	}
	for i := range n {
		if partner[i] >= 0 && !f.diag[i] {
			id[i] = id[partner[i]]
			second[id[i]] = i
		}
	}
	// The contracted graph's lists, increasing, in one array: each node's neighbours'
	// nodes, once each (marked), then sorted.
	size := 0
	for _, l := range adj {
		size += len(l)
	}
	flat := make([]int, 0, size)
	mark := make([]int, len(first))
	for c := range mark {
		mark[c] = -1
	}
	cadj := make([][]int, len(first))
	for c, i := range first {
		start := len(flat)
		mark[c] = c
		for _, j := range adj[i] {
			if d := id[j]; mark[d] != c {
				mark[d] = c
				flat = append(flat, d)
			}
		}
		if z := second[c]; z >= 0 {
			for _, j := range adj[z] {
				if d := id[j]; mark[d] != c {
					mark[d] = c
					flat = append(flat, d)
				}
			}
		}
		cadj[c] = flat[start:len(flat):len(flat)]
		slices.Sort(cadj[c])
	}
	order := make([]int, 0, n)
	for _, c := range minimumDegree(cadj) {
		order = append(order, first[c])
		if second[c] >= 0 {
			order = append(order, second[c])
		}
	}
	return order
}

// diagonalsFilled reports whether, in the elimination order md, every row z without
// diagonal entry comes after a row p with one that couples to it both ways (A(z, p) and
// A(p, z) in the pattern): eliminating p then fills the diagonal of z with
// −A(z, p)·A(p, z)/A(p, p), so that z can pivot on its diagonal as the rows with one do.
// When it holds, the pairing of pairedMinimumDegree is not needed, and minimum degree on
// the whole graph fills less: on hht's Newton matrix of the 1000-bar chain nnz(L + U)
// 37 582 against 47 952 paired (BENCHMARKS.md "The sparse LU's storage and passes"). It
// fails where minimum degree eliminates such rows first, as the μ rows of the GGL form.
func (f *sparseLUOf[T]) diagonalsFilled(adj [][]int, md []int) bool {
	pos := inverse(md)
	for z, nbrs := range adj {
		if f.diag[z] {
			continue
		}
		filled := false
		for _, p := range nbrs {
			if f.diag[p] && pos[p] < pos[z] && inRow(f.arp, f.acol, z, p) && inRow(f.arp, f.acol, p, z) {
				filled = true
				break
			}
		}
		if !filled {
			return false
		}
	}
	return true
}

// inRow reports whether row i of the pattern (arp, acol) lists column j.
func inRow(arp, acol []int, i, j int) bool {
	_, ok := slices.BinarySearch(acol[arp[i]:arp[i+1]], j)
	return ok
}

// hasDiagonal reports whether row i of the pattern lists column i and it is not weak.
func (f *sparseLUOf[T]) hasDiagonal(i int) bool { return f.diag[i] }

// findDiagonals sets diag: whether each row lists its diagonal and it is not weak.
func (f *sparseLUOf[T]) findDiagonals() {
	f.diag = make([]bool, f.n)
	for i := range f.n {
		f.diag[i] = inRow(f.arp, f.acol, i, i) && (f.weak == nil || !f.weak[i])
	}
}

// diagonalPartners matches each row z without a diagonal entry to a distinct neighbour p
// in adj that has one, is not matched yet, and couples both ways (A(z, p) and A(p, z) in
// the pattern, the entries the pair pivots on): partner[z] = p and partner[p] = z; −1 for
// unmatched rows. Rows with fewer neighbours choose first (they have fewer choices),
// each taking its unmatched neighbour of least degree. It returns nil when every row has
// its diagonal.
func diagonalPartners(arp, acol []int, adj [][]int, hasDiagonal []bool) []int {
	n := len(adj)
	var zero []int
	for z := range n {
		if !hasDiagonal[z] {
			zero = append(zero, z)
		}
	}
	if zero == nil {
		return nil
	}
	slices.SortStableFunc(zero, func(a, b int) int { return len(adj[a]) - len(adj[b]) })
	partner := make([]int, n)
	for i := range partner {
		partner[i] = -1
	}
	for _, z := range zero {
		best := -1
		for _, p := range adj[z] {
			if partner[p] < 0 && hasDiagonal[p] && inRow(arp, acol, z, p) && inRow(arp, acol, p, z) &&
				(best < 0 || len(adj[p]) < len(adj[best])) {
				best = p
			}
		}
		if best >= 0 {
			partner[z], partner[best] = best, z
		}
	}
	return partner
}

// columnsOfC stores the pattern of C = Q A Qᵀ by columns, each entry pointing to its
// value in vals.
func (f *sparseLUOf[T]) columnsOfC() {
	n, nnz := f.n, len(f.acol)
	f.ccp = make([]int, n+1)
	for _, j := range f.acol {
		f.ccp[f.iperm[j]+1]++
	}
	for k := range n {
		f.ccp[k+1] += f.ccp[k]
	}
	f.crow, f.cent = make([]int32, nnz), make([]cEntry, nnz)
	next := slices.Clone(f.ccp[:n])
	for i := range n {
		for t := f.arp[i]; t < f.arp[i+1]; t++ {
			k := f.iperm[f.acol[t]]
			f.crow[next[k]], f.cent[next[k]].at = int32(f.iperm[i]), int32(t)
			next[k]++
		}
	}
}

// Size returns n.
func (f *SparseLU) Size() int { return f.n }

// NNZ returns the number of nonzeros of L + U (fill-in included, the diagonal counted
// once) of the current pivot sequence; 0 before the first successful Factorize. It counts
// the scalar factors only: factorizations by pivot blocks (UseBlocks) leave it as it was.
func (f *SparseLU) NNZ() int { return f.nnz() }

// FullFactorizations returns how many factorizations searched for pivots (and found
// the patterns of L and U anew): the first Factorize and every one whose
// refactorization met a degraded pivot, successful or not.
func (f *SparseLU) FullFactorizations() int { return f.nFull }

// Refactorizations returns how many Factorize calls succeeded by refactorization, with
// the pivot sequence and patterns of an earlier full factorization.
func (f *SparseLU) Refactorizations() int { return f.nRefactor }

// Pattern returns A's pattern in compressed rows, as NewSparseLU took it: row i lists
// the columns cols[rowStart[i]:rowStart[i+1]], in the order of Values(). The slices are
// the SparseLU's own, shared so that a caller filling Values() by rows needs no copy of
// the pattern (at n = 130 000, 14 MB): read them, never modify them.
func (f *SparseLU) Pattern() (rowStart, cols []int) { return f.arp, f.acol }

// Values returns the storage of A's pattern entries that Factor factorizes, the rows of
// the pattern one after another: entry Σ_{r<i} len(pattern[r]) + s is A(i,
// pattern[i][s]). Callers that assemble the matrix sparsely fill it and call Factor,
// which avoids a dense n×n matrix: at n = 5000, gathering from one costs nearly as much
// as the refactorization itself (BenchmarkLUChain).
func (f *SparseLU) Values() []float64 { return f.vals }

// Factorize gathers the pattern entries of A, through At or directly from the storage of
// a *mat.Dense, and factorizes them (Factor). Entries outside the pattern are ignored.
// It panics if A is not n×n.
func (f *SparseLU) Factorize(A mat.Matrix) error {
	if r, c := A.Dims(); r != f.n || c != f.n {
		panic(fmt.Sprintf("linalg: SparseLU.Factorize: A is %d×%d, want %d×%d", r, c, f.n, f.n))
	}
	if d, ok := A.(*mat.Dense); ok {
		raw := d.RawMatrix()
		f.gather(raw.Data, raw.Stride)
	} else {
		for i := range f.n {
			for t := f.arp[i]; t < f.arp[i+1]; t++ {
				f.vals[t] = A.At(i, f.acol[t])
			}
		}
	}
	return f.Factor()
}

// Factor factorizes the matrix whose pattern entries are held in Values(): by
// refactorization with the pivot sequence of the last full factorization if there is one
// and no pivot degrades, by a full Gilbert–Peierls factorization with threshold partial
// pivoting otherwise. A non-finite entry, or a pivot column without any nonzero
// candidate (a structurally or numerically singular matrix), returns ErrSingular. After
// a non-finite entry the pivot sequence stays for the next call; after a singular full
// factorization the next call searches for pivots anew.
//
// After UseBlocks, a refactorization that fails is followed by the factorization by
// pivot blocks, which pivots within small dense blocks and needs no pivot search, and
// only if a block fails its pivot test by a full factorization. Once the blocks
// succeed, the next calls take them first, until a block fails; then the
// refactorization comes first again. So a matrix whose refactorizations hold pays for
// no block attempt after its first full factorization, and one whose refactorizations
// fail (Euler parameters) keeps its blocks.
func (f *SparseLU) Factor() error {
	f.byBlocks = false
	if f.blk == nil {
		return f.factor()
	}
	f.factored = false
	if !f.checkValues() {
		return ErrSingular
	}
	if f.preferBlocks {
		if f.factorBlocks() {
			return nil
		}
		f.preferBlocks = false
		return f.factor()
	}
	if f.symbolic && f.refactor() {
		f.nRefactor++
		f.factored = true
		return nil
	}
	if f.factorBlocks() {
		f.preferBlocks = true
		return nil
	}
	return f.full()
}

// factorBlocks factorizes by pivot blocks and reports whether every block passed.
func (f *SparseLU) factorBlocks() bool {
	if !f.blk.factor(f.vals) {
		return false
	}
	f.nBlock++
	f.byBlocks, f.factored = true, true
	return true
}

// UseBlocks makes Factor try a factorization by dense pivot blocks (blockLU): the
// unknowns are grouped from the pattern (rows with the same neighbours, such as a body's
// Euler parameters, with the rows without diagonal entry that pivot on them, such as
// its normalization row), the blocks are eliminated in a fixed order, and each block
// pivots densely within itself, so its pivots follow the values without a new search.
// Factor says when the blocks are tried. It reports whether the pattern allows blocks
// (see newBlockLU); if not, nothing changes.
func (f *SparseLU) UseBlocks() bool {
	if f.blk == nil {
		f.blk = newBlockLU(f.n, f.arp, f.acol, f.partner, f.hasDiagonal, f.tau, f.lEstimate)
		if f.blk != nil {
			f.altSolve = f.blk.solve
		}
	}
	return f.blk != nil
}

// BlockFactorizations returns how many Factor calls succeeded by pivot blocks
// (UseBlocks); FullFactorizations and Refactorizations count the others.
func (f *SparseLU) BlockFactorizations() int { return f.nBlock }

// Solve overwrites b with the solution x of A x = b, from P Q A Qᵀ = L U:
//
//	w = P Q b,   L U z = w,   x = Qᵀ z,
//
// followed by at most Refine steps of iterative refinement. It panics on a wrong length
// or without a successful Factorize. It does not allocate.
func (f *SparseLU) Solve(b []float64) { f.solve(b, f.Refine) }

// nnz is NNZ.
func (f *sparseLUOf[T]) nnz() int {
	if !f.symbolic {
		return 0
	}
	return len(f.li) + len(f.ui) + f.n
}

// gather copies the pattern entries of a dense row-major matrix, row i starting at
// a[i·stride], into vals.
func (f *sparseLUOf[T]) gather(a []T, stride int) {
	for i := range f.n {
		row := a[i*stride : i*stride+f.n]
		lo, hi := f.arp[i], f.arp[i+1]
		vals, cols := f.vals[lo:hi], f.acol[lo:hi]
		for t, j := range cols {
			vals[t] = row[j]
		}
	}
}

// factor is Factor.
func (f *sparseLUOf[T]) factor() error {
	f.factored = false
	if !f.checkValues() {
		return ErrSingular
	}
	if f.symbolic && f.refactor() {
		f.nRefactor++
		f.factored = true
		return nil
	}
	return f.full()
}

// full is the full factorization of factor, with its counts and state.
func (f *sparseLUOf[T]) full() error {
	f.nFull++
	if !f.factorFull() {
		f.symbolic = false
		return ErrSingular
	}
	f.symbolic = true
	f.factored = true
	return nil
}

// checkValues reports false if an entry is NaN or infinite (for a complex entry: if
// either part is).
func (f *sparseLUOf[T]) checkValues() bool {
	for _, v := range f.vals {
		if v-v != 0 { // NaN (in some part) for ±Inf and NaN
			return false
		}
	}
	return true
}

// solve is Solve with at most refine steps of iterative refinement.
func (f *sparseLUOf[T]) solve(b []T, refine int) {
	if len(b) != f.n {
		panic(fmt.Sprintf("linalg: %s.Solve: len(b) = %d, want %d", f.name, len(b), f.n))
	}
	if !f.factored {
		panic(fmt.Sprintf("linalg: %s.Solve without a successful Factorize", f.name))
	}
	if refine > 0 {
		copy(f.bcopy, b)
	}
	f.solveInPlace(b)
	for range refine {
		if f.residual(f.res, f.bcopy, b) <= sparseLURefineTarget {
			break
		}
		f.solveInPlace(f.res)
		for i, d := range f.res {
			b[i] += d
		}
	}
}

// residual sets r = b − A x and returns the componentwise backward error of x,
// max_i |r_i| / (|A| |x| + |b|)_i (a row with zero denominator counts 0 when r_i = 0),
// with |·| the magnitude of the pivot tests.
func (f *sparseLUOf[T]) residual(r, b, x []T) float64 {
	omega := 0.0
	for i := range f.n {
		lo, hi := f.arp[i], f.arp[i+1]
		cols, vals := f.acol[lo:hi], f.vals[lo:hi]
		vals = vals[:len(cols)]
		ri, den := b[i], magnitude(b[i])
		for t, j := range cols {
			p := vals[t] * x[j]
			ri -= p
			den += magnitude(p)
		}
		r[i] = ri
		if ri != 0 {
			omega = max(omega, magnitude(ri)/den)
		}
	}
	return omega
}

// solveInPlace overwrites b with (L U)⁻¹ applied in A's numbering.
func (f *sparseLUOf[T]) solveInPlace(b []T) {
	if f.byBlocks {
		f.altSolve(b)
		return
	}
	w := f.w[:len(f.rowOf)]
	for k, i := range f.rowOf {
		w[k] = b[i]
	}
	forwardSubstituted(w, f.lnp, f.lnz)                         // L y = w
	backSubstituted(w, f.unp, f.unz, f.udiag[:f.n], b, f.col32) // U z = y, x = Qᵀ z
}

// forwardSubstituted overwrites w with L⁻¹ w, L unit lower triangular by columns (lnp,
// lnz) without its diagonal. The two substitutions are functions of their own, not
// inlined, so that each loop keeps its few values in registers (in one body the column's
// bound spilled to the stack in the inner loop; BenchmarkLUGGL).
//
//go:noinline
func forwardSubstituted[T luScalar](w []T, lnp []int, lnz []luEntry[T]) {
	for j, wj := range w {
		if wj == 0 {
			continue
		}
		for _, e := range lnz[lnp[j]:lnp[j+1]] {
			w[e.r] -= e.v * wj
		}
	}
}

// backSubstituted solves U z = w, U upper triangular by columns (unp, unz) without its
// diagonal udiag, and stores z_k at x[col[k]] (the permutation back to A's numbering, in
// the same pass: a pass over w less per solve). w is destroyed: z_k is not stored back,
// since only the rows above k, still to be solved, read the updates of column k.
//
//go:noinline
func backSubstituted[T luScalar](w []T, unp []int, unz []luEntry[T], udiag []T, x []T, col []int32) {
	col = col[:len(w)]
	for k := len(w) - 1; k >= 0; k-- {
		wk := w[k] / udiag[k]
		x[col[k]] = wk
		if wk == 0 {
			continue
		}
		for _, e := range unz[unp[k]:unp[k+1]] {
			w[e.r] -= e.v * wk
		}
	}
}
