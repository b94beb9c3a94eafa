package integrate_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/integrate"
	"linkage/linalg"
	"linkage/problems"
)

// TestBlockLUOnChain3DNewtonMatrices: hht's Newton matrices of the 3D chain (40 rods on
// spherical joints, Euler parameters), taken every 5 steps over 60 steps, factorized by
// pivot blocks (linalg.SparseLU.UseBlocks) solve as dense LU does to 1e-12 relative, and
// hht's run uses the blocks for nearly all its factorizations.
func TestBlockLUOnChain3DNewtonMatrices(t *testing.T) {
	m := startHHT(t, "chain3d:40")
	rng := rand.New(rand.NewPCG(9, 10))
	worst, blocks, tried := 0.0, 0, 0
	for step := 1; step <= 60; step++ {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
		if step%5 != 0 {
			continue
		}
		pattern, vals := newtonMatrix(t, m)
		n := len(pattern)
		A := mat.NewDense(n, n, nil)
		at := 0
		for i, row := range pattern {
			for _, j := range row {
				A.Set(i, j, vals[at])
				at++
			}
		}
		f, err := linalg.NewSparseLU(n, pattern)
		if err != nil {
			t.Fatal(err)
		}
		if !f.UseBlocks() {
			t.Fatal("the chain's Newton pattern does not allow pivot blocks")
		}
		copy(f.Values(), vals)
		if err := f.Factor(); err != nil {
			t.Fatal(err)
		}
		tried++
		blocks += f.BlockFactorizations()
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		x := slices.Clone(b)
		f.Solve(x)
		var lu mat.LU
		lu.Factorize(A)
		var xd mat.VecDense
		if err := lu.SolveVecTo(&xd, false, mat.NewVecDense(n, slices.Clone(b))); err != nil {
			t.Fatal(err)
		}
		var diff, ref float64
		for i := range x {
			diff = math.Max(diff, math.Abs(x[i]-xd.AtVec(i)))
			ref = math.Max(ref, math.Abs(xd.AtVec(i)))
		}
		worst = math.Max(worst, diff/ref)
	}
	if worst > 1e-12 {
		t.Errorf("worst relative difference to dense LU %.3g, want ≤ 1e-12", worst)
	}
	if blocks < tried-1 {
		t.Errorf("%d of %d matrices factorized by blocks, want all but at most one", blocks, tried)
	}
	_, _, fulls, hhtBlocks, _ := integrate.NewtonFill(m)
	t.Logf("relative difference %.3g; %d of %d by blocks; hht's run: %d by blocks, %d full", worst, blocks, tried, hhtBlocks, fulls)
	if fulls > hhtBlocks/10 {
		t.Errorf("hht: %d full factorizations against %d by blocks, want at most a tenth", fulls, hhtBlocks)
	}
}

// TestBlockLUPlanarChainScalar: the planar bar chain's pattern has no bordered block
// (no normalization row), so hht keeps to scalar pivots there: no block attempt, one
// full factorization, refactorizations after it, as before the blocks.
func TestBlockLUPlanarChainScalar(t *testing.T) {
	m := startHHT(t, "chain-bars:100")
	for range 60 {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	pattern, _ := newtonMatrix(t, m)
	f, err := linalg.NewSparseLU(len(pattern), pattern)
	if err != nil {
		t.Fatal(err)
	}
	if f.UseBlocks() {
		t.Error("the planar chain's Newton pattern takes pivot blocks, want scalar pivots")
	}
	_, _, fulls, blocks, ok := integrate.NewtonFill(m)
	if !ok || blocks != 0 || fulls != 1 {
		t.Errorf("sparse %v, %d block and %d full factorizations; want 0 and 1", ok, blocks, fulls)
	}
}

// TestBlockLUGenAlphaChain3D: genalpha's sparse Newton matrices of the 3D chain (index
// 3, Euler parameters) take the pivot blocks too: over 60 steps of the 40-rod chain the
// blocks take more factorizations than full factorizations do (without them, as on
// main before, none), and the 20 steps after those allocate nothing.
func TestBlockLUGenAlphaChain3D(t *testing.T) {
	m := start(t, "genalpha", "chain3d:40")
	step := func() {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	for range 60 {
		step()
	}
	if n := testing.AllocsPerRun(20, step); n != 0 {
		t.Errorf("a step allocates %v times after warm-up, want 0", n)
	}
	_, _, fulls, blocks, ok := integrate.NewtonFill(m)
	t.Logf("%d factorizations, %d by blocks, %d full", m.Stats().Factorizations, blocks, fulls)
	if !ok || blocks == 0 || fulls > blocks {
		t.Errorf("sparse %v, %d factorizations by blocks and %d full; want more by blocks than full", ok, blocks, fulls)
	}
}

// startHHT starts hht at tolerance 1e-4 on the named problem.
func startHHT(t *testing.T, problem string) integrate.Method {
	t.Helper()
	return start(t, "hht", problem)
}

// start starts the named method at tolerance 1e-4 on the named problem.
func start(t *testing.T, method, problem string) integrate.Method {
	t.Helper()
	p, err := problems.Get(problem)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := integrate.Lookup(method)
	m := e.New()
	if err := m.Init(p.System, p.Start.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
		t.Fatal(err)
	}
	return m
}

// newtonMatrix returns the pattern by rows of hht's last sparse Newton matrix and its
// values in that order.
func newtonMatrix(t *testing.T, m integrate.Method) (pattern [][]int, vals []float64) {
	t.Helper()
	rowStart, cols, vals, ok := integrate.NewtonMatrix(m)
	if !ok {
		t.Fatal("hht took no sparse Newton factorization")
	}
	pattern = make([][]int, len(rowStart)-1)
	for i := range pattern {
		pattern[i] = cols[rowStart[i]:rowStart[i+1]]
	}
	return pattern, vals
}
