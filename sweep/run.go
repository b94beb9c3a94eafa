package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime/debug"
	"strings"

	"linkage/integrate"
	"linkage/modelfile"
	"linkage/output"
)

// Row is one run's line of the results table, in the order of Spec.Columns.
type Row struct {
	Run    int
	Params []Value
	Status string // "ok" or "failed"
	Error  string // why a run failed ("" when it did not)
	Nums   []float64
}

// model returns the model text of run i and the values of its parameters.
func (s *Spec) model(d *design, i int) ([]byte, []Value) {
	vals := d.values(i)
	return s.render(vals), vals
}

// render returns the model text with the parameters' values vals in their places.
func (s *Spec) render(vals []Value) []byte {
	per := make([]Value, len(s.slots))
	for j, k := range s.owner {
		per[j] = vals[k]
	}
	return s.base.render(s.slots, per)
}

// checkValues builds the model with every value each parameter takes in a grid or list
// (the ends of its range in a random design), the others at their first, and refuses the
// sweep, before any run, if the model file refuses one: a value of the wrong kind for its
// place (a method name that does not exist, a negative mass). At most checkedValues values
// per parameter are tried.
func (s *Spec) checkValues(d *design) error {
	first := d.values(0)
	for k, p := range s.Parameters {
		var try []Value
		if len(p.Values) > 0 || p.Count > 0 {
			try = p.points()
		} else {
			try = []Value{{Num: p.Range[0]}, {Num: p.Range[1]}}
		}
		for _, v := range try[:min(len(try), checkedValues)] {
			vals := append([]Value(nil), first...)
			vals[k] = v
			doc, err := modelfile.Parse(s.modelFile(), s.render(vals))
			if err == nil {
				_, err = modelfile.Build(doc)
			}
			if err != nil {
				return fmt.Errorf("%s:%d: parameters[%d]: %s = %s is refused by the model: %w", s.file, s.line(fmt.Sprintf("parameters[%d]", k)), k, p.Path, v, err)
			}
		}
	}
	return nil
}

// checkedValues bounds the values per parameter checkValues builds.
const checkedValues = 64

// runOne simulates run i and summarizes it; a run that fails (in the model file, the
// build or the integration, or by a panic) gives a row with status failed and its error.
// ctx cancels the run between steps; the row is then not complete and ok is false.
func (s *Spec) runOne(ctx context.Context, d *design, i int, seriesDir string) (row Row, ok bool) {
	src, vals := s.model(d, i)
	row = Row{Run: i, Params: vals, Status: "ok", Nums: make([]float64, len(statColumns)-2+s.numOutputs())}
	for k := range row.Nums {
		row.Nums[k] = math.NaN()
	}
	row.Nums[1], row.Nums[2] = 0, 0 // steps, rejected: none until the run starts
	acc := &accumulator{}
	defer func() {
		if p := recover(); p != nil {
			row.Status, row.Error = "failed", oneLine(fmt.Sprintf("panic: %v\n%s", p, debug.Stack()))
			ok = true
		}
	}()
	err := s.simulate(ctx, src, acc, &row, seriesPath(seriesDir, i))
	if ctx.Err() != nil {
		return row, false
	}
	acc.fill(row.Nums[len(statColumns)-2:])
	if err != nil {
		row.Status, row.Error = "failed", oneLine(err.Error())
	}
	return row, true
}

func seriesPath(dir string, i int) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, fmt.Sprintf("run-%06d.csv", i))
}

// simulate builds and runs one model text, streaming its rows to acc (and to a series
// file when path is set), and fills the statistics of row.
func (s *Spec) simulate(ctx context.Context, src []byte, acc *accumulator, row *Row, path string) error {
	doc, err := modelfile.Parse(s.modelFile(), src)
	if err != nil {
		return err
	}
	b, err := modelfile.Build(doc)
	if err != nil {
		return err
	}
	// The run's channels, which a swept parameter may rename ("bar${N}.x").
	channels := doc.Model.OutputChannels()
	if doc.Spatial != nil {
		channels = doc.Spatial.OutputChannels()
	}
	if err := acc.init(s, channels); err != nil {
		return err
	}
	sink := acc.add
	if path != "" {
		f, err := output.Create(path)
		if err != nil {
			return err
		}
		defer f.Abort()
		w := output.NewCSVWriter(f, append([]string{"t"}, channels...))
		sink = func(r []float64) error {
			if err := acc.add(r); err != nil {
				return err
			}
			return w.Row(r)
		}
		defer func() {
			if w.Flush() == nil {
				_ = f.Commit()
			}
		}()
	}
	res, runErr := modelfile.Run(b, modelfile.RunOptions{TEnd: s.TEnd, Rows: sink, Progress: func(*integrate.State) error { return ctx.Err() }})
	if res != nil {
		s.fillStats(row, res)
	}
	return runErr
}

// fillStats writes t_reached, steps, rejected, energy_drift and max_residual.
func (s *Spec) fillStats(row *Row, res *modelfile.Result) {
	n := row.Nums
	if sol := res.Solution; sol != nil {
		n[0] = sol.Final.T
		n[1], n[2] = float64(sol.Stats.Steps), float64(sol.Stats.Rejected)
		n[4] = sol.MaxResidual.Pos
	}
	if res.EnergyScale > 0 {
		n[3] = res.EnergyDrift / res.EnergyScale
	} else {
		n[3] = res.EnergyDrift
	}
}

func (s *Spec) numOutputs() int {
	n := 0
	for _, l := range s.Outputs.lists() {
		n += len(l)
	}
	return n
}

// accumulator keeps the final value, maximum, minimum and largest magnitude of the
// channels the outputs name, from the rows of a run.
type accumulator struct {
	idx  [4][]int // per summary kind: column of each channel in a row (t first)
	last []float64
	max  []float64
	min  []float64
	abs  []float64
	seen bool
}

// init sizes a for the output channels of a run and finds the channels the outputs name;
// a channel the run does not have (renamed by a swept parameter) fails the run.
func (a *accumulator) init(s *Spec, channels []string) error {
	nch := len(channels) + 1
	a.last, a.max, a.min, a.abs = make([]float64, nch), make([]float64, nch), make([]float64, nch), make([]float64, nch)
	for k, list := range s.Outputs.lists() {
		for _, ch := range list {
			c := indexOf(channels, ch)
			if c < 0 {
				return fmt.Errorf("outputs.%s: this run has no output channel %q; its outputs are %s", summaries[k], ch, strings.Join(channels, ", "))
			}
			a.idx[k] = append(a.idx[k], c+1)
		}
	}
	return nil
}

func (a *accumulator) add(row []float64) error {
	for c, v := range row {
		if !a.seen {
			a.max[c], a.min[c], a.abs[c] = v, v, math.Abs(v)
		}
		a.last[c] = v
		a.max[c], a.min[c], a.abs[c] = math.Max(a.max[c], v), math.Min(a.min[c], v), math.Max(a.abs[c], math.Abs(v))
	}
	a.seen = true
	return nil
}

// fill writes the summaries in column order; NaN where the run made no row.
func (a *accumulator) fill(dst []float64) {
	k := 0
	for kind, cols := range a.idx {
		src := [][]float64{a.last, a.max, a.min, a.abs}[kind]
		for _, c := range cols {
			dst[k] = math.NaN()
			if a.seen {
				dst[k] = src[c]
			}
			k++
		}
	}
	for ; k < len(dst); k++ {
		dst[k] = math.NaN() // the run failed before its channels were known
	}
}

// errInterrupted reports a sweep stopped before all its runs were done.
var errInterrupted = errors.New("interrupted")
