package dae

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// FDStep is the central-difference increment for an argument x: the cube root of the
// machine epsilon scaled by max(1, |x|) (Nocedal & Wright 2006, eq. 8.8), optimal for
// second-order differences. Every finite difference of linkage uses it.
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
