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
