package joint_test

import (
	"math"
	"testing"

	"linkage/integrate"
	"linkage/joint"
)

// slenderChain3D is Chain3D's chain of n rods with rods of radius r (Chain3D: 0.01 m),
// started turning about the vertical at 1 rad/s: the smaller r, the smaller each rod's
// spin inertia m r²/2 against the root joints' and the worse conditioned M.
func slenderChain3D(t *testing.T, n int, r float64) (*joint.System, integrate.State) {
	md, _ := chain3DModelOfRadius(n, r)
	return startedChain(t, md)
}

// startedChain returns the system of a chain3DModel-like model and its start, turning
// about the vertical at chain3DRate.
func startedChain(t testing.TB, md *joint.Model) (*joint.System, integrate.State) {
	sys, err := md.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ := sys.Size()
	s := integrate.NewState(nq, 0)
	s.V[md.Coordinate("ball1.z")] = chain3DRate
	sys.Accelerations(s.A, 0, s.Q, s.V)
	return sys, s
}

// TestRadau5ShortStepsFromLoadedSlenderChain: from the loaded state (t = 0.25 s) of a
// 20-rod chain of slender rods (radius 1e-4 m: spin inertia 5e-9 kg m² against the root
// joints' about 7e2), radau5 on the
// Newton-Krylov path takes a first step of 1 µs in one Newton iteration and reaches
// t = 0.26 s within its tolerance of dopri5's reference. Its preconditioner once solved
// for c² δq and recovered δa = c(c δq − r_q) − r_v, which multiplied the articulated-body
// round trip's rounding, ε·cond(M)·|M(c r_q + r_v)|, by c² = (γ/h)²: the second increment
// undid the first at every h and the run stopped at HMin (27 cuts from 1 µs), as the
// 1000-rod chain of radius 0.01 m did (BENCHMARKS.md, "Where radau5's … work per step goes").
func TestRadau5ShortStepsFromLoadedSlenderChain(t *testing.T) {
	sys, s := slenderChain3D(t, 20, 1e-4)
	s = stateAt(t, sys, s, 0.25)
	ref := stateAt(t, sys, s, 0.26)
	m := &integrate.Radau5{}
	if err := m.Init(sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4, H0: 1e-6}); err != nil {
		t.Fatal(err)
	}
	if err := m.Step(math.Inf(1)); err != nil {
		t.Fatalf("first step of 1 µs: %v", err)
	}
	if st := m.Stats(); st.NewtonFailures != 0 || st.NewtonIters > 2 {
		t.Errorf("first step of 1 µs: %d Newton failures, %d iterations; want 0 and at most 2", st.NewtonFailures, st.NewtonIters)
	}
	for m.Current().T < 0.26 {
		if err := m.Step(0.26); err != nil {
			t.Fatal(err)
		}
	}
	var worst float64
	for i, q := range m.Current().Q {
		worst = math.Max(worst, math.Abs(q-ref.Q[i]))
	}
	st := m.Stats()
	t.Logf("to t = 0.26: %d steps, %d Newton failures, max |q − q_ref| = %.2e", st.Steps, st.NewtonFailures, worst)
	if worst > 1e-4 {
		t.Errorf("max |q − q_ref| = %.2e at t = 0.26, want ≤ 1e-4 (tol 1e-4)", worst)
	}
}

// TestRadau5FixedStepRoundingFloor: at FixedH radau5's Newton tolerance is 1e-3·RTol'
// (4.6e-8 at tol 1e-4), below the rounding of the stage residuals of a chain of slender
// rods, which M⁻¹ lifts into the spin accelerations: the increments stall at that
// rounding with a rate θ ≈ 1, which read as divergence (every fixed step from the loaded
// 1000-rod chain failed after 10 iterations). The 20-rod chain of radius 1e-4 m
// reproduces it at h = 30 µs (the fourth step stalled without the measured floor,
// radaurounding.go): from its loaded state radau5 now takes 10 fixed steps in at most 40
// Newton iterations (26 measured) and ends within 1e-6 of dopri5.
func TestRadau5FixedStepRoundingFloor(t *testing.T) {
	const h, steps = 3e-5, 10
	sys, s := slenderChain3D(t, 20, 1e-4)
	s = stateAt(t, sys, s, 0.25)
	ref := stateAt(t, sys, s, 0.25+steps*h)
	m := &integrate.Radau5{}
	if err := m.Init(sys, s, integrate.StepControl{FixedH: h, RTol: 1e-4, ATol: 1e-4}); err != nil {
		t.Fatal(err)
	}
	for k := range steps {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatalf("fixed step %d of %g s: %v", k+1, h, err)
		}
	}
	st := m.Stats()
	var worst float64
	for i, q := range m.Current().Q {
		worst = math.Max(worst, math.Abs(q-ref.Q[i]))
	}
	t.Logf("%d steps: %d Newton iterations, %d evaluations, max |q − q_ref| = %.2e", st.Steps, st.NewtonIters, st.FuncEvals, worst)
	if st.NewtonIters > 4*steps {
		t.Errorf("%d Newton iterations in %d steps, want at most %d", st.NewtonIters, steps, 4*steps)
	}
	if worst > 1e-6 {
		t.Errorf("max |q − q_ref| = %.2e, want ≤ 1e-6", worst)
	}
	// The measurement runs in these steps too (most stall at their third increment).
	if a := testing.AllocsPerRun(5, func() { _ = m.Step(math.Inf(1)) }); a != 0 {
		t.Errorf("a fixed step allocates %v times after warm-up, want 0", a)
	}
}
