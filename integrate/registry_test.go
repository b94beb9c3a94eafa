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

// TestInitChecksEntryFormulations: the methods whose Init checks the Formulation option
// against their registry entry refuse one the entry does not list, naming it and the ones
// it does, and take the entry's first as the default.
func TestInitChecksEntryFormulations(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	start := pendulumStart(p, 0.5, 0)
	ctl := StepControl{RTol: 1e-6, ATol: 1e-6}
	for _, c := range []struct {
		e Entry
		m Method
	}{
		{bdfEntry, &BDF{Formulation: CoordinateSplit}},
		{radau5Entry, &Radau5{Formulation: CoordinateSplit}},
		{daeAlphaEntry, &DAEAlpha{Formulation: Baumgarte}},
	} {
		err := c.m.Init(p, start, ctl)
		if err == nil || !strings.Contains(err.Error(), "not supported; want one of "+c.e.formulationNames()) {
			t.Errorf("%s: Init with a formulation it lacks: %v, want a refusal listing %s", c.e.Name, err, c.e.formulationNames())
		}
	}
	for _, e := range registry() {
		if f, err := e.formulation(""); err != nil || f != e.Formulations[0] {
			t.Errorf("%s: default formulation %q, %v; want %q", e.Name, f, err, e.Formulations[0])
		}
		if _, err := e.formulation("no-such-form"); err == nil || !strings.Contains(err.Error(), `"no-such-form"`) {
			t.Errorf("%s: unknown formulation: %v, want a refusal naming it", e.Name, err)
		}
	}
}
