package sweep

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Shard is the part i of n of a sweep: the runs j with j mod n == i. Interleaving spreads
// the expensive corners of a grid over all shards.
type Shard struct{ I, N int }

// ParseShard reads "i/n" (0 <= i < n).
func ParseShard(s string) (Shard, error) {
	var sh Shard
	a, b, ok := strings.Cut(s, "/")
	if _, err := fmt.Sscanf(a+" "+b, "%d %d", &sh.I, &sh.N); !ok || err != nil || sh.N < 1 || sh.I < 0 || sh.I >= sh.N {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 0 <= i < n, as 3/10", s)
	}
	return sh, nil
}

// runs returns the runs of the shard among n runs.
func (sh Shard) runs(n int) []int {
	var out []int
	for j := sh.I; j < n; j += sh.N {
		out = append(out, j)
	}
	return out
}

// PartsDir is the directory of the parts under a sweep's output directory.
const PartsDir = "parts"

// PartPath returns the file of shard sh under out: parts/part-00003-of-00010.csv.
func PartPath(out string, sh Shard) string {
	return filepath.Join(out, PartsDir, fmt.Sprintf("part-%05d-of-%05d.csv", sh.I, sh.N))
}

// Progress is the state of a running sweep, reported after every finished run.
type Progress struct {
	Done, Total, Failed int
	Resumed             int // runs found done in the part file at the start
	Elapsed             time.Duration
}

// Options are the settings of Execute.
type Options struct {
	Out      string // output directory: parts, series, tables and plots go under it
	Shard    Shard  // the part to run [0/1: all runs]
	Workers  int    // concurrent runs [1]
	Progress func(Progress)
}

// Execute runs the runs of one shard on a pool of workers and appends each finished row
// to the shard's part file (PartPath) as it is made. Rows already in the part file are not
// run again: a cancelled or killed sweep resumes where it stopped. Cancelling ctx stops
// the runs in flight (they are not recorded) and returns an error wrapping ctx's; the
// finished rows stay in the part file. Before any run, every value each parameter takes
// is built into the model (checkValues).
func (s *Spec) Execute(ctx context.Context, opt Options) error {
	if opt.Shard.N == 0 {
		opt.Shard = Shard{0, 1}
	}
	d, err := s.design()
	if err != nil {
		return err
	}
	if err := s.checkValues(d); err != nil {
		return err
	}
	path := PartPath(opt.Out, opt.Shard)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	done, err := s.readPart(path, opt.Shard, d.n)
	if err != nil {
		return err
	}
	f, err := s.openPart(path, opt.Shard, d.n, len(done) > 0)
	if err != nil {
		return err
	}
	defer f.Close()
	var todo []int
	for _, j := range opt.Shard.runs(d.n) {
		if _, ok := done[j]; !ok {
			todo = append(todo, j)
		}
	}
	seriesDir := ""
	if s.Series {
		seriesDir = filepath.Join(opt.Out, "series")
		if err := os.MkdirAll(seriesDir, 0o755); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	return s.pool(ctx, d, todo, f, seriesDir, opt, len(done))
}

// pool runs todo on opt.Workers workers; one writer appends the rows to f.
func (s *Spec) pool(ctx context.Context, d *design, todo []int, f *os.File, seriesDir string, opt Options, resumed int) error {
	workers := max(1, opt.Workers)
	jobs := make(chan int)
	rows := make(chan Row)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if row, ok := s.runOne(ctx, d, j, seriesDir); ok {
					rows <- row
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, j := range todo {
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(rows) }()

	cols := s.columns()
	start := time.Now()
	p := Progress{Done: resumed, Total: len(opt.Shard.runs(d.n)), Resumed: resumed}
	var werr error
	for row := range rows {
		if werr == nil {
			_, werr = f.Write(csvLine(s.record(cols, row)))
		}
		p.Done++
		if row.Status != "ok" {
			p.Failed++
		}
		p.Elapsed = time.Since(start)
		if opt.Progress != nil {
			opt.Progress(p)
		}
	}
	if werr != nil {
		return fmt.Errorf("sweep: writing %s: %w", f.Name(), werr)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w after %d of %d runs (kept in %s; run the same command again to resume): %w", errInterrupted, p.Done, p.Total, f.Name(), err)
	}
	return nil
}

// partHeader is the first line of a part file: it ties the rows to one sweep.
func (s *Spec) partHeader(sh Shard, n int) string {
	return fmt.Sprintf("# linkage sweep %s fingerprint=%s shard=%d/%d runs=%d", filepath.Base(s.file), s.Fingerprint(), sh.I, sh.N, n)
}

// openPart opens the part file for appending, writing its two header lines when it is new.
func (s *Spec) openPart(path string, sh Shard, n int, exists bool) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	if !exists {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, fmt.Errorf("sweep: %w", err)
		}
		head := s.partHeader(sh, n) + "\n" + string(csvLine(s.Columns()))
		if _, err := f.WriteString(head); err != nil {
			f.Close()
			return nil, fmt.Errorf("sweep: %w", err)
		}
	}
	return f, nil
}

// readPart returns the rows of the part file at path by run (none when it does not
// exist). A part of another sweep (another fingerprint, shard count or columns) is an
// error; a last line cut short by a kill is dropped (that run is done again).
func (s *Spec) readPart(path string, sh Shard, n int) (map[int]Row, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[int]Row{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		data = data[:i+1]
		if err := os.Truncate(path, int64(i+1)); err != nil {
			return nil, fmt.Errorf("sweep: %w", err)
		}
	}
	rows, err := s.parsePart(path, data, sh, n)
	if err != nil {
		return nil, err
	}
	out := map[int]Row{}
	for _, r := range rows {
		out[r.Run] = r
	}
	return out, nil
}

// parsePart reads the text of a part file of shard sh of a sweep of n runs.
func (s *Spec) parsePart(path string, data []byte, sh Shard, n int) ([]Row, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	want := []string{s.partHeader(sh, n), strings.TrimSuffix(string(csvLine(s.Columns())), "\n")}
	cols := s.columns()
	var rows []Row
	for line := 1; sc.Scan(); line++ {
		if line <= 2 {
			if sc.Text() != want[line-1] {
				return nil, fmt.Errorf("%s:%d: not a part of this sweep: %q; want %q (remove it, or give another --out)", path, line, sc.Text(), want[line-1])
			}
			continue
		}
		recs, err := readCSVLine(sc.Text())
		if err == nil {
			var r Row
			r, err = s.parseRecord(cols, recs)
			if err == nil && (r.Run%sh.N != sh.I || r.Run >= n) {
				err = fmt.Errorf("run %d is not in shard %d/%d of %d runs", r.Run, sh.I, sh.N, n)
			}
			rows = append(rows, r)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

// Merge reads every part of a sweep run as n shards under out and returns the rows of
// all runs in run order: the table a local run gives. Missing parts, parts of another
// sweep, runs missing or given twice are errors that name the file and the runs.
func (s *Spec) Merge(out string) ([]Row, error) {
	d, err := s.design()
	if err != nil {
		return nil, err
	}
	sh, err := s.shardCount(out)
	if err != nil {
		return nil, err
	}
	byRun := make([]*Row, d.n)
	for i := range sh {
		path := PartPath(out, Shard{i, sh})
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("sweep merge: part %d of %d: %w", i, sh, err)
		}
		rows, err := s.parsePart(path, data, Shard{i, sh}, d.n)
		if err != nil {
			return nil, err
		}
		for k := range rows {
			r := &rows[k]
			if byRun[r.Run] != nil {
				return nil, fmt.Errorf("%s: run %d appears twice", path, r.Run)
			}
			byRun[r.Run] = r
		}
	}
	var missing []string
	rows := make([]Row, 0, d.n)
	for j, r := range byRun {
		if r == nil {
			if len(missing) < 10 {
				missing = append(missing, fmt.Sprint(j))
			}
			continue
		}
		rows = append(rows, *r)
	}
	if len(rows) < d.n {
		return nil, fmt.Errorf("sweep merge: %d of %d runs are missing in %s (runs %s…); run their shards again (the part files resume)",
			d.n-len(rows), d.n, filepath.Join(out, PartsDir), strings.Join(missing, ", "))
	}
	sort.Slice(rows, func(a, b int) bool { return rows[a].Run < rows[b].Run })
	return rows, nil
}

// shardCount finds the n of the part files under out (one n only).
func (s *Spec) shardCount(out string) (int, error) {
	files, _ := filepath.Glob(filepath.Join(out, PartsDir, "part-*-of-*.csv"))
	counts := map[int]bool{}
	for _, f := range files {
		var i, n int
		if _, err := fmt.Sscanf(filepath.Base(f), "part-%05d-of-%05d.csv", &i, &n); err == nil {
			counts[n] = true
		}
	}
	if len(counts) != 1 {
		var ns []string
		for n := range counts {
			ns = append(ns, fmt.Sprint(n))
		}
		sort.Strings(ns)
		return 0, fmt.Errorf("sweep merge: want the parts of one shard count in %s; found counts [%s]", filepath.Join(out, PartsDir), strings.Join(ns, ", "))
	}
	for n := range counts {
		return n, nil
	}
	return 0, nil
}

var _ = context.Background
