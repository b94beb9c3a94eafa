package integrate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"linkage/dae"
)

// TestBDFExactProducts: bdf's exact products (bdfWork.jvExact, from the joint route's
// dae.DirectionalDerivatives) are the central differences of its residual K y' − φ(y),
// y' following y, with the dynamic rows scaled by M(q_F) M(q)⁻¹ (relative 1e-6), at
// iterates y off the solution (q off the factorization's q_F, a off the forward-dynamics
// accelerations; and at q_F, where jvExact skips the scaling) and random directions, in
// all six forms (exactProducts), on the driven four-bar closed by a cut joint and on a
// chain with joint spring-dampers; by default only index1 and baumgarte take them, with
// DifferenceProducts none, and the products allocate nothing.
func TestBDFExactProducts(t *testing.T) {
	chain, cs := jointChain3D(t, 4, 0.05, 10)
	fb, fs := jointFourBarDriven(t, true)
	rng := rand.New(rand.NewPCG(19, 4))
	for _, c := range []struct {
		name string
		sys  dae.System
		s    State
	}{{"chain3D", chain, cs}, {"fourbar", fb, fs}} {
		for _, form := range []Formulation{StabilizedIndex2, Index2, Index2Baumgarte, Index3, Index1, Baumgarte} {
			t.Run(fmt.Sprint(c.name, "/", form), func(t *testing.T) {
				diff := &BDF{Formulation: form, DifferenceProducts: true}
				if err := diff.Init(c.sys, c.s.Clone(), StepControl{RTol: 1e-6, ATol: 1e-6}); err != nil {
					t.Fatal(err)
				}
				if diff.w.pm == nil || diff.w.ex != nil {
					t.Fatal("DifferenceProducts: want the Newton-Krylov path on differences")
				}
				def := &BDF{Formulation: form}
				if err := def.Init(c.sys, c.s.Clone(), StepControl{RTol: 1e-6, ATol: 1e-6}); err != nil {
					t.Fatal(err)
				}
				if want := form == Index1 || form == Baumgarte; (def.w.ex != nil) != want {
					t.Fatalf("default: exact products %v, want %v", def.w.ex != nil, want)
				}
				m := &BDF{Formulation: form, exactProducts: true}
				if err := m.Init(c.sys, c.s.Clone(), StepControl{RTol: 1e-6, ATol: 1e-6}); err != nil {
					t.Fatal(err)
				}
				for range 3 {
					if err := m.Step(math.Inf(1)); err != nil {
						t.Fatal(err)
					}
				}
				w := m.w
				if w.ex == nil || !w.mn().inUse() {
					t.Fatal("want exact products on the Newton-Krylov path")
				}
				checkBDFExactProducts(t, w, rng)
			})
		}
	}
}

func checkBDFExactProducts(t *testing.T, w *bdfWork, rng *rand.Rand) {
	n := w.n
	y0 := append([]float64(nil), w.yy...)
	yp0 := append([]float64(nil), w.yp...)
	x, dst, fp, fm := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for trial := range 4 {
		for i := range w.yy { // an iterate off the solution and off q_F
			w.yy[i] = y0[i] * (1 + 0.01*(rng.Float64()-0.5))
			w.yp[i] = yp0[i] + w.cj*(w.yy[i]-y0[i])
			x[i] = rng.Float64() - 0.5
		}
		if err := w.residual(); err != nil {
			t.Fatal(err)
		}
		if !w.scaled {
			t.Fatal("the residual's dynamic rows are not scaled")
		}
		if trial == 3 { // the last at q_F: a new matrix at this iterate, its rows unscaled
			if err := w.factor(); err != nil || w.scaled {
				t.Fatalf("factor: %v, scaled %v", err, w.scaled)
			}
		}
		// krylov's set-up: the iterate, its residual, GMRES's scales and ‖y/sc‖.
		copy(w.kyy, w.yy)
		copy(w.kyPrime, w.yp)
		copy(w.kres, w.res)
		var s, zs float64
		for i, y := range w.kyy {
			w.ksc[i] = 1 / (w.scal[i] * w.ewt[i])
			s += (y / w.ksc[i]) * (y / w.ksc[i])
			zs += (x[i] / w.ksc[i]) * (x[i] / w.ksc[i])
		}
		w.kyw = math.Sqrt(s / float64(n))
		w.beginExact()
		if w.ex.atF != (trial == 3) {
			t.Fatalf("trial %d: atF = %v", trial, w.ex.atF)
		}
		w.jvExact(dst, x, math.Sqrt(zs/float64(n)))
		if a := testing.AllocsPerRun(5, func() { w.jvExact(dst, x, math.Sqrt(zs/float64(n))) }); a != 0 {
			t.Errorf("jvExact: %g allocations, want 0", a)
		}
		copy(w.yy, w.kyy) // the acceleration rows' differences use yy as work
		// Central differences in each block's own scale.
		const h = 1e-6
		for i := range n {
			w.yy[i], w.yp[i] = w.kyy[i]+h*x[i], w.kyPrime[i]+w.cj*h*x[i]
		}
		_ = w.residual()
		copy(fp, w.res)
		for i := range n {
			w.yy[i], w.yp[i] = w.kyy[i]-h*x[i], w.kyPrime[i]-w.cj*h*x[i]
		}
		_ = w.residual()
		copy(fm, w.res)
		for i := range fp {
			fp[i] = (fp[i] - fm[i]) / (2 * h)
		}
		for _, b := range [][2]int{{0, w.nq}, {w.nq, 2 * w.nq}, {2 * w.nq, 3 * w.nq}, {3 * w.nq, n}} {
			scale := 1e-3
			for _, f := range fp[b[0]:b[1]] {
				scale = math.Max(scale, math.Abs(f))
			}
			for i := b[0]; i < b[1]; i++ {
				if d := math.Abs(dst[i] - fp[i]); d > 1e-6*scale || math.IsNaN(dst[i]) {
					t.Errorf("trial %d: (J x)[%d] = %.10g, differences %.10g (block scale %.3g)", trial, i, dst[i], fp[i], scale)
				}
			}
		}
		copy(w.yy, w.kyy)
		copy(w.yp, w.kyPrime)
	}
}
