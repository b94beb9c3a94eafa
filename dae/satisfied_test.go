package dae_test

import (
	"math"
	"testing"

	"linkage/dae"
)

// TestSatisfied: a consistent start is reported satisfied, and Initialize from it keeps q
// and changes v by rounding only (what the doc comment promises its callers); a guess off
// by more than the tolerance at either level, or with a redundant row violated, is not.
func TestSatisfied(t *testing.T) {
	sys, q0 := chain(5)
	const t0 = 0.7 // rheonomic anchor: g_t ≠ 0
	qs := append([]float64(nil), q0...)
	for k := range 5 {
		qs[2*k] += 0.3 * math.Sin(2*t0)
	}
	v0 := make([]float64, len(qs))
	for i := range v0 {
		v0[i] = 0.5 - 0.1*float64(i)
	}
	c, err := dae.Initialize(sys, t0, qs, v0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !dae.Satisfied(sys, t0, c.Q, c.V) {
		t.Fatal("Satisfied = false at Initialize's consistent state")
	}
	again, err := dae.Initialize(sys, t0, c.Q, c.V, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Iterations != 0 {
		t.Errorf("Initialize from a satisfied guess: %d Newton iterations, want 0", again.Iterations)
	}
	for i := range c.Q {
		if again.Q[i] != c.Q[i] {
			t.Errorf("q[%d] moved from %v to %v", i, c.Q[i], again.Q[i])
		}
		if d := math.Abs(again.V[i] - c.V[i]); d > 1e-14*(1+math.Abs(c.V[i])) {
			t.Errorf("v[%d] changed by %.3g, more than rounding", i, d)
		}
	}
	for _, tc := range []struct {
		name string
		i    int
		dq   float64
		dv   float64
	}{
		{"position off by 1e-9", 3, 1e-9, 0},
		{"velocity off by 1e-9", 4, 0, 1e-9},
		{"position NaN", 0, math.NaN(), 0},
	} {
		q := append([]float64(nil), c.Q...)
		v := append([]float64(nil), c.V...)
		q[tc.i] += tc.dq
		v[tc.i] += tc.dv
		if dae.Satisfied(sys, t0, q, v) {
			t.Errorf("%s: Satisfied = true", tc.name)
		}
	}

	// Redundant rows count: the parallelogram with its coupler listed twice is satisfied at
	// its consistent pose, but not when the copy's length disagrees.
	fb, q := fourBar(2)
	v := make([]float64, len(q))
	if !dae.Satisfied(fb, 0, q, v) {
		t.Error("four-bar with a duplicated coupler: Satisfied = false at its consistent pose")
	}
	if fb, q := fourBar(2.001); dae.Satisfied(fb, 0, q, v) {
		t.Error("four-bar whose coupler copy is 1 mm longer: Satisfied = true")
	}
}

// TestSatisfiedSparse: on the sparse pattern (nq + nc ≥ 1000, the size from which
// Initialize goes sparse) the answer is the dense one.
func TestSatisfiedSparse(t *testing.T) {
	sys, q0 := chain(340)
	if nq, nc := sys.Size(); nq+nc < 1000 {
		t.Fatalf("nq + nc = %d: too small for the sparse path", nq+nc)
	}
	c, err := dae.Initialize(sys, chainT0, q0, make([]float64, len(q0)), nil) // the anchor moves: v = 0 is not consistent
	if err != nil {
		t.Fatal(err)
	}
	q, v := c.Q, c.V
	for _, dq := range []float64{0, 1e-8} {
		qq := append([]float64(nil), q...)
		qq[len(qq)-1] += dq
		dense, sparse := dae.Satisfied(sys, chainT0, qq, v), dae.Satisfied(sparseLink{sys}, chainT0, qq, v)
		if dense != sparse || dense != (dq == 0) {
			t.Errorf("last y off by %g: Satisfied dense %v, sparse %v; want %v", dq, dense, sparse, dq == 0)
		}
	}
	// A pattern Initialize's factorization refuses (a column outside [0, nq)) is not
	// satisfied, so that Initialize runs and names it.
	if dae.Satisfied(badPattern{sparseLink{sys}}, chainT0, q, v) {
		t.Errorf("Satisfied with a column outside the coordinates = true, want false")
	}
}

// badPattern names a column past the last coordinate at the end of row 0 of its
// constraint pattern.
type badPattern struct{ sparseLink }

func (s badPattern) ConstraintPattern() [][]int {
	rows := s.sparseLink.ConstraintPattern()
	nq, _ := s.Size()
	rows[0][len(rows[0])-1] = nq
	return rows
}
