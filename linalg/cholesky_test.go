package linalg

import (
	"math"
	"testing"
)

// TestCholesky: A x = b solved by Cholesky and CholeskySolve on an SPD matrix, and an
// indefinite matrix refused.
func TestCholesky(t *testing.T) {
	a := []float64{4, 2, 0.4, 2, 5, 1, 0.4, 1, 3}
	want := []float64{1, -2, 0.5}
	b := make([]float64, 3)
	for i := range 3 {
		for j := range 3 {
			b[i] += a[i*3+j] * want[j]
		}
	}
	if err := Cholesky(a, 3); err != nil {
		t.Fatal(err)
	}
	CholeskySolve(a, 3, b)
	for i := range b {
		if math.Abs(b[i]-want[i]) > 1e-14 {
			t.Errorf("x[%d] = %.16g, want %g", i, b[i], want[i])
		}
	}
	if err := Cholesky([]float64{1, 2, 2, 1}, 2); err != ErrNotPositiveDefinite {
		t.Errorf("indefinite matrix: error %v, want ErrNotPositiveDefinite", err)
	}
}
