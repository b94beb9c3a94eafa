package integrate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"linkage/joint"
)

// TestRadauStageProducts: the coupled stage system's products (radauStages.jv) are the
// fourth-order central differences of radau5's scaled stage residual (radauWork.residualAt,
// the dynamic rows times M(q₀) M(q)⁻¹) at a stage point Y away from y₀ (relative 1e-7),
// and at Y with the q of y₀ (where the scaling is the identity but its derivative is not),
// in ggl, index2 and index3, on TestRadauExactProducts's pinned three-rod chain with
// springs, with and without its drive; the forward differences (jvDifference) agree to
// 1e-4. Without the drive (no held row to eliminate) the preconditioned coupled operator
// P⁻¹A z is the same whether the solve carries the force rows as they are or as M(q₀)⁻¹
// times them (radauKrylov.accel), on exact products (1e-10) and on differences (1e-6).
func TestRadauStageProducts(t *testing.T) {
	accelChecked := 0
	for _, drive := range []bool{true, false} {
		sys := stageTestChain(t, drive)
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
			y, x, dst, yp, ym, fp, fm, phi, fd := vec(), vec(), vec(), vec(), vec(), vec(), vec(), vec(), vec()
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
				// Fourth-order central differences, (8(f(h) − f(−h)) − (f(2h) − f(−2h)))/(12h).
				const h = 1e-4
				scale := 1.0
				clear(fd)
				for _, c := range [2]struct{ s, w float64 }{{h, 8}, {2 * h, -1}} {
					for i := range y {
						yp[i], ym[i] = y[i]+c.s*x[i], y[i]-c.s*x[i]
					}
					w.residualAt(fp, ts, yp)
					w.residualAt(fm, ts, ym)
					for i := range fp {
						fd[i] += c.w * (fp[i] - fm[i]) / (12 * h)
					}
				}
				for i := range fd {
					scale = math.Max(scale, math.Abs(fd[i]))
				}
				fp := fd
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
			// The coupled operator, preconditioned, on both of the solve's representations
			// of the force rows (radauKrylov.accel), on exact products and on differences.
			for j := range 3 {
				for i := range y {
					y[i] = w.y0[i] + 0.01*(rng.Float64()-0.5)
				}
				ts := w.cur.T + 0.01*float64(j)
				w.residualAt(w.ph[j], ts, y)
				s.noteStage(j, ts, y, w.y0, w.ph[j])
			}
			w.krylovJacobian()
			if err := w.kry.decompose(nil, nil, 30, 20, 25, 0); err != nil {
				t.Fatal(err)
			}
			if !w.kry.mn.schur.solvesAccelerations() {
				continue // the drive's held row is eliminated: no accelerations form
			}
			accelChecked++
			z, p := make([]float64, 3*n), [2][]float64{make([]float64, 3*n), make([]float64, 3*n)}
			for i := range z {
				z[i] = rng.Float64() - 0.5
			}
			for _, diff := range []bool{false, true} {
				dd := w.kry.dd
				if diff {
					w.kry.dd = nil
				}
				for r, accel := range []bool{false, true} {
					w.kry.accel = accel
					s.sys.jacVec(p[r], z)
					s.sys.precondition(p[r])
				}
				w.kry.dd, w.kry.accel = dd, false
				var e, m float64
				for i, x := range p[0] {
					e = math.Max(e, math.Abs(p[1][i]-x))
					m = math.Max(m, math.Abs(x))
				}
				if tol := map[bool]float64{false: 1e-10, true: 1e-6}[diff]; e > tol*m {
					t.Errorf("%s, differences %v: P⁻¹A z with the force rows as M⁻¹ times them differs by %.2g (of %.2g)", form, diff, e, m)
				}
			}
		}
	}
	if accelChecked == 0 {
		t.Error("no model took the force rows as accelerations")
	}
}

// stageTestChain is a chain of three rods with joint spring-dampers whose tip a point cut
// joint pins to the ground, with or without the drive of its first joint
// (TestRadauExactProducts, TestRadauStageProducts).
func stageTestChain(t *testing.T, drive bool) *joint.System {
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
	if drive {
		md.Drive("drive", 1, math.Sin, math.Cos, func(t float64) float64 { return -math.Sin(t) })
	}
	sys, err := md.System()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}
