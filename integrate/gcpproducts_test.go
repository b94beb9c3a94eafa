package integrate

import (
	"math"
	"testing"
)

// gcpFixedCounts runs gcp-newmark (m) at StepControl.FixedH = h for steps steps from s and
// returns the residual evaluations and Newton iterations per step.
func gcpFixedCounts(t *testing.T, m *GCP, n, steps int, h float64) (evals, iters float64) {
	t.Helper()
	sys, s := jointChain3D(t, n, 0.01, 0)
	if err := m.Init(sys, s, StepControl{FixedH: h, RTol: 1e-4, ATol: 1e-4}); err != nil {
		t.Fatal(err)
	}
	for range steps {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	st := m.Stats()
	return float64(st.FuncEvals) / float64(st.Steps), float64(st.NewtonIters) / float64(st.Steps)
}

// TestGCPProductScaleSlenderChain: on the joint route's 3D chain of slender rods at a fixed
// h = 70 µs, gcp-newmark's Newton-Krylov corrector takes as many iterations and
// evaluations per step on 1000 rods as on 30 (2 iterations, 6.7-6.8 evaluations): its
// difference products move q' at most on its own scale (gcpProductScale). With the
// position scale alone they took 2.4 iterations and 11.7 evaluations per step on 1000
// rods (7.6 on 30): the products' truncation in the quadratic velocity terms, lifted into
// the slender rods' spins, slowed Newton.
func TestGCPProductScaleSlenderChain(t *testing.T) {
	const h, steps = 7e-5, 10
	m30, m1000 := DefaultGCP(), DefaultGCP()
	e30, i30 := gcpFixedCounts(t, &m30, 30, steps, h)
	e1000, i1000 := gcpFixedCounts(t, &m1000, 1000, steps, h)
	t.Logf("per step: N = 30 %.2f evaluations, %.2f iterations; N = 1000 %.2f, %.2f", e30, i30, e1000, i1000)
	if i1000 > 2 || e1000 > 1.1*e30 {
		t.Errorf("N = 1000: %.2f Newton iterations and %.2f evaluations per step, want 2 and at most 1.1 × N = 30's %.2f", i1000, e1000, e30)
	}
}
