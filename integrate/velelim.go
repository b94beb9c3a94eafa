package integrate

import (
	"errors"
	"fmt"
	"math"
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
// A second stage eliminates v the same way through the rows q' = v (GGL: q' = v − Gᵀμ),
// c δq_j − δv_j (+ ((Gᵀμ)_q δq + Gᵀ δμ)_j) = b_qj: in the forms but GGL the matrix on
// (q, λ) left, c²M − c ∂f/∂v + … on q with Gᵀ on λ, is that of the index-3 methods (hht's),
// 5 N unknowns on the bar chain; GGL's is on (q, λ, μ), 7 N.

// eliminationLU is the sparse LU that factorizes the reduced matrix: linalg.SparseLU or
// linalg.ComplexSparseLU.
type eliminationLU[T float64 | complex128] interface {
	Values() []T
	Factor() error
	Solve(b []T)
}

// eliminated factorizes n×n matrices given by their values on a full pattern (Values)
// with the pivots (pivRow[j], pivCol[j]) eliminated: row pivRow[j] holds no other pivot
// column, so the unknown pivCol[j] is that row's linear function of its other unknowns
// (one for the rows v' = a and the velocity forms' q' = v; (Gᵀμ)_q's and Gᵀ's for GGL's
// q' = v − Gᵀμ). The reduced matrix, on the remaining rows and columns, is factorized by
// lu.
type eliminated[T float64 | complex128] struct {
	n, nr int
	lu    eliminationLU[T]
	full  []T     // values on the full pattern
	csr   dae.CSR // that pattern while setting up; dropped then

	pivRow, pivCol []int
	pivRows        []span // pivRow as runs of consecutive rows, to in bv's numbering
	eSlot          []int  // slot of (pivRow, pivCol) in full
	e              []T    // its value at the last Factor
	// The other columns of pivot j's row: oCol[oStart[j]:oStart[j+1]], at the full slots
	// oSlot, with their values oVal and oVal/e in oRatio at the last Factor. oCol and
	// oSlot are int32, as the slot maps below (slotMap), for the memory traffic of Solve:
	// GGL's rows q' = v − Gᵀμ hold about 13 other columns each, 6 MB of oCol and oVal
	// read by every solve at 10 000 bars with int.
	oStart       []int
	oCol, oSlot  []int32
	oVal, oRatio []T
	pairs        bool // every pivot row has one other column
	// pivCol0 ≥ 0: the pivot columns are the run pivCol0 + j; oCol0 ≥ 0 (pairs): so are
	// the other columns, oCol0 + j. Solve then reads neither index array.
	pivCol0, oCol0 int
	// The other columns whose value is nonzero at the last Factor (not pairs): pivot j's
	// are nzCol[nzStart[j]:nzStart[j+1]] with values nzVal. Solve's recovery of the
	// pivots reads these only: on the bar chain a quarter of the other columns of GGL's
	// rows q' = v − Gᵀμ hold zeros of (Gᵀμ)_q's pattern.
	nzStart, nzCol []int32
	nzVal          []T

	rowOf, colOf       []int  // full row or column → reduced one, −1 for the eliminated
	keptRows, keptCols []span // the same as runs of consecutive indices
	// The reduced values: K_r[to+i] = K[from+i] over the runs direct of full slots
	// outside the pivot rows and columns (consecutive in both numberings); the reduced
	// slots fill that no full slot maps to start at zero; a pivot column's slot moved[i]
	// (pivot j = moved[i].piv) adds −K[moved[i].from]·oRatio[oStart[j]+k] to
	// K_r[dest[moved[i].to+k]], the column of pivot j's k-th other column in its row.
	direct []span
	fill   []int32
	moved  []slotMap
	dest   []int32

	// The right-hand side's corrections: moved[i] subtracts K[moved[i].from]/e_j·b_vj
	// from its reduced row (rhsRow[i]); corrRow, corrPiv and coef hold the nonzero ones
	// of the last Factor in their first nCorr entries, with e_j's inverse in invE.
	rhsRow           []int32
	corrRow, corrPiv []int32
	nCorr            int
	coef, invE       []T
	// nRun: the first nRun corrections are the run corrRow[0] + k, corrPiv[0] + k (a
	// diagonal M's rows in the accelerations' stage, c M's in the velocities'), which
	// Solve applies without reading their indices.
	nRun int

	br, bv []T // the reduced right-hand side; b at the pivot rows
	// inPlace: the reduced right-hand side and solution are b[r0:r0+nr] itself. The kept
	// rows' last run ends there; every other run either is in its place already or moves
	// there over pivot rows only, whose values bv has taken first (the accelerations'
	// stage: q's rows move onto v's, and a, λ[, μ] stay); and the solution's runs go to
	// their columns in keptCols' order without one overwriting another's source (the
	// velocities' stage: the a, λ[, μ] rows stay where they are). It spares the copies of
	// the kept rows into br and back, two passes over nearly all of b per solve.
	inPlace bool
	r0      int
}

// slotMap maps a slot of the full values that holds pivot piv's column to the reduced
// slots dest[to:] (one per other column of the pivot's row).
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
		out = appendRun(out, i, r)
	}
	return out
}

// appendRun adds the index pair (from, to) to the runs out: to the last run when both
// follow on it, else as a new run.
func appendRun(out []span, from, to int) []span {
	if k := len(out) - 1; k >= 0 && out[k].from+out[k].n == from && out[k].to+out[k].n == to {
		out[k].n++
		return out
	}
	return append(out, span{from: from, to: to, n: 1})
}

// runs returns idx as runs of consecutive values: span.from the value idx[span.to].
func runs(idx []int) []span {
	var out []span
	for i, v := range idx {
		out = appendRun(out, v, i)
	}
	return out
}

// pivots lists the pivots (rows[j], cols[j]) of one stage of elimination.
type pivots struct{ rows, cols []int }

// errUnpaired is newEliminated's error for a pivot row that lacks its pivot column or
// holds another pivot column of its stage.
var errUnpaired = errors.New("pivot row does not eliminate its column alone")

// newEliminated returns the elimination of the pivots of stages[0] from n×n matrices on
// pattern, or an error (errUnpaired) naming the pivot whose row lacks its pivot column or
// holds another one of the stage. The reduced matrix is factorized by the elimination
// of the next stage (in the reduced numbering) where it applies, else by the sparse LU
// that newLU makes.
func newEliminated[T float64 | complex128](n int, pattern [][]int, stages []pivots,
	newLU func(nr int, pattern [][]int) (eliminationLU[T], error)) (*eliminated[T], error) {
	pivRow, pivCol := stages[0].rows, stages[0].cols
	m := len(pivRow)
	x := &eliminated[T]{n: n, nr: n - m, csr: dae.NewCSR(pattern, n, n, false),
		pivRow: pivRow, pivCol: pivCol, eSlot: make([]int, m), oStart: make([]int, m+1),
		e: make([]T, m), invE: make([]T, m), bv: make([]T, m)}
	if x.csr.NNZ() > math.MaxInt32 { // the slots are int32 (oSlot, slotMap)
		return nil, fmt.Errorf("integrate: eliminated: %d pattern entries, want at most %d", x.csr.NNZ(), math.MaxInt32)
	}
	x.full = make([]T, x.csr.NNZ())
	x.rowOf, x.colOf = reducedIndex(n, pivRow), reducedIndex(n, pivCol)
	x.keptRows, x.keptCols = spans(x.rowOf), spans(x.colOf)
	x.pivRows = runs(pivRow)
	byCol := make([]int, n) // pivot of each eliminated column, else −1
	for i := range byCol {
		byCol[i] = -1
	}
	for j, c := range pivCol {
		byCol[c] = j
	}
	for j, r := range pivRow {
		x.eSlot[j] = x.csr.Find(r, pivCol[j])
		if x.eSlot[j] < 0 {
			return nil, fmt.Errorf("integrate: eliminated pivot %d: row %d lacks its column %d: %w", j, r, pivCol[j], errUnpaired)
		}
		for t := x.csr.RowStart[r]; t < x.csr.RowStart[r+1]; t++ {
			switch c := x.csr.Cols[t]; {
			case c == pivCol[j]:
			case byCol[c] >= 0:
				return nil, fmt.Errorf("integrate: eliminated pivot %d: row %d holds pivot column %d too: %w", j, r, c, errUnpaired)
			default:
				x.oCol, x.oSlot = append(x.oCol, int32(c)), append(x.oSlot, int32(t))
			}
		}
		x.oStart[j+1] = len(x.oCol)
	}
	x.oVal, x.oRatio = make([]T, len(x.oCol)), make([]T, len(x.oCol))
	x.pairs = true
	for j := range m {
		x.pairs = x.pairs && x.oStart[j+1] == j+1
	}
	x.pivCol0, x.oCol0 = runStart(pivCol), -1
	if x.pairs {
		oc := make([]int, m)
		for j, c := range x.oCol {
			oc[j] = int(c)
		}
		x.oCol0 = runStart(oc)
	} else {
		x.nzStart, x.nzCol, x.nzVal = make([]int32, m+1), make([]int32, len(x.oCol)), make([]T, len(x.oCol))
	}
	red := make([][]int, x.nr)
	for r := range n {
		rr := x.rowOf[r]
		if rr < 0 {
			continue
		}
		for _, c := range x.csr.Row(r) {
			j := byCol[c]
			if j < 0 {
				red[rr] = append(red[rr], x.colOf[c])
				continue
			}
			for _, o := range x.oCol[x.oStart[j]:x.oStart[j+1]] {
				red[rr] = append(red[rr], x.colOf[o])
			}
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
	x.coef, x.br = make([]T, len(x.moved)), make([]T, x.nr)
	x.corrRow, x.corrPiv = make([]int32, len(x.moved)), make([]int32, len(x.moved))
	x.r0, x.inPlace = solvesInPlace(x.keptRows, x.keptCols)
	// The runs and the slot maps hold what the Factors and Solves need; the full pattern,
	// as large as the values, is the caller's to rebuild (newtonFactor.patternCSR).
	x.rowOf, x.colOf, x.csr = nil, nil, dae.CSR{}
	return x, nil
}

// runStart returns idx[0] when idx is the run idx[0] + j, else −1.
func runStart(idx []int) int {
	for j, i := range idx {
		if i != idx[0]+j {
			return -1
		}
	}
	if len(idx) == 0 {
		return -1
	}
	return idx[0]
}

// solvesInPlace reports whether the reduced system can be solved in place in the full
// right-hand side b, at b[r0:r0+nr] with r0 where the last run of kept rows ends less nr:
// every run of kept rows is in its place there or moves onto rows that no run keeps
// (pivot rows), and the runs of kept columns copied from b[r0+to:] to b[from:] in order
// do not overwrite a later run's source.
func solvesInPlace(rows, cols []span) (r0 int, ok bool) {
	if len(rows) == 0 {
		return 0, false
	}
	nr := 0
	for _, s := range rows {
		nr += s.n
	}
	last := rows[len(rows)-1]
	r0 = last.from + last.n - nr
	for _, s := range rows {
		to := r0 + s.to
		if to == s.from {
			continue
		}
		for _, k := range rows {
			if to < k.from+k.n && k.from < to+s.n {
				return 0, false
			}
		}
	}
	for i, a := range cols {
		for _, b := range cols[i+1:] {
			if a.from < r0+b.to+b.n && r0+b.to < a.from+a.n {
				return 0, false
			}
		}
	}
	return r0, true
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
	mapped := make([]bool, rc.NNZ())
	for r, rr := range x.rowOf {
		for t := x.csr.RowStart[r]; t < x.csr.RowStart[r+1]; t++ {
			if rr < 0 {
				continue
			}
			c, j := x.csr.Cols[t], byCol[x.csr.Cols[t]]
			if j < 0 {
				to := rc.Find(rr, x.colOf[c])
				mapped[to] = true
				x.direct = appendRun(x.direct, t, to)
				continue
			}
			x.moved = append(x.moved, slotMap{int32(t), int32(len(x.dest)), int32(j)})
			for _, o := range x.oCol[x.oStart[j]:x.oStart[j+1]] {
				x.dest = append(x.dest, int32(rc.Find(rr, x.colOf[o])))
			}
			x.rhsRow = append(x.rhsRow, int32(rr))
		}
	}
	for s, m := range mapped {
		if !m {
			x.fill = append(x.fill, int32(s))
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
	k, e, invE, nz := x.full, x.e, x.invE, int32(0)
	for j, t := range x.eSlot {
		ej := k[t]
		if ej == 0 {
			return linalg.ErrSingular
		}
		inv := 1 / ej
		e[j], invE[j] = ej, inv
		if x.pairs { // pivot j's one other column at j
			v := k[x.oSlot[j]]
			x.oVal[j], x.oRatio[j] = v, v*inv
			continue
		}
		lo, hi := x.oStart[j], x.oStart[j+1]
		slots, vals, ratios := x.oSlot[lo:hi], x.oVal[lo:hi], x.oRatio[lo:hi]
		vals, ratios = vals[:len(slots)], ratios[:len(slots)]
		for p, s := range slots {
			v := k[s]
			vals[p], ratios[p] = v, v*inv
		}
		cols := x.oCol[lo:hi]
		cols = cols[:len(vals)]
		for p, v := range vals {
			if v != 0 { // a zero takes nothing from Solve's sum (b finite)
				x.nzCol[nz], x.nzVal[nz] = cols[p], v
				nz++
			}
		}
		x.nzStart[j+1] = nz
	}
	rv := x.lu.Values()
	for _, s := range x.direct {
		copy(rv[s.to:s.to+s.n], k[s.from:s.from+s.n])
	}
	for _, s := range x.fill {
		rv[s] = 0
	}
	n := 0
	for i, m := range x.moved {
		if v := k[m.from]; v != 0 { // structural zeros: a's columns of the velocity forms' G
			lo, hi := x.oStart[m.piv], x.oStart[m.piv+1]
			for p, s := range x.dest[m.to : int(m.to)+hi-lo] {
				rv[s] -= v * x.oRatio[lo+p]
			}
			x.corrRow[n], x.corrPiv[n], x.coef[n] = x.rhsRow[i], m.piv, v*x.invE[m.piv]
			n++
		}
	}
	x.nCorr = n
	rows, pivs, run := x.corrRow[:n], x.corrPiv[:n], 0
	if n > 0 {
		r0, p0 := rows[0], pivs[0]
		for run < n && rows[run] == r0+int32(run) && pivs[run] == p0+int32(run) {
			run++
		}
	}
	x.nRun = run
	return x.lu.Factor()
}

// Solve overwrites b with the solution of the full system K δ = b: the reduced system's
// right-hand side b_r − Σ K_ra b_v / e, its solve, and δa_j = (b_vj − Σ_o K_vo δ_o)/e_j
// over the other columns o of the pivot's row.
func (x *eliminated[T]) Solve(b []T) {
	for _, s := range x.pivRows {
		copy(x.bv[s.to:s.to+s.n], b[s.from:s.from+s.n])
	}
	br, r0 := x.br, x.r0
	if x.inPlace {
		br = b[r0 : r0+x.nr]
		for _, s := range x.keptRows {
			if s.from != r0+s.to {
				copy(br[s.to:s.to+s.n], b[s.from:s.from+s.n])
			}
		}
	} else {
		for _, s := range x.keptRows {
			copy(br[s.to:s.to+s.n], b[s.from:s.from+s.n])
		}
	}
	bv, nr := x.bv, x.nRun
	if nr > 0 {
		r, p := x.corrRow[0], x.corrPiv[0]
		dst, src, coef := br[r:int(r)+nr], bv[p:int(p)+nr], x.coef[:nr]
		for k := range dst {
			dst[k] -= coef[k] * src[k]
		}
	}
	piv, coef := x.corrPiv[nr:x.nCorr], x.coef[nr:x.nCorr]
	for k, r := range x.corrRow[nr:x.nCorr] {
		br[r] -= coef[k] * bv[piv[k]]
	}
	x.lu.Solve(br)
	for _, s := range x.keptCols {
		if !x.inPlace || s.from != r0+s.to { // in place, a run may be where it goes
			copy(b[s.from:s.from+s.n], br[s.to:s.to+s.n])
		}
	}
	m, invE := len(bv), x.invE[:len(bv)]
	if x.pairs { // pivot j's one other column at j
		oCol, oVal := x.oCol[:m], x.oVal[:m]
		if x.pivCol0 >= 0 && x.oCol0 >= 0 { // both runs (the accelerations' stage)
			dst, src := b[x.pivCol0:x.pivCol0+m], b[x.oCol0:x.oCol0+m]
			for j := range dst {
				dst[j] = (bv[j] - oVal[j]*src[j]) * invE[j]
			}
			return
		}
		for j, c := range x.pivCol[:m] {
			b[c] = (bv[j] - oVal[j]*b[oCol[j]]) * invE[j]
		}
		return
	}
	start := x.nzStart[:m+1]
	for j := range m {
		lo, hi := start[j], start[j+1]
		s, cols := bv[j], x.nzCol[lo:hi]
		vals := x.nzVal[lo:hi]
		vals = vals[:len(cols)]
		for p, o := range cols {
			s -= vals[p] * b[o]
		}
		c := j + x.pivCol0
		if x.pivCol0 < 0 {
			c = x.pivCol[j]
		}
		b[c] = s * invE[j]
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
// by the rows q' = v (GGL: q' = v − Gᵀμ; row q_j, column v_j, numbered after the first
// stage).
func (s *semiExplicit) eliminationStages() []pivots {
	a, v := pivots{make([]int, s.nq), make([]int, s.nq)}, pivots{make([]int, s.nq), make([]int, s.nq)}
	for j := range s.nq {
		a.rows[j], a.cols[j] = s.iv()+j, s.ia()+j
		v.rows[j], v.cols[j] = s.iq()+j, s.iv()+j
	}
	return []pivots{a, v}
}
