package integrate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/joint"
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

// frictionLoop is frictionChain's model of n rods with its last rod's tip pinned to the
// world by a planar revolute cut joint (two loop-closure rows whose G row runs through
// every slack coordinate) and a drive on the first rod's angle: 3n coordinates, 2 cut
// rows and 2n + 1 rows that hold one coordinate each.
func frictionLoop(t *testing.T, n int) *joint.System {
	t.Helper()
	md := frictionChainModel(n)
	f := md.Coordinate(fmt.Sprint("pin", n))
	md.Cut("tip", f, [3]float64{1, 0, 0}, joint.Ground, [3]float64{float64(n) - 0.5, -0.5, 0}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0})
	md.Drive("crank", 2, math.Sin, math.Cos, func(t float64) float64 { return -math.Sin(t) })
	sys, err := md.System()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestMassSchurHeldRowsMatchKKT: with the rows that hold one coordinate (friction's hold
// rows, a drive) eliminated through dae.LockedMassSolver (massheld.go), massSchur's
// solution of [M Gᵀ; G 0](x, y) = (r, s) equals the dense KKT solve to 1e-10 relative at
// random states and right sides, with only the two cut rows in the Schur complement; with
// a shift (the augmented Lagrangian's M + GᵀG/shift, every row in the complement) it
// equals the dense (M + GᵀG/shift)⁻¹ r, and after it the elimination again.
func TestMassSchurHeldRowsMatchKKT(t *testing.T) {
	sys := frictionLoop(t, 5)
	nq, nc := sys.Size()
	s := massSchurOf(sys)
	if s.held == nil || len(s.held.cut) != 2 || len(s.held.row) != nc-2 {
		t.Fatalf("held rows not eliminated: %+v", s.held)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	random := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = 2 * (rng.Float64() - 0.5)
		}
		return x
	}
	M, G := mat.NewDense(nq, nq, nil), mat.NewDense(nc, nq, nil)
	for trial := range 4 {
		q, r, sv := random(nq), random(nq), random(nc)
		sys.Mass(M, 0, q)
		sys.ConstraintJacobian(G, 0, q)
		s.shift = 0
		if trial == 2 {
			s.shift = 0.5
			clear(sv)
		}
		want := denseKKT(t, M, G, r, sv, s.shift)
		if err := s.factor(0, q, G); err != nil {
			t.Fatal(err)
		}
		x, y := append([]float64(nil), r...), append([]float64(nil), sv...)
		s.Solve(x, y)
		if s.shift != 0 {
			y = nil // the shifted matrix's y is the Woodbury identity's, not a multiplier
		}
		for i, v := range append(x, y...) {
			if d := math.Abs(v - want[i]); d > 1e-10*math.Max(1, math.Abs(want[i])) {
				t.Errorf("trial %d (shift %g): unknown %d: massSchur %.15g, dense %.15g", trial, s.shift, i, v, want[i])
			}
		}
		if s.shift == 0 {
			ownRowsSameBits(t, s, G, q, r, sv, append(x, y...))
		}
	}
}

// ownRowsSameBits: massSchur factorized with G = nil (ownsRows: the loop-closure rows
// evaluated alone by dae.LoopJacobian) solves to the same bits, want, as with the caller's
// G, and mulG gives G x exactly on the held rows and to the same bits as a row product on
// the loop-closure rows.
func ownRowsSameBits(t *testing.T, s *massSchur, G *mat.Dense, q, r, sv, want []float64) {
	t.Helper()
	if !s.ownsRows() {
		t.Fatal("massSchur does not evaluate the loop-closure rows alone on a joint System")
	}
	if err := s.factor(0, q, nil); err != nil {
		t.Fatal(err)
	}
	x, y := append([]float64(nil), r...), append([]float64(nil), sv...)
	s.Solve(x, y)
	for i, v := range append(x, y...) {
		if v != want[i] {
			t.Errorf("unknown %d: %.17g with the loop rows alone, %.17g with G", i, v, want[i])
		}
	}
	nc, _ := G.Dims()
	gx := make([]float64, nc)
	s.mulG(gx, r)
	for k := range nc {
		if w := dot(G.RawRowView(k), r); gx[k] != w {
			t.Errorf("(G x)[%d] = %.17g, G's row %.17g", k, gx[k], w)
		}
	}
}

// denseKKT solves [M Gᵀ; G 0](x, y) = (r, s) by LU, or with shift > 0 (s = 0) x =
// (M + GᵀG/shift)⁻¹ r.
func denseKKT(t *testing.T, M, G *mat.Dense, r, s []float64, shift float64) []float64 {
	t.Helper()
	nq, _ := M.Dims()
	nc, _ := G.Dims()
	var x mat.VecDense
	if shift > 0 {
		var A mat.Dense
		A.Mul(G.T(), G)
		A.Scale(1/shift, &A)
		A.Add(&A, M)
		if err := x.SolveVec(&A, mat.NewVecDense(nq, append([]float64(nil), r...))); err != nil {
			t.Fatal(err)
		}
		return x.RawVector().Data
	}
	K := mat.NewDense(nq+nc, nq+nc, nil)
	K.Slice(0, nq, 0, nq).(*mat.Dense).Copy(M)
	K.Slice(0, nq, nq, nq+nc).(*mat.Dense).Copy(G.T())
	K.Slice(nq, nq+nc, 0, nq).(*mat.Dense).Copy(G)
	if err := x.SolveVec(K, mat.NewVecDense(nq+nc, append(append([]float64(nil), r...), s...))); err != nil {
		t.Fatal(err)
	}
	return x.RawVector().Data
}
