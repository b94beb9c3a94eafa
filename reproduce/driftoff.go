package reproduce

import (
	"fmt"
	"math"
	"strings"

	"linkage/dae"
	"linkage/integrate"
	"linkage/problems"
)

// DriftPhysics is the pendulum of the drift-off experiment: seed 002's Example 1 physics
// (m = l = 1, g_grav = 9.81) released at α₀ = 60°, a strongly nonlinear swing whose
// discretization errors do not average out over a period.
var DriftPhysics = problems.Pendulum{M: 1, Length: 1, Grav: 9.81, Alpha0: math.Pi / 3}

// DriftRun is the constraint residual history of one method and formulation in the
// drift-off experiment (seed 002, Fig. 14 and eq. 86).
type DriftRun struct {
	Method      string                // registry name
	Formulation integrate.Formulation // as printed by `linkage methods`
	Label       string                // the form of the equations, with its seed-002 equation
	// T are the checkpoint times and MaxG[k] the envelope max ‖g(q(t))‖∞ over [0, T[k]],
	// sampled after every accepted step.
	T, MaxG []float64
	// Exponent is the least-squares slope of log MaxG against log t over the checkpoints in
	// [DriftFitFrom·t_end, t_end]: 1 for a linear drift (eq. 86), 2 for a quadratic one.
	Exponent float64
	Steps    int
}

// DriftResult is the outcome of ArnoldDriftOff.
type DriftResult struct {
	TEnd, Tol float64
	Runs      []DriftRun
}

// DriftFitFrom is the start of the fit window as a fraction of t_end: the envelope of the
// first swings still carries the start-up error; the growth law shows after a few periods
// (the period is 2.15 s).
const DriftFitFrom = 0.1

// driftCheckpoints is the number of log-spaced checkpoints over [t_end/100, t_end].
const driftCheckpoints = 25

// ArnoldDriftOff reproduces the drift-off effect of seed 002, Fig. 14 (there for a rigid
// wheelset): the pendulum DriftPhysics is integrated from rest to tEnd with error control
// at RTol = ATol = tol in five ways and max ‖g‖ is recorded over time:
//
//   - hedop5, index2: the index-2 form (eq. 79) without projection; the velocity
//     constraint is imposed at every stage, so g drifts like ε·t (eq. 86);
//   - dopri5, index1: the index-1 form (eqs. 83-84) without projection; both g and
//     G v drift, g like ε·t²;
//   - hedop5, index2-proj and dopri5, index1-proj: with the projections of eqs. 89, 91
//     after every step, ‖g‖ stays at rounding level;
//   - bdf, ggl: the stabilized index-2 form (eq. 92), where g = 0 is part of the
//     corrector equations and ‖g‖ stays at the Newton tolerance.
//
// It returns the envelopes and their fitted growth exponents.
func ArnoldDriftOff(tEnd, tol float64) (*DriftResult, error) {
	if !(tEnd >= 10) || math.IsInf(tEnd, 0) {
		return nil, fmt.Errorf("reproduce: arnold-driftoff: tEnd = %g, want ≥ 10 (a few periods of 2.15 s)", tEnd)
	}
	if !(tol > 0 && tol < 1e-2) {
		return nil, fmt.Errorf("reproduce: arnold-driftoff: tol = %g, want in (0, 1e-2)", tol)
	}
	runs := []DriftRun{
		{Method: "hedop5", Formulation: integrate.Index2, Label: "index 2 (eq. 79)"},
		{Method: "dopri5", Formulation: integrate.Index1, Label: "index 1 (eq. 83)"},
		{Method: "hedop5", Formulation: integrate.Index2Projected, Label: "index 2 + projection (eqs. 89, 91)"},
		{Method: "dopri5", Formulation: integrate.Index1Projected, Label: "index 1 + projection (eqs. 89, 91)"},
		{Method: "bdf", Formulation: integrate.StabilizedIndex2, Label: "GGL, stabilized index 2 (eq. 92)"},
	}
	res := &DriftResult{TEnd: tEnd, Tol: tol}
	for _, r := range runs {
		if err := runDrift(&r, tEnd, tol); err != nil {
			return nil, err
		}
		res.Runs = append(res.Runs, r)
	}
	return res, nil
}

// runDrift fills r by one run; the envelope is sampled after every accepted step through
// the Observer and read off at the checkpoints.
func runDrift(r *DriftRun, tEnd, tol float64) error {
	e, err := integrate.Lookup(r.Method)
	if err != nil {
		return fmt.Errorf("reproduce: arnold-driftoff: %w", err)
	}
	m, err := e.NewMethod(r.Formulation)
	if err != nil {
		return fmt.Errorf("reproduce: arnold-driftoff: %w", err)
	}
	p := DriftPhysics
	start := integrate.NewState(2, 1)
	p.Exact(0, &start)
	r.T = make([]float64, driftCheckpoints)
	r.MaxG = make([]float64, driftCheckpoints)
	for k := range r.T {
		r.T[k] = tEnd * math.Pow(100, float64(k)/float64(driftCheckpoints-1)-1)
	}
	meter := dae.NewResidualMeter(p)
	env, next := 0.0, 0
	obs := func(s *integrate.State) error {
		// Checkpoints passed by this step take the envelope before it, so that each is the
		// max over steps that ended no later than the checkpoint.
		for next < len(r.T) && s.T > r.T[next] {
			r.MaxG[next] = env
			next++
		}
		env = math.Max(env, meter.Measure(s.T, s.Q, s.V, nil).Pos)
		return nil
	}
	ctl := integrate.StepControl{RTol: tol, ATol: tol}
	sol, err := integrate.Solve(m, r.Method, p, start, tEnd, integrate.SolveOptions{Control: ctl, Observer: obs, Output: []float64{tEnd}})
	if err != nil {
		return fmt.Errorf("reproduce: arnold-driftoff: %s %s: %w", r.Method, r.Formulation, err)
	}
	for ; next < len(r.T); next++ {
		r.MaxG[next] = env
	}
	r.Steps = sol.Stats.Steps
	r.Exponent = fitExponent(r.T, r.MaxG, DriftFitFrom*tEnd)
	return nil
}

// fitExponent returns the least-squares slope of log y against log t over the points with
// t ≥ from and y > 0 (NaN with fewer than two).
func fitExponent(t, y []float64, from float64) float64 {
	var n, sx, sy, sxx, sxy float64
	for k := range t {
		if t[k] < from || !(y[k] > 0) {
			continue
		}
		x, z := math.Log(t[k]), math.Log(y[k])
		n++
		sx += x
		sy += z
		sxx += x * x
		sxy += x * z
	}
	if n < 2 {
		return math.NaN()
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

// Table prints the envelopes at a few checkpoints and the fitted exponents next to the
// growth laws of seed 002 (linear for index 2, quadratic for index 1, none with projection
// or GGL).
func (r *DriftResult) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Drift-off (seed 002, Fig. 14, eq. 86): pendulum α₀ = 60°, t_end = %g s, tol = %g\n", r.TEnd, r.Tol)
	fmt.Fprintf(&b, "max ‖g‖ over [0, t]; exponent p of max ‖g‖ ~ t^p fitted on [%g·t_end, t_end]\n\n", DriftFitFrom)
	fmt.Fprintf(&b, "%-36s %-7s", "form", "method")
	show := []int{0, 6, 12, 18, driftCheckpoints - 1}
	if len(r.Runs) > 0 {
		for _, k := range show {
			fmt.Fprintf(&b, " %9s", fmt.Sprintf("t=%.3g", r.Runs[0].T[k]))
		}
	}
	fmt.Fprintf(&b, " %8s %7s %s\n", "exponent", "steps", "paper")
	for _, run := range r.Runs {
		fmt.Fprintf(&b, "%-36s %-7s", run.Label, run.Method)
		for _, k := range show {
			fmt.Fprintf(&b, " %9.2e", run.MaxG[k])
		}
		paper := "bounded"
		switch run.Formulation {
		case integrate.Index2:
			paper = "1 (linear)"
		case integrate.Index1:
			paper = "2 (quadratic)"
		}
		fmt.Fprintf(&b, " %8.2f %7d %s\n", run.Exponent, run.Steps, paper)
	}
	return b.String()
}
