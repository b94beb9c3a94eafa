package integrate_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/modelfile"
	"linkage/problems"
)

// hiddenSecond shows only dae.System and dae.SparseEvaluator of a system, hiding its
// second derivatives on G's pattern (dae.SparseConstraintJacobianDerivative).
type hiddenSecond struct {
	dae.System
	dae.SparseEvaluator
}

// TestSemiExplicitSparseSecond: bdf's and radau5's sparse Newton matrix at a generic point
// takes the constraint rows' derivatives from the constraint Hessians on G's pattern
// (dae.SparseConstraintJacobianDerivative), on the planar bar chain (20 bars) and the 3D
// chain (6 rods, Euler parameters) and the spatial four-bar driven by a revolute motion
// (examples/spatial-fourbar.yaml, whose turning weights give G_t ≠ 0): for the velocity
// forms it differences no row, and on the bar chain it equals the dense path's (planar's
// dense second derivatives) to rounding; for the acceleration forms ∂/∂v is analytic and
// ∂/∂q (γ_q) stays differenced. With the capability hidden, the differenced values agree
// with it to the differences' accuracy at more row evaluations.
func TestSemiExplicitSparseSecond(t *testing.T) {
	for _, name := range []string{"chain-bars:20", "chain3d:6"} {
		p, err := problems.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		// the 3D chain's dense path differences its second derivatives: no exact reference
		checkSparseSecond(t, name, p.System, name == "chain-bars:20")
	}
	doc, err := modelfile.Load("../examples/spatial-fourbar.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := modelfile.Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	checkSparseSecond(t, "spatial-fourbar", b.Integrated, false)
}

func checkSparseSecond(t *testing.T, name string, sys dae.System, denseExact bool) {
	hidden := hiddenSecond{sys, sys.(dae.SparseEvaluator)}
	for _, c := range []struct {
		form     integrate.Formulation
		velocity bool // the row is G v + g_t (+ α₀ g): no differences left
	}{
		{integrate.Index2, true}, {integrate.StabilizedIndex2, true}, {integrate.Index2Baumgarte, true},
		{integrate.Index1, false}, {integrate.Baumgarte, false},
	} {
		fill := func(n int) []float64 {
			r := rand.New(rand.NewPCG(11, 12))
			y := make([]float64, n)
			for i := range y {
				y[i] = r.NormFloat64()
			}
			return y
		}
		rowStart, cols, vals, dense, analytic, evals, ok := integrate.SemiExplicitNewton(sys, c.form, 300, 0.3, fill)
		if !ok || !analytic {
			t.Fatalf("%s %s: sparse path %v, analytic constraint rows %v; want both", name, c.form, ok, analytic)
		}
		_, _, hvals, _, hAnalytic, hEvals, _ := integrate.SemiExplicitNewton(hidden, c.form, 300, 0.3, fill)
		if hAnalytic {
			t.Fatalf("%s %s: analytic constraint rows without the capability", name, c.form)
		}
		if (evals == 0) != c.velocity || hEvals <= evals {
			t.Errorf("%s %s: %d row evaluations on differences (hidden capability: %d); want none for the velocity forms and fewer than hidden",
				name, c.form, evals, hEvals)
		}
		var gapDense, gapDiff, scale float64
		for i := range len(rowStart) - 1 {
			for k := rowStart[i]; k < rowStart[i+1]; k++ {
				scale = math.Max(scale, math.Abs(vals[k]))
				gapDense = math.Max(gapDense, math.Abs(vals[k]-dense.At(i, cols[k])))
				gapDiff = math.Max(gapDiff, math.Abs(vals[k]-hvals[k]))
			}
		}
		// The dense path has the analytic γ_q where the acceleration forms difference it.
		tolDense := 1e-13
		if !c.velocity || !denseExact {
			tolDense = 1e-7
		}
		if gapDense > tolDense*scale || gapDiff > 1e-7*scale || gapDiff == 0 {
			t.Errorf("%s %s: max gap to the dense path %.3g, to the differenced rows %.3g (scale %.3g); want ≤ %g, (0, 1e-7] relative",
				name, c.form, gapDense, gapDiff, scale, tolDense)
		}
	}
}
