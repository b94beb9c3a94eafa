package linalg

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// FullPivLU is Gaussian elimination with complete (full) pivoting of an m×n matrix
// (m ≤ n),
//
//	P A Q = L U,
//
// with P a row and Q a column permutation, L unit lower triangular (m×m, |L_ij| ≤ 1) and
// U upper trapezoidal (m×n). At step k the entry of largest magnitude of the remaining
// block is moved to (k, k), so |U_kk| is the largest entry of the active block. Exact ties,
// which symmetric configurations produce, go to the last entry in row-major order: in
// planar body coordinates (x, y, θ per body) that keeps the joint angles of a chain of
// bars independent where the first entry would trade one for a translation (measured on
// the double pendulum of seed 000 at its horizontal start).
//
// Pivots below m·n·ε·max|A_ij| count as zero.
//
// For the constraint Jacobian G (nc×nq) of generalized coordinate partitioning (seed 000,
// eqs. 7-8; Wehage and Haug 1982) the first m columns of Q are the dependent coordinates u
// (their block G_u = A[:, Q[:m]] is nonsingular whenever A has full row rank) and the
// others the independent coordinates. For a square matrix FullPivLU also solves A x = b
// and Aᵀ x = b. All storage is owned by the FullPivLU: refactorizing a matrix of the same
// size and solving do not allocate.
type FullPivLU struct {
	m, n  int
	a     []float64 // row-major m×n: L below the diagonal, U on and above it
	rowP  []int     // rowP[k]: row of A in row k of P A
	colP  []int     // colP[k]: column of A in column k of A Q
	work  []float64 // length m
	rank  int
	first float64 // max_k |U_kk| (|U_00| is the largest entry of A)
	last  float64 // min_k |U_kk| over the pivots taken
	amax  float64 // max |A_ij| before elimination
	ok    bool
}

// NewFullPivLU returns storage for m×n matrices; it panics unless 0 < m ≤ n.
func NewFullPivLU(m, n int) *FullPivLU {
	if m <= 0 || m > n {
		panic(fmt.Sprintf("linalg: NewFullPivLU(%d, %d): want 0 < m <= n", m, n))
	}
	return &FullPivLU{m: m, n: n, a: make([]float64, m*n), rowP: make([]int, m), colP: make([]int, n), work: make([]float64, m)}
}

// Dims returns (m, n).
func (f *FullPivLU) Dims() (m, n int) { return f.m, f.n }

// Factorize computes P A Q = L U. A pivot at or below m·n·ε·max|A_ij| counts as zero:
// elimination stops there, Rank reports the number of pivots taken and the result is
// ErrSingular (rank deficient: redundant constraints at this configuration). NaN or Inf in
// A also gives ErrSingular.
func (f *FullPivLU) Factorize(A mat.Matrix) error {
	r, c := A.Dims()
	if r != f.m || c != f.n {
		panic(fmt.Sprintf("linalg: FullPivLU.Factorize: matrix is %d×%d, want %d×%d", r, c, f.m, f.n))
	}
	m, n := f.m, f.n
	f.amax = 0
	finite := true
	for i := range m {
		for j := range n {
			x := A.At(i, j)
			f.a[i*n+j] = x
			if math.IsNaN(x) || math.IsInf(x, 0) {
				finite = false
			}
			f.amax = math.Max(f.amax, math.Abs(x))
		}
		f.rowP[i] = i
	}
	for j := range n {
		f.colP[j] = j
	}
	f.rank, f.first, f.last, f.ok = 0, 0, 0, false
	if !finite {
		return ErrSingular
	}
	tiny := float64(m*n) * 0x1p-52 * f.amax
	for k := range m {
		// Largest remaining entry.
		pi, pj, best := k, k, -1.0
		for i := k; i < m; i++ {
			row := f.a[i*n : (i+1)*n]
			for j := k; j < n; j++ {
				if v := math.Abs(row[j]); v >= best {
					pi, pj, best = i, j, v
				}
			}
		}
		if best <= tiny {
			return ErrSingular
		}
		if pi != k {
			ri, rk := f.a[pi*n:(pi+1)*n], f.a[k*n:(k+1)*n]
			for j := range n {
				ri[j], rk[j] = rk[j], ri[j]
			}
			f.rowP[pi], f.rowP[k] = f.rowP[k], f.rowP[pi]
		}
		if pj != k {
			for i := range m {
				f.a[i*n+pj], f.a[i*n+k] = f.a[i*n+k], f.a[i*n+pj]
			}
			f.colP[pj], f.colP[k] = f.colP[k], f.colP[pj]
		}
		if k == 0 {
			f.first, f.last = best, best
		}
		f.first, f.last = math.Max(f.first, best), math.Min(f.last, best)
		f.rank = k + 1
		piv := f.a[k*n+k]
		rk := f.a[k*n : (k+1)*n]
		for i := k + 1; i < m; i++ {
			ri := f.a[i*n : (i+1)*n]
			l := ri[k] / piv
			ri[k] = l
			if l == 0 {
				continue
			}
			for j := k + 1; j < n; j++ {
				ri[j] -= l * rk[j]
			}
		}
	}
	f.ok = true
	return nil
}

// Rank returns the number of nonzero pivots of the last factorization.
func (f *FullPivLU) Rank() int { return f.rank }

// ColPerm returns the column permutation Q as a list: column k of A Q is column ColPerm()[k]
// of A. Its first m entries are the pivot columns (seed 000's dependent coordinates u). The
// slice is owned by the FullPivLU and changes with the next Factorize.
func (f *FullPivLU) ColPerm() []int { return f.colP }

// RowPerm returns the row permutation P as a list: row k of P A is row RowPerm()[k] of A.
func (f *FullPivLU) RowPerm() []int { return f.rowP }

// PivotRatio returns max_k |U_kk| / min_k |U_kk| over the pivots taken, a lower bound of the
// condition number of the pivot block A[:, Q[:m]] that full pivoting makes reliable in
// practice (Golub and Van Loan 2013, sec. 3.4.8; Higham 2002, sec. 9.1); +Inf when the
// factorization failed.
func (f *FullPivLU) PivotRatio() float64 {
	if f.rank == 0 || f.last == 0 {
		return math.Inf(1)
	}
	return f.first / f.last
}

// Solve overwrites b with A⁻¹ b for a square A (m = n). It panics if the last
// factorization failed or A is not square.
func (f *FullPivLU) Solve(b []float64) {
	f.checkSolve(b)
	m, n, y := f.m, f.n, f.work
	// P A Q = L U: A x = b ⇔ L U (Qᵀ x) = P b.
	for i := range m {
		y[i] = b[f.rowP[i]]
	}
	for i := range m {
		s := y[i]
		for j := range i {
			s -= f.a[i*n+j] * y[j]
		}
		y[i] = s
	}
	for i := m - 1; i >= 0; i-- {
		s := y[i]
		for j := i + 1; j < m; j++ {
			s -= f.a[i*n+j] * y[j]
		}
		y[i] = s / f.a[i*n+i]
	}
	for k := range m {
		b[f.colP[k]] = y[k]
	}
}

// SolveTrans overwrites b with A⁻ᵀ b for a square A (m = n). It panics if the last
// factorization failed or A is not square.
func (f *FullPivLU) SolveTrans(b []float64) {
	f.checkSolve(b)
	m, n, y := f.m, f.n, f.work
	// Aᵀ x = b ⇔ Uᵀ Lᵀ (P x) = Qᵀ b.
	for k := range m {
		y[k] = b[f.colP[k]]
	}
	for i := range m {
		s := y[i]
		for j := range i {
			s -= f.a[j*n+i] * y[j]
		}
		y[i] = s / f.a[i*n+i]
	}
	for i := m - 1; i >= 0; i-- {
		s := y[i]
		for j := i + 1; j < m; j++ {
			s -= f.a[j*n+i] * y[j]
		}
		y[i] = s
	}
	for i := range m {
		b[f.rowP[i]] = y[i]
	}
}

func (f *FullPivLU) checkSolve(b []float64) {
	if !f.ok {
		panic("linalg: FullPivLU.Solve without a successful factorization")
	}
	if f.m != f.n || len(b) != f.n {
		panic(fmt.Sprintf("linalg: FullPivLU.Solve: matrix %d×%d, len(b) = %d: want square and matching", f.m, f.n, len(b)))
	}
}
