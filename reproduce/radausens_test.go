package reproduce

import (
	"math"
	"strings"
	"testing"

	"linkage/integrate"
)

// TestRadauSens checks the claims of seed 002, Figs. 12-13, on Andrews' squeezer.
// Measured (relative error of q at t_end, TOL = 1e-4 … 1e-8):
//
//	index3 default  9.3e-4 1.5e-3 2.9e-5 6.3e-5 3.4e-6
//	index3 1e-3     1.3e-3 1.0e-4 4.4e-5 2.7e-5 1.5e-5
//	index3 1e-5     1.3e-4 7.6e-6 1.3e-5 7.3e-6 2.2e-6
//	index2 default  1.7e-4 2.5e-5 8.4e-7 9.7e-8 2.6e-8
//	index2 1e-3     4.4e-5 5.4e-6 1.0e-6 1.6e-7 4.4e-8
//	index2 1e-5     1.0e-6 6.9e-7 3.4e-7 7.5e-8 1.6e-8
//
// Fig. 13's claim holds: on index2 the error follows TOL with the default κ. Fig. 12's
// first claim holds: on index3 with the default κ it stays far above TOL. Its second claim
// holds only in part: κ = 1e-5 lowers the index-3 error at every TOL (by 1.6 to 200), but
// not to the size of TOL, since in the index-3 form RADAU5 measures v only through h·err_v
// (index 2) and a, λ through h²·err, so the velocities are barely controlled.
func TestRadauSens(t *testing.T) {
	r, err := RadauSens("andrews", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + r.Table())
	get := func(form integrate.Formulation, kappa, tol float64) RadauSensRun {
		for _, run := range r.Runs {
			if run.Form == form && run.Kappa == kappa && run.Tol == tol {
				if run.Fail != "" {
					t.Fatalf("%s kappa %g tol %g failed: %s", form, kappa, tol, run.Fail)
				}
				return run
			}
		}
		t.Fatalf("no run %s kappa %g tol %g", form, kappa, tol)
		return RadauSensRun{}
	}
	for _, tol := range DefaultRadauSensTols {
		i2, i3 := get(integrate.Index2, 0, tol), get(integrate.Index3, 0, tol)
		i3k := get(integrate.Index3, 1e-5, tol)
		if tol <= 1e-6 {
			// Fig. 13: measured 0.8-2.6 TOL; bound 10 TOL.
			if !(i2.Err <= 10*tol) {
				t.Errorf("index2 default kappa, TOL %g: error %.2g, want ≤ 10 TOL", tol, i2.Err)
			}
			// Fig. 12 (left): measured 29-630 TOL; bound ≥ 20 TOL.
			if !(i3.Err >= 20*tol) {
				t.Errorf("index3 default kappa, TOL %g: error %.2g, want ≥ 20 TOL", tol, i3.Err)
			}
		}
		// Fig. 12 (right): a tighter Newton tolerance lowers the index-3 error.
		if !(i3k.Err < i3.Err) {
			t.Errorf("index3 TOL %g: error %.2g with kappa 1e-5, %.2g with the default, want smaller", tol, i3k.Err, i3.Err)
		}
		if i3k.Stats.NewtonIters <= i3.Stats.NewtonIters {
			t.Errorf("index3 TOL %g: kappa 1e-5 took %d Newton iterations, the default %d: want more", tol, i3k.Stats.NewtonIters, i3.Stats.NewtonIters)
		}
	}
	if tab := r.Table(); !strings.Contains(tab, "index3   default") || strings.Count(tab, "\n") != 8 {
		t.Errorf("table:\n%s", tab)
	}
}

func TestRadauSensBadInput(t *testing.T) {
	for _, c := range []struct {
		problem string
		tols    []float64
		kappas  []float64
		want    string
	}{
		{"nosuch", nil, nil, "nosuch"},
		{"", []float64{0}, nil, "tol = 0"},
		{"", nil, []float64{math.NaN()}, "kappa = NaN"},
	} {
		if _, err := RadauSens(c.problem, c.tols, c.kappas); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RadauSens(%q, %v, %v): error %v, want one naming %q", c.problem, c.tols, c.kappas, err, c.want)
		}
	}
}
