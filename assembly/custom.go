package assembly

import (
	"sync"

	"linkage/dae"
)

// custom.go: (t, q, v) ⇒ f, ∂f/∂q, ∂f/∂v, P_nc of the user's Go force elements, whose
// derivatives are central differences (dae.ForceFD).

// ForceFunc is a user force element: it adds its generalized forces (length nq, in the
// route's order of coordinates) at (t, q, v) into dst. It must not retain its arguments and
// should not allocate; its derivatives are taken by central differences, so it must be
// smooth and deterministic. Its power vᵀf counts as non-conservative.
type ForceFunc func(dst []float64, t float64, q, v []float64)

// Customs are the custom force elements of one System, with the scratch their
// finite-difference Jacobians and power need. The scratch is guarded by a lock, so that a
// System stays safe for concurrent use.
type Customs struct {
	fns []ForceFunc
	mu  sync.Mutex
	fd  *dae.ForceFD // finite-difference Jacobians of the sum
	f   []float64    // the sum, for the power
	col []float64    // one column of a Jacobian
	sum func(dst []float64, t float64, q, v []float64)
}

// NewCustoms returns the custom forces fns of a system with nq coordinates (the slice is
// copied).
func NewCustoms(nq int, fns []ForceFunc) *Customs {
	c := &Customs{fns: append([]ForceFunc(nil), fns...), fd: dae.NewForceFD(nq), f: make([]float64, nq), col: make([]float64, nq)}
	c.sum = c.forces // bound once: a method value made at every call would allocate
	return c
}

// Len returns the number of custom force elements.
func (c *Customs) Len() int { return len(c.fns) }

// AddForce adds every custom force at (t, q, v) into dst.
func (c *Customs) AddForce(dst []float64, t float64, q, v []float64) {
	for _, fn := range c.fns {
		fn(dst, t, q, v)
	}
}

// AddJacobian adds the central-difference derivative of the custom forces with respect to
// q (wrtQ) or v into dst, column by column (dst must hold every entry: the coupling of
// custom forces is dense); it does nothing when there are none.
func (c *Customs) AddJacobian(dst Target, t float64, q, v []float64, wrtQ bool) {
	if len(c.fns) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for j := range q {
		c.fd.Column(c.col, j, c.sum, t, q, v, wrtQ)
		for i, x := range c.col {
			dst.Add(i, j, x)
		}
	}
}

// Power returns vᵀ f of the custom forces at (t, q, v) (0 when there are none).
func (c *Customs) Power(t float64, q, v []float64) float64 {
	if len(c.fns) == 0 {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forces(c.f, t, q, v)
	var p float64
	for i, f := range c.f {
		p += f * v[i]
	}
	return p
}

// forces writes the sum of the custom forces into dst.
func (c *Customs) forces(dst []float64, t float64, q, v []float64) {
	clear(dst)
	c.AddForce(dst, t, q, v)
}
