package reproduce

import (
	"strings"
	"testing"
)

// TestHaugPendulumScan: one grid point, coarse bisection. Every method converges at some
// step, the implicit ones at a larger step than ABM (the trapezoidal rule is A-stable, ABM
// is not), and the table prints the row.
func TestHaugPendulumScan(t *testing.T) {
	res, err := HaugPendulumScan(&Haug1997Options{Bisections: 3}, [][2]float64{{1e4, 100}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 {
		t.Fatalf("%d rows, want 1", len(res.Rows))
	}
	r := res.Rows[0]
	t.Logf("\n%s", res.Table())
	if !(r.Expl.H > 0 && r.Impl.H > r.Expl.H && r.FV.H > r.Expl.H) {
		t.Errorf("h_max IMPL %g, FV %g, EXPL %g: want all > 0 and the implicit ones above EXPL", r.Impl.H, r.FV.H, r.Expl.H)
	}
	if !strings.Contains(res.Table(), "10000        100") {
		t.Errorf("table lacks the row k = 1e4, c = 100:\n%s", res.Table())
	}
}
