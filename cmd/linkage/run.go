package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"linkage/cputime"
	"linkage/integrate"
	"linkage/modelfile"
	"linkage/output"
)

const runSynopsis = "run MODEL.yaml|FILE.urdf [--method M] [--formulation F] [--method-option NAME=VALUE]... [--tol E] [--t-end T] [--h|--step H] [--max-steps N] [--out results.csv] [--plot plot.png|svg|pdf] [--html view.html [--trail MARKERS]] [--json] [--estimate-error]"

// runFlags are the flags of linkage run.
type runFlags struct {
	method, form, out, plot string
	html, trail             string
	tol, tEnd, h            float64
	maxSteps                int
	asJSON, estimate        bool
	options                 methodOptions
}

func runRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", runSynopsis, stderr)
	f := runFlags{options: methodOptions{}}
	fs.StringVar(&f.method, "method", "", "integrator (see 'linkage methods'; default: the file's simulation.method, else hht)")
	fs.StringVar(&f.form, "formulation", "", "form of the equations (default: the file's, else the method's first)")
	fs.Var(f.options, "method-option", "set a parameter of the method, NAME=VALUE, repeatable, over the file's simulation.method_options:\nhht alpha in [-1/3, 0] (default -0.3), genalpha, genalpha-si2 and daealpha rho_inf in [0, 1] (0.9), ali1 and ali3 penalty in [1e4, 1e12] (1e7),\nradau5 reg_eps in [1e-20, 0.01] (1e-14; the singular mode's regularization)")
	fs.Float64Var(&f.tol, "tol", 0, "relative and absolute tolerance in [1e-14, 0.1] (0: the file's simulation.tol, else 1e-6)")
	fs.Float64Var(&f.tEnd, "t-end", 0, "end time in s (0: the file's simulation.t_end)")
	fs.Float64Var(&f.h, "h", 0, "fixed step size in s, also --step (0: the file's simulation.h, else error-controlled steps); a run whose energy drifts by\nmore than 5 % of the energy exchanged or whose max |g| passes 1e-3 is flagged and exits 1; -h alone is help")
	fs.Float64Var(&f.h, "step", 0, "same as --h")
	fs.IntVar(&f.maxSteps, "max-steps", 0, "stop after this many attempted steps (0: the file's simulation.max_steps, else 1000000)")
	fs.StringVar(&f.out, "out", "", "write the output channels at every output step to this CSV file (Parquet when it ends in .parquet), row by row\nduring the run; it replaces the file only if the run succeeds, else the rows go to NAME.partial.csv (.partial.parquet)")
	fs.StringVar(&f.plot, "plot", "", "plot the channels of simulation.plot to this file (.png, .svg, .pdf, .eps, .jpg, .tif)")
	fs.StringVar(&f.html, "html", "", "write a self-contained page that animates the mechanism (2D or 3D) beside the plot channels;\nframes are the output rows (simulation.output_step), above "+fmt.Sprint(output.MaxViewerFrames)+" every k-th")
	fs.StringVar(&f.trail, "trail", "", "markers whose paths the --html page draws, comma-separated (default: the last marker of the last body; \"none\": no trail)")
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
	begin := time.Now()
	doc, err := loadModel(pos[0], stderr)
	if err != nil {
		return err
	}
	b, err := modelfile.Build(doc)
	if err != nil {
		return err
	}
	build := time.Since(begin) // the setup before the method's: reported in the summary
	if err := f.checkFormulation(&doc.Model); err != nil {
		return err
	}
	if err := f.checkOptions(&doc.Model); err != nil {
		return err
	}
	if f.html != "" {
		if err := doc.CheckTrails(f.trails()); err != nil {
			return usagef("--trail: %v", err)
		}
	}
	files, err := f.open()
	if err != nil {
		return err
	}
	return f.simulate(b, build, files, stdout, stderr)
}

// runFiles are the output files of a run (nil: the flag was not given).
type runFiles struct {
	csv, plot, html *outFile
	plotFormat      string
}

// open checks and opens the output files before the run, so a bad path costs no run.
func (f *runFlags) open() (*runFiles, error) {
	var o runFiles
	var err error
	if o.csv, err = openOut("--out", f.out); err != nil {
		return nil, err
	}
	if o.plot, o.plotFormat, err = openPlot("--plot", f.plot); err != nil {
		o.abort()
		return nil, err
	}
	if o.html, err = openOut("--html", f.html); err != nil {
		o.abort()
		return nil, err
	}
	return &o, nil
}

func (o *runFiles) abort() {
	o.csv.abort()
	o.plot.abort()
	o.html.abort()
}

// trails returns the markers of --trail: nil for the default, none for "none".
func (f *runFlags) trails() []string {
	switch f.trail {
	case "":
		return nil
	case "none":
		return []string{}
	}
	var out []string
	for _, m := range strings.Split(f.trail, ",") {
		out = append(out, strings.TrimSpace(m))
	}
	return out
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

// runMethod is the name of the run's method: --method, else the file's, else the default.
func (f *runFlags) runMethod(m *modelfile.Model) string {
	switch {
	case f.method != "":
		return f.method
	case m.Simulation.Method != "":
		return m.Simulation.Method
	}
	return modelfile.DefaultMethodOf(m)
}

// checkFormulation refuses a --formulation the method of the run (--method, else the
// file's) does not have: a command-line mistake, exit 2.
func (f *runFlags) checkFormulation(m *modelfile.Model) error {
	if f.form == "" {
		return nil
	}
	e, err := integrate.Lookup(f.runMethod(m))
	if err != nil {
		return err // the file's method: reported by validation with its line
	}
	if _, err := e.NewMethod(integrate.Formulation(f.form)); err != nil {
		return usagef("--formulation: %v", err)
	}
	return nil
}

// checkOptions refuses a --method-option the method of the run does not take, or a value
// outside its range: a command-line mistake, exit 2.
func (f *runFlags) checkOptions(m *modelfile.Model) error {
	if len(f.options) == 0 {
		return nil
	}
	e, err := integrate.Lookup(f.runMethod(m))
	if err != nil {
		return err // the file's method: reported by validation with its line
	}
	if err := e.CheckParams(f.options); err != nil {
		return usagef("--method-option: %v", err)
	}
	return nil
}

// simulate runs b, streaming the rows to the CSV, then draws the plot and the viewer and
// prints the summary, whose setup time includes build, the time spent loading and building b.
func (f *runFlags) simulate(b *modelfile.Built, build time.Duration, files *runFiles, stdout, stderr io.Writer) error {
	m := &b.Doc.Model
	opt := modelfile.RunOptions{Method: f.method, Formulation: f.form, MethodOptions: f.options, Tol: f.tol, H: f.h, TEnd: f.tEnd, MaxSteps: f.maxSteps}
	te := f.tEnd
	if te == 0 {
		te = m.Simulation.TEnd
	}
	progress := newProgress(stderr, b.Start.T, te)
	opt.Progress = progress.observer()
	// Rows are streamed (to the CSV, or dropped): only the plot's channels stay in memory.
	opt.Rows = func([]float64) error { return nil }
	var cw rowWriter
	if files.csv != nil {
		var err error
		if cw, err = newRowWriter(files.csv, b.OutputChannels()); err != nil {
			files.abort()
			return err
		}
		opt.Rows = cw.Row
	}
	if files.plot != nil || files.html != nil {
		opt.Keep = b.PlotChannels()
	}
	if files.html != nil { // the viewer places every body at every frame
		opt.Keep = append(opt.Keep, b.Doc.PoseChannels()...)
	}
	if f.estimate { // the estimate compares every output channel with a second run
		opt.Keep = append(opt.Keep, b.OutputChannels()...)
	}
	// The first row is the start, sampled right after the method's Init: the process's CPU
	// time then is the setup's (with the process start).
	var setupCPU time.Duration
	rows := opt.Rows
	opt.Rows = func(r []float64) error {
		if setupCPU == 0 {
			setupCPU = cputime.Process()
		}
		return rows(r)
	}
	cpu := cputime.Process()
	res, runErr := modelfile.Run(b, opt)
	cpu = cputime.Process() - cpu
	progress.clear()
	if res == nil { // refused or failed before the first sample: nothing to keep
		files.abort()
		return runErr
	}
	written, partial, err := f.writeOutputs(res, b.Doc, cw, files, runErr)
	if err != nil {
		return err
	}
	sum := res.Summarize(m, runErr)
	sum.SetBuild(build)
	sum.CPUS, sum.SetupCPUS = cpu.Seconds(), setupCPU.Seconds()
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
			Files   []string `json:"files,omitempty"`
			Partial []string `json:"partial_files,omitempty"`
		}{sum, written, partial}); err != nil {
			return err
		}
	} else {
		sum.WriteText(stdout)
		if len(written) > 0 {
			fmt.Fprintf(stdout, "wrote    %s\n", strings.Join(written, ", "))
		}
		if note := partialNote(partial); note != "" {
			fmt.Fprintf(stdout, "PARTIAL  %s\n", note)
		}
	}
	switch {
	case runErr != nil:
		return fmt.Errorf("%w: %v", errReported, runErr)
	case sum.H > 0 && len(sum.Warnings) > 0:
		return fmt.Errorf("%w: fixed-step run flagged", errReported)
	}
	return estErr
}

// writeOutputs completes the CSV (marking it when the run failed), draws the plot and the
// viewer, then puts them in place; it returns the files written at their paths and the
// partial files a failed run left.
func (f *runFlags) writeOutputs(res *modelfile.Result, doc *modelfile.Document, cw rowWriter, files *runFiles, runErr error) (written, partial []string, err error) {
	if cw != nil {
		if runErr != nil {
			_ = cw.Comment(fmt.Sprintf("run failed at t=%g: %v", res.Solution.Final.T, runErr)) // an error shows again in Flush
		}
		if err := cw.Flush(); err != nil {
			files.abort()
			return nil, nil, fmt.Errorf("--out %s: %w", f.out, err)
		}
	}
	steps := []struct {
		file  *outFile
		write func(io.Writer) error
	}{
		{files.csv, nil},
		{files.plot, func(w io.Writer) error { return res.DrawPlot(w, files.plotFormat, doc) }},
		{files.html, func(w io.Writer) error {
			scene, err := doc.Scene(res.Channel, modelfile.SceneOptions{Trails: f.trails()})
			if err != nil {
				return err
			}
			return output.WriteViewer(w, scene)
		}},
	}
	for _, st := range steps {
		if st.file == nil {
			continue
		}
		if st.write != nil {
			if err := st.write(st.file.f); err != nil {
				files.abort()
				return written, partial, fmt.Errorf("%s %s: %w", st.file.flag, st.file.path, err)
			}
		}
		p, err := st.file.finish(runErr)
		if err != nil {
			files.abort()
			return written, partial, err
		}
		if p != "" {
			partial = append(partial, p)
		} else {
			written = append(written, st.file.path)
		}
	}
	return written, partial, nil
}

// rowWriter streams the output rows of a run to a results file: output.CSVWriter, or
// output.ParquetWriter for a path ending in .parquet.
type rowWriter interface {
	Row(values []float64) error
	Comment(text string) error // the failure of a run, at the end of the file
	Flush() error
}

func newRowWriter(o *outFile, names []string) (rowWriter, error) {
	if strings.EqualFold(filepath.Ext(o.path), ".parquet") {
		return output.NewParquetWriter(o.f, names)
	}
	return output.NewCSVWriter(o.f, names), nil
}
