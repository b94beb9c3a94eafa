package sweep

import (
	"fmt"
	"strings"

	"linkage/modelfile"
)

// Column kinds of the results table (Parquet types: INT64, DOUBLE, STRING).
const (
	kindInt = iota
	kindFloat
	kindString
)

// column is one column of the results table.
type column struct {
	name string
	kind int
}

// Fixed columns of every row, after run and the parameters: the status ("ok" or
// "failed"), the error of a failed run, the time reached, the work, the relative energy
// drift (EnergyDrift / EnergyScale of modelfile.Result) and the largest constraint
// residual |g|.
var statColumns = []column{
	{"status", kindString}, {"error", kindString}, {"t_reached", kindFloat},
	{"steps", kindInt}, {"rejected", kindInt}, {"energy_drift", kindFloat}, {"max_residual", kindFloat},
}

// summaries are the kinds of Outputs, in column order: final(ch), max(ch), min(ch), maxabs(ch).
var summaries = []string{"final", "max", "min", "maxabs"}

func (o *Outputs) lists() [][]string { return [][]string{o.Final, o.Max, o.Min, o.MaxAbs} }

// outputColumn names the column of summary kind of channel ch: "max(bar2.omega)".
func outputColumn(kind, ch string) string { return kind + "(" + ch + ")" }

// columns returns the columns of the results table.
func (s *Spec) columns() []column {
	cols := []column{{"run", kindInt}}
	for _, p := range s.Parameters {
		kind := kindFloat
		for _, v := range p.Values {
			if _, ok := v.(string); ok {
				kind = kindString
			}
		}
		cols = append(cols, column{p.Name, kind})
	}
	cols = append(cols, statColumns...)
	for k, list := range s.Outputs.lists() {
		for _, ch := range list {
			cols = append(cols, column{outputColumn(summaries[k], ch), kindFloat})
		}
	}
	return cols
}

// Columns returns the names of the results table's columns.
func (s *Spec) Columns() []string {
	var out []string
	for _, c := range s.columns() {
		out = append(out, c.name)
	}
	return out
}

// checkOutputs refuses outputs that name no output channel of the model.
func (s *Spec) checkOutputs() error {
	doc, err := modelfile.Parse(s.modelFile(), s.modelSrc)
	if err != nil {
		return err
	}
	s.channels = doc.Model.OutputChannels()
	if doc.Spatial != nil {
		s.channels = doc.Spatial.OutputChannels()
	}
	for k, list := range s.Outputs.lists() {
		for i, ch := range list {
			if !contains(s.channels, ch) {
				return s.errorf(fmt.Sprintf("outputs.%s[%d]", summaries[k], i), "%q is not an output channel of model %s; its outputs (simulation.outputs) are %s",
					ch, s.modelFile(), strings.Join(s.channels, ", "))
			}
		}
	}
	return nil
}

// checkPlots refuses plots whose x is not a parameter or whose y is not a column.
func (s *Spec) checkPlots() error {
	names := s.Columns()
	for i := range s.Plots {
		p := &s.Plots[i]
		at := fmt.Sprintf("plots[%d]", i)
		if !s.isParameter(p.X) {
			return s.errorf(at+".x", "%q is not a parameter; want one of %s", p.X, strings.Join(s.parameterNames(), ", "))
		}
		if !contains(names, p.Y) || p.Y == "run" || p.Y == "status" || p.Y == "error" || s.isParameter(p.Y) {
			return s.errorf(at+".y", "%q is not a numeric output column; want one of %s", p.Y, strings.Join(names[1+len(s.Parameters)+2:], ", "))
		}
		if p.File == "" {
			p.File = fmt.Sprintf("plot-%d.png", i+1)
		}
	}
	return nil
}

func (s *Spec) isParameter(name string) bool { return contains(s.parameterNames(), name) }

func (s *Spec) parameterNames() []string {
	var out []string
	for _, p := range s.Parameters {
		out = append(out, p.Name)
	}
	return out
}
