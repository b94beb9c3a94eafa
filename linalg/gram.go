package linalg

import "math"

// PivotedGram is the diagonally pivoted Cholesky factorization P (A Aᵀ) Pᵀ = L D Lᵀ of the
// Gram matrix of the rows of an m×n matrix A (m ≤ n in use: A = G, m = nc). Each step
// pivots on the largest remaining diagonal of the Schur complement, which is the squared
// norm of the largest remaining column of Aᵀ after the earlier columns are projected out:
// the choice of the column-pivoted QR of Aᵀ (PivotedQR), so in exact arithmetic
// d_k = R_kk² and √(d_k/d_0) is that QR's pivot ratio. It costs the Gram product over A's
// nonzeros (a pass over A finds them) and m³/3 for the factorization, instead of the QR's
// ≈ 2nm², but squares the condition: d_k carries an absolute error of order m ε d_0, so a
// ratio √(d_k/d_0) is accurate to relative order m ε d_0/d_k and ratios below √(mε) are
// rounding (the rank test of a Newton failure decides at ratios ≫ √ε). Where columns of
// Aᵀ tie in norm, the two factorizations may break the tie differently and their later
// pivots then differ by more than rounding.
//
// Its storage (m² + 2m + 2mn numbers) is made by NewPivotedGram; Factorize allocates nothing.
type PivotedGram struct {
	m, n int
	g    []float64 // m×m row-major, lower triangle: A Aᵀ, then the Schur complements in place
	d    []float64 // pivots in the order taken, clamped at 0
	col  []float64 // the pivot column of a step of cholesky
	perm []int
	// A's nonzeros by columns: column j's rows and values at colStart[j]:colStart[j+1].
	colStart, colRows []int
	colVals           []float64
}

// NewPivotedGram returns storage for m×n matrices A.
func NewPivotedGram(m, n int) *PivotedGram {
	fl, in := make([]float64, m*m+2*m+m*n), make([]int, m+n+1+m*n)
	return &PivotedGram{m: m, n: n, g: fl[:m*m], d: fl[m*m : m*m+m], col: fl[m*m+m : m*m+2*m], colVals: fl[m*m+2*m:],
		perm: in[:m], colStart: in[m : m+n+1], colRows: in[m+n+1:]}
}

// Factorize forms A Aᵀ from A (row-major m×n, a[i*n+j] = A_ij) over its nonzeros and
// factorizes it with diagonal pivoting.
func (f *PivotedGram) Factorize(a []float64) {
	f.byColumns(a)
	clear(f.g)
	m := f.m
	for j := range f.n {
		rows, v := f.colRows[f.colStart[j]:f.colStart[j+1]], f.colVals[f.colStart[j]:f.colStart[j+1]]
		for p, i := range rows { // rows[b] ≥ i: the lower triangle, which is all cholesky reads
			for b := p; b < len(rows); b++ {
				f.g[rows[b]*m+i] += v[p] * v[b]
			}
		}
	}
	f.cholesky()
}

// byColumns copies A's nonzeros into the column lists, in row order within a column.
func (f *PivotedGram) byColumns(a []float64) {
	m, n := f.m, f.n
	clear(f.colStart)
	for i := range m {
		for j, x := range a[i*n : (i+1)*n] {
			if x != 0 {
				f.colStart[j+1]++
			}
		}
	}
	for j := range n {
		f.colStart[j+1] += f.colStart[j]
	}
	next := f.colStart[:n] // advanced while filling, restored below
	for i := range m {
		for j, x := range a[i*n : (i+1)*n] {
			if x != 0 {
				f.colRows[next[j]], f.colVals[next[j]] = i, x
				next[j]++
			}
		}
	}
	copy(f.colStart[1:], f.colStart[:n])
	f.colStart[0] = 0
}

// cholesky factorizes f.g's lower triangle in place by outer products, pivoting on the
// largest diagonal: the pivot's row and column are swapped into place, and the pivot
// column is copied out, so the updates run on contiguous rows.
func (f *PivotedGram) cholesky() {
	m, g, col := f.m, f.g, f.col
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
		for a := k + 1; a < m; a++ {
			col[a] = g[a*m+k]
		}
		for a := k + 1; a < m; a++ {
			lak := col[a] / dk
			if lak == 0 {
				continue
			}
			ga, ca := g[a*m+k+1:a*m+a+1], col[k+1:a+1]
			for c, x := range ca {
				ga[c] -= lak * x
			}
		}
	}
}

// swap exchanges rows and columns k < p of the symmetric f.g held in its lower triangle
// (and the permutation).
func (f *PivotedGram) swap(k, p int) {
	if k == p {
		return
	}
	m, g := f.m, f.g
	f.perm[k], f.perm[p] = f.perm[p], f.perm[k]
	for j := range k {
		g[k*m+j], g[p*m+j] = g[p*m+j], g[k*m+j]
	}
	g[k*m+k], g[p*m+p] = g[p*m+p], g[k*m+k]
	for j := k + 1; j < p; j++ {
		g[j*m+k], g[p*m+j] = g[p*m+j], g[j*m+k]
	}
	for j := p + 1; j < m; j++ {
		g[j*m+k], g[j*m+p] = g[j*m+p], g[j*m+k]
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
