package integrate

import (
	"math"
	"strings"
	"testing"
)

// TestParamsReachMethod: every registered parameter set through NewMethodWith lands in the
// method's field, in every formulation of the entry; the defaults are the methods'.
func TestParamsReachMethod(t *testing.T) {
	read := map[string]func(Method) float64{
		"hht":          func(m Method) float64 { return m.(*HHT).Alpha },
		"genalpha":     func(m Method) float64 { return rhoInfOf(m.(*GenAlpha).Params) },
		"genalpha-si2": func(m Method) float64 { return rhoInfOf(m.(*GenAlpha).Params) },
		"daealpha":     func(m Method) float64 { return m.(*DAEAlpha).RhoInf },
		"ali3":         func(m Method) float64 { return m.(*ALI3).Alpha },
		"ali1":         func(m Method) float64 { return m.(*ALI1).Alpha },
		"radau5":       func(m Method) float64 { return m.(*Radau5).RegEps },
	}
	for _, e := range Methods() {
		get, ok := read[e.Name]
		if !ok {
			if len(e.Params) != 0 {
				t.Errorf("%s: parameters %v not covered by this test", e.Name, e.Params)
			}
			continue
		}
		if len(e.Params) != 1 {
			t.Fatalf("%s: %d parameters, want 1", e.Name, len(e.Params))
		}
		p := e.Params[0]
		if p.Name != "penalty" && p.Name != "reg_eps" { // ali's and radau5's zero fields mean the default
			m, _ := e.NewMethod("")
			if got := get(m); math.Abs(got-p.Default) > 1e-12 {
				t.Errorf("%s: default %s = %g, Param.Default %g", e.Name, p.Name, got, p.Default)
			}
		}
		for _, f := range e.Formulations {
			for _, v := range []float64{p.Min, (p.Min + p.Max) / 2, p.Max} {
				m, err := e.NewMethodWith(f, map[string]float64{p.Name: v})
				if err != nil {
					t.Fatalf("%s %s %s=%g: %v", e.Name, f, p.Name, v, err)
				}
				if got := get(m); math.Abs(got-v) > 1e-12*math.Max(1, math.Abs(v)) {
					t.Errorf("%s %s: %s = %g set, method has %g", e.Name, f, p.Name, v, got)
				}
			}
		}
	}
}

// rhoInfOf inverts GenAlphaFromRhoInf's α_f = ρ∞/(ρ∞ + 1).
func rhoInfOf(p GenAlphaParams) float64 { return p.AlphaF / (1 - p.AlphaF) }

// TestParamsRefused: a value outside the range, NaN, or a name the method lacks is refused
// with the name, the value and what is allowed.
func TestParamsRefused(t *testing.T) {
	for _, c := range []struct {
		method string
		opts   map[string]float64
		want   []string
	}{
		{"hht", map[string]float64{"alpha": 0.1}, []string{"alpha = 0.1 outside [-0.3333, 0]"}},
		{"hht", map[string]float64{"alpha": -0.5}, []string{"alpha = -0.5 outside"}},
		{"hht", map[string]float64{"alpha": math.NaN()}, []string{"alpha = NaN outside"}},
		{"genalpha", map[string]float64{"rho_inf": 1.5}, []string{"rho_inf = 1.5 outside [0, 1]"}},
		{"ali3", map[string]float64{"penalty": 10}, []string{"penalty = 10 outside [1e+04, 1e+12]"}},
		{"genalpha", map[string]float64{"alpha": -0.1}, []string{`no parameter "alpha"`, "rho_inf in [0, 1]"}},
		{"bdf", map[string]float64{"alpha": -0.1}, []string{`no parameter "alpha"; it takes none`}},
		{"newmark", map[string]float64{"rho_inf": 1}, []string{"method newmark has no parameter"}},
	} {
		e, err := Lookup(c.method)
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.NewMethodWith("", c.opts)
		if err == nil {
			t.Errorf("%s %v accepted", c.method, c.opts)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s %v: %v\nwant it to contain %q", c.method, c.opts, err, w)
			}
		}
	}
}
