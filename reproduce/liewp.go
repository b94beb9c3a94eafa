package reproduce

import (
	"fmt"
	"math"
	"strings"
	"time"

	"linkage/dae"
	"linkage/integrate"
	"linkage/problems"
)

// LieRun is one run of the work-precision comparison LieWorkPrecision: a method and
// formulation on one route (Lie group or Euler parameters) of one problem at one tolerance.
type LieRun struct {
	Problem     string // "heavytop", "heavytop-fast", "chain3d:N"
	Route       string // "lie-group" (a dae.LieSystem) or "euler-params" (a dae.System)
	Method      string
	Formulation integrate.Formulation
	Tol         float64
	Err         float64 // max |q(t_end) − q_ref| over every body's x and quaternion (sign fixed)
	NormErr     float64 // max over the bodies of |‖p(t_end)‖ − 1|
	Stats       integrate.Stats
	Seconds     float64 // wall time of the run, setup included (ratios within one run are what counts)
	Failed      string  // the error when the run stopped early
}

// LieResult is the outcome of LieWorkPrecision.
type LieResult struct {
	Runs []LieRun
}

// lieCase is a problem on both routes with its reference q at t_end (bodies stored as
// (x, p), 7 numbers each, on both routes).
type lieCase struct {
	name       string
	tEnd       float64
	lie        dae.LieSystem
	lieStart   integrate.State
	euler      dae.System
	eulerStart integrate.State
	ref        []float64
}

// LieWorkPrecision compares the Lie-group route with the Euler-parameter route: on the
// heavy tops of seed 002, Example 6 (slow top over 10 s, fast top over 2 s, against the
// independent RK4 route of HeavyTop.Reference) and on the 3D chains of chains rods over
// 1 s (problems.LieChain3D against chain3d:N, against the planar chain's reference),
// lie-genalpha (index 3 and stabilized index 2) against genalpha, hht and radau5, each
// with error control at RTol = ATol = tol for every tol. It records the error at t_end,
// the normalization error, the statistics and the wall time.
func LieWorkPrecision(tols []float64, chains []int) (*LieResult, error) {
	var cases []lieCase
	for _, c := range []struct {
		name string
		top  problems.HeavyTop
		tEnd float64
		refN int
	}{{"heavytop", problems.DefaultHeavyTop(), 10, 20000}, {"heavytop-fast", problems.FastHeavyTop(), 2, 40000}} {
		ref, err := c.top.Reference(c.tEnd, c.refN)
		if err != nil {
			return nil, err
		}
		ls, err := c.top.Lie().Start()
		if err != nil {
			return nil, err
		}
		es, err := c.top.Start()
		if err != nil {
			return nil, err
		}
		cases = append(cases, lieCase{c.name, c.tEnd, c.top.Lie(), ls, c.top, es, ref[:]})
	}
	for _, n := range chains {
		lc, err := problems.NewLieChain3D(n)
		if err != nil {
			return nil, err
		}
		p, err := problems.Get(fmt.Sprintf("chain3d:%d", n))
		if err != nil {
			return nil, err
		}
		if p.Ref.Q == nil {
			return nil, fmt.Errorf("reproduce: chain3d:%d has no reference: %s", n, p.Ref.Source)
		}
		cases = append(cases, lieCase{p.Name, p.TEnd, lc, lc.Start(), p.System, p.Start, p.Ref.Q})
	}
	res := &LieResult{}
	for _, c := range cases {
		for _, tol := range tols {
			for _, form := range []integrate.Formulation{integrate.Index3, integrate.StabilizedIndex2} {
				res.Runs = append(res.Runs, runLie(c, tol, form))
			}
			for _, name := range []string{"genalpha", "hht", "radau5"} {
				res.Runs = append(res.Runs, runEuler(c, tol, name))
			}
		}
	}
	return res, nil
}

func runLie(c lieCase, tol float64, form integrate.Formulation) LieRun {
	run := LieRun{Problem: c.name, Route: "lie-group", Method: "lie-genalpha", Formulation: form, Tol: tol}
	start := time.Now()
	e, err := integrate.Lookup("lie-genalpha")
	var m integrate.LieMethod
	if err == nil {
		m, err = e.NewLieMethod(form)
	}
	if err == nil {
		err = m.InitLie(c.lie, c.lieStart.Clone(), integrate.StepControl{RTol: tol, ATol: tol})
	}
	for err == nil && m.Current().T < c.tEnd {
		err = m.Step(c.tEnd)
	}
	run.Seconds = time.Since(start).Seconds()
	if m != nil && err == nil {
		run.Stats = m.Stats()
		run.Err, run.NormErr = bodiesError(m.Current().Q, c.ref)
	}
	if err != nil {
		run.Failed = err.Error()
	}
	return run
}

func runEuler(c lieCase, tol float64, name string) LieRun {
	run := LieRun{Problem: c.name, Route: "euler-params", Method: name, Tol: tol}
	e, err := integrate.Lookup(name)
	if err != nil {
		run.Failed = err.Error()
		return run
	}
	run.Formulation = e.Formulations[0]
	start := time.Now()
	sol, err := integrate.Solve(e.New(), name, c.euler, c.eulerStart.Clone(), c.tEnd,
		integrate.SolveOptions{Control: integrate.StepControl{RTol: tol, ATol: tol}, Output: []float64{c.tEnd}})
	run.Seconds = time.Since(start).Seconds()
	if sol != nil {
		run.Stats = sol.Stats
		run.Err, run.NormErr = bodiesError(sol.Final.Q, c.ref)
	}
	if err != nil {
		run.Failed = err.Error()
	}
	return run
}

// bodiesError returns max |q − ref| over the bodies' (x, p), each quaternion's sign fixed
// to the reference's, and the largest |‖p‖ − 1|.
func bodiesError(q, ref []float64) (e, norm float64) {
	for b := 0; b+7 <= len(q); b += 7 {
		p, r := q[b+3:b+7], ref[b+3:b+7]
		sign := 1.0
		if p[0]*r[0]+p[1]*r[1]+p[2]*r[2]+p[3]*r[3] < 0 {
			sign = -1
		}
		for i := range 7 {
			x := q[b+i]
			if i >= 3 {
				x *= sign
			}
			e = math.Max(e, math.Abs(x-ref[b+i]))
		}
		norm = math.Max(norm, math.Abs(math.Sqrt(p[0]*p[0]+p[1]*p[1]+p[2]*p[2]+p[3]*p[3])-1))
	}
	return e, norm
}

// Table renders the runs: problem, route, method, formulation, tol, error, normalization
// error, steps, rejected + failed attempts, Newton iterations, factorizations, time.
func (r *LieResult) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Lie group vs Euler parameters; error = max |q(t_end) - q_ref| over every body's x and p\n")
	fmt.Fprintf(&b, "%-13s %-12s %-12s %-6s %6s %10s %9s %7s %6s %7s %6s %8s\n",
		"problem", "route", "method", "form", "tol", "error", "|p|-1", "steps", "fail", "newton", "LU", "ms")
	for _, x := range r.Runs {
		st := x.Stats
		fmt.Fprintf(&b, "%-13s %-12s %-12s %-6s %6.0e %10.3e %9.1e %7d %6d %7d %6d %8.1f",
			x.Problem, x.Route, x.Method, x.Formulation, x.Tol, x.Err, x.NormErr, st.Steps,
			st.Rejected+st.NewtonFailures+st.Singular+st.NonFinite, st.NewtonIters, st.Factorizations, 1e3*x.Seconds)
		if x.Failed != "" {
			fmt.Fprintf(&b, "  FAILED: %s", x.Failed)
		}
		b.WriteString("\n")
	}
	return b.String()
}
