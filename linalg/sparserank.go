package linalg

import (
	"fmt"
	"math"
	"slices"
)

// SparseRankLU is a rank-revealing sparse LU factorization of a rectangular m×n matrix G
// (m ≤ n in use, rank deficient allowed), the sparse counterpart of the pivoted QR
// factorizations that partition the coordinates of a mechanism (seed 002, Remark 2b):
// it finds the numerical rank r of G, r independent rows (the others are redundant) and r
// columns (the dependent coordinates) such that the square block B = G[Rows, Cols] is
// non-singular and well conditioned, and it solves with B and Bᵀ.
//
// Algorithm: an up-looking (row by row) Gaussian elimination, which is the left-looking
// Gilbert–Peierls LU of Gᵀ (Davis, "Direct Methods for Sparse Linear Systems", SIAM 2006,
// ch. 6) with the roles of rows and columns exchanged. Row i, when its turn comes, is
// reduced against the rows pivoted before it,
//
//	x = G_i − Σ_k l_ik U_k,
//
// where the pivot columns to eliminate, and the fill they bring, are found by a
// depth-first search in the graph of U (each pivot column points to the columns of its U
// row). Then:
//
//   - if every remaining entry satisfies |x_j| ≤ Tol·max|G|, row i is redundant: its
//     gradient is, to that threshold, a combination of the rows taken before it;
//   - otherwise its pivot column is chosen by threshold pivoting in the row: among the
//     columns not in Keep with |x_j| ≥ τ·max|x| over those columns (or, when they are all
//     at or below the threshold, among the Keep columns), the one appearing in the fewest
//     rows still to come (the Markowitz count of a row-wise elimination: each such row
//     receives the fill of U_i), ties to the larger |x_j| and then the lower index.
//     x (the non-pivot columns of the reduced row) is stored as U_i.
//
// The order of the rows limits the fill: U rows carry the columns that are never pivots
// (the independent coordinates), and in a chain every body's position depends on the
// angles of all bodies before it, so taking a chain's joints from the root would carry
// every angle into every later row (fill quadratic in the length). The next row is the
// one holding a column that the fewest rows still to come share (structurally, in G's
// pattern), ties to the lower index: a chain is taken from its free end, where the last
// body's columns appear in its joint's rows only, and each pivot then fills nothing. On
// equal counts a row sharing a column with a row already taken comes first, so that the
// elimination goes on along the front it has opened: a duplicated joint in the middle of a
// chain raises its bodies' counts to those of the bodies at the root, and the tie to the
// lower index would start a second front at the root, which fills as described (nnz(L+U)
// 1.3e7 instead of 1.2e5 at 10 000 bars). Of rows with the same pattern (a duplicated joint) the first is taken
// first, so the copy is the redundant one. Because Keep columns are used only by rows that have no other
// candidate, the free columns' pivots are as many as the rank of G restricted to them, in
// any row order: Keep columns become dependent only when the others cannot supply r
// independent columns.
//
// Thresholds: Tol is relative to the largest |G_ij|, where the pivoted QR of Initialize
// compares |R_kk| with |R_00|, the largest row norm: both measure the part of a row
// outside the span of the others against the size of G. τ = sparseRankTau bounds the
// multipliers: each U row divided by its pivot has entries of at most 1/τ on the columns
// pivoted after it, which bounds the growth of the elimination and keeps B well
// conditioned (the partial pivoting of Gᵀ by threshold, as in SparseLU).
//
// Fill: U rows keep the columns not pivoted before them, so the Markowitz choice keeps a
// chain's or a tree's fill local (a few entries per row). Keep works against it: columns
// that may not be pivots stay in every U row the elimination carries them into, and when
// Keep holds a coordinate of every body of a long chain they accumulate (fill quadratic in
// the chain's length). Keep lists a few coordinates in practice.
//
// Storage: NewSparseRankLU does no numerical work; the first Factorize sizes L and U,
// and later calls reuse them, so that a refactorization of a matrix with the same pattern
// and a similar pivot sequence allocates nothing.
type SparseRankLU struct {
	// Tol is the relative rank threshold: a reduced row whose entries are all at most
	// Tol·max|G_ij| is redundant. In (0, 1) [1e-10, Initialize's RankTol].
	Tol float64
	// Keep, when not nil (length n), marks columns that should not be pivot columns: they
	// are used only by rows whose other columns are all at or below the rank threshold.
	Keep []bool
	// Skip, when not nil (length m), marks rows to leave out: they are neither
	// independent nor redundant, as if G had only the other rows.
	Skip []bool

	m, n     int
	rp, rcol []int     // the pattern of G by rows
	vals     []float64 // G's values on the pattern, Values()

	// Results of the last Factorize: step k pivots row rows[k] on column cols[k].
	rows, cols, redundant []int // rows and cols in step order
	colStep               []int // colStep[j] = the step pivoting column j, −1 if none
	remaining             []int // remaining[j] = rows still to come listing column j
	colRows               [][]int
	key                   []int    // key[i]: the row order (Factorize), −1 once taken
	heap                  []rowKey // rows by key (lazy: stale entries are skipped)

	// U by rows: step k holds the pivot upiv[k] and the other columns of its reduced row,
	// ucol[up[k]:up[k+1]] with values ux; L by rows: lstep[lp[k]:lp[k+1]] are the earlier
	// steps eliminated from row rows[k], with multipliers lx.
	up, ucol, lp, lstep []int
	ux, lx, upiv        []float64

	// Work arrays of length n: x is the dense accumulator of one row, zero between rows;
	// mark, xi, stack and pstack serve the depth-first search.
	x                       []float64
	mark, xi, stack, pstack []int
	rowID                   int // the mark of the row being reduced

	gmax, smallest float64 // max|G_ij| and the smallest reduced row's largest entry
	factored       bool
}

// sparseRankTau is τ, the pivot threshold within a reduced row. A larger τ than
// SparseLU's 0.001: B must be well conditioned for the Newton iterations and the solves of
// Initialize, and the factorization runs once per setup, where a little more fill is no
// cost. On the tests' chains, loops and random matrices the condition number of B stayed
// within a factor 100 of that of the block the dense pivoted QR picks
// (TestSparseRankLUMatchesQR).
const sparseRankTau = 0.1

// defaultSparseRankTol is the default of Tol, Initialize's default RankTol.
const defaultSparseRankTol = 1e-10

// NewSparseRankLU returns a rank-revealing LU for m×n matrices with the given pattern:
// pattern[i] lists, strictly increasing, the columns of row i that can be nonzero. A bad
// pattern returns a *PatternError with Block "G" naming the row; n < 1 or m < 0 returns an
// error.
func NewSparseRankLU(m, n int, pattern [][]int) (*SparseRankLU, error) {
	if n < 1 || m < 0 {
		return nil, fmt.Errorf("linalg: NewSparseRankLU: m = %d, n = %d, want m >= 0, n >= 1", m, n)
	}
	if err := checkPattern("G", pattern, m, n); err != nil {
		return nil, err
	}
	f := &SparseRankLU{Tol: defaultSparseRankTol, m: m, n: n, rp: make([]int, m+1)}
	for i, row := range pattern {
		f.rp[i+1] = f.rp[i] + len(row)
		f.rcol = append(f.rcol, row...)
	}
	f.vals = make([]float64, len(f.rcol))
	f.rows, f.cols, f.redundant = make([]int, 0, m), make([]int, 0, m), make([]int, 0, m)
	f.colStep, f.remaining = make([]int, n), make([]int, n)
	f.colRows = make([][]int, n)
	for i, row := range pattern {
		for _, j := range row {
			f.colRows[j] = append(f.colRows[j], i)
		}
	}
	f.key = make([]int, m)
	f.heap = make([]rowKey, 0, m+len(f.rcol))
	f.up, f.lp = make([]int, 1, m+1), make([]int, 1, m+1)
	f.upiv = make([]float64, 0, m)
	f.x = make([]float64, n)
	f.mark, f.xi, f.stack, f.pstack = make([]int, n), make([]int, n), make([]int, n), make([]int, n)
	return f, nil
}

// Dims returns (m, n).
func (f *SparseRankLU) Dims() (m, n int) { return f.m, f.n }

// Values returns the storage of G's pattern entries that Factorize reads, the rows of the
// pattern one after another: entry Σ_{r<i} len(pattern[r]) + s is G(i, pattern[i][s]).
func (f *SparseRankLU) Values() []float64 { return f.vals }

// Rank returns the numerical rank found by the last Factorize.
func (f *SparseRankLU) Rank() int { return len(f.rows) }

// Rows returns the independent rows in the order of the elimination (shared: do not
// modify): step k pivots row Rows()[k].
func (f *SparseRankLU) Rows() []int { return f.rows }

// Cols returns the pivot columns, aligned with Rows: step k pivots column Cols()[k]. They
// are not sorted. Shared: do not modify.
func (f *SparseRankLU) Cols() []int { return f.cols }

// Redundant returns the rows found to be combinations of rows taken before them,
// increasing (shared: do not modify).
func (f *SparseRankLU) Redundant() []int { return f.redundant }

// SmallestRow returns, for the last Factorize, the smallest over the rows of the largest
// entry of the row once reduced against the rows taken before it, relative to max|G_ij|:
// 0 when a row is an exact combination of earlier ones, of the order of 1/cond(G) for a
// nearly dependent row (the counterpart of the smallest |R_kk|/|R_00| of a pivoted QR);
// 1 without rows, 0 when G = 0.
func (f *SparseRankLU) SmallestRow() float64 {
	switch {
	case math.IsInf(f.smallest, 1):
		return 1
	case f.gmax == 0:
		return 0
	}
	return f.smallest / f.gmax
}

// NNZ returns the number of stored entries of L and U (pivots included) of the last
// Factorize.
func (f *SparseRankLU) NNZ() int { return len(f.lstep) + len(f.ucol) + len(f.upiv) }

// Factorize factorizes the matrix held in Values() with the current Tol, Keep and Skip. A
// NaN or infinite entry returns ErrSingular; a rank-deficient G is not an error (see
// Redundant). Wrong lengths of Keep or Skip, or Tol outside (0, 1), panic.
func (f *SparseRankLU) Factorize() error {
	f.check()
	f.factored = false
	f.rows, f.cols, f.redundant = f.rows[:0], f.cols[:0], f.redundant[:0]
	f.up, f.lp, f.upiv = f.up[:1], f.lp[:1], f.upiv[:0]
	f.ucol, f.ux, f.lstep, f.lx = f.ucol[:0], f.ux[:0], f.lstep[:0], f.lx[:0]
	clear(f.remaining)
	for j := range f.colStep {
		f.colStep[j], f.mark[j] = -1, -1
	}
	gmax := 0.0
	for i := range f.m {
		if f.skipped(i) {
			continue
		}
		for t := f.rp[i]; t < f.rp[i+1]; t++ {
			v := f.vals[t]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return ErrSingular
			}
			gmax = max(gmax, math.Abs(v))
			f.remaining[f.rcol[t]]++
		}
	}
	thresh := f.Tol * gmax
	f.gmax, f.smallest = gmax, math.Inf(1)
	f.heap = f.heap[:0]
	for i := range f.m {
		f.key[i] = -1
		if f.skipped(i) {
			continue
		}
		f.key[i] = 2*f.m + 1
		for t := f.rp[i]; t < f.rp[i+1]; t++ {
			f.key[i] = min(f.key[i], 2*f.remaining[f.rcol[t]]+1) // untouched: odd
		}
		f.heap = append(f.heap, rowKey{f.key[i], i})
	}
	heapInit(f.heap)
	for len(f.heap) > 0 {
		var top rowKey
		top, f.heap = heapPop(f.heap)
		i := top.row
		if f.key[i] != top.key { // taken, or a stale entry
			continue
		}
		f.key[i] = -1
		f.rowID = i
		for t := f.rp[i]; t < f.rp[i+1]; t++ {
			j := f.rcol[t]
			f.remaining[j]--
			for _, r := range f.colRows[j] {
				if k := 2 * f.remaining[j]; f.key[r] > k { // touched: even
					f.key[r] = k
					f.heap = heapPush(f.heap, rowKey{f.key[r], r})
				}
			}
		}
		top2 := f.reach(i)
		f.reduce(i, top2)
		f.choosePivot(i, top2, thresh)
	}
	slices.Sort(f.redundant)
	f.factored = true
	return nil
}

func (f *SparseRankLU) check() {
	if f.Keep != nil && len(f.Keep) != f.n {
		panic(fmt.Sprintf("linalg: SparseRankLU: len(Keep) = %d, want n = %d", len(f.Keep), f.n))
	}
	if f.Skip != nil && len(f.Skip) != f.m {
		panic(fmt.Sprintf("linalg: SparseRankLU: len(Skip) = %d, want m = %d", len(f.Skip), f.m))
	}
	if !(f.Tol > 0 && f.Tol < 1) {
		panic(fmt.Sprintf("linalg: SparseRankLU: Tol = %g outside (0, 1)", f.Tol))
	}
}

func (f *SparseRankLU) skipped(i int) bool { return f.Skip != nil && f.Skip[i] }
func (f *SparseRankLU) kept(j int) bool    { return f.Keep != nil && f.Keep[j] }

// reach returns top such that xi[top:n] lists the columns of the reduced row i: those
// reachable from the pattern of G_i in the graph where a pivot column points to the other
// columns of its U row, in topological order (every pivot column before the columns its
// elimination fills).
func (f *SparseRankLU) reach(i int) int {
	top := f.n
	for t := f.rp[i]; t < f.rp[i+1]; t++ {
		if j := f.rcol[t]; f.mark[j] != i {
			top = f.dfs(j, top)
		}
	}
	return top
}

// dfs walks depth first from column j, marking what it meets with the current row, and
// pushes each column onto xi[:top] once everything it reaches is pushed (reverse
// postorder, a topological order). The recursion is kept on an explicit stack.
func (f *SparseRankLU) dfs(j, top int) int {
	stack, pstack, mark, colStep, up, ucol := f.stack, f.pstack, f.mark, f.colStep, f.up, f.ucol
	head := 0
	stack[0], mark[j] = j, f.rowID
	if k := colStep[j]; k >= 0 {
		pstack[0] = up[k]
	}
	for head >= 0 {
		j := stack[head]
		descended := false
		if k := colStep[j]; k >= 0 {
			for p := pstack[head]; p < up[k+1]; p++ {
				c := ucol[p]
				if mark[c] == f.rowID {
					continue
				}
				pstack[head] = p + 1
				head++
				stack[head], mark[c] = c, f.rowID
				if kc := colStep[c]; kc >= 0 {
					pstack[head] = up[kc]
				}
				descended = true
				break
			}
		}
		if !descended {
			head--
			top--
			f.xi[top] = j
		}
	}
	return top
}

// reduce scatters G_i into x and eliminates the pivot columns of xi[top:] in topological
// order, appending the multipliers to L.
func (f *SparseRankLU) reduce(i, top int) {
	x := f.x
	for t := f.rp[i]; t < f.rp[i+1]; t++ {
		x[f.rcol[t]] = f.vals[t]
	}
	for _, j := range f.xi[top:] {
		k := f.colStep[j]
		if k < 0 {
			continue
		}
		l := x[j] / f.upiv[k]
		x[j] = 0
		f.lstep, f.lx = append(f.lstep, k), append(f.lx, l)
		if l == 0 {
			continue
		}
		cols, vals := f.ucol[f.up[k]:f.up[k+1]], f.ux[f.up[k]:f.up[k+1]]
		vals = vals[:len(cols)]
		for q, c := range cols {
			x[c] -= l * vals[q]
		}
	}
}

// choosePivot decides row i from its reduced row (the non-pivot columns of xi[top:] in x):
// redundant, or pivoted on the column the threshold and Markowitz rules pick, whose U
// row it stores. It clears x.
func (f *SparseRankLU) choosePivot(i, top int, thresh float64) {
	cand := f.xi[top:]
	maxFree, maxKept := 0.0, 0.0
	for _, j := range cand {
		if f.colStep[j] >= 0 {
			continue
		}
		if a := math.Abs(f.x[j]); f.kept(j) {
			maxKept = max(maxKept, a)
		} else {
			maxFree = max(maxFree, a)
		}
	}
	f.smallest = min(f.smallest, max(maxFree, maxKept))
	var fromKeep bool
	var amax float64
	switch {
	case maxFree > thresh:
		amax = maxFree
	case maxKept > thresh:
		fromKeep, amax = true, maxKept
	default:
		f.redundant = append(f.redundant, i)
		f.lstep, f.lx = f.lstep[:f.lp[len(f.rows)]], f.lx[:f.lp[len(f.rows)]]
		for _, j := range cand {
			f.x[j] = 0
		}
		return
	}
	piv := -1
	for _, j := range cand {
		if f.colStep[j] >= 0 || f.kept(j) != fromKeep {
			continue
		}
		a := math.Abs(f.x[j])
		if a < sparseRankTau*amax {
			continue
		}
		if piv < 0 || f.remaining[j] < f.remaining[piv] ||
			f.remaining[j] == f.remaining[piv] && (a > math.Abs(f.x[piv]) || a == math.Abs(f.x[piv]) && j < piv) {
			piv = j
		}
	}
	k := len(f.rows)
	f.rows, f.cols = append(f.rows, i), append(f.cols, piv)
	f.upiv = append(f.upiv, f.x[piv])
	f.x[piv] = 0
	for _, j := range cand {
		if f.colStep[j] >= 0 || j == piv {
			continue
		}
		f.ucol, f.ux = append(f.ucol, j), append(f.ux, f.x[j])
		f.x[j] = 0
	}
	f.colStep[piv] = k
	f.up = append(f.up, len(f.ucol))
	f.lp = append(f.lp, len(f.lstep))
}

// Solve overwrites b (length Rank(); b[k] is the right side of row Rows()[k]) with the
// solution x of B x = b, B = G[Rows, Cols]: x[k] is the value of column Cols()[k]. It
// panics on a wrong length or without a successful Factorize. It does not allocate.
//
//	B = L U_B:   L y = b (forward, by rows of L),   U_B x = y (backward, by rows of U)
func (f *SparseRankLU) Solve(b []float64) {
	f.checkSolve("Solve", b)
	for k := range b { // L y = b
		s := b[k]
		for p := f.lp[k]; p < f.lp[k+1]; p++ {
			s -= f.lx[p] * b[f.lstep[p]]
		}
		b[k] = s
	}
	for k := len(b) - 1; k >= 0; k-- { // U_B x = y; U's non-pivot columns do not enter
		s := b[k]
		for p := f.up[k]; p < f.up[k+1]; p++ {
			if kc := f.colStep[f.ucol[p]]; kc >= 0 {
				s -= f.ux[p] * b[kc]
			}
		}
		b[k] = s / f.upiv[k]
	}
}

// SolveTrans overwrites b (length Rank(); b[k] belongs to column Cols()[k]) with the
// solution c of Bᵀ c = b: c[k] is the coefficient of row Rows()[k]. When row w of G is a
// combination of the rows Rows(), Σ_k c_k G[Rows()[k], :] = G[w, :], the coefficients
// follow from its entries on Cols() alone: c solves Bᵀ c = G[w, Cols]. It panics on a
// wrong length or without a successful Factorize. It does not allocate.
//
//	Bᵀ = U_Bᵀ Lᵀ:   U_Bᵀ z = b (forward, scattering U's rows),   Lᵀ c = z (backward)
func (f *SparseRankLU) SolveTrans(b []float64) {
	f.checkSolve("SolveTrans", b)
	for k := range b {
		zk := b[k] / f.upiv[k]
		b[k] = zk
		for p := f.up[k]; p < f.up[k+1]; p++ {
			if kc := f.colStep[f.ucol[p]]; kc >= 0 {
				b[kc] -= f.ux[p] * zk
			}
		}
	}
	for k := len(b) - 1; k >= 0; k-- {
		ck := b[k]
		for p := f.lp[k]; p < f.lp[k+1]; p++ {
			b[f.lstep[p]] -= f.lx[p] * ck
		}
	}
}

func (f *SparseRankLU) checkSolve(name string, b []float64) {
	if !f.factored {
		panic(fmt.Sprintf("linalg: SparseRankLU.%s without a successful Factorize", name))
	}
	if len(b) != len(f.rows) {
		panic(fmt.Sprintf("linalg: SparseRankLU.%s: len(b) = %d, want the rank %d", name, len(b), len(f.rows)))
	}
}

// rowKey is an entry of the row heap: a row and its key when pushed.
type rowKey struct{ key, row int }

func (a rowKey) less(b rowKey) bool { return a.key < b.key || a.key == b.key && a.row < b.row }

// heapInit, heapPush and heapPop keep h a binary min-heap by less, in place (container/heap
// would box each entry in an interface).
func heapInit(h []rowKey) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
}

func heapPush(h []rowKey, x rowKey) []rowKey {
	h = append(h, x)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	return h
}

func heapPop(h []rowKey) (rowKey, []rowKey) {
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	siftDown(h, 0)
	return top, h
}

func siftDown(h []rowKey, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1].less(h[c]) {
			c++
		}
		if !h[c].less(h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
