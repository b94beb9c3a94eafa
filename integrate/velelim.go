package integrate

import (
	"errors"
	"fmt"
	"slices"

	"linkage/dae"
	"linkage/linalg"
)

// velelim.go: the Newton matrices of the first-order form (semiExplicit, y = (q, v, a, λ[,
// μ])) factorized with the accelerations eliminated. Row v_j of c K − ∂φ/∂y is the
// derivative of v' = a,
//
//	c δv_j − δa_j = b_vj,   so   δa_j = (b_vj − d_j δv_j)/e_j   (d_j = c, e_j = −1),
//
// exactly. Substituting it into every other row that holds a column a_j (the dynamics
// rows' M, the acceleration forms' G) moves K_ra·(−d_j/e_j) onto the column
// v_j and K_ra·b_vj/e_j to the right-hand side: for the dynamics rows
//
//	(c M − ∂f/∂v) δv + (∂(Ma)/∂q + ∂(Gᵀλ)/∂q − ∂f/∂q) δq + Gᵀ δλ = b_a + M b_v,
//
// the matrix of implicit codes on (q, v, λ[, μ]) such as IDA's (M v' = f − Gᵀλ). The
// reduced matrix drops nq rows and nq columns (10 N unknowns on the planar bar chain
// instead of 13 N), is factorized by the same sparse LU, and δa is recovered after the
// solve. The elimination reads d_j and e_j from the matrix's values, so it serves bdf's
// c_j K − ∂φ/∂y, radau5's real (γ/h) K − J and complex ((α+iβ)/h) K − J alike.
//
// In every formulation but GGL the rows q' = v are pairs too, c δq_j − δv_j = b_qj, and a
// second stage eliminates v the same way: the matrix on (q, λ) left, c²M + c(−∂f/∂v) + … on
// q with Gᵀ on λ, is that of the index-3 methods (hht's), 5 N unknowns on the bar chain.
// GGL's rows q' = v − Gᵀμ hold (Gᵀμ)_q and Gᵀ, so its elimination stops at (q, v, λ, μ).

// eliminationLU is the sparse LU that factorizes the reduced matrix: linalg.SparseLU or
// linalg.ComplexSparseLU.
type eliminationLU[T float64 | complex128] interface {
	Values() []T
	Factor() error
	Solve(b []T)
}

// eliminated factorizes n×n matrices given by their values on a full pattern (Values)
// with the pivots (pivRow[j], pivCol[j]) eliminated: row pivRow[j] lists exactly the
// columns pivCol[j] and other[j], so the unknown pivCol[j] is that row's linear function
// of the unknown other[j]. The reduced matrix, on the remaining rows and columns, is
// factorized by lu.
type eliminated[T float64 | complex128] struct {
	n, nr int
	lu    eliminationLU[T]
	full  []T     // values on the full pattern
	csr   dae.CSR // that pattern while setting up; dropped then

	pivRow, pivCol, other []int
	dSlot, eSlot          []int // slots of (pivRow, other) and (pivRow, pivCol) in full
	d, e                  []T   // their values at the last Factor
	ratio                 []T   // d/e

	rowOf, colOf       []int  // full row or column → reduced one, −1 for the eliminated
	keptRows, keptCols []span // the same as runs of consecutive indices
	// The reduced values: K_r[direct[t]] = K[t] for the full slots t outside the pivot
	// rows and columns (−1 for the others); K_r[moved[i].to] −= K[moved[i].from]·d_j/e_j
	// for a pivot column's slot (j = moved[i].piv), moved onto the column other[j].
	direct []int32
	moved  []slotMap

	// The right-hand side's corrections: moved[i] subtracts K[moved[i].from]/e_j·b_vj
	// from its reduced row (rhsRow[i]); corrRow, corrPiv and coef hold the nonzero ones
	// of the last Factor, with e_j's inverse in invE.
	rhsRow           []int32
	corrRow, corrPiv []int32
	coef, invE       []T

	br, bv []T // the reduced right-hand side; b at the pivot rows
}

// slotMap maps a slot of the full values to one of the reduced values (piv: the pivot
// whose column the full slot holds, for moved entries).
type slotMap struct{ from, to, piv int32 }

// span is a run of n consecutive kept indices, from in the full numbering, to in the
// reduced one.
type span struct{ from, to, n int }

// spans returns the runs of consecutive indices i with idx[i] ≥ 0.
func spans(idx []int) []span {
	var out []span
	for i, r := range idx {
		if r < 0 {
			continue
		}
		if k := len(out) - 1; k >= 0 && out[k].from+out[k].n == i {
			out[k].n++
			continue
		}
		out = append(out, span{from: i, to: r, n: 1})
	}
	return out
}

// pivots lists the pivots (rows[j], cols[j]) of one stage of elimination.
type pivots struct{ rows, cols []int }

// errUnpaired is newEliminated's error for a pivot row that is not of the form
// {pivot column, other}, or whose other column is eliminated too.
var errUnpaired = errors.New("pivot row is not a pair")

// newEliminated returns the elimination of the pivots of stages[0] from n×n matrices on
// pattern, or an error (errUnpaired) naming the pivot whose row is not of the form
// {pivCol, other} or whose other column is itself eliminated. The reduced matrix is
// factorized by the elimination of the next stage (in the reduced numbering) where its
// rows are pairs, else by the sparse LU that newLU makes.
func newEliminated[T float64 | complex128](n int, pattern [][]int, stages []pivots,
	newLU func(nr int, pattern [][]int) (eliminationLU[T], error)) (*eliminated[T], error) {
	pivRow, pivCol := stages[0].rows, stages[0].cols
	m := len(pivRow)
	x := &eliminated[T]{n: n, nr: n - m, csr: dae.NewCSR(pattern, n, n, false),
		pivRow: pivRow, pivCol: pivCol, other: make([]int, m), dSlot: make([]int, m), eSlot: make([]int, m),
		d: make([]T, m), e: make([]T, m), invE: make([]T, m), ratio: make([]T, m), bv: make([]T, m)}
	x.full = make([]T, x.csr.NNZ())
	x.rowOf, x.colOf = reducedIndex(n, pivRow), reducedIndex(n, pivCol)
	x.keptRows, x.keptCols = spans(x.rowOf), spans(x.colOf)
	byCol := make([]int, n) // pivot of each eliminated column, else −1
	for i := range byCol {
		byCol[i] = -1
	}
	for j, c := range pivCol {
		byCol[c] = j
	}
	for j, r := range pivRow {
		cols := x.csr.Row(r)
		if len(cols) != 2 || (cols[0] != pivCol[j] && cols[1] != pivCol[j]) {
			return nil, fmt.Errorf("integrate: eliminated pivot %d: row %d has columns %v, want %d and one other: %w", j, r, cols, pivCol[j], errUnpaired)
		}
		x.other[j] = cols[0] + cols[1] - pivCol[j]
		if byCol[x.other[j]] >= 0 {
			return nil, fmt.Errorf("integrate: eliminated pivot %d: row %d's other column %d is eliminated too: %w", j, r, x.other[j], errUnpaired)
		}
		x.dSlot[j], x.eSlot[j] = x.csr.Find(r, x.other[j]), x.csr.Find(r, pivCol[j])
	}
	red := make([][]int, x.nr)
	for r := range n {
		rr := x.rowOf[r]
		if rr < 0 {
			continue
		}
		for _, c := range x.csr.Row(r) {
			if j := byCol[c]; j >= 0 {
				c = x.other[j]
			}
			red[rr] = append(red[rr], x.colOf[c])
		}
		slices.Sort(red[rr])
		red[rr] = slices.Compact(red[rr])
	}
	lu, err := nextStage(x.nr, red, stages[1:], newLU) // it keeps red's order for its values
	if err != nil {
		return nil, err
	}
	x.lu = lu
	x.mapSlots(dae.NewCSR(red, x.nr, x.nr, false), byCol)
	x.coef, x.br = make([]T, 0, len(x.moved)), make([]T, x.nr)
	x.corrRow, x.corrPiv = make([]int32, 0, len(x.moved)), make([]int32, 0, len(x.moved))
	// The runs and the slot maps hold what the Factors and Solves need; the full pattern,
	// as large as the values, is the caller's to rebuild (newtonFactor.patternCSR).
	x.rowOf, x.colOf, x.csr = nil, nil, dae.CSR{}
	return x, nil
}

// nextStage returns the factorization of the reduced matrices on pattern: the elimination
// of stages[0] when its pivot rows are pairs there, else newLU's.
func nextStage[T float64 | complex128](n int, pattern [][]int, stages []pivots,
	newLU func(nr int, pattern [][]int) (eliminationLU[T], error)) (eliminationLU[T], error) {
	if len(stages) == 0 {
		return newLU(n, pattern)
	}
	x, err := newEliminated(n, pattern, stages, newLU)
	if errors.Is(err, errUnpaired) {
		return newLU(n, pattern)
	}
	if err != nil {
		return nil, err
	}
	return x, nil
}

// mapSlots sets the maps from the full pattern's slots to the reduced pattern rc.
func (x *eliminated[T]) mapSlots(rc dae.CSR, byCol []int) {
	x.direct = make([]int32, x.csr.NNZ())
	for r, rr := range x.rowOf {
		for t := x.csr.RowStart[r]; t < x.csr.RowStart[r+1]; t++ {
			x.direct[t] = -1
			if rr < 0 {
				continue
			}
			c, j := x.csr.Cols[t], byCol[x.csr.Cols[t]]
			if j < 0 {
				x.direct[t] = int32(rc.Find(rr, x.colOf[c]))
				continue
			}
			x.moved = append(x.moved, slotMap{int32(t), int32(rc.Find(rr, x.colOf[x.other[j]])), int32(j)})
			x.rhsRow = append(x.rhsRow, int32(rr))
		}
	}
}

// reducedIndex numbers 0..n−1 without the indices in drop (−1 for those).
func reducedIndex(n int, drop []int) []int {
	idx := make([]int, n)
	for _, i := range drop {
		idx[i] = -1
	}
	k := 0
	for i := range idx {
		if idx[i] == 0 {
			idx[i] = k
			k++
		}
	}
	return idx
}

// Values returns the storage of the full matrix's values, row by row in the order of
// the pattern newEliminated took.
func (x *eliminated[T]) Values() []T { return x.full }

// Factor forms the reduced matrix from the full values and factorizes it; a zero pivot
// e_j (row pivRow[j] without its pivot value) is linalg.ErrSingular.
func (x *eliminated[T]) Factor() error {
	k := x.full
	for j := range x.pivRow {
		x.d[j], x.e[j] = k[x.dSlot[j]], k[x.eSlot[j]]
		if x.e[j] == 0 {
			return linalg.ErrSingular
		}
		x.ratio[j], x.invE[j] = x.d[j]/x.e[j], 1/x.e[j]
	}
	rv := x.lu.Values()
	clear(rv)
	for t, r := range x.direct {
		if r >= 0 {
			rv[r] = k[t]
		}
	}
	x.corrRow, x.corrPiv, x.coef = x.corrRow[:0], x.corrPiv[:0], x.coef[:0]
	for i, m := range x.moved {
		if v := k[m.from]; v != 0 { // structural zeros: a's columns of the velocity forms' G
			rv[m.to] -= v * x.ratio[m.piv]
			x.corrRow, x.corrPiv = append(x.corrRow, x.rhsRow[i]), append(x.corrPiv, m.piv)
			x.coef = append(x.coef, v*x.invE[m.piv])
		}
	}
	return x.lu.Factor()
}

// Solve overwrites b with the solution of the full system K δ = b: the reduced system's
// right-hand side b_r − Σ K_ra b_v / e, its solve, and δa_j = (b_vj − d_j δ_other)/e_j.
func (x *eliminated[T]) Solve(b []T) {
	for j, r := range x.pivRow {
		x.bv[j] = b[r]
	}
	for _, s := range x.keptRows {
		copy(x.br[s.to:s.to+s.n], b[s.from:s.from+s.n])
	}
	br, bv, piv := x.br, x.bv, x.corrPiv[:len(x.corrRow)]
	coef := x.coef[:len(x.corrRow)]
	for k, r := range x.corrRow {
		br[r] -= coef[k] * bv[piv[k]]
	}
	x.lu.Solve(x.br)
	for _, s := range x.keptCols {
		copy(b[s.from:s.from+s.n], x.br[s.to:s.to+s.n])
	}
	d, inv, other := x.d, x.invE[:len(x.d)], x.other[:len(x.d)]
	for j, c := range x.pivCol[:len(x.d)] {
		b[c] = (bv[j] - d[j]*b[other[j]]) * inv[j]
	}
}

// newRealEliminated is newEliminated on a linalg.SparseLU, which it returns too.
func newRealEliminated(n int, pattern [][]int, stages []pivots) (*eliminated[float64], *linalg.SparseLU, error) {
	var lu *linalg.SparseLU
	x, err := newEliminated(n, pattern, stages, func(nr int, red [][]int) (eliminationLU[float64], error) {
		var err error
		lu, err = linalg.NewSparseLU(nr, red)
		return lu, err
	})
	return x, lu, err
}

// newComplexEliminated is newEliminated on a linalg.ComplexSparseLU, which it returns too.
func newComplexEliminated(n int, pattern [][]int, stages []pivots) (*eliminated[complex128], *linalg.ComplexSparseLU, error) {
	var lu *linalg.ComplexSparseLU
	x, err := newEliminated(n, pattern, stages, func(nr int, red [][]int) (eliminationLU[complex128], error) {
		var err error
		lu, err = linalg.NewComplexSparseLU(nr, red)
		return lu, err
	})
	return x, lu, err
}

// eliminationStages returns the stages that eliminate the first-order form's
// accelerations a, by the rows v' = a (row v_j, column a_j), and then its velocities v,
// by the rows q' = v (row q_j, column v_j, numbered after the first stage), which are
// pairs in every formulation but GGL (whose q' = v − Gᵀμ rows hold (Gᵀμ)_q and Gᵀ): the
// index-3 and velocity forms' matrices become [c²M + …, Gᵀ; …] on (q, λ).
func (s *semiExplicit) eliminationStages() []pivots {
	a, v := pivots{make([]int, s.nq), make([]int, s.nq)}, pivots{make([]int, s.nq), make([]int, s.nq)}
	for j := range s.nq {
		a.rows[j], a.cols[j] = s.iv()+j, s.ia()+j
		v.rows[j], v.cols[j] = s.iq()+j, s.iv()+j
	}
	return []pivots{a, v}
}
