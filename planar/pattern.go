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
// ∂(Gᵀλ)/∂q can be nonzero (dae.Sparsity; ∂(M a)/∂q is zero for rigid bodies): the union of
// the exact structural entries of every element (buildCoupling), so that a chain of
// revolute joints under gravity couples nothing but each θ with itself. A model with custom
// forces gives nil: their finite-difference Jacobians span all of q. The slices are shared.
func (s *System) CouplingPattern() [][]int { return s.coupling }

// The entries of a pair p = (x_I, y_I, θ_I, x_J, y_J, θ_J) (kinematics.go).
const (
	pThetaI  = 1 << 2
	pThetaJ  = 1 << 5
	pAllPair = 1<<6 - 1
)

// hessPattern returns the entries of ∇²c over the pair that can be nonzero for coordinate
// kind (coordEval.eval): d_x, d_y are linear in the positions and curve in θ_I, θ_J alone;
// the along and normal coordinates curve in θ_I against everything and in θ_J with itself;
// the angle is linear; the squared distance and the length couple the whole pair.
func hessPattern(kind coordKind) assembly.LocalPattern {
	h := assembly.NewLocalPattern(6)
	switch kind {
	case coordDx, coordDy:
		h.Set(2, 2)
		h.Set(5, 5)
	case coordAlong, coordNormal:
		h.Cross(pThetaI, pAllPair)
		h.Set(5, 5)
	case coordDist2, coordLength:
		h.Block(pAllPair)
	}
	return h
}

// gradSupport returns the entries of ∇c over the pair that can be nonzero (coordGrad).
func gradSupport(kind coordKind) uint16 {
	switch kind {
	case coordDx, coordDy:
		c := int(kind - coordDx)
		return 1<<c | 1<<(3+c) | pThetaI | pThetaJ
	case coordAngle:
		return pThetaI | pThetaJ
	}
	return pAllPair
}

// forcePattern returns the entries of ∂f_p/∂p and ∂f_p/∂v_p of a force −F ∇c along
// coordinate kind (a spring-damper, a joint's friction): ∇c (k ∇c + d ∇²c v)ᵀ + F ∇²c and
// d ∇c ∇cᵀ (assembly.AddJacobianQ) lie in the block over the support of ∇c and ∇²c.
func forcePattern(kind coordKind) assembly.LocalPattern {
	h := hessPattern(kind)
	h.Block(gradSupport(kind) | h.Support())
	return h
}

// buildCoupling collects the entries of every element: the Hessians of the joint rows'
// coordinates (∂(Gᵀλ)/∂q), the force elements' Jacobians, the knife edges' ∂(Aᵀμ)/∂q, the
// moving beam nodes' offsets, the beams' blocks (∂(M a)/∂q, ∂f/∂q, ∂f/∂v) and the cams'
// contour terms. Gravity, torques and rigid masses add nothing.
func (s *System) buildCoupling() [][]int {
	if s.customs.Len() > 0 {
		return nil
	}
	e := assembly.NewEntries(s.nq)
	var hess, force [coordLength + 1]assembly.LocalPattern
	for k := range hess {
		hess[k], force[k] = hessPattern(coordKind(k)), forcePattern(coordKind(k))
	}
	for _, r := range s.rows {
		for _, t := range r.Terms[:r.N] {
			e.AddLocal(s.pairs[t.Pair].col[:], hess[t.Coord])
		}
	}
	for i := range s.sds {
		e.AddLocal(s.pairs[s.sds[i].Pair].col[:], force[s.sds[i].Coord])
	}
	for i := range s.frictions {
		e.AddLocal(s.pairs[s.frictions[i].Pair].col[:], force[s.frictions[i].Coord])
	}
	for _, p := range s.points {
		// A global force turns the moment arm (θ, θ); a body-fixed one turns F (x, θ), (y, θ).
		if p.global {
			e.Add(p.col+2, p.col+2)
		} else {
			e.Add(p.col, p.col+2)
			e.Add(p.col+1, p.col+2)
		}
	}
	for _, k := range s.knives {
		e.Add(k.col, k.col+2)
		e.Add(k.col+1, k.col+2)
	}
	for _, o := range s.offsets {
		for _, t := range o.terms {
			e.Add(o.thcol, t.col)
			e.Add(t.col, o.thcol)
		}
	}
	out := e.Rows()
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
