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
	// numbering), locally numbered in that order.
	bp, idx []int
	// The later blocks coupled to block k in the filled block pattern: sj[sp[k]:sp[k+1]],
	// increasing. For the t-th of them, j = sj[t]: L_jk (s_j×s_k) at lOff[t] and U_kj
	// (s_k×s_j) at uOff[t] in val, both row-major; D_k (s_k×s_k) at dOff[k].
	sp, sj     []int
	dOff       []int
	lOff, uOff []int
	// upd[updp[k]+a·m+b], m = |S_k|, is the offset of the block (S_k[a], S_k[b]) that the
	// elimination of block k updates by −L_ik U_kj.
	updp, upd []int
	// amap[t] is where the t-th value of A's pattern goes in val.
	amap []int
	val  []float64
	// ipiv[bp[k]+r]: the local row exchanged with local row r of block k at step r of its
	// partial pivoting (LAPACK's convention).
	ipiv []int
	w    []float64 // the right-hand side in elimination order (solve)
}

// blockLUMaxSize bounds a pivot block: dense blocks cost their size cubed, and the
// blocks this is for are a body's coordinates with its normalization row, or a
// coordinate with the constraint row that pivots on it.
const blockLUMaxSize = 16

// blockLUMaxStorage bounds the dense block storage against the Cholesky estimate of the
// scalar factors' nonzeros: beyond it the blocks' zeros cost more than scalar
// refactorizations save, and the pattern is left to SparseLU alone.
const blockLUMaxStorage = 4

// newBlockLU returns the block factorization of the n×n pattern (arp, acol) with the
// pivot blocks pivotBlocks finds, or nil when the pattern does not allow one: a row
// without diagonal entry that joins no block, a block larger than blockLUMaxSize, one
// with more rows without diagonal than with, or dense blocks storing more than
// blockLUMaxStorage times lEstimate values. partner is SparseLU's diagonalPartners
// matching (nil: every row has its diagonal), hasDiagonal its test.
func newBlockLU(n int, arp, acol []int, partner []int, hasDiagonal func(int) bool, tau float64, lEstimate int) *blockLU {
	adj := symmetricAdjacency(n, arp, acol)
	blockOf, members := pivotBlocks(adj, partner, hasDiagonal)
	if blockOf == nil {
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
	b.fill(adj, blockOf)
	if len(b.val) > blockLUMaxStorage*max(lEstimate, n) {
		return nil
	}
	b.mapValues(arp, acol, blockOf)
	b.ipiv, b.w = make([]int, n), make([]float64, n)
	return b
}

// symmetricAdjacency returns the graph of A + Aᵀ (no self loops), each list increasing.
func symmetricAdjacency(n int, arp, acol []int) [][]int {
	adj := make([][]int, n)
	for i := range n {
		for _, j := range acol[arp[i]:arp[i+1]] {
			if i != j {
				adj[i] = append(adj[i], j)
				adj[j] = append(adj[j], i)
			}
		}
	}
	for i, l := range adj {
		slices.Sort(l)
		adj[i] = slices.Compact(l)
	}
	return adj
}

// pivotBlocks partitions the unknowns into pivot blocks from the pattern alone: rows with
// a diagonal entry and the same neighbours in A + Aᵀ (indistinguishable nodes, such as a
// body's four Euler parameters) form one block; a row without diagonal entry whose
// neighbours all lie in one block joins it (a body's normalization row), any other joins
// its partner's block (a joint row and the coordinate it pairs with in SparseLU's
// ordering). It returns nil when a row without diagonal has neither, a block exceeds
// blockLUMaxSize, or a block has more rows without diagonal than with (structurally
// singular).
func pivotBlocks(adj [][]int, partner []int, hasDiagonal func(int) bool) (blockOf []int, members [][]int) {
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
		if c < 0 && partner != nil && partner[i] >= 0 {
			c = blockOf[partner[i]]
		}
		if c < 0 {
			return nil, nil
		}
		blockOf[i] = c
		members[c] = append(members[c], i)
		zeros[c]++
	}
	for c, m := range members {
		if len(m) > blockLUMaxSize || 2*zeros[c] > len(m) {
			return nil, nil
		}
		slices.Sort(m)
	}
	return blockOf, members
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

// fill finds the filled block pattern, S_k = the later blocks adjacent to k in A + Aᵀ
// and in S_c \ {k} of every child c of k in the block elimination tree (the first block
// of S_c is c's parent), and lays out val: D_k, then L_jk and U_kj for j in S_k.
func (b *blockLU) fill(adj [][]int, blockOf []int) {
	nb := len(b.bp) - 1
	children := make([][]int, nb)
	mark := make([]int, nb)
	for i := range mark {
		mark[i] = -1
	}
	b.sp, b.dOff = make([]int, nb+1), make([]int, nb)
	off := 0
	size := func(k int) int { return b.bp[k+1] - b.bp[k] }
	for k := range nb {
		start := len(b.sj)
		add := func(j int) {
			if j > k && mark[j] != k {
				mark[j] = k
				b.sj = append(b.sj, j)
			}
		}
		for _, i := range b.idx[b.bp[k]:b.bp[k+1]] {
			for _, j := range adj[i] {
				add(blockOf[j])
			}
		}
		for _, c := range children[k] {
			for _, j := range b.sj[b.sp[c]:b.sp[c+1]] {
				add(j)
			}
		}
		slices.Sort(b.sj[start:])
		b.sp[k+1] = len(b.sj)
		if start < len(b.sj) {
			p := b.sj[start]
			children[p] = append(children[p], k)
		}
		b.dOff[k] = off
		off += size(k) * size(k)
		for _, j := range b.sj[start:] {
			b.lOff, b.uOff = append(b.lOff, off), append(b.uOff, off+size(j)*size(k))
			off += 2 * size(j) * size(k)
		}
	}
	b.val = make([]float64, off)
	b.updp = make([]int, nb+1)
	for k := range nb {
		s := b.sj[b.sp[k]:b.sp[k+1]]
		for _, i := range s {
			for _, j := range s {
				b.upd = append(b.upd, b.blockAt(i, j))
			}
		}
		b.updp[k+1] = len(b.upd)
	}
}

// blockAt returns the offset in val of the block in block row i and block column j of
// the filled pattern; −1 if it holds none.
func (b *blockLU) blockAt(i, j int) int {
	switch {
	case i == j:
		return b.dOff[i]
	case i < j:
		if t, ok := slices.BinarySearch(b.sj[b.sp[i]:b.sp[i+1]], j); ok {
			return b.uOff[b.sp[i]+t]
		}
	default:
		if t, ok := slices.BinarySearch(b.sj[b.sp[j]:b.sp[j+1]], i); ok {
			return b.lOff[b.sp[j]+t]
		}
	}
	return -1
}

// mapValues computes amap: entry (r, c) of A goes to row r and column c of its block.
func (b *blockLU) mapValues(arp, acol, blockOf []int) {
	local := make([]int, b.n)
	for k := range len(b.bp) - 1 {
		for l, i := range b.idx[b.bp[k]:b.bp[k+1]] {
			local[i] = l
		}
	}
	b.amap = make([]int, len(acol))
	for r := range b.n {
		for t := arp[r]; t < arp[r+1]; t++ {
			c := acol[t]
			bc := blockOf[c]
			b.amap[t] = b.blockAt(blockOf[r], bc) + local[r]*(b.bp[bc+1]-b.bp[bc]) + local[c]
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

// eliminate factorizes the diagonal block of block k, computes its blocks of U and L
// and subtracts L_ik U_kj from every block (i, j) of the later blocks it couples.
func (b *blockLU) eliminate(k int) bool {
	s := b.bp[k+1] - b.bp[k]
	d := b.val[b.dOff[k] : b.dOff[k]+s*s]
	ipiv := b.ipiv[b.bp[k]:b.bp[k+1]]
	if !denseLUInPlace(d, s, ipiv) {
		return false
	}
	lim := 1 / b.tau
	nbr := b.sj[b.sp[k]:b.sp[k+1]]
	for t, j := range nbr {
		sjn := b.bp[j+1] - b.bp[j]
		u := b.val[b.uOff[b.sp[k]+t]:][:s*sjn]
		forwardRowsInPlace(u, d, s, sjn, ipiv)
		l := b.val[b.lOff[b.sp[k]+t]:][:sjn*s]
		if !rightUpperSolve(l, d, s, sjn, lim) {
			return false
		}
	}
	m := len(nbr)
	upd := b.upd[b.updp[k]:b.updp[k+1]]
	for a, i := range nbr {
		si := b.bp[i+1] - b.bp[i]
		l := b.val[b.lOff[b.sp[k]+a]:][:si*s]
		for c, j := range nbr {
			sjn := b.bp[j+1] - b.bp[j]
			u := b.val[b.uOff[b.sp[k]+c]:][:s*sjn]
			subMul(b.val[upd[a*m+c]:][:si*sjn], l, u, si, s, sjn)
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

// subMul subtracts the product of the p×s row-major l and the s×m row-major u from the
// p×m row-major t.
func subMul(t, l, u []float64, p, s, m int) {
	for r := range p {
		row := t[r*m : r*m+m]
		for c, lrc := range l[r*s : r*s+s] {
			if lrc == 0 {
				continue
			}
			for q, v := range u[c*m : c*m+m] {
				row[q] -= lrc * v
			}
		}
	}
}

// solve overwrites x with A⁻¹ x: forward by block columns, y_k = L_kk⁻¹ P_k (x_k −
// Σ_{j<k} L_kj y_j), then back, x_k = U_kk⁻¹ (y_k − Σ_{j>k} U_kj x_j).
func (b *blockLU) solve(x []float64) {
	w := b.w
	for p, i := range b.idx {
		w[p] = x[i]
	}
	nb := len(b.bp) - 1
	for k := range nb {
		lo, s := b.bp[k], b.bp[k+1]-b.bp[k]
		yk := w[lo : lo+s]
		d := b.val[b.dOff[k] : b.dOff[k]+s*s]
		forwardRowsInPlace(yk, d, s, 1, b.ipiv[lo:lo+s])
		for t, j := range b.sj[b.sp[k]:b.sp[k+1]] {
			sjn := b.bp[j+1] - b.bp[j]
			l := b.val[b.lOff[b.sp[k]+t]:][:sjn*s]
			subMul(w[b.bp[j]:b.bp[j]+sjn], l, yk, sjn, s, 1)
		}
	}
	for k := nb - 1; k >= 0; k-- {
		lo, s := b.bp[k], b.bp[k+1]-b.bp[k]
		xk := w[lo : lo+s]
		for t, j := range b.sj[b.sp[k]:b.sp[k+1]] {
			sjn := b.bp[j+1] - b.bp[j]
			u := b.val[b.uOff[b.sp[k]+t]:][:s*sjn]
			subMul(xk, u, w[b.bp[j]:b.bp[j]+sjn], s, sjn, 1)
		}
		d := b.val[b.dOff[k] : b.dOff[k]+s*s]
		for r := s - 1; r >= 0; r-- {
			v := xk[r]
			for c := r + 1; c < s; c++ {
				v -= d[r*s+c] * xk[c]
			}
			xk[r] = v / d[r*s+r]
		}
	}
	for p, i := range b.idx {
		x[i] = w[p]
	}
}
