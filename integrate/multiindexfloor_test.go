package integrate

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestMultiIndexFloorWatch: the rule of Fig. 4 fed rejections in one Step. An estimate
// that keeps e_rel = 1.5 U_r while the cuts take h from 1e-3 s down (a floor: the stiff
// chain's switch to index 1 before projectForIndex1 kept 1.5e-4 of E at U_r = 6e-5 from
// 2.5e-4 s to 1e-14 s) is reported as ErrEstimateFloor once h has fallen by floorSpan,
// naming the floor and the tolerance that passes it; an estimate falling as h³ (the
// trapezoidal rule's ΔΠ) is never reported, and an accepted step closes the watch.
func TestMultiIndexFloorWatch(t *testing.T) {
	const upper = 1e-4
	rule := func() *multiRule {
		return &multiRule{w: &aliWork{index: 1, energy: &energyMeter{scaleTry: 1}}, upper: upper, lower: upper / lowerRatio,
			minShrink: 0.2, maxGrow: 5, maxRed: 3, switchStep: 1e-4}
	}

	r := rule()
	h, cuts := 1e-3, 0
	for ; cuts < 60 && r.floor() == nil; cuts++ {
		if r.judge(h, 1.5, 0) {
			t.Fatalf("e = 1.5 accepted at h = %g", h)
		}
		h = r.size()
	}
	err := r.floor()
	t.Logf("floor after %d cuts, h = %.3g: %v", cuts, h, err)
	if !errors.Is(err, ErrEstimateFloor) || !strings.Contains(err.Error(), "0.00015") {
		t.Fatalf("constant estimate: %v after %d cuts, want ErrEstimateFloor naming the floor 1.5e-4", err, cuts)
	}
	if !(h < 1e-3/floorSpan && h > 1e-3/floorSpan/10) {
		t.Errorf("reported at h = %.3g, want within a decade below %g (the first span)", h, 1e-3/floorSpan)
	}

	r = rule()
	h = 1e-3
	for cuts = 0; cuts < 60; cuts++ {
		e := 1e3 * math.Pow(h/1e-3, 3) // e_rel = 0.1 at 1e-3 s, passing near 2e-4 s
		if r.judge(h, e, 0) {
			break
		}
		if r.floor() != nil {
			t.Fatalf("h³ estimate reported as a floor at h = %.3g: %v", h, r.floor())
		}
		h = r.size()
	}
	if cuts == 60 {
		t.Fatalf("h³ estimate never accepted, h = %.3g", h)
	}

	r = rule()
	r.judge(1e-3, 1.5, 0)
	r.judge(1e-4, 0.5, 0) // accepted: a new Step starts a new watch
	if r.floorH != 0 || r.floor() != nil {
		t.Errorf("after an accepted step: window at h = %g, floor %v, want none", r.floorH, r.floor())
	}
}
