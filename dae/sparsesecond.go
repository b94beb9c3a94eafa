package dae

import "gonum.org/v1/gonum/mat"

// sparsesecond.go: the constraint second derivatives on G's pattern, and their check.

// SparseConstraintJacobianDerivative is ConstraintJacobianDerivative's sparse form (the
// terms (Φ_q q')_q and (Φ_q q”)_q of seed 000, eqs. 22-25): ∂(G(t,q) w)/∂q, the constraint
// Hessians contracted with w, and G_t = ∂g_t/∂q, both written into value arrays aligned
// with G's pattern (ConstraintCSR): constraint i reads only the coordinates its row of G
// lists, so its second derivatives lie in that row too. The velocity-level constraint
// G v + g_t has ∂/∂q = ∂(G v)/∂q + G_t (−γ_v/2 of GammaDerivative), what the Newton
// matrices of the index-2 and GGL forms need. Both methods write every entry of dst,
// retain nothing and do not allocate; CheckSparse compares them with the dense
// ConstraintJacobianDerivative (central differences of G where the System lacks it) and
// with central differences of g_t.
type SparseConstraintJacobianDerivative interface {
	SparseEvaluator
	ConstraintJacobianDerivativeValues(dst []float64, t float64, q, w []float64)
	ConstraintJacobianTimeDerivativeValues(dst []float64, t float64, q []float64)
}

// secondTol is the relative gap CheckSparse allows between a sparse value and a central
// difference (accurate to about 1e-10 relative on well-scaled problems).
const secondTol = 1e-7

// tolQuantity is a quantity checked to the relative gap tol.
type tolQuantity struct {
	quantity
	tol float64
}

// secondQuantities returns the matrices of a SparseConstraintJacobianDerivative for
// CheckSparse on G's pattern gc: ∂(G w)/∂q with w = p.A (p.V when A is nil) against the
// dense capability, exact to rounding, or the differences of G; and G_t against the
// differences of g_t.
func secondQuantities(sys System, p CheckPoint, gc *CSR) []tolQuantity {
	s, ok := sys.(SparseConstraintJacobianDerivative)
	nq, nc := sys.Size()
	if !ok || nc == 0 {
		return nil
	}
	w := p.A
	if w == nil {
		w = p.V
	}
	dGw := tolQuantity{quantity{"d(G w)/dq", gc,
		func(d *mat.Dense) { NewSecondDerivatives(plain{sys}).ConstraintJacobianDerivative(d, p.T, p.Q, w) },
		func(v []float64) { s.ConstraintJacobianDerivativeValues(v, p.T, p.Q, w) }}, secondTol}
	if c, ok := sys.(ConstraintJacobianDerivative); ok {
		dGw.dense = func(d *mat.Dense) { c.ConstraintJacobianDerivative(d, p.T, p.Q, w) }
		dGw.tol = sparseTol
	}
	gt := tolQuantity{quantity{"G_t", gc,
		func(d *mat.Dense) { differenceGt(d, sys, p.T, p.Q, nq, nc) },
		func(v []float64) { s.ConstraintJacobianTimeDerivativeValues(v, p.T, p.Q) }}, secondTol}
	return []tolQuantity{dGw, gt}
}

// differenceGt writes G_t = ∂g_t/∂q at (t, q) into d (nc×nq) by central differences.
func differenceGt(d *mat.Dense, sys System, t float64, q []float64, nq, nc int) {
	qp := append([]float64(nil), q...)
	gp, gm := make([]float64, nc), make([]float64, nc)
	for j := range nq {
		h := FDStep(q[j])
		qp[j] = q[j] + h
		sys.ConstraintTimeDerivative(gp, t, qp)
		qp[j] = q[j] - h
		sys.ConstraintTimeDerivative(gm, t, qp)
		qp[j] = q[j]
		for i := range nc {
			d.Set(i, j, (gp[i]-gm[i])/(2*h))
		}
	}
}
