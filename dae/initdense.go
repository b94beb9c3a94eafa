package dae

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"linkage/linalg"
)

// denseInit is the dense algebra of Initialize: G as an nc×nq matrix, pivoted QR for the
// partition and the rank, LU of G_red P̂, least squares for combinations and the dense KKT
// matrix of eq. 17.
type denseInit struct {
	sys       System
	nq, nc    int
	G         *mat.Dense // nc×nq, the last Jacobian evaluated
	all       []int      // 0..nq−1: the columns of every row
	rows, dep []int
	lu        *linalg.LU // nλ×nλ: G_red P̂
}

func newDenseInit(sys System, nq, nc int) *denseInit {
	d := &denseInit{sys: sys, nq: nq, nc: nc, all: seq(nq)}
	if nc > 0 {
		d.G = mat.NewDense(nc, nq, nil)
	}
	return d
}

func (d *denseInit) eval(t float64, q []float64) { d.sys.ConstraintJacobian(d.G, t, q) }

func (d *denseInit) row(i int) ([]int, []float64) { return d.all, d.G.RawRowView(i) }

// partition ranks G by the pivoted QR factorization of Gᵀ (among rows of equal weight the
// pivoting keeps the one of lower index), then chooses the dependent columns
// (chooseDependent).
func (d *denseInit) partition(rankTol float64, keep []bool) (rows, redundant, dep []int, err error) {
	qr := linalg.NewPivotedQR(d.nq, d.nc)
	qr.Factorize(d.G, true)
	rank := qr.Rank(rankTol)
	perm := qr.Perm()
	rows = slices.Sorted(slices.Values(perm[:rank]))
	redundant = slices.Sorted(slices.Values(perm[rank:]))
	dep, err = d.chooseDependent(rows, rankTol, keep)
	return rows, redundant, dep, err
}

// chooseDependent picks nλ = len(rows) linearly independent columns of G_red: first by
// pivoted QR among the columns not in Keep; when those span fewer than nλ dimensions, the
// Keep columns are projected on the orthogonal complement of the chosen ones and a second
// pivoted QR completes the set.
func (d *denseInit) chooseDependent(rows []int, rankTol float64, keep []bool) ([]int, error) {
	nl := len(rows)
	if nl == 0 {
		return nil, nil
	}
	var free, kept []int
	for j := range d.nq {
		if keep[j] {
			kept = append(kept, j)
		} else {
			free = append(free, j)
		}
	}
	// The rank threshold is relative to the largest column of G_red, whichever group it
	// belongs to.
	var ref float64
	for j := range d.nq {
		var s float64
		for _, i := range rows {
			s += d.G.At(i, j) * d.G.At(i, j)
		}
		ref = math.Max(ref, math.Sqrt(s))
	}
	thresh := rankTol * ref

	dep := pickColumns(d.columns(rows, free), free, nl, thresh)
	if len(dep) < nl && len(kept) > 0 {
		B := d.columns(rows, kept)
		if len(dep) > 0 {
			projectOut(B, d.columns(rows, dep))
		}
		dep = append(dep, pickColumns(B, kept, nl-len(dep), thresh)...)
	}
	if len(dep) < nl {
		return nil, fmt.Errorf("dae: initialize: the %d independent constraint rows at the guess have only %d independent columns above RankTol = %g; G is too ill-conditioned to partition the coordinates",
			nl, len(dep), rankTol)
	}
	slices.Sort(dep)
	return dep, nil
}

// columns returns the nλ×len(cols) matrix of G_red restricted to cols.
func (d *denseInit) columns(rows, cols []int) *mat.Dense {
	if len(cols) == 0 {
		return nil
	}
	B := mat.NewDense(len(rows), len(cols), nil)
	for r, i := range rows {
		for c, j := range cols {
			B.Set(r, c, d.G.At(i, j))
		}
	}
	return B
}

// pickColumns returns at most n of cols whose columns of B are independent: the leading
// pivots of a pivoted QR of B with |R_kk| > thresh.
func pickColumns(B *mat.Dense, cols []int, n int, thresh float64) []int {
	if B == nil || n == 0 {
		return nil
	}
	r, c := B.Dims()
	qr := linalg.NewPivotedQR(r, c)
	qr.Factorize(B, false)
	diag := qr.RDiag(nil)
	var out []int
	for k, p := range qr.Perm()[:len(diag)] {
		if len(out) == n || diag[k] <= thresh {
			break
		}
		out = append(out, cols[p])
	}
	return out
}

// projectOut replaces B by (I − Q Qᵀ) B, where Q is an orthonormal basis of the columns
// of C (independent by construction).
func projectOut(B, C *mat.Dense) {
	var qr mat.QR
	qr.Factorize(C)
	var Q mat.Dense
	qr.QTo(&Q)
	_, k := C.Dims()
	Q1 := Q.Slice(0, Q.RawMatrix().Rows, 0, k)
	var QtB, P mat.Dense
	QtB.Mul(Q1.T(), B)
	P.Mul(Q1, &QtB)
	B.Sub(B, &P)
}

func (d *denseInit) prepareDep(rows, dep []int) error {
	d.rows, d.dep = rows, dep
	d.lu = linalg.NewLU(len(dep))
	return nil
}

// factorDep factorizes G_red P̂ from G.
func (d *denseInit) factorDep() error {
	K := d.lu.Matrix()
	for r, i := range d.rows {
		row := d.G.RawRowView(i)
		for c, j := range d.dep {
			K.Data[r*K.Stride+c] = row[j]
		}
	}
	return d.lu.Factor()
}

func (d *denseInit) solveDep(b []float64) { d.lu.Solve(b) }

// rankRows returns the numerical rank (RankTol) of the rows of G by pivoted QR.
func (d *denseInit) rankRows(rows []int, rankTol float64) int {
	if len(rows) == 0 {
		return 0
	}
	Gred := mat.NewDense(len(rows), d.nq, nil)
	for r, i := range rows {
		Gred.SetRow(r, d.G.RawRowView(i))
	}
	qr := linalg.NewPivotedQR(d.nq, len(rows))
	qr.Factorize(Gred, true)
	return qr.Rank(rankTol)
}

func (d *denseInit) combination(rows []int, w int) []int { return combinationRows(d.G, rows, w) }

// solve17 assembles M and the KKT matrix densely and solves it by LU.
// A system without rows that solves with M itself (MassSolver: the articulated-body
// recursion of a tree) takes M a = f from it at O(N), never forming M.
func (d *denseInit) solve17(t float64, q []float64, rows []int, a, lred []float64) error {
	nl := len(rows)
	if ms, ok := d.sys.(MassSolver); ok && nl == 0 {
		return massSolve17(ms, d.sys, t, q, a)
	}
	M := mat.NewDense(d.nq, d.nq, nil)
	d.sys.Mass(M, t, q)
	var Gred *mat.Dense
	if nl > 0 {
		Gred = mat.NewDense(nl, d.nq, nil)
		for r, i := range rows {
			Gred.SetRow(r, d.G.RawRowView(i))
		}
	}
	k := linalg.NewKKT(d.nq, nl)
	if err := k.Factorize(M, Gred, Gred, 0); err != nil {
		for i := range d.nq {
			for j := range d.nq {
				if !finite(M.At(i, j)) {
					return fmt.Errorf("dae: initialize: mass matrix entry (%s, %s) is %g at the consistent position",
						CoordinateName(d.sys, i), CoordinateName(d.sys, j), M.At(i, j))
				}
			}
		}
		return singular17(err)
	}
	k.Solve(a, lred)
	return nil
}

// massSolve17 overwrites a (holding f) with M⁻¹ f by ms; a non-finite acceleration means M
// is singular at q (a joint-coordinate tree at a singular configuration).
func massSolve17(ms MassSolver, sys System, t float64, q, a []float64) error {
	f := append([]float64(nil), a...)
	ms.MassSolve(a, t, q, f)
	for i, x := range a {
		if !finite(x) {
			return singular17(fmt.Errorf("the acceleration of coordinate %s by MassSolve is %g", CoordinateName(sys, i), x))
		}
	}
	return nil
}

// singular17 is the error of a singular matrix of eq. 17.
func singular17(err error) error {
	return fmt.Errorf("dae: initialize: the matrix [M Gᵀ; G 0] of eq. 17 is singular at the consistent position: M is not positive definite on ker G: %w", err)
}

// combinationRows returns the rows of G among rows whose gradients make up the gradient
// of row w: those with a coefficient that is not negligible in the least-squares solution
// c of G_rowsᵀ c = G_wᵀ (all of rows when the solve fails).
func combinationRows(G *mat.Dense, rows []int, w int) []int {
	_, nq := G.Dims()
	nl := len(rows)
	A := mat.NewDense(nq, nl, nil)
	for r, i := range rows {
		for j := range nq {
			A.Set(j, r, G.At(i, j))
		}
	}
	b := mat.NewVecDense(nq, append([]float64(nil), G.RawRowView(w)...))
	var c mat.VecDense
	if err := c.SolveVec(A, b); err != nil && !errors.As(err, new(mat.Condition)) {
		return rows
	}
	coef := make([]float64, nl)
	for r := range nl {
		coef[r] = c.AtVec(r)
	}
	return significant(rows, coef)
}

// significant returns the rows whose coefficient exceeds 1e-8 of the largest: smaller
// ones are rounding of the solve.
func significant(rows []int, coef []float64) []int {
	var cmax float64
	for _, c := range coef {
		cmax = math.Max(cmax, math.Abs(c))
	}
	var used []int
	for r, i := range rows {
		if math.Abs(coef[r]) > 1e-8*cmax {
			used = append(used, i)
		}
	}
	return used
}
