package integrate

import (
	"linkage/dae"
	"linkage/linalg"
)

// heldRows eliminates from eq. 17 the rows that hold one coordinate each, g_k = q_i − f(t)
// (dae.LockedMassSolver: joint drives, the hold rows of joint friction's slack
// coordinates), whose G row is the unit row e_iᵀ. With E those rows and C the others,
//
//	x = a₀ − Y y_C,   (G_C Y) y_C = G_C a₀ − s_C,   μ = r_h − (M x)_h − (G_Cᵀ y_C)_h,
//
// where a₀ and the columns of Y are solves with the held coordinates locked (x_h = s for
// a₀, 0 for Y: M_ff a₀,f = r_f − M_fh s, M_ff Y_f = G_C,fᵀ) and (M x)_h comes out of the
// same recursions as the forces that hold the locked coordinates. So a held row costs no
// recursive solve and no row or column of the Schur complement: n_C + 1 recursions and an
// n_C×n_C Cholesky factorization per factorization, one recursion per Solve, all O(N) for
// a fixed number n_C of loop-closure rows, where treating the held rows as loop closures
// costs O(N³) (2N hold rows for N pins with friction).
type heldRows struct {
	ls     dae.LockedMassSolver
	row    []int     // the held rows
	coord  []int     // the coordinate row[k] holds
	cut    []int     // the other rows (loop closures), the Schur complement's
	locked []bool    // nq: the coordinates held
	T      []float64 // n_C × n_held: (M Y_j) on the held coordinates, T[j·n_held + k]
	b      []float64 // nq: a right side with the held coordinates' prescribed values
	rh     []float64 // n_held: r on the held coordinates
	th     []float64 // n_held: (M a₀) on the held coordinates
	yc     []float64 // n_C: y on the loop-closure rows
}

// newHeldRows returns the elimination for sys, or nil when sys is no dae.LockedMassSolver,
// holds no coordinate by a row, or holds one coordinate by two rows (a redundant pair,
// which the Schur complement reports singular).
func newHeldRows(sys dae.System) *heldRows {
	ls, ok := sys.(dae.LockedMassSolver)
	if !ok {
		return nil
	}
	nq, nc := sys.Size()
	h := &heldRows{ls: ls, locked: make([]bool, nq), b: make([]float64, nq)}
	for k := range nc {
		i := ls.HeldCoordinate(k)
		switch {
		case i < 0 || i >= nq:
			h.cut = append(h.cut, k)
		case h.locked[i]:
			return nil
		default:
			h.locked[i] = true
			h.row, h.coord = append(h.row, k), append(h.coord, i)
		}
	}
	if len(h.row) == 0 {
		return nil
	}
	nh, ncut := len(h.row), len(h.cut)
	h.T, h.rh, h.th, h.yc = make([]float64, ncut*nh), make([]float64, nh), make([]float64, nh), make([]float64, ncut)
	return h
}

// factorizeHeld is factorize with the held rows eliminated: Y's rows are the locked
// solves of the loop-closure rows of G (zero on the held coordinates, their forces moved
// to T), W the Cholesky factor of G_C Y.
func (s *massSchur) factorizeHeld() error {
	h, nq := s.held, s.nq
	nh, ncut := len(h.row), len(h.cut)
	for j := range h.cut {
		copy(h.b, s.loopRow(j))
		for _, i := range h.coord {
			h.b[i] = 0
		}
		y := s.Y[j*nq : (j+1)*nq]
		s.massSolve(y, h.b, h.locked)
		for k, i := range h.coord {
			h.T[j*nh+k], y[i] = y[i], 0
		}
	}
	for i := range h.cut {
		gi := s.loopRow(i)
		for j := 0; j <= i; j++ {
			s.W[i*ncut+j] = dot(gi, s.Y[j*nq:(j+1)*nq])
		}
	}
	if err := linalg.Cholesky(s.W, ncut); err != nil {
		return errSchurSingular
	}
	return nil
}

// solveHeld is Solve with the held rows eliminated (heldRows' equations).
func (s *massSchur) solveHeld(x, y []float64) {
	h, nq := s.held, s.nq
	nh, ncut := len(h.row), len(h.cut)
	copy(h.b, x)
	for k, i := range h.coord {
		h.rh[k], h.b[i] = x[i], y[h.row[k]]
	}
	s.massSolve(s.a0, h.b, h.locked)
	for k, i := range h.coord {
		h.th[k], s.a0[i] = s.a0[i], y[h.row[k]]
	}
	for j, r := range h.cut {
		h.yc[j] = dot(s.loopRow(j), s.a0) - y[r]
	}
	linalg.CholeskySolve(s.W, ncut, h.yc)
	copy(x, s.a0)
	for j, yj := range h.yc {
		for l, v := range s.Y[j*nq : (j+1)*nq] {
			x[l] -= v * yj
		}
	}
	for k, i := range h.coord {
		mu := h.rh[k] - h.th[k]
		for j := range h.cut {
			mu += (h.T[j*nh+k] - s.loopRow(j)[i]) * h.yc[j]
		}
		y[h.row[k]] = mu
	}
	for j, r := range h.cut {
		y[r] = h.yc[j]
	}
}

// loopRow returns the j-th loop-closure row of G at the factorized point: the caller's G,
// or the rows evaluated alone (ownsRows).
func (s *massSchur) loopRow(j int) []float64 {
	if s.G == nil {
		return s.Gc.RawRowView(j)
	}
	return s.G.RawRowView(s.held.cut[j])
}

// mulG writes G x at the factorized point into dst (nc) with the held rows eliminated:
// x on the held coordinates, the loop-closure rows' products, O(n_C·nq + nc).
func (s *massSchur) mulG(dst, x []float64) {
	h := s.held
	for k, r := range h.row {
		dst[r] = x[h.coord[k]]
	}
	for j, r := range h.cut {
		dst[r] = dot(s.loopRow(j), x)
	}
}
