package planar

import "linkage/assembly"

// Pattern is the structural sparsity of G (assembly.Pattern): a joint row involves only
// the x, y, θ of the joint's two bodies (a coupler's, of the two joints' bodies). M is
// block diagonal in body coordinates, one diag(m, m, J) block per body, so it needs no
// pattern.
type Pattern = assembly.Pattern

// Pattern returns the sparsity pattern of G recorded at assembly. The slices are shared:
// do not modify them.
func (s *System) Pattern() Pattern { return s.pattern }

// MassPattern is nil when M is diagonal, diag(m, m, J) per rigid body; with flexible
// bodies it lists their blocks (dae.Sparsity).
func (s *System) MassPattern() [][]int { return s.massPattern }

// ConstraintPattern returns Pattern().GRows (dae.Sparsity); the slices are shared.
func (s *System) ConstraintPattern() [][]int { return s.pattern.GRows }

// CouplingPattern returns, per coordinate row i, the columns j at which ∂f/∂q, ∂f/∂v or
// ∂(Gᵀλ)/∂q can be nonzero (dae.Sparsity; ∂(M a)/∂q is zero): each body's own three
// columns and those of the other body of every joint and force element it shares. A model
// with custom forces gives nil: their finite-difference Jacobians span all of q. The
// slices are shared.
func (s *System) CouplingPattern() [][]int { return s.coupling }

// buildCoupling links the bodies of every joint row's pairs and every two-body force
// element.
func (s *System) buildCoupling() [][]int {
	if s.customs.Len() > 0 {
		return nil
	}
	var links [][2]int
	link := func(pr *pairRef) { links = append(links, [2]int{pr.col[0], pr.col[3]}) }
	for _, r := range s.rows {
		for _, t := range r.Terms[:r.N] {
			link(&s.pairs[t.Pair])
		}
	}
	for i := range s.sds {
		link(&s.pairs[s.sds[i].Pair])
	}
	firsts := make([]int, 0, len(s.bodies)-1)
	for _, b := range s.bodies[1:] {
		firsts = append(firsts, b.col)
	}
	out := assembly.Coupling(s.nq, 3, firsts, links)
	for i := range s.beams {
		addBeamBlock(out, &s.beams[i], true)
	}
	s.camCoupling(out)
	return out
}

// buildPattern collects, for each row, the columns of the pairs its terms read.
func (s *System) buildPattern() Pattern {
	rows := make([][]int, len(s.rows))
	for i, r := range s.rows {
		cols := make([][]int, r.N)
		for k, t := range r.Terms[:r.N] {
			cols[k] = s.pairs[t.Pair].col[:]
		}
		rows[i] = assembly.Columns(cols...)
	}
	for _, o := range s.offsets {
		ecols := make([]int, len(o.terms))
		for k, t := range o.terms {
			ecols[k] = t.col
		}
		rows[o.row] = assembly.Columns(rows[o.row], ecols)
	}
	s.camPatternColumns(rows)
	return assembly.NewPattern(rows)
}
