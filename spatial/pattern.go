package spatial

import "sort"

// Pattern is the structural sparsity of the constraint Jacobian G, fixed at assembly: the
// columns of q on which each constraint row can depend (a superset of the nonzeros at any
// pose: a normalization row involves its body's p, a joint row the 14 coordinates of its
// two bodies). M is block diagonal, diag(m, m, m, 4×4 block in p) per body, so it needs
// no pattern. Sparse and topological solvers read the pattern once instead of probing G.
type Pattern struct {
	GRows [][]int // GRows[i]: increasing columns of row i
	NNZ   int     // total number of structural nonzeros of G
}

// Pattern returns the sparsity pattern of G recorded at assembly. The slices are shared:
// do not modify them.
func (s *System) Pattern() Pattern { return s.pattern }

func (s *System) buildPattern() Pattern {
	p := Pattern{GRows: make([][]int, s.nc)}
	for i, b := range s.bodies[1:] {
		p.GRows[i] = []int{b.col + 3, b.col + 4, b.col + 5, b.col + 6}
	}
	for r := range s.rows {
		var cols []int
		for _, c := range s.pairs[s.rows[r].pair].col {
			if c >= 0 {
				cols = append(cols, c)
			}
		}
		sort.Ints(cols)
		p.GRows[s.nbody+r] = cols
	}
	for _, r := range p.GRows {
		p.NNZ += len(r)
	}
	return p
}
