package linalg

import (
	"errors"
	"math"
)

// ErrNotPositiveDefinite is returned by Cholesky for a matrix with a pivot that is not
// positive (or not finite).
var ErrNotPositiveDefinite = errors.New("linalg: matrix is not positive definite")

// Cholesky overwrites the lower triangle of the symmetric positive definite n×n matrix a
// (row-major, small and dense) with its factor L, a = L Lᵀ, without allocating.
func Cholesky(a []float64, n int) error {
	for j := range n {
		d := a[j*n+j]
		for k := range j {
			d -= a[j*n+k] * a[j*n+k]
		}
		if !(d > 0) || math.IsInf(d, 0) {
			return ErrNotPositiveDefinite
		}
		d = math.Sqrt(d)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			v := a[i*n+j]
			for k := range j {
				v -= a[i*n+k] * a[j*n+k]
			}
			a[i*n+j] = v / d
		}
	}
	return nil
}

// CholeskySolve overwrites b with (L Lᵀ)⁻¹ b, L from Cholesky.
func CholeskySolve(l []float64, n int, b []float64) {
	for i := range n {
		v := b[i]
		for k := range i {
			v -= l[i*n+k] * b[k]
		}
		b[i] = v / l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		v := b[i]
		for k := i + 1; k < n; k++ {
			v -= l[k*n+i] * b[k]
		}
		b[i] = v / l[i*n+i]
	}
}
