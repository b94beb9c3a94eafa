package modelfile

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Expr is a compiled time function written as an expression in t, for example
// "0.1*sin(2*pi*t)". Eval returns its value and its first and second time derivatives,
// computed exactly by forward-mode differentiation with second-order jets: each node
// carries (f, f', f”), propagated by the chain rule
//
//	(g∘u)' = g'(u) u',    (g∘u)” = g”(u) u'² + g'(u) u”.
//
// Grammar (precedence low to high; ^ is right-associative and binds tighter than unary
// minus, so -t^2 = -(t^2)):
//
//	expr   = term { ("+" | "-") term }
//	term   = unary { ("*" | "/") unary }
//	unary  = ("-" | "+") unary | power
//	power  = atom [ "^" unary ]
//	atom   = number | "t" | "pi" | "e" | name "(" expr ")" | "(" expr ")"
//	name   = sin | cos | tan | exp | log | sqrt
//
// Evaluation walks a tree built once by ParseExpr and does not allocate.
type Expr struct {
	src   string
	root  *exprNode
	usesT bool
}

// jet is a value with its first and second derivatives with respect to t.
type jet struct{ f, d, dd float64 }

type exprOp uint8

const (
	opConst exprOp = iota
	opTime
	opNeg
	opAdd
	opSub
	opMul
	opDiv
	opPow
	opCall
)

type exprNode struct {
	op   exprOp
	val  float64 // opConst
	fn   string  // opCall
	a, b *exprNode
}

// exprFuncs lists the functions an expression may call, for error messages.
const exprFuncs = "sin, cos, tan, asin, acos, atan, exp, log, sqrt"

// isExprFunc reports whether an expression may call the function name.
func isExprFunc(name string) bool {
	switch name {
	case "sin", "cos", "tan", "asin", "acos", "atan", "exp", "log", "sqrt":
		return true
	}
	return false
}

// ExprError is a syntax error in an expression: the offset (in bytes from the start of the
// expression) and what was expected there.
type ExprError struct {
	Offset int
	Msg    string
}

// Error says where in the expression the problem is and what was expected there.
func (e *ExprError) Error() string {
	return fmt.Sprintf("column %d of the expression: %s", e.Offset+1, e.Msg)
}

// ParseExpr compiles src. Errors are *ExprError and say where and what was expected.
func ParseExpr(src string) (*Expr, error) { return parseExprVars(src, nil) }

// parseExprOf compiles src as a function of the argument named arg instead of t (a cam
// profile r(u)); Expr.Eval then takes that argument.
func parseExprOf(src, arg string) (*Expr, error) {
	p := &exprParser{src: src, arg: arg}
	return p.parse()
}

// parseExprVars compiles src in which the names of vars stand for their values (the
// parameters and repeat variables of a model file, see repeat.go).
func parseExprVars(src string, vars map[string]float64) (*Expr, error) {
	p := &exprParser{src: src, vars: vars, arg: "t"}
	return p.parse()
}

// parse compiles p.src.
func (p *exprParser) parse() (*Expr, error) {
	src := p.src
	p.next()
	root, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		return nil, p.errorf("unexpected %s after a complete expression", p.tok)
	}
	return &Expr{src: src, root: root, usesT: p.usesT}, nil
}

// String returns the source of e.
func (e *Expr) String() string { return e.src }

// DependsOnTime reports whether e mentions t.
func (e *Expr) DependsOnTime() bool { return e.usesT }

// Eval returns e(t), de/dt and d²e/dt².
func (e *Expr) Eval(t float64) (f, df, ddf float64) {
	j := e.root.eval(t)
	return j.f, j.d, j.dd
}

func (n *exprNode) eval(t float64) jet {
	switch n.op {
	case opConst:
		return jet{f: n.val}
	case opTime:
		return jet{f: t, d: 1}
	case opNeg:
		a := n.a.eval(t)
		return jet{-a.f, -a.d, -a.dd}
	case opAdd:
		a, b := n.a.eval(t), n.b.eval(t)
		return jet{a.f + b.f, a.d + b.d, a.dd + b.dd}
	case opSub:
		a, b := n.a.eval(t), n.b.eval(t)
		return jet{a.f - b.f, a.d - b.d, a.dd - b.dd}
	case opMul:
		a, b := n.a.eval(t), n.b.eval(t)
		return jet{a.f * b.f, a.d*b.f + a.f*b.d, a.dd*b.f + 2*a.d*b.d + a.f*b.dd}
	case opDiv:
		a, b := n.a.eval(t), n.b.eval(t)
		// q = a/b:  q' = (a' − q b')/b,  q” = (a” − 2 q' b' − q b”)/b
		q := a.f / b.f
		q1 := (a.d - q*b.d) / b.f
		q2 := (a.dd - 2*q1*b.d - q*b.dd) / b.f
		return jet{q, q1, q2}
	case opPow:
		a, b := n.a.eval(t), n.b.eval(t)
		if b.d == 0 && b.dd == 0 {
			// constant exponent c: g = x^c, g' = c x^(c−1), g” = c (c−1) x^(c−2); exact at
			// x = 0 for c = 1, 2 where the general form exp(c log x) is not.
			c := b.f
			g := math.Pow(a.f, c)
			g1 := c * math.Pow(a.f, c-1)
			g2 := c * (c - 1) * math.Pow(a.f, c-2)
			if c == 1 {
				g2 = 0
			}
			return chain(a, g, g1, g2)
		}
		// a^b = exp(b log a), for a > 0
		l := chain(a, math.Log(a.f), 1/a.f, -1/(a.f*a.f))
		p := jet{l.f * b.f, l.d*b.f + l.f*b.d, l.dd*b.f + 2*l.d*b.d + l.f*b.dd}
		ex := math.Exp(p.f)
		return chain(p, ex, ex, ex)
	case opCall:
		a := n.a.eval(t)
		switch n.fn {
		case "sin":
			s, c := math.Sincos(a.f)
			return chain(a, s, c, -s)
		case "cos":
			s, c := math.Sincos(a.f)
			return chain(a, c, -s, -c)
		case "tan":
			tn := math.Tan(a.f)
			sec2 := 1 + tn*tn
			return chain(a, tn, sec2, 2*tn*sec2)
		case "asin": // (1 − u²)^(−1/2), u (1 − u²)^(−3/2)
			r := 1 / math.Sqrt(1-a.f*a.f)
			return chain(a, math.Asin(a.f), r, a.f*r*r*r)
		case "acos":
			r := 1 / math.Sqrt(1-a.f*a.f)
			return chain(a, math.Acos(a.f), -r, -a.f*r*r*r)
		case "atan": // 1/(1 + u²), −2u/(1 + u²)²
			r := 1 / (1 + a.f*a.f)
			return chain(a, math.Atan(a.f), r, -2*a.f*r*r)
		case "exp":
			ex := math.Exp(a.f)
			return chain(a, ex, ex, ex)
		case "log":
			return chain(a, math.Log(a.f), 1/a.f, -1/(a.f*a.f))
		case "sqrt":
			s := math.Sqrt(a.f)
			return chain(a, s, 0.5/s, -0.25/(s*a.f))
		}
	}
	panic("modelfile: corrupt expression tree")
}

// chain applies g with derivatives g1 = g'(u), g2 = g”(u) to the jet u.
func chain(u jet, g, g1, g2 float64) jet {
	return jet{g, g1 * u.d, g2*u.d*u.d + g1*u.dd}
}

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokNum
	tokName
	tokOp
)

type exprTok struct {
	kind tokKind
	text string
	num  float64
	pos  int
}

// String names the token in error messages.
func (t exprTok) String() string {
	switch t.kind {
	case tokEOF:
		return "end of expression"
	case tokNum:
		return "number " + t.text
	case tokName:
		return "name " + strconv.Quote(t.text)
	}
	return strconv.Quote(t.text)
}

type exprParser struct {
	src   string
	pos   int
	tok   exprTok
	usesT bool
	err   error
	vars  map[string]float64 // named constants besides pi and e; nil outside ${...}
	arg   string             // the name of the argument: "t" unless set (a cam profile's "u")
}

// maxExprDepth bounds the nesting of an expression, so that hostile input (a fuzzer's
// thousand parentheses) fails with an error instead of exhausting the stack.
const maxExprDepth = 200

func (p *exprParser) errorf(format string, args ...any) error {
	return &ExprError{Offset: p.tok.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *exprParser) next() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(p.src) {
		p.tok = exprTok{kind: tokEOF, pos: start}
		return
	}
	c := p.src[p.pos]
	switch {
	case c >= '0' && c <= '9' || c == '.':
		i := p.pos
		for i < len(p.src) && (p.src[i] >= '0' && p.src[i] <= '9' || p.src[i] == '.') {
			i++
		}
		if i < len(p.src) && (p.src[i] == 'e' || p.src[i] == 'E') {
			k := i + 1
			if k < len(p.src) && (p.src[k] == '+' || p.src[k] == '-') {
				k++
			}
			if k < len(p.src) && p.src[k] >= '0' && p.src[k] <= '9' {
				for k < len(p.src) && p.src[k] >= '0' && p.src[k] <= '9' {
					k++
				}
				i = k
			}
		}
		text := p.src[p.pos:i]
		p.pos = i
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(v, 0) {
			p.tok = exprTok{kind: tokOp, text: text, pos: start}
			p.err = &ExprError{Offset: start, Msg: fmt.Sprintf("malformed number %q", text)}
			return
		}
		p.tok = exprTok{kind: tokNum, text: text, num: v, pos: start}
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		i := p.pos
		for i < len(p.src) && (p.src[i] == '_' || p.src[i] >= 'a' && p.src[i] <= 'z' || p.src[i] >= 'A' && p.src[i] <= 'Z' || p.src[i] >= '0' && p.src[i] <= '9') {
			i++
		}
		p.tok = exprTok{kind: tokName, text: p.src[p.pos:i], pos: start}
		p.pos = i
	case strings.IndexByte("+-*/^()", c) >= 0:
		p.tok = exprTok{kind: tokOp, text: string(c), pos: start}
		p.pos++
	default:
		r := []rune(p.src[p.pos:])[0]
		p.tok = exprTok{kind: tokOp, text: string(r), pos: start}
		p.err = &ExprError{Offset: start, Msg: fmt.Sprintf("unexpected character %q; want a number, t, pi, e, a function (%s), an operator + - * / ^ or parentheses", r, exprFuncs)}
		p.pos = len(p.src)
	}
}

func (p *exprParser) isOp(s string) bool { return p.tok.kind == tokOp && p.tok.text == s }

// expr parses a sum; depth counts the nesting for maxExprDepth.
func (p *exprParser) expr(depth int) (*exprNode, error) {
	if depth > maxExprDepth {
		return nil, p.errorf("expression nested deeper than %d levels", maxExprDepth)
	}
	a, err := p.term(depth)
	if err != nil {
		return nil, err
	}
	for p.isOp("+") || p.isOp("-") {
		op := opAdd
		if p.tok.text == "-" {
			op = opSub
		}
		p.next()
		b, err := p.term(depth)
		if err != nil {
			return nil, err
		}
		a = &exprNode{op: op, a: a, b: b}
	}
	return a, nil
}

func (p *exprParser) term(depth int) (*exprNode, error) {
	a, err := p.unary(depth)
	if err != nil {
		return nil, err
	}
	for p.isOp("*") || p.isOp("/") {
		op := opMul
		if p.tok.text == "/" {
			op = opDiv
		}
		p.next()
		b, err := p.unary(depth)
		if err != nil {
			return nil, err
		}
		a = &exprNode{op: op, a: a, b: b}
	}
	return a, nil
}

func (p *exprParser) unary(depth int) (*exprNode, error) {
	if depth > maxExprDepth {
		return nil, p.errorf("expression nested deeper than %d levels", maxExprDepth)
	}
	if p.isOp("-") || p.isOp("+") {
		neg := p.tok.text == "-"
		p.next()
		a, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		if neg {
			return &exprNode{op: opNeg, a: a}, nil
		}
		return a, nil
	}
	return p.power(depth)
}

func (p *exprParser) power(depth int) (*exprNode, error) {
	a, err := p.atom(depth)
	if err != nil {
		return nil, err
	}
	if p.isOp("^") {
		p.next()
		b, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &exprNode{op: opPow, a: a, b: b}, nil
	}
	return a, nil
}

func (p *exprParser) atom(depth int) (*exprNode, error) {
	if p.err != nil {
		return nil, p.err
	}
	tok := p.tok
	switch tok.kind {
	case tokNum:
		p.next()
		return &exprNode{op: opConst, val: tok.num}, nil
	case tokName:
		p.next()
		if tok.text == p.arg {
			p.usesT = true
			return &exprNode{op: opTime}, nil
		}
		switch tok.text {
		case "pi":
			return &exprNode{op: opConst, val: math.Pi}, nil
		case "e":
			return &exprNode{op: opConst, val: math.E}, nil
		}
		if v, ok := p.vars[tok.text]; ok {
			return &exprNode{op: opConst, val: v}, nil
		}
		if !isExprFunc(tok.text) {
			if p.vars != nil {
				return nil, &ExprError{Offset: tok.pos, Msg: fmt.Sprintf("unknown name %q; want a parameter or repeat variable (%s), pi, e or a function %s", tok.text, varList(p.vars), exprFuncs)}
			}
			return nil, &ExprError{Offset: tok.pos, Msg: fmt.Sprintf("unknown name %q; want %s, pi, e or a function %s", tok.text, p.arg, exprFuncs)}
		}
		if !p.isOp("(") {
			return nil, p.errorf("want \"(\" after function %s, got %s", tok.text, p.tok)
		}
		p.next()
		a, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		if !p.isOp(")") {
			return nil, p.errorf("want \")\" closing %s(, got %s", tok.text, p.tok)
		}
		p.next()
		return &exprNode{op: opCall, fn: tok.text, a: a}, nil
	case tokOp:
		if tok.text == "(" {
			p.next()
			a, err := p.expr(depth + 1)
			if err != nil {
				return nil, err
			}
			if !p.isOp(")") {
				return nil, p.errorf("want \")\", got %s", p.tok)
			}
			p.next()
			return a, nil
		}
	}
	return nil, p.errorf("want a number, t, pi, a function call or \"(\", got %s", tok)
}
