package dae

import (
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
func ConstraintRank(sys System, t float64, q []float64, tol float64) RankReport {
	nq, nc := sys.Size()
	r := RankReport{Rows: nc, Ratio: 1}
	if nc == 0 {
		return r
	}
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
		if len(independent) > 0 {
			for _, i := range combinationRows(G, independent, w) {
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
