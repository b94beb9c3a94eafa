package sweep

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"linkage/output"
)

// Table file names under a sweep's output directory.
const (
	TableCSV     = "results.csv"
	TableParquet = "results.parquet"
)

// WriteTables writes the results table (rows in run order) as TableCSV and TableParquet
// under out, and the plots of the sweep file there; it returns the files written.
func (s *Spec) WriteTables(out string, rows []Row) ([]string, error) {
	var written []string
	for _, t := range []struct {
		name  string
		write func(f *output.File) error
	}{
		{TableCSV, func(f *output.File) error { return s.WriteCSV(f, rows) }},
		{TableParquet, func(f *output.File) error { return s.WriteParquet(f, rows) }},
	} {
		path := filepath.Join(out, t.name)
		f, err := output.Create(path)
		if err != nil {
			return written, err
		}
		if err := t.write(f); err != nil {
			f.Abort()
			return written, err
		}
		if err := f.Commit(); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	for _, p := range s.Plots {
		path := filepath.Join(out, p.File)
		if err := s.plot(path, p, rows); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, nil
}

// maxCurves bounds the curves of a plot: past it the runs are drawn as one set of points.
const maxCurves = 12

// plot draws column p.Y against parameter p.X: one curve per combination of the other
// parameters (runs in order of x), or the points alone for random designs or past
// maxCurves curves. Failed runs are left out (their outputs stop at the failure).
func (s *Spec) plot(path string, p PlotSpec, rows []Row) error {
	names := s.Columns()
	xi := indexOf(s.parameterNames(), p.X)
	yi := indexOf(names, p.Y) - 1 - len(s.Parameters) - 2 // index into Row.Nums
	curves := map[string]*output.Series{}
	var order []string
	for _, r := range rows {
		if r.Status != "ok" || r.Params[xi].IsString {
			continue
		}
		key := s.otherValues(r, xi)
		c, ok := curves[key]
		if !ok {
			c = &output.Series{Name: key}
			curves[key] = c
			order = append(order, key)
		}
		c.X, c.Y = append(c.X, r.Params[xi].Num), append(c.Y, r.Nums[yi])
	}
	random := s.Design == "latin-hypercube" || s.Design == "monte-carlo"
	var series []output.Series
	if random || len(order) > maxCurves {
		all := output.Series{Name: p.Y, Marks: true}
		for _, k := range order {
			all.X, all.Y = append(all.X, curves[k].X...), append(all.Y, curves[k].Y...)
		}
		series = []output.Series{all}
	} else {
		for _, k := range order {
			c := curves[k]
			sortXY(c)
			series = append(series, *c)
		}
	}
	logX := p.LogX || s.Parameters[xi].Scale == "log"
	spec := output.PlotSpec{Title: fmt.Sprintf("%s: %s against %s", s.Name, p.Y, p.X), XLabel: p.X, YLabel: p.Y, LogX: logX, LogY: p.LogY, Points: true}
	return output.Plot(path, spec, series)
}

// otherValues names a run's curve by its parameters other than x: "c=2, h=0.001".
func (s *Spec) otherValues(r Row, xi int) string {
	var parts []string
	for k, v := range r.Params {
		if k != xi {
			parts = append(parts, s.Parameters[k].Name+"="+v.String())
		}
	}
	if len(parts) == 0 {
		return "runs"
	}
	return strings.Join(parts, ", ")
}

func sortXY(c *output.Series) {
	idx := make([]int, len(c.X))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return c.X[idx[a]] < c.X[idx[b]] })
	x, y := make([]float64, len(idx)), make([]float64, len(idx))
	for i, k := range idx {
		x[i], y[i] = c.X[k], c.Y[k]
	}
	c.X, c.Y = x, y
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}
