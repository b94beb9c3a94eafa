package dae

import (
	"gonum.org/v1/gonum/mat"
)

// Derivatives answers every derivative capability of a System: analytically where the
// System implements the capability, by central finite differences otherwise. It owns the
// workspace the differences need, so one Derivatives serves one goroutine; after
// NewDerivatives it does not allocate.
type Derivatives struct {
	sys    System
	nq, nc int

	mass      MassDerivative
	cforce    ConstraintForceDerivative
	force     ForceDerivative
	constMass bool

	qp, vp     []float64  // perturbed arguments
	fp, fm     []float64  // f at ±δ, length nq
	mp, mm     *mat.Dense // M at ±δ (nq×nq), made at the first difference of M a
	gp, gm     *mat.Dense // G at ±δ (nc×nq), made at the first difference of Gᵀλ
	colP, colM []float64
	// Evals counts System evaluations spent on finite differences.
	Evals int
}

// NewDerivatives returns the derivative provider for sys.
func NewDerivatives(sys System) *Derivatives {
	nq, nc := sys.Size()
	d := &Derivatives{sys: sys, nq: nq, nc: nc}
	d.mass, _ = sys.(MassDerivative)
	d.cforce, _ = sys.(ConstraintForceDerivative)
	d.force, _ = sys.(ForceDerivative)
	if c, ok := sys.(ConstantMass); ok && c.ConstantMass() {
		d.constMass = true
	}
	d.qp = make([]float64, nq)
	d.vp = make([]float64, nq)
	d.fp = make([]float64, nq)
	d.fm = make([]float64, nq)
	d.colP = make([]float64, nq)
	d.colM = make([]float64, nq)
	return d
}

// System returns the wrapped system.
func (d *Derivatives) System() System { return d.sys }

// AnalyticMass, AnalyticConstraintForce and AnalyticForce report which capabilities the
// System provides analytically (the others are finite differences).
func (d *Derivatives) AnalyticMass() bool            { return d.mass != nil || d.constMass }
func (d *Derivatives) AnalyticConstraintForce() bool { return d.cforce != nil }
func (d *Derivatives) AnalyticForce() bool           { return d.force != nil }

// MassDerivative writes ∂(M(t,q) a)/∂q into dst (nq×nq).
func (d *Derivatives) MassDerivative(dst *mat.Dense, t float64, q, a []float64) {
	switch {
	case d.mass != nil:
		d.mass.MassDerivative(dst, t, q, a)
	case d.constMass:
		dst.Zero()
	default:
		if d.mp == nil { // first use: a system with analytic derivatives never pays nq² here
			d.mp, d.mm = mat.NewDense(d.nq, d.nq, nil), mat.NewDense(d.nq, d.nq, nil)
		}
		copy(d.qp, q)
		for j := range d.nq {
			h := FDStep(q[j])
			d.qp[j] = q[j] + h
			d.sys.Mass(d.mp, t, d.qp)
			d.qp[j] = q[j] - h
			d.sys.Mass(d.mm, t, d.qp)
			d.qp[j] = q[j]
			d.Evals += 2
			for i := range d.nq {
				var s float64
				rp, rm := d.mp.RawRowView(i), d.mm.RawRowView(i)
				for k := range d.nq {
					s += (rp[k] - rm[k]) * a[k]
				}
				dst.Set(i, j, s/(2*h))
			}
		}
	}
}

// ConstraintForceDerivative writes ∂(G(t,q)ᵀ λ)/∂q into dst (nq×nq).
func (d *Derivatives) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	if d.cforce != nil {
		d.cforce.ConstraintForceDerivative(dst, t, q, lambda)
		return
	}
	if d.nc == 0 {
		dst.Zero()
		return
	}
	if d.gp == nil {
		d.gp, d.gm = mat.NewDense(d.nc, d.nq, nil), mat.NewDense(d.nc, d.nq, nil)
	}
	copy(d.qp, q)
	for j := range d.nq {
		h := FDStep(q[j])
		d.qp[j] = q[j] + h
		d.sys.ConstraintJacobian(d.gp, t, d.qp)
		d.qp[j] = q[j] - h
		d.sys.ConstraintJacobian(d.gm, t, d.qp)
		d.qp[j] = q[j]
		d.Evals += 2
		for i := range d.nq {
			var s float64
			for k := range d.nc {
				s += (d.gp.At(k, i) - d.gm.At(k, i)) * lambda[k]
			}
			dst.Set(i, j, s/(2*h))
		}
	}
}

// ForceDerivativeQ writes ∂f/∂q into dst (nq×nq).
func (d *Derivatives) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	if d.force != nil {
		d.force.ForceDerivativeQ(dst, t, q, v)
		return
	}
	copy(d.qp, q)
	for j := range d.nq {
		h := FDStep(q[j])
		d.qp[j] = q[j] + h
		d.sys.Force(d.fp, t, d.qp, v)
		d.qp[j] = q[j] - h
		d.sys.Force(d.fm, t, d.qp, v)
		d.qp[j] = q[j]
		d.Evals += 2
		for i := range d.nq {
			dst.Set(i, j, (d.fp[i]-d.fm[i])/(2*h))
		}
	}
}

// ForceDerivativeV writes ∂f/∂v into dst (nq×nq).
func (d *Derivatives) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	if d.force != nil {
		d.force.ForceDerivativeV(dst, t, q, v)
		return
	}
	copy(d.vp, v)
	for j := range d.nq {
		h := FDStep(v[j])
		d.vp[j] = v[j] + h
		d.sys.Force(d.fp, t, q, d.vp)
		d.vp[j] = v[j] - h
		d.sys.Force(d.fm, t, q, d.vp)
		d.vp[j] = v[j]
		d.Evals += 2
		for i := range d.nq {
			dst.Set(i, j, (d.fp[i]-d.fm[i])/(2*h))
		}
	}
}
