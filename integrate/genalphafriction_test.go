package integrate

import (
	"fmt"
	"math"
	"testing"

	"linkage/dae"
	"linkage/joint"
)

// frictionAlphaForms are the configurations of GenAlpha that take λ-dependent forces on
// the Newton-Krylov path: genalpha's two forms, newmark's two and lie-genalpha's two (run
// as genalpha on a joint System).
var frictionAlphaForms = []struct {
	method string
	form   Formulation
}{
	{"genalpha", Index3}, {"genalpha-si2", StabilizedIndex2},
	{"newmark", StabilizedIndex2}, {"newmark", Index3},
	{"lie-genalpha", Index3}, {"lie-genalpha", StabilizedIndex2},
}

// newFrictionAlpha returns a fresh method of the named configuration and a probe of the
// massNewton its run took (nil on a dense path, also lie-genalpha's own iteration).
func newFrictionAlpha(t *testing.T, method string, form Formulation) (Method, func() *massNewton) {
	t.Helper()
	e, err := Lookup(method)
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.NewMethod(form)
	if err != nil {
		t.Fatal(err)
	}
	switch m := m.(type) {
	case *GenAlpha:
		return m, func() *massNewton { return m.w.mn }
	case *LieGenAlpha:
		return m, func() *massNewton {
			if m.ga == nil {
				return nil
			}
			return m.ga.w.mn
		}
	}
	t.Fatalf("%s is a %T", method, m)
	return nil, nil
}

// TestGenAlphaFrictionKrylovMatchesDense: on the four-bar and the chain of 68 rods with
// friction in their pins (frictionLoopChain: 211 coordinates, 142 rows; the Krylov path
// with λ-dependent forces starts above massNewtonDenseMax), genalpha (index 3 and si2),
// newmark (si2 and index 3) and lie-genalpha (both forms) on the Newton-Krylov path (the
// residuals of eqs. 69/94 carry f_λ at the iterate's λ, so GMRES's difference products
// hold −∂f_λ/∂λ beside Gᵀ, and in si2 the μ columns and G v + g_t rows) land where the
// same configuration on its dense path lands (the exact matrix with ∂f_λ; lie-genalpha's
// own iteration with eq. 17 by Newton on λ), to a tenth of their error against a dense
// hht run at 1e-8, without dense fallbacks. The friction is active: it changes q by more
// than ten times that error, so a residual without f_λ would miss the agreement bound;
// and si2's μ is not 0 (the cut joint's rows are nonlinear).
func TestGenAlphaFrictionKrylovMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.1
	sys, s := frictionLoopChain(t, 68)
	dense := denseFriction{denseOnly{sys, sys, sys, sys}, sys}
	ref := DefaultHHT()
	runTo(t, &ref, dense, s, tEnd, StepControl{RTol: 1e-8, ATol: 1e-8})
	rq := ref.Current().Q
	for _, c := range frictionAlphaForms {
		t.Run(fmt.Sprintf("%s-%s", c.method, c.form), func(t *testing.T) {
			kry, kmn := newFrictionAlpha(t, c.method, c.form)
			den, dmn := newFrictionAlpha(t, c.method, c.form)
			runTo(t, kry, sys, s, tEnd, StepControl{RTol: tol, ATol: tol})
			runTo(t, den, dense, s, tEnd, StepControl{RTol: tol, ATol: tol})
			if kmn() == nil || !kmn().inUse() || dmn() != nil {
				t.Fatal("the runs did not take the intended paths")
			}
			kq, dq := kry.Current().Q, den.Current().Q
			dKD, eK, eD := maxDiff(kq, dq), maxDiff(kq, rq), maxDiff(dq, rq)
			ks, ds := kry.Stats(), den.Stats()
			t.Logf("|krylov − dense| %.1e, error krylov %.1e dense %.1e; steps %d / %d, f evals %d / %d",
				dKD, eK, eD, ks.Steps, ds.Steps, ks.FuncEvals, ds.FuncEvals)
			if dKD > 0.1*eD || eK > 1.1*eD {
				t.Errorf("|krylov − dense| = %.2e, errors krylov %.2e dense %.2e: want the paths to agree to a tenth of the error", dKD, eK, eD)
			}
			if ks.DenseFallbacks != 0 {
				t.Errorf("%d dense fallbacks", ks.DenseFallbacks)
			}
			if w := gaWork(kry); c.form == StabilizedIndex2 && maxAbs(w.x[w.nq+w.nc:]) == 0 {
				t.Error("μ = 0 at the last step: the test does not exercise the stabilizer's rows")
			}
			if c.method == "genalpha" {
				bare, _ := newFrictionAlpha(t, c.method, c.form)
				runTo(t, bare, hideMassSolver(sys), s, tEnd, StepControl{RTol: tol, ATol: tol}) // no f_λ
				if fr := maxDiff(bare.Current().Q, rq); fr < 10*eD {
					t.Errorf("friction changes q by %.2e only, against an error of %.2e: the test does not see it", fr, eD)
				}
			}
		})
	}
}

// TestGenAlphaFrictionKrylovLarge: genalpha, genalpha-si2, newmark (both forms) and
// lie-genalpha (both forms) start on the four-bar and the chain of 80 rods with friction
// in their pins (frictionLoopChain, 247 coordinates, above massNewtonDenseMax, where they
// were refused) on their Newton-Krylov
// path, keep g(q) = 0 to the Newton tolerance's level, allocate nothing per step after
// warm-up and store no dense matrix (neither the Newton matrix nor ∂f_λ/∂q, ∂f_λ/∂v; nor,
// in the index-3 forms, an nc×nq G: Gᵀ hλ by dae.ConstraintForcer, the factorization
// reads G's loop-closure rows alone, dae.LoopJacobian; si2's preconditioner reads G Gᵀ).
func TestGenAlphaFrictionKrylovLarge(t *testing.T) {
	sys, s := frictionLoopChain(t, 80)
	nq, nc := sys.Size()
	for _, c := range frictionAlphaForms {
		t.Run(fmt.Sprintf("%s-%s", c.method, c.form), func(t *testing.T) {
			m, mn := newFrictionAlpha(t, c.method, c.form)
			if err := m.Init(sys, s, StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
				t.Fatal(err)
			}
			for range 5 {
				if err := m.Step(math.Inf(1)); err != nil {
					t.Fatal(err)
				}
			}
			stepAllocatesNothing(t, c.method, m)
			w := gaWork(m)
			if mn() == nil || w.lu != nil || w.M != nil || w.rx.Fq != nil {
				t.Errorf("the run left the Newton-Krylov path (DenseFallbacks %d)", m.Stats().DenseFallbacks)
			}
			if gStored := w.G0 != nil || w.G1 != nil || mn().G != nil; gStored != (c.form == StabilizedIndex2) {
				t.Errorf("an nc×nq G stored: %v, want it only for si2's G Gᵀ", gStored)
			}
			cur := m.Current()
			g := make([]float64, nc)
			sys.Constraint(g, cur.T, cur.Q)
			if r := maxDiff(g, make([]float64, nc)); r > 1e-6 {
				t.Errorf("|g(q)| = %.2e at t = %g, want ≤ 1e-6", r, cur.T)
			}
			t.Logf("t = %g after %d steps, %d f evals, |μ| %.1e", cur.T, m.Stats().Steps, m.Stats().FuncEvals, maxAbs(w.x[nq+nc:]))
		})
	}
}

// gaWork is the genalpha work of a GenAlpha or of a LieGenAlpha run as genalpha.
func gaWork(m Method) *genAlphaWork {
	if l, ok := m.(*LieGenAlpha); ok {
		return l.ga.w
	}
	return m.(*GenAlpha).w
}

// frictionLoopChain is jointFourBar's four-bar with frictionChain's friction in its two
// ground pins (its cut joint's rows are nonlinear in q, so the stabilizer μ of the si2
// form works, where the chain's hold rows alone, linear, leave it 0) beside a chain of n
// rods with friction in its pins, hung from (0, 2, 0): 3n + 7 coordinates, 2n + 6 rows.
// The crank starts at π/2 turning at 2π rad/s, the chain at rest.
func frictionLoopChain(t *testing.T, n int) (*joint.System, State) {
	t.Helper()
	md := &joint.Model{Gravity: [3]float64{0, -9.81, 0}}
	z := [3]float64{0, 0, 1}
	crank := frictionPin(md, "crankpin", joint.Ground, [3]float64{}, rod("crank", 0.1, 0.01))
	coupler := md.Revolute("A", crank, [3]float64{0.1, 0, 0}, z, rod("coupler", 0.4, 0.01))
	rocker := frictionPin(md, "rockerpin", joint.Ground, [3]float64{0.35, 0, 0}, rod("rocker", 0.3, 0.01))
	md.Cut("B", coupler, [3]float64{0.4, 0, 0}, rocker, [3]float64{0.3, 0, 0}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0})
	frictionRods(md, joint.Ground, [3]float64{0, 2, 0}, n)
	sys, err := md.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ := sys.Size()
	q, v := make([]float64, nq), make([]float64, nq)
	q[2], q[3], q[6] = math.Pi/2, 0.5235-math.Pi/2, 1.5827 // crank, A, rocker (after each ground pin's two slides)
	v[2] = 2 * math.Pi
	c, err := dae.Initialize(sys, 0, q, v, &dae.InitOptions{Keep: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	return sys, State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
}

// TestLieGenAlphaFrictionDenseAllocatesNothing: below massNewtonDenseMax lie-genalpha
// keeps its own iteration on a joint System with friction (dense, eq. 17 by Newton on λ);
// its step, with a fresh matrix each (the damping −∂f/∂v of dae.VectorSpace), allocates
// nothing after warm-up.
func TestLieGenAlphaFrictionDenseAllocatesNothing(t *testing.T) {
	sys, s := frictionLoopChain(t, 4)
	for _, form := range []Formulation{Index3, StabilizedIndex2} {
		m := DefaultLieGenAlpha()
		m.Formulation, m.Newton.Jacobian = form, JacobianEveryStep
		if err := m.Init(sys, s, StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
			t.Fatal(err)
		}
		if m.ga != nil {
			t.Fatal("lie-genalpha ran as genalpha below massNewtonDenseMax")
		}
		for range 5 {
			if err := m.Step(math.Inf(1)); err != nil {
				t.Fatal(err)
			}
		}
		stepAllocatesNothing(t, "lie-genalpha "+string(form), &m)
	}
}
