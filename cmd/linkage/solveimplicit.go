package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"linkage/dae"
	"linkage/integrate"
	"linkage/output"
	"linkage/problems"
)

// implicitRun is `linkage solve` on a linearly implicit problem (problems.GetImplicit).
type implicitRun struct {
	entry        integrate.Entry
	form         string
	tol, h, tEnd float64
	maxSteps     int
	out          string
	asJSON       bool
}

// runSolveImplicit solves p with r's method, which must take a dae.LinearlyImplicit
// system (integrate.Entry.Implicit), and prints the summary (or JSON) of solveReport.
func runSolveImplicit(p problems.ImplicitProblem, r implicitRun, stdout io.Writer) error {
	if !r.entry.Implicit {
		return usagef("method %s does not integrate a linearly implicit system K y' = φ(t, y) (problem %s); methods that do: %s",
			r.entry.Name, p.Name, strings.Join(integrate.ImplicitMethods(), ", "))
	}
	if r.form != "" {
		return usagef("--formulation %s: problem %s is a linearly implicit system K y' = φ(t, y) and has no formulations", r.form, p.Name)
	}
	tol, tEnd := p.Tol, p.TEnd
	if r.tol != 0 {
		tol = r.tol
	}
	if r.tEnd != 0 {
		tEnd = r.tEnd
	}
	rep := solveReport{Problem: p.Name, Method: r.entry.Name, Formulation: "linearly-implicit", Tol: tol, H: r.h, TEnd: tEnd}
	csv, err := openOut("--out", r.out)
	if err != nil {
		return err
	}
	var cw *output.CSVWriter
	opt := integrate.SolveOptions{Control: integrate.StepControl{RTol: tol, ATol: tol, FixedH: r.h, MaxSteps: r.maxSteps},
		Sample: func(*integrate.State) error { return nil }}
	if csv != nil {
		names := []string{"t"}
		for i := range p.System.Dim() {
			names = append(names, dae.VariableName(p.System, i))
		}
		cw = output.NewCSVWriter(csv.f, names)
		row := make([]float64, 0, len(names))
		opt.Sample = func(s *integrate.State) error { return cw.Row(append(append(row[:0], s.T), s.Q...)) }
	}
	sol, runErr := integrate.SolveImplicit(r.entry.New(), r.entry.Name, p.System, p.T0, p.Y0, p.YP0, tEnd, opt)
	if sol != nil {
		st := sol.Stats
		rep.Steps, rep.Rejected, rep.FuncEvals = st.Steps, st.Rejected, st.FuncEvals
		rep.NewtonFailures, rep.Singular, rep.NonFinite, rep.failures = st.NewtonFailures, st.Singular, st.NonFinite, st.FailureSummary()
		rep.NewtonIters, rep.Jacobians, rep.Factorizations = st.NewtonIters, st.Jacobians, st.Factorizations
		rep.WallS, rep.finalT = sol.Wall.Seconds(), sol.Final.T
		if runErr == nil && math.Abs(sol.Final.T-p.Ref.T) <= 1e-12*math.Max(1, math.Abs(p.Ref.T)) {
			scd := p.Ref.SCD(sol.Final.Q)
			rep.SCD = &scd
		}
	}
	if runErr != nil {
		rep.Error = runErr.Error()
	}
	if csv != nil {
		if sol == nil {
			csv.abort()
		} else if rep.Partial, err = finishSolutionCSV(cw, csv, rep, runErr); err != nil {
			return err
		}
	}
	if r.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printImplicitSummary(stdout, rep, p)
	}
	if runErr != nil {
		return fmt.Errorf("%w: %v", errReported, runErr)
	}
	return nil
}

func printImplicitSummary(w io.Writer, r solveReport, p problems.ImplicitProblem) {
	fmt.Fprintf(w, "problem  %s (%s)\n", r.Problem, p.Title)
	mode := fmt.Sprintf("tol %g", r.Tol)
	if r.H > 0 {
		mode = fmt.Sprintf("fixed h %g", r.H)
	}
	fmt.Fprintf(w, "method   %s (linearly implicit K y' = φ, n = %d), %s, t_end %g\n", r.Method, p.System.Dim(), mode, r.TEnd)
	if r.SCD != nil {
		fmt.Fprintf(w, "scd      %.2f  (significant correct digits of y%s at t=%g against the reference)\n", *r.SCD, indexList(p.Ref.SCDIndices), p.Ref.T)
		fmt.Fprintf(w, "ref      %s\n", p.Ref.Source)
	}
	printWork(w, r)
	fmt.Fprintf(w, "time     %.4g s\n", r.WallS)
	printEnd(w, r)
}
