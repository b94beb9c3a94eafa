package dae

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// FDStep is the central-difference increment for an argument x: the cube root of the
// machine epsilon scaled by max(1, |x|) (Nocedal & Wright 2006, eq. 8.8), optimal for
// second-order differences. Every finite difference of linkage uses it except the
// fourth-order ones of KinematicsFD, which have their own steps.
func FDStep(x float64) float64 {
	const cbrtEps = 6.0554544523933395e-06 // (2^-52)^(1/3)
	return cbrtEps * math.Max(1, math.Abs(x))
}

// ForceFD adds central-difference Jacobians of a generalized force f(t, q, v) to a matrix,
// for force elements given only as callbacks (the custom forces of the modeling layers).
// It owns its scratch: one ForceFD serves one goroutine and does not allocate.
type ForceFD struct {
	xp, fp, fm, col []float64
}

// NewForceFD returns a ForceFD for nq coordinates.
func NewForceFD(nq int) *ForceFD {
	return &ForceFD{xp: make([]float64, nq), fp: make([]float64, nq), fm: make([]float64, nq), col: make([]float64, nq)}
}

// Add adds ∂f/∂q (wrtQ) or ∂f/∂v at (t, q, v) into dst (nq×nq). f overwrites its
// destination with the force.
func (d *ForceFD) Add(dst *mat.Dense, f func(dst []float64, t float64, q, v []float64), t float64, q, v []float64, wrtQ bool) {
	col := d.col
	for j := range q {
		d.Column(col, j, f, t, q, v, wrtQ)
		for i, x := range col {
			dst.Set(i, j, dst.At(i, j)+x)
		}
	}
}

// Column writes column j of ∂f/∂q (wrtQ) or ∂f/∂v at (t, q, v) into dst (length nq), for
// destinations other than a dense matrix (the value array of a sparse pattern).
func (d *ForceFD) Column(dst []float64, j int, f func(dst []float64, t float64, q, v []float64), t float64, q, v []float64, wrtQ bool) {
	x := v
	if wrtQ {
		x = q
	}
	copy(d.xp, x)
	h := FDStep(x[j])
	d.xp[j] = x[j] + h
	d.eval(d.fp, f, t, q, v, wrtQ)
	d.xp[j] = x[j] - h
	d.eval(d.fm, f, t, q, v, wrtQ)
	for i := range d.fp {
		dst[i] = (d.fp[i] - d.fm[i]) / (2 * h)
	}
}

// eval writes f at the perturbed argument d.xp (q when wrtQ, else v) into out.
func (d *ForceFD) eval(out []float64, f func(dst []float64, t float64, q, v []float64), t float64, q, v []float64, wrtQ bool) {
	if wrtQ {
		f(out, t, d.xp, v)
	} else {
		f(out, t, q, d.xp)
	}
}

// KinematicsFD gives the constraint time derivative g_t and the right side γ of the
// acceleration constraints G a = γ (seed 002, eq. 19) by central differences of g and G,
// so that the author of a rheonomic System derives only g(t, q) and G(t, q) by hand. A
// System delegates to it:
//
//	func (s *sys) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
//		s.kin.TimeDerivative(dst, s, t, q)
//	}
//	func (s *sys) Gamma(dst []float64, t float64, q, v []float64) { s.kin.Gamma(dst, s, t, q, v) }
//
// Both are fourth-order central differences, D_h f = [8(f(h) − f(−h)) − (f(2h) − f(−2h))]/12h
// with truncation error h⁴ f⁽⁵⁾/30 (ε = 2⁻⁵²):
//
//	g_t = D_δ of s ↦ g(t+s, q),   δ = ε^(1/5)·max(1, |t|) ≈ 7.4e-4·max(1, |t|),
//
// the step that balances the rounding ε|g|/δ against the truncation, both about ε^(4/5)
// ≈ 3e-13 for a constraint that changes on a time scale of 1 s (a drive of frequency ω
// adds the factor (ωδ)⁴ to the truncation). γ = −(G v)_q v − 2 G_t v − g_tt is minus the
// derivative of the velocity constraint G v + g_t along the motion (t + s, q + s v):
//
//	γ = −D_h r,   r(s) = G(t+s, q+s v) v + g_t(t+s, q+s v),   h = ε^(2/9)·max(1, |t|, max|q_i|),
//
// with the System's own g_t, which may itself be TimeDerivative. The step is larger than
// the one for g_t because r carries the error of that g_t, which the difference divides by
// h. The exponent 2/9 was chosen by measurement (TestKinematicsFD, a pivot driven on an
// ellipse at ω = 5 rad/s, g_t also by differences): worst relative error of γ 9e-10 at
// ε^(2/9) ≈ 3.3e-4, 9e-8 at 1e-4 (rounding), 6e-7 at 5e-3 (truncation); second-order
// differences at these steps gave 6e-6. Where γ must be better than this, derive it by
// hand and let dae.Check compare it; so too where a Newton matrix differentiates γ
// again (bdf's index1 and baumgarte forms without GammaDerivative), which turns this noise
// into about 1e-4 in ∂γ/∂q and costs Newton failures. KinematicsFD owns its scratch: one serves one
// goroutine (a System holding one is not safe for concurrent evaluation), and it does not
// allocate.
type KinematicsFD struct {
	gp, gm []float64 // g at t ± δ (nc)
	rp, rm []float64 // r at ± h (nc)
	gt     []float64 // g_t along the motion (nc)
	qs     []float64 // q + s v (nq)
	G      *mat.Dense
}

// NewKinematicsFD returns a KinematicsFD for nq coordinates and nc constraints.
func NewKinematicsFD(nq, nc int) *KinematicsFD {
	d := &KinematicsFD{gp: make([]float64, nc), gm: make([]float64, nc), rp: make([]float64, nc), rm: make([]float64, nc),
		gt: make([]float64, nc), qs: make([]float64, nq)}
	if nc > 0 {
		d.G = mat.NewDense(nc, nq, nil)
	}
	return d
}

// Relative steps of KinematicsFD (see its doc): ε^(1/5) for g_t, ε^(2/9) for γ.
const timeStep = 7.4009597974140505e-4  // (2^-52)^(1/5)
const gammaStep = 3.3222412113632265e-4 // (2^-52)^(2/9)

// TimeDerivative writes g_t(t, q) of sys into dst (length nc) by a central difference in t.
func (d *KinematicsFD) TimeDerivative(dst []float64, sys System, t float64, q []float64) {
	h := timeStep * math.Max(1, math.Abs(t))
	sys.Constraint(d.gp, t+h, q)
	sys.Constraint(d.gm, t-h, q)
	for i := range dst {
		dst[i] = 8 * (d.gp[i] - d.gm[i])
	}
	sys.Constraint(d.gp, t+2*h, q)
	sys.Constraint(d.gm, t-2*h, q)
	for i := range dst {
		dst[i] = (dst[i] - (d.gp[i] - d.gm[i])) / (12 * h)
	}
}

// Gamma writes γ(t, q, v) of sys into dst (length nc) by a central difference of the
// velocity constraint along the motion.
func (d *KinematicsFD) Gamma(dst []float64, sys System, t float64, q, v []float64) {
	scale := math.Max(1, math.Abs(t))
	for _, x := range q {
		scale = math.Max(scale, math.Abs(x))
	}
	h := gammaStep * scale
	d.rate(d.rp, sys, t, h, q, v)
	d.rate(d.rm, sys, t, -h, q, v)
	for i := range dst {
		dst[i] = -8 * (d.rp[i] - d.rm[i])
	}
	d.rate(d.rp, sys, t, 2*h, q, v)
	d.rate(d.rm, sys, t, -2*h, q, v)
	for i := range dst {
		dst[i] = (dst[i] + (d.rp[i] - d.rm[i])) / (12 * h) // −[8(r(h) − r(−h)) − (r(2h) − r(−2h))]/12h
	}
}

// rate writes r(s) = G(t+s, q+s v) v + g_t(t+s, q+s v) into dst.
func (d *KinematicsFD) rate(dst []float64, sys System, t, s float64, q, v []float64) {
	for j := range q {
		d.qs[j] = q[j] + s*v[j]
	}
	sys.ConstraintJacobian(d.G, t+s, d.qs)
	sys.ConstraintTimeDerivative(d.gt, t+s, d.qs)
	for i := range dst {
		var gv float64
		for j, g := range d.G.RawRowView(i) {
			gv += g * v[j]
		}
		dst[i] = gv + d.gt[i]
	}
}
