package integrate

import (
	"fmt"
	"strings"

	"linkage/dae"
)

// pfaffian.go: nonholonomic constraints A(t,q) v + b(t,q) = 0 (dae.Nonholonomic; seed 002,
// eq. 44). dopri5 and mdop5 take them through dae.WithPfaffianRows: their index-1 form
// adds the rows A a = γ_A to eq. 17 with multipliers μ, and the velocity projection
// (eq. 91) makes A v + b = 0 hold at every accepted step; the position projection (eq. 89)
// keeps A Δq = 0. The other methods refuse such a system at Init, naming the capability.

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

// nonholonomicMethods lists the registered methods that accept nonholonomic constraints.
func nonholonomicMethods() string {
	var names []string
	for _, e := range registry() {
		if e.Nonholonomic {
			names = append(names, e.Name)
		}
	}
	return strings.Join(names, ", ")
}
