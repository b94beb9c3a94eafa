package integrate

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// denseSolver gives a System the dae.MassSolver capability by a dense solve with its own
// M, so that eq. 17 by the Schur complement can be compared with the KKT factorization.
type denseSolver struct{ *pendulum }

func (d denseSolver) MassSolve(x []float64, t float64, q, b []float64) {
	nq, _ := d.Size()
	M := mat.NewDense(nq, nq, nil)
	d.Mass(M, t, q)
	var v mat.VecDense
	if err := v.SolveVec(M, mat.NewVecDense(nq, append([]float64(nil), b...))); err != nil {
		panic(err)
	}
	copy(x, v.RawVector().Data)
}

// TestMassSchurMatchesKKT: eq. 17 solved through dae.MassSolver (massschur.go) gives the
// accelerations and multipliers of the dense KKT factorization to 1e-13, on a driven
// pendulum whose γ and g_t are not zero.
func TestMassSchurMatchesKKT(t *testing.T) {
	p := newDrivenPendulum(1.5, 0.8, 9.81, 0.1, 3)
	q, v := []float64{0.3, -0.7}, []float64{1.1, 0.4}
	a1, l1 := make([]float64, 2), make([]float64, 1)
	a2, l2 := make([]float64, 2), make([]float64, 1)
	var st Stats
	kkt := newEq17(p)
	if kkt.rec != nil {
		t.Fatal("the plain pendulum took the MassSolver path")
	}
	if err := kkt.solve(a1, l1, 0.2, q, v, &st); err != nil {
		t.Fatal(err)
	}
	rec := newEq17(denseSolver{p})
	if rec.rec == nil {
		t.Fatal("a dae.MassSolver did not take the MassSolver path")
	}
	if err := rec.solve(a2, l2, 0.2, q, v, &st); err != nil {
		t.Fatal(err)
	}
	for i, x := range append(append([]float64(nil), a1...), l1...) {
		y := append(append([]float64(nil), a2...), l2...)[i]
		if math.Abs(x-y) > 1e-13*math.Max(1, math.Abs(x)) {
			t.Errorf("unknown %d: KKT %.16g, Schur complement %.16g", i, x, y)
		}
	}
}
