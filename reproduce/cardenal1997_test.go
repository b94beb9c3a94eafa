package reproduce

import (
	"math"
	"strings"
	"testing"

	"linkage/integrate"
)

// TestCardenal1997Table1: at Δt = 1e-3, where the paper's two columns agree (4.680e-3 and
// 4.854e-3 J), ali1 and ali3 reach the same maximum energy error on the double pendulum
// to within 10 % of the paper's (measured 4.661e-3 and 4.640e-3); at 1e-2 both run the 10 s
// and err by less than 1 J (paper 0.38 and 0.22; measured 0.24 and 0.45). The table names
// the paper's numbers beside ours.
func TestCardenal1997Table1(t *testing.T) {
	res, err := Cardenal1997(Cardenal1997Options{Steps: []float64{1e-2, 1e-3}, SkipSuspension: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Table1 {
		if r.Fail1 != "" || r.Fail3 != "" {
			t.Fatalf("Δt = %g: runs failed: %q, %q", r.H, r.Fail1, r.Fail3)
		}
		if r.Span != 10 {
			t.Errorf("Δt = %g: span %g, want 10", r.H, r.Span)
		}
	}
	fine := res.Table1[1]
	for _, e := range []float64{fine.Err1, fine.Err3} {
		if math.Abs(e-4.68e-3)/4.68e-3 > 0.1 {
			t.Errorf("Δt = 1e-3: max energy error %.4g, want within 10%% of 4.68e-3", e)
		}
	}
	if c := res.Table1[0]; !(c.Err1 < 1 && c.Err3 < 1) {
		t.Errorf("Δt = 1e-2: energy errors %.3g, %.3g, want < 1 J", c.Err1, c.Err3)
	}
	tab := res.Table()
	for _, want := range []string{"4.680e-03", "4.854e-03", "Table 1", "multi-index"} {
		if !strings.Contains(tab, want) {
			t.Errorf("table lacks %q:\n%s", want, tab)
		}
	}
	if len(res.Energy) != 10001 || len(res.MultiH) == 0 {
		t.Errorf("histories: %d energy samples (want 10001: no sliver step from the rounding of t), %d multi-index steps", len(res.Energy), len(res.MultiH))
	}
}

// TestCardenal1997SmallSteps: below Δt = 1e-4 the energy error of both methods keeps
// falling as Δt² (over 0.1 s: 4.4e-9 → 4.4e-11 J for ali1, 4.7e-9 → 9.8e-11 for ali3 at
// α = 1e7). Before the projections solved for increments (solveProjected) the error stopped
// at 5e-9 and then grew with the number of steps and with α: rounding amplified by the
// condition of M + αGᵀG, the paper's Table 1 not reproduced below 1e-4.
func TestCardenal1997SmallSteps(t *testing.T) {
	p := DefaultCardenalPendulum()
	for _, name := range []string{"ali1", "ali3"} {
		var errs [2]float64
		for i, h := range []float64{1e-4, 1e-5} {
			m := integrate.Method(&integrate.ALI1{})
			if name == "ali3" {
				m = &integrate.ALI3{}
			}
			e, _, _, fail := pendulumEnergyRun(p, m, h, 0.1, nil)
			if fail != "" {
				t.Fatalf("%s Δt = %g: %s", name, h, fail)
			}
			errs[i] = e
		}
		if errs[0]/errs[1] < 30 {
			t.Errorf("%s: max |ΔΠ| over 0.1 s %.3g at Δt = 1e-4, %.3g at 1e-5: want the Δt² fall (≥ 30×)", name, errs[0], errs[1])
		}
	}
}

// TestSuspensionComparison: on the quarter car the multi-index method (U_r = 2.65e-5,
// L_r = 1e-7, from index 3 at 1e-3, steps ≤ 1e-2) needs fewer than half the steps of ali1
// at 5e-4 (measured 1021 against 12 000; it stays in index 3), and both hold the energy
// invariant to 1e-3 of the run's energy scale (measured 9.0e-5 and 2.7e-4; the paper:
// 0.2 % in both), with the two histories within 1e-3 of it of each other (measured 1.8e-4;
// paper: 0.02 %).
func TestSuspensionComparison(t *testing.T) {
	res, err := SuspensionComparison()
	if err != nil {
		t.Fatal(err)
	}
	f, m := res.Fixed, res.Multi
	t.Log("\n" + res.Table())
	if f.Steps != 12000 || !(m.Steps*2 < f.Steps) {
		t.Errorf("steps: ali1 %d (want 12000), multi-index %d (want < half)", f.Steps, m.Steps)
	}
	// Seed 001's claim at equal energy accuracy (Done-when of issue 18: at least 2× faster):
	// steps stand in for CPU here (deterministic; the CPU ratio is in BENCHMARKS.md). Measured:
	// U_r = 4e-6, max |ΔΠ| 2.5e-2 against ali1's 4.05e-2 J, 1237 steps against 12 000.
	if e := res.Equal; e.Steps == 0 || !(e.MaxDev <= f.MaxDev) || !(e.Steps*2 < f.Steps) {
		t.Errorf("equal accuracy: %s max |ΔΠ| %.3g (ali1 %.3g), %d steps (ali1 %d): want at most half the steps", e.Name, e.MaxDev, f.MaxDev, e.Steps, f.Steps)
	}
	for _, r := range []SuspensionRun{f, m} {
		if !(r.MaxDev/r.Scale < 1e-3) {
			t.Errorf("%s: max |ΔΠ| = %.3g J of %.4g J, want < 1e-3 of it", r.Name, r.MaxDev, r.Scale)
		}
	}
	if !(res.Diff/math.Max(f.Scale, m.Scale) < 1e-3) {
		t.Errorf("Π histories differ by %.3g J", res.Diff)
	}
	// The bump (3 s to 3.1 s) shortens the multi-index steps (seed 001, Fig. 8).
	hBump, hBefore := math.Inf(1), 0.0
	for i, tt := range m.T {
		switch {
		case tt > 3 && tt < 3.1:
			hBump = math.Min(hBump, m.H[i])
		case tt > 2 && tt < 3:
			hBefore = math.Max(hBefore, m.H[i])
		}
	}
	if !(hBump < hBefore/2) {
		t.Errorf("smallest step on the bump %.3g, largest before it %.3g: want the bump to shorten the steps", hBump, hBefore)
	}
}
