package sweep

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Limits on a sweep, checked before any run: beyond them a sweep file is almost surely
// mistyped (a count of 1e9 instead of 1e3), and the design alone would fill memory.
const (
	MaxRuns      = 10_000_000 // runs of one sweep
	MaxFileBytes = 1 << 20    // bytes of a sweep file
	MaxPoints    = 1_000_000  // values of one parameter (values or count)
	// MaxParameters bounds the swept parameters: each is built into the model up to 64
	// times before any run, and a Latin hypercube keeps a permutation of its runs for each.
	MaxParameters = 64
)

// Designs are the kinds of design a sweep file may name.
var Designs = []string{"grid", "list", "latin-hypercube", "monte-carlo"}

// Spec is a decoded sweep file (docs/sweep-format.md).
type Spec struct {
	Name       string      `yaml:"name"`
	Model      string      `yaml:"model"`      // the base model file, relative to the sweep file
	Design     string      `yaml:"design"`     // grid [default], list, latin-hypercube, monte-carlo
	Runs       int         `yaml:"runs"`       // runs of a latin-hypercube or monte-carlo design
	Seed       uint64      `yaml:"seed"`       // random designs: the same seed gives the same runs [0]
	Parameters []Parameter `yaml:"parameters"` // at least one
	Outputs    Outputs     `yaml:"outputs"`
	Series     bool        `yaml:"series"` // also write each run's full series (series/run-N.csv)
	Plots      []PlotSpec  `yaml:"plots"`
	TEnd       float64     `yaml:"t_end"` // overrides simulation.t_end of the model (0: the model's)

	file     string // the sweep file as given
	dir      string // its directory: Model is relative to it
	modelSrc []byte // the base model's text
	base     *template
	raw      []byte // the sweep file's text (fingerprint)
	astFile  *ast.File
	slots    []slot   // where each parameter is written in the model (Path, then Also)
	owner    []int    // the parameter of each slot
	channels []string // the model's output channels
}

// Parameter is one swept value of the model, addressed by Path. A grid or list gives its
// Values (numbers or strings), or for numbers a Range with Count points; random designs
// draw from Range. Scale "log" spaces points (or draws) evenly in log10.
type Parameter struct {
	Path   string    `yaml:"path"`
	Also   []string  `yaml:"also"` // further paths that take the same value (both springs of a pair)
	Name   string    `yaml:"name"` // the column name [Path]
	Values []any     `yaml:"values"`
	Range  []float64 `yaml:"range"` // [low, high]
	Count  int       `yaml:"count"` // grid points across Range
	Scale  string    `yaml:"scale"` // linear [default] or log
}

// Outputs are the summaries kept from each run, each a channel of the model's outputs.
// Every row also has the status, the error of a failed run, the steps and rejected steps,
// the relative energy drift and the largest constraint residual.
type Outputs struct {
	Final  []string `yaml:"final"`  // value at t_end (at the failure for a failed run)
	Max    []string `yaml:"max"`    // largest value over the output samples
	Min    []string `yaml:"min"`    // smallest value
	MaxAbs []string `yaml:"maxabs"` // largest |value|
}

// PlotSpec draws output column Y against parameter X, one curve per value of the other
// parameters of a grid (a scatter for random designs), into File (png, svg, pdf).
type PlotSpec struct {
	X    string `yaml:"x"`
	Y    string `yaml:"y"`
	File string `yaml:"file"`
	LogX bool   `yaml:"logx"` // logarithmic x axis [true for a parameter with scale: log]
	LogY bool   `yaml:"logy"` // logarithmic y axis (non-positive values are left out)
}

// Load reads a sweep file and its base model and validates both (see Parse).
func Load(path string) (*Spec, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes; a sweep file names a model and a few parameters", path, MaxFileBytes)
	}
	model, err := readModel(filepath.Dir(path), data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Parse(path, data, model)
}

// readModel reads the file named by the model key of a sweep file's text.
func readModel(dir string, data []byte) ([]byte, error) {
	var s struct {
		Model string `yaml:"model"`
	}
	if err := yaml.Unmarshal(data, &s); err != nil || s.Model == "" {
		return nil, fmt.Errorf("model: want the path of the base model file (relative to the sweep file)")
	}
	p := s.Model
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return os.ReadFile(p)
}

// Parse decodes the sweep file file (text data) whose base model has the text model, and
// refuses, before any run, a sweep that cannot run: unknown keys, a parameter path that
// names no value of the model, a value of the wrong type, a design of zero runs or more
// than MaxRuns, outputs and plots naming unknown channels or columns. Every error names
// the file, line and path.
func Parse(file string, data, model []byte) (*Spec, error) {
	s := &Spec{file: file, dir: filepath.Dir(file), raw: data, modelSrc: model}
	af, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", file, yaml.FormatError(err, false, false))
	}
	s.astFile = af
	if err := decode(data, s); err != nil {
		return nil, fmt.Errorf("%s: %s", file, yaml.FormatError(err, false, false))
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// decode decodes data into s, refusing unknown keys. The YAML decoder panics on some
// malformed input that its parser accepts (found by FuzzParse); that is an error here.
func decode(data []byte, s *Spec) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("not a sweep file the YAML decoder can read (%v); want a mapping with model, parameters and design", p)
		}
	}()
	return yaml.UnmarshalWithOptions(data, s, yaml.Strict())
}

// errorf returns an error naming the file, the line of path in it and path.
func (s *Spec) errorf(path, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s: %s", s.file, s.line(path), path, fmt.Sprintf(format, args...))
}

// line returns the line of the value at path ("parameters[1].path") in the sweep file,
// or of its nearest written parent; 1 when none is found.
func (s *Spec) line(path string) int {
	if s.astFile == nil || len(s.astFile.Docs) == 0 || s.astFile.Docs[0] == nil || s.astFile.Docs[0].Body == nil {
		return 1
	}
	for p := path; p != ""; p = trimLast(p) {
		yp, err := yaml.PathString("$." + p)
		if err != nil {
			continue
		}
		if n, err := yp.FilterFile(s.astFile); err == nil && n != nil && n.GetToken() != nil {
			return n.GetToken().Position.Line
		}
	}
	return 1
}

// trimLast removes the last element of a path: "a[1].b" → "a[1]" → "a".
func trimLast(p string) string {
	if i := strings.LastIndexAny(p, ".["); i > 0 {
		return p[:i]
	}
	return ""
}

func (s *Spec) validate() error {
	if s.Model == "" {
		return s.errorf("model", "no model; want the path of the base model file (relative to the sweep file)")
	}
	if s.Design == "" {
		s.Design = "grid"
	}
	if !contains(Designs, s.Design) {
		return s.errorf("design", "unknown design %q; want one of %s", s.Design, strings.Join(Designs, ", "))
	}
	if len(s.Parameters) == 0 {
		return s.errorf("parameters", "no parameters; want a list of {path, values} or {path, range, count}")
	}
	if len(s.Parameters) > MaxParameters {
		return s.errorf("parameters", "%d parameters, above the limit of %d", len(s.Parameters), MaxParameters)
	}
	if !(s.TEnd >= 0) || math.IsInf(s.TEnd, 0) {
		return s.errorf("t_end", "t_end = %g; want a finite end time (0: the model's)", s.TEnd)
	}
	base, err := parseTemplate(s.modelFile(), s.modelSrc)
	if err != nil {
		return fmt.Errorf("%s: model: %w", s.file, err)
	}
	s.base = base
	names := map[string]bool{}
	for i := range s.Parameters {
		if err := s.checkParameter(i); err != nil {
			return err
		}
		p := &s.Parameters[i]
		if names[p.Name] {
			return s.errorf(fmt.Sprintf("parameters[%d].name", i), "column %q given twice; give one of them a name", p.Name)
		}
		names[p.Name] = true
	}
	if _, err := s.NumRuns(); err != nil {
		return err
	}
	if err := s.checkOutputs(); err != nil {
		return err
	}
	return s.checkPlots()
}

// modelFile is the base model's path as the sweep file names it, joined to its directory.
func (s *Spec) modelFile() string {
	if filepath.IsAbs(s.Model) {
		return s.Model
	}
	return filepath.Join(s.dir, s.Model)
}

// checkParameter resolves parameter i's path in the base model and checks its values
// against the kind of value written there.
func (s *Spec) checkParameter(i int) error {
	p := &s.Parameters[i]
	at := fmt.Sprintf("parameters[%d]", i)
	if p.Path == "" {
		return s.errorf(at, "no path; want the path of a value in the model, as forces.spring1.k")
	}
	if p.Name == "" {
		p.Name = p.Path
	}
	var slots []slot
	for k, path := range append([]string{p.Path}, p.Also...) {
		key := at + ".path"
		if k > 0 {
			key = fmt.Sprintf("%s.also[%d]", at, k-1)
		}
		sl, err := s.base.find(path)
		if err != nil {
			return s.errorf(key, "%v", err)
		}
		for j, other := range s.slots {
			if other.start == sl.start {
				return s.errorf(key, "%s is swept twice (also by parameters[%d])", path, s.owner[j])
			}
		}
		slots = append(slots, sl)
		s.slots, s.owner = append(s.slots, sl), append(s.owner, i)
	}
	slot := slots[0]
	if p.Scale != "" && p.Scale != "linear" && p.Scale != "log" {
		return s.errorf(at+".scale", "unknown scale %q; want linear or log", p.Scale)
	}
	random := s.Design == "latin-hypercube" || s.Design == "monte-carlo"
	switch {
	case len(p.Values) > 0 && len(p.Range) > 0:
		return s.errorf(at, "both values and range; give one")
	case random && len(p.Range) == 0:
		return s.errorf(at, "a %s design draws each parameter from a range: [low, high]; got none", s.Design)
	case len(p.Values) == 0 && len(p.Range) == 0:
		return s.errorf(at, "no values; want values: [...] or range: [low, high] with count")
	case len(p.Values) > MaxPoints:
		return s.errorf(at+".values", "%d values, above the limit of %d", len(p.Values), MaxPoints)
	}
	if len(p.Range) > 0 {
		if err := s.checkRange(at, p, random); err != nil {
			return err
		}
		if !slot.numeric && slot.text != "" {
			return s.errorf(at+".range", "the model's %s is %s, not a number; give its values as a list", p.Path, slot.describe())
		}
	}
	for k, v := range p.Values {
		for _, sl := range slots {
			if err := sl.accepts(v); err != nil {
				return s.errorf(fmt.Sprintf("%s.values[%d]", at, k), "%s: %v", p.Path, err)
			}
		}
	}
	return nil
}

func (s *Spec) checkRange(at string, p *Parameter, random bool) error {
	r := p.Range
	switch {
	case len(r) != 2 || !finite(r[0]) || !finite(r[1]) || !(r[0] <= r[1]):
		return s.errorf(at+".range", "range %v; want [low, high] with finite low <= high", r)
	case p.Scale == "log" && !(r[0] > 0):
		return s.errorf(at+".range", "a log scale needs low > 0; got %g", r[0])
	case !random && p.Count < 1:
		return s.errorf(at+".count", "count = %d; a grid or list over a range wants count >= 1 points", p.Count)
	case p.Count > MaxPoints:
		return s.errorf(at+".count", "count = %d, above the limit of %d", p.Count, MaxPoints)
	case random && p.Count != 0:
		return s.errorf(at+".count", "count is for grid and list designs; a %s design takes runs", s.Design)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Fingerprint identifies the sweep (its file's text and its model's): parts of different
// sweeps are never merged.
func (s *Spec) Fingerprint() string {
	h := fnv64(s.raw)
	h = fnv64mix(h, s.modelSrc)
	return fmt.Sprintf("%016x", h)
}

func fnv64(b []byte) uint64 { return fnv64mix(14695981039346656037, b) }

func fnv64mix(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// File returns the sweep file's path as given to Load or Parse.
func (s *Spec) File() string { return s.file }
