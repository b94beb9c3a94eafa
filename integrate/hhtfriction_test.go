package integrate

import (
	"fmt"
	"math"
	"testing"

	"linkage/dae"
	"linkage/joint"
	"linkage/law"
)

// frictionChain is n planar rods (1 m, 1 kg) hanging from pins with joint friction (μ
// 0.3, pin radius 0.02 m, viscous 0.01 N·m·s/rad, slip speed 0.05 rad/s), stretched
// along +x and released under gravity: each pin is a slack x and y slide held at zero by
// the friction's hold rows, which carry the pin's reaction (joint/friction.go), then the
// revolute. 3n coordinates, 2n constraints.
func frictionChain(t *testing.T, n int) (*joint.System, State) {
	t.Helper()
	return jointStart(t, frictionChainModel(n), func(State) {})
}

// frictionChainModel is frictionChain's model.
func frictionChainModel(n int) *joint.Model {
	md := &joint.Model{Gravity: [3]float64{0, -9.81, 0}}
	frictionRods(md, joint.Ground, [3]float64{}, n)
	return md
}

// frictionRods appends frictionChain's n rods to md, the first pinned to frame parent at
// point at, and returns the last rod's frame.
func frictionRods(md *joint.Model, parent int, at [3]float64, n int) int {
	f := parent
	for i := range n {
		f = frictionPin(md, fmt.Sprint("pin", i+1), f, at, rod(fmt.Sprint("bar", i+1), 1, 0.3))
		at = [3]float64{1, 0, 0}
	}
	return f
}

// frictionPin adds a revolute joint about z at point at of frame parent carrying body,
// with frictionChain's friction pressed by the reaction on its slack x and y slides, and
// returns body's frame.
func frictionPin(md *joint.Model, name string, parent int, at [3]float64, body joint.Body) int {
	f := md.Prismatic(name+".x", parent, at, [3]float64{1, 0, 0}, joint.Body{Name: name + ".x"})
	f = md.Prismatic(name+".y", f, [3]float64{}, [3]float64{0, 1, 0}, joint.Body{Name: name + ".y"})
	f = md.Revolute(name, f, [3]float64{}, [3]float64{0, 0, 1}, body)
	md.Friction(name, f, law.Friction{Mu: 0.3, VReg: 0.05, Radius: 0.02, Viscous: 0.01},
		joint.Hold{Name: "x", Coord: f - 2, Weight: 1}, joint.Hold{Name: "y", Coord: f - 1, Weight: 1})
	return f
}

// denseFriction hides dae.MassSolver and dae.MassMultiplier from a joint system with
// friction and keeps its λ-dependent forces: hht takes its dense Newton matrix, with
// ∂f_λ/∂(q, v, λ), on it.
type denseFriction struct {
	denseOnly
	dae.ReactionForce
}

// TestHHTFrictionKrylovMatchesDense: on a chain of 70 rods with friction in its pins
// (210 coordinates, 140 hold rows), hht
// on the Newton-Krylov path (the residual carries f_λ at the iterate's λ, so GMRES's
// difference products hold −∂f_λ/∂λ beside Gᵀ) lands where its dense path (exact Newton
// matrix with ∂f_λ/∂λ) lands, to a tenth of their error against a dense hht run at 1e-8,
// without dense fallbacks; the friction is active (it changes q by more than ten times
// that error, so a residual without f_λ would fail the agreement).
func TestHHTFrictionKrylovMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.1
	sys, s := frictionChain(t, 70) // the Krylov path with λ-dependent forces starts above massNewtonDenseMax
	dense := func(tol float64) *HHT {
		m := DefaultHHT()
		runTo(t, &m, denseFriction{denseOnly{sys, sys, sys, sys}, sys}, s, tEnd, StepControl{RTol: tol, ATol: tol})
		if m.w.mn != nil {
			t.Fatal("the dense run took the Newton-Krylov path")
		}
		return &m
	}
	ref, dn := dense(1e-8), dense(tol)
	kry := DefaultHHT()
	runTo(t, &kry, sys, s, tEnd, StepControl{RTol: tol, ATol: tol})
	if kry.w.mn == nil || !kry.w.mn.inUse() {
		t.Fatal("the friction chain's run did not take the Newton-Krylov path")
	}
	bare := DefaultHHT()
	runTo(t, &bare, hideMassSolver(sys), s, tEnd, StepControl{RTol: tol, ATol: tol}) // no f_λ
	kq, dq, rq := kry.Current().Q, dn.Current().Q, ref.Current().Q
	dKD, eK, eD, fr := maxDiff(kq, dq), maxDiff(kq, rq), maxDiff(dq, rq), maxDiff(bare.Current().Q, rq)
	ks, ds := kry.Stats(), dn.Stats()
	t.Logf("|krylov − dense| %.1e, error krylov %.1e dense %.1e, friction's effect %.1e; steps %d / %d, f evals %d / %d",
		dKD, eK, eD, fr, ks.Steps, ds.Steps, ks.FuncEvals, ds.FuncEvals)
	if dKD > 0.1*eD || eK > 1.1*eD {
		t.Errorf("|krylov − dense| = %.2e, errors krylov %.2e dense %.2e: want the paths to agree to a tenth of the error", dKD, eK, eD)
	}
	if fr < 10*eD { // a path without f_λ would miss the agreement bound by 100 ×
		t.Errorf("friction changes q by %.2e only, against an error of %.2e: the test does not see it", fr, eD)
	}
	if ks.DenseFallbacks != 0 {
		t.Errorf("%d dense fallbacks", ks.DenseFallbacks)
	}
}

// TestHHTFrictionKrylovLarge: hht starts on the chain of 70 rods with friction in its
// pins (210 coordinates, above massNewtonDenseMax, where it was refused), and on the
// four-bar with friction beside 68 such rods (frictionLoopChain: 211 coordinates, 2
// loop-closure rows among 142), on its Newton-Krylov path, keeps g(q) = 0 to the Newton
// tolerance's level, and its step allocates nothing after warm-up and stores no dense
// matrix: neither the Newton matrix nor ∂f_λ/∂q, ∂f_λ/∂v (the start solves eq. 17 through
// the recursion, TestEq17RecursiveWithFriction), nor an nc×nq G (Gᵀλ by
// dae.ConstraintForcer, the factorization reads the loop-closure rows alone,
// dae.LoopJacobian).
func TestHHTFrictionKrylovLarge(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(*testing.T, int) (*joint.System, State)
		n    int
	}{{"chain", frictionChain, 70}, {"four-bar and chain", frictionLoopChain, 68}} {
		sys, s := c.make(t, c.n)
		m := DefaultHHT()
		if err := m.Init(sys, s, StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
			t.Fatal(err)
		}
		for range 5 {
			if err := m.Step(math.Inf(1)); err != nil {
				t.Fatal(err)
			}
		}
		stepAllocatesNothing(t, "hht step with friction, "+c.name, &m)
		if m.w.mn == nil || m.w.lu != nil || m.w.rx.Fq != nil {
			t.Errorf("%s: the run left the Newton-Krylov path (DenseFallbacks %d)", c.name, m.Stats().DenseFallbacks)
		}
		if m.w.G != nil || m.w.mn.G != nil {
			t.Errorf("%s: an nc×nq G is stored on the Newton-Krylov path", c.name)
		}
		cur := m.Current()
		_, nc := sys.Size()
		g := make([]float64, nc)
		sys.Constraint(g, cur.T, cur.Q)
		if r := maxDiff(g, make([]float64, nc)); r > 1e-6 {
			t.Errorf("%s: |g(q)| = %.2e at t = %g, want ≤ 1e-6", c.name, r, cur.T)
		}
		t.Logf("%s: t = %g after %d steps, %d f evals", c.name, cur.T, m.Stats().Steps, m.Stats().FuncEvals)
	}
}

// TestEq17RecursiveWithFriction: eq. 17 with the λ-dependent friction forces, solved
// through dae.MassSolver (massSchur, M never formed, the fixed-point iteration on λ) at a
// moving state of the 4-rod friction chain, gives the a and λ of the dense KKT
// factorization to 1e-10 relative, and the friction changes them.
func TestEq17RecursiveWithFriction(t *testing.T) {
	sys, s := frictionChain(t, 4)
	nq, nc := sys.Size()
	for i := 2; i < nq; i += 3 {
		s.V[i] = 0.5 * float64(i%2*2-1) // the pins' angular rates; the slack rates stay 0
	}
	solve := func(sys dae.System) (a, lambda []float64, e *eq17) {
		a, lambda, e = make([]float64, nq), make([]float64, nc), newEq17(sys)
		if err := e.solve(a, lambda, 0, s.Q, s.V, &Stats{}); err != nil {
			t.Fatal(err)
		}
		return a, lambda, e
	}
	ar, lr, rec := solve(sys)
	ad, ld, dense := solve(denseFriction{denseOnly{sys, sys, sys, sys}, sys})
	ab, lb, _ := solve(hideMassSolver(sys)) // without f_λ
	if rec.M != nil || rec.rec == nil || dense.rec != nil {
		t.Fatal("the solves did not take the intended paths")
	}
	scale := 1 + math.Max(maxDiff(ad, make([]float64, nq)), maxDiff(ld, make([]float64, nc)))
	da, dl := maxDiff(ar, ad), maxDiff(lr, ld)
	fa, fl := maxDiff(ab, ad), maxDiff(lb, ld)
	t.Logf("recursive − dense: a %.1e, λ %.1e (scale %.1f); friction's effect: a %.1e, λ %.1e", da, dl, scale, fa, fl)
	if da > 1e-10*scale || dl > 1e-10*scale {
		t.Errorf("recursive − dense: a %.2e, λ %.2e, want ≤ 1e-10 × %.1f", da, dl, scale)
	}
	if fa < 1e-3 {
		t.Errorf("friction changes a by %.2e only: the test does not see it", fa)
	}
}
