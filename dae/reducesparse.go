package dae

import "gonum.org/v1/gonum/mat"

// reducesparse.go: Reduce of a SparseEvaluator. The reduced system keeps the sparse
// evaluation path (integrators stay on it after Initialize dropped redundant rows), and for
// a large system (nq + nc ≥ sparseInitMinSize, with a coupling pattern) it stores nothing
// of size nc×nq or nq×nq: G's rows are picked from the inner system's values on its
// pattern, and the dense derivative methods are answered by the inner system's analytic
// ones or, lacking those, by scattering its pattern values (equal on the pattern and zero
// off it, the contract CheckSparse verifies) into the caller's matrix.

// reducedSparse is the System Reduce returns for a SparseEvaluator without first-order
// states.
type reducedSparse struct {
	*reduced
	se      SparseEvaluator
	pattern [][]int // rows keep of the inner constraint pattern
	gcsr    CSR     // the inner system's G pattern
	gval    []float64
	// Large systems only (reduced.G and reduced.d nil): the coupling pattern and values
	// for the dense derivative methods the inner system lacks.
	ccsr CSR
	cval []float64
	mass MassDerivative
	cf   ConstraintForceDerivative
	f    ForceDerivative
}

// reducedSparseEnergy adds Energy when the inner system has it.
type reducedSparseEnergy struct {
	*reducedSparse
	e Energy
}

// reducedSparseInvariant adds EnergyInvariant when the inner system has it.
type reducedSparseInvariant struct {
	*reducedSparseEnergy
	inv EnergyInvariant
}

var (
	_ SparseEvaluator = (*reducedSparse)(nil)
	_ Energy          = (*reducedSparseEnergy)(nil)
	_ EnergyInvariant = (*reducedSparseInvariant)(nil)
)

// largeReduced reports whether Reduce of sys takes the storage-free route.
func largeReduced(se SparseEvaluator, nq, nc int) bool {
	return nq+nc >= sparseInitMinSize && se.CouplingPattern() != nil
}

// newReducedSparse wraps r (whose G and d are nil when large) for the SparseEvaluator se.
func newReducedSparse(r *reduced, se SparseEvaluator, large bool) *reducedSparse {
	nq, nc := r.sys.Size()
	s := &reducedSparse{reduced: r, se: se, gcsr: ConstraintCSR(se, nq, nc)}
	s.gval = make([]float64, s.gcsr.NNZ())
	s.pattern = make([][]int, len(r.keep))
	for k, i := range r.keep {
		s.pattern[k] = s.gcsr.Row(i)
	}
	if large {
		s.ccsr = CouplingCSR(se, nq)
		s.cval = make([]float64, s.ccsr.NNZ())
		s.mass, _ = r.sys.(MassDerivative)
		s.cf, _ = r.sys.(ConstraintForceDerivative)
		s.f, _ = r.sys.(ForceDerivative)
	}
	return s
}

func (s *reducedSparse) MassPattern() [][]int       { return s.se.MassPattern() }
func (s *reducedSparse) ConstraintPattern() [][]int { return s.pattern }
func (s *reducedSparse) CouplingPattern() [][]int   { return s.se.CouplingPattern() }

func (s *reducedSparse) MassValues(dst []float64, t float64, q []float64) {
	s.se.MassValues(dst, t, q)
}

// ConstraintJacobianValues writes the kept rows of the inner G, in the order of keep.
func (s *reducedSparse) ConstraintJacobianValues(dst []float64, t float64, q []float64) {
	s.se.ConstraintJacobianValues(s.gval, t, q)
	n := 0
	for _, i := range s.keep {
		n += copy(dst[n:], s.gval[s.gcsr.RowStart[i]:s.gcsr.RowStart[i+1]])
	}
}

func (s *reducedSparse) MassDerivativeValues(dst []float64, t float64, q, a []float64) {
	s.se.MassDerivativeValues(dst, t, q, a)
}

// ConstraintForceDerivativeValues writes ∂(Gᵀ λ_full)/∂q, λ_full the expansion of λ.
func (s *reducedSparse) ConstraintForceDerivativeValues(dst []float64, t float64, q, lambda []float64) {
	ExpandLambda(s.lambda, lambda, s.keep)
	s.se.ConstraintForceDerivativeValues(dst, t, q, s.lambda)
}

func (s *reducedSparse) ForceDerivativeQValues(dst []float64, t float64, q, v []float64) {
	s.se.ForceDerivativeQValues(dst, t, q, v)
}

func (s *reducedSparse) ForceDerivativeVValues(dst []float64, t float64, q, v []float64) {
	s.se.ForceDerivativeVValues(dst, t, q, v)
}

// ConstraintJacobian writes the kept rows of the inner G: from its dense G when the
// system is small, else from its values (the dense rows are zero off the pattern).
func (s *reducedSparse) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	if s.G != nil || len(s.keep) == 0 {
		s.reduced.ConstraintJacobian(dst, t, q)
		return
	}
	s.se.ConstraintJacobianValues(s.gval, t, q)
	for k, i := range s.keep {
		row := dst.RawRowView(k)
		clear(row)
		lo := s.gcsr.RowStart[i]
		for p, j := range s.gcsr.Row(i) {
			row[j] = s.gval[lo+p]
		}
	}
}

// scatter writes the coupling values s.cval into the nq×nq dst, zero off the pattern.
func (s *reducedSparse) scatter(dst *mat.Dense) {
	for i := range s.ccsr.NRows {
		row := dst.RawRowView(i)
		clear(row)
		lo := s.ccsr.RowStart[i]
		for p, j := range s.ccsr.Row(i) {
			row[j] = s.cval[lo+p]
		}
	}
}

// MassDerivative writes ∂(M a)/∂q: analytic, or the inner values when large.
func (s *reducedSparse) MassDerivative(dst *mat.Dense, t float64, q, a []float64) {
	switch {
	case s.d != nil:
		s.d.MassDerivative(dst, t, q, a)
	case s.mass != nil:
		s.mass.MassDerivative(dst, t, q, a)
	default:
		s.se.MassDerivativeValues(s.cval, t, q, a)
		s.scatter(dst)
	}
}

// ConstraintForceDerivative writes ∂(G_redᵀ λ)/∂q = ∂(Gᵀ λ_full)/∂q.
func (s *reducedSparse) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	switch {
	case s.d != nil:
		s.reduced.ConstraintForceDerivative(dst, t, q, lambda)
	case s.cf != nil:
		ExpandLambda(s.lambda, lambda, s.keep)
		s.cf.ConstraintForceDerivative(dst, t, q, s.lambda)
	default:
		s.ConstraintForceDerivativeValues(s.cval, t, q, lambda)
		s.scatter(dst)
	}
}

// ForceDerivativeQ writes ∂f/∂q of the inner system.
func (s *reducedSparse) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	switch {
	case s.d != nil:
		s.d.ForceDerivativeQ(dst, t, q, v)
	case s.f != nil:
		s.f.ForceDerivativeQ(dst, t, q, v)
	default:
		s.se.ForceDerivativeQValues(s.cval, t, q, v)
		s.scatter(dst)
	}
}

// ForceDerivativeV writes ∂f/∂v of the inner system.
func (s *reducedSparse) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	switch {
	case s.d != nil:
		s.d.ForceDerivativeV(dst, t, q, v)
	case s.f != nil:
		s.f.ForceDerivativeV(dst, t, q, v)
	default:
		s.se.ForceDerivativeVValues(s.cval, t, q, v)
		s.scatter(dst)
	}
}

// Energy is the inner system's kinetic and potential energy.
func (r *reducedSparseEnergy) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	return r.e.Energy(t, q, v)
}

// NonConservativePower returns the inner system's P_nc.
func (r *reducedSparseInvariant) NonConservativePower(t float64, q, v []float64) float64 {
	return r.inv.NonConservativePower(t, q, v)
}

// DrivingPower returns the inner system's P_driving at the expanded λ.
func (r *reducedSparseInvariant) DrivingPower(t float64, q, lambda []float64) float64 {
	ExpandLambda(r.lambda, lambda, r.keep)
	return r.inv.DrivingPower(t, q, r.lambda)
}
