package reproduce

import (
	"strings"
	"testing"
)

// TestLieWorkPrecision runs the comparison at one loose tolerance on both tops and the
// chain of 3 rods: every run finishes, the Lie-group runs keep ‖p‖ = 1 at rounding and
// reach the error of the Euler-parameter genalpha run within a factor 3.
func TestLieWorkPrecision(t *testing.T) {
	res, err := LieWorkPrecision([]float64{1e-5}, []int{3})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + res.Table())
	if len(res.Runs) != 15 {
		t.Fatalf("%d runs, want 15", len(res.Runs))
	}
	ref := map[string]float64{}
	for _, r := range res.Runs {
		if r.Failed != "" {
			t.Errorf("%s %s %s: %s", r.Problem, r.Method, r.Formulation, r.Failed)
		}
		if r.Method == "genalpha" {
			ref[r.Problem] = r.Err
		}
	}
	for _, r := range res.Runs {
		if r.Route != "lie-group" {
			continue
		}
		if !(r.NormErr <= 1e-15) {
			t.Errorf("%s %s: |‖p‖ − 1| = %.2g", r.Problem, r.Formulation, r.NormErr)
		}
		if !(r.Err <= 3*ref[r.Problem]) {
			t.Errorf("%s %s: error %.3g, genalpha on Euler parameters %.3g", r.Problem, r.Formulation, r.Err, ref[r.Problem])
		}
	}
	if tab := res.Table(); !strings.Contains(tab, "chain3d:3") {
		t.Errorf("table:\n%s", tab)
	}
}
