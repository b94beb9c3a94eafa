package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randDense(r *rand.Rand, m, n int) *mat.Dense {
	a := mat.NewDense(m, n, nil)
	for i := range m {
		for j := range n {
			a.Set(i, j, r.Float64()*2-1)
		}
	}
	return a
}

// TestFullPivLUReconstructs checks P A Q = L U entry by entry on random rectangular
// matrices and that the first pivot is the largest entry.
func TestFullPivLUReconstructs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sz := range [][2]int{{1, 3}, {3, 5}, {6, 7}, {4, 4}, {20, 21}} {
		m, n := sz[0], sz[1]
		A := randDense(r, m, n)
		f := NewFullPivLU(m, n)
		if err := f.Factorize(A); err != nil {
			t.Fatalf("%d×%d: %v", m, n, err)
		}
		var worst float64
		for i := range m {
			for j := range n {
				var s float64 // (L U)_ij
				for k := 0; k <= min(i, j); k++ {
					l := 1.0
					if k < i {
						l = f.a[i*n+k]
					}
					s += l * f.a[k*n+j]
				}
				worst = math.Max(worst, math.Abs(s-A.At(f.rowP[i], f.colP[j])))
			}
		}
		// Backward error of Gaussian elimination: a small multiple of n·ε·max|A| (Higham 2002, Thm. 9.3).
		if worst > 1e-13 {
			t.Errorf("%d×%d: max |P A Q − L U| = %.3g, want ≤ 1e-13", m, n, worst)
		}
		// |U_00| is the largest |A_ij| (complete pivoting).
		if got, want := math.Abs(f.a[0]), f.amax; got != want {
			t.Errorf("%d×%d: first pivot %v, want max |A_ij| = %v", m, n, got, want)
		}
	}
}

// TestFullPivLUChoosesColumns: for the pendulum's G = (x, y) the dependent coordinate is
// the one with the larger |G| entry (seed 000, eq. 7).
func TestFullPivLUChoosesColumns(t *testing.T) {
	f := NewFullPivLU(1, 2)
	if err := f.Factorize(mat.NewDense(1, 2, []float64{0.3, -0.9})); err != nil {
		t.Fatal(err)
	}
	if f.ColPerm()[0] != 1 {
		t.Errorf("dependent column %d, want 1", f.ColPerm()[0])
	}
	// Two rows that only involve columns 2 and 4 with a dominant (1, 2) entry.
	g := mat.NewDense(2, 5, []float64{
		0, 0, 1, 0, 0.5,
		0, 0, 4, 0, 1,
	})
	f = NewFullPivLU(2, 5)
	if err := f.Factorize(g); err != nil {
		t.Fatal(err)
	}
	dep := [2]int{f.ColPerm()[0], f.ColPerm()[1]}
	if dep != [2]int{2, 4} {
		t.Errorf("dependent columns %v, want [2 4]", dep)
	}
	// Pivots 4 and 0.5 − 1/4 = 0.25: ratio 16.
	if r := f.PivotRatio(); math.Abs(r-16) > 1e-14 {
		t.Errorf("pivot ratio %v, want 16", r)
	}
}

// TestFullPivLUSolve checks A x = b and Aᵀ x = b against the known solution.
func TestFullPivLUSolve(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 5, 12} {
		A := randDense(r, n, n)
		f := NewFullPivLU(n, n)
		if err := f.Factorize(A); err != nil {
			t.Fatal(err)
		}
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i) - 1.5
		}
		for _, trans := range []bool{false, true} {
			b := make([]float64, n)
			for i := range n {
				for j := range n {
					if trans {
						b[i] += A.At(j, i) * x[j]
					} else {
						b[i] += A.At(i, j) * x[j]
					}
				}
			}
			if trans {
				f.SolveTrans(b)
			} else {
				f.Solve(b)
			}
			for i := range n {
				// Random matrices of this size have condition numbers below ~1e3: forward error ≤ cond·1e-15.
				if math.Abs(b[i]-x[i]) > 1e-11 {
					t.Errorf("n=%d trans=%v: x[%d] = %.15g, want %g", n, trans, i, b[i], x[i])
				}
			}
		}
	}
}

// TestFullPivLURankDeficient: a repeated constraint gives ErrSingular with the rank found.
func TestFullPivLURankDeficient(t *testing.T) {
	g := mat.NewDense(3, 4, []float64{
		1, 2, 0, 1,
		0, 1, 1, 0,
		1, 3, 1, 1, // row 0 + row 1
	})
	f := NewFullPivLU(3, 4)
	err := f.Factorize(g)
	if !errors.Is(err, ErrSingular) {
		t.Fatalf("error %v, want ErrSingular", err)
	}
	if f.Rank() != 2 {
		t.Errorf("rank %d, want 2", f.Rank())
	}
	if !math.IsInf(NewFullPivLU(1, 1).PivotRatio(), 1) {
		t.Errorf("pivot ratio before a factorization is finite")
	}
	nan := mat.NewDense(1, 2, []float64{math.NaN(), 1})
	if err := NewFullPivLU(1, 2).Factorize(nan); !errors.Is(err, ErrSingular) {
		t.Errorf("NaN matrix: error %v, want ErrSingular", err)
	}
}

func TestFullPivLUAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	A := randDense(r, 6, 6)
	f := NewFullPivLU(6, 6)
	b := make([]float64, 6)
	if n := testing.AllocsPerRun(20, func() {
		_ = f.Factorize(A)
		f.Solve(b)
		f.SolveTrans(b)
	}); n != 0 {
		t.Errorf("Factorize+Solve allocate %v times, want 0", n)
	}
}
