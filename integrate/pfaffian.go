package integrate

import (
	"fmt"
	"slices"
	"strings"

	"linkage/dae"
)

// pfaffian.go: nonholonomic constraints A(t,q) v + b(t,q) = 0 (dae.Nonholonomic; seed 002,
// eq. 44), taken through dae.WithPfaffianRows, which appends the rows to G with their
// multipliers μ after λ. dopri5 and mdop5: their index-1 form adds A a = γ_A to eq. 17,
// the velocity projection (eq. 91) makes A v + b = 0 hold at every accepted step, and the
// position projection (eq. 89) keeps A Δq = 0. bdf and radau5 in the formulations
// pfaffianForms: the first-order form's constraint rows become [G; A] v + [g_t; b] = 0
// (index2, and ggl with g = 0 and −Gᵀμ for the holonomic rows) and so on, their q-derivatives by the form's finite differences of the rows,
// ∂(Aᵀμ)/∂q analytic (dae.Nonholonomic). The other methods refuse such a system at Init,
// naming the capability. With dae.SparseNonholonomic rows the appended system is a
// SparseEvaluator, and hht, bdf, radau5, dopri5 and mdop5 stay on the sparse path (hht
// takes ∂(A v + b)/∂q on the rows' pattern, dae.SparsePfaffianRows; the first-order form
// differences the rows over G's pattern and gives a Pfaffian row's GGL μ its diagonal).

// refuseNonholonomic refuses a system with nonholonomic constraints for a method that does
// not include them: leaving the rows out would integrate a different mechanism.
func refuseNonholonomic(method string, sys dae.System) error {
	if dae.HasNonholonomic(sys) {
		return fmt.Errorf("integrate: %s: %T has nonholonomic constraints A v + b = 0 (dae.Nonholonomic, e.g. a knife edge), which %s does not include; use one of: %s",
			method, sys, method, nonholonomicMethods())
	}
	return nil
}

// withPfaffian returns the system a method with the index-1 form integrates: sys with its
// Pfaffian rows appended to G (dae.WithPfaffianRows), or an error for the capabilities
// that do not combine with them.
func withPfaffian(method string, sys dae.System) (dae.System, error) {
	if err := dae.RefusePfaffianWith("integrate: "+method, sys); err != nil {
		return nil, err
	}
	return dae.WithPfaffianRows(sys), nil
}

// pfaffianForms are the formulations of the first-order form (semiExplicit) that take
// Pfaffian rows: those whose constraint rows are at the velocity or acceleration level,
// where the rows of dae.WithPfaffianRows read A v + b = 0 and A a = γ_A, and ggl, whose
// stabilizer g = 0 takes the holonomic rows only (semiExplicit.ncH). index3 holds g = 0
// alone, whose Pfaffian rows would be 0 = 0 with Jacobian A: not the equations.
var pfaffianForms = []Formulation{StabilizedIndex2, Index2, Index1, Baumgarte, Index2Baumgarte}

// firstOrderEntry completes the registry entry e of a method of the first-order form
// K y' = φ (bdf, radau5): it integrates linearly implicit systems (Entry.Implicit), and
// takes nonholonomic constraints in those of its formulations that take Pfaffian rows
// (pfaffianForms), the test pfaffianForm makes at Init.
func firstOrderEntry(e Entry) Entry {
	e.Implicit = true
	for _, f := range e.Formulations {
		if slices.Contains(pfaffianForms, f) {
			e.Nonholonomic = append(e.Nonholonomic, f)
		}
	}
	return e
}

// firstOrderForm resolves the formulation f of a method of the first-order form (bdf,
// radau5) by its entry (Entry.formulation) and returns it with the system it integrates
// (pfaffianForm).
func (e Entry) firstOrderForm(f Formulation, sys dae.System) (Formulation, dae.System, error) {
	form, err := e.formulation(f)
	if err != nil {
		return "", nil, err
	}
	sys, err = pfaffianForm(e.Name, form, sys)
	return form, sys, err
}

// pfaffianForm returns the system the first-order form in formulation form integrates
// for method: sys with its Pfaffian rows appended (withPfaffian), or an error when form
// cannot take them.
func pfaffianForm(method string, form Formulation, sys dae.System) (dae.System, error) {
	if !dae.HasNonholonomic(sys) {
		return sys, nil
	}
	if !slices.Contains(pfaffianForms, form) {
		return nil, fmt.Errorf("integrate: %s: %T has nonholonomic constraints A v + b = 0 (dae.Nonholonomic, e.g. a knife edge), which the %q formulation does not include (it holds g = 0, which the Pfaffian rows do not have); use one of: %s",
			method, sys, form, nonholonomicMethods())
	}
	return withPfaffian(method, sys)
}

// nonholonomicMethods lists the registered methods that accept nonholonomic constraints,
// with the formulations when not all of the method's take them.
func nonholonomicMethods() string {
	var names []string
	for _, e := range registry() {
		switch {
		case len(e.Nonholonomic) == 0:
		case len(e.Nonholonomic) == len(e.Formulations):
			names = append(names, e.Name)
		default:
			names = append(names, e.Name+" "+formulationList(e.Nonholonomic))
		}
	}
	return strings.Join(names, ", ")
}

// formulationList writes fs as "(f1, f2)".
func formulationList(fs []Formulation) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return "(" + strings.Join(s, ", ") + ")"
}
