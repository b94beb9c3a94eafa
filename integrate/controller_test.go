package integrate

import (
	"math"
	"testing"
)

// testControl is StepControl's defaults as the controller sees them.
var testControl = StepControl{Safety: DefaultSafety, MinShrink: DefaultMinShrink, MaxGrow: DefaultMaxGrow}

// TestControllerNoFailureNoCap: without a Newton failure the proposals are the elementary
// rule's (eq. 4.13 with p = 2) at every error, the growth bound MaxGrow included.
func TestControllerNoFailureNoCap(t *testing.T) {
	ct := newController(testControl, 2, 1e-3)
	h := 1e-3
	for i, e := range []float64{1e-9, 1e-9, 0.5, 1e-9, 2, 0.3} {
		want := h * math.Min(5, math.Max(0.2, 0.9*math.Pow(e, -1.0/3)))
		if e > 1 { // rejected: shrink
			want = h * math.Max(0.2, 0.9*math.Pow(e, -1.0/3))
		} else if ct.justRejected { // Hairer-Wanner: no growth right after a rejection
			want = math.Min(want, h)
		}
		ok := ct.accept(h, e)
		if ok != (e <= 1) || math.Abs(ct.size()-want) > 1e-15*want {
			t.Fatalf("step %d, e = %g: ok %v, h = %g, want %g", i, e, ok, ct.size(), want)
		}
		if ok {
			h = ct.size()
		}
	}
	if ct.hCap != 0 {
		t.Errorf("a cap %g without a Newton failure", ct.hCap)
	}
}

// TestControllerFailureCap: after a Newton failure at h_f the proposals stay below
// failCapFrac·h_f·failCapRelax^k after k accepted steps, whatever the error estimate
// asks; the cap rises only with accepted steps; a later failure replaces it; and the cap
// follows a reach that grows (it passes h_f after enough accepted steps).
func TestControllerFailureCap(t *testing.T) {
	const hf = 0.1
	ct := newController(testControl, 2, hf)
	ct.cut(hf)
	h := ct.size()
	if h != hf*failureCut {
		t.Fatalf("after the cut h = %g, want %g", h, hf*failureCut)
	}
	ct.accept(h, 1e-12) // first step after the failure: no growth (justRejected)
	if ct.size() != h {
		t.Fatalf("the step after a failure grew: %g → %g", h, ct.size())
	}
	capH := hf * failCapFrac * failCapRelax
	for k := 2; k <= 12; k++ {
		h = ct.size()
		ct.accept(h, 1e-12) // the error test alone would grow ×MaxGrow
		want := math.Min(h*DefaultMaxGrow, capH)
		if math.Abs(ct.size()-want) > 1e-15 {
			t.Fatalf("accepted step %d: proposal %g, want %g (cap %g)", k, ct.size(), want, capH)
		}
		capH *= failCapRelax
	}
	if ct.size() <= hf {
		t.Errorf("after 12 accepted steps the cap %g has not passed h_f = %g", ct.size(), hf)
	}
	// A rejection does not relax the cap.
	h = ct.size()
	before := ct.hCap
	if ct.accept(h, 4) {
		t.Fatal("e = 4 accepted")
	}
	if ct.hCap != before || ct.size() > before {
		t.Errorf("rejection moved the cap %g → %g (proposal %g)", before, ct.hCap, ct.size())
	}
	// A failure at or below twice the last accepted step (a cut cascade, a singular
	// passage) leaves the cap as it was.
	before = ct.hCap
	ct.cut(ct.size())
	if ct.hCap != before {
		t.Errorf("a failure not grown past %g × the last accepted step moved the cap %g → %g", float64(failCapGrown), before, ct.hCap)
	}
	// A failed attempt grown past it replaces the cap with failCapFrac of its size.
	hg := 3 * ct.hAcc
	ct.cut(hg)
	ct.accept(ct.size(), 1e-12)
	ct.accept(ct.size(), 1e-12)
	if want := hg * failCapFrac * failCapRelax; math.Abs(ct.size()-want) > 1e-15*want {
		t.Errorf("after a failure at %g the proposal is %g, want the new cap %g", hg, ct.size(), want)
	}
}
