package modelfile

import (
	"math"
	"testing"
)

// TestExprDerivatives: value, first and second derivative of expressions against their
// closed forms (exact up to rounding: a few ulps of the terms, hence 1e-13 relative).
func TestExprDerivatives(t *testing.T) {
	cases := []struct {
		src       string
		f, df, dd func(t float64) float64
	}{
		{"0.1*sin(2*pi*t)",
			func(t float64) float64 { return 0.1 * math.Sin(2*math.Pi*t) },
			func(t float64) float64 { return 0.2 * math.Pi * math.Cos(2*math.Pi*t) },
			func(t float64) float64 { return -0.4 * math.Pi * math.Pi * math.Sin(2*math.Pi*t) }},
		{"-t^2 + 3*t - 1",
			func(t float64) float64 { return -t*t + 3*t - 1 },
			func(t float64) float64 { return -2*t + 3 },
			func(t float64) float64 { return -2 }},
		{"exp(-t)/(1+t)",
			func(t float64) float64 { return math.Exp(-t) / (1 + t) },
			func(t float64) float64 { return -math.Exp(-t) * (2 + t) / ((1 + t) * (1 + t)) },
			func(t float64) float64 {
				return math.Exp(-t) * (t*t + 4*t + 5) / ((1 + t) * (1 + t) * (1 + t))
			}},
		{"sqrt(1+t*t)",
			func(t float64) float64 { return math.Sqrt(1 + t*t) },
			func(t float64) float64 { return t / math.Sqrt(1+t*t) },
			func(t float64) float64 { return math.Pow(1+t*t, -1.5) }},
		{"cos(t)^3",
			func(t float64) float64 { return math.Pow(math.Cos(t), 3) },
			func(t float64) float64 { return -3 * math.Pow(math.Cos(t), 2) * math.Sin(t) },
			func(t float64) float64 {
				c, s := math.Cos(t), math.Sin(t)
				return 6*c*s*s - 3*c*c*c
			}},
		{"2^t", // general power: exp(t log 2)
			func(t float64) float64 { return math.Pow(2, t) },
			func(t float64) float64 { return math.Ln2 * math.Pow(2, t) },
			func(t float64) float64 { return math.Ln2 * math.Ln2 * math.Pow(2, t) }},
		{"log(2+tan(t/4))",
			func(t float64) float64 { return math.Log(2 + math.Tan(t/4)) },
			func(t float64) float64 {
				s := 1 + math.Pow(math.Tan(t/4), 2)
				return s / 4 / (2 + math.Tan(t/4))
			},
			nil},
		{"asin(t/2) + acos(t/3)",
			func(t float64) float64 { return math.Asin(t/2) + math.Acos(t/3) },
			func(t float64) float64 { return 0.5/math.Sqrt(1-t*t/4) - 1/(3*math.Sqrt(1-t*t/9)) },
			func(t float64) float64 { return t/8*math.Pow(1-t*t/4, -1.5) - t/27*math.Pow(1-t*t/9, -1.5) }},
		{"atan(2*t)",
			func(t float64) float64 { return math.Atan(2 * t) },
			func(t float64) float64 { return 2 / (1 + 4*t*t) },
			func(t float64) float64 { return -16 * t / ((1 + 4*t*t) * (1 + 4*t*t)) }},
		{"-2^2", // unary minus binds looser than ^
			func(float64) float64 { return -4 },
			func(float64) float64 { return 0 },
			func(float64) float64 { return 0 }},
		{"1.5e-1*t", func(t float64) float64 { return 0.15 * t }, func(float64) float64 { return 0.15 }, func(float64) float64 { return 0 }},
	}
	for _, c := range cases {
		e, err := ParseExpr(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		for _, tt := range []float64{0, 0.3, 1.7} {
			f, df, dd := e.Eval(tt)
			check := func(what string, got, want float64) {
				if math.Abs(got-want) > 1e-13*math.Max(1, math.Abs(want)) {
					t.Errorf("%s at t=%g: %s = %.17g, want %.17g", c.src, tt, what, got, want)
				}
			}
			check("f", f, c.f(tt))
			check("f'", df, c.df(tt))
			if c.dd != nil {
				check("f''", dd, c.dd(tt))
			} else {
				// Central difference of f' (step 1e-5: error ~ 1e-10·f'''' + 1e-16/1e-5).
				h := 1e-5
				_, dp, _ := e.Eval(tt + h)
				_, dm, _ := e.Eval(tt - h)
				if fd := (dp - dm) / (2 * h); math.Abs(dd-fd) > 1e-8 {
					t.Errorf("%s at t=%g: f'' = %.12g, central difference %.12g", c.src, tt, dd, fd)
				}
			}
		}
	}
}

func TestExprErrors(t *testing.T) {
	for src, off := range map[string]int{"": 0, "2*": 2, "sin t": 4, "(t": 2, "t)": 1, "3 $ t": 2, "foo(t)": 0, "1e999": 0, "t t": 2} {
		_, err := ParseExpr(src)
		pe, ok := err.(*ExprError)
		if !ok {
			t.Errorf("%q: error %v, want an *ExprError", src, err)
			continue
		}
		if pe.Offset != off {
			t.Errorf("%q: error at offset %d (%v), want %d", src, pe.Offset, pe, off)
		}
	}
}

// TestExprNoAlloc: evaluation runs in every step of a driven model.
func TestExprNoAlloc(t *testing.T) {
	e, err := ParseExpr("0.1*sin(2*pi*t) + t^3/(1+exp(-t))")
	if err != nil {
		t.Fatal(err)
	}
	var sink float64
	if n := testing.AllocsPerRun(100, func() { f, df, dd := e.Eval(0.4); sink += f + df + dd }); n != 0 {
		t.Errorf("Expr.Eval allocates %v times per call, want 0", n)
	}
	_ = sink
}
