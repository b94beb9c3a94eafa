package integrate

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"linkage/joint"
)

// pendulumRow is n bars (1 m, 1 kg) on revolute joints about z at x = 0, 1, …, n−1 m,
// hanging at rest under gravity −y but the first, released amp rad off the vertical: the
// rest stay in equilibrium (a = 0, no error), so the whole error estimate of a step sits
// in the first pendulum's angle and angular velocity.
func pendulumRow(t *testing.T, n int, amp float64) (*joint.System, State) {
	t.Helper()
	md := &joint.Model{Gravity: [3]float64{0, -9.81, 0}}
	for i := range n {
		md.Revolute(fmt.Sprint("pin", i+1), joint.Ground, [3]float64{float64(i), 0, 0}, [3]float64{0, 0, 1}, rod(fmt.Sprint("bar", i+1), 1, 0.3))
	}
	return jointStart(t, md, func(s State) {
		for i := range s.Q {
			s.Q[i] = -math.Pi / 2
		}
		s.Q[0] += amp
	})
}

// TestErrorPeakWarnings: hht, genalpha, bdf and radau5 bound the weighted RMS of their
// error estimates over all components (errorPeak), so on a row of 400 pendulums of which
// one swings, the swinging one's component passes at up to √n × tol: each method's
// estimate reached 18.8-23.3 × tol in pin1's angle (hht, genalpha) or angular velocity
// (bdf, radau5) at tol 1e-6 over 0.5 s (measured), and each warns once, naming it. With
// 30 pendulums (at most 90 components in a method's RMS) no component can pass
// 10 × tol and none warns; with FixedH there is no estimate and no warning.
func TestErrorPeakWarnings(t *testing.T) {
	type warner interface {
		Method
		ControlWarner
	}
	methods := []struct {
		name string
		new  func() warner
		peak func(warner) *errorPeak
		what string // the component the peak is in
	}{
		{"hht", func() warner { m := DefaultHHT(); return &m }, func(m warner) *errorPeak { return &m.(*HHT).w.errorPeak }, "of pin1 in"},
		{"genalpha", func() warner { m := DefaultGenAlpha(); return &m }, func(m warner) *errorPeak { return &m.(*GenAlpha).w.errorPeak }, "of pin1 in"},
		{"bdf", func() warner { return &BDF{} }, func(m warner) *errorPeak { return &m.(*BDF).w.errorPeak }, "of the velocity of pin1 in"},
		{"radau5", func() warner { return &Radau5{} }, func(m warner) *errorPeak { return &m.(*Radau5).w.errorPeak }, "of the velocity of pin1 in"},
	}
	ctl := StepControl{RTol: 1e-6, ATol: 1e-6}
	row, rs := pendulumRow(t, 400, 1)
	small, ss := pendulumRow(t, 30, 1)
	for _, c := range methods {
		m := c.new()
		runTo(t, m, row, rs, 0.5, ctl)
		p := c.peak(m)
		w := m.ControlWarnings()
		t.Logf("%s, 400 pendulums: peak %.3g × tol in %d at t = %.4g, %d steps", c.name, p.peak, p.peakIdx, p.peakT, m.Stats().Steps)
		if !(p.peak > 1.5*localPeakRatio) || len(w) != 1 || !strings.HasPrefix(w[0], c.name+": ") ||
			!strings.Contains(w[0], c.what) || !strings.Contains(w[0], "tol bounds that RMS") {
			t.Errorf("%s, 400 pendulums: peak %.3g × tol, warnings %q: want a peak above %g × tol in pin1 and one warning naming it",
				c.name, p.peak, w, 1.5*localPeakRatio)
		}

		m = c.new()
		runTo(t, m, small, ss, 0.5, ctl)
		p = c.peak(m)
		t.Logf("%s, 30 pendulums: peak %.3g × tol, %d steps", c.name, p.peak, m.Stats().Steps)
		if w := m.ControlWarnings(); len(w) != 0 || !(p.peak > 1) {
			t.Errorf("%s, 30 pendulums: peak %.3g × tol, warnings %q: want a peak above tol (the RMS lets a component pass it) and no warning", c.name, p.peak, w)
		}

		m = c.new()
		runTo(t, m, row, rs, 0.05, StepControl{FixedH: 5e-3})
		if w := m.ControlWarnings(); len(w) != 0 {
			t.Errorf("%s, FixedH: warnings %q, want none (no error control)", c.name, w)
		}
	}
}
