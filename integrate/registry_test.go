package integrate

import (
	"strings"
	"testing"
)

func TestEntryNewMethodFormulation(t *testing.T) {
	e, err := Lookup("dopri5")
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.NewMethod(Index1)
	if err != nil {
		t.Fatal(err)
	}
	if f := m.(*DOPRI5).Formulation; f != Index1 {
		t.Errorf("dopri5 NewMethod(index1) has Formulation %q", f)
	}
	if _, err := e.NewMethod(Index3); err == nil || !strings.Contains(err.Error(), "index1-proj, index1") {
		t.Errorf("dopri5 NewMethod(index3): error %v, want one listing the supported formulations", err)
	}
	n, _ := Lookup("newmark")
	m, err = n.NewMethod(Index3)
	if err != nil || m.(*GenAlpha).Formulation != Index3 {
		t.Errorf("newmark NewMethod(index3): %v, %v", m, err)
	}
}

func TestLookupListsMethods(t *testing.T) {
	_, err := Lookup("rk45")
	if err == nil || !strings.Contains(err.Error(), "dopri5") || !strings.Contains(err.Error(), "hht") {
		t.Errorf("Lookup(rk45): %v, want an error listing the methods", err)
	}
}
