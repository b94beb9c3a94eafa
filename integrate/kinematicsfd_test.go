package integrate

import (
	"math"
	"testing"

	"linkage/dae"
)

// fdPendulum is the driven pendulum with g_t and γ left to dae.KinematicsFD: only g and
// G are derived by hand, as a user's rheonomic system would be.
type fdPendulum struct {
	*pendulum
	kin *dae.KinematicsFD
}

func (p fdPendulum) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	p.kin.TimeDerivative(dst, p, t, q)
}

func (p fdPendulum) Gamma(dst []float64, t float64, q, v []float64) { p.kin.Gamma(dst, p, t, q, v) }

// TestKinematicsFDMethods runs every adaptive method but multi-index (its default formulation, and bdf
// also on index1, where γ is the constraint row) for 2 s at tol 1e-8 on the pendulum
// whose pivot is driven at 3 rad/s, once with the hand-derived g_t and γ and once with
// dae.KinematicsFD's, and asserts that the runs agree to 1e-7 in q and v at t = 2: γ and
// g_t differ by about 1e-9 and 1e-12 relative (dae.TestKinematicsFD), far below the
// tolerance. Measured: every default form takes the same steps and ends within 4e-11
// (genalpha 2e-8); bdf index1 ends within 4e-8 but takes 280 steps instead of 215 (35
// Newton failures, 132 Jacobians instead of 35): its Newton matrix differentiates the row
// G a − γ by differences once more (semiExplicit.constraintJacobian), which turns the
// 1e-9 noise of the differenced γ into about 1e-4 in ∂γ/∂q.
func TestKinematicsFDMethods(t *testing.T) {
	hand := newDrivenPendulum(1, 1, 9.81, 0.2, 3)
	byFD := fdPendulum{pendulum: hand, kin: dae.NewKinematicsFD(2, 1)}
	start := pendulumStart(hand, 0.4, 0)
	type run struct {
		name string
		form Formulation
	}
	var runs []run
	for _, e := range Methods() {
		// multi-index needs the energy invariant of seed 001, which the pendulum lacks.
		if e.Adaptive && e.Name != "multi-index" {
			runs = append(runs, run{e.Name, ""})
		}
	}
	runs = append(runs, run{"bdf", Index1})
	for _, r := range runs {
		e, _ := Lookup(r.name)
		var final [2]State
		var steps [2]int
		for k, sys := range []dae.System{hand, byFD} {
			m, err := e.NewMethod(r.form)
			if err != nil {
				t.Fatal(err)
			}
			sol, err := Solve(m, r.name, sys, start.Clone(), 2, SolveOptions{Control: StepControl{RTol: 1e-8, ATol: 1e-8}, Output: []float64{2}})
			if err != nil {
				t.Fatalf("%s %s: %v", r.name, r.form, err)
			}
			final[k], steps[k] = sol.Final, sol.Stats.Steps
		}
		var dq float64
		for i := range 2 {
			dq = math.Max(dq, math.Max(math.Abs(final[0].Q[i]-final[1].Q[i]), math.Abs(final[0].V[i]-final[1].V[i])))
		}
		t.Logf("%s %s: %d / %d steps, max |Δq|, |Δv| = %.2g", r.name, r.form, steps[0], steps[1], dq)
		if !(dq <= 1e-7) {
			t.Errorf("%s %s: hand-derived and finite-difference g_t, γ differ by %.2g in q or v at t = 2, want ≤ 1e-7", r.name, r.form, dq)
		}
	}
}
