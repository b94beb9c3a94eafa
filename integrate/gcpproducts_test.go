package integrate

import (
	"math"
	"testing"

	"linkage/dae"
)

// gcpRun takes steps steps of m on sys from s under ctl.
func gcpRun(t *testing.T, m *GCP, sys dae.System, s State, ctl StepControl, steps int) {
	t.Helper()
	if err := m.Init(sys, s, ctl); err != nil {
		t.Fatal(err)
	}
	for range steps {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
}

// gcpFixedCounts runs gcp-newmark (m) on jointChain3D's n rods at StepControl.FixedH = h
// for steps steps and returns the residual evaluations and Newton iterations per step.
func gcpFixedCounts(t *testing.T, m *GCP, n, steps int, h float64) (evals, iters float64) {
	t.Helper()
	sys, s := jointChain3D(t, n, 0.01, 0)
	gcpRun(t, m, sys, s, StepControl{FixedH: h, RTol: 1e-4, ATol: 1e-4}, steps)
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

// TestGCPRoundingFloorFarChain: 30 slender rods hung 100 km from the world origin carry in
// Ψ the rounding of world-origin moments that the 1000-rod chain's loads give at the
// origin; at a fixed h = 0.28 ms gcp-newmark's increments stall at that rounding (θ ≈ 1)
// in the rods' spins. With the measured rounding level as its Newton floor
// (gcpWork.measureRounding) it takes 15 steps at 2.3 iterations each; without it full
// Newton ran out of its 8 iterations at the first step.
func TestGCPRoundingFloorFarChain(t *testing.T) {
	sys, s := jointChain3DHungAt(t, 30, 0.01, 0, [3]float64{1e5, 0, 0})
	m := DefaultGCP()
	gcpRun(t, &m, sys, s, StepControl{FixedH: 2.8e-4, RTol: 1e-4, ATol: 1e-4}, 15)
	st := m.Stats()
	perStep := float64(st.NewtonIters) / float64(st.Steps)
	level, ulps := m.w.rnd.level, tenUlpFloor(1e-4, 1e-4)
	t.Logf("%.2f Newton iterations, %.1f evaluations per step; rounding level %.3g (10-ulp floor %.3g)",
		perStep, float64(st.FuncEvals)/float64(st.Steps), level, ulps)
	if perStep > 2.5 || level < 1e6*ulps {
		t.Errorf("%.2f Newton iterations per step, rounding level %.3g: want at most 2.5 and a level above 1e6 × the 10-ulp floor", perStep, level)
	}
}

// TestGCPRoundingMeasuredAtFewStalls: adaptive gcp-newmark on the 100-rod chain (tolerance
// 1e-4, 40 steps) meets stalled increments far above its rounding (a far start, 1e3 then
// 962) in many attempts; it measures the rounding level at most once per
// gcpRoundingAttempts attempts, not at each such stall (gcpWork.roundingDue): 4
// measurements in 60 attempts, 54.7 evaluations per step, against 103 and 64.6 when every
// stall above the floor was measured.
func TestGCPRoundingMeasuredAtFewStalls(t *testing.T) {
	sys, s := jointChain3D(t, 100, 0.01, 0)
	m := DefaultGCP()
	gcpRun(t, &m, sys, s, StepControl{RTol: 1e-4, ATol: 1e-4}, 40)
	st := m.Stats()
	attempts := st.Steps + st.Rejected + st.NewtonFailures
	t.Logf("%d measurements in %d attempts; %.1f evaluations per step", m.w.rndCount, attempts, float64(st.FuncEvals)/float64(st.Steps))
	if limit := attempts/gcpRoundingAttempts + 1; m.w.rndCount > limit {
		t.Errorf("%d rounding measurements in %d attempts, want at most %d", m.w.rndCount, attempts, limit)
	}
}

// TestGCPForwardResidualSlenderChain: at a fixed h = 0.28 ms (6 steps) on the 1000-rod
// chain Newton on Ψ itself (M(q) a unscaled, curved along the slender rods' spins) took 3
// iterations and 11.7 evaluations per step, against 2 and 7.2 on 30 rods; on its
// forward-dynamics form Ψ̃ = qInd” − q̈*_ind with GMRES to 3e-3 (gcpKrylov,
// gcpGMRESRTol) it takes 2 and 9.2 (30 rods unchanged).
func TestGCPForwardResidualSlenderChain(t *testing.T) {
	const h, steps = 2.8e-4, 6
	m30, m1000 := DefaultGCP(), DefaultGCP()
	e30, i30 := gcpFixedCounts(t, &m30, 30, steps, h)
	e1000, i1000 := gcpFixedCounts(t, &m1000, 1000, steps, h)
	t.Logf("per step: N = 30 %.2f evaluations, %.2f iterations; N = 1000 %.2f, %.2f", e30, i30, e1000, i1000)
	if i30 > 2 || i1000 > 2 || e1000 > 1.35*e30 {
		t.Errorf("Newton iterations per step %.2f (N = 30), %.2f (N = 1000), evaluations %.2f and %.2f: want 2 and N = 1000's at most 1.35 × N = 30's", i30, i1000, e30, e1000)
	}
}
