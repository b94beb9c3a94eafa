package integrate

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestSolveOutput: samples at requested times equal the method's dense output (the same
// computation, so bit for bit) and the reference to the accuracy of the adaptive run
// (50·tol, the bound of TestDOPRI5Adaptive); the residuals are measured.
func TestSolveOutput(t *testing.T) {
	p, start, phi0, omega0 := testPendulum()
	const tol = 1e-8
	ctl := StepControl{RTol: tol, ATol: tol}
	out := []float64{0, 0.3, 0.77, 1.5, 2}
	sol, err := Solve(&DOPRI5{}, "dopri5", p, start, 2, SolveOptions{Control: ctl, Output: out})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Method != "dopri5" || len(sol.T) != len(out) {
		t.Fatalf("Method %q, %d samples, want dopri5 and %d", sol.Method, len(sol.T), len(out))
	}
	// The same run by hand.
	m := &DOPRI5{}
	if err := m.Init(p, start, ctl); err != nil {
		t.Fatal(err)
	}
	d := NewState(2, 1)
	next := 0
	check := func() {
		for next < len(out) && out[next] <= m.Current().T {
			m.Interpolate(&d, out[next])
			i := next
			if sol.T[i] != out[i] || sol.Q[i][0] != d.Q[0] || sol.Q[i][1] != d.Q[1] || sol.V[i][0] != d.V[0] ||
				sol.A[i][1] != d.A[1] || sol.Lambda[i][0] != d.Lambda[0] {
				t.Errorf("sample %d at t=%g: (%v %v %v %v), dense output (%v %v %v %v)",
					i, out[i], sol.Q[i], sol.V[i], sol.A[i], sol.Lambda[i], d.Q, d.V, d.A, d.Lambda)
			}
			qr, vr, lr := pendulumRef(p, phi0, omega0, out[i])
			e := math.Max(maxAbsDiff(sol.Q[i], qr), maxAbsDiff(sol.V[i], vr))
			if e > 50*tol || math.Abs(sol.Lambda[i][0]-lr) > 50*tol*lr {
				t.Errorf("sample %d at t=%g: error %.3g (λ %.3g vs %.3g), want ≤ 50·tol", i, out[i], e, sol.Lambda[i][0], lr)
			}
			next++
		}
	}
	check()
	for m.Current().T < 2 {
		if err := m.Step(2); err != nil {
			t.Fatal(err)
		}
		check()
	}
	if next != len(out) {
		t.Errorf("hand run reached %d of %d outputs", next, len(out))
	}
	if sol.Final.T != 2 || sol.Stats.Steps != m.Stats().Steps {
		t.Errorf("Final.T = %g, Steps %d, want 2 and %d", sol.Final.T, sol.Stats.Steps, m.Stats().Steps)
	}
	// Residuals after projection: rounding level (1e-12 leaves room for Ga − γ at |γ| ~ 10).
	if r := sol.MaxResidual; !(r.Pos < 1e-12 && r.Vel < 1e-12 && r.Acc < 1e-12) || r.WorstPos != 0 {
		t.Errorf("MaxResidual = %+v, want rounding-level residuals of constraint 0", r)
	}
	if sol.Wall <= 0 {
		t.Errorf("Wall = %v", sol.Wall)
	}

	// Every step: the start plus one sample per accepted step.
	sol, err = Solve(&DOPRI5{}, "dopri5", p, start, 2, SolveOptions{Control: ctl})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sol.T); n != sol.Stats.Steps+1 || sol.T[0] != 0 || sol.T[n-1] != 2 {
		t.Errorf("%d samples from %g to %g, want Steps+1 = %d from 0 to 2", n, sol.T[0], sol.T[n-1], sol.Stats.Steps+1)
	}
}

// TestSolveBadInput: bad output times and end times give an error naming them, and no run.
func TestSolveBadInput(t *testing.T) {
	p, start, _, _ := testPendulum()
	for _, c := range []struct {
		name string
		tEnd float64
		out  []float64
	}{
		{"decreasing", 1, []float64{0.5, 0.3}},
		{"repeated", 1, []float64{0.5, 0.5}},
		{"before start", 1, []float64{-0.1}},
		{"after end", 1, []float64{1.5}},
		{"NaN", 1, []float64{math.NaN()}},
		{"tEnd before start", -1, nil},
		{"tEnd infinite", math.Inf(1), nil},
	} {
		sol, err := Solve(&DOPRI5{}, "dopri5", p, start, c.tEnd, SolveOptions{Output: c.out})
		if err == nil || sol != nil {
			t.Errorf("%s: Solve returned (%v, %v), want (nil, error)", c.name, sol, err)
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
	// A bad control is reported by Init.
	if _, err := Solve(&DOPRI5{}, "dopri5", p, start, 1, SolveOptions{Control: StepControl{ATol: -1}}); err == nil {
		t.Error("ATol = -1 accepted")
	}
}

// TestSolveObserver: an Observer error stops the run after that step, and the partial
// Solution holds the start and the steps taken.
func TestSolveObserver(t *testing.T) {
	p, start, _, _ := testPendulum()
	stop := errors.New("enough")
	calls := 0
	obs := func(s *State) error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	}
	sol, err := Solve(&DOPRI5{}, "dopri5", p, start, 2, SolveOptions{Observer: obs})
	if !errors.Is(err, stop) {
		t.Fatalf("err = %v, want the observer's error", err)
	}
	if len(sol.T) != 4 || sol.Stats.Steps != 3 || sol.Final.T != sol.T[3] {
		t.Errorf("%d samples, %d steps, Final.T = %g: want 4, 3 and T[3] = %g", len(sol.T), sol.Stats.Steps, sol.Final.T, sol.T[len(sol.T)-1])
	}
}

// ExampleSolve integrates the Cartesian pendulum (m = 1, L = 1, released at rest 1 rad
// from the vertical) for one second with DOPRI5 and prints the samples.
func ExampleSolve() {
	p := newPendulum(1, 1, 9.81)
	start := pendulumStart(p, 1, 0)
	sol, err := Solve(&DOPRI5{}, "dopri5", p, start, 1, SolveOptions{
		Control: StepControl{RTol: 1e-8, ATol: 1e-8},
		Output:  []float64{0, 0.5, 1},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, t := range sol.T {
		fmt.Printf("t=%.1f  x=%+.6f  y=%+.6f  lambda=%.5f\n", t, sol.Q[i][0], sol.Q[i][1], sol.Lambda[i][0])
	}
	fmt.Printf("max |g| below 1e-12: %v\n", sol.MaxResidual.Pos < 1e-12)
	// Output:
	// t=0.0  x=+0.841471  y=-0.540302  lambda=5.30037
	// t=0.5  x=+0.104070  y=-0.994570  lambda=18.66946
	// t=1.0  x=-0.830535  y=-0.556967  lambda=5.79080
	// max |g| below 1e-12: true
}

// TestSolveStreamsSamples (issue 13, item 2): with OutputStep and Sample, the samples are
// the uniform grid t0 + k·step and t_end, equal bit for bit to those of the same run with
// the grid listed in Output, handed to Sample as they are made and not kept in the
// Solution; an error from Sample stops the run with the partial Solution.
func TestSolveStreamsSamples(t *testing.T) {
	p, start, _, _ := testPendulum()
	ctl := StepControl{RTol: 1e-8, ATol: 1e-8}
	const step, tEnd = 0.3, 2 // 0, 0.3, …, 1.8 and 2: the last interval is shorter
	grid := []float64{tEnd}
	for k := 6; k >= 0; k-- {
		grid = append([]float64{float64(k) * step}, grid...) // 3·0.3 = 0.8999999999999999, as Solve computes it
	}
	want, err := Solve(&DOPRI5{}, "dopri5", p, start, tEnd, SolveOptions{Control: ctl, Output: grid})
	if err != nil {
		t.Fatal(err)
	}
	if n := OutputSamples(0, tEnd, step); n != 8 {
		t.Errorf("OutputSamples(0, 2, 0.3) = %g, want 8", n)
	}
	var got []State
	keep := func(s *State) error {
		got = append(got, s.Clone())
		return nil
	}
	sol, err := Solve(&DOPRI5{}, "dopri5", p, start, tEnd, SolveOptions{Control: ctl, OutputStep: step, Sample: keep})
	if err != nil {
		t.Fatal(err)
	}
	if len(sol.T) != 0 || sol.Q != nil {
		t.Errorf("Solution kept %d samples; want none with Sample set", len(sol.T))
	}
	if len(got) != len(want.T) {
		t.Fatalf("%d samples streamed, want %d", len(got), len(want.T))
	}
	for k, s := range got {
		if s.T != want.T[k] || s.Q[0] != want.Q[k][0] || s.V[1] != want.V[k][1] || s.A[0] != want.A[k][0] || s.Lambda[0] != want.Lambda[k][0] {
			t.Errorf("sample %d: t=%v q=%v, want t=%v q=%v", k, s.T, s.Q, want.T[k], want.Q[k])
		}
	}
	stop := errors.New("disk full")
	n := 0
	sol, err = Solve(&DOPRI5{}, "dopri5", p, start, tEnd, SolveOptions{Control: ctl, OutputStep: step, Sample: func(s *State) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	}})
	if !errors.Is(err, stop) || sol == nil || !strings.Contains(err.Error(), "sample at t=0.6") || sol.Final.T < 0.6 {
		t.Errorf("Sample error: (%v, %v); want the partial Solution and the error at t=0.6", sol, err)
	}
	if _, err := Solve(&DOPRI5{}, "dopri5", p, start, tEnd, SolveOptions{OutputStep: 0.1, Output: []float64{1}}); err == nil {
		t.Error("Output and OutputStep together accepted")
	}
	if _, err := Solve(&DOPRI5{}, "dopri5", p, start, tEnd, SolveOptions{OutputStep: math.NaN()}); err == nil {
		t.Error("OutputStep = NaN accepted")
	}
}

// TestSolveStatesHMin (issue 13, item 14): a run that fails below HMin says what HMin was
// and where it came from: the default 1e-14·max(1, |t0|, |t_end|) (0.01 s at t_end = 1e12,
// where float64 resolves t only to 1.2e-4 s), or the caller's StepControl.HMin.
func TestSolveStatesHMin(t *testing.T) {
	p, start, _, _ := testPendulum()
	ctl := StepControl{RTol: 1e-10, ATol: 1e-10} // the pendulum needs h ≈ 1e-3 here
	_, err := Solve(&DOPRI5{}, "dopri5", p, start, 1e12, SolveOptions{Control: ctl})
	if !errors.Is(err, ErrStepSizeTooSmall) {
		t.Fatalf("err = %v, want ErrStepSizeTooSmall", err)
	}
	var se *StepError
	if !errors.As(err, &se) {
		t.Errorf("err = %v does not wrap the *StepError", err)
	}
	for _, want := range []string{"HMin = 0.01 s = 1e-14·max(1, |t0|, |t_end|)", "float64 spacing of t near 1e+12 is 0.00012 s"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	ctl.HMin = 0.05
	if _, err := Solve(&DOPRI5{}, "dopri5", p, start, 2, SolveOptions{Control: ctl}); err == nil || !strings.Contains(err.Error(), "HMin = 0.05 s, from StepControl.HMin") {
		t.Errorf("err = %v, want the caller's HMin named", err)
	}
}

// TestFailureSummary: the failed attempts are listed by cause, singular and plural, and
// nothing is said when there were none.
func TestFailureSummary(t *testing.T) {
	for _, c := range []struct {
		s    Stats
		want string
	}{
		{Stats{Steps: 10, Rejected: 3}, ""},
		{Stats{NewtonFailures: 1}, "1 Newton failure"},
		{Stats{NewtonFailures: 2, Singular: 1, NonFinite: 3}, "2 Newton failures, 1 singular matrix, 3 NaN/Inf attempts"},
		{Stats{Singular: 2}, "2 singular matrices"},
	} {
		if got := c.s.FailureSummary(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}
