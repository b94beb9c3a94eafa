package reproduce

import (
	"math"
	"testing"

	"linkage/integrate"
	"linkage/problems"
)

// TestYen1998: the claims of seed 003, section 4, that the reproduction supports, and the
// one it does not (see BENCHMARKS.md):
//   - Fig. 2: the energy of the stiff spring pendulum decays faster as ρ falls (E(5)/E(0)
//     strictly decreasing from ρ = 1 to 0; measured 1.0009, 0.987, 0.840, 0.391, 0.026),
//     and ρ = 1 keeps it (within 1%);
//   - Fig. 3: at ρ = 0 a step that does not resolve the spring (h ≥ 1e-2, h/ε ≥ 0.32)
//     removes its oscillation (E(5)/E(0) < 0.05: the swing's energy is near 0 on the
//     level of the start) while the slow swing goes on (the mass ends on the far side,
//     x < −0.5, at the spring's rest length to 1%); h = 1e-3 keeps the oscillation
//     (E(5)/E(0) > 0.9);
//   - Table 1: CM on eq. 3.6 and Newton on eq. 3.3 solve the same equations, so their
//     energies differ by the Newton error only: to 1e-4 at the tolerance 1e-7 of the table
//     (measured at most 4.4e-5, ρ = 3/4 with 200 steps) and to 1e-8 at 1e-11 (measured
//     1.8e-9; 2.5e-7 at 1e-9); every column finds a largest step. The seed's CM steps 2× larger than index 2's are not reproduced: measured
//     CM/index2 = 1.00, 1.00, 0.83 for ρ = 0, 1/2, 3/4.
func TestYen1998(t *testing.T) {
	res, err := Yen1998()
	if err != nil {
		t.Fatal(err)
	}
	e := res.Spring.Energy
	for i := 1; i < len(e); i++ {
		if !(e[i].Retains < e[i-1].Retains) {
			t.Errorf("spring: E(5)/E(0) = %.4g at ρ = %g, not below %.4g at ρ = %g", e[i].Retains, e[i].Rho, e[i-1].Retains, e[i-1].Rho)
		}
	}
	if e[0].Rho != 1 || math.Abs(e[0].Retains-1) > 0.01 {
		t.Errorf("spring: ρ = %g keeps E(5)/E(0) = %.4g, want 1 ± 1%%", e[0].Rho, e[0].Retains)
	}
	for _, s := range res.Spring.Trajectory {
		n := len(s.X) - 1
		r := math.Hypot(s.X[n], s.Y[n])
		switch {
		case s.Err != "":
			t.Errorf("spring h=%g: %s", s.H, s.Err)
		case s.H >= 1e-2 && !(s.Retains < 0.05 && s.X[n] < -0.5 && math.Abs(r-1) < 0.01):
			t.Errorf("spring h=%g: E(5)/E(0) = %.3g, end (%.3g, %.3g), r = %.4g: want the spring damped out, the swing kept", s.H, s.Retains, s.X[n], s.Y[n], r)
		case s.H < 1e-2 && !(s.Retains > 0.9):
			t.Errorf("spring h=%g: E(5)/E(0) = %.3g, want the resolved oscillation kept (> 0.9)", s.H, s.Retains)
		}
	}
	cols := res.Bushing.Columns
	for i := 0; i+1 < len(cols); i += 2 {
		cm, ix := cols[i], cols[i+1]
		if cm.Form != integrate.CoordinateSplit || ix.Form != integrate.Index2 || cm.Rho != ix.Rho {
			t.Fatalf("bushing: columns %d, %d are %s ρ=%g, %s ρ=%g; want CM and index2 at one ρ", i, i+1, cm.Form, cm.Rho, ix.Form, ix.Rho)
		}
		for k := range cm.Cells {
			a, b := cm.Cells[k], ix.Cells[k]
			if a.Err != "" || b.Err != "" {
				continue
			}
			if math.Abs(a.Ratio-b.Ratio) > 1e-4*math.Abs(b.Ratio) {
				t.Errorf("bushing ρ=%g, %d steps: E(T)/E(0) CM %.10g, index2 %.10g: want the same solution", cm.Rho, a.Steps, a.Ratio, b.Ratio)
			}
		}
		if cm.MaxN == 0 || ix.MaxN == 0 || !cm.PivotOnX {
			t.Errorf("bushing ρ=%g: largest steps T/%d (CM), T/%d (index2), CM pivots on x: %v", cm.Rho, cm.MaxN, ix.MaxN, cm.PivotOnX)
		}
		// The measured ratio of the largest steps, pinned so that a change of either
		// iteration shows: 1.00, 1.00, 0.83 (T/70 and T/70, T/50 and T/50, T/60 and T/50);
		// one grid point either way stays within [0.7, 1.3]. The paper's 2-2.5 is not met.
		if r := float64(ix.MaxN) / float64(cm.MaxN); !(r >= 0.7 && r <= 1.3) {
			t.Errorf("bushing ρ=%g: largest step CM / index2 = T/%d / T/%d = %.2f, measured 0.83-1.00", cm.Rho, cm.MaxN, ix.MaxN, r)
		}
	}
	b := problems.Bushing{Eps: Yen1998BushingEps}
	cm := bushingRun(b, 0.75, integrate.CoordinateSplit, res.Bushing.T, 200, 1e-11)
	ix := bushingRun(b, 0.75, integrate.Index2, res.Bushing.T, 200, 1e-11)
	if cm.err != nil || ix.err != nil || !(math.Abs(cm.ratio-ix.ratio) <= 1e-8*ix.ratio) {
		t.Errorf("bushing ρ=0.75, 200 steps, Newton tol 1e-11: E(T)/E(0) CM %.12g (%v), index2 %.12g (%v): want equal to 1e-8",
			cm.ratio, cm.err, ix.ratio, ix.err)
	}
}
