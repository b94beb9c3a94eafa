package joint_test

import (
	"math"
	"testing"

	"linkage/integrate"
)

// TestRadau5StageNewtonSlenderChain: on the 20-rod chain of radius 1e-4 m from its loaded
// state (t = 0.25 s; spin inertias 5e-9 kg m², the joint route's 1000-rod failure in
// small), radau5's simplified Newton iteration with J at the step start fails about once
// per accepted step at tol 1e-4 (20 failures in 23 steps to t = 0.3, measured), its second
// increment undoing the first; the coupled stage iteration (Radau5.StageNewton, each
// stage's J at its iterate) takes no failure, fewer than half the evaluations, and ends as
// close to dopri5. Its steps then allocate nothing.
func TestRadau5StageNewtonSlenderChain(t *testing.T) {
	const t1 = 0.3
	sys, s := slenderChain3D(t, 20, 1e-4)
	s = stateAt(t, sys, s, 0.25)
	ref := stateAt(t, sys, s, t1)
	var stats [2]integrate.Stats
	for k, stage := range []bool{false, true} {
		m := &integrate.Radau5{StageNewton: stage}
		if err := m.Init(sys, s.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
			t.Fatal(err)
		}
		for m.Current().T < t1 {
			if err := m.Step(t1); err != nil {
				t.Fatalf("StageNewton %v: %v", stage, err)
			}
		}
		var worst float64
		for i, q := range m.Current().Q {
			worst = math.Max(worst, math.Abs(q-ref.Q[i]))
		}
		st := m.Stats()
		stats[k] = st
		t.Logf("StageNewton %v: %d steps, %d Newton failures, %d Newton iterations, %d evaluations, max |q − q_ref| = %.2e",
			stage, st.Steps, st.NewtonFailures, st.NewtonIters, st.FuncEvals, worst)
		if worst > 1e-4 {
			t.Errorf("StageNewton %v: max |q − q_ref| = %.2e at t = %g, want ≤ 1e-4 (tol 1e-4)", stage, worst, t1)
		}
		if !stage {
			continue
		}
		if a := testing.AllocsPerRun(5, func() { _ = m.Step(math.Inf(1)) }); a != 0 {
			t.Errorf("a step with StageNewton allocates %v times after warm-up, want 0", a)
		}
	}
	frozen, stage := stats[0], stats[1]
	if frozen.NewtonFailures < frozen.Steps/2 {
		t.Errorf("frozen J: %d Newton failures in %d steps; the case no longer shows the failure it is for", frozen.NewtonFailures, frozen.Steps)
	}
	if stage.NewtonFailures != 0 || 2*stage.FuncEvals > frozen.FuncEvals {
		t.Errorf("stage Newton: %d Newton failures, %d evaluations; want 0 and at most half of the frozen J's %d",
			stage.NewtonFailures, stage.FuncEvals, frozen.FuncEvals)
	}
}
