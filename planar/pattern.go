package planar

import "sort"

// Pattern is the structural sparsity of the constraint Jacobian G, fixed at assembly: the
// columns of q on which each constraint row can depend (a superset of the nonzeros at any
// pose: a joint row involves only the x, y, θ of the joint's two bodies). M is block
// diagonal in body coordinates, one diag(m, m, J) block per body, so it needs no pattern.
// Sparse and topological solvers read the pattern once instead of probing G.
type Pattern struct {
	GRows [][]int // GRows[i]: increasing columns of row i
	NNZ   int     // total number of structural nonzeros of G
}

// Pattern returns the sparsity pattern of G recorded at assembly. The slices are shared:
// do not modify them.
func (s *System) Pattern() Pattern { return s.pattern }

// MassPattern is nil: M is diagonal, diag(m, m, J) per body (dae.Sparsity).
func (s *System) MassPattern() [][]int { return nil }

// ConstraintPattern returns Pattern().GRows (dae.Sparsity); the slices are shared.
func (s *System) ConstraintPattern() [][]int { return s.pattern.GRows }

// CouplingPattern returns, per coordinate row i, the columns j at which ∂f/∂q, ∂f/∂v or
// ∂(Gᵀλ)/∂q can be nonzero (dae.Sparsity; ∂(M a)/∂q is zero): each body's own three
// columns and those of the other body of every joint and force element it shares. A model
// with custom forces gives nil: their finite-difference Jacobians span all of q. The
// slices are shared.
func (s *System) CouplingPattern() [][]int { return s.coupling }

// buildCoupling collects the body pairs of the joint rows and the two-body force elements
// and expands them to the coordinate columns.
func (s *System) buildCoupling() [][]int {
	if s.customs.Len() > 0 {
		return nil
	}
	adj := make([]map[int]bool, s.nq) // column of a body's first coordinate → columns of coupled bodies
	link := func(a, b int) {
		if a < 0 || b < 0 {
			return
		}
		if adj[a] == nil {
			adj[a] = map[int]bool{}
		}
		adj[a][b] = true
	}
	pairs := func(pr *pairRef) {
		link(pr.col[0], pr.col[0])
		link(pr.col[3], pr.col[3])
		link(pr.col[0], pr.col[3])
		link(pr.col[3], pr.col[0])
	}
	for _, r := range s.rows {
		for _, t := range r.terms[:r.n] {
			pairs(&s.pairs[t.pair])
		}
	}
	for i := range s.sds {
		pairs(&s.pairs[s.sds[i].Pair])
	}
	out := make([][]int, s.nq)
	for _, b := range s.bodies[1:] {
		cols := []int{b.col, b.col + 1, b.col + 2}
		for c := range adj[b.col] {
			if c != b.col {
				cols = append(cols, c, c+1, c+2)
			}
		}
		sort.Ints(cols)
		for k := range 3 {
			out[b.col+k] = cols
		}
	}
	return out
}

// buildPattern collects, for each row, the columns of the pairs its terms read.
func (s *System) buildPattern() Pattern {
	p := Pattern{GRows: make([][]int, len(s.rows))}
	for i, r := range s.rows {
		seen := map[int]bool{}
		for _, t := range r.terms[:r.n] {
			for _, c := range s.pairs[t.pair].col {
				if c >= 0 && !seen[c] {
					seen[c] = true
					p.GRows[i] = append(p.GRows[i], c)
				}
			}
		}
		sort.Ints(p.GRows[i])
		p.NNZ += len(p.GRows[i])
	}
	return p
}
