package problems

import (
	"fmt"
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/planar"
)

// distancePendulums assembles n bodies, each held at distance 1 from a ground point by a
// distance joint (one constraint on x, y of its centre) and released at rest 60° from the
// vertical: the dependent coordinate of each, x at the start, loses its pivot at the
// bottom of the swing (G's entry 2x → 0), which forces a re-partition.
func distancePendulums(t *testing.T, n int) (*planar.System, integrate.State) {
	t.Helper()
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	for i := range n {
		phi := math.Pi / 3 * (1 + 0.02*float64(i))
		o := m.AddMarker(planar.Marker{Name: fmt.Sprintf("O%d", i+1), Body: planar.Ground, Point: planar.Vec{3 * float64(i), 0}})
		b := m.AddBody(planar.Body{Name: fmt.Sprintf("bob%d", i+1), Mass: 1, Inertia: 0.01,
			Pos: planar.Vec{3*float64(i) + math.Sin(phi), -math.Cos(phi)}})
		c := m.AddMarker(planar.Marker{Name: fmt.Sprintf("bob%d.C", i+1), Body: b})
		m.AddDistance(fmt.Sprintf("rod%d", i+1), o, c, 1)
	}
	return assembleAtGuess(t, m)
}

// TestGCPSparseRepartition: on 14 distance pendulums (nq + nc = 56, the sparse path),
// swinging for 1 s, the gcp methods re-partition near the bottom (measured: once each),
// and the sparse path (new
// G_u patterns and a new augmented Newton pattern at each change) takes the same run as
// the dense one: the same re-partitions, steps and Newton iterations, states equal to
// rounding.
func TestGCPSparseRepartition(t *testing.T) {
	sys, start := distancePendulums(t, 14)
	for _, name := range []string{"gcp-newmark", "gcp-fv", "gcp-abm"} {
		e, _ := integrate.Lookup(name)
		ctl := integrate.StepControl{RTol: 1e-6, ATol: 1e-6}
		if name == "gcp-abm" {
			ctl = integrate.StepControl{FixedH: 1e-3}
		}
		var sol [2]*integrate.Solution
		for k, s := range []dae.System{sys, hideValues(sys)} {
			out, err := integrate.Solve(e.New(), name, s, start.Clone(), 1, integrate.SolveOptions{Control: ctl, Output: []float64{1}})
			if err != nil {
				t.Fatalf("%s (path %d): %v", name, k, err)
			}
			sol[k] = out
		}
		var d float64
		for i := range sol[0].Final.Q {
			d = math.Max(d, math.Abs(sol[0].Final.Q[i]-sol[1].Final.Q[i]))
		}
		s0, s1 := sol[0].Stats, sol[1].Stats
		t.Logf("%s: %d steps, %d re-partitions, %d Newton iterations; sparse vs dense states differ by %.2g", name, s0.Steps, s0.Repartitions, s0.NewtonIters, d)
		if s0.Repartitions == 0 {
			t.Errorf("%s: no re-partition; the test wants the pendulums to force some", name)
		}
		if s0.Repartitions != s1.Repartitions || s0.Steps != s1.Steps || s0.NewtonIters != s1.NewtonIters || !(d <= 1e-10) {
			t.Errorf("%s: sparse path %d re-partitions, %d steps, %d Newton iterations; dense %d, %d, %d; states differ by %.3g: want the same run",
				name, s0.Repartitions, s0.Steps, s0.NewtonIters, s1.Repartitions, s1.Steps, s1.NewtonIters, d)
		}
	}
}
