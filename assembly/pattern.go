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

// LocalPattern is the structure of a matrix over a pair's entries p (a Hessian ∇²c over
// the pair, a force element's ∂f_p/∂p): bit b of LocalPattern[a] is set when entry (a, b)
// can be nonzero at some (t, q). A pair has at most 16 entries (14 for two spatial bodies).
// The setters keep it symmetric, as Hessians are.
type LocalPattern []uint16

// NewLocalPattern returns the empty pattern over n entries.
func NewLocalPattern(n int) LocalPattern { return make(LocalPattern, n) }

// Set adds the entries (a, b) and (b, a).
func (p LocalPattern) Set(a, b int) {
	p[a] |= 1 << b
	p[b] |= 1 << a
}

// Cross adds every (a, b) and (b, a) with a in rows and b in cols (bit sets): J_aᵀJ_b and
// its transpose in the Hessian of a dot product.
func (p LocalPattern) Cross(rows, cols uint16) {
	for a := range p {
		if rows&(1<<a) != 0 {
			p[a] |= cols
		}
		if cols&(1<<a) != 0 {
			p[a] |= rows
		}
	}
}

// Block adds the square block over the entries in s: an outer product ∇c ∇cᵀ.
func (p LocalPattern) Block(s uint16) { p.Cross(s, s) }

// Union adds the entries of o (of the same size).
func (p LocalPattern) Union(o LocalPattern) {
	for a := range p {
		p[a] |= o[a]
	}
}

// Support returns the entries whose row holds a nonzero (for a symmetric pattern, also
// their column).
func (p LocalPattern) Support() uint16 {
	var s uint16
	for a, r := range p {
		if r != 0 {
			s |= 1 << a
		}
	}
	return s
}

// Entries collects, per coordinate row, the columns of q at which a coupling matrix
// (∂f/∂q, ∂f/∂v, ∂(M a)/∂q, ∂(Gᵀλ)/∂q) can be nonzero, element by element at assembly: the
// exact structural pattern, where whole blocks per pair of bodies carry about three times
// the nonzeros (a revolute joint's Hessian has θ-θ entries only).
type Entries [][]int

// NewEntries returns the pattern of nq rows holding their diagonal (the Newton matrices
// add M and a multiple of the identity there).
func NewEntries(nq int) Entries {
	e := make(Entries, nq)
	for i := range e {
		e[i] = []int{i}
	}
	return e
}

// Add adds entry (i, j); a negative index (the ground) adds nothing.
func (e Entries) Add(i, j int) {
	if i >= 0 && j >= 0 {
		e[i] = append(e[i], j)
	}
}

// AddLocal adds the entries of local at the pair's columns cols (−1 for fixed entries).
func (e Entries) AddLocal(cols []int, local LocalPattern) {
	for a, r := range local {
		if cols[a] < 0 {
			continue
		}
		for b, c := range cols {
			if r&(1<<b) != 0 {
				e.Add(cols[a], c)
			}
		}
	}
}

// Rows returns the pattern with every row increasing and without repeats (in place).
func (e Entries) Rows() [][]int {
	for i, r := range e {
		slices.Sort(r)
		e[i] = slices.Compact(r)
	}
	return e
}
