package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"

	"linkage/integrate"
	"linkage/modelfile"
)

const runSynopsis = "run MODEL.yaml [--method M] [--formulation F] [--tol E] [--t-end T] [--h H] [--out results.csv] [--plot plot.png|svg] [--json] [--estimate-error]"

func runRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", runSynopsis, stderr)
	method := fs.String("method", "", "integrator (see 'linkage methods'; default: the file's simulation.method, else hht)")
	form := fs.String("formulation", "", "form of the equations (default: the file's, else the method's first)")
	tol := fs.Float64("tol", 0, "relative and absolute tolerance (0: the file's simulation.tol, else 1e-6)")
	tEnd := fs.Float64("t-end", 0, "end time in s (0: the file's simulation.t_end)")
	h := fs.Float64("h", 0, "fixed step size in s (0: the file's simulation.h, else error-controlled steps)")
	out := fs.String("out", "", "write the output channels at every output step to this CSV file")
	plot := fs.String("plot", "", "plot the channels of simulation.plot to this file (.png, .svg or .pdf)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the text summary")
	estimate := fs.Bool("estimate-error", false, "estimate the global error of every output channel by a second run at tol/100 (tol/1000 for first-order methods), or at h/4 for fixed steps")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one MODEL file, got %d; usage: linkage %s", len(pos), runSynopsis)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"--tol", *tol}, {"--t-end", *tEnd}, {"--h", *h}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return usagef("%s = %g; want a finite value >= 0 (0 keeps the file's setting)", f.name, f.v)
		}
	}
	if *method != "" {
		if _, err := integrate.Lookup(*method); err != nil {
			return usagef("%v", err)
		}
	}
	doc, err := modelfile.Load(pos[0])
	if err != nil {
		return err
	}
	b, err := modelfile.Build(doc)
	if err != nil {
		return err
	}
	m := &doc.Model
	opt := modelfile.RunOptions{Method: *method, Formulation: *form, Tol: *tol, H: *h, TEnd: *tEnd}
	te := *tEnd
	if te == 0 {
		te = m.Simulation.TEnd
	}
	if p := newProgress(stderr, b.Start.T, te); p != nil {
		opt.Progress = p
	}
	res, runErr := modelfile.Run(b, opt)
	if res == nil {
		return runErr
	}
	if *out != "" {
		if err := writeFile(*out, res.WriteCSV); err != nil {
			return err
		}
	}
	if *plot != "" {
		if err := res.Plot(*plot, m); err != nil {
			return err
		}
	}
	sum := res.Summarize(m, runErr)
	var estErr error
	if *estimate && runErr == nil {
		sum.ErrorEstimate, estErr = modelfile.EstimateError(b, res)
	}
	if sum.Model == "" {
		sum.Model = doc.File
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			return err
		}
	} else {
		sum.WriteText(stdout)
	}
	if runErr != nil {
		return fmt.Errorf("%w: %v", errReported, runErr)
	}
	return estErr
}

// writeFile creates path and writes it with write; results written before a failure stay
// on disk.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}
