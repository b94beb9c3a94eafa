package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"linkage/sweep"
)

const sweepSynopsis = `sweep SWEEP.yaml [flags]            run every run of a sweep file on all cores
       linkage sweep SWEEP.yaml --shard i/n [flags] run shard i of n (one Slurm array task or Kubernetes index)
       linkage sweep merge SWEEP.yaml --out DIR      join the parts of a sharded sweep into the results table
       linkage sweep SWEEP.yaml --emit slurm|k8s --shards n [flags]
                                                     print a Slurm job-array script or a Kubernetes Indexed Job

The sweep file (docs/sweep-format.md) names a base model, parameters by their path in it and a
design; the table has a row per run (failed runs with their error) in DIR/results.csv and
DIR/results.parquet. Ctrl-C keeps the finished runs in DIR/parts/; the same command resumes.`

type sweepFlags struct {
	out, shard, emit               string
	workers, shards                int
	image, claim, linkage, dataDir string
	progress                       bool
}

func runSweep(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sweep", sweepSynopsis, stderr)
	var f sweepFlags
	fs.StringVar(&f.out, "out", "", "output directory: parts/, series/, results.csv, results.parquet and the plots (default: SWEEP-results beside the sweep file)")
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "runs at the same time")
	fs.StringVar(&f.shard, "shard", "", "run only shard i of n (runs j with j mod n = i), as 3/10, and write its part to DIR/parts/")
	fs.StringVar(&f.emit, "emit", "", "print a cluster job instead of running: slurm (job-array script) or k8s (Indexed Job manifest)")
	fs.IntVar(&f.shards, "shards", 0, "--emit: number of shards (array tasks, completions)")
	fs.StringVar(&f.image, "image", "", "--emit k8s: container image with linkage on its PATH")
	fs.StringVar(&f.claim, "claim", "", "--emit k8s: PersistentVolumeClaim holding the sweep file, its model and the results")
	fs.StringVar(&f.dataDir, "data-dir", "", "--emit: the jobs' working directory (slurm: default the current directory; k8s: the claim's mount path, default /data)")
	fs.StringVar(&f.linkage, "linkage", "", "--emit slurm: the linkage command the tasks run (default: $LINKAGE at submission, else linkage on the PATH)")
	fs.BoolVar(&f.progress, "progress", true, "show a progress bar with the ETA on stderr (a line per 10 % when stderr is not a terminal)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	merge := len(pos) > 0 && pos[0] == "merge"
	if merge {
		pos = pos[1:]
	}
	if len(pos) != 1 {
		return usagef("want exactly one SWEEP file, got %d; usage: linkage %s", len(pos), sweepSynopsis)
	}
	spec, err := sweep.Load(pos[0])
	if err != nil {
		return err
	}
	if f.out == "" {
		f.out = strings.TrimSuffix(pos[0], filepath.Ext(pos[0])) + "-results"
	}
	switch {
	case merge:
		return sweepMerge(spec, f.out, stdout)
	case f.emit != "":
		return sweepEmit(spec, pos[0], f, stdout)
	}
	if f.workers < 1 {
		return usagef("--workers %d: want at least 1", f.workers)
	}
	sh := sweep.Shard{I: 0, N: 1}
	if f.shard != "" {
		if sh, err = sweep.ParseShard(f.shard); err != nil {
			return usagef("--shard: %v", err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bar := newSweepBar(stderr, f.progress)
	err = spec.Execute(ctx, sweep.Options{Out: f.out, Shard: sh, Workers: f.workers, Progress: bar.show})
	bar.done()
	if err != nil {
		return err
	}
	if f.shard != "" {
		fmt.Fprintf(stdout, "shard %d/%d done: %s\n", sh.I, sh.N, sweep.PartPath(f.out, sh))
		return nil
	}
	return sweepMerge(spec, f.out, stdout)
}

// sweepMerge writes the table of a finished sweep and prints what it wrote.
func sweepMerge(spec *sweep.Spec, out string, stdout io.Writer) error {
	rows, err := spec.Merge(out)
	if err != nil {
		return err
	}
	files, err := spec.WriteTables(out, rows)
	if err != nil {
		return err
	}
	failed := 0
	for _, r := range rows {
		if r.Status != "ok" {
			failed++
		}
	}
	fmt.Fprintf(stdout, "%d runs, %d ok, %d failed (their errors are in the error column)\n", len(rows), len(rows)-failed, failed)
	for _, f := range files {
		fmt.Fprintf(stdout, "wrote %s\n", f)
	}
	return nil
}

func sweepEmit(spec *sweep.Spec, file string, f sweepFlags, stdout io.Writer) error {
	if f.shards < 1 {
		return usagef("--emit needs --shards n (n >= 1), the number of array tasks or completions")
	}
	o := sweep.EmitOptions{SweepFile: file, Out: f.out, Dir: f.dataDir, Shards: f.shards, Workers: f.workers,
		Linkage: f.linkage, Image: f.image, Claim: f.claim}
	switch f.emit {
	case "slurm":
		if o.Dir == "" {
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			o.Dir = wd
		}
		// Slurm opens each task's --output file in DIR before the task starts.
		out := f.out
		if !filepath.IsAbs(out) {
			out = filepath.Join(o.Dir, out)
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		return spec.EmitSlurm(stdout, o)
	case "k8s":
		if o.Image == "" || o.Claim == "" {
			return usagef("--emit k8s needs --image (a container image with linkage on its PATH) and --claim (the PersistentVolumeClaim with the sweep)")
		}
		return spec.EmitK8s(stdout, o)
	}
	return usagef("--emit %q: want slurm or k8s", f.emit)
}

// sweepBar shows the progress of a sweep: redrawn in place on a terminal, else a line per
// tenth of the runs (batch logs).
type sweepBar struct {
	w        io.Writer
	tty, on  bool
	last     time.Time
	lastTen  int
	anything bool
}

func newSweepBar(w io.Writer, on bool) *sweepBar {
	f, ok := w.(*os.File)
	return &sweepBar{w: w, on: on, tty: ok && isTerminal(f), lastTen: -1}
}

func (b *sweepBar) show(p sweep.Progress) {
	if !b.on {
		return
	}
	if b.tty {
		if time.Since(b.last) > 100*time.Millisecond || p.Done == p.Total {
			fmt.Fprintf(b.w, "\r\033[K%s", p.Line(30))
			b.last, b.anything = time.Now(), true
		}
		return
	}
	if ten := 10 * p.Done / max(1, p.Total); ten != b.lastTen {
		fmt.Fprintln(b.w, p.Line(30))
		b.lastTen = ten
	}
}

func (b *sweepBar) done() {
	if b.tty && b.anything {
		fmt.Fprintln(b.w)
	}
}
