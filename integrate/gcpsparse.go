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
// gcp-abm runs on it; gcp-newmark and gcp-fv, whose Newton matrix (eq. 29) is built from
// H and dense second derivatives, keep the dense core (and its size limit gcpMaxCoords).
type gcpSparse struct {
	e17   *eq17       // eq. 39 as a KKT system
	sp    *sparseEval // = e17.sp: M and G as pattern values
	gu    *linalg.SparseLU
	guSrc []int // guSrc[t]: the position in sp.G of G_u's value t

	// G by columns: column j's entries are colRow[colStart[j]:colStart[j+1]] with their
	// positions in sp.G at colPos.
	colStart, colRow, colPos []int
	x                        []float64 // nc
}

// newGCPSparse returns the sparse path for sys, or nil when sys is not a
// dae.SparseEvaluator large enough for it (newSparseEval).
func newGCPSparse(sys dae.System) *gcpSparse {
	e := newEq17(sys)
	if e.sp == nil || e.sp.nc == 0 {
		return nil
	}
	s := &gcpSparse{e17: e, sp: e.sp, x: make([]float64, e.sp.nc)}
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

// setPartition builds G_u's pattern (G's rows restricted to the dependent columns,
// numbered by inDep) and its sparse LU for the partition in inDep.
func (s *gcpSparse) setPartition(inDep []int) error {
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
	s.gu = gu
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
	con := &s.sp.con
	for i := range con.NRows {
		r := cs.gt[i]
		lo := con.RowStart[i]
		for k, j := range con.Row(i) {
			if cs.inDep[j] < 0 {
				r += s.sp.G[lo+k] * v[j]
			}
		}
		cs.gt[i] = r
	}
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
