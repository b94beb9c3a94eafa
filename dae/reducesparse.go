package dae

import "gonum.org/v1/gonum/mat"

// reducesparse.go: Reduce of a SparseEvaluator. The reduced system keeps the sparse
// evaluation path (integrators stay on it after Initialize dropped redundant rows), and for
// a large system (nq + nc ≥ sparseInitMinSize, with a coupling pattern) it stores nothing
// of size nc×nq or nq×nq: G's rows are picked from the inner system's values on its
// pattern, and the dense derivative methods scatter the inner system's pattern values
// (equal to the dense matrices on the pattern and zero off it, the contract CheckSparse
// verifies) into the caller's matrix.

// reducedSparse is the System Reduce returns for a SparseEvaluator without first-order
// states.
type reducedSparse struct {
	*reduced
	se      SparseEvaluator
	pattern [][]int // rows keep of the inner constraint pattern
	gcsr    CSR     // the inner system's G pattern
	gval    []float64
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

// newReducedSparse wraps r (whose G is nil when large) for the SparseEvaluator se.
func newReducedSparse(r *reduced, se SparseEvaluator) *reducedSparse {
	nq, nc := r.sys.Size()
	s := &reducedSparse{reduced: r, se: se, gcsr: ConstraintCSR(se, nq, nc)}
	s.gval = make([]float64, s.gcsr.NNZ())
	s.pattern = make([][]int, len(r.keep))
	for k, i := range r.keep {
		s.pattern[k] = s.gcsr.Row(i)
	}
	return s
}

// Rekeep keeps the rows (it overrides the dense wrapper's): an integrator builds its
// sparse factorizations on the constraint pattern once, so a large reduced system cannot
// change its rows during a run. Redundancy that changes in the motion is followed below
// the size of this route only (dae.Reduce).
func (s *reducedSparse) Rekeep(float64, []float64) (left, entered []int, changed bool) {
	return nil, nil, false
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
		scatterRow(dst.RawRowView(k), &s.gcsr, s.gval, i)
	}
}

// scatterRow writes row i of the pattern values (p, vals) into the dense row dst, zero
// off the pattern.
func scatterRow(dst []float64, p *CSR, vals []float64, i int) {
	clear(dst)
	lo := p.RowStart[i]
	for k, j := range p.Row(i) {
		dst[j] = vals[lo+k]
	}
}

// denseDerivatives are the dense derivative methods a reduced system answers through:
// Derivatives (analytic where the inner system has them, finite differences otherwise),
// or valueDerivatives on the storage-free route.
type denseDerivatives interface {
	MassDerivative(dst *mat.Dense, t float64, q, a []float64)
	ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64)
	ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64)
	ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64)
}

// valueDerivatives answers the dense derivative methods of a large SparseEvaluator from its
// coupling values, scattered into the caller's nq×nq matrix: no matrix of its own, and no
// finite differences (the values are the derivatives).
type valueDerivatives struct {
	se   SparseEvaluator
	csr  CSR
	vals []float64
}

func newValueDerivatives(se SparseEvaluator, nq int) *valueDerivatives {
	d := &valueDerivatives{se: se, csr: CouplingCSR(se, nq)}
	d.vals = make([]float64, d.csr.NNZ())
	return d
}

// scatter writes the values into dst, zero off the pattern.
func (d *valueDerivatives) scatter(dst *mat.Dense) {
	for i := range d.csr.NRows {
		scatterRow(dst.RawRowView(i), &d.csr, d.vals, i)
	}
}

func (d *valueDerivatives) MassDerivative(dst *mat.Dense, t float64, q, a []float64) {
	d.se.MassDerivativeValues(d.vals, t, q, a)
	d.scatter(dst)
}

func (d *valueDerivatives) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	d.se.ConstraintForceDerivativeValues(d.vals, t, q, lambda)
	d.scatter(dst)
}

func (d *valueDerivatives) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	d.se.ForceDerivativeQValues(d.vals, t, q, v)
	d.scatter(dst)
}

func (d *valueDerivatives) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	d.se.ForceDerivativeVValues(d.vals, t, q, v)
	d.scatter(dst)
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
