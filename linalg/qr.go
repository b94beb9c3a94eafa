package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// PivotedQR is the rank-revealing QR factorization with column pivoting A P = Q R
// (LAPACK dgeqp3). The diagonal of R decreases in magnitude, so the numerical rank is the
// number of |R_kk| above a tolerance, and the first rank columns of P are a set of
// linearly independent columns of A.
type PivotedQR struct {
	Rows, Cols int
	a          blas64.General
	tau, work  []float64
	jpvt       []int
}

// NewPivotedQR returns storage for m×n matrices.
func NewPivotedQR(m, n int) *PivotedQR {
	f := &PivotedQR{Rows: m, Cols: n,
		a:    blas64.General{Rows: m, Cols: n, Stride: n, Data: make([]float64, m*n)},
		tau:  make([]float64, min(m, n)),
		jpvt: make([]int, n),
	}
	// The minimum workspace 3n+1 selects dgeqp3's unblocked code (Householder updates by
	// dgemv and dger). The blocked code is faster on big matrices but runs through gonum's
	// dgemm, which allocates for large operands, and the rank test of a Newton failure
	// (integrate's diagnoseSingular) factorizes inside a step, which must not allocate.
	f.work = make([]float64, 3*n+1)
	return f
}

// Factorize computes A P = Q R without allocating; transpose factorizes Aᵀ instead (A is then n×m), which
// finds independent rows of A.
func (f *PivotedQR) Factorize(A mat.Matrix, transpose bool) {
	for i := range f.Rows {
		for j := range f.Cols {
			if transpose {
				f.a.Data[i*f.Cols+j] = A.At(j, i)
			} else {
				f.a.Data[i*f.Cols+j] = A.At(i, j)
			}
		}
	}
	for j := range f.jpvt {
		f.jpvt[j] = -1 // all columns free
	}
	lapack64.Geqp3(f.a, f.jpvt, f.tau, f.work, len(f.work))
}

// Rank returns the number of diagonal entries |R_kk| > tol·|R_00|.
func (f *PivotedQR) Rank(tol float64) int {
	k := min(f.Rows, f.Cols)
	if k == 0 {
		return 0
	}
	r0 := math.Abs(f.a.Data[0])
	if r0 == 0 {
		return 0
	}
	rank := 0
	for i := range k {
		if math.Abs(f.a.Data[i*f.Cols+i]) > tol*r0 {
			rank++
		}
	}
	return rank
}

// Perm returns the column permutation: column j of A P is column Perm()[j] of A.
func (f *PivotedQR) Perm() []int { return f.jpvt }

// Diag returns |R_kk| (k < min(m, n)).
func (f *PivotedQR) Diag(k int) float64 { return math.Abs(f.a.Data[k*f.Cols+k]) }

// RDiag returns |R_kk| for k < min(m, n).
func (f *PivotedQR) RDiag(dst []float64) []float64 {
	k := min(f.Rows, f.Cols)
	dst = dst[:0]
	for i := range k {
		dst = append(dst, math.Abs(f.a.Data[i*f.Cols+i]))
	}
	return dst
}
