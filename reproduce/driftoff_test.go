package reproduce

import (
	"math"
	"strings"
	"testing"

	"linkage/integrate"
)

// TestArnoldDriftOff: 100 s at tol 1e-6 (44 ms). The brief's bands on the fitted
// exponents: index 2 within 1 ± 0.2 (measured 1.00), index 1 within 2 ± 0.3 (measured
// 2.17; 1.75 at tol 1e-8 and 2.37 over 300 s: the index-1 envelope grows in jumps, as the
// error of G v accumulates unevenly over the swings). With projection ‖g‖ stays at
// rounding, ≤ 1e-14 (measured 1.1e-15: a few ulps of l² = 1); GGL (bdf) keeps it at its
// Newton tolerance, ≤ 1e-2·tol (measured 2.4e-9 = 2.4e-3·tol), without growth (fitted
// exponent |p| ≤ 0.3; measured 0.00). The drifts at t_end: index 2 6.4e-6 and index 1
// 1.3e-3, of the sizes of seed 002's Fig. 14 (1e-6 and 5e-4 for the wheelset).
func TestArnoldDriftOff(t *testing.T) {
	const tEnd, tol = 100, 1e-6
	r, err := ArnoldDriftOff(tEnd, tol)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + r.Table())
	if len(r.Runs) != 5 {
		t.Fatalf("%d runs, want 5", len(r.Runs))
	}
	for _, run := range r.Runs {
		if len(run.T) != len(run.MaxG) || run.T[len(run.T)-1] != tEnd || run.Steps == 0 {
			t.Errorf("%s %s: %d times, %d envelope values, last t = %g, %d steps", run.Method, run.Formulation,
				len(run.T), len(run.MaxG), run.T[len(run.T)-1], run.Steps)
		}
		for k := 1; k < len(run.MaxG); k++ {
			if run.MaxG[k] < run.MaxG[k-1] {
				t.Errorf("%s %s: envelope decreases at t = %g", run.Method, run.Formulation, run.T[k])
			}
		}
		final := run.MaxG[len(run.MaxG)-1]
		switch run.Formulation {
		case integrate.Index2:
			if math.Abs(run.Exponent-1) > 0.2 || !(final > 1e-7) {
				t.Errorf("index 2: exponent %.3f, max ‖g‖ %.3g; want 1 ± 0.2 and a visible drift (> 1e-7)", run.Exponent, final)
			}
		case integrate.Index1:
			if math.Abs(run.Exponent-2) > 0.3 || !(final > 1e-5) {
				t.Errorf("index 1: exponent %.3f, max ‖g‖ %.3g; want 2 ± 0.3 and a visible drift (> 1e-5)", run.Exponent, final)
			}
		case integrate.Index2Projected, integrate.Index1Projected:
			if !(final <= 1e-14) {
				t.Errorf("%s %s: max ‖g‖ %.3g, want ≤ 1e-14 (rounding)", run.Method, run.Formulation, final)
			}
		case integrate.StabilizedIndex2:
			if !(final <= 1e-2*tol) || math.Abs(run.Exponent) > 0.3 {
				t.Errorf("GGL: max ‖g‖ %.3g, exponent %.3f; want ≤ %g and no growth", final, run.Exponent, 1e-2*tol)
			}
		default:
			t.Errorf("unexpected formulation %s", run.Formulation)
		}
	}
	// Index 1 drifts faster than index 2 at t_end (seed 002: 5e-4 against 1e-6).
	if !(r.Runs[1].MaxG[len(r.Runs[1].MaxG)-1] > 10*r.Runs[0].MaxG[len(r.Runs[0].MaxG)-1]) {
		t.Error("index-1 drift not above 10× the index-2 drift at t_end")
	}
	tab := r.Table()
	for _, s := range []string{"exponent", "index 2 (eq. 79)", "GGL", "1 (linear)", "2 (quadratic)"} {
		if !strings.Contains(tab, s) {
			t.Errorf("table lacks %q", s)
		}
	}
	if _, err := ArnoldDriftOff(1, tol); err == nil || !strings.Contains(err.Error(), "tEnd") {
		t.Errorf("tEnd = 1: error %v, want one naming tEnd", err)
	}
	if _, err := ArnoldDriftOff(tEnd, 0); err == nil || !strings.Contains(err.Error(), "tol") {
		t.Errorf("tol = 0: error %v, want one naming tol", err)
	}
}

// TestFitExponent: the least-squares slope recovers p of y = c·t^p exactly (to rounding,
// 1e-12) and ignores points before the window and non-positive values.
func TestFitExponent(t *testing.T) {
	ts := []float64{0.5, 1, 2, 4, 8}
	y := make([]float64, len(ts))
	for i, x := range ts {
		y[i] = 3e-7 * math.Pow(x, 1.7)
	}
	y[0] = 0
	if p := fitExponent(ts, y, 0); math.Abs(p-1.7) > 1e-12 {
		t.Errorf("exponent %.15g, want 1.7", p)
	}
	y[1] = 1 // outside the window
	if p := fitExponent(ts, y, 1.5); math.Abs(p-1.7) > 1e-12 {
		t.Errorf("windowed exponent %.15g, want 1.7", p)
	}
	if p := fitExponent(ts, y, 5); !math.IsNaN(p) {
		t.Errorf("one point: exponent %g, want NaN", p)
	}
}
