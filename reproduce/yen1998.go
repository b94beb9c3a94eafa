package reproduce

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"linkage/integrate"
	"linkage/problems"
)

// Yen1998 re-runs the experiments of seed 003 (Yen, Petzold, Raha 1998), section 4, with
// the DAE α-method (integrate.DAEAlpha) in fixed steps:
//
//   - the stiff spring pendulum (eq. 4.3, ε² = 1e-3, x₀ = (0.9, 0, 0, 0), 0-5 s, Newton
//     tolerance 1e-10): the total energy for ρ from 1 to 0 at one step (Fig. 2), and the
//     trajectory (x, y) for h from 1e-3 to 1e-1 at one ρ (Fig. 3);
//   - the nonlinear bushing (eq. 4.4, ε = 1e-5, (x, y, θ) = (0.8, 0.6, 0) at rest,
//     T = 40π·1e-5, Newton tolerance 1e-7): final over initial energy at 200, 500 and 1200
//     steps for ρ = 0, 1/2, 3/4 by the CM iteration on the coordinate-split form (eq. 3.6)
//     and by Newton's method on the index-2 form (eq. 3.3), and the largest step of each
//     without a Newton failure (Table 1).
//
// The seed states neither the step of Fig. 2 nor the ρ of Fig. 3: Yen1998SpringH and
// Yen1998SpringRho are our choices. "Newton tolerance" is read as an absolute bound on the
// Newton error of every unknown: RTol = ATol = tol with NewtonSettings.Tol = 1 (the
// increment norm θ/(1−θ)·‖Δ‖ ≤ 1 in units of tol). Both iterations re-evaluate their
// matrix at every iteration (JacobianEveryIteration) and give up after the default
// NewtonSettings.MaxIters = 8 or when the monitor predicts no convergence; the seed does
// not say how many iterations it allowed. The bushing's CS matrix is the LU form
// (formulation cs): it pivots on x, the seed's choice P = (1, −y/x, 0; 0, 0, 1)ᵀ up to the
// order of the columns, as long as |x| > |y| (integrate's TestCoordSplitAnnihilates), which
// Yen1998Column.PivotOnX checks at every accepted step of the CM runs.
//
// The flexible slider-crank of section 4.3 (Table 2, Figs. 6-12) needs the flexible beam
// of issue 19, item 3; it is not part of this reproduction yet.
type Yen1998Result struct {
	Spring  Yen1998Spring
	Bushing Yen1998Bushing
}

// Parameters of the reproduction (see Yen1998Result).
const (
	Yen1998SpringEps2 = 1e-3
	Yen1998SpringTEnd = 5.0
	Yen1998SpringTol  = 1e-10
	Yen1998SpringH    = 0.01 // step of the energy curves (Fig. 2): h·ω = 0.32 for the spring's ω = 1/ε
	Yen1998SpringRho  = 0.0  // ρ of the trajectories (Fig. 3): the strongest damping
	Yen1998BushingEps = 1e-5
	Yen1998BushingTol = 1e-7
)

// Yen1998SpringRhos and Yen1998SpringHs are the ρ of Fig. 2 and the steps of Fig. 3.
var (
	Yen1998SpringRhos = []float64{1, 0.75, 0.5, 0.25, 0}
	Yen1998SpringHs   = []float64{1e-3, 1e-2, 5e-2, 1e-1}
)

// Yen1998Series is one fixed-step run sampled at every step.
type Yen1998Series struct {
	Rho, H  float64
	T, E    []float64 // time and total energy
	X, Y    []float64 // the first two coordinates
	Err     string    // the failure, if the run stopped early
	Retains float64   // E(t_end)/E(0)
}

// Yen1998Spring holds Figs. 2 and 3.
type Yen1998Spring struct {
	Energy     []Yen1998Series // by ρ (Yen1998SpringRhos) at Yen1998SpringH
	Trajectory []Yen1998Series // by h (Yen1998SpringHs) at Yen1998SpringRho
}

// Yen1998Cell is one entry of Table 1: the energy ratio E(T)/E(0) of one run, with the
// paper's value beside it.
type Yen1998Cell struct {
	Steps          int
	Ratio, Paper   float64
	NewtonFailures int
	Err            string
}

// Yen1998Column is one column of Table 1: a ρ and a formulation.
type Yen1998Column struct {
	Rho   float64
	Form  integrate.Formulation // integrate.CoordinateSplit (CM) or integrate.Index2
	Cells []Yen1998Cell         // at 200, 500, 1200 steps
	// MaxSteps is the largest step T/N on the grid Yen1998MaxStepGrid such that the run
	// with it and the runs with every smaller step of the grid complete without a Newton
	// failure (0 when none does); PaperN is the paper's N.
	MaxN, PaperN int
	FirstFail    string // the failure of the run with the next larger step
	PivotOnX     bool   // cs: the LU of Gᵀ chose x as the dependent coordinate at every accepted step
}

// Yen1998Bushing holds Table 1.
type Yen1998Bushing struct {
	T       float64
	Columns []Yen1998Column
}

// yen1998Table1 is Table 1 of seed 003: energy ratios at 200, 500, 1200 steps and the
// largest step T/N, by ρ and formulation.
var yen1998Table1 = []struct {
	rho    float64
	form   integrate.Formulation
	ratios [3]float64
	n      int
}{
	{0, integrate.CoordinateSplit, [3]float64{0.10, 0.24, 0.30}, 40},
	{0, integrate.Index2, [3]float64{0.15, 0.30, 0.41}, 100},
	{0.5, integrate.CoordinateSplit, [3]float64{0.35, 0.40, 0.51}, 70},
	{0.5, integrate.Index2, [3]float64{0.56, 0.65, 0.76}, 150},
	{0.75, integrate.CoordinateSplit, [3]float64{0.76, 0.81, 0.89}, 80},
	{0.75, integrate.Index2, [3]float64{0.90, 0.93, 0.96}, 175},
}

// Yen1998TableSteps are the step counts of Table 1's rows.
var Yen1998TableSteps = [3]int{200, 500, 1200}

// Yen1998MaxStepGrid lists the N of the steps T/N searched for the largest step, from the
// largest step down; it holds the paper's values.
var Yen1998MaxStepGrid = []int{10, 15, 20, 25, 30, 35, 40, 50, 60, 70, 80, 90, 100, 125, 150, 175, 200, 250, 300, 400}

// Yen1998 runs the experiments (see Yen1998Result).
func Yen1998() (*Yen1998Result, error) {
	res := &Yen1998Result{}
	for _, rho := range Yen1998SpringRhos {
		res.Spring.Energy = append(res.Spring.Energy, springRun(rho, Yen1998SpringH))
	}
	for _, h := range Yen1998SpringHs {
		res.Spring.Trajectory = append(res.Spring.Trajectory, springRun(Yen1998SpringRho, h))
	}
	b := problems.Bushing{Eps: Yen1998BushingEps}
	res.Bushing.T = 40 * math.Pi * Yen1998BushingEps
	for _, c := range yen1998Table1 {
		col := Yen1998Column{Rho: c.rho, Form: c.form, PaperN: c.n, PivotOnX: c.form == integrate.CoordinateSplit}
		for k, n := range Yen1998TableSteps {
			r := bushingRun(b, c.rho, c.form, res.Bushing.T, n, Yen1998BushingTol)
			col.PivotOnX = col.PivotOnX && r.pivotOnX
			cell := Yen1998Cell{Steps: n, Ratio: r.ratio, Paper: c.ratios[k], NewtonFailures: r.stats.NewtonFailures}
			if r.err != nil {
				cell.Err = r.err.Error()
			}
			col.Cells = append(col.Cells, cell)
		}
		col.MaxN, col.FirstFail = bushingMaxStep(b, c.rho, c.form, res.Bushing.T)
		res.Bushing.Columns = append(res.Bushing.Columns, col)
	}
	return res, nil
}

// springRun integrates the stiff spring pendulum with ρ and h and samples every step.
func springRun(rho, h float64) Yen1998Series {
	sys := problems.SpringPendulum{Eps2: Yen1998SpringEps2}
	s := Yen1998Series{Rho: rho, H: h}
	m := &integrate.DAEAlpha{RhoInf: rho, Formulation: integrate.Index2,
		Newton: integrate.NewtonSettings{Tol: 1, Jacobian: integrate.JacobianEveryIteration}}
	start := integrate.NewState(2, 0)
	start.Q[0] = 0.9
	record := func(st *integrate.State) {
		k, u := sys.Energy(st.T, st.Q, st.V)
		s.T = append(s.T, st.T)
		s.E = append(s.E, k+u)
		s.X = append(s.X, st.Q[0])
		s.Y = append(s.Y, st.Q[1])
	}
	record(&start)
	err := m.Init(sys, start, yen1998Control(h, Yen1998SpringTol))
	if err == nil {
		err = fixedRun(m, Yen1998SpringTEnd, record)
	}
	if err != nil {
		s.Err = err.Error()
	}
	s.Retains = s.E[len(s.E)-1] / s.E[0]
	return s
}

// yen1998Control is the control of a fixed-step run with steps h at Newton tolerance tol.
func yen1998Control(h, tol float64) integrate.StepControl {
	return integrate.StepControl{FixedH: h, RTol: tol, ATol: tol}
}

// fixedRun steps the initialized m to tEnd, calling each after every accepted step.
func fixedRun(m integrate.Method, tEnd float64, each func(*integrate.State)) error {
	for m.Current().T < tEnd {
		if err := m.Step(tEnd); err != nil {
			return err
		}
		each(m.Current())
	}
	return nil
}

type bushingResult struct {
	ratio    float64
	stats    integrate.Stats
	err      error
	pivotOnX bool
}

// bushingRun integrates the bushing with n steps over [0, T] at Newton tolerance tol and
// returns E(T)/E(0).
func bushingRun(b problems.Bushing, rho float64, form integrate.Formulation, T float64, n int, tol float64) bushingResult {
	m := &integrate.DAEAlpha{RhoInf: rho, Formulation: form,
		Newton: integrate.NewtonSettings{Tol: 1, Jacobian: integrate.JacobianEveryIteration}}
	start := integrate.NewState(3, 1)
	start.Q[0], start.Q[1] = 0.8, 0.6
	k0, u0 := b.Energy(0, start.Q, start.V)
	r := bushingResult{pivotOnX: true, ratio: math.NaN()}
	if r.err = m.Init(b, start, yen1998Control(T/float64(n), tol)); r.err != nil {
		return r
	}
	r.err = fixedRun(m, T, func(st *integrate.State) {
		r.pivotOnX = r.pivotOnX && math.Abs(st.Q[0]) > math.Abs(st.Q[1])
	})
	k, u := b.Energy(T, m.Current().Q, m.Current().V)
	r.ratio = (k + u) / (k0 + u0)
	r.stats = m.Stats()
	if r.err == nil && m.Current().T != T {
		r.err = errors.New("did not reach T")
	}
	return r
}

// bushingMaxStep returns the largest N of Yen1998MaxStepGrid, searched from the smallest
// step up, whose run and every run with a smaller step completed without a Newton
// failure, and the failure of the first run that did not.
func bushingMaxStep(b problems.Bushing, rho float64, form integrate.Formulation, T float64) (int, string) {
	best := 0
	for i := len(Yen1998MaxStepGrid) - 1; i >= 0; i-- {
		n := Yen1998MaxStepGrid[i]
		r := bushingRun(b, rho, form, T, n, Yen1998BushingTol)
		if r.err != nil || r.stats.NewtonFailures > 0 {
			msg := fmt.Sprintf("T/%d: %d Newton failures", n, r.stats.NewtonFailures)
			var se *integrate.StepError
			switch {
			case errors.As(r.err, &se) && errors.Is(r.err, integrate.ErrNoConvergence):
				msg = fmt.Sprintf("T/%d fails at t = %.3g (Newton)", n, se.T)
			case r.err != nil:
				msg = fmt.Sprintf("T/%d: %v", n, r.err)
			}
			return best, msg
		}
		best = n
	}
	return best, ""
}

// Table renders Fig. 2's final energies, Fig. 3's runs and Table 1 with the paper's values.
func (r *Yen1998Result) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed 003, section 4.1: stiff spring pendulum (eq. 4.3), ε² = %g, x0 = (0.9, 0, 0, 0), 0-%g s, Newton tol %g, daealpha\n",
		Yen1998SpringEps2, Yen1998SpringTEnd, Yen1998SpringTol)
	fmt.Fprintf(&b, "Fig. 2 (h = %g): total energy E(t_end)/E(0) by ρ\n", Yen1998SpringH)
	fmt.Fprintf(&b, "%8s %12s %12s\n", "ρ", "E(5)/E(0)", "")
	for _, s := range r.Spring.Energy {
		fmt.Fprintf(&b, "%8g %12.4f %s\n", s.Rho, s.Retains, s.Err)
	}
	fmt.Fprintf(&b, "Fig. 3 (ρ = %g): trajectory by h: E(5)/E(0), final (x, y)\n", Yen1998SpringRho)
	for _, s := range r.Spring.Trajectory {
		n := len(s.X) - 1
		fmt.Fprintf(&b, "%8g %12.4f   (%.4f, %.4f) %s\n", s.H, s.Retains, s.X[n], s.Y[n], s.Err)
	}
	fmt.Fprintf(&b, "\nseed 003, section 4.2, Table 1: nonlinear bushing (eq. 4.4), ε = %g, T = 40π·ε = %.6g, Newton tol %g\n",
		Yen1998BushingEps, r.Bushing.T, Yen1998BushingTol)
	fmt.Fprintf(&b, "final/initial energy, ours (paper); CM = cs formulation (eq. 3.6), index2 = eq. 3.3\n")
	fmt.Fprintf(&b, "%10s", "steps")
	for _, c := range r.Bushing.Columns {
		fmt.Fprintf(&b, " %16s", fmt.Sprintf("ρ=%g %s", c.Rho, formLabel(c.Form)))
	}
	b.WriteString("\n")
	for k, n := range Yen1998TableSteps {
		fmt.Fprintf(&b, "%10d", n)
		for _, c := range r.Bushing.Columns {
			cell := c.Cells[k]
			s := fmt.Sprintf("%.2f (%.2f)", cell.Ratio, cell.Paper)
			if cell.Err != "" {
				s = fmt.Sprintf("fail (%.2f)", cell.Paper)
			}
			fmt.Fprintf(&b, " %16s", s)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%10s", "max h")
	for _, c := range r.Bushing.Columns {
		fmt.Fprintf(&b, " %16s", fmt.Sprintf("T/%d (T/%d)", c.MaxN, c.PaperN))
	}
	b.WriteString("\n")
	for i := 0; i+1 < len(r.Bushing.Columns); i += 2 {
		cm, ix := r.Bushing.Columns[i], r.Bushing.Columns[i+1]
		fmt.Fprintf(&b, "ρ = %g: largest step CM / index2 = %.2f (paper %.2f); next larger step: CM %s; index2 %s\n",
			cm.Rho, ratioN(ix.MaxN, cm.MaxN), ratioN(ix.PaperN, cm.PaperN), cm.FirstFail, ix.FirstFail)
	}
	return b.String()
}

func formLabel(f integrate.Formulation) string {
	if f == integrate.CoordinateSplit {
		return "CM"
	}
	return string(f)
}

// ratioN is h_a/h_b for h = T/N: nb/na.
func ratioN(nb, na int) float64 {
	if na == 0 {
		return math.NaN()
	}
	return float64(nb) / float64(na)
}
