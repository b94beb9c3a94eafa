package reproduce

import (
	"fmt"
	"math"
	"strings"

	"linkage/integrate"
	"linkage/problems"
)

// RadauSens re-runs the experiment behind Figs. 12-13 of seed 002 (Arnold 2016, section
// 4.2, Examples 10-11): RADAU5 applied directly to the index-3 form of the equations of
// motion (eq. 16) is sensitive to the iteration error that the stopping criterion of
// Newton's method leaves (κ·TOL, κ = 0.03 by default), so its global error stays far
// above the tolerance unless κ is made very small (10⁻⁵ in Fig. 12); on the index-2 form
// (eq. 79) the error follows TOL already with the default κ (Fig. 13). The paper's
// problem is a wheelset model; here it is any problem of package problems (Andrews'
// squeezer by default, a stiff test-set mechanism with a reference solution).
//
// κ is Radau5's Newton.Tol, RADAU5's FNEWT: the Newton iteration stops when
// θ/(1−θ)·‖ΔW‖ ≤ κ in the scaled norm whose unit is the (transformed) tolerance, so the
// iteration error is about κ·TOL. κ = 0 stands for RADAU5's default,
// max(10ε/RTol', min(0.03, √RTol')) with RTol' = 0.1·TOL^(2/3), which is 0.03 only for
// TOL ≥ 3e-5 and shrinks below it (1.5e-3 at TOL = 1e-7).
type RadauSensRun struct {
	Form  integrate.Formulation // index3 or index2
	Kappa float64               // Newton.Tol (FNEWT); 0 = RADAU5's default
	Tol   float64               // RTol = ATol
	// Err is the largest relative error of q at t_end over the problem's scd components,
	// 10^(−scd) (absolute where the reference is 0), the quantity of Figs. 12-13.
	Err   float64
	Stats integrate.Stats
	Fail  string // the error of a run that did not reach t_end; Err is then NaN
}

// RadauSensResult holds the runs of RadauSens.
type RadauSensResult struct {
	Problem string
	Runs    []RadauSensRun
}

// Defaults of RadauSens: TOL over five decades and κ = default, 1e-3, 1e-5 (the paper's
// two values and one between).
var (
	DefaultRadauSensTols   = []float64{1e-4, 1e-5, 1e-6, 1e-7, 1e-8}
	DefaultRadauSensKappas = []float64{0, 1e-3, 1e-5}
)

// RadauSens runs Radau5 on problem (empty: "andrews") for the index3 and index2
// formulations, every κ in kappas and every TOL in tols (nil: the defaults), and returns
// the error at t_end of each run. A run that fails is kept with its error message; an
// unknown problem or a bad κ or TOL is an error.
func RadauSens(problem string, tols, kappas []float64) (*RadauSensResult, error) {
	if problem == "" {
		problem = "andrews"
	}
	if tols == nil {
		tols = DefaultRadauSensTols
	}
	if kappas == nil {
		kappas = DefaultRadauSensKappas
	}
	for _, k := range kappas {
		if !(k >= 0 && k < 1) {
			return nil, fmt.Errorf("reproduce: radau-sens: kappa = %g, want 0 (default) or a value in (0, 1)", k)
		}
	}
	for _, tol := range tols {
		if !(tol > 0 && tol < 1) {
			return nil, fmt.Errorf("reproduce: radau-sens: tol = %g, want a value in (0, 1)", tol)
		}
	}
	p, err := problems.Get(problem)
	if err != nil {
		return nil, fmt.Errorf("reproduce: radau-sens: %w", err)
	}
	if p.Ref.Q == nil {
		return nil, fmt.Errorf("reproduce: radau-sens: problem %q has no reference positions", problem)
	}
	res := &RadauSensResult{Problem: problem}
	for _, form := range []integrate.Formulation{integrate.Index3, integrate.Index2} {
		for _, k := range kappas {
			for _, tol := range tols {
				m := &integrate.Radau5{Formulation: form, Newton: integrate.NewtonSettings{Tol: k}}
				run := RadauSensRun{Form: form, Kappa: k, Tol: tol}
				sol, err := integrate.Solve(m, "radau5", p.System, p.Start.Clone(), p.TEnd,
					integrate.SolveOptions{Control: integrate.StepControl{RTol: tol, ATol: tol}, Output: []float64{p.TEnd}})
				if err != nil {
					run.Err, run.Fail = math.NaN(), err.Error()
				} else {
					run.Err = math.Pow(10, -p.Ref.SCD(sol.Final.Q))
				}
				if sol != nil {
					run.Stats = sol.Stats
				}
				res.Runs = append(res.Runs, run)
			}
		}
	}
	return res, nil
}

// Table renders the errors as one row per formulation and κ, one column per TOL.
func (r *RadauSensResult) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed 002 Figs. 12-13: radau5 on %s, max relative error of q at t_end vs TOL and Newton tolerance kappa\n", r.Problem)
	var tols []float64
	for _, run := range r.Runs {
		if run.Form != r.Runs[0].Form || run.Kappa != r.Runs[0].Kappa {
			break
		}
		tols = append(tols, run.Tol)
	}
	fmt.Fprintf(&b, "%-8s %-8s", "form", "kappa")
	for _, tol := range tols {
		fmt.Fprintf(&b, " %10s", fmt.Sprintf("TOL=%.0e", tol))
	}
	b.WriteString("\n")
	for i, run := range r.Runs {
		if i%len(tols) == 0 {
			k := "default"
			if run.Kappa > 0 {
				k = fmt.Sprintf("%.0e", run.Kappa)
			}
			fmt.Fprintf(&b, "%-8s %-8s", run.Form, k)
		}
		if run.Fail != "" {
			fmt.Fprintf(&b, " %10s", "failed")
		} else {
			fmt.Fprintf(&b, " %10.2e", run.Err)
		}
		if i%len(tols) == len(tols)-1 {
			b.WriteString("\n")
		}
	}
	return b.String()
}
