package problems

import (
	"math"
	"testing"

	"linkage/dae"
)

// TestYen1998Derivatives: the analytic derivatives of the seed 003 problems agree with
// central differences (relative gap ≤ 1e-6, dae.Check), and their forces are the negative
// gradient of the potential energy they report (central differences of U, relative to
// |f|: ≤ 1e-6), so that Energy is the invariant of the motion.
func TestYen1998Derivatives(t *testing.T) {
	cases := []struct {
		name       string
		sys        dae.System
		q, v, lam  []float64
		unconstrGr []int // coordinates along which f = −∂U/∂q holds without constraint force
	}{
		{"spring pendulum", SpringPendulum{Eps2: 1e-3}, []float64{0.9, 0.3}, []float64{0.2, -0.1}, nil, []int{0, 1}},
		{"spring pendulum stretched", SpringPendulum{Eps2: 1e-3}, []float64{-0.4, 1.1}, []float64{1, 2}, nil, []int{0, 1}},
		{"bushing", Bushing{Eps: 1e-2}, []float64{0.8, 0.6, 0.3}, []float64{-0.6, 0.8, 2}, []float64{3}, []int{0, 1, 2}},
		{"bushing paper eps", Bushing{Eps: 1e-5}, []float64{0.96, 0.28, -0.7}, []float64{0.28, -0.96, 5}, []float64{-2e4}, []int{0, 1, 2}},
	}
	for _, c := range cases {
		if _, err := dae.Check(c.sys, dae.CheckPoint{Q: c.q, V: c.v, Lambda: c.lam}, 1e-6); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		inv := c.sys.(dae.EnergyInvariant)
		nq, _ := c.sys.Size()
		f := make([]float64, nq)
		c.sys.Force(f, 0, c.q, c.v)
		fmax := 0.0
		for _, fi := range f {
			fmax = math.Max(fmax, math.Abs(fi))
		}
		for _, j := range c.unconstrGr {
			q := append([]float64(nil), c.q...)
			h := 1e-6
			q[j] = c.q[j] + h
			_, up := inv.Energy(0, q, c.v)
			q[j] = c.q[j] - h
			_, um := inv.Energy(0, q, c.v)
			grad := (up - um) / (2 * h)
			if gap := math.Abs(f[j]+grad) / fmax; gap > 1e-6 {
				t.Errorf("%s: f[%d] = %.10g, −∂U/∂q = %.10g: relative gap %.2g", c.name, j, f[j], -grad, gap)
			}
		}
	}
}
