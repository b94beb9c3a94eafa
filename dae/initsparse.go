package dae

import (
	"fmt"
	"math"
	"slices"

	"linkage/linalg"
)

// sparseInit is the sparse algebra of Initialize: G's values on its pattern
// (ConstraintCSR), linalg.SparseRankLU for the partition, the rank and the combinations,
// linalg.SparseLU for G_red P̂ and linalg.SparseKKT for eq. 17. Nothing it stores grows
// faster than the nonzeros of G, M and their factors.
type sparseInit struct {
	sys     System
	se      SparseEvaluator
	nq, nc  int
	rankTol float64 // of the partition, for combination
	gcsr    CSR
	gval    []float64
	rank    *linalg.SparseRankLU // the pattern of G, analysed once

	rows, dep []int
	lu        *linalg.SparseLU // G[rows, dep] with its rows permuted: row c of lu is rows[luRow[c]]
	bsrc      []int            // lu.Values()[k] = gval[bsrc[k]]
	luRow     []int            // see lu
	pb        []float64        // the permuted right-hand side of solveDep
	// pivotCol pairs each row of the partition with the column its step of the
	// rank-revealing LU pivoted on (row → dependent coordinate), for prepareDep.
	pivotCol map[int]int
}

func newSparseInit(sys System, se SparseEvaluator, nq, nc int) (*sparseInit, error) {
	s := newSparseG(sys, se, nq, nc)
	if nc == 0 {
		return s, nil
	}
	pattern := make([][]int, nc)
	for i := range nc {
		pattern[i] = s.gcsr.Row(i)
	}
	var err error
	if s.rank, err = linalg.NewSparseRankLU(nc, nq, pattern); err != nil {
		return nil, fmt.Errorf("dae: initialize: the constraint pattern of %T: %w", se, err)
	}
	return s, nil
}

// newSparseG is a sparseInit that holds G alone, on its pattern, without the
// factorization's symbolic analysis: for eval and row only (Satisfied).
func newSparseG(sys System, se SparseEvaluator, nq, nc int) *sparseInit {
	s := &sparseInit{sys: sys, se: se, nq: nq, nc: nc, rankTol: defaultRankTol}
	if nc > 0 {
		s.gcsr = ConstraintCSR(se, nq, nc)
		s.gval = make([]float64, s.gcsr.NNZ())
	}
	return s
}

func (s *sparseInit) eval(t float64, q []float64) { s.se.ConstraintJacobianValues(s.gval, t, q) }

func (s *sparseInit) row(i int) ([]int, []float64) {
	lo, hi := s.gcsr.RowStart[i], s.gcsr.RowStart[i+1]
	return s.gcsr.Cols[lo:hi], s.gval[lo:hi]
}

// factorRank runs the rank-revealing LU on the current G with the given threshold, Keep
// columns and the rows outside only skipped (nil: every row).
func (s *sparseInit) factorRank(rankTol float64, keep []bool, only []int) error {
	copy(s.rank.Values(), s.gval)
	s.rank.Tol, s.rank.Keep, s.rank.Skip = rankTol, keep, nil
	if only != nil {
		s.rank.Skip = make([]bool, s.nc)
		for i := range s.rank.Skip {
			s.rank.Skip[i] = true
		}
		for _, i := range only {
			s.rank.Skip[i] = false
		}
	}
	return s.rank.Factorize()
}

// partition ranks G by linalg.SparseRankLU (Keep avoided where it can be) and then names
// as redundant, for each dependency, the row of highest index among those it involves
// (preferLaterRows), as a model lists a redundant joint after the joints it repeats.
func (s *sparseInit) partition(rankTol float64, keep []bool) (rows, redundant, dep []int, err error) {
	s.rankTol = rankTol
	if err := s.factorRank(rankTol, keep, nil); err != nil {
		return nil, nil, nil, fmt.Errorf("dae: initialize: G has a non-finite entry at the guess")
	}
	dep = slices.Sorted(slices.Values(s.rank.Cols()))
	steps, redundant := s.preferLaterRows()
	rows = slices.Sorted(slices.Values(steps))
	s.pivotCol = make(map[int]int, len(steps))
	for k, i := range steps {
		s.pivotCol[i] = s.rank.Cols()[k]
	}
	if len(redundant) > 0 && !slices.Equal(redundant, s.rank.Redundant()) {
		// The exchanges keep G[rows, dep] non-singular in exact arithmetic; keep them only
		// if its factorization agrees.
		if err := s.prepareDep(rows, dep); err != nil || s.factorDep() != nil {
			rows = slices.Sorted(slices.Values(s.rank.Rows()))
			redundant = slices.Clone(s.rank.Redundant())
		}
		s.lu, s.bsrc = nil, nil
	}
	return rows, redundant, dep, nil
}

// preferLaterRows exchanges each redundant row w for the row of highest index s > w that
// its combination Σ_k c_k G_{Rows_k} = G_w involves with a coefficient of at least 0.1 of
// the largest, when there is one and no earlier exchange took s: w and the other rows then
// span the same space (c_s ≠ 0), and B = G[rows, Cols] is multiplied by the identity with
// row s replaced by c, non-singular, its conditioning bounded through the 0.1 (the rows
// exchanged have comparable weight). The coefficients of later exchanges are those of the
// original rows; partition checks the result. It returns the rows in step order and the
// redundant rows, increasing.
func (s *sparseInit) preferLaterRows() (steps, redundant []int) {
	steps = slices.Clone(s.rank.Rows())
	cols := s.rank.Cols()
	taken := map[int]bool{}
	for _, w := range s.rank.Redundant() {
		c := make([]float64, len(cols))
		for k, j := range cols {
			if p := s.gcsr.Find(w, j); p >= 0 {
				c[k] = s.gval[p]
			}
		}
		s.rank.SolveTrans(c)
		var cmax float64
		for _, x := range c {
			cmax = max(cmax, math.Abs(x))
		}
		best := -1
		for k, x := range c {
			if r := s.rank.Rows()[k]; r > w && !taken[r] && math.Abs(x) >= 0.1*cmax && (best < 0 || r > s.rank.Rows()[best]) {
				best = k
			}
		}
		if best < 0 {
			redundant = append(redundant, w)
			continue
		}
		taken[steps[best]] = true
		redundant = append(redundant, steps[best])
		steps[best] = w
	}
	slices.Sort(redundant)
	return steps, redundant
}

// prepareDep analyses the pattern of G[rows, dep] once for the sparse LU that Newton
// refactorizes. Its rows are ordered so that row c has its nonzero on the diagonal where
// the rank-revealing LU's pivots give one (depOrder): SparseLU orders symmetrically by the
// pattern of A + Aᵀ, which follows the mechanism's topology only when row c and column c
// belong together. In row order, the 3 rows of a spherical joint and the 4 dependent
// coordinates of a body drift apart along a chain, and the factors of a 3D chain filled
// as N² (Initialize allocated 688 MB for 4000 rods, 230 MB with the pivots' order).
func (s *sparseInit) prepareDep(rows, dep []int) error {
	s.rows, s.dep = rows, dep
	if len(dep) == 0 {
		return nil
	}
	col := make([]int, s.nq) // col[j] = position of j in dep, −1 if independent
	for j := range col {
		col[j] = -1
	}
	for c, j := range dep {
		col[j] = c
	}
	s.luRow = s.depOrder(rows, col)
	s.pb = make([]float64, len(dep))
	s.bsrc = s.bsrc[:0]
	pattern := make([][]int, len(rows))
	for c, r := range s.luRow {
		i := rows[r]
		for t, j := range s.gcsr.Row(i) {
			if k := col[j]; k >= 0 {
				pattern[c] = append(pattern[c], k)
				s.bsrc = append(s.bsrc, s.gcsr.RowStart[i]+t)
			}
		}
	}
	var err error
	if s.lu, err = linalg.NewSparseLU(len(dep), pattern); err != nil {
		return fmt.Errorf("dae: initialize: G_red P̂: %w", err)
	}
	// One step of refinement: the dense LU it replaces is backward stable without, and
	// threshold pivoting (τ = 0.001) may leave a backward error of 1e-14 (SparseLU.Refine).
	s.lu.Refine = 1
	return nil
}

// depOrder returns the order of the rows of G[rows, dep] for its LU: luRow[c] is the
// position in rows of the row paired with dependent coordinate dep[c] by the
// rank-revealing LU's pivots (pivotCol), or rows' own order when a row has no pivot, its
// pivot is not among dep, or its pair is no structural nonzero (after preferLaterRows'
// exchanges).
func (s *sparseInit) depOrder(rows, col []int) []int {
	luRow := make([]int, len(rows))
	for r := range luRow {
		luRow[r] = r
	}
	paired := make([]int, len(rows))
	for c := range paired {
		paired[c] = -1
	}
	for r, i := range rows {
		j, ok := s.pivotCol[i]
		if !ok || col[j] < 0 || paired[col[j]] >= 0 || s.gcsr.Find(i, j) < 0 {
			return luRow
		}
		paired[col[j]] = r
	}
	return paired
}

func (s *sparseInit) factorDep() error {
	vals := s.lu.Values()
	for k, p := range s.bsrc {
		vals[k] = s.gval[p]
	}
	return s.lu.Factor()
}

// solveDep overwrites b (indexed as rows) with the solution of G[rows, dep] x = b (indexed
// as dep).
func (s *sparseInit) solveDep(b []float64) {
	for c, r := range s.luRow {
		s.pb[c] = b[r]
	}
	s.lu.Solve(s.pb)
	copy(b, s.pb)
}

func (s *sparseInit) rankRows(rows []int, rankTol float64) int {
	if len(rows) == 0 {
		return 0
	}
	if err := s.factorRank(rankTol, nil, rows); err != nil {
		return 0
	}
	return s.rank.Rank()
}

// combination solves Bᵀ c = G[w, Cols] with B = G[Rows, Cols], the block the rank-revealing
// LU of the rows alone picks: when G_w = Σ_k c_k G_{rows_k}, its entries on any
// non-singular column block give c.
func (s *sparseInit) combination(rows []int, w int) []int {
	if err := s.factorRank(s.rankTol, nil, rows); err != nil || s.rank.Rank() < len(rows) {
		return rows
	}
	cols := s.rank.Cols()
	c := make([]float64, len(cols))
	for k, j := range cols {
		if p := s.gcsr.Find(w, j); p >= 0 {
			c[k] = s.gval[p]
		}
	}
	s.rank.SolveTrans(c)
	// c[k] belongs to rank.Rows()[k], which are rows in increasing order.
	return significant(s.rank.Rows(), c)
}

// solve17 assembles K = [M G_redᵀ; G_red 0] on the patterns of M and of the rows of G
// and solves it by linalg.SparseLU: like the dense path's LU, threshold partial pivoting
// without regularization, so a singular K (M not positive definite on ker G) meets a zero
// pivot and is reported, where the regularized SparseKKT would return one of its
// solutions.
func (s *sparseInit) solve17(t float64, q []float64, rows []int, a, lred []float64) error {
	nq, nl := s.nq, len(rows)
	mcsr := MassCSR(s.se, nq)
	mval := make([]float64, mcsr.NNZ())
	s.se.MassValues(mval, t, q)
	for i := range nq {
		for p := mcsr.RowStart[i]; p < mcsr.RowStart[i+1]; p++ {
			if !finite(mval[p]) {
				return fmt.Errorf("dae: initialize: mass matrix entry (%s, %s) is %g at the consistent position",
					CoordinateName(s.sys, i), CoordinateName(s.sys, mcsr.Cols[p]), mval[p])
			}
		}
	}
	// Rows of K: row i < nq is row i of M then the entries G_red(r, i) at column nq + r
	// (increasing r keeps it sorted); row nq + r is row rows[r] of G. at[i] lists where
	// row i's entries sit in the values of K (rows one after another).
	pattern := make([][]int, nq+nl)
	for i := range nq {
		pattern[i] = slices.Clip(mcsr.Row(i))
	}
	for r, i := range rows {
		cols, _ := s.row(i)
		pattern[nq+r] = cols
		for _, j := range cols {
			pattern[j] = append(pattern[j], nq+r)
		}
	}
	lu, err := linalg.NewSparseLU(nq+nl, pattern)
	if err != nil {
		return fmt.Errorf("dae: initialize: the patterns of %T: %w", s.se, err)
	}
	start := make([]int, nq+nl+1)
	for i, p := range pattern {
		start[i+1] = start[i] + len(p)
	}
	k, next := lu.Values(), slices.Clone(start[:nq])
	for i := range nq {
		lo, hi := mcsr.RowStart[i], mcsr.RowStart[i+1]
		next[i] += copy(k[start[i]:], mval[lo:hi])
	}
	for r, i := range rows {
		cols, gv := s.row(i)
		copy(k[start[nq+r]:], gv)
		for t, j := range cols {
			k[next[j]] = gv[t]
			next[j]++
		}
	}
	if err := lu.Factor(); err != nil {
		return singular17(err)
	}
	// Two steps of refinement, at the cost of two solves: the dense LU this replaces has
	// partial pivoting (τ = 1), SparseLU's threshold pivoting (τ = 0.001) more growth.
	lu.Refine = 2
	b := append(slices.Clone(a), lred...)
	lu.Solve(b)
	copy(a, b[:nq])
	copy(lred, b[nq:])
	return nil
}
