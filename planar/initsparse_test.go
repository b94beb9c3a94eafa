package planar_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"linkage/dae"
	"linkage/planar"
)

// barChain assembles n bars of length 0.5 m and 1 kg pinned end to end, the first to the
// ground, along +x (issue 15's chain, problems' chain-bars:N).
func barChain(t testing.TB, n int) *planar.System {
	t.Helper()
	const l = 0.5
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	prev := m.AddMarker(planar.Marker{Name: "O", Body: planar.Ground})
	for i := range n {
		b := m.AddBody(planar.Body{Name: fmt.Sprintf("bar%d", i+1), Mass: 1, Inertia: l * l / 12, Pos: planar.Vec{l * (float64(i) + 0.5), 0}})
		a := m.AddMarker(planar.Marker{Name: fmt.Sprintf("bar%d.A", i+1), Body: b, Point: planar.Vec{-l / 2, 0}})
		m.AddRevolute(fmt.Sprintf("pin%d", i+1), prev, a)
		prev = m.AddMarker(planar.Marker{Name: fmt.Sprintf("bar%d.B", i+1), Body: b, Point: planar.Vec{l / 2, 0}})
	}
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestInitializeLargeChain (issue 15, item 3): a chain of 10 000 bars (nq = 30 000,
// nc = 20 000) from a guess 1 mm and 1 mrad off the constraints is made consistent with
// less than 200 MB allocated in all, where the dense path's G alone (nc×nq) takes 4.8 GB
// and M 7.2 GB, in seconds: no dense matrix can creep back into the setup unnoticed.
func TestInitializeLargeChain(t *testing.T) {
	if testing.Short() {
		t.Skip("10 000 bars: about a second")
	}
	const n = 10000
	sys := barChain(t, n)
	q, v := sys.InitialGuess()
	rng := rand.New(rand.NewPCG(10, 10000))
	for i := range q {
		q[i] += 1e-3 * (2*rng.Float64() - 1)
		v[i] = 0.1 * (2*rng.Float64() - 1)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	c, err := dae.Initialize(sys, 0, q, v, nil)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	alloc := float64(after.TotalAlloc-before.TotalAlloc) / 1e6
	t.Logf("10 000 bars: %d Newton iterations, %.0f MB allocated, %v", c.Iterations, alloc, elapsed)
	// 200 MB: 40 times the 5 MB of G's and M's values and their factors' few entries per
	// row, and 1/24 of the dense G (4.8 GB).
	if alloc > 200 {
		t.Errorf("Initialize allocated %.0f MB, want < 200 MB (a dense nc×nq G is 4800 MB)", alloc)
	}
	// 20 s: a generous bound on a shared 2-core machine for what takes about a second;
	// the dense QR of G alone would take hours.
	if elapsed > 20*time.Second {
		t.Errorf("Initialize took %v, want a few seconds", elapsed)
	}
	if c.Iterations < 1 || len(c.Redundant) != 0 || len(c.Dependent) != 2*n {
		t.Errorf("%d iterations, redundant %v, %d dependent; want ≥ 1 from a guess off by 1e-3, none, %d",
			c.Iterations, len(c.Redundant), len(c.Dependent), 2*n)
	}
	g := make([]float64, 2*n)
	sys.Constraint(g, 0, c.Q)
	var worst float64
	for _, x := range g {
		worst = math.Max(worst, math.Abs(x))
	}
	// 1e-10: Initialize's default position target 1e-12·s_q with s_q ≈ |G||q| ≈ 5000 m for
	// a chain 5 km long.
	if worst > 1e-8 {
		t.Errorf("max |g| = %.3g at the consistent position, want ≤ 1e-8", worst)
	}
}

// TestInitializeSparseNamesRedundantJoint: on the sparse path (forced on a small model)
// a duplicated joint is still found redundant and named, and the state agrees with the
// dense path's when both keep the same coordinates.
func TestInitializeSparseNamesRedundantJoint(t *testing.T) {
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	o := m.AddMarker(planar.Marker{Name: "O", Body: planar.Ground})
	b1 := m.AddBody(planar.Body{Name: "bar1", Mass: 1, Inertia: 0.02, Pos: planar.Vec{0.25, 0}})
	b2 := m.AddBody(planar.Body{Name: "bar2", Mass: 1, Inertia: 0.02, Pos: planar.Vec{0.75, 0}})
	a1 := m.AddMarker(planar.Marker{Name: "bar1.A", Body: b1, Point: planar.Vec{-0.25, 0}})
	e1 := m.AddMarker(planar.Marker{Name: "bar1.B", Body: b1, Point: planar.Vec{0.25, 0}})
	a2 := m.AddMarker(planar.Marker{Name: "bar2.A", Body: b2, Point: planar.Vec{-0.25, 0}})
	m.AddRevolute("pin1", o, a1)
	m.AddRevolute("pin2", e1, a2)
	m.AddRevolute("pin2-again", e1, a2)
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	q, v := sys.InitialGuess()
	v[5] = 1 // bar2 turning
	v[4] = 0.25
	res := map[dae.InitFactorization]dae.Consistent{}
	for _, path := range []dae.InitFactorization{dae.InitDense, dae.InitSparse} {
		c, err := dae.Initialize(sys, 0, q, v, &dae.InitOptions{Factorization: path})
		if err != nil {
			t.Fatalf("path %d: %v", path, err)
		}
		rep := c.Report(sys)
		if !strings.Contains(rep, "redundant constraints: pin2-again.x, pin2-again.y") {
			t.Errorf("path %d: report %q does not name pin2-again's rows as redundant", path, rep)
		}
		res[path] = c
	}
	d, s := res[dae.InitDense], res[dae.InitSparse]
	for i := range d.A {
		// 1e-12: the two paths solve eq. 17 by different pivot sequences (rounding only).
		if math.Abs(d.A[i]-s.A[i]) > 1e-12*(1+math.Abs(d.A[i])) || math.Abs(d.V[i]-s.V[i]) > 1e-12 {
			t.Errorf("coordinate %d: dense (v, a) = (%v, %v), sparse (%v, %v)", i, d.V[i], d.A[i], s.V[i], s.A[i])
		}
	}
	for i := range d.Lambda {
		if math.Abs(d.Lambda[i]-s.Lambda[i]) > 1e-12*(1+math.Abs(d.Lambda[i])) {
			t.Errorf("λ[%d]: dense %v, sparse %v", i, d.Lambda[i], s.Lambda[i])
		}
	}
}
