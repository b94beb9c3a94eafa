package joint

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/flexbeam"
)

// steelRod is a 0.3 m steel rod of 8 mm × 8 mm section (Simeon's connecting rod).
func steelRod(b flexbeam.Beam) flexbeam.Beam {
	b.Length, b.E, b.A, b.I, b.Density = 0.3, 2e11, 6.4e-5, 6.4e-5*6.4e-5/12, 7870
	return b
}

// flexSliderCrank is a planar slider-crank in joint coordinates whose connecting rod is
// flexible: the crank turns about z at the ground, the slider slides along x, and the rod
// floats beside the tree, pinned to the crank at its node 0 and to the slider at its last
// node by two flexible cut joints (x and y rows each); gravity along −y.
func flexSliderCrank(beam flexbeam.Beam) *Model {
	m := &Model{Gravity: [3]float64{0, -9.81, 0}}
	z, x, y := [3]float64{0, 0, 1}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0}
	inertia := func(j float64) [3][3]float64 { return [3][3]float64{{j, 0, 0}, {0, j, 0}, {0, 0, j}} }
	crank := m.Revolute("crank", Ground, [3]float64{}, z, Body{Name: "crank", Mass: 0.4, COM: [3]float64{0.075, 0, 0}, Inertia: inertia(1e-3)})
	slider := m.Prismatic("slider", Ground, [3]float64{}, x, Body{Name: "slider", Mass: 0.2, Inertia: inertia(1e-4)})
	rod := m.Flexible("rod", beam)
	m.FlexCut("A", crank, [3]float64{0.15, 0, 0}, rod, 0, x, y)
	m.FlexCut("B", slider, [3]float64{}, rod, beam.Length, x, y)
	return m
}

// flexBeams are the discretizations and frames a flexible body takes, with Young's
// modulus e.
func flexBeams(e float64) map[string]flexbeam.Beam {
	soft := func(b flexbeam.Beam) flexbeam.Beam {
		b = steelRod(b)
		b.E = e
		return b
	}
	return map[string]flexbeam.Beam{
		"tangent-elements": soft(flexbeam.Beam{Elements: 3}),
		"chord-elements":   soft(flexbeam.Beam{Elements: 2, Frame: flexbeam.Chord}),
		"simeon-modes":     soft(flexbeam.Beam{Modes: 2, Frame: flexbeam.Chord}),
		"lateral-only":     soft(flexbeam.Beam{Elements: 2, NoAxial: true}),
	}
}

// flexState returns a random state of sys: tree and frame coordinates in [−0.5, 0.5], the
// elastic ones a thousandth of that (a deformed beam, not a folded one).
func flexRandomState(rng *rand.Rand, sys *System) (q, v []float64) {
	q, v = randomState(rng, sys.nq)
	for i := range sys.flex {
		b := &sys.flex[i].global
		for k := b.ECol; k < b.ECol+b.Inv.NE; k++ {
			q[k] *= 1e-3
			v[k] *= 1e-3
		}
	}
	return q, v
}

// TestFlexibleCutDerivatives: by dae.Check at random states, multipliers and
// accelerations, M's block of the flexible body, ∂(M a)/∂q, ∂f/∂q, ∂f/∂v, G, γ and
// ∂(Gᵀλ)/∂q of the flexible cut joints against central differences, to 1e-6 relative, in
// every discretization and frame. E is softened to 2e5 Pa (as in planar's test) so that
// the elastic forces K e, constant in v, do not drown the differences of the velocity
// terms in rounding.
func TestFlexibleCutDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	for name, beam := range flexBeams(2e5) {
		sys, err := flexSliderCrank(beam).System()
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			q, v := flexRandomState(rng, sys)
			t.Run(name, func(t *testing.T) {
				checkAgainstDifferences(t, rng, sys, sys.nq, q, v, "d(M a)/dq", "df/dq", "df/dv", "d(G^T lambda)/dq", "G = dg/dq", "gamma")
			})
		}
	}
}

// TestFlexibleMassBlocks: M is block diagonal (tree, then each flexible body), MassSolve
// inverts it and MassMul applies it (to 1e-10 against the dense M), and Accelerations are
// the dense M⁻¹ f.
func TestFlexibleMassBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 41))
	for name, beam := range flexBeams(2e11) {
		sys, err := flexSliderCrank(beam).System()
		if err != nil {
			t.Fatal(err)
		}
		nq := sys.nq
		q, v := flexRandomState(rng, sys)
		M := mat.NewDense(nq, nq, nil)
		sys.Mass(M, 0, q)
		for i := range sys.nt {
			for j := sys.nt; j < nq; j++ {
				if M.At(i, j) != 0 || M.At(j, i) != 0 {
					t.Fatalf("%s: M[%d][%d] = %g couples the tree with the flexible body", name, i, j, M.At(i, j))
				}
			}
		}
		x, _ := randomState(rng, nq)
		var want mat.VecDense
		want.MulVec(M, mat.NewVecDense(nq, x))
		got := make([]float64, nq)
		sys.MassMul(got, 0, q, x)
		back := make([]float64, nq)
		sys.MassSolve(back, 0, q, want.RawVector().Data)
		f := make([]float64, nq)
		sys.Force(f, 0, q, v)
		var acc mat.VecDense
		if err := acc.SolveVec(M, mat.NewVecDense(nq, f)); err != nil {
			t.Fatal(err)
		}
		a := make([]float64, nq)
		sys.Accelerations(a, 0, q, v)
		for i := range nq {
			near(t, name+": M x", i, got[i], want.AtVec(i))
			near(t, name+": M⁻¹(M x)", i, back[i], x[i])
			near(t, name+": accelerations", i, a[i], acc.AtVec(i))
		}
	}
}

func near(t *testing.T, what string, i int, got, want float64) {
	t.Helper()
	if d := math.Abs(got - want); d > 1e-10*math.Max(1, math.Abs(want)) {
		t.Errorf("%s[%d] = %.15g, want %.15g", what, i, got, want)
	}
}

// TestFlexibleCutRowsArePointGaps: the rows of a flexible cut joint are the gap between
// the crank's point (Position) and the beam's node r = R + A(θ)((x_i, 0) + (u_i, w_i)),
// the node's displacement read from its named coordinates, to 1e-14.
func TestFlexibleCutRowsArePointGaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	sys, err := flexSliderCrank(steelRod(flexbeam.Beam{Elements: 3})).System()
	if err != nil {
		t.Fatal(err)
	}
	_, nc := sys.Size()
	col := map[string]int{}
	for i := range sys.nq {
		col[sys.CoordinateName(i)] = i
	}
	q, _ := flexRandomState(rng, sys)
	g := make([]float64, nc)
	sys.Constraint(g, 0, q)
	ra := sys.Position(q, 0, [3]float64{0.15, 0, 0})
	sn, cs := math.Sincos(q[col["rod.theta"]])
	// Node 0 is clamped in the tangent frame (u = w = w′ = 0): the rod's origin itself.
	if d := math.Hypot(g[0]-(ra[0]-q[col["rod.x"]]), g[1]-(ra[1]-q[col["rod.y"]])); d > 1e-14 {
		t.Errorf("rows A = %v, want the gap to the rod's origin (off by %g)", g[:2], d)
	}
	px, py := 0.3+q[col["rod.u3"]], q[col["rod.w3"]]
	rb := [2]float64{q[col["rod.x"]] + cs*px - sn*py, q[col["rod.y"]] + sn*px + cs*py}
	rs := sys.Position(q, 1, [3]float64{})
	if d := math.Hypot(g[2]-(rs[0]-rb[0]), g[3]-(rs[1]-rb[1])); d > 1e-14 {
		t.Errorf("rows B = %v, want the gap to the rod's deformed end (off by %g)", g[2:4], d)
	}
	if got := sys.ConstraintName(2); got != "B[0]" {
		t.Errorf("row 2 named %q, want B[0]", got)
	}
}

// TestFlexibleAllocatesNothing: a step's evaluations with a flexible body (M solve and
// product, f, the cut rows, G, γ and ∂(Gᵀλ)/∂q) allocate nothing once the System exists.
func TestFlexibleAllocatesNothing(t *testing.T) {
	sys, err := flexSliderCrank(steelRod(flexbeam.Beam{Elements: 3})).System()
	if err != nil {
		t.Fatal(err)
	}
	q, v := flexRandomState(rand.New(rand.NewPCG(1, 1)), sys)
	if a := constraintAllocations(sys, sys.nq, q, v); a != 0 {
		t.Errorf("flexible cut rows: %g allocations, want 0", a)
	}
	x, f := make([]float64, sys.nq), make([]float64, sys.nq)
	if a := testing.AllocsPerRun(10, func() {
		q[0] += 1e-3
		sys.Force(f, 0, q, v)
		sys.MassSolve(x, 0, q, f)
		sys.MassMul(x, 0, q, f)
	}); a != 0 {
		t.Errorf("force, mass solve and product with a flexible body: %g allocations, want 0", a)
	}
}

// TestFlexibleBadInputIsRefusedByName: a cut at a point that is not a node, a missing
// flexible body, a direction out of the plane, a bad beam and gravity out of the plane
// are refused naming the joint or body.
func TestFlexibleBadInputIsRefusedByName(t *testing.T) {
	beam := steelRod(flexbeam.Beam{Elements: 2})
	x, z := [3]float64{1, 0, 0}, [3]float64{0, 0, 1}
	for _, c := range []struct {
		name string
		edit func(m *Model)
		want string
	}{
		{"off node", func(m *Model) { m.FlexCut("P", Ground, [3]float64{}, 0, 0.1, x) }, `cut joint "P": x = 0.1 is not a node of flexible body "rod"`},
		{"missing body", func(m *Model) { m.FlexCut("P", Ground, [3]float64{}, 3, 0, x) }, `cut joint "P": frame -1, flexible body 3`},
		{"out of plane", func(m *Model) { m.FlexCut("P", Ground, [3]float64{}, 0, 0, z) }, `cut joint "P": direction [0 0 1] leaves the plane`},
		{"bad beam", func(m *Model) { m.Flexible("bar", flexbeam.Beam{Elements: 1}) }, `flexible body "bar": length = 0`},
		{"gravity", func(m *Model) { m.Gravity[2] = -9.81 }, `flexible body "rod" moves in the plane z = 0, but gravity`},
	} {
		m := flexSliderCrank(beam)
		c.edit(m)
		if _, err := m.System(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
