package dae

import (
	"slices"

	"gonum.org/v1/gonum/mat"

	"linkage/linalg"
)

// Rekeeper is a System of kept constraint rows (Reduce) that can choose them anew during
// the motion: rows redundant at t₀ need not stay redundant (Bricard's mechanism, IFToMM
// A04: the row dropped at the start is needed again where another becomes dependent, and
// the kept rows alone lose rank there). Seed 002 §2.3, Theorem 2: with a rank-deficient
// G the motion is unique and any maximal independent set of rows determines it.
type Rekeeper interface {
	// Rekeep chooses, at (t, q), the kept rows as the best-conditioned independent set of
	// the full G of the same size (the first rows of the pivoted QR of Gᵀ), keeping every
	// row that stays in it in its slot. It returns the rows of the full system that left
	// and entered (in slot order) and whether the set changed. It allocates: an event.
	Rekeep(t float64, q []float64) (left, entered []int, changed bool)
	// Kept returns the current kept rows (row i of the reduced system is Kept()[i] of the
	// full one); the slice is the wrapper's: do not modify it.
	Kept() []int
	// Inner is the full system.
	Inner() System
}

var _ Rekeeper = (*reduced)(nil)

// Rekeep implements Rekeeper.
func (r *reduced) Rekeep(t float64, q []float64) (left, entered []int, changed bool) {
	nq, nc := r.sys.Size()
	if len(r.keep) == 0 || len(r.keep) == nc {
		return nil, nil, false
	}
	G := mat.NewDense(nc, nq, nil)
	r.sys.ConstraintJacobian(G, t, q)
	qr := linalg.NewPivotedQR(nq, nc)
	qr.Factorize(G, true)
	best := qr.Perm()[:len(r.keep)]
	for _, i := range r.keep {
		if !slices.Contains(best, i) {
			left = append(left, i)
		}
	}
	for _, i := range best {
		if !slices.Contains(r.keep, i) {
			entered = append(entered, i)
		}
	}
	if len(left) == 0 {
		return nil, nil, false
	}
	for k, i := range r.keep {
		if j := slices.Index(left, i); j >= 0 {
			r.keep[k] = entered[j]
		}
	}
	return left, entered, true
}

// Kept implements Rekeeper.
func (r *reduced) Kept() []int { return r.keep }

// Inner implements Rekeeper.
func (r *reduced) Inner() System { return r.sys }
