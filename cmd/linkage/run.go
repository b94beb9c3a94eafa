package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"linkage/integrate"
	"linkage/modelfile"
	"linkage/output"
)

const runSynopsis = "run MODEL.yaml [--method M] [--formulation F] [--tol E] [--t-end T] [--h|--step H] [--max-steps N] [--out results.csv] [--plot plot.png|svg|pdf] [--json] [--estimate-error]"

// runFlags are the flags of linkage run.
type runFlags struct {
	method, form, out, plot string
	tol, tEnd, h            float64
	maxSteps                int
	asJSON, estimate        bool
}

func runRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", runSynopsis, stderr)
	var f runFlags
	fs.StringVar(&f.method, "method", "", "integrator (see 'linkage methods'; default: the file's simulation.method, else hht)")
	fs.StringVar(&f.form, "formulation", "", "form of the equations (default: the file's, else the method's first)")
	fs.Float64Var(&f.tol, "tol", 0, "relative and absolute tolerance in [1e-14, 0.1] (0: the file's simulation.tol, else 1e-6)")
	fs.Float64Var(&f.tEnd, "t-end", 0, "end time in s (0: the file's simulation.t_end)")
	fs.Float64Var(&f.h, "h", 0, "fixed step size in s, also --step (0: the file's simulation.h, else error-controlled steps); a run whose energy drifts by\nmore than 5 % of the energy exchanged or whose max |g| passes 1e-3 is flagged and exits 1; -h alone is help")
	fs.Float64Var(&f.h, "step", 0, "same as --h")
	fs.IntVar(&f.maxSteps, "max-steps", 0, "stop after this many attempted steps (0: the file's simulation.max_steps, else 1000000)")
	fs.StringVar(&f.out, "out", "", "write the output channels at every output step to this CSV file, row by row during the run;\nit replaces the file only if the run succeeds, else the rows go to NAME.partial.csv")
	fs.StringVar(&f.plot, "plot", "", "plot the channels of simulation.plot to this file (.png, .svg, .pdf, .eps, .jpg, .tif)")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object instead of the text summary")
	fs.BoolVar(&f.estimate, "estimate-error", false, "estimate the global error of every output channel by a second run at tol/100 (tol/1000 for first-order methods), or at h/4 for fixed steps")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one MODEL file, got %d; usage: linkage %s", len(pos), runSynopsis)
	}
	if err := f.check(); err != nil {
		return err
	}
	doc, err := modelfile.Load(pos[0])
	if err != nil {
		return err
	}
	b, err := modelfile.Build(doc)
	if err != nil {
		return err
	}
	if err := f.checkFormulation(&doc.Model); err != nil {
		return err
	}
	csv, err := openOut("--out", f.out)
	if err != nil {
		return err
	}
	plot, format, err := openPlot("--plot", f.plot)
	if err != nil {
		csv.abort()
		return err
	}
	return f.simulate(b, csv, plot, format, stdout, stderr)
}

// check refuses bad flag values before the model is read.
func (f *runFlags) check() error {
	for _, v := range []struct {
		name string
		v    float64
	}{{"--t-end", f.tEnd}, {"--h", f.h}} {
		if v.v < 0 || math.IsNaN(v.v) || math.IsInf(v.v, 0) {
			return usagef("%s = %g; want a finite value >= 0 (0 keeps the file's setting)", v.name, v.v)
		}
	}
	if f.tol != 0 {
		if why := modelfile.TolProblem(f.tol); why != "" {
			return usagef("--tol = %g %s", f.tol, why)
		}
	}
	if f.maxSteps < 0 {
		return usagef("--max-steps = %d; want a positive number of steps (0 keeps the file's setting)", f.maxSteps)
	}
	if f.method != "" {
		if _, err := integrate.Lookup(f.method); err != nil {
			return usagef("%v", err)
		}
	}
	return nil
}

// checkFormulation refuses a --formulation the method of the run (--method, else the
// file's) does not have: a command-line mistake, exit 2.
func (f *runFlags) checkFormulation(m *modelfile.Model) error {
	if f.form == "" {
		return nil
	}
	name := f.method
	if name == "" {
		name = m.Simulation.Method
	}
	if name == "" {
		name = modelfile.DefaultMethod
	}
	e, err := integrate.Lookup(name)
	if err != nil {
		return err // the file's method: reported by validation with its line
	}
	if _, err := e.NewMethod(integrate.Formulation(f.form)); err != nil {
		return usagef("--formulation: %v", err)
	}
	return nil
}

// simulate runs b, streaming the rows to csv, then draws the plot and prints the summary.
func (f *runFlags) simulate(b *modelfile.Built, csv, plot *outFile, format string, stdout, stderr io.Writer) error {
	m := &b.Doc.Model
	opt := modelfile.RunOptions{Method: f.method, Formulation: f.form, Tol: f.tol, H: f.h, TEnd: f.tEnd, MaxSteps: f.maxSteps}
	te := f.tEnd
	if te == 0 {
		te = m.Simulation.TEnd
	}
	progress := newProgress(stderr, b.Start.T, te)
	opt.Progress = progress.observer()
	// Rows are streamed (to the CSV, or dropped): only the plot's channels stay in memory.
	opt.Rows = func([]float64) error { return nil }
	var cw *output.CSVWriter
	if csv != nil {
		cw = output.NewCSVWriter(csv.f, b.OutputChannels())
		opt.Rows = cw.Row
	}
	if plot != nil {
		opt.Keep = b.PlotChannels()
	}
	if f.estimate { // the estimate compares every output channel with a second run
		opt.Keep = append(opt.Keep, b.OutputChannels()...)
	}
	res, runErr := modelfile.Run(b, opt)
	progress.clear()
	if res == nil { // refused or failed before the first sample: nothing to keep
		csv.abort()
		plot.abort()
		return runErr
	}
	partial, err := f.writeOutputs(res, m, cw, csv, plot, format, runErr)
	if err != nil {
		return err
	}
	sum := res.Summarize(m, runErr)
	var estErr error
	if f.estimate && runErr == nil {
		sum.ErrorEstimate, estErr = modelfile.EstimateError(b, res)
	}
	if sum.Model == "" {
		sum.Model = b.Doc.File
	}
	if f.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			modelfile.Summary
			Partial []string `json:"partial_files,omitempty"`
		}{sum, partial}); err != nil {
			return err
		}
	} else {
		sum.WriteText(stdout)
		if note := partialNote(partial); note != "" {
			fmt.Fprintf(stdout, "PARTIAL  %s\n", note)
		}
	}
	switch {
	case runErr != nil:
		return fmt.Errorf("%w: %v", errReported, runErr)
	case len(sum.Warnings) > 0:
		return fmt.Errorf("%w: fixed-step run flagged", errReported)
	}
	return estErr
}

// writeOutputs completes the CSV (marking it when the run failed) and draws the plot, then
// puts both in place; it returns the partial files a failed run left.
func (f *runFlags) writeOutputs(res *modelfile.Result, m *modelfile.Model, cw *output.CSVWriter, csv, plot *outFile, format string, runErr error) ([]string, error) {
	var partial []string
	if csv != nil {
		if runErr != nil {
			cw.Comment(fmt.Sprintf("run failed at t=%g: %v", res.Solution.Final.T, runErr))
		}
		if err := cw.Flush(); err != nil {
			csv.abort()
			plot.abort()
			return nil, fmt.Errorf("--out %s: %w", f.out, err)
		}
		p, err := csv.finish(runErr)
		if err != nil {
			plot.abort()
			return nil, err
		}
		if p != "" {
			partial = append(partial, p)
		}
	}
	if plot != nil {
		if err := res.DrawPlot(plot.f, format, m); err != nil {
			plot.abort()
			return partial, err
		}
		p, err := plot.finish(runErr)
		if err != nil {
			return partial, err
		}
		if p != "" {
			partial = append(partial, p)
		}
	}
	return partial, nil
}
