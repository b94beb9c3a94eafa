package modelfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// Error is one problem in a model file: the file, the line and column (1-based; 0 when
// the problem has no place, such as an empty file), the path inside the document
// ("bodies[1].mass") and what was expected. In a copy made by a repeat block, Line is the
// template's and Repeat names the copy by its repeat variables ("i=37", or "i=2, j=5" in
// nested repeats).
type Error struct {
	File         string
	Line, Column int
	Path         string
	Repeat       string
	Msg          string
}

// Error formats e as "file:line:column: path: message", or in a repeated copy as
// "file:line:column: path: in repeat i=37: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Repeat != "" {
		b.WriteString("in repeat ")
		b.WriteString(e.Repeat)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is every problem found in a model file, in document order; its Error joins
// them one per line.
type ErrorList []*Error

// Error returns the errors one per line.
func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// maxErrors bounds the problems reported for one file: past it the rest are noise.
const maxErrors = 20

// Document is a decoded model file: its name, the model and where each value was written.
type Document struct {
	File  string
	Model Model
	// Spatial is the model of a file with "dimension: 3" (nil otherwise). Model then holds
	// only the sections both formats share (name, description, initial.time, simulation),
	// so that Run and the command line read them in one place.
	Spatial *SpatialModel
	pos     map[string]token.Position // path → position of the value
	// copies names the repeat copy ("i=37") of each path a repeat block made, so that
	// errors found after Parse (Build, Run) name the copy as the decoder's errors do.
	copies map[string]string
}

// Load reads and parses the model file at path (see Parse). It reads at most one byte past
// MaxFileBytes, so that a huge file is refused without being read whole.
func Load(path string) (*Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("modelfile: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("modelfile: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes a model file in YAML or JSON (JSON is read as YAML flow style, so one
// decoder serves both) and validates it. file names it in errors. A leading UTF-8 byte order
// mark is ignored; a file beyond MaxFileBytes, MaxNesting or MaxMappingKeys is refused
// before it is parsed. Problems are returned as
// an ErrorList, each naming the line, column and path and what was expected: syntax,
// unknown or duplicate keys, wrong types, missing fields, NaN or infinite numbers, unknown
// or duplicate names, joints connecting a body to itself, non-positive masses.
func Parse(file string, data []byte) (*Document, error) {
	d := &decoder{doc: &Document{File: file, pos: map[string]token.Position{}},
		origin: map[ast.Node]string{}, repeatAt: map[string]string{}}
	// A UTF-8 byte order mark is an encoding signature some editors write, not content.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if err := checkStructure(file, data); err != nil {
		return nil, ErrorList{err}
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, ErrorList{syntaxError(file, err)}
	}
	var body ast.Node
	switch {
	case len(f.Docs) > 1:
		var tk *token.Token // where the second document's content starts, else its "---"
		if doc := f.Docs[1]; doc != nil && doc.Body != nil {
			tk = doc.Body.GetToken()
		} else if doc != nil {
			tk = doc.Start // nil for an empty document ("0\n---"): the error then has no line
		}
		return nil, ErrorList{d.at(tk, "", "more than one YAML document in the file; want one model")}
	case len(f.Docs) == 1:
		body = f.Docs[0].Body
	}
	if body == nil {
		return nil, ErrorList{{File: file, Msg: "empty document; want a mapping with at least \"bodies\" (see docs/model-format.md)"}}
	}
	// Parameters, repeat blocks and ${...} are expanded before anything is decoded, so
	// that decoding and validation see the model written out in full (repeat.go).
	if body = d.expand(body); len(d.errs) > 0 {
		return nil, d.errs
	}
	// Decoding records the position of every value, about half the tree's nodes (the rest
	// are keys and mapping entries): a map sized for them is not rehashed on the way.
	var nodes nodeCount
	ast.Walk(&nodes, body)
	d.doc.pos = make(map[string]token.Position, int(nodes)/2)
	if isSpatial(body) {
		sm := &SpatialModel{}
		d.doc.Spatial = sm
		d.decode(body, "", reflect.ValueOf(sm).Elem())
		d.doc.Model = Model{Name: sm.Name, Description: sm.Description, Dimension: sm.Dimension,
			Parameters: sm.Parameters, Initial: Initial{Time: sm.Initial.Time}, Simulation: sm.Simulation, Rotations: sm.Rotations}
		if len(d.errs) == 0 {
			validate3(d)
		}
	} else {
		d.decode(body, "", reflect.ValueOf(&d.doc.Model).Elem())
		if len(d.errs) == 0 {
			validate(d)
		}
	}
	d.doc.copies = d.repeatAt
	if len(d.errs) > 0 {
		for _, e := range d.errs {
			e.Repeat = d.doc.copyOf(e.Path)
		}
		return nil, d.errs
	}
	return d.doc, nil
}

// copyOf names the repeat copy that path lies in ("i=37"; "" outside repeat blocks): the
// innermost enclosing path that the decoder found made by a repeat block.
func (doc *Document) copyOf(path string) string {
	for p := path; p != ""; p = parentPath(p) {
		if r := doc.copies[p]; r != "" {
			return r
		}
	}
	return ""
}

// errorAt returns an error at path found after Parse (by Build or Run), with the line and
// column where the value was written and, inside a repeated copy, the copy.
func (doc *Document) errorAt(path, msg string) *Error {
	l, c := doc.Line(path)
	return &Error{File: doc.File, Line: l, Column: c, Path: path, Repeat: doc.copyOf(path), Msg: msg}
}

func syntaxError(file string, err error) *Error {
	e := &Error{File: file, Msg: "YAML/JSON syntax: " + err.Error()}
	var te interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if errors.As(err, &te) {
		e.Msg = "YAML/JSON syntax: " + te.GetMessage()
		if tk := te.GetToken(); tk != nil && tk.Position != nil {
			e.Line, e.Column = tk.Position.Line, tk.Position.Column
		}
	}
	return e
}

// decoder turns the YAML syntax tree into the document types, recording positions.
type decoder struct {
	doc  *Document
	errs ErrorList
	// origin names the repeat variables of each node that a repeat block made ("i=37");
	// repeatAt the same by the path where the node was decoded.
	origin   map[ast.Node]string
	repeatAt map[string]string
}

func (d *decoder) at(tk *token.Token, path, format string, args ...any) *Error {
	e := &Error{File: d.doc.File, Path: path, Msg: fmt.Sprintf(format, args...)}
	if tk != nil && tk.Position != nil {
		e.Line, e.Column = tk.Position.Line, tk.Position.Column
	}
	return e
}

// errorf records a problem at the value of path (or, when path was not written, at the
// nearest enclosing value that was).
func (d *decoder) errorf(path, format string, args ...any) {
	if len(d.errs) >= maxErrors {
		return
	}
	e := &Error{File: d.doc.File, Path: path, Msg: fmt.Sprintf(format, args...)}
	for p := path; ; p = parentPath(p) {
		if pos, ok := d.doc.pos[p]; ok {
			e.Line, e.Column = pos.Line, pos.Column
			break
		}
		if p == "" {
			break
		}
	}
	d.errs = append(d.errs, e)
}

func (d *decoder) nodeErrorf(n ast.Node, path, format string, args ...any) {
	if len(d.errs) >= maxErrors {
		return
	}
	d.errs = append(d.errs, d.at(n.GetToken(), path, format, args...))
}

// parentPath strips the last element of a path: "a.b[2]" → "a.b", "a.b" → "a".
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// nodeCount counts the nodes of a YAML tree (an ast.Visitor).
type nodeCount int

func (c *nodeCount) Visit(ast.Node) ast.Visitor {
	*c++
	return c
}

// indexPath is the path of element i of the list at path, "path[i]" (as fmt would write
// it, without fmt's cost: a 1000-body file has some 10⁵ paths).
func indexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// has reports whether path was written in the file.
func (doc *Document) has(path string) bool {
	_, ok := doc.pos[path]
	return ok
}

// Line returns the line and column where the value at path was written (0, 0 if it was
// not), e.g. Line("joints[2].i").
func (doc *Document) Line(path string) (line, column int) {
	p, ok := doc.pos[path]
	if !ok {
		return 0, 0
	}
	return p.Line, p.Column
}

// unwrap removes anchors and tags (whose values are used as written) and rejects aliases.
func (d *decoder) unwrap(n ast.Node, path string) ast.Node {
	for range 64 {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		case *ast.AliasNode:
			d.nodeErrorf(n, path, "YAML aliases (*name) are not supported; write the value out")
			return nil
		default:
			return n
		}
		if n == nil {
			return nil
		}
	}
	return n
}

// describe names the type of a YAML value for error messages.
func describe(n ast.Node) string {
	switch x := n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.StringNode:
		return "the string " + strconv.Quote(x.Value)
	case *ast.LiteralNode:
		return "a block string"
	case *ast.IntegerNode, *ast.FloatNode:
		return "the number " + x.GetToken().Value
	case *ast.BoolNode:
		return "the boolean " + x.GetToken().Value
	case *ast.NullNode:
		return "null"
	case *ast.NanNode:
		return "NaN"
	case *ast.InfinityNode:
		return "an infinite number"
	}
	return "a " + n.Type().String()
}

// decimalNumber is a decimal number with an optional sign, fraction and exponent: the
// numbers of YAML 1.2's core schema and of JSON, which the YAML parser (YAML 1.1 rules)
// leaves as strings when they have no dot ("1e-4") or do not fit a float64 ("1e400").
var decimalNumber = regexp.MustCompile(`^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// plainNumber reports whether n is an unquoted scalar that reads as a decimal number, and
// returns its text.
func plainNumber(n ast.Node) (string, bool) {
	s, ok := n.(*ast.StringNode)
	if !ok || s.GetToken() == nil || s.GetToken().Type != token.StringType || !decimalNumber.MatchString(s.Value) {
		return "", false
	}
	return s.Value, true
}

// number decodes a finite number.
func (d *decoder) number(n ast.Node, path, want string) (float64, bool) {
	switch x := n.(type) {
	case *ast.IntegerNode:
		text := x.GetToken().Value
		if x.GetToken().Type == token.OctetIntegerType && !strings.Contains(text, "o") {
			// YAML 1.2: a leading zero does not make an octal number ("017" is 17).
			f, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
			if err == nil {
				return f, true
			}
		}
		switch v := x.Value.(type) {
		case int64:
			return float64(v), true
		case uint64:
			return float64(v), true
		}
		f, err := strconv.ParseFloat(text, 64)
		if err == nil {
			return f, true
		}
	case *ast.FloatNode:
		if !math.IsNaN(x.Value) && !math.IsInf(x.Value, 0) {
			return x.Value, true
		}
		d.nodeErrorf(n, path, "want %s, got the non-finite %s", want, x.GetToken().Value)
		return 0, false
	case *ast.NanNode, *ast.InfinityNode:
		d.nodeErrorf(n, path, "want %s, got %s", want, describe(n))
		return 0, false
	case *ast.StringNode:
		if text, ok := plainNumber(n); ok {
			f, err := strconv.ParseFloat(text, 64)
			if err == nil {
				return f, true
			}
			if len(text) > 24 { // a number of hundreds of digits
				text = fmt.Sprintf("%s…%s (%d characters)", text[:12], text[len(text)-6:], len(text))
			}
			d.nodeErrorf(n, path, "the number %s is out of the range of double precision (magnitude below 1.8e308)", text)
			return 0, false
		}
	}
	d.nodeErrorf(n, path, "want %s, got %s", want, describe(n))
	return 0, false
}

// maxInteger is the largest integer a float64 holds exactly (2⁵³); an integer key is read
// as a number first, so that 1e6 is an integer too.
const maxInteger = 1 << 53

// integer decodes a whole number of at most maxInteger in magnitude into v.
func (d *decoder) integer(n ast.Node, path string, v reflect.Value) {
	f, ok := d.number(n, path, "an integer")
	if !ok {
		return
	}
	if f != math.Trunc(f) || math.Abs(f) > maxInteger {
		d.nodeErrorf(n, path, "want an integer, got the number %s", n.GetToken().Value)
		return
	}
	v.SetInt(int64(f))
}

// mapping returns the key/value pairs of a mapping, reporting duplicate and non-string keys.
func (d *decoder) mapping(n ast.Node, path string) ([]string, []ast.Node, []*token.Token, bool) {
	var pairs []*ast.MappingValueNode
	switch x := n.(type) {
	case *ast.MappingNode:
		pairs = x.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{x}
	default:
		return nil, nil, nil, false
	}
	keys := make([]string, 0, len(pairs))
	vals := make([]ast.Node, 0, len(pairs))
	toks := make([]*token.Token, 0, len(pairs))
	seen := make(map[string]bool, len(pairs)) // a flow mapping may have many keys
	for _, p := range pairs {
		var key string
		switch k := p.Key.(type) {
		case *ast.StringNode:
			key = k.Value
		case *ast.MappingKeyNode:
			d.nodeErrorf(p.Key, path, "complex mapping keys (?) are not supported")
			continue
		default:
			if p.Key == nil {
				continue
			}
			key = p.Key.GetToken().Value
		}
		if seen[key] {
			d.nodeErrorf(p.Key, joinPath(path, key), "duplicate key %q", key)
			continue
		}
		seen[key] = true
		keys = append(keys, key)
		vals = append(vals, p.Value)
		toks = append(toks, p.Key.GetToken())
	}
	return keys, vals, toks, true
}

// decode fills v from n; path is n's place in the document.
func (d *decoder) decode(n ast.Node, path string, v reflect.Value) {
	if len(d.errs) >= maxErrors {
		return
	}
	if n != nil {
		if r, ok := d.origin[n]; ok {
			d.repeatAt[path] = r
		}
		n = d.unwrap(n, path)
		if n == nil {
			return
		}
		if tk := n.GetToken(); tk != nil && tk.Position != nil {
			d.doc.pos[path] = *tk.Position
		}
	}
	switch p := v.Addr().Interface().(type) {
	case *Func:
		d.decodeFunc(n, path, p)
		return
	case *Profile:
		d.decodeProfile(n, path, p)
		return
	case *Angle:
		d.decodeAngle(n, path, p)
		return
	case *Vec:
		d.decodeArray(n, path, p[:], "a list of two numbers [x, y]")
		return
	case *[2]float64:
		d.decodeArray(n, path, p[:], "a list of two numbers")
		return
	case *Vec3:
		d.decodeArray(n, path, p[:], "a list of three numbers [x, y, z]")
		return
	case *Quat:
		d.decodeArray(n, path, p[:], "a list of four numbers [p0, p1, p2, p3]")
		return
	}
	if n == nil {
		d.errorf(path, "missing value; want %s", wantOf(v.Type()))
		return
	}
	if _, null := n.(*ast.NullNode); null && v.Kind() != reflect.Pointer {
		d.nodeErrorf(n, path, "want %s, got null", wantOf(v.Type()))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		d.decodeStruct(n, path, v)
	case reflect.Pointer:
		if _, null := n.(*ast.NullNode); null {
			d.nodeErrorf(n, path, "want %s, got null", wantOf(v.Type().Elem()))
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		d.decode(n, path, v.Elem())
	case reflect.Slice:
		seq, ok := n.(*ast.SequenceNode)
		if !ok {
			d.nodeErrorf(n, path, "want %s, got %s", wantOf(v.Type()), describe(n))
			return
		}
		s := reflect.MakeSlice(v.Type(), len(seq.Values), len(seq.Values))
		for i, e := range seq.Values {
			d.decode(e, indexPath(path, i), s.Index(i))
		}
		v.Set(s)
	case reflect.Map:
		if seq, ok := n.(*ast.SequenceNode); ok {
			d.decodeMapList(seq, path, v)
			return
		}
		keys, vals, _, ok := d.mapping(n, path)
		if !ok {
			d.nodeErrorf(n, path, "want %s, got %s", wantOf(v.Type()), describe(n))
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), len(keys))
		for i, k := range keys {
			e := reflect.New(v.Type().Elem()).Elem()
			d.decode(vals[i], joinPath(path, k), e)
			m.SetMapIndex(reflect.ValueOf(k), e)
		}
		v.Set(m)
	case reflect.Float64:
		if f, ok := d.number(n, path, "a number"); ok {
			v.SetFloat(f)
		}
	case reflect.Int:
		d.integer(n, path, v)
	case reflect.String:
		s, ok := n.(*ast.StringNode)
		if !ok {
			d.nodeErrorf(n, path, "want a string, got %s", describe(n))
			return
		}
		v.SetString(s.Value)
	default:
		panic("modelfile: no decoder for " + v.Type().String())
	}
}

// decodeMapList fills the map v from a list of mappings, merged in order: the form of a
// mapping of names that a repeat block can produce (initial.bodies with one entry per body
// of a repeated chain). A name given twice is an error.
func (d *decoder) decodeMapList(seq *ast.SequenceNode, path string, v reflect.Value) {
	m := reflect.MakeMap(v.Type())
	for i, item := range seq.Values {
		ipath := indexPath(path, i)
		r, repeated := d.origin[item]
		if item = d.unwrap(item, ipath); item == nil {
			continue
		}
		keys, vals, toks, ok := d.mapping(item, ipath)
		if !ok {
			d.nodeErrorf(item, ipath, "want %s (here a list of such mappings, merged), got %s", wantOf(v.Type()), describe(item))
			continue
		}
		for k, key := range keys {
			kpath := joinPath(path, key)
			if repeated {
				d.repeatAt[kpath] = r
			}
			if m.MapIndex(reflect.ValueOf(key)).IsValid() {
				if len(d.errs) < maxErrors {
					d.errs = append(d.errs, d.at(toks[k], kpath, "duplicate key %q: given in an earlier item of the list too", key))
				}
				continue
			}
			e := reflect.New(v.Type().Elem()).Elem()
			d.decode(vals[k], kpath, e)
			m.SetMapIndex(reflect.ValueOf(key), e)
		}
	}
	v.Set(m)
}

// wantOf names what a Go type expects in a file.
func wantOf(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[Func]():
		return "a function of time (a number, an expression string or a table {t: [...], value: [...]})"
	case reflect.TypeFor[Profile]():
		return "a cam profile r(u) (a number, an expression string in u or a table {u: [...], r: [...]})"
	case reflect.TypeFor[Angle]():
		return "an angle (a number in radians or a string such as \"90 deg\")"
	case reflect.TypeFor[Vec]():
		return "a list of two numbers [x, y]"
	case reflect.TypeFor[Vec3]():
		return "a list of three numbers [x, y, z]"
	case reflect.TypeFor[Quat]():
		return "a list of four numbers [p0, p1, p2, p3]"
	}
	switch t.Kind() {
	case reflect.Struct:
		return "a mapping with keys " + strings.Join(structKeys(t), ", ")
	case reflect.Slice:
		return "a list of " + strings.TrimPrefix(wantOf(t.Elem()), "a ")
	case reflect.Map:
		return "a mapping of names to " + strings.TrimPrefix(wantOf(t.Elem()), "a ")
	case reflect.Float64:
		return "a number"
	case reflect.Int:
		return "an integer"
	case reflect.String:
		return "a string"
	case reflect.Pointer:
		return wantOf(t.Elem())
	}
	return t.String()
}

func structKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		if k, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

func (d *decoder) decodeStruct(n ast.Node, path string, v reflect.Value) {
	keys, vals, toks, ok := d.mapping(n, path)
	if !ok {
		d.nodeErrorf(n, path, "want %s, got %s", wantOf(v.Type()), describe(n))
		return
	}
	t := v.Type()
	index := map[string]int{}
	var required []string
	for i := range t.NumField() {
		k, opt, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if k == "" {
			continue
		}
		index[k] = i
		if opt == "required" {
			required = append(required, k)
		}
	}
	for i, k := range keys {
		fi, ok := index[k]
		if !ok {
			if len(d.errs) < maxErrors {
				d.errs = append(d.errs, d.at(toks[i], joinPath(path, k), "unknown key %q; valid keys here: %s", k, strings.Join(structKeys(t), ", ")))
			}
			continue
		}
		d.decode(vals[i], joinPath(path, k), v.Field(fi))
	}
	for _, k := range required {
		if !slices.Contains(keys, k) {
			d.nodeErrorf(n, path, "missing required key %q", k)
		}
	}
}

func (d *decoder) decodeArray(n ast.Node, path string, dst []float64, want string) {
	if n == nil {
		return
	}
	seq, ok := n.(*ast.SequenceNode)
	if !ok || len(seq.Values) != len(dst) {
		got := describe(n)
		if ok {
			got = fmt.Sprintf("a list of %d values", len(seq.Values))
		}
		d.nodeErrorf(n, path, "want %s, got %s", want, got)
		return
	}
	for i, e := range seq.Values {
		p := indexPath(path, i)
		e = d.unwrap(e, p)
		if e == nil {
			return
		}
		if tk := e.GetToken(); tk != nil && tk.Position != nil {
			d.doc.pos[p] = *tk.Position
		}
		if f, ok := d.number(e, p, "a number"); ok {
			dst[i] = f
		}
	}
}

// constExpr evaluates a string that must not depend on t, with an optional deg suffix.
func (d *decoder) constExpr(n ast.Node, path, s string) (float64, bool) {
	src, deg := cutDeg(s)
	e, err := ParseExpr(src)
	if err != nil {
		d.nodeErrorf(n, path, "in %q: %v", s, err)
		return 0, false
	}
	if e.DependsOnTime() {
		d.nodeErrorf(n, path, "want a constant, got %q which depends on t", s)
		return 0, false
	}
	f, _, _ := e.Eval(0)
	if deg {
		f *= math.Pi / 180
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		d.nodeErrorf(n, path, "%q evaluates to %g; want a finite number", s, f)
		return 0, false
	}
	return f, true
}

// cutDeg removes a trailing "deg" unit from an angle string.
func cutDeg(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if r, ok := strings.CutSuffix(t, "deg"); ok {
		return r, true
	}
	return s, false
}

func (d *decoder) decodeAngle(n ast.Node, path string, a *Angle) {
	if n == nil {
		return
	}
	if s, ok := n.(*ast.StringNode); ok {
		if _, num := plainNumber(n); num {
			if f, ok := d.number(n, path, "an angle"); ok {
				*a = Angle(f)
			}
			return
		}
		if f, ok := d.constExpr(n, path, s.Value); ok {
			*a = Angle(f)
		}
		return
	}
	if f, ok := d.number(n, path, "an angle (a number in radians or a string such as \"90 deg\")"); ok {
		*a = Angle(f)
	}
}

func (d *decoder) decodeFunc(n ast.Node, path string, fn *Func) {
	if n == nil {
		return
	}
	if _, num := plainNumber(n); num {
		if f, ok := d.number(n, path, wantOf(reflect.TypeFor[Func]())); ok {
			*fn = Func{Kind: FuncConst, Const: f}
		}
		return
	}
	switch x := n.(type) {
	case *ast.StringNode:
		src, deg := cutDeg(x.Value)
		if _, err := ParseExpr(src); err != nil {
			d.nodeErrorf(n, path, "in expression %q: %v", x.Value, err)
			return
		}
		*fn = Func{Kind: FuncExpr, Expr: src, Deg: deg}
	case *ast.MappingNode, *ast.MappingValueNode:
		var tb Table
		d.decodeStruct(n, path, reflect.ValueOf(&tb).Elem())
		*fn = Func{Kind: FuncTable, Table: &tb}
	default:
		f, ok := d.number(n, path, wantOf(reflect.TypeFor[Func]()))
		if ok {
			*fn = Func{Kind: FuncConst, Const: f}
		}
	}
}

func (d *decoder) decodeProfile(n ast.Node, path string, pr *Profile) {
	if n == nil {
		return
	}
	if _, num := plainNumber(n); num {
		if f, ok := d.number(n, path, wantOf(reflect.TypeFor[Profile]())); ok {
			*pr = Profile{Kind: FuncConst, Const: f}
		}
		return
	}
	switch x := n.(type) {
	case *ast.StringNode:
		if _, err := parseExprOf(x.Value, "u"); err != nil {
			d.nodeErrorf(n, path, "in profile expression %q: %v", x.Value, err)
			return
		}
		*pr = Profile{Kind: FuncExpr, Expr: x.Value}
	case *ast.MappingNode, *ast.MappingValueNode:
		var tb ProfileTable
		d.decodeStruct(n, path, reflect.ValueOf(&tb).Elem())
		*pr = Profile{Kind: FuncTable, Table: &tb}
	default:
		if f, ok := d.number(n, path, wantOf(reflect.TypeFor[Profile]())); ok {
			*pr = Profile{Kind: FuncConst, Const: f}
		}
	}
}

// isSpatial reports whether the top-level mapping has the key dimension with the number 3;
// any other value is left to the planar validator, which accepts only 2.
func isSpatial(body ast.Node) bool {
	var pairs []*ast.MappingValueNode
	switch x := body.(type) {
	case *ast.MappingNode:
		pairs = x.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{x}
	}
	for _, p := range pairs {
		if p.Key == nil || p.Key.GetToken() == nil || p.Key.GetToken().Value != "dimension" || p.Value == nil {
			continue
		}
		if tk := p.Value.GetToken(); tk != nil {
			f, err := strconv.ParseFloat(tk.Value, 64)
			return err == nil && f == 3
		}
	}
	return false
}
