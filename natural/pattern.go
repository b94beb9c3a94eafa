package natural

import (
	"slices"

	"linkage/assembly"
)

// pattern.go: frames, pairs and rows fixed at assembly ⇒ the structural sparsity of M, G and
// the coupling matrices (dae.Sparsity). M couples the points of each rigid element (a 4×4
// block per element, overlapping at shared points); a row or force element touches the
// points of its pair.

// Pattern returns the sparsity pattern of G recorded at assembly (shared: do not modify).
func (s *System) Pattern() assembly.Pattern { return s.pattern }

// MassPattern returns, per coordinate, the columns of M that can be nonzero: those of every
// rigid element holding the point as a basic point (dae.Sparsity; shared).
func (s *System) MassPattern() [][]int { return s.massPattern }

// ConstraintPattern returns Pattern().GRows (dae.Sparsity; shared).
func (s *System) ConstraintPattern() [][]int { return s.pattern.GRows }

// CouplingPattern returns, per coordinate, the columns at which ∂f/∂q, ∂f/∂v or ∂(Gᵀλ)/∂q
// can be nonzero (dae.Sparsity; shared).
func (s *System) CouplingPattern() [][]int { return s.coupling }

func (s *System) buildPattern() assembly.Pattern {
	rows := make([][]int, len(s.rows))
	for r := range s.rows {
		rows[r] = assembly.Columns(s.pairs[s.rowPair[r]].col[:])
	}
	return assembly.NewPattern(rows)
}

func (s *System) buildMassPattern() [][]int {
	var groups [][]int
	for k := 1; k < len(s.bodies); k++ {
		groups = append(groups, s.frames[k].col[:])
	}
	return s.union(groups)
}

func (s *System) buildCoupling() [][]int {
	var groups [][]int
	for r := range s.rows {
		groups = append(groups, s.pairs[s.rowPair[r]].col[:])
	}
	for i := range s.sds {
		groups = append(groups, s.pairs[s.sds[i].Pair].col[:])
	}
	for i := range s.pointForces {
		groups = append(groups, s.pairs[s.pointForces[i].pair].col[:])
	}
	for i := range s.torques {
		groups = append(groups, s.frames[s.torques[i].body].col[:])
	}
	return s.union(groups)
}

// union returns, per coordinate, the increasing columns of every group that contains it
// (the coordinate itself always).
func (s *System) union(groups [][]int) [][]int {
	out := make([][]int, s.nq)
	for i := range out {
		out[i] = []int{i}
	}
	for _, g := range groups {
		cols := assembly.Columns(g)
		for _, c := range cols {
			out[c] = append(out[c], cols...)
		}
	}
	for i, r := range out {
		slices.Sort(r)
		out[i] = slices.Compact(r)
	}
	return out
}
