package integrate

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// twoScales is two uncoupled undamped oscillators of very different amplitude, q₀ = cos t
// and q₁ = 1e-6·cos 10t (M = I, f = (−q₀, −100q₁), no constraints): with one
// absolute tolerance of 1e-6 the error test cannot see q₁, the faster of the two.
type twoScales struct{}

func (twoScales) Size() (int, int) { return 2, 0 }
func (twoScales) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, 1)
	dst.Set(0, 1, 0)
	dst.Set(1, 0, 0)
	dst.Set(1, 1, 1)
}
func (twoScales) Force(dst []float64, t float64, q, v []float64)            { dst[0], dst[1] = -q[0], -100*q[1] }
func (twoScales) Constraint(dst []float64, t float64, q []float64)          {}
func (twoScales) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {}
func (twoScales) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
}
func (twoScales) Gamma(dst []float64, t float64, q, v []float64) {}

// TestATolQ runs every method that takes StepControl.ATolQ on twoScales to t = 3 at
// RTol = ATol = 1e-6, then with ATolQ = (0, 1e-12) (q₁'s tolerance a millionth of its
// amplitude, q₀'s the default), and asserts that the error of q₁ drops at least tenfold
// while that of q₀ does not grow beyond 1e-5, its size at the scalar tolerance; and that
// ATolQ filled with ATol repeats the scalar run exactly (same steps, same final q).
func TestATolQ(t *testing.T) {
	start := State{Q: []float64{1, 1e-6}, V: []float64{0, 0}, A: []float64{-1, -100e-6}, Lambda: []float64{}}
	const tEnd = 3
	exact := [2]float64{math.Cos(tEnd), 1e-6 * math.Cos(10*tEnd)}
	for _, e := range Methods() {
		if !e.Adaptive || e.Name == "multi-index" { // multi-index refuses ATolQ (its own test)
			continue
		}
		run := func(atolQ []float64) (*Solution, [2]float64) {
			sol, err := Solve(e.New(), e.Name, twoScales{}, start.Clone(), tEnd,
				SolveOptions{Control: StepControl{RTol: 1e-6, ATol: 1e-6, ATolQ: atolQ}, Output: []float64{tEnd}})
			if err != nil {
				t.Fatalf("%s: %v", e.Name, err)
			}
			q := sol.Final.Q
			return sol, [2]float64{math.Abs(q[0] - exact[0]), math.Abs(q[1] - exact[1])}
		}
		scalar, e0 := run(nil)
		tight, e1 := run([]float64{0, 1e-12})
		same, e2 := run([]float64{1e-6, 1e-6})
		t.Logf("%s: error of q1 %.2g → %.2g (steps %d → %d), of q0 %.2g → %.2g", e.Name, e0[1], e1[1],
			scalar.Stats.Steps, tight.Stats.Steps, e0[0], e1[0])
		if !(e1[1] <= e0[1]/10) {
			t.Errorf("%s: ATolQ[1] = 1e-12: error of q1 %.2g, at the scalar ATol %.2g; want a tenfold drop", e.Name, e1[1], e0[1])
		}
		if !(e1[0] <= math.Max(e0[0], 1e-5)) {
			t.Errorf("%s: ATolQ[1] = 1e-12: error of q0 grew from %.2g to %.2g", e.Name, e0[0], e1[0])
		}
		if same.Stats != scalar.Stats || e2 != e0 {
			t.Errorf("%s: ATolQ = ATol: stats %+v, errors %v; scalar ATol: %+v, %v (want identical)", e.Name, same.Stats, e2, scalar.Stats, e0)
		}
	}
}

// TestATolQRefused: a wrong length is refused by Init naming the field; multi-index
// refuses ATolQ altogether.
func TestATolQRefused(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	start := pendulumStart(p, 0.3, 0)
	ctl := StepControl{ATolQ: []float64{1e-8}}
	if _, err := Solve(&HHT{}, "hht", p, start.Clone(), 1, SolveOptions{Control: ctl}); err == nil || !strings.Contains(err.Error(), "ATolQ has 1 entries, want one per coordinate (2)") {
		t.Errorf("Solve: err = %v", err)
	}
	m := DefaultBDF()
	if err := m.Init(p, start.Clone(), ctl); err == nil || !strings.Contains(err.Error(), "ATolQ has 1 entries") {
		t.Errorf("bdf Init: err = %v", err)
	}
	e, _ := Lookup("multi-index")
	if err := e.New().Init(p, start.Clone(), StepControl{ATolQ: []float64{1e-8, 1e-8}}); err == nil || !strings.Contains(err.Error(), "ATolQ") {
		t.Errorf("multi-index: err = %v, want a refusal naming ATolQ", err)
	}
}
