package integrate

import (
	"fmt"
	"math"
	"testing"

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

// TestGenAlphaFrictionKrylovMatchesDense: on the chain of 70 rods with friction in its
// pins (210 coordinates, 140 hold rows; the Krylov path with λ-dependent forces starts
// above massNewtonDenseMax), genalpha (index 3 and si2), newmark (si2 and index 3) and
// lie-genalpha (both forms) on the Newton-Krylov path (the residuals of eqs. 69/94 carry
// f_λ at the iterate's λ, so GMRES's difference products hold −∂f_λ/∂λ beside Gᵀ, and in
// si2 the μ rows) land where the same configuration on its dense path lands (the exact
// matrix with ∂f_λ; lie-genalpha's own iteration with eq. 17 by Newton on λ), to a tenth
// of their error against a dense hht run at 1e-8, without dense fallbacks. The friction
// is active: it changes q by more than ten times that error, so a residual without f_λ
// would miss the agreement bound.
func TestGenAlphaFrictionKrylovMatchesDense(t *testing.T) {
	const tol, tEnd = 1e-6, 0.1
	sys, s := frictionAlphaChain(t, 70)
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
// lie-genalpha (both forms) start on the chain of 80 rods with friction in its pins (240
// coordinates, above massNewtonDenseMax, where they were refused) on their Newton-Krylov
// path, keep g(q) = 0 to the Newton tolerance's level, allocate nothing per step after
// warm-up and store no dense matrix (neither the Newton matrix nor ∂f_λ/∂q, ∂f_λ/∂v).
func TestGenAlphaFrictionKrylovLarge(t *testing.T) {
	sys, s := frictionAlphaChain(t, 80)
	_, nc := sys.Size()
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
			cur := m.Current()
			g := make([]float64, nc)
			sys.Constraint(g, cur.T, cur.Q)
			if r := maxDiff(g, make([]float64, nc)); r > 1e-6 {
				t.Errorf("|g(q)| = %.2e at t = %g, want ≤ 1e-6", r, cur.T)
			}
			t.Logf("t = %g after %d steps, %d f evals", cur.T, m.Stats().Steps, m.Stats().FuncEvals)
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

// frictionAlphaChain is frictionChain with a start whose λ has the system's nc entries,
// as genalpha's Init wants (hht's does not read them).
func frictionAlphaChain(t *testing.T, n int) (*joint.System, State) {
	sys, s := frictionChain(t, n)
	nq, nc := sys.Size()
	st := NewState(nq, nc)
	copy(st.Q, s.Q)
	copy(st.V, s.V)
	copy(st.A, s.A)
	return sys, st
}
