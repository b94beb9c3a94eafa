package dae

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// holonomicRows is what System and LieSystem share for their position constraints Φ:
// the rows below which WithPfaffianRows and WithLiePfaffianRows append the Pfaffian rows.
type holonomicRows interface {
	Constraint(dst []float64, t float64, q []float64)
	ConstraintJacobian(dst *mat.Dense, t float64, q []float64)
	ConstraintTimeDerivative(dst []float64, t float64, q []float64)
	Gamma(dst []float64, t float64, q, v []float64)
}

// stackedRows evaluates the nc holonomic rows of h with the nn Pfaffian rows A w + b of n
// below them, as one set of nc + nn rows: Φ' = [Φ; 0], [Φ_q; A], Φ'_t = [Φ_t; b] and
// γ' = [γ; γ_A] (w the velocities of q's space: v on ℝⁿ, the algebra's on a group).
type stackedRows struct {
	h      holonomicRows
	n      Nonholonomic
	nc, nn int
	hol    *mat.Dense // Φ_q of h (nc × nw), nil when nc = 0
	A      *mat.Dense // A (nn × nw)
	b      []float64  // b (nn)
}

func newStackedRows(h holonomicRows, n Nonholonomic, nc, nw int) stackedRows {
	nn := n.NumPfaffian()
	s := stackedRows{h: h, n: n, nc: nc, nn: nn, A: mat.NewDense(nn, nw, nil), b: make([]float64, nn)}
	if nc > 0 {
		s.hol = mat.NewDense(nc, nw, nil)
	}
	return s
}

func (s *stackedRows) constraint(dst []float64, t float64, q []float64) {
	s.h.Constraint(dst[:s.nc], t, q)
	clear(dst[s.nc:])
}

func (s *stackedRows) jacobian(dst *mat.Dense, t float64, q []float64) {
	if s.hol != nil {
		s.h.ConstraintJacobian(s.hol, t, q)
		copyRows(dst, 0, s.hol, s.nc)
	}
	s.n.Pfaffian(s.A, s.b, t, q)
	copyRows(dst, s.nc, s.A, s.nn)
}

func (s *stackedRows) timeDerivative(dst []float64, t float64, q []float64) {
	s.h.ConstraintTimeDerivative(dst[:s.nc], t, q)
	s.n.Pfaffian(s.A, dst[s.nc:], t, q)
}

func (s *stackedRows) gamma(dst []float64, t float64, q, v []float64) {
	s.h.Gamma(dst[:s.nc], t, q, v)
	s.n.PfaffianGamma(dst[s.nc:], t, q, v)
}

// name is the name of row i: holonomic(i) for i < nc, else the Pfaffian row's name
// (PfaffianNamer on sys), else pfaffian[k].
func (s *stackedRows) name(sys any, i int, holonomic func(int) string) string {
	if i < s.nc {
		return holonomic(i)
	}
	if n, ok := sys.(PfaffianNamer); ok {
		if name := n.PfaffianName(i - s.nc); name != "" {
			return name
		}
	}
	return fmt.Sprintf("pfaffian[%d]", i-s.nc)
}

// copyRows copies the first n rows of src into dst from row at on.
func copyRows(dst *mat.Dense, at int, src *mat.Dense, n int) {
	for k := range n {
		copy(dst.RawRowView(at+k), src.RawRowView(k))
	}
}
