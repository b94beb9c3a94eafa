package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
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
	f.ok = lapack64.Getrf(f.a, f.ipiv)
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
	lapack64.Getrs(blas.NoTrans, f.a, blas64.General{Rows: f.n, Cols: 1, Stride: 1, Data: b}, f.ipiv)
}

// RCond returns an estimate of the reciprocal condition number in the 1-norm of the
// matrix last factorized, given its 1-norm anorm (compute it before factorizing).
func (f *LU) RCond(anorm float64) float64 {
	iwork := make([]int, f.n)
	return lapack64.Gecon(lapack.MaxColumnSum, f.a, anorm, f.work, iwork)
}
