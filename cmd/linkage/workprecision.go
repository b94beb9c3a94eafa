package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"linkage/integrate"
	"linkage/modelfile"
	"linkage/output"
	"linkage/problems"
)

const wpSynopsis = "workprecision PROBLEM [--methods a,b] [--tols 1e-3:1e-9[:PER_DECADE]] [--repeat N] [--plot wp.png] [--markdown] [--json]"

func runWorkPrecision(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("workprecision", wpSynopsis, stderr)
	methods := fs.String("methods", "", "comma-separated methods, each optionally METHOD:FORMULATION (default: every adaptive method)")
	tols := fs.String("tols", "1e-3:1e-9", "tolerances: FROM:TO[:PER_DECADE] or a comma list")
	repeat := fs.Int("repeat", 3, "runs per point; the fastest wall time is reported (noise on shared machines)")
	plotPath := fs.String("plot", "", "write the work-precision plot (scd vs wall time) here (.png, .svg, .pdf)")
	markdown := fs.Bool("markdown", false, "print the table as Markdown (for BENCHMARKS.md)")
	asJSON := fs.Bool("json", false, "print one JSON object per run, one per line")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one PROBLEM; usage: linkage %s", wpSynopsis)
	}
	p, err := problems.Get(pos[0])
	if err != nil {
		return usagef("%v", err)
	}
	if p.Ref.Q == nil {
		return fmt.Errorf("problem %s has no reference solution (%s): no scd to compare", p.Name, p.Ref.Source)
	}
	tolList, err := parseTols(*tols)
	if err != nil {
		return err
	}
	for _, tol := range tolList {
		if why := modelfile.TolProblem(tol); why != "" {
			return usagef("--tols: %.3g %s", tol, why)
		}
	}
	if *repeat < 1 {
		return usagef("--repeat %d, want >= 1", *repeat)
	}
	type choice struct {
		entry integrate.Entry
		form  integrate.Formulation
	}
	var choices []choice
	if *methods == "" {
		for _, e := range integrate.Methods() {
			if e.Adaptive {
				choices = append(choices, choice{entry: e})
			}
		}
	} else {
		for _, spec := range strings.Split(*methods, ",") {
			name, form, _ := strings.Cut(strings.TrimSpace(spec), ":")
			e, err := integrate.Lookup(name)
			if err != nil {
				return usagef("%v", err)
			}
			if !e.Adaptive {
				return usagef("method %s has no error control; workprecision needs tolerances", e.Name)
			}
			if _, err := e.NewMethod(integrate.Formulation(form)); err != nil {
				return usagef("%v", err)
			}
			choices = append(choices, choice{e, integrate.Formulation(form)})
		}
	}

	plotFile, plotFormat, err := openPlot("--plot", *plotPath)
	if err != nil {
		return err
	}
	defer plotFile.abort() // after a Commit there is nothing left to remove
	t := output.Table{Header: []string{"method", "tol", "scd", "wall_s", "steps", "rejected", "f_evals", "newton", "jacobians", "LU", "max|g|"}}
	var series []output.Series
	enc := json.NewEncoder(stdout)
	var failures []string
	for _, c := range choices {
		e := c.entry
		label := e.Name
		if c.form != "" {
			label += ":" + string(c.form)
		}
		s := output.Series{Name: label}
		for _, tol := range tolList {
			rep, err := bestOf(*repeat, runSpec{problem: p, entry: e, formulation: c.form, tol: tol})
			if *asJSON {
				if err := enc.Encode(rep); err != nil {
					return err
				}
			}
			scd := math.NaN()
			if err == nil && rep.SCD != nil {
				scd = *rep.SCD
				s.X = append(s.X, rep.WallS)
				s.Y = append(s.Y, scd)
			}
			if err != nil {
				t.Add(label, fmt.Sprintf("%.0e", tol), "failed", "", "", "", "", "", "", "", "")
				failures = append(failures, fmt.Sprintf("%s at tol %.0e: %v", label, tol, err))
				continue
			}
			t.Add(label, fmt.Sprintf("%.0e", tol), fmt.Sprintf("%.2f", scd), fmt.Sprintf("%.3g", rep.WallS),
				rep.Steps, rep.Rejected, rep.FuncEvals, rep.NewtonIters, rep.Jacobians, rep.Factorizations,
				fmt.Sprintf("%.1e", rep.MaxResidualPos))
		}
		series = append(series, s)
	}
	if !*asJSON {
		fmt.Fprintf(stdout, "work-precision: %s (scd over q%s at t=%g)\n\n", p.Name, indexList(p.Ref.SCDIndices), p.Ref.T)
		var err error
		if *markdown {
			err = t.WriteMarkdown(stdout)
		} else {
			err = t.Write(stdout)
		}
		if err != nil {
			return err
		}
		for _, f := range failures {
			fmt.Fprintf(stdout, "failed: %s\n", f)
		}
	}
	if err := writePublished(stdout, p.Name, tolList, *markdown, *asJSON); err != nil {
		return err
	}
	if plotFile != nil {
		series = append(series, publishedSeries(p.Name, tolList)...)
		spec := output.PlotSpec{Title: "work-precision: " + p.Name, XLabel: "time [s]", YLabel: "scd [digits]", LogX: true, Points: true}
		if err := output.WritePlot(plotFile.f, plotFormat, spec, series); err != nil {
			return err
		}
		if _, err := plotFile.finish(nil); err != nil {
			return err
		}
		if !*asJSON {
			fmt.Fprintf(stdout, "\nplot written to %s\n", *plotPath)
		}
	}
	return nil
}

// bestOf runs r n times and keeps the fastest (the work counts are identical).
func bestOf(n int, r runSpec) (solveReport, error) {
	var best solveReport
	for i := range n {
		rep, err := r.do()
		if err != nil {
			return rep, err
		}
		if i == 0 || rep.WallS < best.WallS {
			best = rep
		}
	}
	return best, nil
}

// writePublished prints the test set's published runs of the problem whose rtol lies in the
// range of tols, in the columns of the work-precision table (steps = accepted, rejected =
// attempted − accepted, wall_s = the published CPU time on the test set's machine), with
// the table's own definition of scd; in JSON mode one object {"published": run} per line.
func writePublished(w io.Writer, name string, tols []float64, markdown, asJSON bool) error {
	pub, ok := problems.Published(name)
	if !ok {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, t := range tols {
		lo, hi = math.Min(lo, t), math.Max(hi, t)
	}
	t := output.Table{Header: []string{"solver", "tol", "scd", "cpu_s", "steps", "rejected", "f_evals", "newton", "jacobians", "LU", "mescd"}}
	enc := json.NewEncoder(w)
	n := 0
	for _, r := range pub.Rows {
		if r.RTol < lo*(1-1e-9) || r.RTol > hi*(1+1e-9) {
			continue
		}
		n++
		if asJSON {
			if err := enc.Encode(struct {
				Published problems.PublishedRun `json:"published"`
			}{r}); err != nil {
				return err
			}
			continue
		}
		t.Add(r.Solver, fmt.Sprintf("%.0e", r.RTol), fmt.Sprintf("%.2f", r.SCD), fmt.Sprintf("%.3g", r.CPU),
			r.Accepted, r.Steps-r.Accepted, r.FEvals, "-", r.Jacobians, r.LU, fmt.Sprintf("%.2f", r.MESCD))
	}
	if asJSON || n == 0 {
		return nil
	}
	fmt.Fprintf(w, "\npublished runs (%s; %s)\n%s\n%s\n\n", pub.Table, pub.Machine, pub.Definitions, pub.Note)
	if markdown {
		return t.WriteMarkdown(w)
	}
	return t.Write(w)
}

// publishedSeries returns the test set's published runs of problem name within the
// tolerances run, one series of marks per solver (CPU seconds on the test set's machine
// against scd), or nil when it publishes none.
func publishedSeries(name string, tols []float64) []output.Series {
	pub, ok := problems.Published(name)
	if !ok {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, t := range tols {
		lo, hi = math.Min(lo, t), math.Max(hi, t)
	}
	var out []output.Series
	at := map[string]int{}
	for _, r := range pub.Rows {
		if r.RTol < lo*(1-1e-9) || r.RTol > hi*(1+1e-9) {
			continue
		}
		i, ok := at[r.Solver]
		if !ok {
			i = len(out)
			at[r.Solver] = i
			out = append(out, output.Series{Name: r.Solver + " (published CPU s)", Marks: true})
		}
		out[i].X = append(out[i].X, r.CPU)
		out[i].Y = append(out[i].Y, r.SCD)
	}
	return out
}
