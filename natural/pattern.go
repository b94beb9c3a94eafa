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

// buildCoupling collects the exact structural entries of every element: the constant
// Hessians of the rows' coordinates (∂(Gᵀλ)/∂q; a rigid row couples its element's points,
// a revolute's d_x, d_y none), the spring-dampers' Jacobians, the block of a body-fixed
// point force's pair and of a torque's element. M is constant: ∂(M a)/∂q adds nothing.
func (s *System) buildCoupling() [][]int {
	e := assembly.NewEntries(s.nq)
	for r := range s.rows {
		pr := &s.pairs[s.rowPair[r]]
		for _, t := range s.rows[r].Terms[:s.rows[r].N] {
			_, h := pr.coordPattern(t.Coord)
			e.AddLocal(pr.col[:], h)
		}
	}
	for i := range s.sds {
		pr := &s.pairs[s.sds[i].Pair]
		g, h := pr.coordPattern(s.sds[i].Coord)
		h.Block(g | h.Support()) // ∇c (k ∇c + d ∇²c v)ᵀ + F ∇²c and d ∇c ∇cᵀ
		e.AddLocal(pr.col[:], h)
	}
	all := assembly.NewLocalPattern(8)
	all.Block(1<<8 - 1)
	for i := range s.pointForces {
		if !s.pointForces[i].global {
			e.AddLocal(s.pairs[s.pointForces[i].pair].col[:], all)
		}
	}
	for i := range s.torques {
		e.AddLocal(s.frames[s.torques[i].body].col[:], all[:4])
	}
	return e.Rows()
}

// support returns the entries of p that the linear map reads.
func (l *lin) support() uint16 {
	var m uint16
	for k := range 8 {
		if l[0][k] != 0 || l[1][k] != 0 {
			m |= 1 << k
		}
	}
	return m
}

// coordPattern returns the entries of ∇c and of ∇²c that can be nonzero for coordinate c of
// the pair (coordEval.eval): a bilinear c = (L_a p)ᵀ K (L_b p) has its Hessian in the cross
// blocks of the supports of L_a and L_b; the length and the angle add the outer product of
// their gradients.
func (pr *pairRef) coordPattern(c coord) (uint16, assembly.LocalPattern) {
	h := assembly.NewLocalPattern(8)
	bilinear := func(a, b *lin) uint16 {
		h.Cross(a.support(), b.support())
		return a.support() | b.support()
	}
	switch c.kind {
	case coordDx, coordDy:
		return pr.d.support(), h
	case coordAlong:
		return bilinear(&pr.uI, &pr.d), h
	case coordNormal:
		return bilinear(&pr.nI, &pr.d), h
	case coordCross, coordDot:
		return bilinear(&pr.uI, &pr.uJ), h
	case coordDist2:
		return bilinear(&pr.d, &pr.d), h
	case coordLength:
		g := bilinear(&pr.d, &pr.d)
		h.Block(g)
		return g, h
	}
	g := bilinear(&pr.uI, &pr.uJ) // coordAngle
	h.Block(g)
	return g, h
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
