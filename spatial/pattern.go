package spatial

import (
	"slices"
	"sort"
)

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

// MassPattern returns, per coordinate row, the columns of M (dae.Sparsity): the diagonal
// for x, the body's 4×4 block for p. The slices are shared.
func (s *System) MassPattern() [][]int { return s.massPat }

// ConstraintPattern returns Pattern().GRows (dae.Sparsity); the slices are shared.
func (s *System) ConstraintPattern() [][]int { return s.pattern.GRows }

// CouplingPattern returns, per coordinate row i, the columns j at which ∂f/∂q, ∂f/∂v,
// ∂(M a)/∂q or ∂(Gᵀλ)/∂q can be nonzero (dae.Sparsity): each body's own seven columns and
// those of the other body of every joint and spring-damper it shares. A model with custom
// forces gives nil (their finite-difference Jacobians span all of q). The slices are
// shared.
func (s *System) CouplingPattern() [][]int { return s.coupling }

// buildMassPattern lists the diagonal for x and the 4×4 p block of every body.
func (s *System) buildMassPattern() [][]int {
	out := make([][]int, s.nq)
	for _, b := range s.bodies[1:] {
		for k := range 3 {
			out[b.col+k] = []int{b.col + k}
		}
		p := []int{b.col + 3, b.col + 4, b.col + 5, b.col + 6}
		for k := range 4 {
			out[b.col+3+k] = p
		}
	}
	return out
}

// buildCoupling collects the body pairs of the joint rows and the spring-dampers and
// expands them to the seven columns of each body.
func (s *System) buildCoupling() [][]int {
	if s.customs.Len() > 0 {
		return nil
	}
	adj := map[int]map[int]bool{} // first column of a body → first columns of coupled bodies
	link := func(pr *pairRef) {
		a, b := pr.col[0], pr.col[7]
		for _, x := range [2]int{a, b} {
			if x >= 0 && adj[x] == nil {
				adj[x] = map[int]bool{}
			}
		}
		if a >= 0 && b >= 0 {
			adj[a][b], adj[b][a] = true, true
		}
	}
	for r := range s.rows {
		link(&s.pairs[s.rows[r].pair])
	}
	for i := range s.sds {
		link(&s.pairs[s.sds[i].Pair])
	}
	out := make([][]int, s.nq)
	for _, b := range s.bodies[1:] {
		var cols []int
		for _, c := range append([]int{b.col}, mapKeys(adj[b.col])...) {
			for k := range 7 {
				cols = append(cols, c+k)
			}
		}
		slices.Sort(cols)
		cols = slices.Compact(cols)
		for k := range 7 {
			out[b.col+k] = cols
		}
	}
	return out
}

func mapKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
