package joint_test

import (
	"math"
	"testing"

	"linkage/integrate"
)

// TestRadau5IterationsSlenderChain: on the 20-rod chain of radius 1e-4 m from its loaded
// state (t = 0.25 s; spin inertias 5e-9 kg m², the joint route's 1000-rod failure in
// small), radau5's simplified Newton iteration with J at the step start (newton=frozen,
// Newton.Jacobian = JacobianEveryStep) fails about once per accepted step at tol 1e-4 (20
// failures in 23 steps to t = 0.3, measured), its second increment undoing the first; the
// coupled stage iteration (newton=stage, JacobianEveryIteration, each stage's J at its
// iterate) takes no failure and fewer than half the evaluations; the default
// (JacobianAuto) switches to it after the frozen iteration's first failure and takes at
// most two failures and fewer than half the frozen evaluations. All end as close to
// dopri5, and the steps of the coupled and default iterations allocate nothing.
func TestRadau5IterationsSlenderChain(t *testing.T) {
	const t1 = 0.3
	sys, s := slenderChain3D(t, 20, 1e-4)
	s = stateAt(t, sys, s, 0.25)
	ref := stateAt(t, sys, s, t1)
	iterations := []string{"frozen", "stage", "auto"}
	stats := make([]integrate.Stats, len(iterations))
	for k, it := range iterations {
		m := &integrate.Radau5{Newton: radau5Iteration(it)}
		if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
			t.Fatal(err)
		}
		for m.Current().T < t1 {
			if err := m.Step(t1); err != nil {
				t.Fatalf("%s: %v", it, err)
			}
		}
		var worst float64
		for i, q := range m.Current().Q {
			worst = math.Max(worst, math.Abs(q-ref.Q[i]))
		}
		st := m.Stats()
		stats[k] = st
		t.Logf("%s: %d steps, %d Newton failures, %d Newton iterations, %d evaluations, max |q − q_ref| = %.2e",
			it, st.Steps, st.NewtonFailures, st.NewtonIters, st.FuncEvals, worst)
		if worst > 1e-4 {
			t.Errorf("%s: max |q − q_ref| = %.2e at t = %g, want ≤ 1e-4 (tol 1e-4)", it, worst, t1)
		}
		if it == "frozen" {
			continue
		}
		if a := testing.AllocsPerRun(5, func() { _ = m.Step(math.Inf(1)) }); a != 0 {
			t.Errorf("%s: a step allocates %v times after warm-up, want 0", it, a)
		}
	}
	frozen, stage, auto := stats[0], stats[1], stats[2]
	if frozen.NewtonFailures < frozen.Steps/2 {
		t.Errorf("frozen J: %d Newton failures in %d steps; the case no longer shows the failure it is for", frozen.NewtonFailures, frozen.Steps)
	}
	if stage.NewtonFailures != 0 || 2*stage.FuncEvals > frozen.FuncEvals {
		t.Errorf("stage Newton: %d Newton failures, %d evaluations; want 0 and at most half of the frozen J's %d",
			stage.NewtonFailures, stage.FuncEvals, frozen.FuncEvals)
	}
	if auto.NewtonFailures > 2 || 2*auto.FuncEvals > frozen.FuncEvals {
		t.Errorf("default: %d Newton failures, %d evaluations; want at most 2 and at most half of the frozen J's %d",
			auto.NewtonFailures, auto.FuncEvals, frozen.FuncEvals)
	}
}

// TestRadau5FixedStepSwitch: a fixed step cannot be cut, so after the frozen iteration's
// Newton failure the default (JacobianAuto) retries the same step with the coupled stage
// iteration. On the slender chain of TestRadau5IterationsSlenderChain with h = 3 ms and at
// most three Newton iterations per step, the frozen iteration (JacobianEveryStep) fails
// at t = 0.253 (measured) and ends the run; the default takes one failure and reaches
// t = 0.27 within 1e-8 of dopri5 (3.1e-9 measured). (At h = 2 ms the frozen iteration's
// failure at t = 0.262 was its third increment at the rounding floor, unrecognized until
// a stall; with the floor kept from an earlier attempt, radauWork.keptFloor, it runs
// through.)
func TestRadau5FixedStepSwitch(t *testing.T) {
	const t1 = 0.27
	sys, s := slenderChain3D(t, 20, 1e-4)
	s = stateAt(t, sys, s, 0.25)
	ref := stateAt(t, sys, s, t1)
	for _, it := range []string{"frozen", "auto"} {
		ns := radau5Iteration(it)
		ns.MaxIters = 3
		m := &integrate.Radau5{Newton: ns}
		if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4, FixedH: 3e-3}); err != nil {
			t.Fatal(err)
		}
		var err error
		for m.Current().T < t1 && err == nil {
			err = m.Step(t1)
		}
		st := m.Stats()
		if it == "frozen" {
			if err == nil {
				t.Errorf("frozen: reached t = %g with %d Newton failures; the case no longer shows the failure it is for", t1, st.NewtonFailures)
			}
			continue
		}
		if err != nil {
			t.Fatalf("default: %v", err)
		}
		var worst float64
		for i, q := range m.Current().Q {
			worst = math.Max(worst, math.Abs(q-ref.Q[i]))
		}
		if st.NewtonFailures != 1 || worst > 1e-8 {
			t.Errorf("default: %d Newton failures, max |q − q_ref| = %.2e; want 1 and ≤ 1e-8", st.NewtonFailures, worst)
		}
	}
}
