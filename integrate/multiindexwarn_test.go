package integrate

import (
	"strings"
	"testing"
)

// TestMultiIndexWarnsWhereItsScaleIsBlind: multi-index's estimate is the change of Π per
// step relative to the energy scale E (seed 001, eqs. 11-14). On the joint route's 3D
// chain of 30 slender rods turning at 1 rad/s E is the rotation's kinetic energy, 162
// times (measured) the largest change X of T and V over 0.05 s (the sag), and the run
// warns (100 rods over 0.1 s: 445 times, the error 1.4e-3 rad at tol 1e-4 and 1e-5, 1.0e-3
// at 1e-6; BenchmarkMultiIndexTolerance in joint); on the planar chain of 3 bars released
// from the horizontal X is E itself and the run does not warn. With FixedH there is no
// estimate and no warning.
func TestMultiIndexWarnsWhereItsScaleIsBlind(t *testing.T) {
	ctl := StepControl{RTol: 1e-4, ATol: 1e-4}
	chain, cs := jointChain3D(t, 30, 0.01, 0)
	m := &MultiIndex{}
	runTo(t, m, chain, cs, 0.05, ctl)
	e, x := m.EnergyScale(), m.EnergyVariation()
	w := m.ControlWarnings()
	t.Logf("3D chain of 30 rods: E = %.4g J, X = %.4g J, E/X = %.3g; %d steps; %q", e, x, e/x, m.Stats().Steps, w)
	if !(e > weakScaleRatio*x) || len(w) != 1 || !strings.Contains(w[0], "tol may not bound the error") {
		t.Errorf("3D chain: E = %.4g J, X = %.4g J, warnings %q: want one warning that tol may not bound the error", e, x, w)
	}

	bars, bs := jointChainPlanar(t, 3)
	m = &MultiIndex{}
	runTo(t, m, bars, bs, 0.5, ctl)
	e, x = m.EnergyScale(), m.EnergyVariation()
	t.Logf("planar chain of 3 bars: E = %.4g J, X = %.4g J; %d steps", e, x, m.Stats().Steps)
	if w := m.ControlWarnings(); len(w) != 0 || !(x > 0.5*e) {
		t.Errorf("planar chain: E = %.4g J, X = %.4g J, warnings %q: want X near E and no warning", e, x, w)
	}

	m = &MultiIndex{}
	runTo(t, m, chain, cs, 0.005, StepControl{FixedH: 1e-3})
	if w := m.ControlWarnings(); len(w) != 0 {
		t.Errorf("FixedH: warnings %q, want none (no error control)", w)
	}
}
