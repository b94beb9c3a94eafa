package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// LU is a dense LU factorization with partial pivoting, P K = L U, kept in storage owned
// by the LU so that refactorizing a matrix of the same size does not allocate.
type LU struct {
	n    int
	a    blas64.General
	ipiv []int
	work []float64
	ok   bool
}

// NewLU returns an LU for n×n matrices.
func NewLU(n int) *LU {
	return &LU{
		n:    n,
		a:    blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)},
		ipiv: make([]int, n),
		work: make([]float64, 4*n),
	}
}

// Size returns n.
func (f *LU) Size() int { return f.n }

// Matrix returns the n×n storage that Factor factorizes in place. Callers may assemble K
// directly into it and then call Factor, avoiding a copy.
func (f *LU) Matrix() blas64.General { return f.a }

// Factorize copies k into the LU's storage and factorizes it.
func (f *LU) Factorize(k mat.Matrix) error {
	r, c := k.Dims()
	if r != f.n || c != f.n {
		panic("linalg: LU.Factorize: dimension mismatch")
	}
	if d, ok := k.(*mat.Dense); ok {
		raw := d.RawMatrix()
		for i := range f.n {
			copy(f.a.Data[i*f.n:(i+1)*f.n], raw.Data[i*raw.Stride:i*raw.Stride+f.n])
		}
	} else {
		for i := range f.n {
			for j := range f.n {
				f.a.Data[i*f.n+j] = k.At(i, j)
			}
		}
	}
	return f.Factor()
}

// Factor factorizes the matrix held in Matrix() in place.
func (f *LU) Factor() error {
	for _, x := range f.a.Data {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			f.ok = false
			return ErrSingular
		}
	}
	f.ok = getrfSerial(f.a, f.ipiv)
	if !f.ok {
		return ErrSingular
	}
	return nil
}

// Solve overwrites b with K⁻¹ b. It panics if the last factorization failed.
func (f *LU) Solve(b []float64) {
	if !f.ok {
		panic("linalg: LU.Solve without a successful factorization")
	}
	if len(b) != f.n {
		panic("linalg: LU.Solve: dimension mismatch")
	}
	f.solve(b)
}

// solve is LAPACK's DGETRS for one right-hand side (the row swaps of P, then L y = P b and
// U x = y by substitution) without the checks and dispatch of the general routine, which
// cost more than the arithmetic on the few unknowns of a small mechanism's Newton matrix.
// It subtracts in DTRSM's order, skips zero entries as it does and divides by multiplying
// with 1/u_ii as it does, so x is bitwise lapack64.Getrs's.
func (f *LU) solve(b []float64) {
	n, a := f.n, f.a.Data
	for i, p := range f.ipiv {
		if p != i {
			b[i], b[p] = b[p], b[i]
		}
	}
	for i := range n {
		s := b[i]
		for k, l := range a[i*n : i*n+i] {
			if l != 0 {
				s -= float64(l * b[k]) // the conversion forbids a fused multiply-add
			}
		}
		b[i] = s
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for k, u := range a[i*n+i+1 : i*n+n] {
			if u != 0 {
				s -= float64(u * b[i+1+k])
			}
		}
		b[i] = s * (1 / a[i*n+i])
	}
}

// RCond returns an estimate of the reciprocal condition number in the 1-norm of the
// matrix last factorized, given its 1-norm anorm (compute it before factorizing).
func (f *LU) RCond(anorm float64) float64 {
	iwork := make([]int, f.n)
	return lapack64.Gecon(lapack.MaxColumnSum, f.a, anorm, f.work, iwork)
}

// luBlock is the panel width of getrfSerial, the block size LAPACK's ILAENV gives DGETRF
// (gonum's Ilaenv returns the same 64).
const luBlock = 64

// getrfSerial is LAPACK's right-looking blocked DGETRF (P A = L U with partial pivoting) on
// one goroutine: gonum's Getrf runs the trailing update A₂₂ −= L₂₁ U₁₂ through a Dgemm that
// starts goroutines and allocates for n > 64, and a Newton step must not allocate. Panels
// go through DGETF2, row swaps through DLASWP, U₁₂ through DTRSM as in DGETRF; the update
// adds the products of each row in the same order as gonum's Dgemm, so the factors are
// bitwise those of lapack64.Getrf.
func getrfSerial(a blas64.General, ipiv []int) bool {
	var impl lapackgonum.Implementation
	n, lda, d := a.Rows, a.Stride, a.Data
	if n <= luBlock {
		return impl.Dgetf2(n, n, d, lda, ipiv)
	}
	ok := true
	for j := 0; j < n; j += luBlock {
		jb := min(n-j, luBlock)
		if !impl.Dgetf2(n-j, jb, d[j*lda+j:], lda, ipiv[j:j+jb]) {
			ok = false
		}
		for i := j; i < j+jb; i++ {
			ipiv[i] += j
		}
		impl.Dlaswp(j, d, lda, j, j+jb-1, ipiv[:j+jb], 1)
		rest := n - j - jb
		if rest == 0 {
			continue
		}
		impl.Dlaswp(rest, d[j+jb:], lda, j, j+jb-1, ipiv[:j+jb], 1)
		gonum.Implementation{}.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit,
			jb, rest, 1, d[j*lda+j:], lda, d[j*lda+j+jb:], lda)
		subtractProduct(rest, rest, jb, d[(j+jb)*lda+j:], d[j*lda+j+jb:], d[(j+jb)*lda+j+jb:], lda)
	}
	return ok
}

// subtractProduct sets C −= A B for row-major A (m×k), B (k×n) and C (m×n) sharing the
// stride ld: row i of C takes −A[i,l]·(row l of B) for l = 0…k−1 in turn, skipping zero
// multipliers, which is the order gonum's Dgemm sums in.
func subtractProduct(m, n, k int, a, b, c []float64, ld int) {
	var bl gonum.Implementation
	for i := range m {
		ci := c[i*ld : i*ld+n]
		for l, v := range a[i*ld : i*ld+k] {
			if t := -v; t != 0 {
				bl.Daxpy(n, t, b[l*ld:l*ld+n], 1, ci, 1)
			}
		}
	}
}
