package integrate

import (
	"fmt"
	"slices"
	"strings"
)

// Formulation names the form of the equations of motion a method integrates (seed 002,
// section 4.2).
type Formulation string

// The formulations of seed 002, section 4.2, and seed 000.
const (
	Index3           Formulation = "index3"           // g(q) = 0 (eq. 16)
	Index2           Formulation = "index2"           // G v + g_t = 0 (eq. 79)
	StabilizedIndex2 Formulation = "ggl"              // g = 0 and G v + g_t = 0 with −Gᵀμ (eq. 92)
	Index1           Formulation = "index1"           // G a = γ (eq. 84)
	Index1Projected  Formulation = "index1-proj"      // eq. 84 with projections eqs. 89, 91
	Baumgarte        Formulation = "baumgarte"        // G a − γ + 2α(G v + g_t) + β g = 0 (seed 000, eq. 5)
	Index2Baumgarte  Formulation = "index2-baumgarte" // G v + g_t + α₀ g = 0, α₀ = C/h (seed 002, eq. 87)
	StateSpace       Formulation = "state-space"      // ODE in independent coordinates by coordinate partitioning (seed 000, eqs. 9-15)
)

// Order is the convergence order a method attains on smooth problems, per block; the
// conformance tests assert these.
type Order struct{ Q, V, Lambda int }

// Entry describes a registered method.
type Entry struct {
	Name         string        // registry name, as on the command line
	Title        string        // one line
	Seed         string        // the seed paper, e.g. "002"
	Equations    string        // the equations of the seed it implements
	Formulations []Formulation // the first is the default
	Order        Order
	Adaptive     bool // has error control (else fixed step only)
	// Tolerance says what tol bounds when it is not the local error of q and v
	// (multi-index: the change of the energy invariant per step); "" for the others.
	Tolerance string
	// States: the method integrates the first-order states X of a dae.FirstOrder system
	// (seed 004, eq. 8a); a method without it refuses such a system in Init.
	States bool
	// Lie: the method also integrates a dae.LieSystem (configuration on a Lie group) through
	// NewLieMethod; the others are refused there, naming the capability.
	Lie bool
	// Implicit: the method integrates a linearly implicit system K y' = φ(t, y)
	// (dae.LinearlyImplicit, K full or state-dependent with dae.ImplicitMass) through
	// ImplicitMethod; SolveImplicit refuses the others.
	Implicit bool
	// ReactionForces: the method includes forces that depend on the multipliers
	// (dae.ReactionForce, e.g. joint friction) in its residual and Newton matrix; a method
	// without it refuses such a system in Init.
	ReactionForces bool
	// ReactionRefused: the formulations of a method with ReactionForces that refuse such
	// systems all the same, naming the capability (their equations have no multipliers to
	// press the forces).
	ReactionRefused []Formulation
	// Nonholonomic: the formulations in which the method includes nonholonomic
	// constraints A(t,q) v + b = 0 (dae.Nonholonomic, e.g. a knife edge), with their
	// multipliers μ after λ in State.Lambda; in the others, and in every formulation of a
	// method with none, it refuses such a system in Init.
	Nonholonomic []Formulation
	// Params are the parameters users may set (NewMethodWith); nil: none.
	Params []Param
	New    func() Method // a method with default settings
}

// variant is e under another name, title and equations, made by newMethod: the entry of a
// method that shares what e states (seed, formulations, order, capabilities) because it
// runs e's code with other settings (mdop5, gcp-fv), shares e's form of the equations
// (hedop5, rk4, lie-genalpha), or belongs to the family e describes (aliFamily); the caller
// changes what differs (Entry.in, Entry.constantStep, fields).
func (e Entry) variant(name, title, equations string, newMethod func() Method) Entry {
	e.Name, e.Title, e.Equations, e.New = name, title, equations, newMethod
	return e
}

// in is e, a variant of another method's entry (Entry.variant), in the formulations forms
// (the first the default) with the options params.
func (e Entry) in(params []Param, forms ...Formulation) Entry {
	e.Formulations, e.Params = forms, params
	return e
}

// constantStep is e, a variant of another method's entry (Entry.variant), for a method of
// the given order with constant steps only (StepControl.FixedH; no error control).
func (e Entry) constantStep(order Order) Entry {
	e.Order, e.Adaptive = order, false
	return e
}

// formulated is implemented by methods that integrate more than one formulation: each
// embeds its Formulation option and so has Formulation.setFormulation.
type formulated interface {
	setFormulation(f Formulation)
}

// setFormulation sets the Formulation option of a method that embeds it (formulated).
func (f *Formulation) setFormulation(g Formulation) { *f = g }

// NewMethod returns e's method with default settings integrating formulation f; the empty
// f selects the default (the first of e.Formulations). An f that e does not support is an
// error listing those it does.
func (e Entry) NewMethod(f Formulation) (Method, error) {
	m := e.New()
	if f == "" || f == e.Formulations[0] {
		return m, nil
	}
	if !slices.Contains(e.Formulations, f) {
		return nil, fmt.Errorf("integrate: method %s does not support formulation %q; it supports: %s", e.Name, f, e.formulationNames())
	}
	fm, ok := m.(formulated)
	if !ok {
		panic("integrate: " + e.Name + " lists several formulations but cannot be set to one")
	}
	fm.setFormulation(f)
	return m, nil
}

// formulation resolves the Formulation option of e's method: the empty f is the default, the
// first of e.Formulations; one that e does not list is refused, naming those it does. It is
// the one place a method's Init checks its formulation, so the check and the registry list
// cannot disagree.
func (e Entry) formulation(f Formulation) (Formulation, error) {
	if f == "" {
		return e.Formulations[0], nil
	}
	if slices.Contains(e.Formulations, f) {
		return f, nil
	}
	return "", fmt.Errorf("integrate: %s: Formulation %q not supported; want one of %s", e.Name, f, e.formulationNames())
}

// formulationNames lists e.Formulations for an error message, comma separated.
func (e Entry) formulationNames() string {
	names := make([]string, len(e.Formulations))
	for i, g := range e.Formulations {
		names[i] = string(g)
	}
	return strings.Join(names, ", ")
}

// registry lists the methods in the order `linkage methods` prints them. Each method file
// defines its entry next to its code; adding a method means adding it here.
func registry() []Entry {
	return []Entry{
		dopri5Entry,
		mdop5Entry,
		hedop5Entry,
		hhtEntry,
		genAlphaEntry,
		genAlphaSI2Entry,
		lieGenAlphaEntry,
		daeAlphaEntry,
		newmarkEntry,
		radau5Entry,
		bdfEntry,
		gcpNewmarkEntry,
		gcpFVEntry,
		gcpABMEntry,
		rk4Entry,
		ali3Entry,
		ali1Entry,
		multiIndexEntry,
	}
}

// Methods returns the registered methods.
func Methods() []Entry {
	return registry()
}

// Lookup returns the entry called name, or an error listing the valid names.
func Lookup(name string) (Entry, error) {
	var names []string
	for _, e := range registry() {
		if e.Name == name {
			return e, nil
		}
		names = append(names, e.Name)
	}
	return Entry{}, fmt.Errorf("integrate: unknown method %q; valid methods: %s", name, strings.Join(names, ", "))
}
