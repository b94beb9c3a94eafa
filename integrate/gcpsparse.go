package integrate

import (
	"fmt"
	"math"
	"slices"

	"linkage/dae"
	"linkage/linalg"
)

// gcpsparse.go: the recovery of the dependent quantities of coordinate partitioning (seed
// 000, eqs. 7-8, 11-13, 31, 37-39) on the sparse evaluation path (issue 15, item 3), for a
// dae.SparseEvaluator large enough for the sparse solvers. Nothing of size nq×nq, nc×nq or
// nc×nd is stored:
//
//   - the partition (eqs. 7-8) is the pivot columns of linalg.SparseRankLU on G's
//     pattern (the dense path takes the same for systems that declare their patterns, so
//     that both paths partition alike; gcpCore.partition);
//   - G_u is factorized by linalg.SparseLU on G's pattern restricted to the dependent
//     columns (symbolic analysis once per partition);
//   - H = −G_u⁻¹ G_v (eq. 31) is never formed: qDep' = −G_u⁻¹ (G_v qInd' + g_t) (eqs. 12,
//     37), and max|H_ij|, which the re-partition rule watches, is computed column by column
//     (nd solves, O(nc) memory) only where it is read, at an accepted state (hMax);
//   - eq. 39 is solved as the KKT system [M Gᵀ; G 0] [q”; λ] = [f; γ] (eq17), equivalent
//     because Z = [H; I] spans ker G: its solution satisfies G q” = γ, i.e. eq. 37, and
//     Zᵀ(M q” − f) = −Zᵀ Gᵀ λ = 0, i.e. eq. 39, with λ that of eq. 38.
//
// A re-partition builds the new patterns and their symbolic analyses (it allocates; a step
// without one allocates nothing). gcp-abm runs on it as it is; gcp-newmark and gcp-fv also solve with the Newton matrix of
// eq. 29 through an augmented sparse system (gcpSparseNewton).
type gcpSparse struct {
	e17           *eq17            // eq. 39 as a KKT system
	sp            *sparseEval      // = e17.sp: M and G as pattern values
	gu, guT       *linalg.SparseLU // G_u and G_uᵀ (eq. 38; SparseLU has no transposed solve)
	guSrc, guTSrc []int            // the positions in sp.G of their values
	newton        *gcpSparseNewton // eq. 29 (gcp-newmark, gcp-fv), nil until the first Jacobian
	ex            []float64        // nq

	// G by columns: column j's entries are colRow[colStart[j]:colStart[j+1]] with their
	// positions in sp.G at colPos.
	colStart, colRow, colPos []int
	x                        []float64 // nc
}

// newGCPSparse returns the sparse path for sys, or nil when sys is not a
// dae.SparseEvaluator large enough for it (newSparseEval; with coupling, the Newton
// matrix of gcp-newmark and gcp-fv, it must declare its coupling pattern).
func newGCPSparse(sys dae.System, coupling bool) *gcpSparse {
	sp := newSparseEval(sys, coupling)
	if sp == nil || sp.nc == 0 {
		return nil
	}
	e := &eq17{sys: sys, sp: sp, kkt: newSaddlePoint(sys)}
	s := &gcpSparse{e17: e, sp: sp, x: make([]float64, sp.nc), ex: make([]float64, sp.nq)}
	con := &s.sp.con
	s.colStart = make([]int, con.NCols+1)
	for _, j := range con.Cols {
		s.colStart[j+1]++
	}
	for j := range con.NCols {
		s.colStart[j+1] += s.colStart[j]
	}
	s.colRow, s.colPos = make([]int, con.NNZ()), make([]int, con.NNZ())
	next := slices.Clone(s.colStart[:con.NCols])
	for i := range con.NRows {
		for t, j := range con.Row(i) {
			s.colRow[next[j]] = i
			s.colPos[next[j]] = con.RowStart[i] + t
			next[j]++
		}
	}
	return s
}

// setPartition builds G_u's pattern (G's rows restricted to the dependent columns dep,
// numbered by inDep), that of G_uᵀ and their sparse LUs for a new partition.
func (s *gcpSparse) setPartition(inDep, dep []int) error {
	con := &s.sp.con
	pattern := make([][]int, con.NRows)
	s.guSrc = s.guSrc[:0]
	for i := range con.NRows {
		for t, j := range con.Row(i) {
			if k := inDep[j]; k >= 0 {
				pattern[i] = append(pattern[i], k) // increasing: inDep increases with j
				s.guSrc = append(s.guSrc, con.RowStart[i]+t)
			}
		}
	}
	gu, err := linalg.NewSparseLU(con.NRows, pattern)
	if err != nil {
		return fmt.Errorf("dependent block G_u (eq. 8): %w", err)
	}
	// G_uᵀ: row k lists the constraints whose rows hold dependent coordinate k.
	nc := con.NRows
	tpat := make([][]int, nc)
	s.guTSrc = s.guTSrc[:0]
	for k := range nc {
		for p := s.colStart[dep[k]]; p < s.colStart[dep[k]+1]; p++ {
			tpat[k] = append(tpat[k], s.colRow[p]) // increasing: colRow is by row within a column
			s.guTSrc = append(s.guTSrc, s.colPos[p])
		}
	}
	guT, err := linalg.NewSparseLU(nc, tpat)
	if err != nil {
		return fmt.Errorf("dependent block G_u (eq. 8), transposed: %w", err)
	}
	s.gu, s.guT, s.newton = gu, guT, nil
	return nil
}

// factorGu gathers G_u from G's values and factorizes it.
func (s *gcpSparse) factorGu() error {
	v := s.gu.Values()
	for t, p := range s.guSrc {
		v[t] = s.sp.G[p]
	}
	return s.gu.Factor()
}

// positionsSparse is positions on the sparse path: Newton's method on g(t, qDep, qInd) =
// 0 with G_u (eq. 11).
func (cs *gcpCore) positionsSparse(t float64, q []float64) error {
	s := cs.sparse
	for it := 1; ; it++ {
		cs.sys.Constraint(cs.g, t, q)
		s.sp.evalG(t, q)
		cs.stats.Factorizations++
		if err := s.factorGu(); err != nil {
			return cs.guFailure(err)
		}
		s.gu.Solve(cs.g)
		cs.stats.Solves++
		if done, err := cs.applyPositionStep(it, t, q); done || err != nil {
			return err
		}
	}
}

// guFailure names a failed factorization of G_u: non-finite G or a singular block.
func (cs *gcpCore) guFailure(err error) error {
	if !allFinite(cs.sparse.sp.G) {
		cs.worst = Residual{Block: "constraint Jacobian", Value: math.NaN()}
		return ErrNonFinite
	}
	cs.worst = Residual{Block: "dependent block G_u (eq. 8)"}
	return err
}

// velocitiesSparse is velocities on the sparse path: qDep' = −G_u⁻¹ (G_v qInd' + g_t)
// (eqs. 12, 37), with G and G_u as left by positionsSparse. max|H_ij| is left to hMax.
func (cs *gcpCore) velocitiesSparse(t float64, q, v []float64) {
	s := cs.sparse
	cs.sys.ConstraintTimeDerivative(cs.gt, t, q)
	cs.addGv(cs.gt, v)
	s.gu.Solve(cs.gt)
	cs.stats.Solves++
	for k, i := range cs.dep {
		v[i] = -cs.gt[k]
	}
}

// hMaxSparse returns max|H_ij| (eq. 31) with G_u as factorized by the last position
// recovery: column j of H is −G_u⁻¹ times column ind[j] of G, one solve each.
func (cs *gcpCore) hMaxSparse() float64 {
	s := cs.sparse
	var m float64
	for _, i := range cs.ind {
		clear(s.x)
		for p := s.colStart[i]; p < s.colStart[i+1]; p++ {
			s.x[s.colRow[p]] = -s.sp.G[s.colPos[p]]
		}
		s.gu.Solve(s.x)
		for _, x := range s.x {
			m = math.Max(m, math.Abs(x))
		}
	}
	cs.stats.Solves += cs.nd
	return m
}

// reducedAccelerationSparse solves eq. 39 as the KKT system [M Gᵀ; G 0] [a; λ] = [f; γ]
// (see gcpSparse) at (t, q, v), positions and velocities already recovered.
func (cs *gcpCore) reducedAccelerationSparse(t float64, q, v, a, lambda []float64) error {
	if err := cs.sparse.e17.solve(a, lambda, t, q, v, cs.stats); err != nil {
		cs.worst = Residual{Block: "KKT matrix of eq. 39 (M, G)"}
		if !allFinite(cs.sparse.sp.M) || !allFinite(cs.sparse.sp.G) {
			cs.worst.Value = math.NaN()
			return ErrNonFinite
		}
		return err
	}
	return cs.checkFinite(a, lambda, nil)
}

// gcpSparseNewton is the Newton matrix of eq. 29 on the sparse path, never formed as the
// nd×nd matrix Zᵀ X: Ψ_v” x = r is solved through the augmented system
//
//	[ S                   A_n        βh² M Ẽ   Gᵀ ] [y]   [r̃]
//	[ −γ_v                G_u        0         0  ] [n] = [0 ]
//	[ −(γ_q − (G q'')_q)  −½ γ_v Ẽ   G_u       0  ] [l]   [0 ]
//	[ G                   0          0         0  ] [μ]   [0 ]
//
// with S = M + βh² ((M q”)_q + (Gᵀλ)_q − f_q) − γh f_v, A_n = γh M Ẽ − ½βh² f_v Ẽ, Ẽ the
// embedding of the dependent rows and r̃ = r in the independent rows, 0 in the dependent
// ones; x = y_ind. It is eq. 29: G y = 0 makes y = Z x; the second and third rows are
// eqs. 34 and 33 (n = N x, l = L x, J = N/2), so that the first row is X x + Gᵀμ = r̃, and
// Zᵀ Gᵀ = 0 with Zᵀ r̃ = r leave Zᵀ X x = r. For gcp-fv (eq. 29 less eq. 40) l, its row,
// the M Ẽ terms and (Gᵀλ)_q drop out. The pattern depends on the partition: it is built
// (with the symbolic analysis of linalg.SparseLU) at the first Jacobian after a new one.
type gcpSparseNewton struct {
	fv             bool
	rc, rd, rb     int // first rows of the n, l and μ blocks (= their first columns)
	lu             *linalg.SparseLU
	csr            dae.CSR
	mY, mN, mL     []int     // mass values → S, γh M Ẽ, βh² M Ẽ (−1: none)
	cY, cN         []int     // coupling values → S, −½βh² f_v Ẽ
	gB, gT         []int     // G values → the G rows, Gᵀ
	gC, gD         []int     // G values on dependent columns → G_u in the n and l rows
	vC, vD, qD     []int     // γ_v → n rows, ½γ_v Ẽ → l rows, γ_q − (G a)_q → l rows
	gv, gq, ga, gs []float64 // γ_v, γ_q, (G a)_q on G's pattern; G at a perturbed q
	rhs            []float64
	qp, gp, gm     []float64 // difference workspace
	groups, byCol  [][]int
	posRow         []int
}

// newGCPSparseNewton builds the augmented pattern of eq. 29 for the partition of cs and
// the maps of the evaluator's values into it.
func newGCPSparseNewton(cs *gcpCore, fv bool) *gcpSparseNewton {
	sp, nq, nc := cs.sparse.sp, cs.nq, cs.nc
	x := &gcpSparseNewton{fv: fv, rc: nq, rd: nq + nc, rb: nq + 2*nc}
	if fv {
		x.rd, x.rb = -1, nq+nc
	}
	n := x.rb + nc
	rows := make([][]int, n)
	add := func(i, j int) {
		if i >= 0 && j >= 0 {
			rows[i] = append(rows[i], j)
		}
	}
	dep := func(j, off int) int { // column of dependent coordinate j in a block at off
		if k := cs.inDep[j]; k >= 0 && off >= 0 {
			return off + k
		}
		return -1
	}
	for _, p := range []*dae.CSR{&sp.mass, &sp.coup} {
		for i := range nq {
			for _, j := range p.Row(i) {
				add(i, j)
				add(i, dep(j, x.rc))
				if p == &sp.mass {
					add(i, dep(j, x.rd))
				}
			}
		}
	}
	for r := range nc {
		for _, j := range sp.con.Row(r) {
			add(x.rb+r, j)
			add(j, x.rb+r)
			add(x.rc+r, j)
			add(x.rc+r, dep(j, x.rc))
			if !fv {
				add(x.rd+r, j)
				add(x.rd+r, dep(j, x.rc))
				add(x.rd+r, dep(j, x.rd))
			}
		}
	}
	for i := range rows {
		slices.Sort(rows[i])
		rows[i] = slices.Compact(rows[i])
	}
	lu, err := linalg.NewSparseLU(n, rows)
	if err != nil {
		panic(fmt.Sprintf("integrate: %s: bad augmented Newton pattern: %v", cs.name, err))
	}
	x.lu, x.csr = lu, dae.NewCSR(rows, n, n, false)
	find := func(i, j int) int {
		if i < 0 || j < 0 {
			return -1
		}
		return x.csr.Find(i, j)
	}
	maps := func(p *dae.CSR, at func(i, j int) (int, int)) []int {
		idx := make([]int, p.NNZ())
		for i := range p.NRows {
			for t, j := range p.Row(i) {
				idx[p.RowStart[i]+t] = find(at(i, j))
			}
		}
		return idx
	}
	x.mY = maps(&sp.mass, func(i, j int) (int, int) { return i, j })
	x.mN = maps(&sp.mass, func(i, j int) (int, int) { return i, dep(j, x.rc) })
	x.mL = maps(&sp.mass, func(i, j int) (int, int) { return i, dep(j, x.rd) })
	x.cY = maps(&sp.coup, func(i, j int) (int, int) { return i, j })
	x.cN = maps(&sp.coup, func(i, j int) (int, int) { return i, dep(j, x.rc) })
	x.gB = maps(&sp.con, func(r, j int) (int, int) { return x.rb + r, j })
	x.gT = maps(&sp.con, func(r, j int) (int, int) { return j, x.rb + r })
	x.gC = maps(&sp.con, func(r, j int) (int, int) { return x.rc + r, dep(j, x.rc) })
	x.vC = maps(&sp.con, func(r, j int) (int, int) { return x.rc + r, j })
	if !fv {
		x.gD = maps(&sp.con, func(r, j int) (int, int) { return x.rd + r, dep(j, x.rd) })
		x.vD = maps(&sp.con, func(r, j int) (int, int) { return x.rd + r, dep(j, x.rc) })
		x.qD = maps(&sp.con, func(r, j int) (int, int) { return x.rd + r, j })
	}
	g := sp.con.NNZ()
	x.gv, x.gq, x.ga, x.gs = make([]float64, g), make([]float64, g), make([]float64, g), make([]float64, g)
	x.rhs = make([]float64, n)
	x.qp, x.gp, x.gm = make([]float64, nq), make([]float64, nc), make([]float64, nc)
	x.byCol, x.posRow, x.groups = differenceIndex(&sp.con, nq)
	return x
}

// scatterSome adds w·src[t] to dst[idx[t]] for every t with idx[t] ≥ 0.
func scatterSome(dst []float64, idx []int, src []float64, w float64) {
	for t, k := range idx {
		if k >= 0 {
			dst[k] += w * src[t]
		}
	}
}

// newtonMatrixSparse writes the augmented matrix of eq. 29 (gcpSparseNewton) at the
// iterate s, whose dependent quantities are current (M, G and G_u of its recovery), and
// factorizes it.
func (cs *gcpCore) newtonMatrixSparse(s *State, h, beta, gamma float64, fv bool) error {
	gs := cs.sparse
	if gs.newton == nil || gs.newton.fv != fv {
		gs.newton = newGCPSparseNewton(cs, fv)
	}
	x, sp, se := gs.newton, gs.sp, gs.sp.se
	t, q, v, a, lambda := s.T, s.Q, s.V, s.A, s.Lambda
	bh2, gh := beta*h*h, gamma*h
	K := x.lu.Values()
	clear(K)
	C := sp.C
	if sp.massDerivative(t, q, a) {
		scatterSome(K, x.cY, C, bh2)
	}
	if !fv {
		se.ConstraintForceDerivativeValues(C, t, q, lambda)
		scatterSome(K, x.cY, C, bh2)
	}
	se.ForceDerivativeQValues(C, t, q, v)
	scatterSome(K, x.cY, C, -bh2)
	se.ForceDerivativeVValues(C, t, q, v)
	scatterSome(K, x.cY, C, -gh)
	scatterSome(K, x.cN, C, -bh2/2)
	scatterSome(K, x.mY, sp.M, 1)
	scatterSome(K, x.gB, sp.G, 1)
	scatterSome(K, x.gT, sp.G, 1)
	scatterSome(K, x.gC, sp.G, 1)
	cs.gammaDifferences(x, t, q, v, a, fv)
	scatterSome(K, x.vC, x.gv, -1)
	if !fv {
		scatterSome(K, x.mN, sp.M, gh)
		scatterSome(K, x.mL, sp.M, bh2)
		scatterSome(K, x.gD, sp.G, 1)
		scatterSome(K, x.vD, x.gv, -0.5)
		scatterSome(K, x.qD, x.gq, -1)
	}
	return x.lu.Factor()
}

// gammaDifferences writes γ_v, and unless fv γ_q − (G a)_q, on G's pattern into x.gv and
// x.gq by central differences over groups of columns that share no constraint (each
// constraint row reads its own coordinates only; see semisparse.go), with G's values of
// the recovery left in sp.G.
func (cs *gcpCore) gammaDifferences(x *gcpSparseNewton, t float64, q, v, a []float64, fv bool) {
	sp := cs.sparse.sp
	d := groupedDiff{x.groups, x.byCol, x.posRow}
	diff := func(dst []float64, base []float64, eval func(out []float64)) {
		d.central(base, x.qp, x.gp, x.gm, eval, func(pos int, dx float64) { dst[pos] = dx })
		cs.stats.FDEvals += 2 * len(x.groups)
	}
	diff(x.gv, v, func(out []float64) { cs.sys.Gamma(out, t, q, x.qp) })
	if fv {
		return
	}
	diff(x.gq, q, func(out []float64) { cs.sys.Gamma(out, t, x.qp, v) })
	old := sp.swapG(x.gs) // keep G of the recovery
	diff(x.ga, q, func(out []float64) {
		sp.evalG(t, x.qp)
		sp.mulG(out, a)
	})
	sp.swapG(old)
	for k := range x.gq {
		x.gq[k] -= x.ga[k]
	}
}

// solveNewtonSparse overwrites r (length nd, the right side of eq. 30) with the solution
// of Ψ_v” x = r through the augmented system.
func (cs *gcpCore) solveNewtonSparse(r []float64) {
	x := cs.sparse.newton
	clear(x.rhs)
	for j, i := range cs.ind {
		x.rhs[i] = r[j]
	}
	x.lu.Solve(x.rhs)
	cs.stats.Solves++
	for j, i := range cs.ind {
		r[j] = x.rhs[i]
	}
}

// jacobianSparse is jacobian on the sparse path (gcpSparseNewton).
func (w *gcpWork) jacobianSparse(h float64) error {
	w.stats.Jacobians++
	w.stats.Factorizations++
	if err := w.cs.newtonMatrixSparse(&w.it, h, gcpBeta, gcpGamma, w.v == GCPFisetteVaneghem); err != nil {
		w.lad.worst = Residual{Block: "Newton matrix (eq. 29, augmented)"}
		if !allFinite(w.cs.sparse.newton.lu.Values()) {
			return ErrNonFinite
		}
		return err
	}
	return nil
}

// alphaDepSparse is alphaDep on the sparse path: M and f at (t, q, v) and α = G_u⁻¹ γ
// (eq. 37).
func (cs *gcpCore) alphaDepSparse(t float64, q, v []float64) {
	cs.sparse.sp.evalM(t, q)
	cs.sys.Force(cs.f, t, q, v)
	cs.stats.FuncEvals++
	cs.sys.Gamma(cs.alpha, t, q, v)
	cs.sparse.gu.Solve(cs.alpha)
	cs.stats.Solves++
}

// dependentAccelerationsSparse completes a: qDep” = α − G_u⁻¹ G_v qInd” (= H qInd” + α,
// eq. 37).
func (cs *gcpCore) dependentAccelerationsSparse(a []float64) {
	s := cs.sparse
	clear(s.x)
	cs.addGv(s.x, a)
	s.gu.Solve(s.x)
	cs.stats.Solves++
	for k, i := range cs.dep {
		a[i] = cs.alpha[k] - s.x[k]
	}
}

// multipliersSparse is multipliers on the sparse path: G_uᵀ λ = −(M a − f)_u (eq. 38) and
// Ψ = (M a − f + Gᵀλ)_v (eq. 20).
func (cs *gcpCore) multipliersSparse(a, lambda, psi []float64) error {
	s := cs.sparse
	for i := range cs.nq {
		cs.e[i] = -cs.f[i]
	}
	s.sp.addMul(cs.e, a)
	for k, i := range cs.dep {
		lambda[k] = -cs.e[i]
	}
	v := s.guT.Values()
	for t, p := range s.guTSrc {
		v[t] = s.sp.G[p]
	}
	cs.stats.Factorizations++
	if err := s.guT.Factor(); err != nil {
		return cs.guFailure(err)
	}
	s.guT.Solve(lambda)
	cs.stats.Solves++
	if psi != nil {
		copy(s.ex, cs.e)
		s.sp.addGTx(s.ex, lambda, 1)
		for j, i := range cs.ind {
			psi[j] = s.ex[i]
		}
	}
	return cs.checkFinite(a, lambda, psi)
}

// addGv adds G_v x_ind (G's independent columns times x's independent entries) to dst.
func (cs *gcpCore) addGv(dst, x []float64) {
	sp := cs.sparse.sp
	con := &sp.con
	for i := range con.NRows {
		r := dst[i]
		lo := con.RowStart[i]
		for k, j := range con.Row(i) {
			if cs.inDep[j] < 0 {
				r += sp.G[lo+k] * x[j]
			}
		}
		dst[i] = r
	}
}
