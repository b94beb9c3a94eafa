package integrate

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRadauExactProducts: radau5's exact products (radauKrylov.jvExact, from the joint
// route's dae.DirectionalDerivatives) are the central differences of φ (relative 1e-7) at
// random points y and directions x, in ggl, index2 and index3, on a chain of three rods
// whose tip a point cut joint pins to the ground and whose first joint a drive holds,
// with joint spring-dampers; the exact path is taken there, and not with
// DifferenceProducts.
func TestRadauExactProducts(t *testing.T) {
	sys := stageTestChain(t, true)
	rng := rand.New(rand.NewPCG(14, 21))
	for _, form := range []Formulation{StabilizedIndex2, Index2, Index3} {
		se, err := newSemiExplicit(sys, form, false)
		if err != nil {
			t.Fatal(err)
		}
		if k := newRadauKrylov(se, false, false, true, &Stats{}); k == nil || k.dd != nil {
			t.Fatalf("%s: DifferenceProducts: want the Newton-Krylov path on differences", form)
		}
		k := newRadauKrylov(se, false, false, false, &Stats{})
		if k == nil || k.dd == nil {
			t.Fatalf("%s: no exact products", form)
		}
		n := se.n
		y, x, dst, yp, ym, fp, fm := make([]float64, n), make([]float64, n), make([]float64, n),
			make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for trial := 0; trial < 3; trial++ {
			for i := range y {
				y[i], x[i] = rng.Float64()-0.5, rng.Float64()-0.5
			}
			k.y0, k.t0 = y, 0.3+rng.Float64()
			k.jvExact(dst, x)
			const h = 1e-6
			for i := range y {
				yp[i], ym[i] = y[i]+h*x[i], y[i]-h*x[i]
			}
			se.residual(fp, k.t0, yp)
			se.residual(fm, k.t0, ym)
			scale := 1.0
			for i := range fp {
				fp[i] = (fp[i] - fm[i]) / (2 * h)
				scale = math.Max(scale, math.Abs(fp[i]))
			}
			for i := range dst {
				if d := math.Abs(dst[i] - fp[i]); d > 1e-7*scale || math.IsNaN(dst[i]) {
					t.Errorf("%s: (J x)[%d] = %.10g, differences %.10g", form, i, dst[i], fp[i])
				}
			}
		}
	}
}
