package joint

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLockedMassSolveMatchesDenseSolve: the articulated-body recursion with locked joints
// (dae.LockedMassSolver) gives, on random trees, states and sets of locked coordinates,
// the x_f = M_ff⁻¹(b_f − M_fh x_h) of a dense solve of the free block and the holding
// forces (M x)_h of the dense product, to 1e-10 relative (trial 0 locks nothing), and
// with velocity products and gravity the same with the Newton-Euler bias b(q, v).
func TestLockedMassSolveMatchesDenseSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	for trial := 0; trial < 8; trial++ {
		sys, nq, q, v := randomSystem(t, rng)
		locked := make([]bool, nq)
		for i := range locked {
			locked[i] = trial > 0 && rng.Float64() < 0.4
		}
		b := make([]float64, nq)
		for i := range b {
			b[i] = 2 * (rng.Float64() - 0.5)
		}
		want := denseLockedSolve(t, sys, q, b, locked)
		got := make([]float64, nq)
		sys.LockedMassSolve(got, 0, q, b, locked)
		for i := range got {
			if d := math.Abs(got[i] - want[i]); d > 1e-10*math.Max(1, math.Abs(want[i])) {
				t.Errorf("trial %d: %s (locked %v): recursion %.15g, dense %.15g", trial, sys.CoordinateName(i), locked[i], got[i], want[i])
			}
		}
		// With velocity and gravity: the same with the bias b(q, v) of the Newton-Euler
		// pass, M x + b = τ on the free coordinates, (M x + b)_h returned on the locked.
		bias := make([]float64, nq)
		sys.m.kinematics(sys.w, q, v)
		sys.m.inverseDynamics(sys.w, bias, nil, true)
		sys.m.forwardDynamics(sys.w, got, b, locked, true)
		for i := range b {
			if !locked[i] {
				b[i] -= bias[i]
			}
		}
		want = denseLockedSolve(t, sys, q, b, locked)
		for i := range got {
			if locked[i] {
				want[i] += bias[i]
			}
			if d := math.Abs(got[i] - want[i]); d > 1e-10*math.Max(1, math.Abs(want[i])) {
				t.Errorf("trial %d, v ≠ 0: %s (locked %v): recursion %.15g, dense %.15g", trial, sys.CoordinateName(i), locked[i], got[i], want[i])
			}
		}
	}
}

// denseLockedSolve is LockedMassSolve by the composite-rigid-body M: the free block's
// dense solve, then the product M x on the locked coordinates.
func denseLockedSolve(t *testing.T, sys *System, q, b []float64, locked []bool) []float64 {
	t.Helper()
	nq := len(q)
	M := mat.NewDense(nq, nq, nil)
	sys.Mass(M, 0, q)
	var free []int
	x := make([]float64, nq)
	for i := range nq {
		if locked[i] {
			x[i] = b[i]
		} else {
			free = append(free, i)
		}
	}
	nf := len(free)
	Mff, rf := mat.NewDense(nf, nf, nil), mat.NewVecDense(nf, nil)
	for r, i := range free {
		rhs := b[i]
		for j := range nq {
			if locked[j] {
				rhs -= M.At(i, j) * b[j]
			}
		}
		rf.SetVec(r, rhs)
		for c, j := range free {
			Mff.Set(r, c, M.At(i, j))
		}
	}
	var xf mat.VecDense
	if err := xf.SolveVec(Mff, rf); err != nil {
		t.Fatal(err)
	}
	for r, i := range free {
		x[i] = xf.AtVec(r)
	}
	out := make([]float64, nq)
	for i := range nq {
		if !locked[i] {
			out[i] = x[i]
			continue
		}
		for j := range nq {
			out[i] += M.At(i, j) * x[j]
		}
	}
	return out
}

// TestHeldCoordinateIsUnitRow: the rows HeldCoordinate names are the drives' and G has
// the unit row e_iᵀ there; the cut joints' rows name none.
func TestHeldCoordinateIsUnitRow(t *testing.T) {
	sys, nq, q, _ := randomSystem(t, rand.New(rand.NewPCG(5, 6)))
	_, nc := sys.Size()
	G := mat.NewDense(nc, nq, nil)
	sys.ConstraintJacobian(G, 0, q)
	held := 0
	for k := range nc {
		i := sys.HeldCoordinate(k)
		if i < 0 {
			continue
		}
		held++
		for j, g := range G.RawRowView(k) {
			if want := map[bool]float64{true: 1, false: 0}[j == i]; g != want {
				t.Errorf("row %s holds %s, but G[%d][%d] = %g, want %g", sys.ConstraintName(k), sys.CoordinateName(i), k, j, g, want)
			}
		}
	}
	if p2 := sys.m.Coordinate("p2"); held != 1 || sys.HeldCoordinate(nc-1) != p2 {
		t.Errorf("held rows %d, last row holds %d; want 1 row, the drive on p2 (%d)", held, sys.HeldCoordinate(nc-1), p2)
	}
}

// rowTrees are the random trees with every kind of row a ConstraintJacobian writes: point,
// orientation and drive rows (randomSystem), slide rows (slideTree) and a cam (camTree).
var rowTrees = []struct {
	name string
	make func(*testing.T, *rand.Rand) (*System, int, []float64, []float64)
}{{"random", randomSystem}, {"slide", slideTree}, {"cam", camTree}}

// TestAddConstraintForceMatchesDense: the backward pass of AddConstraintForce
// (dae.ConstraintForcer) adds the Gᵀλ of the dense G to 1e-12 relative, on random trees
// with point, orientation and drive rows (randomTree), slide rows (slideTree) and a cam
// (camTree), and allocates nothing after its first call.
func TestAddConstraintForceMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range rowTrees {
		sys, nq, q, _ := c.make(t, rng)
		_, nc := sys.Size()
		if !sys.HasConstraintForce() {
			t.Fatalf("%s: HasConstraintForce false", c.name)
		}
		lambda, base := make([]float64, nc), make([]float64, nq)
		for i := range lambda {
			lambda[i] = 2 * (rng.Float64() - 0.5)
		}
		for i := range base {
			base[i] = rng.Float64()
		}
		G := mat.NewDense(nc, nq, nil)
		sys.ConstraintJacobian(G, 0, q)
		var want mat.VecDense
		want.MulVec(G.T(), mat.NewVecDense(nc, lambda))
		for i := range base {
			want.SetVec(i, want.AtVec(i)+base[i])
		}
		got := append([]float64(nil), base...)
		sys.AddConstraintForce(got, 0, q, lambda)
		for i := range got {
			if d := math.Abs(got[i] - want.AtVec(i)); d > 1e-12*math.Max(1, math.Abs(want.AtVec(i))) {
				t.Errorf("%s: (Gᵀλ)[%s] + base = %.15g, dense %.15g", c.name, sys.CoordinateName(i), got[i], want.AtVec(i))
			}
		}
		if a := testing.AllocsPerRun(5, func() { sys.AddConstraintForce(got, 0, q, lambda) }); a != 0 {
			t.Errorf("%s: AddConstraintForce allocates %g times", c.name, a)
		}
	}
}

// TestLoopConstraintJacobianIsGsLoopRows: LoopConstraintJacobian (dae.LoopJacobian)
// writes exactly (bitwise) the rows of ConstraintJacobian that HeldCoordinate does not
// name, in their order, on random trees with point, orientation and drive rows, slide rows
// and a cam, into a matrix with only those rows.
func TestLoopConstraintJacobianIsGsLoopRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range rowTrees {
		sys, nq, q, _ := c.make(t, rng)
		_, nc := sys.Size()
		G := mat.NewDense(nc, nq, nil)
		sys.ConstraintJacobian(G, 0, q)
		var loop []int
		for k := range nc {
			if sys.HeldCoordinate(k) < 0 {
				loop = append(loop, k)
			}
		}
		if len(loop) == 0 || len(loop) == nc && c.name == "random" {
			t.Fatalf("%s: %d loop rows of %d: the test needs both kinds", c.name, len(loop), nc)
		}
		Gc := mat.NewDense(len(loop), nq, nil)
		Gc.Apply(func(int, int, float64) float64 { return 7 }, Gc) // stale values are cleared
		sys.LoopConstraintJacobian(Gc, 0, q)
		for j, k := range loop {
			for i, g := range Gc.RawRowView(j) {
				if want := G.At(k, i); g != want {
					t.Errorf("%s: row %s, %s: %g, ConstraintJacobian %g", c.name, sys.ConstraintName(k), sys.CoordinateName(i), g, want)
				}
			}
		}
	}
}
