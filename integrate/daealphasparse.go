package integrate

import (
	"slices"

	"linkage/dae"
)

// daealphasparse.go: the DAE α-method on the sparse evaluation path (sparseEval): its
// Newton matrix of order 2nq + 2nc (DAEAlpha's factor) written value by value into a
// sparse LU, from M, G and the coupling quantities as pattern values, and the constraint
// rows' derivatives with respect to q (and v for index1-proj) by central differences over
// groups of columns that share no constraint, as semisparse.go does for the first-order
// form. No matrix of size nq×nq or nc×nq is stored; the CS matrix of the coordinate-split
// form factorizes Gᵀ from the same values (coordSplit.factorValues).

// daeAlphaSparse holds the positions of the evaluator's values in the Newton matrix.
type daeAlphaSparse struct {
	m00, m11           []int // M in the (q, q) and (v, v) blocks
	c00, c01, c10, c11 []int // coupling quantities in the four top-left blocks
	gt0, gt1           []int // Gᵀ in the ν and μ columns
	gt1r0              []int // index2 with λ-dependent forces: Gᵀ's pattern in rows 0.., μ columns (∂f_λ/∂μ)
	g2q, g2v, g3q      []int // G's pattern in the rows 2nq.. (q and v columns) and 2nq+nc.. (q)
	diag               []int // index1-proj: the −γ̂ I, β̂h I and μ identities, by block of nq, nq, nc
	byCol              [][]int
	posRow             []int
	groups             [][]int
	qp, cp, cm         []float64 // perturbed coordinates and rows
}

// daeAlphaPattern returns the Newton matrix's pattern on the unknowns (q, v, ν, μ), with
// A the mass and coupling patterns and G the constraint pattern (see factor):
//
//	index2, cs:   [A A Gᵀ 0; A A 0 Gᵀ; G G 0 0; G 0 0 0]
//	index1-proj:  [A A Gᵀ 0; I I 0 0;  G G 0 0; 0 0 0 I]
//
// With λ-dependent forces (reaction) index2's first block row has Gᵀ's pattern in the μ
// columns too (∂f_λ/∂λ · ∂λ/∂μ; DAEAlpha's reactionLambda).
func daeAlphaPattern(sp *sparseEval, proj, reaction bool) [][]int {
	nq, nc := sp.nq, sp.nc
	rows := make([][]int, 2*nq+2*nc)
	for i := range nq {
		a := append(append([]int(nil), sp.mass.Row(i)...), sp.coup.Row(i)...)
		for _, j := range a {
			rows[i] = append(rows[i], j, nq+j)
			if !proj {
				rows[nq+i] = append(rows[nq+i], j, nq+j)
			}
		}
		if proj {
			rows[nq+i] = append(rows[nq+i], i, nq+i)
		}
	}
	for k := range nc {
		for _, j := range sp.con.Row(k) {
			rows[j] = append(rows[j], 2*nq+k)
			rows[2*nq+k] = append(rows[2*nq+k], j, nq+j)
			if !proj {
				rows[nq+j] = append(rows[nq+j], 2*nq+nc+k)
				rows[2*nq+nc+k] = append(rows[2*nq+nc+k], j)
				if reaction {
					rows[j] = append(rows[j], 2*nq+nc+k)
				}
			}
		}
		if proj {
			rows[2*nq+nc+k] = append(rows[2*nq+nc+k], 2*nq+nc+k)
		}
	}
	for i := range rows {
		slices.Sort(rows[i])
		rows[i] = slices.Compact(rows[i])
	}
	return rows
}

// newDAEAlphaSparse sets up w's sparse Newton matrix and the maps into it.
func newDAEAlphaSparse(w *daeAlphaWork) *daeAlphaSparse {
	sp, nq, nc := w.sp, w.nq, w.nc
	w.lu = newSparseNewtonFactor(w.nx, daeAlphaPattern(sp, w.proj, w.rx != nil))
	k := &w.lu.csr
	x := &daeAlphaSparse{
		m00: scatterMap(k, &sp.mass, 0, 0, false),
		c00: scatterMap(k, &sp.coup, 0, 0, false),
		c01: scatterMap(k, &sp.coup, 0, nq, false),
		gt0: scatterMap(k, &sp.con, 0, 2*nq, true),
		g2q: scatterMap(k, &sp.con, 2*nq, 0, false),
		g2v: scatterMap(k, &sp.con, 2*nq, nq, false),
		qp:  make([]float64, nq), cp: make([]float64, nc), cm: make([]float64, nc),
	}
	if w.proj {
		for i := range nq {
			x.diag = append(x.diag, k.Find(nq+i, i))
		}
		for i := range nq {
			x.diag = append(x.diag, k.Find(nq+i, nq+i))
		}
		for i := range nc {
			x.diag = append(x.diag, k.Find(2*nq+nc+i, 2*nq+nc+i))
		}
	} else {
		x.m11 = scatterMap(k, &sp.mass, nq, nq, false)
		x.c10 = scatterMap(k, &sp.coup, nq, 0, false)
		x.c11 = scatterMap(k, &sp.coup, nq, nq, false)
		x.gt1 = scatterMap(k, &sp.con, nq, 2*nq+nc, true)
		x.g3q = scatterMap(k, &sp.con, 2*nq+nc, 0, false)
		if w.rx != nil {
			x.gt1r0 = scatterMap(k, &sp.con, 0, 2*nq+nc, true)
		}
	}
	x.byCol, x.posRow, x.groups = differenceIndex(&sp.con, nq)
	return x
}

// factorSparse is factor on the sparse path: the same terms written into the LU's values.
func (w *daeAlphaWork) factorSparse() error {
	sp, x, se := w.sp, w.spx, w.sp.se
	nq, nc, h := w.nq, w.nc, w.hTry
	t1 := w.cur.T + h
	q1, v1 := w.x[:nq], w.x[nq:2*nq]
	w.stats.Jacobians++
	K := w.lu.Values()
	clear(K)
	scatterAdd(K, x.m00, sp.M, 1) // M(q₁) is current from residual
	se.ForceDerivativeQValues(sp.C, t1, q1, v1)
	scatterAdd(K, x.c00, sp.C, -w.betaHat*h*h)
	if !w.proj {
		scatterAdd(K, x.c10, sp.C, -w.gammaHat*h)
	}
	se.ForceDerivativeVValues(sp.C, t1, q1, v1)
	scatterAdd(K, x.c01, sp.C, -w.betaHat*h*h)
	if !w.proj {
		scatterAdd(K, x.c11, sp.C, -w.gammaHat*h)
	}
	if sp.massDerivative(t1, q1, w.w1) {
		scatterAdd(K, x.c00, sp.C, 1)
	}
	if w.proj {
		for i := range nq {
			K[x.diag[i]] -= w.gammaHat
			K[x.diag[nq+i]] += w.betaHat * h
		}
		for i := range nc {
			K[x.diag[2*nq+i]] = 1
		}
	} else {
		scatterAdd(K, x.m11, sp.M, 1)
		if sp.massDerivative(t1, q1, w.w2) {
			scatterAdd(K, x.c10, sp.C, 1)
		}
	}
	if nc > 0 {
		if w.split == nil {
			se.ConstraintForceDerivativeValues(sp.C, t1, q1, w.x[2*nq:2*nq+nc])
			scatterAdd(K, x.c00, sp.C, 1)
			if !w.proj {
				se.ConstraintForceDerivativeValues(sp.C, t1, q1, w.x[2*nq+nc:])
				scatterAdd(K, x.c10, sp.C, 1)
			}
		}
		scatterAdd(K, x.gt0, sp.G, 1) // G(q₁) is current from residual
		if !w.proj {
			scatterAdd(K, x.gt1, sp.G, 1)
			scatterAdd(K, x.g2v, sp.G, 1)
			scatterAdd(K, x.g3q, sp.G, 1)
		}
		w.differenceRows(K, x.g2q, t1, q1, v1, true)
		if w.proj {
			w.differenceRows(K, x.g2v, t1, q1, v1, false)
		}
		sp.evalG(t1, q1) // the differences overwrote G
	}
	if w.rx != nil {
		w.rx.derivatives(t1, q1, v1, w.reactionLambda())
		bh2, s := w.betaHat*h*h, w.lambdaScale()
		if w.proj {
			w.rx.addSparse(K, x.c00, x.c01, x.gt0, -bh2, -bh2, -bh2*s)
		} else {
			w.rx.addSparse(K, x.c00, x.c01, x.gt1r0, -bh2, -bh2, -bh2*s)
			gh := w.gammaHat * h
			w.rx.addSparse(K, x.c10, x.c11, x.gt1, -gh, -gh, -gh*s)
		}
	}
	w.stats.Factorizations++
	return w.lu.Factor()
}

// constraintRow writes the rows 2nq.. of the residual at (q, v) into dst: G v + g_t
// (index2, cs) or G (q − q̂) − β̂h²γ (index1-proj); it evaluates G at q into the
// evaluator's values.
func (w *daeAlphaWork) constraintRow(dst []float64, t float64, q, v []float64) {
	w.sp.evalG(t, q)
	h := w.hTry
	if w.proj {
		w.sys.Gamma(dst, t, q, v)
		for k := range dst {
			dst[k] *= -w.betaHat * h * h
		}
		x := w.spx.qp // holds q − q̂ here: the caller perturbs a copy of q
		for i := range x {
			x[i] = q[i] - w.qHat[i]
		}
		w.sp.gxPlus(dst, x, dst)
		return
	}
	w.sys.ConstraintTimeDerivative(dst, t, q)
	w.sp.gxPlus(dst, v, dst)
}

// differenceRows writes ∂/∂q (inQ) or ∂/∂v of constraintRow at the positions idx (aligned
// with G's values) by central differences, one group of columns at a time: a constraint
// row reads only the coordinates of its own pattern, so a group's perturbation gives each
// entry exactly as column-by-column differences do (Curtis, Powell & Reid 1974).
func (w *daeAlphaWork) differenceRows(K []float64, idx []int, t float64, q, v []float64, inQ bool) {
	x := w.spx
	base := v
	if inQ {
		base = q
	}
	pert := w.mw2 // scratch: M w₂ is not needed once the residual is formed
	copy(pert, base)
	row := func(dst []float64) {
		if inQ {
			w.constraintRow(dst, t, pert, v)
		} else {
			w.constraintRow(dst, t, q, pert)
		}
	}
	for _, group := range x.groups {
		for _, j := range group {
			pert[j] = base[j] + dae.FDStep(base[j])
		}
		row(x.cp)
		for _, j := range group {
			pert[j] = base[j] - dae.FDStep(base[j])
		}
		row(x.cm)
		for _, j := range group {
			pert[j] = base[j]
			hj := dae.FDStep(base[j])
			for _, pos := range x.byCol[j] {
				i := x.posRow[pos]
				K[idx[pos]] += (x.cp[i] - x.cm[i]) / (2 * hj)
			}
		}
	}
	w.stats.FDEvals += 4 * len(x.groups) // G and g_t (or γ) at two points per group
}
