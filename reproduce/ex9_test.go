package reproduce

import (
	"math"
	"strings"
	"testing"

	"linkage/dae"
)

// TestEx9System checks Ex9Linear's derivatives (G, g_t, γ) against central differences
// (dae.Check's documented tolerance 1e-6) and its exact λ against eq. 17 at a consistent
// state: λ = −z̈/(C Cᵀ) = sin(t)/5 (to rounding, 1e-15).
func TestEx9System(t *testing.T) {
	sys := Ex9Linear{}
	const t0 = 0.7
	q := []float64{math.Sin(t0), 0}
	v := []float64{math.Cos(t0), 0}
	if _, err := dae.Check(sys, dae.CheckPoint{T: t0, Q: q, V: v}, 1e-6); err != nil {
		t.Error(err)
	}
	// eq. 17 with M = I, f = 0: C a = γ and a = −Cᵀλ give λ = −γ/(C Cᵀ).
	gamma := make([]float64, 1)
	sys.Gamma(gamma, t0, q, v)
	if d := math.Abs(-gamma[0]/5 - sys.Lambda(t0)); d > 1e-15 {
		t.Errorf("λ(t) differs from eq. 17 by %g", d)
	}
}

// TestArnoldEx9 checks the table against seed 002, Example 9. Linear example: for every
// ρ = h_n/h_{n−1} ≤ 1/2 the observed λ error agrees with the paper's leading term
// |(h_n + h_{n−1})/(2h_n) − 1|·|λ| within 3 % (the remainders O(h_n) + O(h_{n−1}²/h_n) are
// O(h_{n−1}) relative to it; measured ≤ 1.3 % at h_{n−1} = 0.01). Non-convergence: the
// error of the ρ = 1/1024 row is the same (within 1 %; measured 85.9 and 86.1) for
// h_{n−1} = 0.01 and 0.001, while with equal steps (ρ = 1) it drops tenfold (first order:
// log10 ratio 1 ± 0.1; measured 1.07e-3 → 1.08e-4). For both systems the error grows
// monotonically as ρ decreases from 1, and at ρ = 1/1024 exceeds 100× the ρ = 1 error
// (pendulum measured 250× and 3000×).
func TestArnoldEx9(t *testing.T) {
	var res [2]*Ex9Result
	for i, h := range []float64{0.01, 0.001} {
		r, err := ArnoldEx9(h)
		if err != nil {
			t.Fatal(err)
		}
		t.Log("\n" + r.Table())
		res[i] = r
		if len(r.Cases) != 2 {
			t.Fatalf("%d cases, want 2", len(r.Cases))
		}
		for _, c := range r.Cases {
			if len(c.Rows) != len(Ex9Ratios) || math.Abs(c.TStar-1) > 1e-12 {
				t.Fatalf("%s: %d rows, t* = %g; want %d rows from t* = 1", c.Name, len(c.Rows), c.TStar, len(Ex9Ratios))
			}
			var at1 float64
			prev := 0.0
			for _, w := range c.Rows {
				if w.Ratio > 1 {
					continue
				}
				if w.Ratio == 1 {
					at1 = w.Err
				}
				if !(w.Err > prev) {
					t.Errorf("%s h=%g: error %.3g at ρ = %g not above %.3g at the larger ρ", c.Name, h, w.Err, w.Ratio, prev)
				}
				prev = w.Err
				if !math.IsNaN(w.Predicted) && w.Ratio <= 0.5 {
					if rel := math.Abs(w.Err/w.Predicted - 1); rel > 0.03 {
						t.Errorf("%s h=%g ρ=%g: error %.4g, paper's leading term %.4g (%.1f %% off), want within 3 %%", c.Name, h, w.Ratio, w.Err, w.Predicted, 100*rel)
					}
				}
			}
			if last := c.Rows[len(c.Rows)-1]; !(last.Err > 100*at1) {
				t.Errorf("%s h=%g: error at ρ = %g is %.3g, want > 100× the %.3g at ρ = 1", c.Name, h, last.Ratio, last.Err, at1)
			}
		}
	}
	lin0, lin1 := res[0].Cases[0], res[1].Cases[0]
	n := len(Ex9Ratios) - 1
	if rel := math.Abs(lin1.Rows[n].Err/lin0.Rows[n].Err - 1); rel > 0.01 {
		t.Errorf("ρ = %g: error %.4g at h_{n−1} = 0.001 vs %.4g at 0.01, want equal within 1 %% (no convergence)", Ex9Ratios[n], lin1.Rows[n].Err, lin0.Rows[n].Err)
	}
	if d := math.Log10(lin0.Rows[1].Err / lin1.Rows[1].Err); math.Abs(d-1) > 0.1 {
		t.Errorf("ρ = 1: error %.3g → %.3g when h_{n−1} drops tenfold, want a tenfold drop (first order)", lin0.Rows[1].Err, lin1.Rows[1].Err)
	}
	if _, err := ArnoldEx9(0.5); err == nil || !strings.Contains(err.Error(), "hPrev") {
		t.Errorf("hPrev = 0.5: error %v, want one naming hPrev", err)
	}
}
