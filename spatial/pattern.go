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
// ∂(M a)/∂q or ∂(Gᵀλ)/∂q can be nonzero (dae.Sparsity): the union of the exact structural
// entries of every element (buildCoupling), so that a chain of spherical joints couples
// each body's p with itself only. A model with custom forces gives nil (their
// finite-difference Jacobians span all of q). The slices are shared.
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

// The entries of a pair P = (R_I, p_I, R_J, p_J) (kinematics.go).
const (
	pOfI uint16 = 0xf << 3  // p_I
	pOfJ uint16 = 0xf << 10 // p_J
	pAll uint16 = 1<<14 - 1
)

// vecCols returns the entries of P a vector of the pair depends on (vexp.cols): an axis of
// marker I on p_I, one of J on p_J, d on all, a global axis on none.
func vecCols(v vecKind) uint16 {
	switch {
	case v <= vZI:
		return pOfI
	case v <= vZJ:
		return pOfJ
	case v == vD:
		return pAll
	}
	return 0
}

// vecCurvature returns the blocks of P in which a vector's components curve (its quadratic
// forms in p_I and p_J, vexp.qi and qj).
func vecCurvature(v vecKind) assembly.LocalPattern {
	h := assembly.NewLocalPattern(14)
	if c := vecCols(v); c != 0 {
		h.Block(c & pOfI)
		h.Block(c & pOfJ)
	}
	return h
}

// dotPattern returns the support of ∇(aᵀb) and the entries of ∇²(aᵀb) = J_aᵀJ_b + J_bᵀJ_a +
// Σ_k (b_k ∇²a_k + a_k ∇²b_k) (coordEval.addDot).
func dotPattern(a, b vecKind) (uint16, assembly.LocalPattern) {
	h := vecCurvature(a)
	h.Union(vecCurvature(b))
	h.Cross(vecCols(a), vecCols(b))
	return vecCols(a) | vecCols(b), h
}

// coordPattern returns the support of ∇c and the entries of ∇²c that can be nonzero for
// coordinate c (coordEval.eval): a sum of dot products has theirs; the angle, the length
// and the contact height add the outer products of their inner gradients.
func coordPattern(c *coord) (uint16, assembly.LocalPattern) {
	switch c.kind {
	case coordAngle:
		gs, hs := dotPattern(vYI, vXJ)
		gc, hc := dotPattern(vXI, vXJ)
		hs.Union(hc)
		hs.Block(gs | gc)
		return gs | gc, hs
	case coordLength:
		g, h := dotPattern(vD, vD)
		h.Block(g)
		return g, h
	case coordContact:
		g, h := dotPattern(vE2, vD)
		gu, hu := dotPattern(vE2, vZJ)
		h.Union(hu)
		h.Block(gu)
		return g | gu, h
	}
	var g uint16
	h := assembly.NewLocalPattern(14)
	for _, t := range c.dots[:c.n] {
		gt, ht := dotPattern(t.a, t.b)
		g |= gt
		h.Union(ht)
	}
	return g, h
}

// forcePattern returns the entries of ∂f_P/∂P and ∂f_P/∂v_P of a force −F ∇c along c (a
// spring-damper, a joint's friction; assembly.AddJacobianQ): the block over the support of
// ∇c and ∇²c.
func forcePattern(c *coord) assembly.LocalPattern {
	g, h := coordPattern(c)
	h.Block(g | h.Support())
	return h
}

// buildCoupling collects the entries of every element: per body, x with itself and the p
// block (∂(M a)/∂q, the gyroscopic ∂f/∂q and ∂f/∂v, the normalization rows' Hessians, point
// forces, torques, rolling disks); the Hessians of the joint rows' coordinates
// (∂(Gᵀλ)/∂q); the spring-dampers' and frictions' Jacobians; a point force's ∂f_R/∂p.
func (s *System) buildCoupling() [][]int {
	if s.customs.Len() > 0 {
		return nil
	}
	e := assembly.NewEntries(s.nq)
	for _, b := range s.bodies[1:] {
		for a := range 4 {
			for c := range 4 {
				e.Add(b.col+3+a, b.col+3+c)
			}
		}
	}
	for r := range s.rows {
		pr := &s.pairs[s.rows[r].Terms[0].Pair]
		for _, t := range s.rows[r].Terms[:s.rows[r].N] {
			_, h := coordPattern(&t.Coord)
			e.AddLocal(pr.col[:], h)
		}
	}
	for i := range s.sds {
		e.AddLocal(s.pairs[s.sds[i].Pair].col[:], forcePattern(&s.sds[i].Coord))
	}
	for i := range s.frictions {
		e.AddLocal(s.pairs[s.frictions[i].Pair].col[:], forcePattern(&s.frictions[i].Coord))
	}
	for _, p := range s.points {
		for k := range 3 {
			for a := range 4 {
				e.Add(p.col+k, p.col+3+a)
			}
		}
	}
	return e.Rows()
}
