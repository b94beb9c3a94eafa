package dae

import (
	"errors"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"linkage/linalg"
)

// RankReport is the numerical rank of G(t, q) found by the pivoted QR factorization of Gᵀ
// that Initialize uses to find redundant rows (its step 1).
type RankReport struct {
	Rows, Rank int // number of constraint rows; numerical rank of G
	// Ratio is the smallest |R_kk| of the factorization over the largest: 0 for an exactly
	// dependent row, of the order of 1/cond(G) otherwise (1 without rows).
	Ratio float64
	// Dependent lists the rows beyond the rank (those the pivoting put last); Involved
	// those rows together with the rows whose gradients make theirs up (the rows
	// Initialize's report names for a redundant row), in increasing order.
	Dependent, Involved []int
}

// ConstraintRank returns the rank of G(t, q) with the relative threshold tol on
// |R_kk|/|R_00| and, when it is below the number of rows, the rows involved in the
// dependency. It allocates: a diagnosis, meant for failures (a mechanism at a singular
// position: a dead point, a toggle, a locked configuration).
//
// A SparseEvaluator with nq + nc ≥ 1000 (the size from which Initialize goes sparse) is
// ranked on G's pattern by linalg.SparseRankLU instead, in memory that grows with the
// nonzeros: tol is then its Tol (a row reduced against the rows taken before it is
// dependent when its entries are at most tol·max|G_ij|; tol ≤ 0 takes exact zeros only)
// and Ratio its SmallestRow. The rank and the rows involved are those of the QR; which of
// them is Dependent can differ (of a duplicated joint both name the copy).
func ConstraintRank(sys System, t float64, q []float64, tol float64) RankReport {
	nq, nc := sys.Size()
	if nc == 0 {
		return RankReport{Rows: nc, Ratio: 1}
	}
	if se, ok := sys.(SparseEvaluator); ok && nq+nc >= sparseInitMinSize {
		return constraintRankSparse(sys, se, t, q, tol)
	}
	return constraintRankDense(sys, t, q, tol)
}

// constraintRankDense is ConstraintRank by the pivoted QR of Gᵀ.
func constraintRankDense(sys System, t float64, q []float64, tol float64) RankReport {
	nq, nc := sys.Size()
	r := RankReport{Rows: nc, Ratio: 1}
	G := mat.NewDense(nc, nq, nil)
	sys.ConstraintJacobian(G, t, q)
	qr := linalg.NewPivotedQR(nq, nc)
	qr.Factorize(G, true)
	diag := qr.RDiag(nil)
	if len(diag) < nc || diag[0] == 0 {
		r.Ratio = 0 // more rows than coordinates, or G = 0: the rows cannot be independent
	} else {
		r.Ratio = diag[len(diag)-1] / diag[0]
	}
	r.Rank = qr.Rank(tol)
	perm := qr.Perm()
	independent := slices.Sorted(slices.Values(perm[:r.Rank]))
	r.Dependent = slices.Sorted(slices.Values(perm[r.Rank:]))
	involved := map[int]bool{}
	for _, w := range r.Dependent {
		involved[w] = true
	}
	if len(independent) > 0 && len(r.Dependent) > 0 {
		for _, used := range combinationRowsAll(G, independent, r.Dependent) {
			for _, i := range used {
				involved[i] = true
			}
		}
	}
	for i := range nc {
		if involved[i] {
			r.Involved = append(r.Involved, i)
		}
	}
	return r
}

// ConstraintOwner returns the element that owns constraint row i: the name
// ConstraintName gives the row up to its last '.', the convention of the modeling routes
// ("crankpin.x" and "crankpin.y" belong to the joint "crankpin", "drive.c" to the motion
// "drive"); the whole name when it has no '.'.
func ConstraintOwner(sys System, i int) string {
	name := ConstraintName(sys, i)
	if k := strings.LastIndexByte(name, '.'); k > 0 {
		return name[:k]
	}
	return name
}

// constraintRankSparse is ConstraintRank by linalg.SparseRankLU on G's pattern. Each
// dependent row w is a combination of rows taken before it; its coefficients over every
// independent row solve Bᵀ c = G[w, Cols] (those of rows taken after w vanish), and the
// rows with significant ones are involved.
func constraintRankSparse(sys System, se SparseEvaluator, t float64, q []float64, tol float64) RankReport {
	nq, nc := sys.Size()
	r := RankReport{Rows: nc, Ratio: 1}
	s, err := newSparseInit(sys, se, nq, nc)
	if err != nil {
		panic(err.Error()) // a malformed pattern: dae.CheckSparse's business
	}
	s.eval(t, q)
	if err := s.factorRank(max(tol, math.SmallestNonzeroFloat64), nil, nil); err != nil {
		r.Ratio = math.NaN() // a non-finite G: no rank to report
		return r
	}
	r.Rank, r.Ratio = s.rank.Rank(), s.rank.SmallestRow()
	r.Dependent = slices.Clone(s.rank.Redundant())
	involved := map[int]bool{}
	cols := s.rank.Cols()
	for _, w := range r.Dependent {
		involved[w] = true
		if len(cols) == 0 {
			continue
		}
		c := make([]float64, len(cols))
		for k, j := range cols {
			if p := s.gcsr.Find(w, j); p >= 0 {
				c[k] = s.gval[p]
			}
		}
		s.rank.SolveTrans(c)
		for _, i := range significant(s.rank.Rows(), c) {
			involved[i] = true
		}
	}
	for i := range nc {
		if involved[i] {
			r.Involved = append(r.Involved, i)
		}
	}
	return r
}

// combinationRowsAll is combinationRows for every dependent row w of deps with one
// factorization of the independent rows: the least-squares solves share A, and a passage
// of the IFToMM N four-bar (40 dependent rows of 242) is named in one solve instead of 40.
func combinationRowsAll(G *mat.Dense, rows, deps []int) [][]int {
	_, nq := G.Dims()
	A, B := mat.NewDense(nq, len(rows), nil), mat.NewDense(nq, len(deps), nil)
	for r, i := range rows {
		for j := range nq {
			A.Set(j, r, G.At(i, j))
		}
	}
	for k, w := range deps {
		for j := range nq {
			B.Set(j, k, G.At(w, j))
		}
	}
	out := make([][]int, len(deps))
	var c mat.Dense
	if err := c.Solve(A, B); err != nil && !errors.As(err, new(mat.Condition)) {
		for k := range out {
			out[k] = rows
		}
		return out
	}
	coef := make([]float64, len(rows))
	for k := range deps {
		for r := range rows {
			coef[r] = c.At(r, k)
		}
		out[k] = significant(rows, coef)
	}
	return out
}
