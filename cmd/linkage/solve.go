package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"linkage/dae"
	"linkage/integrate"
	"linkage/output"
	"linkage/problems"
)

const solveSynopsis = "solve PROBLEM [--method M] [--formulation F] [--tol E] [--t-end T] [--h H] [--out FILE.csv] [--json]"

// solveReport is the machine-readable summary of one run (`linkage solve --json`).
type solveReport struct {
	Problem        string   `json:"problem"`
	Method         string   `json:"method"`
	Formulation    string   `json:"formulation"`
	Tol            float64  `json:"tol"`
	H              float64  `json:"h,omitempty"`
	TEnd           float64  `json:"t_end"`
	SCD            *float64 `json:"scd"` // null when the run does not end at the reference time
	Steps          int      `json:"steps"`
	Rejected       int      `json:"rejected"`
	FuncEvals      int      `json:"f_evals"`
	NewtonIters    int      `json:"newton_iters"`
	Jacobians      int      `json:"jacobians"`
	Factorizations int      `json:"factorizations"`
	WallS          float64  `json:"wall_s"`
	MaxResidualPos float64  `json:"max_residual_pos"`
	MaxResidualVel float64  `json:"max_residual_vel"`
	Error          string   `json:"error,omitempty"`
}

func runSolve(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("solve", solveSynopsis, stderr)
	method := fs.String("method", "dopri5", "integrator (see 'linkage methods')")
	form := fs.String("formulation", "", "form of the equations (index3, index2, ggl, index1, index1-proj; default: the method's first, see 'linkage methods')")
	tol := fs.Float64("tol", 0, "relative and absolute tolerance (0: the problem's default)")
	tEnd := fs.Float64("t-end", 0, "end time (0: the problem's; scd needs the reference time)")
	h := fs.Float64("h", 0, "fixed step size (0: error-controlled steps)")
	out := fs.String("out", "", "write the solution at every accepted step to this CSV file")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the text summary")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one PROBLEM, got %d; usage: linkage %s", len(pos), solveSynopsis)
	}
	p, err := problems.Get(pos[0])
	if err != nil {
		return usagef("%v", err)
	}
	entry, err := integrate.Lookup(*method)
	if err != nil {
		return usagef("%v", err)
	}
	if *tol < 0 || *h < 0 || math.IsNaN(*tol) || math.IsNaN(*h) {
		return usagef("--tol and --h must be >= 0")
	}
	if *h > 0 && !entry.Adaptive && *tol > 0 {
		fmt.Fprintf(stderr, "linkage solve: note: %s is fixed-step; --tol is ignored\n", entry.Name)
	}
	if _, err := entry.NewMethod(integrate.Formulation(*form)); err != nil {
		return usagef("%v", err)
	}
	run := runSpec{problem: p, entry: entry, formulation: integrate.Formulation(*form), tol: *tol, h: *h, tEnd: *tEnd, progress: stderr}
	rep, sol, runErr := run.do()
	if *out != "" && sol != nil {
		if err := writeSolutionCSV(*out, p, sol); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printSummary(stdout, rep, p)
	}
	if runErr != nil {
		return fmt.Errorf("%w: %v", errReported, runErr)
	}
	return nil
}

// runSpec is one solve of a benchmark problem.
type runSpec struct {
	problem     problems.Problem
	entry       integrate.Entry
	formulation integrate.Formulation // "" for the method's default
	tol, h      float64
	tEnd        float64
	progress    io.Writer // progress line on a terminal; nil for none
}

// do runs the problem and returns its report (filled as far as the run got).
func (r runSpec) do() (solveReport, *integrate.Solution, error) {
	p := r.problem
	tol := r.tol
	if tol == 0 {
		tol = p.Tol
	}
	tEnd := p.TEnd
	if r.tEnd != 0 {
		tEnd = r.tEnd
	}
	form := r.formulation
	if form == "" {
		form = r.entry.Formulations[0]
	}
	rep := solveReport{Problem: p.Name, Method: r.entry.Name, Formulation: string(form), Tol: tol, H: r.h, TEnd: tEnd}
	m, err := r.entry.NewMethod(form)
	if err != nil {
		return rep, nil, usagef("%v", err)
	}
	if r.h == 0 && !r.entry.Adaptive {
		return rep, nil, usagef("method %s has no error control: give a fixed step with --h", r.entry.Name)
	}
	ctl := integrate.StepControl{RTol: tol, ATol: tol, FixedH: r.h}
	opt := integrate.SolveOptions{Control: ctl, Observer: newProgress(r.progress, p.T0, tEnd)}
	sol, err := integrate.Solve(m, r.entry.Name, p.System, p.Start.Clone(), tEnd, opt)
	if sol != nil {
		st := sol.Stats
		rep.Steps, rep.Rejected, rep.FuncEvals = st.Steps, st.Rejected, st.FuncEvals
		rep.NewtonIters, rep.Jacobians, rep.Factorizations = st.NewtonIters, st.Jacobians, st.Factorizations
		rep.WallS = sol.Wall.Seconds()
		rep.MaxResidualPos, rep.MaxResidualVel = sol.MaxResidual.Pos, sol.MaxResidual.Vel
		if err == nil && p.Ref.Q != nil && math.Abs(sol.Final.T-p.Ref.T) <= 1e-12*math.Max(1, math.Abs(p.Ref.T)) {
			scd := p.Ref.SCD(sol.Final.Q)
			rep.SCD = &scd
		}
	}
	if err != nil {
		rep.Error = err.Error()
	}
	return rep, sol, err
}

func printSummary(w io.Writer, r solveReport, p problems.Problem) {
	fmt.Fprintf(w, "problem  %s (%s)\n", r.Problem, p.Title)
	mode := fmt.Sprintf("tol %g", r.Tol)
	if r.H > 0 {
		mode = fmt.Sprintf("fixed h %g", r.H)
	}
	fmt.Fprintf(w, "method   %s (%s), %s, t_end %g\n", r.Method, r.Formulation, mode, r.TEnd)
	switch {
	case r.SCD != nil:
		fmt.Fprintf(w, "scd      %.2f  (significant correct digits of q%s at t=%g vs %s)\n", *r.SCD, indexList(p.Ref.SCDIndices), p.Ref.T, shortSource(p.Ref.Source))
	case r.Error == "":
		fmt.Fprintf(w, "scd      n/a (the reference is at t=%g)\n", p.Ref.T)
	}
	fmt.Fprintf(w, "work     %d steps, %d rejected, %d f-evals, %d Newton iterations, %d Jacobians, %d factorizations\n",
		r.Steps, r.Rejected, r.FuncEvals, r.NewtonIters, r.Jacobians, r.Factorizations)
	fmt.Fprintf(w, "time     %.4g s\n", r.WallS)
	fmt.Fprintf(w, "residual max |g| = %.2e, max |G v + g_t| = %.2e over accepted steps\n", r.MaxResidualPos, r.MaxResidualVel)
	if r.Error != "" {
		fmt.Fprintf(w, "FAILED   %s\n", r.Error)
	}
}

// indexList writes 0-based indices 1-based, runs of three or more as ranges: [1-7,9].
func indexList(idx []int) string {
	if len(idx) == 0 {
		return ""
	}
	var s []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		switch {
		case j-i >= 2:
			s = append(s, fmt.Sprintf("%d-%d", idx[i]+1, idx[j]+1))
		case j > i:
			s = append(s, fmt.Sprint(idx[i]+1), fmt.Sprint(idx[j]+1))
		default:
			s = append(s, fmt.Sprint(idx[i]+1))
		}
		i = j + 1
	}
	return "[" + strings.Join(s, ",") + "]"
}

func shortSource(s string) string {
	if i := strings.IndexAny(s, ".;("); i > 0 && i < 80 {
		return s[:i]
	}
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// writeSolutionCSV writes time, q, v, λ and the first-order states X1, X2, … of every
// recorded sample, with the problem's coordinate and constraint names in the header.
func writeSolutionCSV(path string, p problems.Problem, sol *integrate.Solution) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	nq, nc := p.System.Size()
	ch := []output.Channel{{Name: "t", Value: func(k int) float64 { return sol.T[k] }}}
	for i := range nq {
		name := dae.CoordinateName(p.System, i)
		ch = append(ch, output.Channel{Name: name, Value: func(k int) float64 { return sol.Q[k][i] }})
	}
	for i := range nq {
		name := dae.CoordinateName(p.System, i) + "'"
		ch = append(ch, output.Channel{Name: name, Value: func(k int) float64 { return sol.V[k][i] }})
	}
	if sol.Lambda != nil {
		for i := range nc {
			name := "lambda:" + dae.ConstraintName(p.System, i)
			ch = append(ch, output.Channel{Name: name, Value: func(k int) float64 { return sol.Lambda[k][i] }})
		}
	}
	if sol.X != nil {
		for i := range sol.X[0] {
			name := fmt.Sprintf("X%d", i+1) // first-order states (seed 004, eq. 8a)
			ch = append(ch, output.Channel{Name: name, Value: func(k int) float64 { return sol.X[k][i] }})
		}
	}
	werr := output.WriteCSV(f, len(sol.T), ch)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// progress returns an observer that redraws one status line on w at most every 0.2 s once
// the run has taken more than a second, or nil when w is not a terminal.
func newProgress(w io.Writer, t0, tEnd float64) func(*integrate.State) error {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f) {
		return nil
	}
	start := time.Now()
	last := start
	return func(s *integrate.State) error {
		now := time.Now()
		if now.Sub(start) < time.Second || now.Sub(last) < 200*time.Millisecond {
			return nil
		}
		last = now
		frac := (s.T - t0) / (tEnd - t0)
		fmt.Fprintf(f, "\r  t = %-12.6g %5.1f%%  %6.1f s", s.T, 100*frac, now.Sub(start).Seconds())
		if s.T >= tEnd {
			fmt.Fprint(f, "\r\033[K")
		}
		return nil
	}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
