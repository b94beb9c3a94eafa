package linalg

import "math"

// PivotedGram is the diagonally pivoted Cholesky factorization P (A Aᵀ) Pᵀ = L D Lᵀ of the
// Gram matrix of the rows of a sparse m×n matrix A (m ≤ n in use: A = G, m = nc). Each
// step pivots on the largest remaining diagonal of the Schur complement, which is the
// squared norm of the largest remaining column of Aᵀ after the earlier columns are
// projected out: the choice of the column-pivoted QR of Aᵀ (PivotedQR), so in exact
// arithmetic d_k = R_kk² and √(d_k/d_0) is that QR's pivot ratio. It costs the Gram
// product over A's nonzeros and m³/3 for the factorization instead of the QR's ≈ 2nm²,
// but squares the condition: d_k carries an absolute error of order m ε d_0, so a ratio
// √(d_k/d_0) is accurate to relative order m ε d_0/d_k and ratios below √(mε) are
// rounding (the rank test of a Newton failure decides at ratios ≫ √ε).
//
// Storage is made at the first Factorize and reused: no allocation after it for the same
// number of nonzeros.
type PivotedGram struct {
	m, n int
	g    []float64 // m×m row-major: A Aᵀ, then the Schur complements in place
	d    []float64 // pivots in the order taken, clamped at 0
	perm []int
	// A by columns: colStart (n+1), and the rows and values of each column's nonzeros.
	colStart, colRows []int
	colVals           []float64
}

// NewPivotedGram returns storage for m×n matrices A.
func NewPivotedGram(m, n int) *PivotedGram {
	return &PivotedGram{m: m, n: n, g: make([]float64, m*m), d: make([]float64, m),
		perm: make([]int, m), colStart: make([]int, n+1)}
}

// Factorize forms A Aᵀ from A in compressed rows (row i's columns cols[rowStart[i]:
// rowStart[i+1]], values vals) and factorizes it with diagonal pivoting.
func (f *PivotedGram) Factorize(rowStart, cols []int, vals []float64) {
	f.byColumns(rowStart, cols, vals)
	clear(f.g)
	m := f.m
	for j := range f.n {
		rows, v := f.colRows[f.colStart[j]:f.colStart[j+1]], f.colVals[f.colStart[j]:f.colStart[j+1]]
		for a, i := range rows {
			for b := a; b < len(rows); b++ {
				f.g[i*m+rows[b]] += v[a] * v[b]
			}
		}
	}
	for i := range m { // the column lists are in row order: the sums filled the upper triangle
		for k := i + 1; k < m; k++ {
			f.g[k*m+i] = f.g[i*m+k]
		}
	}
	f.cholesky()
}

// byColumns copies A into the column lists, keeping exact zeros out.
func (f *PivotedGram) byColumns(rowStart, cols []int, vals []float64) {
	if cap(f.colRows) < len(cols) {
		f.colRows, f.colVals = make([]int, len(cols)), make([]float64, len(cols))
	}
	clear(f.colStart)
	for t, j := range cols {
		if vals[t] != 0 {
			f.colStart[j+1]++
		}
	}
	for j := range f.n {
		f.colStart[j+1] += f.colStart[j]
	}
	next := f.colStart[:f.n] // advanced while filling, restored below
	for i := range f.m {
		for t := rowStart[i]; t < rowStart[i+1]; t++ {
			if vals[t] != 0 {
				j := cols[t]
				f.colRows[next[j]], f.colVals[next[j]] = i, vals[t]
				next[j]++
			}
		}
	}
	for j := f.n; j > 0; j-- {
		f.colStart[j] = f.colStart[j-1]
	}
	f.colStart[0] = 0
}

// cholesky factorizes f.g in place by outer products, pivoting on the largest diagonal:
// the pivot's row and column are swapped into place, so the updates run on contiguous rows.
func (f *PivotedGram) cholesky() {
	m, g := f.m, f.g
	for i := range f.perm {
		f.perm[i] = i
	}
	for k := range m {
		p := k
		for i := k + 1; i < m; i++ {
			if g[i*m+i] > g[p*m+p] {
				p = i
			}
		}
		f.swap(k, p)
		dk := g[k*m+k]
		if !(dk > 0) {
			clear(f.d[k:]) // the rest of the Schur complement is rounding
			return
		}
		f.d[k] = dk
		gk := g[k*m+k+1 : (k+1)*m]
		for a := k + 1; a < m; a++ {
			lak := g[a*m+k] / dk
			if lak == 0 {
				continue
			}
			ga := g[a*m+k+1 : (a+1)*m]
			for c, x := range gk {
				ga[c] -= lak * x
			}
		}
	}
}

// swap exchanges rows and columns k and p of the symmetric f.g (and the permutation).
func (f *PivotedGram) swap(k, p int) {
	if k == p {
		return
	}
	m, g := f.m, f.g
	f.perm[k], f.perm[p] = f.perm[p], f.perm[k]
	for c := range m {
		g[k*m+c], g[p*m+c] = g[p*m+c], g[k*m+c]
	}
	for r := range m {
		g[r*m+k], g[r*m+p] = g[r*m+p], g[r*m+k]
	}
}

// Diag returns √d_k, the k-th pivot of the column-pivoted QR of Aᵀ (|R_kk|, PivotedQR.Diag).
func (f *PivotedGram) Diag(k int) float64 { return math.Sqrt(f.d[k]) }

// Rank returns the number of pivots √d_k > tol·√d_0 (PivotedQR.Rank).
func (f *PivotedGram) Rank(tol float64) int {
	if f.m == 0 || f.d[0] == 0 {
		return 0
	}
	r0, rank := f.Diag(0), 0
	for k := range f.m {
		if f.Diag(k) > tol*r0 {
			rank++
		}
	}
	return rank
}
