package problems

import (
	"errors"
	"math"
	"strings"
	"testing"

	"linkage/integrate"
)

// The Lie group generalized-α method on the heavy tops of seed 002, Example 6, in the
// Lie-group form (LieHeavyTop). Its conformance on ℝⁿ (dae.VectorSpace) runs in
// conformance_test.go with every other method.

var lieForms = []integrate.Formulation{integrate.Index3, integrate.StabilizedIndex2}

// runLie integrates top's Lie-group form from its start to tEnd with lie-genalpha in
// formulation form and returns the method and the largest |‖p‖² − 1| over the steps.
func runLie(t testing.TB, top HeavyTop, form integrate.Formulation, tEnd float64, ctl integrate.StepControl) (integrate.LieMethod, float64) {
	t.Helper()
	e, err := integrate.Lookup("lie-genalpha")
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.NewLieMethod(form)
	if err != nil {
		t.Fatal(err)
	}
	sys := top.Lie()
	s, err := sys.Start()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.InitLie(sys, s, ctl); err != nil {
		t.Fatal(err)
	}
	var norm float64
	for m.Current().T < tEnd {
		if err := m.Step(tEnd); err != nil {
			t.Fatal(err)
		}
		q := m.Current().Q
		norm = math.Max(norm, math.Abs(q[3]*q[3]+q[4]*q[4]+q[5]*q[5]+q[6]*q[6]-1))
	}
	return m, norm
}

// lieStateError returns the max-norm errors of q (x and the quaternion, its sign fixed to
// the reference's) and of v = (u, Ω).
func lieStateError(s, ref *integrate.State) (eq, ev float64) {
	sign := 1.0
	if s.Q[3]*ref.Q[3]+s.Q[4]*ref.Q[4]+s.Q[5]*ref.Q[5]+s.Q[6]*ref.Q[6] < 0 {
		sign = -1
	}
	for i := range 7 {
		x := s.Q[i]
		if i >= 3 {
			x *= sign
		}
		eq = math.Max(eq, math.Abs(x-ref.Q[i]))
	}
	for i := range 6 {
		ev = math.Max(ev, math.Abs(s.V[i]-ref.V[i]))
	}
	return eq, ev
}

// TestLieGenAlphaOrderHeavyTops: fixed steps h, h/2, h/4 on the slow top over [0, 1] and
// the fast top over [0, 0.2] (|Ω| = 150 rad/s: h|Ω| = 0.15 at the largest step), against
// the independent RK4 route (LieReference): order 2 ± 0.2 in positions (x and the
// quaternion) and velocities (u, Ω), in both formulations. Measured ratios 1.99-2.01.
func TestLieGenAlphaOrderHeavyTops(t *testing.T) {
	for _, c := range []struct {
		name string
		top  HeavyTop
		tEnd float64
		n    int
	}{{"slow", DefaultHeavyTop(), 1, 100}, {"fast", FastHeavyTop(), 0.2, 200}} {
		ref := c.top.Lie().LieReference(c.tEnd, 4000)
		for _, form := range lieForms {
			var eq, ev [3]float64
			for k := range 3 {
				n := c.n << k
				m, _ := runLie(t, c.top, form, c.tEnd, integrate.StepControl{FixedH: c.tEnd / float64(n), RTol: 1e-10, ATol: 1e-10})
				if st := m.Stats(); st.Steps != n {
					t.Errorf("%s %s: %d steps, want %d", c.name, form, st.Steps, n)
				}
				eq[k], ev[k] = lieStateError(m.Current(), &ref)
			}
			for k := range 2 {
				for _, b := range []struct {
					block string
					e     [3]float64
				}{{"q", eq}, {"v", ev}} {
					if p := math.Log2(b.e[k] / b.e[k+1]); !(math.Abs(p-2) <= 0.2) {
						t.Errorf("%s top, %s: %s: observed order %.2f from errors %.3g -> %.3g, want 2 ± 0.2", c.name, form, b.block, p, b.e[k], b.e[k+1])
					}
				}
			}
		}
	}
}

// TestLieGenAlphaFastTopReference: the fast top at t = 2 against the published reference
// (kynema's Lie group generalized-α run with h = 2e-6, heavy_top.json), which issue 21 asks
// to meet to 1e-5, with fixed steps h = 2e-5 (measured 4.6e-6 index3, 2.1e-6 ggl; the
// reference itself is good to about 1e-6); and the unit-quaternion norm stays at rounding
// over the run by construction (measured 4.4e-16), with no normalization constraint.
func TestLieGenAlphaFastTopReference(t *testing.T) {
	if testing.Short() {
		t.Skip("100000 steps")
	}
	ref := integrate.State{Q: fastTopReference2[:], V: make([]float64, 6)}
	for _, form := range lieForms {
		m, norm := runLie(t, FastHeavyTop(), form, 2, integrate.StepControl{FixedH: 2e-5, RTol: 1e-10, ATol: 1e-10})
		eq, _ := lieStateError(m.Current(), &ref)
		if !(eq <= 1e-5) {
			t.Errorf("%s: fast top at t = 2: max |q − q_ref| = %.3g, want ≤ 1e-5", form, eq)
		}
		if !(norm <= 1e-15) {
			t.Errorf("%s: max |‖p‖² − 1| = %.3g over the run, want rounding (≤ 1e-15)", form, norm)
		}
	}
}

// TestLieGenAlphaAdaptive: error control on the slow top over [0, 2]: the errors fall with
// the tolerance (the local-error estimate of LieGenAlpha, bracket term included, steers
// the steps), the constraint Φ = x − R X holds to the corrector's tolerance, the
// quaternion stays unit, and the counters are consistent.
func TestLieGenAlphaAdaptive(t *testing.T) {
	top := DefaultHeavyTop()
	ref := top.Lie().LieReference(2, 8000)
	for _, form := range lieForms {
		var prev float64
		for _, tol := range []float64{1e-5, 1e-7} {
			m, norm := runLie(t, top, form, 2, integrate.StepControl{RTol: tol, ATol: tol})
			eq, _ := lieStateError(m.Current(), &ref)
			// A second-order method under local error control: the global error scales
			// like tol^(2/3), a factor 21.5 over two decades (measured 2.5e-3 → 1.4e-4,
			// factor 18, index3; 3.1e-3 → 1.4e-4, 22, ggl).
			if !(eq <= 1e4*tol) || (prev > 0 && !(eq <= prev/10 && eq >= prev/50)) {
				t.Errorf("%s tol %g: error %.3g at t = 2 (previous tolerance %.3g)", form, tol, eq, prev)
			}
			prev = eq
			phi := make([]float64, 3)
			top.Lie().Constraint(phi, 2, m.Current().Q)
			for i, r := range phi {
				if !(math.Abs(r) <= 10*tol) {
					t.Errorf("%s tol %g: Φ[%d] = %.3g at t = 2", form, tol, i, r)
				}
			}
			if !(norm <= 1e-15) {
				t.Errorf("%s tol %g: max |‖p‖² − 1| = %.3g", form, tol, norm)
			}
			st := m.Stats()
			if st.Steps <= 0 || st.NewtonIters < st.Steps || st.FuncEvals < st.NewtonIters ||
				st.Jacobians <= 0 || st.Factorizations < st.Jacobians || st.Solves < st.NewtonIters || st.FDEvals != 0 {
				t.Errorf("%s tol %g: implausible statistics %+v", form, tol, st)
			}
		}
	}
}

// TestLieGenAlphaAllocs: a step allocates nothing after Init.
func TestLieGenAlphaAllocs(t *testing.T) {
	for _, form := range lieForms {
		m, _ := runLie(t, FastHeavyTop(), form, 0.01, integrate.StepControl{RTol: 1e-6, ATol: 1e-6})
		dst := integrate.State{Q: make([]float64, 7), V: make([]float64, 6), A: make([]float64, 6), Lambda: make([]float64, 3)}
		if a := testing.AllocsPerRun(50, func() {
			if err := m.Step(math.Inf(1)); err != nil {
				t.Fatal(err)
			}
			m.Interpolate(&dst, (m.Previous().T+m.Current().T)/2)
		}); a != 0 {
			t.Errorf("%s: %.1f allocations per step, want 0", form, a)
		}
	}
}

// TestLieGenAlphaInterpolate: dense output lies on the group (unit quaternion), ends at
// the step's end points and satisfies the constraint to the order of the method.
func TestLieGenAlphaInterpolate(t *testing.T) {
	top := DefaultHeavyTop()
	m, _ := runLie(t, top, integrate.Index3, 0.1, integrate.StepControl{FixedH: 0.01, RTol: 1e-10, ATol: 1e-10})
	a, b := m.Previous(), m.Current()
	dst := integrate.State{Q: make([]float64, 7), V: make([]float64, 6), A: make([]float64, 6), Lambda: make([]float64, 3)}
	phi := make([]float64, 3)
	for _, s := range []float64{0, 0.3, 0.7, 1} {
		m.Interpolate(&dst, a.T+s*(b.T-a.T))
		q := dst.Q
		if n := q[3]*q[3] + q[4]*q[4] + q[5]*q[5] + q[6]*q[6]; math.Abs(n-1) > 1e-15 {
			t.Errorf("s = %g: ‖p‖² = %.17g", s, n)
		}
		top.Lie().Constraint(phi, dst.T, q)
		for i, r := range phi {
			if !(math.Abs(r) <= 1e-5) { // O(h³) with h = 0.01
				t.Errorf("s = %g: Φ[%d] = %.3g", s, i, r)
			}
		}
	}
	m.Interpolate(&dst, b.T)
	for i := range 7 {
		if math.Abs(dst.Q[i]-b.Q[i]) > 1e-15 {
			t.Errorf("at t_{n+1}: q[%d] = %.17g, want %.17g", i, dst.Q[i], b.Q[i])
		}
	}
}

// TestNewLieMethodRefuses: every method without the capability refuses a Lie-group system
// naming it; lie-genalpha takes it.
func TestNewLieMethodRefuses(t *testing.T) {
	n := 0
	for _, e := range integrate.Methods() {
		_, err := e.NewLieMethod("")
		switch {
		case e.Lie && err != nil:
			t.Errorf("%s: %v", e.Name, err)
		case e.Lie:
			n++
		case err == nil || !strings.Contains(err.Error(), "dae.LieSystem") || !strings.Contains(err.Error(), e.Name):
			t.Errorf("%s: error %v, want a refusal naming the method and dae.LieSystem", e.Name, err)
		}
	}
	if n != 1 {
		t.Errorf("%d methods take a Lie-group system, want 1 (lie-genalpha)", n)
	}
}

// TestLieGenAlphaInconsistentStart: a start off the constraint is refused naming it.
func TestLieGenAlphaInconsistentStart(t *testing.T) {
	sys := DefaultHeavyTop().Lie()
	s, _ := sys.Start()
	s.Q[1] += 1e-3
	m := integrate.DefaultLieGenAlpha()
	err := m.InitLie(sys, s, integrate.StepControl{})
	if err == nil || !strings.Contains(err.Error(), "position constraint 1") {
		t.Errorf("error %v, want one naming position constraint 1", err)
	}
	var se *integrate.StepError
	if errors.As(err, &se) {
		t.Errorf("Init error is a StepError: %v", err)
	}
}

// BenchmarkTopStep is the cost of one fixed step (h = 1e-4) of the fast top on both
// routes: lie-genalpha on LieHeavyTop and genalpha on HeavyTop (Euler parameters).
func BenchmarkTopStep(b *testing.B) {
	ctl := integrate.StepControl{FixedH: 1e-4, RTol: 1e-6, ATol: 1e-6}
	for _, form := range lieForms {
		b.Run("lie-genalpha/"+string(form), func(b *testing.B) {
			m, _ := runLie(b, FastHeavyTop(), form, 1e-3, ctl)
			b.ReportAllocs()
			for b.Loop() {
				if err := m.Step(math.Inf(1)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("genalpha/euler-params", func(b *testing.B) {
		p, _ := Get("heavytop-fast")
		e, _ := integrate.Lookup("genalpha")
		m := e.New()
		if err := m.Init(p.System, p.Start.Clone(), ctl); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := m.Step(math.Inf(1)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestLieGenAlphaMatrixFollowsRotation: on the fast top the iteration matrix turns with
// the body (B = (I, R X̃)); lie-genalpha forms it anew after 0.05 rad, so a reused matrix
// rarely fails. Measured over [0, 0.5] at tol 1e-5: index3 0 of 573 steps, ggl 0 of 415
// (without the rule nearly every step failed once: 2225 of 2221 over [0, 2]).
func TestLieGenAlphaMatrixFollowsRotation(t *testing.T) {
	for _, form := range lieForms {
		m, _ := runLie(t, FastHeavyTop(), form, 0.5, integrate.StepControl{RTol: 1e-5, ATol: 1e-5})
		st := m.Stats()
		if !(st.NewtonFailures*20 <= st.Steps) {
			t.Errorf("%s: %d Newton failures in %d steps, want at most 5%%", form, st.NewtonFailures, st.Steps)
		}
	}
}
