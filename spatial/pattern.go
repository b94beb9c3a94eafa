package spatial

import "linkage/assembly"

// Pattern is the structural sparsity of G (assembly.Pattern): a normalization row
// involves its body's p, a joint row the 14 coordinates of its two bodies. M is block
// diagonal, diag(m, m, m, 4×4 block in p) per body (MassPattern).
type Pattern = assembly.Pattern

// Pattern returns the sparsity pattern of G recorded at assembly. The slices are shared:
// do not modify them.
func (s *System) Pattern() Pattern { return s.pattern }

func (s *System) buildPattern() Pattern {
	rows := make([][]int, s.nc)
	for i, b := range s.bodies[1:] {
		rows[i] = []int{b.col + 3, b.col + 4, b.col + 5, b.col + 6}
	}
	for r := range s.rows {
		rows[s.nbody+r] = assembly.Columns(s.pairs[s.rows[r].Terms[0].Pair].col[:])
	}
	return assembly.NewPattern(rows)
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

// buildCoupling links the bodies of every joint row's pair and every spring-damper.
func (s *System) buildCoupling() [][]int {
	if s.customs.Len() > 0 {
		return nil
	}
	var links [][2]int
	for r := range s.rows {
		pr := &s.pairs[s.rows[r].Terms[0].Pair]
		links = append(links, [2]int{pr.col[0], pr.col[7]})
	}
	for i := range s.sds {
		pr := &s.pairs[s.sds[i].Pair]
		links = append(links, [2]int{pr.col[0], pr.col[7]})
	}
	firsts := make([]int, 0, s.nbody)
	for _, b := range s.bodies[1:] {
		firsts = append(firsts, b.col)
	}
	return assembly.Coupling(s.nq, 7, firsts, links)
}
