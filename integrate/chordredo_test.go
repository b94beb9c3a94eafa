package integrate

import (
	"math"
	"testing"
)

// TestNewtonMonitorWouldDiverge checks that wouldDiverge, which hht asks of a chord
// increment before redoing it by GMRES, predicts update's divergence verdict without
// changing the monitor: on a run of increments whose rates cover fast, slow, hopeless
// and growing contraction, and non-finite norms.
func TestNewtonMonitorWouldDiverge(t *testing.T) {
	s := NewtonSettings{MaxIters: 7, Tol: 1e-3}
	runs := [][]float64{
		{1, 0.1, 1e-3},           // fast: converges
		{1, 0.9, 0.85},           // slow: hopeless within MaxIters
		{1, 0.5, 0.6},            // growing: θ ≥ 1
		{1, 0.5, math.NaN()},     // non-finite
		{0.1, 0.05, 0.02, 0.008}, // moderate
		{1, 2},                   // θ ≥ 1 at the second increment
	}
	for _, norms := range runs {
		m := newtonMonitor{s: s}
		m.start()
		for k, n := range norms {
			before := m
			would := m.wouldDiverge(n)
			if m != before {
				t.Fatalf("%v: wouldDiverge changed the monitor", norms)
			}
			st := m.update(n)
			// a non-finite first increment is left to the monitor (no rate to judge)
			want := st == newtonDiverged && (k > 0)
			if would != want {
				t.Errorf("%v, increment %d (%g): wouldDiverge %v, update %v", norms, k, n, would, st)
			}
			if st != newtonContinue {
				break
			}
		}
	}
}
