package integrate

import (
	"fmt"
	"slices"
	"strings"
)

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
