package problems

import (
	"testing"

	"linkage/integrate"
)

// TestALI3CrankSmallStep: at h = 1e-5 the default penalty α = 1e7 makes αh²/4 = 2.5e-4 of
// the crank's mean mass, and its multiplier iteration (seed 001, eq. 9) contracts by 0.988
// per iteration at t = 0.00087 s, which failed the run at MaxIters. The raised penalty of
// the index-3 corrector (raisePenalty) carries it to t_end = 0.1 s with one failed attempt,
// 1-2 iterations per step, within 1e-7 of the MEBDFI reference (measured 3.6e-8; 1.4e-8
// with α = 1e11 from the start, the trapezoidal rule's own error).
func TestALI3CrankSmallStep(t *testing.T) {
	p, err := Get("crank")
	if err != nil {
		t.Fatal(err)
	}
	sol, err := integrate.Solve(&integrate.ALI3{}, "ali3", p.System, p.Start.Clone(), p.TEnd,
		integrate.SolveOptions{Control: integrate.StepControl{FixedH: 1e-5, RTol: 1e-6}, Output: []float64{p.TEnd}})
	if err != nil {
		t.Fatal(err)
	}
	st := sol.Stats
	if e := maxDiff(sol.Final.Q, p.Ref.Q); !(e <= 1e-7) {
		t.Errorf("max |q − q_ref| at t = %g: %.3g, want ≤ 1e-7", p.TEnd, e)
	}
	if st.Steps != 10000 || st.NewtonIters > 2*st.Steps || st.NewtonFailures > 2 {
		t.Errorf("stats %+v: want 10000 steps, ≤ 2 iterations per step, ≤ 2 failed attempts", st)
	}
	if r := sol.MaxResidual; !(r.Pos <= 1e-6 && r.Vel <= 1e-10) {
		t.Errorf("max |g| %.3g, |G v + g_t| %.3g over the run", r.Pos, r.Vel)
	}
}
