package assembly

import (
	"slices"
	"sort"
)

// pattern.go: pairs and rows fixed at assembly ⇒ the structural sparsity of G and of the
// coupling matrices (dae.Sparsity), read once by sparse and topological solvers instead of
// probing the matrices.

// Pattern is the structural sparsity of the constraint Jacobian G, fixed at assembly: the
// columns of q on which each constraint row can depend (a superset of the nonzeros at any
// pose).
type Pattern struct {
	GRows [][]int // GRows[i]: increasing columns of row i
	NNZ   int     // total number of structural nonzeros of G
}

// NewPattern returns the pattern with the given rows (each increasing; see Columns).
func NewPattern(rows [][]int) Pattern {
	p := Pattern{GRows: rows}
	for _, r := range rows {
		p.NNZ += len(r)
	}
	return p
}

// Columns returns the increasing union of the columns of one or more pairs (or blocks),
// leaving out the −1 of fixed entries.
func Columns(cols ...[]int) []int {
	var out []int
	for _, cs := range cols {
		for _, c := range cs {
			if c >= 0 {
				out = append(out, c)
			}
		}
	}
	sort.Ints(out)
	return slices.Compact(out)
}

// Coupling returns, per coordinate, the columns at which a matrix coupling bodies through
// links can be nonzero: each body's own columns and those of every body it is linked to.
// A body is the block of width columns starting at one of firsts; a link joins the blocks
// starting at its two columns (−1 for the ground, which links nothing). Rows of one block
// share one slice.
func Coupling(nq, width int, firsts []int, links [][2]int) [][]int {
	adj := map[int][]int{} // first column of a body → first columns of the bodies linked to it
	for _, l := range links {
		a, b := l[0], l[1]
		if a >= 0 && b >= 0 && a != b {
			adj[a] = append(adj[a], b)
			adj[b] = append(adj[b], a)
		}
	}
	out := make([][]int, nq)
	for _, f := range firsts {
		var cols []int
		for _, c := range append([]int{f}, adj[f]...) {
			for k := range width {
				cols = append(cols, c+k)
			}
		}
		slices.Sort(cols)
		cols = slices.Compact(cols)
		for k := range width {
			out[f+k] = cols
		}
	}
	return out
}
