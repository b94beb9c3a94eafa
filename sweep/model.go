package sweep

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// template is a base model's text with the places of its swept values. A run's model is
// the text with each swept value's bytes replaced by the run's value, so that everything
// else (comments, layout, line numbers in errors) stays the base file's.
type template struct {
	file string
	src  []byte
	root ast.Node
}

// slot is where one scalar value is written in the model text: bytes [start, end).
type slot struct {
	start, end int
	numeric    bool   // written as a number (else a string: an angle "90 deg", an expression, a name)
	text       string // as written ("" for a key the model does not have)
	pre, post  string // written around the value: "key: " and the separator of an inserted pair
}

func parseTemplate(file string, src []byte) (*template, error) {
	f, err := parser.ParseBytes(src, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", file, yaml.FormatError(err, false, false))
	}
	if len(f.Docs) != 1 || f.Docs[0].Body == nil {
		return nil, fmt.Errorf("%s: want one YAML document", file)
	}
	return &template{file: file, src: src, root: f.Docs[0].Body}, nil
}

// pathElem splits a path into its keys and indices: "gravity[1]" → gravity, [1].
var pathElem = regexp.MustCompile(`[^.\[\]]+|\[\d+\]`)

// find returns the slot of the scalar at path. A key of a mapping is matched as written; in
// a list, "[i]" picks item i and a name picks the item whose name it is (names may
// contain dots: markers.bar1.O.point).
func (t *template) find(path string) (slot, error) {
	elems := pathElem.FindAllString(path, -1)
	if len(elems) == 0 || strings.Join(elems, "") != strings.NewReplacer(".", "").Replace(path) {
		return slot{}, fmt.Errorf("%q is not a path; want keys and names joined by dots, as forces.spring1.k or gravity[1]", path)
	}
	n, err := t.walk(t.root, elems, "")
	var mk *missingKey
	if errors.As(err, &mk) {
		return t.insertion(mk)
	}
	if err != nil {
		return slot{}, err
	}
	return t.slotOf(path, n)
}

// missingKey is a last key of a path that its mapping does not have: the value is then
// inserted as a new pair (a key the model format does not know is refused when the
// model is parsed, before any run).
type missingKey struct {
	pairs []*ast.MappingValueNode
	flow  *ast.MappingNode // set when the mapping is written {a: 1, ...}
	key   string
	err   error
}

func (m *missingKey) Error() string { return m.err.Error() }

// insertion returns a slot that writes "key: value" into the mapping: in a flow mapping
// after its "{", in a block mapping on a new line before its first key, at its indent.
func (t *template) insertion(m *missingKey) (slot, error) {
	if m.flow != nil {
		tk := m.flow.Start
		off := offsetOf(t.src, tk.Position.Line, tk.Position.Column)
		if off < 0 || t.src[off] != '{' {
			return slot{}, m.err
		}
		post := ""
		if len(m.pairs) > 0 {
			post = ", "
		}
		return slot{start: off + 1, end: off + 1, pre: m.key + ": ", post: post}, nil
	}
	if len(m.pairs) == 0 {
		return slot{}, m.err
	}
	tk := m.pairs[0].Key.GetToken()
	off := offsetOf(t.src, tk.Position.Line, tk.Position.Column)
	if off < 0 || !strings.HasPrefix(string(t.src[off:]), tk.Value) {
		return slot{}, m.err
	}
	indent := strings.Repeat(" ", tk.Position.Column-1)
	return slot{start: off, end: off, pre: m.key + ": ", post: "\n" + indent}, nil
}

func (t *template) walk(n ast.Node, elems []string, at string) (ast.Node, error) {
	n = unwrap(n)
	if len(elems) == 0 {
		return n, nil
	}
	where := at
	if where == "" {
		where = "the top level"
	}
	switch x := n.(type) {
	case *ast.MappingNode:
		var flow *ast.MappingNode
		if x.IsFlowStyle {
			flow = x
		}
		return t.walkMapping(flow, x.Values, elems, at, where)
	case *ast.MappingValueNode:
		return t.walkMapping(nil, []*ast.MappingValueNode{x}, elems, at, where)
	case *ast.SequenceNode:
		return t.walkSequence(x, elems, at, where)
	}
	return nil, fmt.Errorf("no value %s in model %s: %s is a single value, not a mapping or list", join(at, elems[0]), t.file, where)
}

func (t *template) walkMapping(flow *ast.MappingNode, pairs []*ast.MappingValueNode, elems []string, at, where string) (ast.Node, error) {
	var keys []string
	for _, p := range pairs {
		k := p.Key.GetToken().Value
		if k == elems[0] {
			return t.walk(p.Value, elems[1:], join(at, k))
		}
		keys = append(keys, k)
	}
	err := fmt.Errorf("no value %s in model %s; %s has %s", join(at, elems[0]), t.file, where, strings.Join(keys, ", "))
	if len(elems) == 1 {
		return nil, &missingKey{pairs: pairs, flow: flow, key: elems[0], err: err}
	}
	return nil, err
}

func (t *template) walkSequence(seq *ast.SequenceNode, elems []string, at, where string) (ast.Node, error) {
	if i, ok := index(elems[0]); ok {
		if i >= len(seq.Values) {
			return nil, fmt.Errorf("no value %s%s in model %s: %s has %d items", at, elems[0], t.file, where, len(seq.Values))
		}
		return t.walk(seq.Values[i], elems[1:], at+elems[0])
	}
	var names []string
	// The longest run of elements that is an item's name wins: marker "bar1.O" before "bar1".
	for k := len(elems); k >= 1; k-- {
		want := strings.Join(elems[:k], ".")
		for _, item := range seq.Values {
			if name := itemName(item); name == want {
				return t.walk(item, elems[k:], join(at, want))
			}
		}
	}
	for _, item := range seq.Values {
		if name := itemName(item); name != "" {
			names = append(names, name)
		}
	}
	return nil, fmt.Errorf("no item named %s in %s of model %s; its items are %s (or use [index])", elems[0], where, t.file, strings.Join(names, ", "))
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func index(e string) (int, bool) {
	if !strings.HasPrefix(e, "[") {
		return 0, false
	}
	i, err := strconv.Atoi(e[1 : len(e)-1])
	return i, err == nil
}

// itemName is the value of the name key of a list item that is a mapping ("" if none).
func itemName(n ast.Node) string {
	var pairs []*ast.MappingValueNode
	switch x := unwrap(n).(type) {
	case *ast.MappingNode:
		pairs = x.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{x}
	}
	for _, p := range pairs {
		if p.Key.GetToken().Value == "name" && p.Value.GetToken() != nil {
			return p.Value.GetToken().Value
		}
	}
	return ""
}

func unwrap(n ast.Node) ast.Node {
	for range 64 {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		default:
			return n
		}
	}
	return n
}

// decimal is a number as the model file reads it (modelfile's decimalNumber).
var decimal = regexp.MustCompile(`^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// slotOf locates the scalar n in the text.
func (t *template) slotOf(path string, n ast.Node) (slot, error) {
	var numeric bool
	switch x := n.(type) {
	case *ast.IntegerNode, *ast.FloatNode:
		numeric = true
	case *ast.StringNode:
		numeric = x.GetToken().Type == token.StringType && decimal.MatchString(x.Value)
	default:
		return slot{}, fmt.Errorf("%s in model %s is %s; a parameter path must name a single number or string", path, t.file, kindOf(n))
	}
	tk := n.GetToken()
	raw := strings.TrimSpace(tk.Origin)
	start := offsetOf(t.src, tk.Position.Line, tk.Position.Column)
	if start < 0 || !strings.HasPrefix(string(t.src[start:]), raw) || strings.Contains(raw, "\n") {
		return slot{}, fmt.Errorf("%s in model %s (line %d) is written over several lines; write it on one line to sweep it", path, t.file, tk.Position.Line)
	}
	return slot{start: start, end: start + len(raw), numeric: numeric, text: raw}, nil
}

func kindOf(n ast.Node) string {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case nil:
		return "empty"
	}
	return "a " + n.Type().String()
}

// offsetOf converts a 1-based line and column (in characters) to a byte offset, -1 if out
// of the text.
func offsetOf(src []byte, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(string(src[off:]), '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	for c := 1; c < col; c++ {
		if off >= len(src) || src[off] == '\n' {
			return -1
		}
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off
}

func (s slot) describe() string {
	return "the string " + s.text
}

// accepts checks that v (a value decoded from the sweep file) may replace the value of s:
// a number where the model has a number; a string or a number where it has a string (an
// angle, an expression or a name), which the model file then checks.
func (s slot) accepts(v any) error {
	switch x := v.(type) {
	case string:
		if s.numeric {
			return fmt.Errorf("the string %q where the model has the number %s; want a number", x, s.text)
		}
		return nil
	case float64, int64, uint64, int:
		f := toFloat(v)
		if !finite(f) {
			return fmt.Errorf("%v is not a finite number", v)
		}
		return nil
	}
	return fmt.Errorf("%s %v; want a number or a string", kindOfValue(v), v)
}

func kindOfValue(v any) string {
	switch v.(type) {
	case bool:
		return "the boolean"
	case nil:
		return "null"
	case []any:
		return "the list"
	case map[string]any:
		return "the mapping"
	}
	return fmt.Sprintf("the %T", v)
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case int:
		return float64(x)
	}
	return 0
}

// render returns the model text with the value of slots[k] replaced by values[k].
func (t *template) render(slots []slot, values []Value) []byte {
	order := make([]int, len(slots))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return slots[order[a]].start < slots[order[b]].start })
	out := make([]byte, 0, len(t.src)+16*len(slots))
	prev := 0
	for _, k := range order {
		out = append(out, t.src[prev:slots[k].start]...)
		out = append(out, slots[k].pre...)
		out = append(out, values[k].yaml()...)
		out = append(out, slots[k].post...)
		prev = slots[k].end
	}
	return append(out, t.src[prev:]...)
}

// Value is the value of one parameter in one run: a number, or a string when IsString.
type Value struct {
	Num      float64
	Str      string
	IsString bool
}

// valueOf converts a value decoded from the sweep file.
func valueOf(v any) Value {
	if s, ok := v.(string); ok {
		return Value{Str: s, IsString: true}
	}
	return Value{Num: toFloat(v)}
}

// String formats v as the results table writes it: numbers with the fewest digits that
// read back exactly.
func (v Value) String() string {
	if v.IsString {
		return v.Str
	}
	return strconv.FormatFloat(v.Num, 'g', -1, 64)
}

// yaml formats v for the model text: a number as written by String, a string
// double-quoted (valid in YAML and JSON).
func (v Value) yaml() string {
	if v.IsString {
		return strconv.Quote(v.Str)
	}
	return v.String()
}
