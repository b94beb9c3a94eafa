package dae

import (
	"gonum.org/v1/gonum/mat"
)

// ConstraintJacobianDerivative is the optional capability ∂(G(t,q) w)/∂q for a vector w,
// an nc×nq matrix (the constraint Hessians contracted with w from the right). Implicit
// state-space methods need it with w = v and w = a: the terms (Φ_q q')_q and (Φ_q q”)_q of
// seed 000, eqs. 22-25 and 32-33.
type ConstraintJacobianDerivative interface {
	ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64)
}

// GammaDerivative is the optional capability of the derivatives of the right side γ(t,q,v)
// of the acceleration constraints G a = γ with respect to q and v, both nc×nq (τ_q and τ_q'
// of seed 000, eqs. 24-25 and 33-34).
//
// For holonomic constraints γ is quadratic in v and its Hessian term symmetric, so
//
//	∂γ/∂v = −2 ∂(G v)/∂q − 2 G_t,
//
// which gives G_t = ∂g_t/∂q without another capability.
type GammaDerivative interface {
	GammaDerivativeQ(dst *mat.Dense, t float64, q, v []float64)
	GammaDerivativeV(dst *mat.Dense, t float64, q, v []float64)
}

// SecondDerivatives answers the second-derivative capabilities of the constraints,
// ConstraintJacobianDerivative and GammaDerivative, analytically where the System
// implements them and by central finite differences of G and γ otherwise (steps as in
// Derivatives). It owns its workspace, so one SecondDerivatives serves one goroutine; after
// NewSecondDerivatives it does not allocate.
type SecondDerivatives struct {
	sys    System
	nq, nc int

	jac   ConstraintJacobianDerivative
	gamma GammaDerivative

	qp, vp []float64
	gp, gm []float64  // γ at ±δ, length nc
	Gp, Gm *mat.Dense // G at ±δ, nc×nq
	// Evals counts System evaluations spent on finite differences.
	Evals int
}

// NewSecondDerivatives returns the second-derivative provider for sys.
func NewSecondDerivatives(sys System) *SecondDerivatives {
	nq, nc := sys.Size()
	d := &SecondDerivatives{sys: sys, nq: nq, nc: nc}
	d.jac, _ = sys.(ConstraintJacobianDerivative)
	d.gamma, _ = sys.(GammaDerivative)
	d.qp, d.vp = make([]float64, nq), make([]float64, nq)
	d.gp, d.gm = make([]float64, nc), make([]float64, nc)
	if nc > 0 {
		d.Gp, d.Gm = mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil)
	}
	return d
}

// AnalyticConstraintJacobian and AnalyticGamma report which capabilities the System
// provides analytically (the others are finite differences).
func (d *SecondDerivatives) AnalyticConstraintJacobian() bool { return d.jac != nil }
func (d *SecondDerivatives) AnalyticGamma() bool              { return d.gamma != nil }

// ConstraintJacobianDerivative writes ∂(G(t,q) w)/∂q into dst (nc×nq).
func (d *SecondDerivatives) ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64) {
	if d.jac != nil {
		d.jac.ConstraintJacobianDerivative(dst, t, q, w)
		return
	}
	if d.nc == 0 {
		return
	}
	copy(d.qp, q)
	for j := range d.nq {
		h := FDStep(q[j])
		d.qp[j] = q[j] + h
		d.sys.ConstraintJacobian(d.Gp, t, d.qp)
		d.qp[j] = q[j] - h
		d.sys.ConstraintJacobian(d.Gm, t, d.qp)
		d.qp[j] = q[j]
		d.Evals += 2
		for i := range d.nc {
			rp, rm := d.Gp.RawRowView(i), d.Gm.RawRowView(i)
			var s float64
			for k, wk := range w {
				s += (rp[k] - rm[k]) * wk
			}
			dst.Set(i, j, s/(2*h))
		}
	}
}

// GammaDerivativeQ writes ∂γ/∂q into dst (nc×nq).
func (d *SecondDerivatives) GammaDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	if d.gamma != nil {
		d.gamma.GammaDerivativeQ(dst, t, q, v)
		return
	}
	copy(d.qp, q)
	for j := range d.nq {
		h := FDStep(q[j])
		d.qp[j] = q[j] + h
		d.sys.Gamma(d.gp, t, d.qp, v)
		d.qp[j] = q[j] - h
		d.sys.Gamma(d.gm, t, d.qp, v)
		d.qp[j] = q[j]
		d.Evals += 2
		for i := range d.nc {
			dst.Set(i, j, (d.gp[i]-d.gm[i])/(2*h))
		}
	}
}

// GammaDerivativeV writes ∂γ/∂v into dst (nc×nq). γ is quadratic in v, so the central
// difference is exact up to rounding.
func (d *SecondDerivatives) GammaDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	if d.gamma != nil {
		d.gamma.GammaDerivativeV(dst, t, q, v)
		return
	}
	copy(d.vp, v)
	for j := range d.nq {
		h := FDStep(v[j])
		d.vp[j] = v[j] + h
		d.sys.Gamma(d.gp, t, q, d.vp)
		d.vp[j] = v[j] - h
		d.sys.Gamma(d.gm, t, q, d.vp)
		d.vp[j] = v[j]
		d.Evals += 2
		for i := range d.nc {
			dst.Set(i, j, (d.gp[i]-d.gm[i])/(2*h))
		}
	}
}

// checkSecond compares the second-derivative capabilities sys implements with the finite
// differences of SecondDerivatives: ∂(G w)/∂q with w = p.A (p.V when A is nil), ∂γ/∂q
// and ∂γ/∂v. Check calls it when nc > 0.
func checkSecond(sys System, p CheckPoint, nc, nq int) []Mismatch {
	var out []Mismatch
	fd := NewSecondDerivatives(plain{sys})
	an, ap := mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil)
	if c, ok := sys.(ConstraintJacobianDerivative); ok {
		w := p.A
		if w == nil {
			w = p.V
		}
		c.ConstraintJacobianDerivative(an, p.T, p.Q, w)
		fd.ConstraintJacobianDerivative(ap, p.T, p.Q, w)
		out = append(out, compare("d(G w)/dq", an, ap))
	}
	if g, ok := sys.(GammaDerivative); ok {
		g.GammaDerivativeQ(an, p.T, p.Q, p.V)
		fd.GammaDerivativeQ(ap, p.T, p.Q, p.V)
		out = append(out, compare("d gamma/dq", an, ap))
		g.GammaDerivativeV(an, p.T, p.Q, p.V)
		fd.GammaDerivativeV(ap, p.T, p.Q, p.V)
		out = append(out, compare("d gamma/dv", an, ap))
	}
	return out
}
