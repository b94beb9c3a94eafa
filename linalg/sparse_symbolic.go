package linalg

import (
	"fmt"
	"slices"
)

// PatternError reports a bad sparsity pattern given to NewSparseKKT or NewSparseLU.
type PatternError struct {
	Block  string // "A" or "G"
	Row    int    // the offending row of the block; -1 for a wrong number of rows
	Reason string
}

func (e *PatternError) Error() string {
	if e.Row < 0 {
		return fmt.Sprintf("linalg: sparse pattern of %s: %s", e.Block, e.Reason)
	}
	return fmt.Sprintf("linalg: sparse pattern of %s: row %d: %s", e.Block, e.Row, e.Reason)
}

// checkPattern verifies that rows has the wanted number of rows and that every row lists
// strictly increasing columns in [0, ncol).
func checkPattern(block string, rows [][]int, want, ncol int) error {
	if len(rows) != want {
		return &PatternError{Block: block, Row: -1, Reason: fmt.Sprintf("%d rows, want %d", len(rows), want)}
	}
	for i, row := range rows {
		for t, j := range row {
			if j < 0 || j >= ncol {
				return &PatternError{Block: block, Row: i, Reason: fmt.Sprintf("column %d outside [0, %d)", j, ncol)}
			}
			if t > 0 && j <= row[t-1] {
				return &PatternError{Block: block, Row: i, Reason: fmt.Sprintf("columns not strictly increasing (%d after %d)", j, row[t-1])}
			}
		}
	}
	return nil
}

// kktEntries lists the structurally nonzero entries (i, j), i ≤ j, of the upper triangle
// of K = [A Gᵀ; G −d·I] in the order Factorize gathers them: first A (diagonal always, off-
// diagonal entries once even when both (i, j) and (j, i) are listed), then Gᵀ (row c,
// column nq+r for G_rc), then the diagonal of the constraint block, which the
// regularization makes nonzero even when d = 0.
type kktEntries struct {
	ai, aj []int // A entries, ai ≤ aj
	gr, gc []int // G entries (row, column of G)
}

func newKKTEntries(nq, nc int, aPattern, gPattern [][]int) kktEntries {
	var e kktEntries
	upper := make([][]int, nq) // upper[j]: rows i < j of column j of A
	for i, row := range aPattern {
		for _, j := range row {
			if i != j {
				upper[max(i, j)] = append(upper[max(i, j)], min(i, j))
			}
		}
	}
	for j := range nq {
		col := upper[j]
		slices.Sort(col)
		col = slices.Compact(col)
		for _, i := range col {
			e.ai, e.aj = append(e.ai, i), append(e.aj, j)
		}
		e.ai, e.aj = append(e.ai, j), append(e.aj, j)
	}
	for r := range nc {
		for _, c := range gPattern[r] {
			e.gr, e.gc = append(e.gr, r), append(e.gc, c)
		}
	}
	return e
}

// upperPairs returns the (row, column) pairs of the upper triangle of K in the order of
// kktEntries: A, then Gᵀ, then the constraint diagonal.
func (e kktEntries) upperPairs(nq, nc int) (rows, cols []int) {
	rows = slices.Concat(e.ai, e.gc)
	cols = slices.Clone(e.aj)
	for _, r := range e.gr {
		cols = append(cols, nq+r)
	}
	for r := range nc {
		rows, cols = append(rows, nq+r), append(cols, nq+r)
	}
	return rows, cols
}

// adjacency returns the graph of K (neighbours of each node, no self loops) from the
// upper-triangle pairs, which are distinct.
func adjacency(n int, rows, cols []int) [][]int {
	adj := make([][]int, n)
	for t, i := range rows {
		if j := cols[t]; i != j {
			adj[i] = append(adj[i], j)
			adj[j] = append(adj[j], i)
		}
	}
	return adj
}

// permutedUpper returns the upper triangle of C = P K Pᵀ by columns (column k holds the
// rows i ≤ k, increasing, so the diagonal comes last) and, for each input pair t, the
// position pos[t] of its value in that storage. The pairs are ordered by two stable
// counting passes, by row and then by column: O(n + m), where a comparison sort of the m
// pairs took a third of hht's Init on the 1000-bar chain.
func permutedUpper(n int, pinv, rows, cols []int) (cp, ci, pos []int) {
	m := len(rows)
	row, col := make([]int, m), make([]int, m) // the pairs in C
	for t, i := range rows {
		a, b := pinv[i], pinv[cols[t]]
		row[t], col[t] = min(a, b), max(a, b)
	}
	byRow := make([]int, m) // the pairs ordered by row (stable)
	next := countStarts(row, make([]int, n+1))
	for t, i := range row {
		byRow[next[i]] = t
		next[i]++
	}
	cp, ci, pos = make([]int, n+1), make([]int, m), make([]int, m)
	next = countStarts(col, cp)
	for _, t := range byRow { // then by column: stable, so rows increase within a column
		pos[t] = next[col[t]]
		ci[pos[t]] = row[t]
		next[col[t]]++
	}
	return cp, ci, pos
}

// countStarts writes to start (n+1 entries, zero on entry) the first place of each key in
// [0, n) among the keys ordered by value, start[n] = len(key), and returns a copy of
// start[:n] to count places with.
func countStarts(key, start []int) []int {
	for _, k := range key {
		start[k+1]++
	}
	for k := range len(start) - 1 {
		start[k+1] += start[k]
	}
	return slices.Clone(start[:len(start)-1])
}

// eliminationTree returns the parent of each node in the elimination tree of the
// symmetric matrix whose upper triangle is (cp, ci): parent[j] is the row of the first
// off-diagonal nonzero in column j of L, −1 for a root (Davis 2006, sec. 4.1). Column k
// makes k the new root of every subtree that holds a row i < k of column k; the ancestor
// links, shortcut to k as they are walked, keep the whole pass near-linear.
func eliminationTree(cp, ci []int) []int {
	n := len(cp) - 1
	parent := make([]int, n)
	ancestor := make([]int, n)
	for k := range n {
		parent[k], ancestor[k] = -1, -1
		for p := cp[k]; p < cp[k+1]; p++ {
			for i := ci[p]; i >= 0 && i < k; {
				up := ancestor[i]
				ancestor[i] = k
				if up < 0 {
					parent[i] = k
				}
				i = up
			}
		}
	}
	return parent
}

// rowPatterns returns the nonzero pattern of every row of L (without the diagonal) as
// compressed rows (rp, ri), each row in an order where every node precedes its ancestors
// in the elimination tree: the order in which the up-looking factorization must solve
// for that row. Row k is the set of nodes on the tree paths from the rows i < k of column
// k of C up to k (Davis 2006, sec. 4.2, the "row subtree" of k). Each path is walked
// until a node already met for this row; paths found later hang below those found
// earlier, so they are placed first.
func rowPatterns(cp, ci, parent []int) (rp, ri []int) {
	n := len(cp) - 1
	rp = make([]int, n+1)
	mark := make([]int, n)
	for i := range mark {
		mark[i] = -1
	}
	stack := make([]int, n) // row k is built downwards from stack[n-1]
	for k := range n {
		mark[k] = k
		top := n
		for p := cp[k]; p < cp[k+1]; p++ {
			start := top
			for i := ci[p]; mark[i] != k; i = parent[i] {
				mark[i] = k
				top--
				stack[top] = i
			}
			slices.Reverse(stack[top:start]) // the path bottom-up, ahead of earlier paths
		}
		ri = append(ri, stack[top:]...)
		rp[k+1] = len(ri)
	}
	return rp, ri
}

// factorCount returns the number of entries of L below the diagonal in the Cholesky
// factor of the symmetric matrix whose upper triangle is (cp, ci) with elimination tree
// parent: len(ri) of rowPatterns, by the same walks of the row subtrees without storing
// them.
func factorCount(cp, ci, parent []int) int {
	n := len(cp) - 1
	mark := make([]int, n)
	for i := range mark {
		mark[i] = -1
	}
	count := 0
	for k := range n {
		mark[k] = k
		for p := cp[k]; p < cp[k+1]; p++ {
			for i := ci[p]; mark[i] != k; i = parent[i] {
				mark[i] = k
				count++
			}
		}
	}
	return count
}

// columnStorage returns the column pointers and row indices of L from its row patterns:
// column j holds the rows k > j whose pattern contains j, in increasing order, which is
// the order in which the up-looking factorization produces them.
func columnStorage(rp, ri []int) (lp, li []int) {
	n := len(rp) - 1
	lp = make([]int, n+1)
	for _, j := range ri {
		lp[j+1]++
	}
	for j := range n {
		lp[j+1] += lp[j]
	}
	li = make([]int, len(ri))
	fill := slices.Clone(lp[:n])
	for k := range n {
		for _, j := range ri[rp[k]:rp[k+1]] {
			li[fill[j]] = k
			fill[j]++
		}
	}
	return lp, li
}

// postorder returns a postorder of the forest parent: post[k] is the k-th node, every
// subtree occupies consecutive positions and children (taken in increasing order) come
// before their parent. Renumbering the matrix in a postorder of its elimination tree
// leaves the fill unchanged but makes each subtree's columns of L contiguous, so that
// factorization and solves walk memory nearly in order (Davis 2006, sec. 4.3).
func postorder(parent []int) []int {
	n := len(parent)
	head, next := make([]int, n), make([]int, n) // child lists
	for j := range head {
		head[j] = -1
	}
	for j := n - 1; j >= 0; j-- { // prepend in decreasing order: lists come out increasing
		if p := parent[j]; p >= 0 {
			next[j], head[p] = head[p], j
		}
	}
	post := make([]int, 0, n)
	stack := make([]int, 0, n)
	for root := range n {
		if parent[root] >= 0 {
			continue
		}
		stack = append(stack, root)
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if c := head[top]; c >= 0 { // descend into the next unvisited child
				head[top] = next[c]
				stack = append(stack, c)
				continue
			}
			stack = stack[:len(stack)-1]
			post = append(post, top)
		}
	}
	return post
}
