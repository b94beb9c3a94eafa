package joint

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"linkage/dae"
)

// slideTree is randomTree with a cylindrical cut joint between its two branches (two slide
// rows turning with the universal joint's frame and the two orientation rows of the axis)
// and a translational one from the ground to the last body (two slide rows, three
// orientation rows): every slide row between two moving frames or a frame and the world.
func slideTree(t *testing.T, rng *rand.Rand) (sys *System, nq int, q, v []float64) {
	t.Helper()
	m := randomTree(rng)
	u, r6 := m.Coordinate("u4.2"), m.Coordinate("r6")
	x, y, z := [3]float64{1, 0, 0}, [3]float64{0, 1, 0}, [3]float64{0.3, -0.2, 1}
	m.CutSlide("tube", u, [3]float64{0.1, -0.2, 0.3}, r6, [3]float64{-0.3, 0.1, 0.2}, x, y)
	m.CutAxes("tube", u, z, r6, x, y)
	m.CutSlide("rail", Ground, [3]float64{0.4, 0.2, -0.1}, r6, [3]float64{0.2, 0.3, -0.1}, [3]float64{0.2, 1, 0}, [3]float64{0, 0.1, 1})
	m.CutAxes("rail", Ground, z, r6, x, y)
	m.CutAxes("rail", Ground, x, r6, y)
	var err error
	if sys, err = m.System(); err != nil {
		t.Fatal(err)
	}
	nq, _ = sys.Size()
	q, v = randomState(rng, nq)
	return sys, nq, q, v
}

// TestCutSlideDerivatives: by dae.Check at random states, multipliers and accelerations,
// G and γ of the slide rows (CutSlide) against differences of g, and their ∂(Gᵀλ)/∂q
// against differences of Gᵀλ, to 1e-6 relative (dae.Check's central differences are good
// to about 1e-10 here); and the rows are named after their cut joints.
func TestCutSlideDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 5))
	for trial := 0; trial < 3; trial++ {
		sys, nq, q, v := slideTree(t, rng)
		checkAgainstDifferences(t, rng, sys, nq, q, v, "d(G^T lambda)/dq", "G = dg/dq", "gamma")
	}
	sys, _, _, _ := slideTree(t, rng)
	var names []string
	_, nc := sys.Size()
	for i := range nc {
		if n := sys.ConstraintName(i); strings.Contains(n, "slide") {
			names = append(names, n)
		}
	}
	if got := strings.Join(names, " "); got != "tube.slide[0] tube.slide[1] rail.slide[0] rail.slide[1]" {
		t.Errorf("slide rows named %q, want tube.slide[0] tube.slide[1] rail.slide[0] rail.slide[1]", got)
	}
}

// checkAgainstDifferences runs dae.Check on sys at (q, v) with random accelerations and
// multipliers, to 1e-6 relative, and fails unless it compared each of the quantities.
func checkAgainstDifferences(t *testing.T, rng *rand.Rand, sys *System, nq int, q, v []float64, quantities ...string) {
	t.Helper()
	_, nc := sys.Size()
	a, _ := randomState(rng, nq)
	lambda, _ := randomState(rng, nc)
	out, err := dae.Check(sys, dae.CheckPoint{T: 0.3, Q: q, V: v, A: a, Lambda: lambda}, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]bool{}
	for _, m := range out {
		checked[m.Quantity] = true
	}
	for _, name := range quantities {
		if !checked[name] {
			t.Errorf("dae.Check did not compare %s", name)
		}
	}
}

// TestCutSlideRowsAreDistances: at random states, the slide row of direction e is the
// distance of point pb from the plane through pa normal to R_a e, computed from Position
// and FrameMotion's R_a independently of the row code, to 1e-12.
func TestCutSlideRowsAreDistances(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 21))
	m := randomTree(rng)
	a, b := m.Coordinate("u4.2"), m.Coordinate("r6")
	pa, pb, e := [3]float64{0.1, -0.2, 0.3}, [3]float64{-0.3, 0.1, 0.2}, [3]float64{0, 0.6, 0.8}
	m.CutSlide("tube", a, pa, b, pb, e)
	sys, err := m.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, nc := sys.Size()
	g := make([]float64, nc)
	row := -1
	for i := range nc {
		if sys.ConstraintName(i) == "tube.slide[0]" {
			row = i
		}
	}
	if row < 0 {
		t.Fatal("no row tube.slide[0]")
	}
	for trial := 0; trial < 5; trial++ {
		q, _ := randomState(rng, nq)
		sys.Constraint(g, 0, q)
		ra, rb := vec3(sys.Position(q, a, pa)), vec3(sys.Position(q, b, pb))
		u := mat3(sys.FrameMotion(q, nil, nil, a, pa).R).mulv(e)
		if want := u.dot(rb.sub(ra)); math.Abs(g[row]-want) > 1e-12 {
			t.Errorf("trial %d: slide row %.15g, want the distance %.15g", trial, g[row], want)
		}
	}
}

// TestCutSlideAllocatesNothing: the constraint, G, γ and ∂(Gᵀλ)/∂q with slide rows
// allocate nothing once the System exists (the step of every method calls them).
func TestCutSlideAllocatesNothing(t *testing.T) {
	sys, nq, q, v := slideTree(t, rand.New(rand.NewPCG(9, 21)))
	if a := constraintAllocations(sys, nq, q, v); a != 0 {
		t.Errorf("slide rows: %g allocations, want 0", a)
	}
}
