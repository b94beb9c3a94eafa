package dae

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// plain hides the optional capabilities of a System so that Derivatives falls back to
// finite differences.
type plain struct{ System }

// Mismatch is the largest disagreement found by Check in one quantity.
type Mismatch struct {
	Quantity string  // e.g. "G = dg/dq", "d(M a)/dq"
	Row, Col int     // entry with the largest gap (Col is 0 for vectors)
	Analytic float64 // the system's value
	Approx   float64 // the finite-difference value
	Gap      float64 // |Analytic − Approx| / scale, scale = the largest |entry| of the quantity (at least 1e-300)
}

func (m Mismatch) String() string {
	return fmt.Sprintf("%s[%d,%d]: analytic %.10g, finite difference %.10g, relative gap %.2g",
		m.Quantity, m.Row, m.Col, m.Analytic, m.Approx, m.Gap)
}

// CheckPoint is a state at which Check compares derivatives.
type CheckPoint struct {
	T               float64
	Q, V, A, Lambda []float64 // A and Lambda may be nil (zero vectors are used)
}

// Check compares, at the point p, every derivative sys provides with central finite
// differences: G against g, g_t against g, γ against the second derivative of g along
// (t + s, q + s v), the symmetry of M, and each optional capability (MassDerivative,
// ConstraintForceDerivative, ForceDerivative, ConstraintJacobianDerivative, GammaDerivative,
// ReactionForce, Nonholonomic: ∂(A v + b)/∂q, ∂(Aᵀμ)/∂q and γ_A) the system implements; a SparseEvaluator's values and patterns are checked against its
// dense matrices as well (CheckSparse, whose *PatternError is returned first; with
// SparseNonholonomic rows also those of WithPfaffianRows and ∂(A v + b)/∂q). It returns the
// worst mismatch of each quantity, and an error naming the worst entry when any relative
// gap exceeds tol (1e-6 is a good value: central differences are accurate to about 1e-10
// relative on well-scaled problems).
func Check(sys System, p CheckPoint, tol float64) ([]Mismatch, error) {
	nq, nc := sys.Size()
	a := orZero(p.A, nq)
	lambda := orZero(p.Lambda, nc)
	fd := NewDerivatives(plain{sys})
	var out []Mismatch

	an := mat.NewDense(nq, nq, nil)
	ap := mat.NewDense(nq, nq, nil)
	if nc > 0 {
		out = append(out, checkJacobian(sys, p, nc, nq))
		out = append(out, checkGt(sys, p, nc))
		out = append(out, checkGamma(sys, p, nc, nq))
		out = append(out, checkSecond(sys, p, nc, nq)...) // second.go: ∂(G w)/∂q, ∂γ/∂q, ∂γ/∂v
	}
	sys.Mass(an, p.T, p.Q)
	out = append(out, checkSymmetric("M symmetric", an))
	if m, ok := sys.(MassDerivative); ok {
		m.MassDerivative(an, p.T, p.Q, a)
		fd.MassDerivative(ap, p.T, p.Q, a)
		out = append(out, compare("d(M a)/dq", an, ap))
	}
	if c, ok := sys.(ConstraintForceDerivative); ok && nc > 0 {
		c.ConstraintForceDerivative(an, p.T, p.Q, lambda)
		fd.ConstraintForceDerivative(ap, p.T, p.Q, lambda)
		out = append(out, compare("d(G^T lambda)/dq", an, ap))
	}
	if f, ok := sys.(ForceDerivative); ok {
		f.ForceDerivativeQ(an, p.T, p.Q, p.V)
		fd.ForceDerivativeQ(ap, p.T, p.Q, p.V)
		out = append(out, compare("df/dq", an, ap))
		f.ForceDerivativeV(an, p.T, p.Q, p.V)
		fd.ForceDerivativeV(ap, p.T, p.Q, p.V)
		out = append(out, compare("df/dv", an, ap))
	}
	if r, ok := AsReactionForce(sys); ok {
		out = append(out, checkReaction(r, p, nq, nc)...)
	}
	if n, ok := AsNonholonomic(sys); ok {
		out = append(out, checkPfaffian(n, p, nq)...) // pfaffian.go
	}
	if _, ok := sys.(SparseEvaluator); ok {
		if err := CheckSparse(sys, p); err != nil {
			return out, err
		}
		if err := checkSparsePfaffian(sys, p); err != nil { // pfaffiansparse.go
			return out, err
		}
	}
	return out, worstMismatch(out, tol, "derivative check", p.T)
}

// worstMismatch is the error of a check (what) at t naming the mismatch of largest gap
// above tol, or nil.
func worstMismatch(out []Mismatch, tol float64, what string, t float64) error {
	worst := -1
	for i, m := range out {
		if m.Gap > tol && (worst < 0 || m.Gap > out[worst].Gap) {
			worst = i
		}
	}
	if worst >= 0 {
		return fmt.Errorf("dae: %s failed at t=%g: %v (tolerance %g)", what, t, out[worst], tol)
	}
	return nil
}

func orZero(x []float64, n int) []float64 {
	if x == nil {
		return make([]float64, n)
	}
	return x
}

func checkJacobian(sys System, p CheckPoint, nc, nq int) Mismatch {
	an := mat.NewDense(nc, nq, nil)
	ap := mat.NewDense(nc, nq, nil)
	sys.ConstraintJacobian(an, p.T, p.Q)
	qp := append([]float64(nil), p.Q...)
	gp, gm := make([]float64, nc), make([]float64, nc)
	for j := range nq {
		h := FDStep(p.Q[j])
		qp[j] = p.Q[j] + h
		sys.Constraint(gp, p.T, qp)
		qp[j] = p.Q[j] - h
		sys.Constraint(gm, p.T, qp)
		qp[j] = p.Q[j]
		for i := range nc {
			ap.Set(i, j, (gp[i]-gm[i])/(2*h))
		}
	}
	return compare("G = dg/dq", an, ap)
}

func checkGt(sys System, p CheckPoint, nc int) Mismatch {
	an := make([]float64, nc)
	gp, gm := make([]float64, nc), make([]float64, nc)
	sys.ConstraintTimeDerivative(an, p.T, p.Q)
	h := FDStep(p.T)
	sys.Constraint(gp, p.T+h, p.Q)
	sys.Constraint(gm, p.T-h, p.Q)
	ap := make([]float64, nc)
	for i := range nc {
		ap[i] = (gp[i] - gm[i]) / (2 * h)
	}
	return compare("g_t", mat.NewDense(nc, 1, an), mat.NewDense(nc, 1, ap))
}

// checkGamma uses d/ds (G v + g_t) along (t + s, q + s v) = −γ, a first difference of
// analytic quantities, which is more accurate than a second difference of g.
func checkGamma(sys System, p CheckPoint, nc, nq int) Mismatch {
	an := make([]float64, nc)
	sys.Gamma(an, p.T, p.Q, p.V)
	rate := func(dst []float64, s float64) {
		q := make([]float64, nq)
		for i := range q {
			q[i] = p.Q[i] + s*p.V[i]
		}
		G := mat.NewDense(nc, nq, nil)
		sys.ConstraintJacobian(G, p.T+s, q)
		sys.ConstraintTimeDerivative(dst, p.T+s, q)
		for i := range nc {
			var gv float64
			for j := range nq {
				gv += G.At(i, j) * p.V[j]
			}
			dst[i] += gv
		}
	}
	scale := math.Abs(p.T)
	for _, x := range p.Q {
		scale = math.Max(scale, math.Abs(x))
	}
	h := FDStep(scale)
	rp, rm := make([]float64, nc), make([]float64, nc)
	rate(rp, h)
	rate(rm, -h)
	ap := make([]float64, nc)
	for i := range nc {
		ap[i] = -(rp[i] - rm[i]) / (2 * h)
	}
	return compare("gamma", mat.NewDense(nc, 1, an), mat.NewDense(nc, 1, ap))
}

func checkSymmetric(name string, m *mat.Dense) Mismatch {
	return compare(name, m, m.T())
}

// compare returns the entry of largest gap relative to the largest entry of approx (or of
// analytic, whichever is larger).
func compare(name string, analytic, approx mat.Matrix) Mismatch {
	r, c := analytic.Dims()
	scale := 1e-300
	for i := range r {
		for j := range c {
			scale = math.Max(scale, math.Max(math.Abs(analytic.At(i, j)), math.Abs(approx.At(i, j))))
		}
	}
	w := Mismatch{Quantity: name}
	for i := range r {
		for j := range c {
			x, y := analytic.At(i, j), approx.At(i, j)
			if g := math.Abs(x-y) / scale; g > w.Gap || (i == 0 && j == 0) || math.IsNaN(g) {
				w.Row, w.Col, w.Analytic, w.Approx, w.Gap = i, j, x, y, g
				if math.IsNaN(g) {
					w.Gap = math.Inf(1)
					return w
				}
			}
		}
	}
	return w
}
