package linalg

import (
	"math"
	"slices"
)

// blockLU factorizes a sparse matrix by dense pivot blocks: the unknowns are partitioned
// into small blocks (pivotBlocks), the blocks are eliminated in a fixed order (static
// pivoting across blocks) and each diagonal block is factorized by dense partial
// pivoting within the block,
//
//	P A = L U,  P block diagonal,  L and U block triangular with the filled block pattern,
//
// the block elimination of Duff, Erisman & Reid ("Direct Methods for Sparse Matrices",
// 2nd ed., 2017, ch. 10, partitioned matrices). Row exchanges inside a dense diagonal
// block change no pattern, so every factorization is a refactorization: no search, no
// allocation, whatever the values.
//
// Why: the Newton matrix of bodies in Euler parameters has, per body, the 4×4 mass
// 4GᵀJ'G + βh²(…), singular along p but for βh² terms, bordered by the normalization row
// 2pᵀ. The body block [4GᵀJ'G + βh²…, 2p; 2pᵀ, 0] is nonsingular, but a scalar pivot
// order fixed at a full factorization meets, once three of the parameters are
// eliminated, a diagonal of βh² size, or the normalization row's entry 2p_k of a
// parameter p_k that the rotation brings near zero: SparseLU's refactorization then fails
// its pivot test and searches anew (the full factorizations of the 400-rod 3D chain).
// Pivoting densely inside the block picks whichever row is large at this iterate.
//
// A pivot is accepted by the test SparseLU's refactorization applies: no entry of L may
// exceed 1/τ in magnitude, i.e. every pivot is at least τ times the entries below it in
// its column, those of later blocks included (inside a block partial pivoting bounds them
// by 1). A block that fails (a zero or small pivot, a non-finite value) makes factor
// report false, and the caller factorizes by the general sparse LU instead.
type blockLU struct {
	n   int
	tau float64

	// Blocks in elimination order: block k holds the unknowns idx[bp[k]:bp[k+1]] (A's
	// numbering); the unknowns are numbered by position in idx (elimination order).
	bp, idx []int
	// Block k's values, all row-major in val: the diagonal block D_k (s×s) at dOff[k],
	// the panel of L below it (m×s) at lOff[k] and the panel of U right of it (s×m) at
	// uOff[k] (supernodal storage: one dense product per block updates all it couples).
	// rows[pp[k]:pp[k+1]] lists, increasing, the m later unknowns (positions) the block
	// couples to, the rows of the L panel and the columns of the U panel (fill).
	dOff, lOff, uOff []int
	pp               []int
	rows             []int32
	// upd[updp[k]+a·m+c] is the offset in val of the entry (rows[a], rows[c]) that the
	// elimination of block k updates by −(L panel · U panel)_ac.
	updp []int
	upd  []int32
	// amap[t] is where the t-th value of A's pattern goes in val.
	amap []int32
	val  []float64
	// ipiv[bp[k]+r]: the local row exchanged with local row r of block k at step r of its
	// partial pivoting (LAPACK's convention).
	ipiv []int
	w    []float64 // the right-hand side by positions (solve)
	acc  []float64 // one row of a panel product (factor)
	// The rows of block k's L panel that hold a nonzero are nzL[pp[k]:pp[k]+nzLn[k]],
	// the columns of its U panel nzU[pp[k]:pp[k]+nzUn[k]], as the last factor found
	// them: indices into the panel during its update, then the unknowns' positions; the
	// panels hold those rows and columns at their front (pack).
	nzL, nzU   []int32
	nzLn, nzUn []int
	bs         []blockSolve // per block, for the solves
}

// blockLUMaxSize bounds a pivot block: dense blocks cost their size cubed, and the
// blocks this is for are a body's coordinates with its normalization row, or a
// coordinate with the constraint row that pivots on it.
const blockLUMaxSize = 16

// blockLUMaxStorage bounds the dense block storage against the Cholesky estimate of the
// scalar factors' nonzeros, so that the blocks' zeros cannot multiply the factors'
// memory: beyond it the pattern is left to SparseLU alone. (On the 400-rod 3D chain the
// panels hold 70 000 values against an estimate of 31 500.)
const blockLUMaxStorage = 4

// newBlockLU returns the block factorization of the n×n pattern (arp, acol) with the
// pivot blocks pivotBlocks finds, or nil when the pattern does not allow one or has no
// bordered block: a row without diagonal entry that joins no block, a block larger than
// blockLUMaxSize, one with more rows without diagonal than with, or dense blocks
// storing more than blockLUMaxStorage times lEstimate values (or more than the int32
// offsets reach). partner is SparseLU's diagonalPartners matching (nil: every row has
// its diagonal), hasDiagonal its test.
func newBlockLU(n int, arp, acol []int, partner []int, hasDiagonal func(int) bool, tau float64, lEstimate int) *blockLU {
	adj := symmetricAdjacency(n, arp, acol)
	if !mayBorder(adj, hasDiagonal) {
		return nil // pivotBlocks would find no bordered block
	}
	blockOf, members, bordered := pivotBlocks(adj, partner, hasDiagonal)
	if !bordered {
		return nil
	}
	order := blockOrder(adj, blockOf, len(members))
	b := &blockLU{n: n, tau: tau, bp: make([]int, len(members)+1)}
	pos := make([]int, len(members)) // elimination position of each block
	for k, c := range order {
		pos[c] = k
		b.idx = append(b.idx, members[c]...)
		b.bp[k+1] = len(b.idx)
	}
	for i := range blockOf {
		blockOf[i] = pos[blockOf[i]]
	}
	if !b.fill(adj, blockOf, blockLUMaxStorage*max(lEstimate, n)) {
		return nil
	}
	b.mapValues(arp, acol, blockOf)
	b.ipiv, b.w = make([]int, n), make([]float64, n)
	return b
}

// symmetricAdjacency returns the graph of A + Aᵀ (no self loops), each list increasing,
// all lists in one array. Row i's neighbours are the merge of two increasing lists: the
// columns of row i and the rows of column i, the pattern of Aᵀ built by a counting pass
// (rows taken in increasing order). Two merges, one that counts and one that stores, size
// the array exactly; O(n + nnz) with no sort (the per-node appends and sorts it replaces
// took 4.3 M instructions on hht's Newton matrix of 1000 bars, BENCHMARKS.md "The sparse
// LU's storage and passes").
func symmetricAdjacency(n int, arp, acol []int) [][]int {
	tp := make([]int, n+1) // Aᵀ by rows: row j lists ti[tp[j]:tp[j+1]]
	for _, j := range acol {
		tp[j+1]++
	}
	for j := range n {
		tp[j+1] += tp[j]
	}
	ti := make([]int, len(acol))
	next := slices.Clone(tp[:n])
	for i := range n {
		for _, j := range acol[arp[i]:arp[i+1]] {
			ti[next[j]] = i
			next[j]++
		}
	}
	start := next // reused: start[i] is where adj[i] begins in flat
	m := 0
	for i := range n {
		start[i] = m
		m += mergeInto(nil, i, acol[arp[i]:arp[i+1]], ti[tp[i]:tp[i+1]])
	}
	flat := make([]int, m)
	adj := make([][]int, n)
	for i := range n {
		e := m
		if i+1 < n {
			e = start[i+1]
		}
		adj[i] = flat[start[i]:e:e]
		mergeInto(adj[i], i, acol[arp[i]:arp[i+1]], ti[tp[i]:tp[i+1]])
	}
	return adj
}

// mergeInto writes to out the union of the increasing lists a and b without skip, in
// increasing order, and returns its size; with out nil it only counts.
func mergeInto(out []int, skip int, a, b []int) int {
	if slices.Equal(a, b) { // a symmetric row (KKT and hht's Newton matrices): a itself
		k := 0
		for _, j := range a {
			if j != skip {
				if out != nil {
					out[k] = j
				}
				k++
			}
		}
		return k
	}
	k, p, q := 0, 0, 0
	for p < len(a) && q < len(b) {
		j := a[p]
		switch {
		case j < b[q]:
			p++
		case b[q] < j:
			j = b[q]
			q++
		default:
			p++
			q++
		}
		if j != skip {
			if out != nil {
				out[k] = j
			}
			k++
		}
	}
	for _, rest := range [2][]int{a[p:], b[q:]} {
		for _, j := range rest {
			if j != skip {
				if out != nil {
					out[k] = j
				}
				k++
			}
		}
	}
	return k
}

// pivotBlocks partitions the unknowns into pivot blocks from the pattern alone: rows with
// a diagonal entry and the same neighbours in A + Aᵀ (indistinguishable nodes, such as a
// body's four Euler parameters) form one block; a row without diagonal entry whose
// neighbours all lie in one block joins it (a body's normalization row), any other joins
// its partner's block (a joint row and the coordinate it pairs with in SparseLU's
// ordering). It returns nil when a row without diagonal has neither, a block exceeds
// blockLUMaxSize, or a block has more rows without diagonal than with (structurally
// singular). bordered reports that some row without diagonal joined its neighbours'
// block (a normalization row bordering a body's parameters): the blocks' reason to be.
// Without one, scalar pivots serve (on the planar chains a static block order even
// meets singular blocks) and the caller keeps to them.
func pivotBlocks(adj [][]int, partner []int, hasDiagonal func(int) bool) (blockOf []int, members [][]int, bordered bool) {
	n := len(adj)
	blockOf = make([]int, n)
	byNeighbours := map[string]int{}
	key := make([]byte, 0, 64)
	for i := range n {
		blockOf[i] = -1
		if !hasDiagonal(i) {
			continue
		}
		key = closedNeighbourhoodKey(key[:0], adj[i], i)
		c, ok := byNeighbours[string(key)]
		if !ok {
			c = len(members)
			byNeighbours[string(key)] = c
			members = append(members, nil)
		}
		blockOf[i] = c
		members[c] = append(members[c], i)
	}
	zeros := make([]int, len(members))
	for i := range n {
		if blockOf[i] >= 0 {
			continue
		}
		c := commonBlock(adj[i], blockOf)
		bordered = bordered || c >= 0
		if c < 0 && partner != nil && partner[i] >= 0 {
			c = blockOf[partner[i]]
		}
		if c < 0 {
			return nil, nil, false
		}
		blockOf[i] = c
		members[c] = append(members[c], i)
		zeros[c]++
	}
	for c, m := range members {
		if len(m) > blockLUMaxSize || 2*zeros[c] > len(m) {
			return nil, nil, false
		}
		slices.Sort(m)
	}
	return blockOf, members, bordered
}

// mayBorder reports whether some row without diagonal entry has all its neighbours in
// adj with a diagonal entry and the same closed neighbourhood, that is in one block of
// pivotBlocks (which groups the rows with a diagonal by their closed neighbourhoods):
// exactly when pivotBlocks may report bordered. It decides in one pass over the rows
// without diagonal, comparing neighbourhoods instead of hashing every row's: on the
// planar chains' Newton matrices (a joint's rows couple two bodies' coordinates, which
// differ in their neighbours) no row qualifies, and newBlockLU declines at this test
// (7 M instructions of hht's Init at 1000 bars).
func mayBorder(adj [][]int, hasDiagonal func(int) bool) bool {
	for i, nbrs := range adj {
		if hasDiagonal(i) || len(nbrs) == 0 {
			continue
		}
		j0, ok := nbrs[0], true
		for _, j := range nbrs {
			if !hasDiagonal(j) || !sameClosedNeighbourhood(adj, j0, j) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// sameClosedNeighbourhood reports whether adj(a) ∪ {a} = adj(b) ∪ {b}, the lists sorted
// without repetition and without the node itself.
func sameClosedNeighbourhood(adj [][]int, a, b int) bool {
	if a == b {
		return true
	}
	x, y := adj[a], adj[b]
	if len(x) != len(y) || !slices.Contains(x, b) {
		return false
	}
	// adj(a) \ {b} = adj(b) \ {a}, both sorted
	p, q := 0, 0
	for {
		if p < len(x) && x[p] == b {
			p++
		}
		if q < len(y) && y[q] == a {
			q++
		}
		if p == len(x) || q == len(y) {
			return p == len(x) && q == len(y)
		}
		if x[p] != y[q] {
			return false
		}
		p++
		q++
	}
}

// closedNeighbourhoodKey appends to key the bytes of the sorted set nbrs ∪ {i}.
func closedNeighbourhoodKey(key []byte, nbrs []int, i int) []byte {
	put := func(v int) {
		for s := 0; s < 64; s += 8 {
			key = append(key, byte(v>>s))
		}
	}
	self := false
	for _, j := range nbrs {
		if !self && i < j {
			put(i)
			self = true
		}
		put(j)
	}
	if !self {
		put(i)
	}
	return key
}

// commonBlock returns the block (of rows with a diagonal) that holds every neighbour in
// nbrs, or −1 if they lie in several blocks, or one of them in none.
func commonBlock(nbrs, blockOf []int) int {
	c := -1
	for _, j := range nbrs {
		if blockOf[j] < 0 || (c >= 0 && blockOf[j] != c) {
			return -1
		}
		c = blockOf[j]
	}
	return c
}

// blockOrder orders the blocks by minimum degree on the block graph (the quotient of
// A + Aᵀ by the blocks), postordered along its elimination tree.
func blockOrder(adj [][]int, blockOf []int, nb int) []int {
	badj := make([][]int, nb)
	for i, l := range adj {
		for _, j := range l {
			if bi, bj := blockOf[i], blockOf[j]; bi != bj {
				badj[bi] = append(badj[bi], bj)
			}
		}
	}
	var rows, cols []int
	for c, l := range badj {
		slices.Sort(l)
		badj[c] = slices.Compact(l)
		for _, d := range badj[c] {
			if d < c {
				rows, cols = append(rows, d), append(cols, c)
			}
		}
		rows, cols = append(rows, c), append(cols, c)
	}
	md := minimumDegree(badj)
	cp, ci, _ := permutedUpper(nb, inverse(md), rows, cols)
	order := make([]int, nb)
	for k, p := range postorder(eliminationTree(cp, ci)) {
		order[k] = md[p]
	}
	return order
}

// fill finds the unknowns each block couples to after the elimination of the blocks
// before it (the rows of its L panel, the columns of its U panel), by elimination on the
// quotient graph whose elements are the eliminated blocks (George & Liu, "Computer
// Solution of Large Sparse Positive Definite Systems", 1981, ch. 5): block k's set is
// the later unknowns adjacent in A + Aᵀ to one of its own, and those of every element
// that touches one of its own, which its new element then absorbs. Partial pivoting
// within a block mixes its rows, so the sets are those of whole blocks, but an unknown
// of a neighbouring block that touches none of k's (a body's x beside its parameters)
// stays out of k's panels. It lays out val: D_k, then k's panels of L and U, and reports
// false, leaving val unallocated, if it would exceed limit values or math.MaxInt32, or
// the update map (int32 offsets) 2·limit entries, as many bytes.
func (b *blockLU) fill(adj [][]int, blockOf []int, limit int) bool {
	nb := len(b.bp) - 1
	pos := make([]int, b.n)
	for p, i := range b.idx {
		pos[i] = p
	}
	var sets [][]int32            // the unknowns of each block's element
	elemsOf := make([][]int, b.n) // elements touching each unknown
	absorbed := make([]bool, nb)
	mark := make([]int, b.n)
	for i := range mark {
		mark[i] = -1
	}
	b.pp = make([]int, nb+1)
	b.dOff, b.lOff, b.uOff = make([]int, nb), make([]int, nb), make([]int, nb)
	off := 0
	for k := range nb {
		lo, hi := b.bp[k], b.bp[k+1]
		var set []int32
		add := func(u int) {
			if u >= hi && mark[u] != k {
				mark[u] = k
				set = append(set, int32(u))
			}
		}
		for u := lo; u < hi; u++ {
			for _, j := range adj[b.idx[u]] {
				add(pos[j])
			}
			for _, e := range elemsOf[u] {
				if absorbed[e] {
					continue
				}
				absorbed[e] = true
				for _, v := range sets[e] {
					add(int(v))
				}
			}
		}
		slices.Sort(set)
		sets = append(sets, set)
		for _, u := range set {
			elemsOf[u] = append(elemsOf[u], k)
		}
		b.rows = append(b.rows, set...)
		b.pp[k+1] = len(b.rows)
		s, m := hi-lo, len(set)
		b.dOff[k], b.lOff[k], b.uOff[k] = off, off+s*s, off+s*s+m*s
		off += s*s + 2*m*s
	}
	maxM, nupd := 0, 0 // the update map holds m² offsets per block
	for k := range nb {
		m := b.pp[k+1] - b.pp[k]
		maxM, nupd = max(maxM, m), nupd+m*m
	}
	if off > limit || nupd > 2*limit || off > math.MaxInt32 {
		return false
	}
	b.val = make([]float64, off)
	b.updp = make([]int, nb+1)
	b.upd = make([]int32, 0, nupd)
	for k := range nb {
		rows := b.rows[b.pp[k]:b.pp[k+1]]
		for _, r := range rows {
			for _, c := range rows {
				b.upd = append(b.upd, int32(b.entryAt(int(r), int(c), blockOf)))
			}
		}
		b.updp[k+1] = len(b.upd)
	}
	b.acc = make([]float64, maxM)
	b.nzL, b.nzU = make([]int32, len(b.rows)), make([]int32, len(b.rows))
	b.nzLn, b.nzUn = make([]int, nb), make([]int, nb)
	b.bs = make([]blockSolve, nb)
	for k := range b.bs {
		b.bs[k] = blockSolve{lo: b.bp[k], s: b.bp[k+1] - b.bp[k], m: b.pp[k+1] - b.pp[k],
			d: b.dOff[k], l: b.lOff[k], u: b.uOff[k], nz: b.pp[k]}
	}
	return true
}

// entryAt returns the offset in val of the entry of the unknowns at positions r and c
// (blockOf gives their blocks by A's numbering): in a diagonal block, in the U panel of
// the earlier block or in the L panel of the earlier block; −1 if the filled pattern
// has no such entry.
func (b *blockLU) entryAt(r, c int, blockOf []int) int {
	i, j := blockOf[b.idx[r]], blockOf[b.idx[c]]
	lr, lc := r-b.bp[i], c-b.bp[j]
	switch {
	case i == j:
		return b.dOff[i] + lr*(b.bp[i+1]-b.bp[i]) + lc
	case i < j:
		if t, ok := slices.BinarySearch(b.rows[b.pp[i]:b.pp[i+1]], int32(c)); ok {
			return b.uOff[i] + lr*(b.pp[i+1]-b.pp[i]) + t
		}
	default:
		if t, ok := slices.BinarySearch(b.rows[b.pp[j]:b.pp[j+1]], int32(r)); ok {
			return b.lOff[j] + t*(b.bp[j+1]-b.bp[j]) + lc
		}
	}
	return -1
}

// mapValues computes amap: entry (r, c) of A goes to its place in val.
func (b *blockLU) mapValues(arp, acol, blockOf []int) {
	pos := make([]int, b.n)
	for p, i := range b.idx {
		pos[i] = p
	}
	b.amap = make([]int32, len(acol))
	for r := range b.n {
		for t := arp[r]; t < arp[r+1]; t++ {
			b.amap[t] = int32(b.entryAt(pos[r], pos[acol[t]], blockOf))
		}
	}
}

// factor factorizes the matrix whose pattern values are vals (in A's pattern order). It
// reports false when a pivot block fails the threshold test or is singular; the
// factors are then invalid.
func (b *blockLU) factor(vals []float64) bool {
	clear(b.val)
	for t, v := range vals {
		b.val[b.amap[t]] = v
	}
	for k := range len(b.bp) - 1 {
		if !b.eliminate(k) {
			return false
		}
	}
	return true
}

// eliminate factorizes the diagonal block of block k, computes its panels of U and L
// and subtracts their product from the entries of the later blocks it couples.
func (b *blockLU) eliminate(k int) bool {
	s, m := b.bp[k+1]-b.bp[k], b.pp[k+1]-b.pp[k]
	d := b.val[b.dOff[k] : b.dOff[k]+s*s]
	ipiv := b.ipiv[b.bp[k]:b.bp[k+1]]
	u := b.val[b.uOff[k] : b.uOff[k]+s*m]
	l := b.val[b.lOff[k] : b.lOff[k]+m*s]
	if s == 2 {
		if !panels2(d, l, u, m, ipiv, 1/b.tau) {
			return false
		}
	} else {
		if !denseLUInPlace(d, s, ipiv) {
			return false
		}
		forwardRowsInPlace(u, d, s, m, ipiv)
		if !rightUpperSolve(l, d, s, m, 1/b.tau) {
			return false
		}
	}
	// The rows of the L panel and the columns of the U panel that are exactly zero (60 %
	// of them on the 3D chain: a joint row's block [m, g; g, 0] has a zero in D⁻¹, so
	// two neighbours that touch only its coordinate receive no update) are left out of
	// the update and the solves, as SparseLU leaves out the zeros of L and U.
	pl, pu := b.pp[k], b.pp[k]
	for a := range m {
		if !allZero(l[a*s : a*s+s]) {
			b.nzL[pl] = int32(a)
			pl++
		}
	}
	for c := range m {
		for r := range s {
			if u[r*m+c] != 0 {
				b.nzU[pu] = int32(c)
				pu++
				break
			}
		}
	}
	b.nzLn[k], b.nzUn[k] = pl-b.pp[k], pu-b.pp[k]
	nzL, nzU := b.nzL[b.pp[k]:pl], b.nzU[b.pp[k]:pu]
	pack(l, u, s, m, nzL, nzU)
	upd, acc, val := b.upd[b.updp[k]:b.updp[k+1]], b.acc[:len(nzU)], b.val
	if s == 2 {
		update2(val, upd, l, u, m, nzL, nzU)
	} else {
		update(val, upd, l, u, s, m, nzL, nzU, acc)
	}
	rows := b.rows[b.pp[k]:b.pp[k+1]]
	for t, a := range nzL {
		nzL[t] = rows[a]
	}
	for t, c := range nzU {
		nzU[t] = rows[c]
	}
	b.bs[k].nL, b.bs[k].nU = len(nzL), len(nzU)
	return true
}

// update subtracts the product of block k's packed panels, the rows nzL of L (m×s) by
// the columns nzU of U (s×m), from the entries of the later blocks they couple (upd maps
// panel row a, column c to its offset in val, at a·m + c). Each entry of the product is
// summed in acc from zero over q with the zero entries of L skipped, then subtracted.
func update(val []float64, upd []int32, l, u []float64, s, m int, nzL, nzU []int32, acc []float64) {
	clear(acc) // then cleared by the scatter of each row: a call of clear per row cost more
	for t, a := range nzL {
		for q, laq := range l[t*s : t*s+s] {
			if laq == 0 {
				continue
			}
			for c, v := range u[q*m : q*m+len(acc)] {
				acc[c] += laq * v
			}
		}
		ua := upd[int(a)*m : int(a)*m+m]
		for c, col := range nzU {
			val[ua[col]] -= acc[c]
			acc[c] = 0
		}
	}
}

// update2 is update for a block of two, with the same arithmetic: each entry summed from
// zero over the two columns of L, a zero entry of L skipped, without the loop over q and
// the accumulator row, whose overhead was most of update's cost on blocks of two.
func update2(val []float64, upd []int32, l, u []float64, m int, nzL, nzU []int32) {
	u0, u1 := u[:len(nzU)], u[m:m+len(nzU)]
	for t, a := range nzL {
		l0, l1 := l[2*t], l[2*t+1]
		ua := upd[int(a)*m : int(a)*m+m]
		for c, col := range nzU {
			sum := 0.0
			if l0 != 0 {
				sum += l0 * u0[c]
			}
			if l1 != 0 {
				sum += l1 * u1[c]
			}
			val[ua[col]] -= sum
		}
	}
}

// panels2 is, for a block of two, denseLUInPlace, forwardRowsInPlace and
// rightUpperSolve in one: the blocks of two (a coordinate and its joint row) are three
// quarters of the 3D chain's blocks, and the general loops' overhead was most of their
// cost.
func panels2(d, l, u []float64, m int, ipiv []int, lim float64) bool {
	d = d[:4]
	swap := math.Abs(d[2]) > math.Abs(d[0])
	if swap {
		d[0], d[1], d[2], d[3] = d[2], d[3], d[0], d[1]
		ipiv[0] = 1
	} else {
		ipiv[0] = 0
	}
	ipiv[1] = 1
	a := math.Abs(d[0])
	if a == 0 || !(a <= math.MaxFloat64) {
		return false
	}
	d[2] /= d[0]
	d[3] -= d[2] * d[1]
	if a := math.Abs(d[3]); a == 0 || !(a <= math.MaxFloat64) {
		return false
	}
	u0, u1 := u[:m], u[m:2*m]
	if swap {
		for c, v := range u0 {
			u0[c], u1[c] = u1[c], v
		}
	}
	if l10 := d[2]; l10 != 0 {
		for c, v := range u0 {
			u1[c] -= l10 * v
		}
	}
	for r := range m {
		x0 := l[2*r] / d[0]
		x1 := (l[2*r+1] - x0*d[1]) / d[3]
		if !(math.Abs(x0) <= lim && math.Abs(x1) <= lim) {
			return false
		}
		l[2*r], l[2*r+1] = x0, x1
	}
	return true
}

// pack moves the nonzero rows nzL of an L panel (m×s) and the nonzero columns nzU of a
// U panel (s×m, each row keeping its stride m) to the panels' front, for the update and
// the solves.
func pack(l, u []float64, s, m int, nzL, nzU []int32) {
	for t, a := range nzL {
		copy(l[t*s:t*s+s], l[int(a)*s:int(a)*s+s])
	}
	for r := range s {
		ur := u[r*m : r*m+m]
		for t, c := range nzU {
			ur[t] = ur[c]
		}
	}
}

// allZero reports whether every entry of v is zero.
func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// denseLUInPlace factorizes the s×s row-major d by partial pivoting, P d = L U with L
// unit lower (below the diagonal) and U upper in d, ipiv[r] the row exchanged with r at
// step r. It reports false on a zero or non-finite pivot.
func denseLUInPlace(d []float64, s int, ipiv []int) bool {
	for c := range s {
		p, amax := c, math.Abs(d[c*s+c])
		for r := c + 1; r < s; r++ {
			if a := math.Abs(d[r*s+c]); a > amax {
				p, amax = r, a
			}
		}
		if amax == 0 || amax > math.MaxFloat64 || amax != amax {
			return false
		}
		ipiv[c] = p
		if p != c {
			for q := range s {
				d[c*s+q], d[p*s+q] = d[p*s+q], d[c*s+q]
			}
		}
		piv := d[c*s+c]
		for r := c + 1; r < s; r++ {
			lr := d[r*s+c] / piv
			d[r*s+c] = lr
			if lr == 0 {
				continue
			}
			row, top := d[r*s+c+1:r*s+s], d[c*s+c+1:c*s+s]
			for q, v := range top {
				row[q] -= lr * v
			}
		}
	}
	return true
}

// forwardRowsInPlace overwrites the s×m row-major u with L⁻¹ P u, L and P from
// denseLUInPlace's factors d and ipiv.
func forwardRowsInPlace(u, d []float64, s, m int, ipiv []int) {
	for r, p := range ipiv {
		if p != r {
			for q := range m {
				u[r*m+q], u[p*m+q] = u[p*m+q], u[r*m+q]
			}
		}
	}
	for r := 1; r < s; r++ {
		row := u[r*m : r*m+m]
		for c := range r {
			if lrc := d[r*s+c]; lrc != 0 {
				for q, v := range u[c*m : c*m+m] {
					row[q] -= lrc * v
				}
			}
		}
	}
}

// rightUpperSolve overwrites the m×s row-major l with l U⁻¹, U the upper triangle of d.
// It reports false if an entry of the result exceeds lim in magnitude or is not finite:
// its pivot failed the threshold test.
func rightUpperSolve(l, d []float64, s, m int, lim float64) bool {
	for r := range m {
		row := l[r*s : r*s+s]
		for c := range s {
			x := row[c]
			for q := range c {
				x -= row[q] * d[q*s+c]
			}
			x /= d[c*s+c]
			if !(math.Abs(x) <= lim) {
				return false
			}
			row[c] = x
		}
	}
	return true
}

// solve overwrites x with A⁻¹ x: forward by blocks, y_k = L_kk⁻¹ P_k (x_k − Σ_{j<k}
// L_kj y_j), then back, x_k = U_kk⁻¹ (y_k − Σ_{j>k} U_kj x_j), the sums over k's panels
// (their nonzero rows and columns, pack). The many blocks of two (a coordinate and its
// joint row) take a loop of their own: the general loops' overhead per block was most
// of a solve.
func (b *blockLU) solve(x []float64) {
	w := b.w
	for p, i := range b.idx {
		w[p] = x[i]
	}
	for k := range b.bs {
		if b.bs[k].s == 2 {
			b.forward2(&b.bs[k], w)
		} else {
			b.forward(&b.bs[k], w)
		}
	}
	for k := len(b.bs) - 1; k >= 0; k-- {
		if b.bs[k].s == 2 {
			b.back2(&b.bs[k], w)
		} else {
			b.back(&b.bs[k], w)
		}
	}
	for p, i := range b.idx {
		x[i] = w[p]
	}
}

// blockSolve is what the solves read of a block: its first position lo and size s,
// the offsets of D, of the packed L and U panels (stride s and m), and where its nonzero
// panel rows (nL) and columns (nU) are listed in nzL and nzU.
type blockSolve struct {
	lo, s, m, d, l, u, nz, nL, nU int
}

// forward applies block c's part of the forward solve to w.
func (b *blockLU) forward(c *blockSolve, w []float64) {
	s := c.s
	yk := w[c.lo : c.lo+s]
	d := b.val[c.d : c.d+s*s]
	for r, p := range b.ipiv[c.lo : c.lo+s] {
		yk[r], yk[p] = yk[p], yk[r]
	}
	for r := 1; r < s; r++ {
		v := yk[r]
		for q, lrq := range d[r*s : r*s+r] {
			v -= lrq * yk[q]
		}
		yk[r] = v
	}
	l := b.val[c.l : c.l+c.nL*s]
	for t, r := range b.nzL[c.nz : c.nz+c.nL] {
		var sum float64
		for q, v := range l[t*s : t*s+s] {
			sum += v * yk[q]
		}
		w[r] -= sum
	}
}

// forward2 is forward for a block of two.
func (b *blockLU) forward2(c *blockSolve, w []float64) {
	y0, y1 := w[c.lo], w[c.lo+1]
	if b.ipiv[c.lo] == 1 {
		y0, y1 = y1, y0
	}
	y1 -= b.val[c.d+2] * y0
	w[c.lo], w[c.lo+1] = y0, y1
	l := b.val[c.l : c.l+2*c.nL]
	for t, r := range b.nzL[c.nz : c.nz+c.nL] {
		w[r] -= l[2*t]*y0 + l[2*t+1]*y1
	}
}

// back applies block c's part of the back substitution to w.
func (b *blockLU) back(c *blockSolve, w []float64) {
	s, m := c.s, c.m
	xk := w[c.lo : c.lo+s]
	cols := b.nzU[c.nz : c.nz+c.nU]
	g := b.acc[:len(cols)]
	for t, col := range cols {
		g[t] = w[col]
	}
	d := b.val[c.d : c.d+s*s]
	for r := s - 1; r >= 0; r-- {
		v := xk[r]
		for t, ur := range b.val[c.u+r*m : c.u+r*m+len(g)] {
			v -= ur * g[t]
		}
		for q := r + 1; q < s; q++ {
			v -= d[r*s+q] * xk[q]
		}
		xk[r] = v / d[r*s+r]
	}
}

// back2 is back for a block of two.
func (b *blockLU) back2(c *blockSolve, w []float64) {
	m := c.m
	v0, v1 := w[c.lo], w[c.lo+1]
	u0, u1 := b.val[c.u:c.u+c.nU], b.val[c.u+m:c.u+m+c.nU]
	for t, col := range b.nzU[c.nz : c.nz+c.nU] {
		x := w[col]
		v0 -= u0[t] * x
		v1 -= u1[t] * x
	}
	d := b.val[c.d : c.d+4]
	v1 /= d[3]
	w[c.lo], w[c.lo+1] = (v0-d[1]*v1)/d[0], v1
}
