package integrate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"linkage/joint"
)

// TestRadauStageProducts: the coupled stage system's products (radauStages.jv) are the
// central differences of radau5's scaled stage residual (radauWork.residualAt, the dynamic
// rows times M(q₀) M(q)⁻¹) at a stage point Y away from y₀ (relative 1e-7), and at Y with
// the q of y₀ (where the scaling is the identity but its derivative is not), in ggl,
// index2 and index3, on TestRadauExactProducts's pinned, driven three-rod chain with
// springs; the forward differences (jvDifference) agree to 1e-4.
func TestRadauStageProducts(t *testing.T) {
	md := &joint.Model{Gravity: [3]float64{0.5, 0, -9.81}}
	f, origin := joint.Ground, [3]float64{}
	for i := range 3 {
		f = md.Spherical(fmt.Sprint("ball", i+1), f, origin, rod(fmt.Sprint("rod", i+1), 0.5, 0.05))
		origin = [3]float64{0.5, 0, 0}
	}
	for i := range 9 {
		md.Spring(i, 5, 0.3, 0.1)
	}
	md.Cut("pin", f, [3]float64{0.5, 0, 0}, joint.Ground, [3]float64{1.2, 0.3, 0},
		[3]float64{1, 0, 0}, [3]float64{0, 1, 0}, [3]float64{0, 0, 1})
	md.Drive("drive", 1, math.Sin, math.Cos, func(t float64) float64 { return -math.Sin(t) })
	sys, err := md.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, nc := sys.Size()
	rng := rand.New(rand.NewPCG(15, 4))
	for _, form := range []Formulation{StabilizedIndex2, Index2, Index3} {
		se, err := newSemiExplicit(sys, form, false)
		if err != nil {
			t.Fatal(err)
		}
		w := newRadauWork(se, se, NewState(nq, nc), false, false, false)
		w.sys = sys
		if w.kry == nil || w.kry.dd == nil {
			t.Fatalf("%s: no exact Newton-Krylov products", form)
		}
		s := newRadauStages(w)
		n := se.n
		vec := func() []float64 { return make([]float64, n) }
		y, x, dst, yp, ym, fp, fm, phi := vec(), vec(), vec(), vec(), vec(), vec(), vec(), vec()
		for trial := range 4 {
			for i := range y {
				w.y0[i], y[i], x[i] = rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5
				w.scal[i] = 0.5 + rng.Float64()
			}
			if trial%2 == 1 {
				copy(y[:nq], w.y0[:nq]) // q = q₀: the scaling is I there
			}
			w.cur.T = 0.3 + rng.Float64()
			w.kry.t0 = w.cur.T
			ts := w.cur.T + 0.01
			w.residualAt(phi, ts, y)
			s.noteStage(1, ts, y, w.y0, phi)
			copy(w.ph[1], phi)
			const h = 1e-6
			for i := range y {
				yp[i], ym[i] = y[i]+h*x[i], y[i]-h*x[i]
			}
			w.residualAt(fp, ts, yp)
			w.residualAt(fm, ts, ym)
			scale := 1.0
			for i := range fp {
				fp[i] = (fp[i] - fm[i]) / (2 * h)
				scale = math.Max(scale, math.Abs(fp[i]))
			}
			s.jv(dst, 1, x)
			for i := range dst {
				if d := math.Abs(dst[i] - fp[i]); d > 1e-7*scale || math.IsNaN(dst[i]) {
					t.Errorf("%s trial %d: (J₂ x)[%d] = %.10g, differences %.10g", form, trial, i, dst[i], fp[i])
				}
			}
			dd := w.kry.dd
			w.kry.dd = nil
			w.kry.beginSolve()
			s.jv(dst, 1, x)
			w.kry.dd = dd
			for i := range dst {
				if d := math.Abs(dst[i] - fp[i]); d > 1e-4*scale || math.IsNaN(dst[i]) {
					t.Errorf("%s trial %d: forward difference (J₂ x)[%d] = %.10g, central %.10g", form, trial, i, dst[i], fp[i])
				}
			}
		}
	}
}
