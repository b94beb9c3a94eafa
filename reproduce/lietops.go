package reproduce

import (
	"fmt"
	"math"
	"strings"
	"time"

	"linkage/integrate"
	"linkage/problems"
)

// LieTopRun is one run of the work-precision comparison LieTops: a method and formulation
// on one route (Lie group or Euler parameters) of one top at one tolerance.
type LieTopRun struct {
	Top         string // "heavytop" or "heavytop-fast"
	Route       string // "lie-group" (LieHeavyTop) or "euler-params" (HeavyTop)
	Method      string
	Formulation integrate.Formulation
	Tol         float64
	Err         float64 // max |q(t_end) − q_ref| over x and the quaternion (sign fixed)
	NormErr     float64 // |‖p(t_end)‖ − 1|
	Stats       integrate.Stats
	Seconds     float64 // wall time of the run, setup included (ratios within one run are what counts)
	Failed      string  // the error when the run stopped early
}

// LieTopsResult is the outcome of LieTops.
type LieTopsResult struct {
	Runs []LieTopRun
}

// lieTopCase is a top, its span and its reference q at t_end.
type lieTopCase struct {
	name string
	top  problems.HeavyTop
	tEnd float64
	refN int // RK4 steps of the reference (HeavyTop.Reference, Richardson-extrapolated)
}

// LieTops compares the Lie-group route with the Euler-parameter route on the heavy tops of
// seed 002, Example 6 (slow top over 10 s, fast top over 2 s): lie-genalpha (index 3 and
// stabilized index 2) on LieHeavyTop against genalpha, hht and radau5 on HeavyTop (Euler
// parameters with the normalization constraint), each with error control at
// RTol = ATol = tol for every tol, all against the independent RK4 route of
// HeavyTop.Reference. It records the error at t_end, the normalization error, the
// statistics and the wall time.
func LieTops(tols []float64) (*LieTopsResult, error) {
	cases := []lieTopCase{
		{"heavytop", problems.DefaultHeavyTop(), 10, 20000},
		{"heavytop-fast", problems.FastHeavyTop(), 2, 40000},
	}
	res := &LieTopsResult{}
	for _, c := range cases {
		ref, err := c.top.Reference(c.tEnd, c.refN)
		if err != nil {
			return nil, err
		}
		for _, tol := range tols {
			for _, form := range []integrate.Formulation{integrate.Index3, integrate.StabilizedIndex2} {
				res.Runs = append(res.Runs, runLieTop(c, ref, tol, form))
			}
			for _, name := range []string{"genalpha", "hht", "radau5"} {
				res.Runs = append(res.Runs, runEulerTop(c, ref, tol, name))
			}
		}
	}
	return res, nil
}

func runLieTop(c lieTopCase, ref [7]float64, tol float64, form integrate.Formulation) LieTopRun {
	run := LieTopRun{Top: c.name, Route: "lie-group", Method: "lie-genalpha", Formulation: form, Tol: tol}
	start := time.Now()
	sys := c.top.Lie()
	s, err := sys.Start()
	var m integrate.LieMethod
	if err == nil {
		var e integrate.Entry
		e, err = integrate.Lookup("lie-genalpha")
		if err == nil {
			m, err = e.NewLieMethod(form)
		}
	}
	if err == nil {
		err = m.InitLie(sys, s, integrate.StepControl{RTol: tol, ATol: tol})
	}
	for err == nil && m.Current().T < c.tEnd {
		err = m.Step(c.tEnd)
	}
	run.Seconds = time.Since(start).Seconds()
	if m != nil {
		run.Stats = m.Stats()
		run.Err, run.NormErr = topError(m.Current().Q, ref)
	}
	if err != nil {
		run.Failed = err.Error()
	}
	return run
}

func runEulerTop(c lieTopCase, ref [7]float64, tol float64, name string) LieTopRun {
	run := LieTopRun{Top: c.name, Route: "euler-params", Method: name, Tol: tol}
	e, err := integrate.Lookup(name)
	if err != nil {
		run.Failed = err.Error()
		return run
	}
	run.Formulation = e.Formulations[0]
	start := time.Now()
	s, err := c.top.Start()
	var sol *integrate.Solution
	if err == nil {
		sol, err = integrate.Solve(e.New(), name, c.top, s, c.tEnd,
			integrate.SolveOptions{Control: integrate.StepControl{RTol: tol, ATol: tol}, Output: []float64{c.tEnd}})
	}
	run.Seconds = time.Since(start).Seconds()
	if sol != nil {
		run.Stats = sol.Stats
		run.Err, run.NormErr = topError(sol.Final.Q, ref)
	}
	if err != nil {
		run.Failed = err.Error()
	}
	return run
}

// topError returns max |q − ref| over (x, p) with the quaternion's sign fixed to the
// reference's, and |‖p‖ − 1|.
func topError(q []float64, ref [7]float64) (e, norm float64) {
	sign := 1.0
	if q[3]*ref[3]+q[4]*ref[4]+q[5]*ref[5]+q[6]*ref[6] < 0 {
		sign = -1
	}
	for i := range 7 {
		x := q[i]
		if i >= 3 {
			x *= sign
		}
		e = math.Max(e, math.Abs(x-ref[i]))
	}
	return e, math.Abs(math.Sqrt(q[3]*q[3]+q[4]*q[4]+q[5]*q[5]+q[6]*q[6]) - 1)
}

// Table renders the runs: top, route, method, formulation, tol, error, normalization
// error, steps, rejected + failed attempts, Newton iterations, factorizations, time.
func (r *LieTopsResult) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "heavy tops (seed 002 Example 6): Lie group vs Euler parameters; error = max |q(t_end) - q_ref| over x and p\n")
	fmt.Fprintf(&b, "%-13s %-12s %-12s %-6s %6s %10s %9s %7s %6s %7s %6s %8s\n",
		"top", "route", "method", "form", "tol", "error", "|p|-1", "steps", "fail", "newton", "LU", "ms")
	for _, x := range r.Runs {
		st := x.Stats
		fmt.Fprintf(&b, "%-13s %-12s %-12s %-6s %6.0e %10.3e %9.1e %7d %6d %7d %6d %8.1f",
			x.Top, x.Route, x.Method, x.Formulation, x.Tol, x.Err, x.NormErr, st.Steps,
			st.Rejected+st.NewtonFailures+st.Singular+st.NonFinite, st.NewtonIters, st.Factorizations, 1e3*x.Seconds)
		if x.Failed != "" {
			fmt.Fprintf(&b, "  FAILED: %s", x.Failed)
		}
		b.WriteString("\n")
	}
	return b.String()
}
