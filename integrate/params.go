package integrate

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Param is a method parameter users may set (model file simulation.method_options, CLI
// --method-option): the numerical damping of the α-methods and the penalty of the
// augmented Lagrangian, the settings that trade accuracy against stability.
type Param struct {
	Name     string  // as users write it, e.g. "alpha"
	Doc      string  // what it is, with the seed's equation
	Min, Max float64 // the closed range of valid values
	Default  float64
	set      func(m Method, v float64)
}

// Range is the valid range as users read it in errors.
func (p Param) Range() string { return fmt.Sprintf("[%.4g, %.4g]", p.Min, p.Max) }

// NewMethodWith is NewMethod with the parameters opts (name → value) set on the method.
// A name e does not have, or a value outside its Param's range, is an error naming both
// and what is allowed.
func (e Entry) NewMethodWith(f Formulation, opts map[string]float64) (Method, error) {
	if err := e.CheckParams(opts); err != nil {
		return nil, err
	}
	m, err := e.NewMethod(f)
	if err != nil {
		return nil, err
	}
	for _, p := range e.Params {
		if v, ok := opts[p.Name]; ok {
			p.set(m, v)
		}
	}
	return m, nil
}

// CheckParams validates opts against e.Params without building the method.
func (e Entry) CheckParams(opts map[string]float64) error {
	names := make([]string, 0, len(opts))
	for k := range opts {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p, ok := e.param(k)
		if !ok {
			return fmt.Errorf("integrate: method %s has no parameter %q; %s", e.Name, k, e.paramList())
		}
		if v := opts[k]; math.IsNaN(v) || v < p.Min || v > p.Max {
			return fmt.Errorf("integrate: method %s: %s = %g outside %s (%s)", e.Name, k, v, p.Range(), p.Doc)
		}
	}
	return nil
}

func (e Entry) param(name string) (Param, bool) {
	for _, p := range e.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// paramList says which parameters e takes, for errors.
func (e Entry) paramList() string {
	if len(e.Params) == 0 {
		return "it takes none"
	}
	var s []string
	for _, p := range e.Params {
		s = append(s, p.Name+" in "+p.Range())
	}
	return "it takes: " + strings.Join(s, ", ")
}

// The parameters of the registered methods. newmark has none: it is the α-method with
// ρ∞ = 1 (α_m = α_f = 0); genalpha with rho_inf is the damped one.
var (
	hhtAlphaParam = Param{
		Name: "alpha", Doc: "HHT damping α, seed 004 eq. 6; 0 conserves energy, -1/3 damps most",
		Min: -1.0 / 3, Max: 0, Default: DefaultHHTAlpha,
		set: func(m Method, v float64) { m.(*HHT).Alpha = v },
	}
	genAlphaRhoParam = Param{
		Name: "rho_inf", Doc: "spectral radius at infinity ρ∞, seed 003 eq. 4.2; 1 no damping, 0 the most",
		Min: 0, Max: 1, Default: DefaultRhoInf,
		set: func(m Method, v float64) { m.(*GenAlpha).Params, _ = GenAlphaFromRhoInf(v) },
	}
	daeAlphaRhoParam = Param{
		Name: "rho_inf", Doc: genAlphaRhoParam.Doc,
		Min: 0, Max: 1, Default: DefaultRhoInf,
		set: func(m Method, v float64) { m.(*DAEAlpha).RhoInf = v },
	}
	ali3PenaltyParam = Param{
		Name: "penalty", Doc: "augmented Lagrangian penalty α relative to the mean mass, seed 001 eqs. 5-9",
		Min: MinPenalty, Max: MaxPenalty, Default: DefaultPenalty,
		set: func(m Method, v float64) { m.(*ALI3).Alpha = v },
	}
	radauRegEpsParam = Param{
		Name: "reg_eps", Doc: "radau5's singular-mode regularization ε of the multiplier rows, relative to the Schur complement's diagonal",
		Min: 1e-20, Max: 1e-2, Default: radauRegEps,
		set: func(m Method, v float64) { m.(*Radau5).RegEps = v },
	}
	ali1PenaltyParam = Param{
		Name: "penalty", Doc: ali3PenaltyParam.Doc,
		Min: MinPenalty, Max: MaxPenalty, Default: DefaultPenalty,
		set: func(m Method, v float64) { m.(*ALI1).Alpha = v },
	}
)
