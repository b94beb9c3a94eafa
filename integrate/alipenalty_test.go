package integrate

import (
	"math"
	"testing"
)

// TestRaisePenalty: after a failed attempt whose multiplier iteration contracted at rate θ,
// the index-3 penalty becomes the α whose rate m/(m + αh²σ/4) is aliTargetRate, i.e.
// α·(1/aliTargetRate − 1)/(1/θ − 1), capped at alphaMax; a growing iteration (θ ≥ 1), a
// fast one (θ ≤ aliSlowRate), index 1 and a penalty at the cap are left alone.
func TestRaisePenalty(t *testing.T) {
	for _, c := range []struct {
		index     int
		alpha, th float64
		raised    bool
		want      float64
	}{
		{3, 1e7, 0.988, true, 1e7 * 9 / (1/0.988 - 1)}, // the crank at h = 1e-5
		{3, 1e7, 0.9, true, 1e7 * 81},                  // the stiff chain at h = 1e-4
		{3, 1e11, 0.999, true, 1e12},                   // capped
		{3, 1e12, 0.9, false, 1e12},
		{3, 1e7, 0.4, false, 1e7},
		{3, 1e7, 1.2, false, 1e7},
		{1, 1e7, 0.9, false, 1e7},
	} {
		w := &aliWork{index: c.index, alpha: 1e7, alpha3: c.alpha, alphaMax: 1e12, stop: &aliStop{theta: c.th}}
		got := w.raisePenalty()
		if got != c.raised || math.Abs(w.alpha3-c.want) > 1e-9*c.want {
			t.Errorf("index %d, α %g, θ %g: raised %v to %g, want %v to %g", c.index, c.alpha, c.th, got, w.alpha3, c.raised, c.want)
		}
		if c.index == 1 && w.penalty() != w.alpha {
			t.Errorf("index 1 corrector uses α = %g, want %g", w.penalty(), w.alpha)
		}
	}
}
