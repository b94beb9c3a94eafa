package integrate

import (
	"math"
	"math/cmplx"
	"testing"
)

// TestBDFLocusRe checks the boundary locus against BDF1's closed form 1 − cos θ, BDF2's
// A-stability (Re ≥ 0 on the whole locus) and BDF5's excursion into the left half-plane
// (A(α)-stable only: Re hλ < 0 at θ = 1.6, > 0 near θ = 0.5).
func TestBDFLocusRe(t *testing.T) {
	for _, th := range []float64{0.1, 0.7, 1.5, 3} {
		if got, want := bdfLocusRe(1, th), 1-math.Cos(th); math.Abs(got-want) > 1e-14 {
			t.Errorf("BDF1 at θ = %g: %g, want %g", th, got, want)
		}
	}
	for th := 0.01; th < math.Pi; th += 0.01 {
		if re := bdfLocusRe(2, th); re < -1e-14 {
			t.Fatalf("BDF2's locus at θ = %g: Re hλ = %g < 0", th, re)
		}
	}
	if re := bdfLocusRe(5, 1.6); !(re < -1) {
		t.Errorf("BDF5's locus at θ = 1.6: Re hλ = %g, want < −1", re)
	}
	if re := bdfLocusRe(5, 0.5); !(re > 0) {
		t.Errorf("BDF5's locus at θ = 0.5: Re hλ = %g, want > 0", re)
	}
}

// staldMode fills the detector's history at order k with the norms of a mode rⁿ:
// s_j ∝ |1 − 1/r|^j |r|ⁿ for the orders j = k−1, k, k+1.
func staldMode(k int, r complex128) *bdfStald {
	d := &bdfStald{on: true}
	dd := cmplx.Abs(1 - 1/r)
	for n := range bdfStaldSteps + 2 {
		for j := range 3 {
			d.last[j] = math.Pow(dd, float64(k-1+j)) * math.Pow(cmplx.Abs(r), float64(n))
		}
		d.push(k)
	}
	return d
}

// TestBDFStaldMode checks the detection on synthetic histories: a neutral root at the
// angle of BDF5's bound (θ = 0.75, where the chain of 10 000 bars sits) is found, one at
// a resolved angle (θ = 0.45, the chain of 100 bars), a decaying root (|r| = 0.6) and
// histories at order 3 (below bdfStaldMinK) are not.
func TestBDFStaldMode(t *testing.T) {
	for _, c := range []struct {
		k     int
		r     complex128
		want  bool
		about string
	}{
		{5, cmplx.Rect(1, 0.75), true, "neutral root at BDF5's bound"},
		{5, cmplx.Rect(0.97, 0.8), true, "slightly damped root at BDF5's bound"},
		{5, cmplx.Rect(1, 0.45), false, "resolved oscillation"},
		{5, cmplx.Rect(0.6, 0.75), false, "decaying root"},
		{4, cmplx.Rect(1, 0.7), true, "neutral root at BDF4's bound"},
		{3, cmplx.Rect(1, 0.75), false, "order 3"},
	} {
		if got := staldMode(c.k, c.r).limited(); got != c.want {
			t.Errorf("%s (k = %d, r = %v): limited = %v, want %v", c.about, c.k, c.r, got, c.want)
		}
	}
	d := staldMode(5, cmplx.Rect(1, 0.75))
	d.on = false
	if d.limited() {
		t.Error("limited with the detection off")
	}
	d = staldMode(5, cmplx.Rect(1, 0.75))
	d.push(4) // an order change restarts the history
	if d.limited() {
		t.Error("limited after an order change")
	}
}

// TestBDFStaldCap checks the cap after a detection: no raise back to the lowered order
// while h ≥ bdfStaldRelease × the step of the detection, release below it.
func TestBDFStaldCap(t *testing.T) {
	var d bdfStald
	if d.blocks(5, 1) {
		t.Fatal("blocks without a detection")
	}
	d.lowered(5, 0.01)
	if !d.blocks(5, 0.02) || !d.blocks(5, 0.006) || d.blocks(4, 0.02) {
		t.Fatal("cap not held above half the step of the detection")
	}
	if d.blocks(5, 0.004) || d.blocks(5, 0.02) {
		t.Fatal("cap not released below half the step of the detection")
	}
}
