package joint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// denseKnife hides the System's MassSolver and MassMultiplier (and every other optional
// capability but its Pfaffian rows), so that a method forms M and factorizes eq. 17.
type denseKnife struct {
	dae.System
	dae.Nonholonomic
}

// TestKnifeEdgeTakesTheRecursion: dae.WithPfaffianRows keeps the tree's articulated-body
// solve and Newton-Euler product (M does not see the Pfaffian rows), so dopri5 on a
// knife-edge tree takes eq. 17 by the Schur complement [G; A] M⁻¹ [G; A]ᵀ and never forms
// M, and its fixed steps agree with the same steps through the dense KKT matrix.
func TestKnifeEdgeTakesTheRecursion(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 5))
	m := &Model{Gravity: [3]float64{0.3, -1, -9.81}}
	b := Body{Name: "b", Mass: 1.2, COM: [3]float64{0.1, 0.2, -0.1},
		Inertia: [3][3]float64{{0.5, 0.01, 0}, {0.01, 0.4, 0.02}, {0, 0.02, 0.3}}}
	f := m.Revolute("r1", Ground, [3]float64{0.2, 0.1, 0}, [3]float64{0, 0.3, 1}, b)
	f = m.Universal("u2", f, [3]float64{0.5, 0, 0.1}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0}, b)
	m.KnifeEdge("blade", f, [3]float64{0.1, -0.2, 0.3}, [3]float64{0.2, 1, -0.3})
	g := m.Revolute("r3", m.Free("f4", Ground, [3]float64{1, 0, 0}, b), [3]float64{0.3, 0, 0}, [3]float64{0, 0, 1}, b)
	m.KnifeEdge("skate", g, [3]float64{-0.3, 0.1, 0.2}, [3]float64{0, 0, 2})
	sys, nq, q, v := systemAt(t, rng, m) // a tree without cut joints: any q is consistent
	rows := dae.WithPfaffianRows(sys)
	if _, ok := rows.(dae.MassSolver); !ok {
		t.Errorf("WithPfaffianRows(%T) is no dae.MassSolver", sys)
	}
	if _, ok := rows.(dae.MassMultiplier); !ok {
		t.Errorf("WithPfaffianRows(%T) is no dae.MassMultiplier", sys)
	}
	c, err := dae.Initialize(rows, 0, q, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := integrate.State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
	end := func(s dae.System) integrate.State {
		var m integrate.DOPRI5
		if err := m.Init(s, start.Clone(), integrate.StepControl{FixedH: 1e-3}); err != nil {
			t.Fatal(err)
		}
		for m.Current().T < 0.05-1e-12 {
			if err := m.Step(0.05); err != nil {
				t.Fatal(err)
			}
		}
		return m.Current().Clone()
	}
	sys.mass = nil // Initialize's dense eq. 17 formed M; the run must not
	rec := end(sys)
	if sys.mass != nil {
		t.Errorf("dopri5 on the knife-edge tree formed M (composite-rigid-body), want the articulated-body recursion only")
	}
	dense := end(denseKnife{sys, sys})
	if sys.mass == nil {
		t.Fatalf("the dense run did not form M either: the check above cannot tell")
	}
	var gap float64
	for i := range nq {
		gap = math.Max(gap, math.Max(math.Abs(rec.Q[i]-dense.Q[i]), math.Abs(rec.V[i]-dense.V[i])))
	}
	if gap > 1e-9 || rec.T != dense.T {
		t.Errorf("recursion vs dense KKT after 50 fixed steps: t %g vs %g, max |Δq|, |Δv| = %.3g; want the same steps to round-off (1e-9)", rec.T, dense.T, gap)
	}
	t.Logf("t = %g: recursion vs dense max gap %.3g", rec.T, gap)
}

// knifeChain is a chain of n rods (0.5 m, 1 kg) on spherical joints hung from the origin
// along +x, turning at 1 rad/s about the vertical, with a knife edge at the last rod's tip
// (no sliding along the rod's y axis); its consistent start by dae.Initialize.
func knifeChain(b *testing.B, n int) (*System, integrate.State) {
	const l, m, r = 0.5, 1.0, 0.01
	md := &Model{Gravity: [3]float64{0, 0, -9.81}}
	rod := Body{Name: "rod", Mass: m, COM: [3]float64{l / 2, 0, 0},
		Inertia: [3][3]float64{{m * r * r / 2, 0, 0}, {0, m * l * l / 12, 0}, {0, 0, m * l * l / 12}}}
	f, origin := Ground, [3]float64{}
	for i := range n {
		f = md.Spherical(fmt.Sprint("ball", i+1), f, origin, rod)
		origin = [3]float64{l, 0, 0}
	}
	md.KnifeEdge("tip", f, [3]float64{l, 0, 0}, [3]float64{0, 1, 0})
	sys, err := md.System()
	if err != nil {
		b.Fatal(err)
	}
	nq, _ := sys.Size()
	q, v := make([]float64, nq), make([]float64, nq)
	v[md.Coordinate("ball1.z")] = 1
	c, err := dae.Initialize(dae.WithPfaffianRows(sys), 0, q, v, nil)
	if err != nil {
		b.Fatal(err)
	}
	return sys, integrate.State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
}

// BenchmarkKnifeChainDopri5 is a dopri5 step (h = 1e-3) on knifeChain: eq. 17 through the
// articulated-body recursion (dae.WithPfaffianRows keeps MassSolve) against the dense KKT
// matrix the wrapper used to force (denseKnife), in the same run.
func BenchmarkKnifeChainDopri5(b *testing.B) {
	for _, n := range []int{20, 100} {
		sys, start := knifeChain(b, n)
		for _, c := range []struct {
			name string
			sys  dae.System
		}{{"recursion", sys}, {"dense", denseKnife{sys, sys}}} {
			b.Run(fmt.Sprintf("N=%d/%s", n, c.name), func(b *testing.B) {
				var m integrate.DOPRI5
				if err := m.Init(c.sys, start.Clone(), integrate.StepControl{FixedH: 1e-3}); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					if err := m.Step(1e9); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
