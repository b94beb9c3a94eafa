package reproduce

import (
	"strings"
	"testing"
)

// TestLieTops runs the comparison at one loose tolerance: every run finishes, the
// Lie-group runs keep ‖p‖ = 1 at rounding and reach the error of the Euler-parameter
// genalpha run within a factor 3 (measured at 1e-5: slow top 2.2e-2 and 2.6e-2 against
// 1.9e-2; fast top 1.8e-2 and 7.4e-3 against 2.0e-2).
func TestLieTops(t *testing.T) {
	res, err := LieTops([]float64{1e-5})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + res.Table())
	if len(res.Runs) != 10 {
		t.Fatalf("%d runs, want 10", len(res.Runs))
	}
	ref := map[string]float64{}
	for _, r := range res.Runs {
		if r.Failed != "" {
			t.Errorf("%s %s %s: %s", r.Top, r.Method, r.Formulation, r.Failed)
		}
		if r.Method == "genalpha" {
			ref[r.Top] = r.Err
		}
	}
	for _, r := range res.Runs {
		if r.Route != "lie-group" {
			continue
		}
		if !(r.NormErr <= 1e-15) {
			t.Errorf("%s %s: |‖p‖ − 1| = %.2g", r.Top, r.Formulation, r.NormErr)
		}
		if !(r.Err <= 3*ref[r.Top]) {
			t.Errorf("%s %s: error %.3g, genalpha on Euler parameters %.3g", r.Top, r.Formulation, r.Err, ref[r.Top])
		}
	}
	if tab := res.Table(); !strings.Contains(tab, "lie-genalpha") {
		t.Errorf("table:\n%s", tab)
	}
}
