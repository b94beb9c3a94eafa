package integrate

import (
	"fmt"

	"linkage/dae"
)

// semisparse.go: the first-order form (semiExplicit) on the sparse evaluation path: its
// residual by sparse mat-vecs and its Newton matrix c K − ∂φ/∂y written value by value
// into the pattern of newtonPattern, with the constraint rows' q- and v-derivatives from
// the constraint Hessians on G's pattern where the System has them
// (dae.SparseConstraintJacobianDerivative), else by central differences over groups of
// columns that share no constraint (Curtis, Powell & Reid 1974): a constraint row reads
// only its own coordinates, so a group's perturbation gives every entry of ∂c/∂q exactly
// as the column-by-column differences of the dense path do, at 2 evaluations per group
// instead of per column.

// mulG writes G x into dst (nc).
func (s *semiExplicit) mulG(dst, x []float64) {
	if s.sp == nil {
		for i := range dst {
			dst[i] = dotRow(s.G, i, x)
		}
		return
	}
	s.sp.mulG(dst, x)
}

// addGT adds w·Gᵀx to dst.
func (s *semiExplicit) addGT(dst, x []float64, w float64) {
	if s.sp == nil {
		addGTx(dst, s.G, x, w)
		return
	}
	s.sp.addGTx(dst, x, w)
}

// subMass subtracts M a from dst, row by row.
func (s *semiExplicit) subMass(dst, a []float64) {
	if s.sp == nil {
		for i := range s.nq {
			var ma float64
			for j, mij := range s.M.RawRowView(i) {
				ma += mij * a[j]
			}
			dst[i] -= ma
		}
		return
	}
	p, m := &s.sp.mass, s.sp.M
	for i := range s.nq {
		lo, hi := p.RowStart[i], p.RowStart[i+1]
		var ma float64
		for t, j := range p.Cols[lo:hi] {
			ma += m[lo+t] * a[j]
		}
		dst[i] -= ma
	}
}

// semiScatter places the blocks of ∂φ/∂y in the values of the Newton pattern k (by the
// block rows of newtonPattern) and groups the columns for the differenced constraint rows.
type semiScatter struct {
	qv, va, diag []int // identities q→v, v→a; the diagonal of the differential rows
	cQQ, gtQMu   []int // GGL: (Gᵀμ)_q, Gᵀ on μ
	cAQ, cAV     []int // dynamics rows: coupling on q and on v
	mAA, gtAL    []int // M on a, Gᵀ on λ
	gLQ, gLV     []int // constraint rows: G's pattern on q, on v
	gLA, gMuQ    []int // G on a; the μ rows' G on q (holonomic rows: G's first values)
	muPf         []int // the μ rows of Pfaffian rows: their diagonal (μ = 0)
	groups       [][]int
	byCol        [][]int // per column, the positions in G's values of its entries
	posRow       []int   // per position in G's values, its row
}

// sparseNewtonFactor returns the sparse LU of the Newton matrices on the sparse path,
// filled by newtonValues on newtonPattern, that factorizes them with the accelerations
// eliminated (velelim.go), and sets up the maps into its values.
func (s *semiExplicit) sparseNewtonFactor() *newtonFactor {
	pattern := s.newtonPattern()
	x, lu, err := newRealEliminated(s.n, pattern, s.eliminationStages())
	if err != nil {
		panic(fmt.Sprintf("integrate: bad Newton matrix pattern: %v", err))
	}
	csr := dae.NewCSR(pattern, s.n, s.n, false)
	s.spx = newSemiScatter(s, &csr)
	// The full pattern is kept by no one after this: the regularization rebuilds it.
	return &newtonFactor{elim: x, elimLU: lu, repattern: s.newtonPattern}
}

func newSemiScatter(s *semiExplicit, k *dae.CSR) *semiScatter {
	sp, nq := s.sp, s.nq
	ident := func(r0, c0 int) []int {
		idx := make([]int, nq)
		for i := range nq {
			idx[i] = k.Find(r0+i, c0+i)
		}
		return idx
	}
	x := &semiScatter{qv: ident(s.iq(), s.iv()), va: ident(s.iv(), s.ia())}
	x.diag = append(ident(s.iq(), s.iq()), ident(s.iv(), s.iv())...)
	x.cAQ = scatterMap(k, &sp.coup, s.ia(), s.iq(), false)
	x.cAV = scatterMap(k, &sp.coup, s.ia(), s.iv(), false)
	x.mAA = scatterMap(k, &sp.mass, s.ia(), s.ia(), false)
	if s.nc == 0 {
		return x
	}
	x.gtAL = scatterMap(k, &sp.con, s.ia(), s.il(), true)
	x.gLQ = scatterMap(k, &sp.con, s.il(), s.iq(), false)
	x.gLV = scatterMap(k, &sp.con, s.il(), s.iv(), false)
	x.gLA = scatterMap(k, &sp.con, s.il(), s.ia(), false)
	if s.hasMu {
		x.cQQ = scatterMap(k, &sp.coup, s.iq(), s.iq(), false)
		x.gtQMu = scatterMap(k, &sp.con, s.iq(), s.imu(), true)
		nnz := sp.con.RowStart[s.ncH] // G's values of the holonomic rows come first
		hol := dae.CSR{NRows: s.ncH, NCols: nq, RowStart: sp.con.RowStart[:s.ncH+1], Cols: sp.con.Cols[:nnz]}
		x.gMuQ = scatterMap(k, &hol, s.imu(), s.iq(), false)
		for r := s.ncH; r < s.nc; r++ {
			x.muPf = append(x.muPf, k.Find(s.imu()+r, s.imu()+r))
		}
	}
	x.byCol, x.posRow, x.groups = differenceIndex(&sp.con, nq)
	return x
}

// differenceIndex returns, for the constraint pattern p (nc×ncol), the value positions of
// each column (byCol), the row of each value position (posRow) and the groups of columns
// that share no row (columnGroups): what the grouped differences of the constraint rows
// need.
func differenceIndex(p *dae.CSR, ncol int) (byCol [][]int, posRow []int, groups [][]int) {
	byCol, posRow = make([][]int, ncol), make([]int, p.NNZ())
	for i := range p.NRows {
		for t, j := range p.Row(i) {
			byCol[j] = append(byCol[j], p.RowStart[i]+t)
			posRow[p.RowStart[i]+t] = i
		}
	}
	return byCol, posRow, columnGroups(p, ncol)
}

// columnGroups colors the columns of pattern p greedily so that no two columns of a group
// share a row.
func columnGroups(p *dae.CSR, ncol int) [][]int {
	byCol := make([][]int, ncol) // rows of each column
	for i := range p.NRows {
		for _, j := range p.Row(i) {
			byCol[j] = append(byCol[j], i)
		}
	}
	rowUsed := make([][]bool, 0) // rowUsed[g][i]: group g holds a column of row i
	var groups [][]int
	for j := range ncol {
		g := 0
		for ; g < len(groups); g++ {
			free := true
			for _, i := range byCol[j] {
				if rowUsed[g][i] {
					free = false
					break
				}
			}
			if free {
				break
			}
		}
		if g == len(groups) {
			groups = append(groups, nil)
			rowUsed = append(rowUsed, make([]bool, p.NRows))
		}
		groups[g] = append(groups[g], j)
		for _, i := range byCol[j] {
			rowUsed[g][i] = true
		}
	}
	return groups
}

// newtonValues writes c K − ∂φ/∂y at (t, y) into the values K of the Newton pattern: the
// dense jacobian's terms in the same order, negated, then c on the differential diagonal.
func (s *semiExplicit) newtonValues(K []float64, c, t float64, y []float64) {
	q, v, a, lambda, mu := s.blocks(y)
	sp, x, se := s.sp, s.spx, s.sp.se
	clear(K)
	s.evalMG(t, q)
	for i := range s.nq {
		K[x.qv[i]] -= 1
		K[x.va[i]] -= 1
	}
	if s.hasMu && s.nc > 0 {
		se.ConstraintForceDerivativeValues(sp.C, t, q, mu)
		scatterAdd(K, x.cQQ, sp.C, 1)
		scatterAdd(K, x.gtQMu, sp.G, 1)
	}
	se.ForceDerivativeQValues(sp.C, t, q, v)
	scatterAdd(K, x.cAQ, sp.C, -1)
	if sp.massDerivative(t, q, a) {
		scatterAdd(K, x.cAQ, sp.C, 1)
	}
	if s.nc > 0 {
		se.ConstraintForceDerivativeValues(sp.C, t, q, lambda)
		scatterAdd(K, x.cAQ, sp.C, 1)
	}
	se.ForceDerivativeVValues(sp.C, t, q, v)
	scatterAdd(K, x.cAV, sp.C, -1)
	scatterAdd(K, x.mAA, sp.M, 1)
	if s.nc > 0 {
		scatterAdd(K, x.gtAL, sp.G, 1)
		if s.rx != nil {
			s.rx.derivatives(t, q, v, lambda)
			s.rx.addSparse(K, x.cAQ, x.cAV, x.gtAL, -1, -1, -1)
		}
		s.constraintValues(K, t, q, v, a)
		if s.hasMu {
			scatterAdd(K, x.gMuQ, sp.G, -1)
			for _, d := range x.muPf {
				K[d] -= 1
			}
		}
	}
	for _, d := range x.diag {
		K[d] += c
	}
}

// constraintValues writes −∂c/∂(q, v, a) of the formulation's constraint rows into K
// (constraintJacobian on the sparse path; G holds G(t, q)).
func (s *semiExplicit) constraintValues(K []float64, t float64, q, v, a []float64) {
	sp, x := s.sp, s.spx
	if s.form == Index3 {
		scatterAdd(K, x.gLQ, sp.G, -1)
		return
	}
	if s.sec != nil {
		s.analyticConstraintValues(K, t, q, v, a)
		return
	}
	s.differenceRows(K, x.gLQ, t, q, v, a, true)
	sp.evalG(t, q)
	switch s.form {
	case Index2, StabilizedIndex2, Index2Baumgarte:
		scatterAdd(K, x.gLV, sp.G, -1)
	case Index1, Baumgarte:
		s.differenceRows(K, x.gLV, t, q, v, a, false)
		scatterAdd(K, x.gLA, sp.G, -1)
	}
}

// analyticConstraintValues writes −∂c/∂(q, v, a) of the formulation's constraint rows
// into K from ∂(G v)/∂q + G_t = −γ_v/2 on G's pattern (dae.SparseConstraintJacobianDerivative),
// as analyticConstraintRow does on the dense path:
//
//	index2, ggl        ∂/∂q = ∂(G v)/∂q + G_t               ∂/∂v = G
//	index2-baumgarte   ∂/∂q = ∂(G v)/∂q + G_t + α₀ G        ∂/∂v = G
//	index1             ∂/∂q differenced                     ∂/∂v = 2(∂(G v)/∂q + G_t)
//	baumgarte          ∂/∂q differenced                     ∂/∂v = 2(∂(G v)/∂q + G_t) + 2α G
//
// and ∂/∂a = G for the acceleration forms. The acceleration forms' ∂/∂q holds γ_q, whose
// analytic form needs the constraints' third derivatives: it stays differenced.
func (s *semiExplicit) analyticConstraintValues(K []float64, t float64, q, v, a []float64) {
	sp, x := s.sp, s.spx
	s.sec.ConstraintJacobianDerivativeValues(s.dGv, t, q, v)
	s.sec.ConstraintJacobianTimeDerivativeValues(s.gT, t, q)
	switch s.form {
	case Index2, StabilizedIndex2, Index2Baumgarte:
		scatterAdd(K, x.gLQ, s.dGv, -1)
		scatterAdd(K, x.gLQ, s.gT, -1)
		if s.form == Index2Baumgarte {
			scatterAdd(K, x.gLQ, sp.G, -s.alpha0)
		}
		scatterAdd(K, x.gLV, sp.G, -1)
	case Index1, Baumgarte:
		s.differenceRows(K, x.gLQ, t, q, v, a, true)
		sp.evalG(t, q)
		scatterAdd(K, x.gLV, s.dGv, -2)
		scatterAdd(K, x.gLV, s.gT, -2)
		if s.form == Baumgarte {
			scatterAdd(K, x.gLV, sp.G, -2*s.baumAlpha)
		}
		scatterAdd(K, x.gLA, sp.G, -1)
	}
}

// differenceRows writes −∂c/∂q (inQ) or −∂c/∂v of the constraint rows at the positions
// idx (aligned with G's values) by central differences, one group of columns at a time.
func (s *semiExplicit) differenceRows(K []float64, idx []int, t float64, q, v, a []float64, inQ bool) {
	x, sp := s.spx, s.sp
	base := v
	if inQ {
		base = q
	}
	row := func(dst []float64) {
		if inQ {
			sp.evalG(t, s.qp)
			s.constraintRow(dst, t, s.qp, v, a, nil)
		} else {
			s.constraintRow(dst, t, q, s.qp, a, nil)
		}
	}
	d := groupedDiff{x.groups, x.byCol, x.posRow}
	d.central(base, s.qp, s.cp, s.cm, row, func(pos int, dc float64) { K[idx[pos]] = -dc })
	s.rowEvals += 2 * len(x.groups)
}

// groupedDiff differentiates constraint rows over groups of columns that share no row
// (Curtis, Powell & Reid 1974): the value positions of each column (byCol) on the
// constraint pattern, the row of each position (posRow) and the groups (columnGroups).
type groupedDiff struct {
	groups, byCol [][]int
	posRow        []int
}

// central perturbs base by ±dae.FDStep one group at a time in pert (length of base; left
// equal to base), evaluates the rows by eval into fp and fm, and hands every entry's
// central difference ∂row_i/∂x_j to store by its value position.
func (d groupedDiff) central(base, pert, fp, fm []float64, eval func(out []float64), store func(pos int, dx float64)) {
	copy(pert, base)
	for _, group := range d.groups {
		for _, j := range group {
			pert[j] = base[j] + dae.FDStep(base[j])
		}
		eval(fp)
		for _, j := range group {
			pert[j] = base[j] - dae.FDStep(base[j])
		}
		eval(fm)
		for _, j := range group {
			pert[j] = base[j]
			h := dae.FDStep(base[j])
			for _, pos := range d.byCol[j] {
				i := d.posRow[pos]
				store(pos, (fp[i]-fm[i])/(2*h))
			}
		}
	}
}
