package integrate

import (
	"math"
	"testing"
)

// incrementLog is the Newton monitor of a test that records the norms of the increments.
type incrementLog struct {
	m     *newtonMonitor
	norms []float64
}

func (l *incrementLog) start() { l.m.start() }
func (l *incrementLog) update(norm float64) newtonStatus {
	l.norms = append(l.norms, norm)
	return l.m.update(norm)
}
func (l *incrementLog) rate() float64 { return l.m.rate() }

// TestBDFRoundingLevelIsTheStall: newtonRounding's measured level is the level at which
// index1's Newton increments stall. On the joint route's chain of 100 slender rods
// released from rest (dense Newton matrix, MassSolve hidden) the predictor of the first
// step is already the solution to rounding, so both increments of the first attempt are
// rounding (measured: 2.73e-5 and 2.41e-5 in the Newton norm, θ = 0.88, against a level
// of 2.48e-5; at 200 rods 2.2e-4 and θ ≈ 1.1, which failed every h to HMin at t = 0).
func TestBDFRoundingLevelIsTheStall(t *testing.T) {
	sys, s := jointChain3D(t, 100, 0.01, 0)
	clear(s.V)
	sys.Accelerations(s.A, 0, s.Q, s.V)
	m := &BDF{Formulation: Index1}
	if err := m.Init(hideMassSolver(sys), s, StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
		t.Fatal(err)
	}
	log := &incrementLog{m: &m.w.nw.mon}
	m.w.nw.rule = log
	if err := m.Step(math.Inf(1)); err != nil {
		t.Fatal(err)
	}
	level := m.w.rnd.level
	t.Logf("increments %.3g, measured level %.3g, floor %.3g", log.norms, level, m.w.nw.mon.floor)
	if len(log.norms) < 2 {
		t.Fatalf("%d increments, want at least 2", len(log.norms))
	}
	if r := log.norms[1] / level; !(r > 0.25 && r < 4) {
		t.Errorf("second increment %.3g is %.3g × the measured rounding level %.3g, want within [1/4, 4]", log.norms[1], r, level)
	}
	if level < 1e3*tenUlpFloor(1e-4, 1e-4) {
		t.Errorf("level %.3g: want far above the 10-ulp floor %.3g (the case this measures)", level, tenUlpFloor(1e-4, 1e-4))
	}
}

// TestBDFIndex1KrylovLongChain: bdf's index1 and baumgarte forms on the Newton-Krylov
// path on the 3D chain of 400 slender rods (1200 coordinates) run to t = 5 ms at tol 1e-4
// without a Newton failure, in at most 3 iterations per step, with steps that
// allocate nothing, and land within 10 tol of the ggl form at t = 5 ms. Before the
// rounding level was measured (newtonRounding) both stopped at t = 3.6e-9 s with h below
// HMin after 17 Newton failures: GMRES's difference products drowned in the residual's
// rounding and no solve reached its tolerance (at 200 rods: 4 failures in 12 steps).
func TestBDFIndex1KrylovLongChain(t *testing.T) {
	const tol, tEnd = 1e-4, 5e-3
	sys, s := jointChain3D(t, 400, 0.01, 0)
	ctl := StepControl{RTol: tol, ATol: tol}
	ggl := &BDF{}
	runTo(t, ggl, sys, s, tEnd, ctl)
	for _, form := range []Formulation{Index1, Baumgarte} {
		t.Run(string(form), func(t *testing.T) {
			m := &BDF{Formulation: form}
			runTo(t, m, sys, s, tEnd, ctl)
			st := m.Stats()
			d := maxDiff(m.Current().Q, ggl.Current().Q)
			t.Logf("|q − q_ggl| = %.2e; %d Newton failures, %d iterations, %d f evals in %d steps; rounding level %.2g",
				d, st.NewtonFailures, st.NewtonIters, st.FuncEvals, st.Steps, m.w.rnd.level)
			if st.NewtonFailures != 0 || st.NewtonIters > 3*st.Steps || m.w.pm == nil || m.w.lu != nil {
				t.Errorf("%d Newton failures, %d iterations in %d steps (want none, at most 3 per step, on the Newton-Krylov path)",
					st.NewtonFailures, st.NewtonIters, st.Steps)
			}
			if d > 10*tol {
				t.Errorf("|q − q_ggl| = %.2e at t = %g, want ≤ %g", d, tEnd, 10*tol)
			}
			stepAllocatesNothing(t, string(form), m)
		})
	}
}

// TestBDFRoundingArmedOnlyWhenSlow: in the forms whose Newton norm scales a and λ by h or
// h², bdf's rounding measurement on the Newton-Krylov path waits for an attempt's first
// Newton failure or third iteration (newtonRounding.armed). On the 3D chain of 4 rods at
// tol 1e-6 to 0.3 s every attempt converges in two iterations: the run is never armed and
// takes the very steps and evaluations of a run without the measurement (joint's
// TestBDFGGLLoadedSlenderChain is a run that needs it armed).
func TestBDFRoundingArmedOnlyWhenSlow(t *testing.T) {
	sys, s := jointChain3D(t, 4, 0.05, 0)
	ctl := StepControl{RTol: 1e-6, ATol: 1e-6}
	for _, form := range []Formulation{StabilizedIndex2, Index2, Index2Baumgarte, Index3} {
		t.Run(string(form), func(t *testing.T) {
			with, without := &BDF{Formulation: form}, &BDF{Formulation: form}
			runTo(t, with, sys, s, 0.3, ctl)
			if err := without.Init(sys, s, ctl); err != nil {
				t.Fatal(err)
			}
			without.w.rnd = nil
			runTo(t, without, sys, s, 0.3, ctl)
			sw, so := with.Stats(), without.Stats()
			if with.w.rnd == nil || with.w.rnd.armed || with.w.pm == nil {
				t.Fatalf("measurement %v (armed), Krylov path %v: want one, not armed, on the Krylov path", with.w.rnd, with.w.pm != nil)
			}
			if sw.Steps != so.Steps || sw.FuncEvals != so.FuncEvals || sw.NewtonIters != so.NewtonIters {
				t.Errorf("steps %d / %d, evaluations %d / %d, Newton iterations %d / %d with / without the measurement",
					sw.Steps, so.Steps, sw.FuncEvals, so.FuncEvals, sw.NewtonIters, so.NewtonIters)
			}
		})
	}
}
