package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"linkage/dae"
	"linkage/integrate"
	"linkage/modelfile"
	"linkage/output"
	"linkage/problems"
)

const solveSynopsis = "solve PROBLEM [--method M] [--formulation F] [--method-option NAME=VALUE]... [--tol E] [--t-end T] [--h|--step H] [--max-steps N] [--out FILE.csv] [--json]"

// solveReport is the machine-readable summary of one run (`linkage solve --json`).
type solveReport struct {
	Problem        string             `json:"problem"`
	Method         string             `json:"method"`
	Formulation    string             `json:"formulation"`
	MethodOptions  map[string]float64 `json:"method_options,omitempty"`
	Tol            float64            `json:"tol"`
	H              float64            `json:"h,omitempty"`
	TEnd           float64            `json:"t_end"`
	SCD            *float64           `json:"scd"` // null when the run does not end at the reference time
	Steps          int                `json:"steps"`
	Rejected       int                `json:"rejected"`
	NewtonFailures int                `json:"newton_failures"`
	Singular       int                `json:"singular"`
	NonFinite      int                `json:"non_finite"`
	failures       string             // st.FailureSummary()
	FuncEvals      int                `json:"f_evals"`
	NewtonIters    int                `json:"newton_iters"`
	Jacobians      int                `json:"jacobians"`
	Factorizations int                `json:"factorizations"`
	WallS          float64            `json:"wall_s"`
	MaxResidualPos float64            `json:"max_residual_pos"`
	MaxResidualVel float64            `json:"max_residual_vel"`
	// EnergyStart and EnergyEnd are T + V at the start and at the end of the run, for
	// systems that report their energy (dae.Energy): with no damping, driving or applied
	// forces their difference measures the integration error where no reference exists.
	EnergyStart *float64 `json:"energy_start,omitempty"`
	EnergyEnd   *float64 `json:"energy_end,omitempty"`
	// IndexReport: switches, steps and time per index of the multi-index method (seed 001).
	IndexReport *integrate.IndexReport `json:"index_report,omitempty"`
	Warnings    []string               `json:"warnings,omitempty"` // a fixed-step run whose max |g| passed modelfile.FixedStepMaxResidual; the method's doubts about its error control (integrate.ControlWarner)
	Partial     []string               `json:"partial_files,omitempty"`
	Error       string                 `json:"error,omitempty"`
	finalT      float64                // time of the last accepted step
}

func runSolve(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("solve", solveSynopsis, stderr)
	method := fs.String("method", "dopri5", "integrator (see 'linkage methods')")
	form := fs.String("formulation", "", "form of the equations (index3, index2, ggl, index1, index1-proj; default: the method's first, see 'linkage methods')")
	options := methodOptions{}
	fs.Var(options, "method-option", "set a parameter of the method, NAME=VALUE, repeatable (see linkage run --help)")
	tol := fs.Float64("tol", 0, "relative and absolute tolerance in [1e-14, 0.1] (0: the problem's default)")
	tEnd := fs.Float64("t-end", 0, "end time (0: the problem's; scd needs the reference time)")
	h := fs.Float64("h", 0, "fixed step size, also --step (0: error-controlled steps); a run whose max |g| passes 1e-3 is flagged and exits 1; -h alone is help")
	fs.Float64Var(h, "step", 0, "same as --h")
	maxSteps := fs.Int("max-steps", 0, "stop after this many attempted steps (0: 1000000)")
	out := fs.String("out", "", "write the solution at every accepted step to this CSV file, row by row during the run;\nit replaces the file only if the run succeeds, else the rows go to NAME.partial.csv")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the text summary")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one PROBLEM, got %d; usage: linkage %s", len(pos), solveSynopsis)
	}
	p, err := problems.Get(pos[0])
	var ip *problems.ImplicitProblem
	if err != nil {
		q, ierr := problems.GetImplicit(pos[0])
		if ierr != nil {
			return usagef("%v; linearly implicit problems: %s", err, strings.Join(problems.ImplicitNames(), ", "))
		}
		ip = &q
	}
	entry, err := integrate.Lookup(*method)
	if err != nil {
		return usagef("%v", err)
	}
	if *tol < 0 || *h < 0 || math.IsNaN(*tol) || math.IsNaN(*h) || math.IsInf(*h, 0) {
		return usagef("--tol and --h must be finite and >= 0")
	}
	if *tol != 0 {
		if why := modelfile.TolProblem(*tol); why != "" {
			return usagef("--tol = %g %s", *tol, why)
		}
	}
	if *maxSteps < 0 {
		return usagef("--max-steps = %d; want a positive number of steps (0: the default)", *maxSteps)
	}
	if *h == 0 && !entry.Adaptive {
		return usagef("method %s has no error control: give a fixed step with --h", entry.Name)
	}
	if *h > 0 && !entry.Adaptive && *tol > 0 {
		fmt.Fprintf(stderr, "linkage solve: note: %s is fixed-step; --tol is ignored\n", entry.Name)
	}
	if ip != nil && len(options) > 0 {
		return usagef("--method-option: problem %s is a linearly implicit system K y' = φ(t, y), integrated with the method's defaults only", p.Name)
	}
	if ip != nil {
		return runSolveImplicit(*ip, implicitRun{entry: entry, form: *form, tol: *tol, h: *h, tEnd: *tEnd, maxSteps: *maxSteps,
			out: *out, asJSON: *asJSON}, stdout)
	}
	if _, err := entry.NewMethod(integrate.Formulation(*form)); err != nil {
		return usagef("%v", err)
	}
	if err := entry.CheckParams(options); err != nil {
		return usagef("--method-option: %v", err)
	}
	csv, err := openOut("--out", *out)
	if err != nil {
		return err
	}
	run := runSpec{problem: p, entry: entry, formulation: integrate.Formulation(*form), options: options, tol: *tol, h: *h, tEnd: *tEnd, maxSteps: *maxSteps, progress: stderr}
	var cw *output.CSVWriter
	rows := 0
	if csv != nil {
		names, row := solutionRow(p)
		cw = output.NewCSVWriter(csv.f, names)
		run.sample = func(s *integrate.State) error {
			rows++
			return cw.Row(row(s))
		}
	}
	rep, runErr := run.do()
	switch {
	case csv == nil:
	case runErr != nil && rows == 0:
		csv.abort() // failed before the start was recorded: nothing to keep
	default:
		partial, err := finishSolutionCSV(cw, csv, rep, runErr)
		if err != nil {
			return err
		}
		rep.Partial = partial
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
	switch {
	case runErr != nil:
		return fmt.Errorf("%w: %v", errReported, runErr)
	case rep.H > 0 && len(rep.Warnings) > 0:
		return fmt.Errorf("%w: fixed-step run flagged", errReported)
	}
	return nil
}

// finishSolutionCSV marks the CSV of a failed run at its end and puts it in place; it
// returns the partial file a failed run left.
func finishSolutionCSV(cw *output.CSVWriter, csv *outFile, rep solveReport, runErr error) ([]string, error) {
	if runErr != nil {
		cw.Comment(fmt.Sprintf("run failed at t=%g: %v", rep.finalT, runErr))
	}
	if err := cw.Flush(); err != nil {
		csv.abort()
		return nil, fmt.Errorf("--out %s: %w", csv.path, err)
	}
	p, err := csv.finish(runErr)
	if p == "" {
		return nil, err
	}
	return []string{p}, err
}

// runSpec is one solve of a benchmark problem.
type runSpec struct {
	problem     problems.Problem
	entry       integrate.Entry
	formulation integrate.Formulation // "" for the method's default
	options     map[string]float64    // the method's parameters (integrate.Param); nil for its defaults
	tol, h      float64
	tEnd        float64
	maxSteps    int                          // 0: integrate's default
	sample      func(*integrate.State) error // receives every accepted step (the start included); nil keeps none
	progress    io.Writer                    // progress line on a terminal; nil for none
}

// do runs the problem and returns its report (filled as far as the run got, with the
// error, if any, in its Error field).
func (r runSpec) do() (solveReport, error) {
	rep, err := r.solve()
	if err != nil {
		rep.Error = err.Error()
	}
	return rep, err
}

func (r runSpec) solve() (solveReport, error) {
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
	rep := solveReport{Problem: p.Name, Method: r.entry.Name, Formulation: string(form), MethodOptions: r.options, Tol: tol, H: r.h, TEnd: tEnd}
	m, err := r.entry.NewMethodWith(form, r.options)
	if err != nil {
		return rep, usagef("%v", err)
	}
	if r.h == 0 && !r.entry.Adaptive {
		return rep, usagef("method %s has no error control: give a fixed step with --h", r.entry.Name)
	}
	ctl := integrate.StepControl{RTol: tol, ATol: tol, FixedH: r.h, MaxSteps: r.maxSteps}
	sample := r.sample
	if sample == nil {
		sample = func(*integrate.State) error { return nil } // keep no samples: only the final state is used
	}
	progress := newProgress(r.progress, p.T0, tEnd)
	opt := integrate.SolveOptions{Control: ctl, Sample: sample, Observer: progress.observer()}
	sol, err := integrate.Solve(m, r.entry.Name, p.System, p.Start.Clone(), tEnd, opt)
	progress.clear()
	if sol == nil {
		return rep, err
	}
	st := sol.Stats
	rep.Steps, rep.Rejected, rep.FuncEvals = st.Steps, st.Rejected, st.FuncEvals
	rep.NewtonFailures, rep.Singular, rep.NonFinite, rep.failures = st.NewtonFailures, st.Singular, st.NonFinite, st.FailureSummary()
	rep.NewtonIters, rep.Jacobians, rep.Factorizations = st.NewtonIters, st.Jacobians, st.Factorizations
	rep.WallS = sol.Wall.Seconds()
	if ir, ok := m.(integrate.IndexReporter); ok {
		r := ir.Report()
		rep.IndexReport = &r
	}
	if cw, ok := m.(integrate.ControlWarner); ok {
		rep.Warnings = append(rep.Warnings, cw.ControlWarnings()...)
	}
	rep.MaxResidualPos, rep.MaxResidualVel = sol.MaxResidual.Pos, sol.MaxResidual.Vel
	rep.finalT = sol.Final.T
	if e, ok := p.System.(dae.Energy); ok {
		t0, v0 := e.Energy(p.Start.T, p.Start.Q, p.Start.V)
		t1, v1 := e.Energy(sol.Final.T, sol.Final.Q, sol.Final.V)
		e0, e1 := t0+v0, t1+v1
		rep.EnergyStart, rep.EnergyEnd = &e0, &e1
	}
	if err == nil && p.Ref.Q != nil && math.Abs(sol.Final.T-p.Ref.T) <= 1e-12*math.Max(1, math.Abs(p.Ref.T)) {
		scd := p.Ref.SCD(sol.Final.Q)
		rep.SCD = &scd
	}
	if r.h > 0 && !(rep.MaxResidualPos <= modelfile.FixedStepMaxResidual) {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("fixed step: max |g| = %.3g, above %g (modelfile.FixedStepMaxResidual): the constraints are not held; "+
			"try a smaller --h, error control or a projected formulation", rep.MaxResidualPos, modelfile.FixedStepMaxResidual))
	}
	if errors.Is(err, integrate.ErrMaxSteps) {
		limit := r.maxSteps
		if limit == 0 {
			limit = integrate.DefaultMaxSteps
		}
		err = fmt.Errorf("%w; stopped at the step limit %d; raise it with --max-steps", err, limit)
	}
	return rep, err
}

func printSummary(w io.Writer, r solveReport, p problems.Problem) {
	fmt.Fprintf(w, "problem  %s (%s)\n", r.Problem, p.Title)
	mode := fmt.Sprintf("tol %g", r.Tol)
	if r.H > 0 {
		mode = fmt.Sprintf("fixed h %g", r.H)
	}
	fmt.Fprintf(w, "method   %s (%s%s), %s, t_end %g\n", r.Method, r.Formulation, modelfile.OptionsText(r.MethodOptions), mode, r.TEnd)
	switch {
	case r.SCD != nil:
		fmt.Fprintf(w, "scd      %.2f  (significant correct digits of q%s at t=%g against the reference)\n", *r.SCD, indexList(p.Ref.SCDIndices), p.Ref.T)
		fmt.Fprintf(w, "ref      %s\n", p.Ref.Source)
	case r.Error == "" && p.Ref.Q == nil:
		fmt.Fprintf(w, "scd      n/a (no reference solution: %s)\n", p.Ref.Source)
	case r.Error == "":
		fmt.Fprintf(w, "scd      n/a (the reference is at t=%g)\n", p.Ref.T)
	}
	printWork(w, r)
	if x := r.IndexReport; x != nil {
		fmt.Fprintf(w, "index    %s\n", x)
	}
	fmt.Fprintf(w, "time     %.4g s\n", r.WallS)
	fmt.Fprintf(w, "residual max |g| = %.2e, max |G v + g_t| = %.2e over accepted steps\n", r.MaxResidualPos, r.MaxResidualVel)
	if r.EnergyStart != nil {
		fmt.Fprintf(w, "energy   T + V = %.10g J at the start, %.10g J at t=%g (change %.2e J; constant without damping, driving or applied forces)\n",
			*r.EnergyStart, *r.EnergyEnd, r.finalT, *r.EnergyEnd-*r.EnergyStart)
	}
	for _, x := range r.Warnings {
		fmt.Fprintf(w, "WARNING  %s\n", x)
	}
	printEnd(w, r)
}

// printWork prints the work lines of a summary: counters and failed attempts.
func printWork(w io.Writer, r solveReport) {
	fmt.Fprintf(w, "work     %d steps, %d rejected, %d f-evals, %d Newton iterations, %d Jacobians, %d factorizations\n",
		r.Steps, r.Rejected, r.FuncEvals, r.NewtonIters, r.Jacobians, r.Factorizations)
	if r.failures != "" {
		fmt.Fprintf(w, "failed   %s (attempts retried with a fresh Jacobian or a smaller step)\n", r.failures)
	}
}

// printEnd prints the last lines of a summary: the error of a failed run and its
// partial files.
func printEnd(w io.Writer, r solveReport) {
	if r.Error != "" {
		fmt.Fprintf(w, "FAILED   %s\n", r.Error)
	}
	if note := partialNote(r.Partial); note != "" {
		fmt.Fprintf(w, "PARTIAL  %s\n", note)
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

// solutionRow returns the CSV header of a problem's solution (time, q, v, λ and the
// first-order states X1, X2, …, with the problem's coordinate and constraint names) and
// the function that fills a row from a state (the row is reused).
func solutionRow(p problems.Problem) ([]string, func(*integrate.State) []float64) {
	nq, nc := p.System.Size()
	names := []string{"t"}
	for i := range nq {
		names = append(names, dae.CoordinateName(p.System, i))
	}
	for i := range nq {
		names = append(names, dae.CoordinateName(p.System, i)+"'")
	}
	for i := range nc {
		names = append(names, "lambda:"+dae.ConstraintName(p.System, i))
	}
	for i := range p.Start.X {
		names = append(names, fmt.Sprintf("X%d", i+1)) // first-order states (seed 004, eq. 8a)
	}
	row := make([]float64, 0, len(names))
	return names, func(s *integrate.State) []float64 {
		row = append(row[:0], s.T)
		row = append(row, s.Q...)
		row = append(row, s.V...)
		row = append(row, s.Lambda...)
		return append(row, s.X...)
	}
}

// progressLine redraws one status line on a terminal at most every 0.2 s once the run has
// taken more than a second; clear erases it before anything else is printed.
type progressLine struct {
	w           io.Writer
	t0, tEnd    float64
	now         func() time.Time
	start, last time.Time
	shown       bool // a line is on the screen
}

// newProgress returns the progress line of a run on w, or nil when w is not a terminal.
func newProgress(w io.Writer, t0, tEnd float64) *progressLine {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f) {
		return nil
	}
	return newProgressLine(f, t0, tEnd, time.Now)
}

func newProgressLine(w io.Writer, t0, tEnd float64, now func() time.Time) *progressLine {
	start := now()
	return &progressLine{w: w, t0: t0, tEnd: tEnd, now: now, start: start, last: start}
}

// observer returns p.observe, or nil for a nil p (no terminal).
func (p *progressLine) observer() func(*integrate.State) error {
	if p == nil {
		return nil
	}
	return p.observe
}

// observe is an integrate observer: it redraws the line for the accepted state s.
func (p *progressLine) observe(s *integrate.State) error {
	now := p.now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 200*time.Millisecond {
		return nil
	}
	p.last = now
	frac := (s.T - p.t0) / (p.tEnd - p.t0)
	fmt.Fprintf(p.w, "\r  t = %-12.6g %5.1f%%  %6.1f s", s.T, 100*frac, now.Sub(p.start).Seconds())
	p.shown = true
	return nil
}

// clear erases the line if one was drawn; nil p does nothing.
func (p *progressLine) clear() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
