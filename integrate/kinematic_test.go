package integrate

import (
	"math"
	"testing"
)

// TestInterpolateKinematics: DOPRI5's and HEDOP5's InterpolateKinematics write the same q
// and v as Interpolate, bit for bit, inside a step, NaN into a and λ, and no right-side
// evaluation and no allocation; at a step's end they copy the step's state whole. Solve with
// KinematicSamples records the same q and v at every output time as without, and a and λ
// only at the step ends; Stats count one evaluation fewer per interior sample.
func TestInterpolateKinematics(t *testing.T) {
	p, start, _, _ := testPendulum()
	for _, m := range []interface {
		Method
		KinematicInterpolator
	}{&DOPRI5{}, &HEDOP5{}} {
		if err := m.Init(p, start, StepControl{RTol: 1e-6, ATol: 1e-6}); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if err := m.Step(1); err != nil {
				t.Fatal(err)
			}
		}
		full, kin := start.Clone(), start.Clone()
		prev, cur := m.Previous(), m.Current()
		tm := prev.T + 0.3*(cur.T-prev.T)
		evals := m.Stats().FuncEvals
		m.InterpolateKinematics(&kin, tm)
		if got := m.Stats().FuncEvals; got != evals {
			t.Errorf("%T: InterpolateKinematics made %d evaluations, want 0", m, got-evals)
		}
		m.Interpolate(&full, tm)
		if kin.T != tm || !sameBits(kin.Q, full.Q) || !sameBits(kin.V, full.V) {
			t.Errorf("%T at t = %g: kinematic (q, v) = (%v, %v), want Interpolate's (%v, %v)", m, tm, kin.Q, kin.V, full.Q, full.V)
		}
		if !allNaN(kin.A) || !allNaN(kin.Lambda) || allNaN(full.A) {
			t.Errorf("%T: kinematic a = %v, λ = %v, want NaN (Interpolate's a = %v)", m, kin.A, kin.Lambda, full.A)
		}
		if n := testing.AllocsPerRun(10, func() { m.InterpolateKinematics(&kin, tm) }); n != 0 {
			t.Errorf("%T: InterpolateKinematics allocates %v times, want 0", m, n)
		}
		m.InterpolateKinematics(&kin, cur.T)
		if !sameBits(kin.A, cur.A) || !sameBits(kin.Lambda, cur.Lambda) || !sameBits(kin.Q, cur.Q) {
			t.Errorf("%T at the step's end: a = %v, λ = %v, want the step's %v, %v", m, kin.A, kin.Lambda, cur.A, cur.Lambda)
		}
	}

	run := func(kinematic bool) *Solution {
		sol, err := Solve(&DOPRI5{}, "dopri5", p, start, 1, SolveOptions{Control: StepControl{RTol: 1e-6, ATol: 1e-6},
			OutputStep: 0.01, KinematicSamples: kinematic})
		if err != nil {
			t.Fatal(err)
		}
		return sol
	}
	full, kin := run(false), run(true)
	if len(full.T) != 101 || len(kin.T) != len(full.T) {
		t.Fatalf("samples %d and %d, want 101", len(full.T), len(kin.T))
	}
	ends := 0
	for k := range full.T {
		if full.T[k] != kin.T[k] || !sameBits(full.Q[k], kin.Q[k]) || !sameBits(full.V[k], kin.V[k]) {
			t.Fatalf("sample %d: (t, q, v) = (%g, %v, %v), want (%g, %v, %v)", k, kin.T[k], kin.Q[k], kin.V[k], full.T[k], full.Q[k], full.V[k])
		}
		if sameBits(full.A[k], kin.A[k]) && sameBits(full.Lambda[k], kin.Lambda[k]) {
			ends++ // the start and t_end: the method's own states
		} else if !allNaN(kin.A[k]) || !allNaN(kin.Lambda[k]) {
			t.Errorf("sample %d at t = %g: a = %v, λ = %v, want NaN or the full sample's %v, %v", k, kin.T[k], kin.A[k], kin.Lambda[k], full.A[k], full.Lambda[k])
		}
	}
	fs, ks := full.Stats, kin.Stats
	if fs.Steps != ks.Steps || fs.Rejected != ks.Rejected || fs.FuncEvals-ks.FuncEvals != len(full.T)-ends {
		t.Errorf("stats with kinematic samples %+v, without %+v: want the same steps and %d evaluations fewer", ks, fs, len(full.T)-ends)
	}
	t.Logf("%d samples, %d at step ends; evaluations %d → %d", len(full.T), ends, fs.FuncEvals, ks.FuncEvals)
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func allNaN(x []float64) bool {
	for _, v := range x {
		if !math.IsNaN(v) {
			return false
		}
	}
	return len(x) > 0
}
