package modelfile

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Repeated structure (docs/model-format.md, "Parameters and repeated structure"). Before a
// file is decoded, its syntax tree is expanded:
//
//   - the top-level mapping "parameters" names constants, {N: 100, L: "1/N"}, each a number
//     or an expression in the parameters before it;
//   - an item of any list written as {repeat: {i: FIRST..LAST}, each: TEMPLATE} is replaced
//     by one copy of TEMPLATE (a list of items, or one item) per integer i from FIRST to
//     LAST; FIRST and LAST are expressions in the parameters and enclosing repeat variables,
//     and a template may hold further repeat blocks (nested repeats);
//   - in every string, ${EXPR} is replaced by the value of EXPR (an expression of ParseExpr
//     in the parameters and repeat variables in scope, without t): a scalar that is exactly
//     ${EXPR} becomes that number, a longer string gets the number's shortest decimal
//     form ("bar${i+1}" → "bar38").
//
// Copies keep the positions of their template, so an error in a copy names the template's
// line; the decoder adds the repeat variables of the copy ("in repeat i=37").

// MaxRepeatValues bounds the values (scalars, lists and mappings, counted in every copy of
// every template) that the repeat blocks of one file expand to. The example chains with
// N = 10 000 expand to 260 000 (examples/chain-bars.yaml) and 390 000 (chain3d.yaml); the bound keeps the decoded model of a
// 2 MiB file (MaxFileBytes) within some hundreds of megabytes instead of letting three nested
// repeats ask for 10¹⁸ values.
const MaxRepeatValues = 1_000_000

// identifier is the form of parameter and repeat variable names.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Keys of a repeat block.
const (
	repeatKey = "repeat"
	eachKey   = "each"
)

// expander expands parameters, repeat blocks and ${...} in a syntax tree.
type expander struct {
	d      *decoder
	vars   map[string]float64 // parameters and the repeat variables in scope
	scope  []string           // "i=37" of the enclosing repeats, outermost first
	made   int                // values produced by the copies of templates so far
	stop   bool               // MaxRepeatValues was passed: expand no further
	params map[string]bool    // names of the parameters (a repeat variable may not hide one)
	// said holds "line:column:message" of the errors reported: a fault of a template that
	// does not depend on the repeat variables is reported for its first copy only.
	said map[string]bool
}

// expand returns body with its parameters evaluated, its repeat blocks expanded and its
// ${...} replaced; problems go to d.errs.
func (d *decoder) expand(body ast.Node) ast.Node {
	e := &expander{d: d, vars: map[string]float64{}, params: map[string]bool{}, said: map[string]bool{}}
	if m, ok := body.(*ast.MappingNode); ok {
		return e.topMapping(m)
	}
	if mv, ok := body.(*ast.MappingValueNode); ok {
		if keyText(mv.Key) == "parameters" {
			return e.parameters(mv)
		}
	}
	return e.walk(body, "")
}

// topMapping evaluates the parameters first, so that they are in scope wherever they are
// written, then expands the other keys.
func (e *expander) topMapping(m *ast.MappingNode) ast.Node {
	values := slices.Clone(m.Values)
	for i, p := range values {
		if keyText(p.Key) == "parameters" {
			values[i] = e.parameters(p)
		}
	}
	for i, p := range values {
		if keyText(p.Key) != "parameters" {
			values[i] = e.pair(p, "")
		}
	}
	c := *m
	c.Values = values
	return &c
}

// parameters evaluates the mapping of the parameters pair in order and returns the pair
// with each value replaced by its number.
func (e *expander) parameters(p *ast.MappingValueNode) *ast.MappingValueNode {
	m := e.d.unwrap(p.Value, "parameters")
	var pairs []*ast.MappingValueNode
	switch x := m.(type) {
	case *ast.MappingNode:
		pairs = x.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{x}
	case nil:
		return p
	default:
		e.d.nodeErrorf(m, "parameters", "want a mapping of names to numbers or expressions, as {N: 100, L: \"2/N\"}, got %s", describe(m))
		return p
	}
	out := make([]*ast.MappingValueNode, 0, len(pairs))
	for _, pv := range pairs {
		name := keyText(pv.Key)
		path := joinPath("parameters", name)
		if !e.validName(pv.Key, path, "parameter", name) {
			continue
		}
		v, ok := e.parameterValue(pv.Value, path)
		if !ok {
			continue
		}
		e.vars[name], e.params[name] = v, true
		c := *pv
		c.Value = numberNode(pv.Value, v)
		out = append(out, &c)
	}
	mp := &ast.MappingNode{BaseNode: &ast.BaseNode{}, Start: p.Value.GetToken(), Values: out}
	c := *p
	c.Value = mp
	return &c
}

// parameterValue evaluates one parameter: a number, or an expression (with or without
// ${...}) in the parameters before it.
func (e *expander) parameterValue(n ast.Node, path string) (float64, bool) {
	n = e.d.unwrap(n, path)
	if n == nil {
		e.d.errorf(path, "missing value; want a number or an expression")
		return 0, false
	}
	s, ok := n.(*ast.StringNode)
	if !ok {
		return e.d.number(n, path, "a number or an expression")
	}
	if _, num := plainNumber(s); num {
		return e.d.number(n, path, "a number or an expression")
	}
	src := s.Value
	if whole, ok := wholeExpr(src); ok {
		src = whole
	}
	return e.eval(n, path, src)
}

// validName checks the name of a parameter or repeat variable.
func (e *expander) validName(key ast.Node, path, kind, name string) bool {
	switch {
	case !identifier.MatchString(name):
		e.errorf(key, path, "%s name %q; want a letter or _ followed by letters, digits or _", kind, name)
	case name == "t" || name == "pi" || name == "e" || isExprFunc(name):
		e.errorf(key, path, "%s name %q is reserved in expressions (t, pi, e, %s); choose another", kind, name, exprFuncs)
	case e.params[name]:
		e.errorf(key, path, "%s name %q is already a parameter", kind, name)
	case hasKey(e.vars, name):
		e.errorf(key, path, "%s name %q is already the variable of an enclosing repeat", kind, name)
	default:
		return true
	}
	return false
}

func hasKey(m map[string]float64, k string) bool {
	_, ok := m[k]
	return ok
}

// errorf records a problem at node n, naming the repeat copy it is in.
func (e *expander) errorf(n ast.Node, path, format string, args ...any) {
	if len(e.d.errs) >= maxErrors {
		return
	}
	err := e.d.at(n.GetToken(), path, format, args...)
	key := fmt.Sprintf("%d:%d:%s", err.Line, err.Column, err.Msg)
	if e.said[key] {
		return
	}
	e.said[key] = true
	err.Repeat = strings.Join(e.scope, ", ")
	e.d.errs = append(e.d.errs, err)
}

// count adds one value made inside a template; past MaxRepeatValues it stops the expansion.
func (e *expander) count(n ast.Node, path string) {
	if len(e.scope) == 0 || e.stop {
		return
	}
	e.made++
	if e.made > MaxRepeatValues {
		e.stop = true
		e.errorf(n, path, "the repeat blocks expand to more than %d values (MaxRepeatValues); write fewer copies or smaller templates", MaxRepeatValues)
	}
}

// walk returns n with its repeat blocks and ${...} expanded: n itself when nothing in it
// changed, else a copy (the template is never modified).
func (e *expander) walk(n ast.Node, path string) ast.Node {
	if n == nil || e.stop || len(e.d.errs) >= maxErrors {
		return n
	}
	e.count(n, path)
	switch x := n.(type) {
	case *ast.StringNode:
		return e.substitute(x, path)
	case *ast.AnchorNode:
		if v := e.walk(x.Value, path); v != x.Value {
			c := *x
			c.Value = v
			return &c
		}
	case *ast.TagNode:
		if v := e.walk(x.Value, path); v != x.Value {
			c := *x
			c.Value = v
			return &c
		}
	case *ast.SequenceNode:
		return e.sequence(x, path)
	case *ast.MappingNode:
		if _, ok := repeatBlock(x); ok {
			e.errorf(x, path, "a repeat block is an item of a list (\"- repeat: {i: 1..N}\" followed by \"each:\"), not a value of its own")
			return x
		}
		values := make([]*ast.MappingValueNode, len(x.Values))
		changed := false
		for i, p := range x.Values {
			values[i] = e.pair(p, path)
			changed = changed || values[i] != p
		}
		if changed {
			c := *x
			c.Values = values
			return &c
		}
	case *ast.MappingValueNode:
		return e.pair(x, path)
	}
	return n
}

// pair expands the key and the value of one mapping entry.
func (e *expander) pair(p *ast.MappingValueNode, path string) *ast.MappingValueNode {
	key := p.Key
	if s, ok := key.(*ast.StringNode); ok {
		key = e.substitute(s, path)
	}
	val := e.walk(p.Value, joinPath(path, keyText(key)))
	if key == p.Key && val == p.Value {
		return p
	}
	c := *p
	c.Key, c.Value = key, val
	return &c
}

// sequence expands the items of a list, replacing each repeat block by its copies.
func (e *expander) sequence(x *ast.SequenceNode, path string) ast.Node {
	out := make([]ast.Node, 0, len(x.Values))
	changed := false
	for _, v := range x.Values {
		if r, ok := repeatBlock(v); ok {
			out = e.repeat(r, path, out)
			changed = true
			continue
		}
		w := e.walk(v, indexPath(path, len(out)))
		changed = changed || w != v
		out = append(out, w)
	}
	if !changed {
		return x
	}
	c := *x
	c.Values = out
	return &c
}

// repeatBlock reports whether n is a mapping with the key "repeat" and returns its pairs.
func repeatBlock(n ast.Node) ([]*ast.MappingValueNode, bool) {
	var pairs []*ast.MappingValueNode
	switch x := n.(type) {
	case *ast.MappingNode:
		pairs = x.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{x}
	default:
		return nil, false
	}
	for _, p := range pairs {
		if keyText(p.Key) == repeatKey {
			return pairs, true
		}
	}
	return nil, false
}

// keyText is the text of a mapping key.
func keyText(k ast.Node) string {
	if s, ok := k.(*ast.StringNode); ok {
		return s.Value
	}
	if k == nil || k.GetToken() == nil {
		return ""
	}
	return k.GetToken().Value
}

// repeatSpec is a checked repeat block: its variable, range and template items.
type repeatSpec struct {
	name      string
	first     int
	last      int
	items     []ast.Node
	rangeNode ast.Node
}

// repeat appends the copies of the repeat block pairs (an item of the list at path) to out.
func (e *expander) repeat(pairs []*ast.MappingValueNode, path string, out []ast.Node) []ast.Node {
	r, ok := e.repeatSpec(pairs, indexPath(path, len(out)))
	if !ok || r.last < r.first {
		return out
	}
	copies := r.last - r.first + 1
	size := 0
	for _, it := range r.items {
		size += countValues(it, MaxRepeatValues+1)
	}
	if left := MaxRepeatValues - e.made; copies > left/max(size, 1) {
		earlier := ""
		if e.made > 0 {
			earlier = fmt.Sprintf(" after the %d made by earlier copies", e.made)
		}
		e.errorf(r.rangeNode, fmt.Sprintf("%s[%d].repeat.%s", path, len(out), r.name),
			"%s = %d..%d makes %d copies of a template of %d value(s): %.3g values%s, more than the %d of MaxRepeatValues",
			r.name, r.first, r.last, copies, size, float64(copies)*float64(size), earlier, MaxRepeatValues)
		e.stop = true
		return out
	}
	for k := r.first; k <= r.last && !e.stop && len(e.d.errs) < maxErrors; k++ {
		e.vars[r.name] = float64(k)
		e.scope = append(e.scope, fmt.Sprintf("%s=%d", r.name, k))
		for _, it := range r.items {
			if inner, ok := repeatBlock(it); ok {
				out = e.repeat(inner, path, out)
				continue
			}
			c := fresh(e.walk(it, indexPath(path, len(out))))
			e.d.origin[c] = strings.Join(e.scope, ", ")
			out = append(out, c)
		}
		e.scope = e.scope[:len(e.scope)-1]
	}
	delete(e.vars, r.name)
	return out
}

// repeatSpec checks a repeat block at path: the keys repeat and each, one variable with an
// integer range, a non-empty template.
func (e *expander) repeatSpec(pairs []*ast.MappingValueNode, path string) (repeatSpec, bool) {
	var r repeatSpec
	var head, each *ast.MappingValueNode
	for _, p := range pairs {
		switch keyText(p.Key) {
		case repeatKey:
			head = p
		case eachKey:
			each = p
		default:
			e.errorf(p.Key, joinPath(path, keyText(p.Key)), "unknown key %q in a repeat block; valid keys here: repeat, each", keyText(p.Key))
			return r, false
		}
	}
	if each == nil {
		e.errorf(head.Key, path, "repeat block without \"each\"; want the items to repeat under each:")
		return r, false
	}
	hpath := joinPath(path, repeatKey)
	var vars []*ast.MappingValueNode
	switch x := e.d.unwrap(head.Value, hpath).(type) {
	case *ast.MappingNode:
		vars = x.Values
	case *ast.MappingValueNode:
		vars = []*ast.MappingValueNode{x}
	case nil:
		return r, false
	}
	if len(vars) != 1 {
		what := "no variable"
		if len(vars) > 1 {
			what = fmt.Sprintf("%d variables", len(vars))
		}
		at := head.Value
		if at == nil {
			at = head.Key
		}
		e.errorf(at, hpath, "want one variable and its range, as repeat: {i: 1..N}, got %s (nest repeat blocks for more)", what)
		return r, false
	}
	v := vars[0]
	r.name = keyText(v.Key)
	if !e.validName(v.Key, hpath, "repeat variable", r.name) {
		return r, false
	}
	var ok bool
	if r.first, r.last, ok = e.rangeOf(v.Value, joinPath(hpath, r.name)); !ok {
		return r, false
	}
	r.rangeNode = v.Value
	epath := joinPath(path, eachKey)
	switch x := e.d.unwrap(each.Value, epath).(type) {
	case nil:
		e.errorf(each.Key, epath, "empty each; want the items to repeat")
		return r, false
	case *ast.SequenceNode:
		r.items = x.Values
	case *ast.NullNode:
		e.errorf(x, epath, "empty each; want the items to repeat")
		return r, false
	default:
		r.items = []ast.Node{x}
	}
	if len(r.items) == 0 {
		e.errorf(each.Value, epath, "each is an empty list; want the items to repeat")
		return r, false
	}
	return r, true
}

// rangeOf reads FIRST..LAST, two integer expressions.
func (e *expander) rangeOf(n ast.Node, path string) (first, last int, ok bool) {
	n = e.d.unwrap(n, path)
	s, isStr := n.(*ast.StringNode)
	if n == nil || !isStr {
		got := "nothing"
		if n != nil {
			got = describe(n)
		}
		at := n
		if at == nil {
			return 0, 0, false
		}
		e.errorf(at, path, "want a range FIRST..LAST of integers, as 1..N, got %s", got)
		return 0, 0, false
	}
	text := e.substitute(s, path).Value
	a, b, found := strings.Cut(text, "..")
	if !found {
		e.errorf(n, path, "want a range FIRST..LAST of integers, as 1..N, got %q", text)
		return 0, 0, false
	}
	if first, ok = e.integer(n, path, a, "first"); !ok {
		return 0, 0, false
	}
	if last, ok = e.integer(n, path, b, "last"); !ok {
		return 0, 0, false
	}
	return first, last, true
}

// integer evaluates one bound of a range.
func (e *expander) integer(n ast.Node, path, src, which string) (int, bool) {
	v, ok := e.eval(n, path, src)
	if !ok {
		return 0, false
	}
	if v != math.Trunc(v) || math.Abs(v) > maxInteger {
		e.errorf(n, path, "the %s value of the range, %s = %g, is not an integer (of magnitude ≤ 2⁵³)", which, strings.TrimSpace(src), v)
		return 0, false
	}
	return int(v), true
}

// eval evaluates an expression in the parameters and repeat variables.
func (e *expander) eval(n ast.Node, path, src string) (float64, bool) {
	x, err := parseExprVars(src, e.vars)
	if err != nil {
		e.errorf(n, path, "in %q: %v", src, err)
		return 0, false
	}
	if x.DependsOnTime() {
		e.errorf(n, path, "%q uses t, but ${...}, parameters and ranges are evaluated once when the file is read; write a function of time without ${...}", src)
		return 0, false
	}
	v, _, _ := x.Eval(0)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		e.errorf(n, path, "%q evaluates to %g; want a finite number", src, v)
		return 0, false
	}
	return v, true
}

// substitute replaces each ${EXPR} of s: a string that is exactly ${EXPR} becomes a plain
// number, a longer one gets the numbers' text.
func (e *expander) substitute(s *ast.StringNode, path string) *ast.StringNode {
	if !strings.Contains(s.Value, "${") {
		return s
	}
	if src, ok := wholeExpr(s.Value); ok {
		v, ok := e.eval(s, path, src)
		if !ok {
			return s
		}
		return numberNode(s, v)
	}
	var b strings.Builder
	rest := s.Value
	for {
		i := strings.Index(rest, "${")
		if i < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			e.errorf(s, path, "in %q: ${ without its closing }; want ${expression}", s.Value)
			return s
		}
		v, ok := e.eval(s, path, rest[i+2:i+j])
		if !ok {
			return s
		}
		b.WriteString(formatNumber(v))
		rest = rest[i+j+1:]
	}
	c := *s
	c.Value = b.String()
	return &c
}

// wholeExpr reports whether s is exactly one ${EXPR} and returns EXPR.
func wholeExpr(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "${") || strings.IndexByte(t, '}') != len(t)-1 {
		return "", false
	}
	return t[2 : len(t)-1], true
}

// formatNumber writes v in the shortest decimal form that reads back as v: 37, 0.5, 1e+21.
func formatNumber(v float64) string {
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// numberNode is a plain scalar holding v at the position of n, which the decoder reads as
// the number v wherever a number, angle or function is expected.
func numberNode(n ast.Node, v float64) *ast.StringNode {
	text := formatNumber(v)
	var tk token.Token
	if t := n.GetToken(); t != nil {
		tk = *t
	}
	tk.Type, tk.Value, tk.Origin = token.StringType, text, text
	return &ast.StringNode{BaseNode: &ast.BaseNode{}, Token: &tk, Value: text}
}

// fresh returns a shallow copy of n, so that each copy of a template item is a node of its
// own (the decoder finds a copy's repeat variables by its identity).
func fresh(n ast.Node) ast.Node {
	if n == nil {
		return nil
	}
	v := reflect.ValueOf(n)
	c := reflect.New(v.Type().Elem())
	c.Elem().Set(v.Elem())
	return c.Interface().(ast.Node)
}

// countValues counts the values of a template, stopping past limit.
func countValues(n ast.Node, limit int) int {
	count := 0
	var visit func(ast.Node)
	visit = func(n ast.Node) {
		if n == nil || count > limit {
			return
		}
		count++
		switch x := n.(type) {
		case *ast.AnchorNode:
			visit(x.Value)
		case *ast.TagNode:
			visit(x.Value)
		case *ast.SequenceNode:
			for _, v := range x.Values {
				visit(v)
			}
		case *ast.MappingNode:
			for _, p := range x.Values {
				visit(p.Value)
			}
		case *ast.MappingValueNode:
			visit(x.Value)
		}
	}
	visit(n)
	return count
}

// varList names the variables of an expression's scope for error messages, sorted.
func varList(vars map[string]float64) string {
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none defined"
	}
	return strings.Join(names, ", ")
}
