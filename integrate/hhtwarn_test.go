package integrate

import (
	"strings"
	"testing"
)

// TestHHTWarnsWhereTheRMSHidesTheError: hht's step test bounds the weighted RMS of its
// error estimate δ_q (seed 004, eqs. 35-36) over all coordinates. On the joint route's 3D
// chain of 400 slender rods turning at 1 rad/s the error concentrates in the joint angles
// at the front that travels out from the hanging point, and an accepted step's estimate
// reaches more than 10 × tol in one angle (25 × measured in the step to t = 5.1e-3 s,
// BenchmarkChain3DHHTLocalError in joint): the run warns, naming that angle. A system
// of fewer than 100 coordinates cannot warn (a component is at most √nq times the RMS),
// and with FixedH there is no estimate and no warning.
func TestHHTWarnsWhereTheRMSHidesTheError(t *testing.T) {
	ctl := StepControl{RTol: 1e-6, ATol: 1e-6}
	chain, cs := jointChain3D(t, 400, 0.01, 0)
	m := DefaultHHT()
	runTo(t, &m, chain, cs, 0.006, ctl)
	w := m.ControlWarnings()
	t.Logf("3D chain of 400 rods: peak %.3g × tol in %d, %d steps; %q", m.w.peak, m.w.peakIdx, m.Stats().Steps, w)
	if !(m.w.peak > 2*localPeakRatio) || len(w) != 1 || !strings.Contains(w[0], "tol bounds that RMS") || !strings.Contains(w[0], ".y") {
		t.Errorf("400 rods: peak %.3g × tol, warnings %q: want a peak above %d × tol in a y angle and one warning", m.w.peak, w, 2*localPeakRatio)
	}

	m = DefaultHHT()
	runTo(t, &m, chain, cs, 0.002, StepControl{FixedH: 5e-4})
	if w := m.ControlWarnings(); len(w) != 0 {
		t.Errorf("FixedH: warnings %q, want none (no error control)", w)
	}

	small, ss := jointChain3D(t, 10, 0.01, 0)
	m = DefaultHHT()
	runTo(t, &m, small, ss, 0.15, ctl)
	t.Logf("3D chain of 10 rods: peak %.3g × tol, %d steps", m.w.peak, m.Stats().Steps)
	if w := m.ControlWarnings(); len(w) != 0 || !(m.w.peak > 1) {
		t.Errorf("10 rods: peak %.3g × tol, warnings %q: want a peak above tol (the RMS lets components pass it) and no warning", m.w.peak, w)
	}
}
