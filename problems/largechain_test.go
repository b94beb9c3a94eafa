package problems

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"linkage/integrate"
)

// largeChainBars is the size of the large-model guard's chain (issue 15, item 6): nq =
// 30 000, nc = 20 000, so that one dense nq×nq matrix is 7.2 GB and one nc×nq matrix 4.8 GB.
const largeChainBars = 10000

// largeChainBudgets are the guard's budgets per method, with the figures measured on
// 2026-11-26 (live: the heap retained, runtime.MemStats.HeapAlloc right after runtime.GC,
// with the problem, the method and its factorizations held; alloc: every byte allocated
// from building the problem to the last step, TotalAlloc, garbage included, most of it the
// symbolic analyses of the sparse LUs of dae.Initialize and of the method).
//
// Both meet the example budget of 200 MB peak heap. bdf's, in its default GGL
// form, is the larger: its Newton matrix has nq + nq + nq + 2nc = 130 000 unknowns and
// 1.6e6 pattern entries, and its sparse LU holds 62 MB of L and U (3.7e6 pattern entries
// with int32 row numbers and room for as many values, of which 0.9e6 are nonzero) and
// 47 MB of the matrix (values, pattern by rows and by columns); its live heap is 51, 100 and 197 MB at 2500, 5000 and
// 10 000 bars, linear in N (19 KB per bar; 26 KB before the sparse LU's int32 row numbers
// and fitted capacities and the Newton factor's shared pattern). Since session 12 bdf
// factorizes that matrix with the accelerations and velocities eliminated
// (integrate/velelim.go: the LU on nq + 2nc = 70 000 unknowns, L + U 46 % smaller); the
// input values of each elimination stage and the maps into its reduced matrix, which it
// keeps, cost about what the smaller LU saves: live heap 143.5 MB before, 152.4 MB after
// (2026-11-26, same machine).
var largeChainBudgets = []struct {
	method      string
	steps       int
	live, alloc uint64 // bytes
}{
	{"hht", 3, 200 << 20, 800 << 20},  // measured live 76 MB, alloc 495 MB, 0.7 s
	{"bdf", 2, 200 << 20, 1500 << 20}, // measured live 152 MB, alloc 796 MB, 1.6 s (session 12)
}

// TestLargeChainMemoryGuard: a planar chain of 10 000 bars is built (assembly and
// dae.Initialize's consistent start, problem "chain-bars:10000") and takes 3 steps with hht
// and 2 with bdf, both in their default formulations (tol 1e-4), within a memory that a
// dense fallback anywhere in the setup or the step cannot fit (largeChainBudgets): one
// nq×nq matrix (7.2 GB) exceeds every budget many times over.
//
// Two measures, because neither alone sees every fallback: the live heap after a forced
// GC at each stage (built, Init, steps) is the peak of what is retained (a dense matrix
// kept in a workspace), and the bytes allocated over the whole run catch a dense matrix
// made and dropped inside one call, which a live-heap sample can miss. A sampled
// HeapInuse peak would depend on when the GC runs (up to twice the live heap with
// GOGC = 100) and on the sampling period. A watchdog panics as soon as the allocation
// passes its budget, so a dense fallback fails in a moment instead of spending hours in
// an O(nq³) factorization.
func TestLargeChainMemoryGuard(t *testing.T) {
	for _, c := range largeChainBudgets {
		t.Run(c.method, func(t *testing.T) {
			runtime.GC()
			var base runtime.MemStats
			runtime.ReadMemStats(&base)
			stop := allocWatchdog(base.TotalAlloc, c.alloc, c.method)
			defer stop()
			var peakLive uint64
			stage := func(what string) {
				runtime.GC()
				var s runtime.MemStats
				runtime.ReadMemStats(&s)
				live := s.HeapAlloc - min(s.HeapAlloc, base.HeapAlloc)
				peakLive = max(peakLive, live)
				t.Logf("%s: live heap %.1f MB, allocated %.1f MB", what, mb(live), mb(s.TotalAlloc-base.TotalAlloc))
				if live > c.live {
					t.Fatalf("%s, %s: live heap %.0f MB, want < %d MB: an nq×nq matrix (7.2 GB at nq = 30 000) or another dense fallback?",
						c.method, what, mb(live), c.live>>20)
				}
			}

			start := time.Now()
			p, err := Get(fmt.Sprintf("chain-bars:%d", largeChainBars))
			if err != nil {
				t.Fatal(err)
			}
			stage("built and initialized")
			e, err := integrate.Lookup(c.method)
			if err != nil {
				t.Fatal(err)
			}
			m := e.New() // the default formulation: hht index 3, bdf GGL
			if err := m.Init(p.System, p.Start.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
				t.Fatal(err)
			}
			stage("method Init")
			for range c.steps {
				if err := m.Step(p.TEnd); err != nil {
					t.Fatal(err)
				}
			}
			stage(fmt.Sprintf("%d steps", c.steps))
			runtime.KeepAlive(p)
			runtime.KeepAlive(m)
			var end runtime.MemStats
			runtime.ReadMemStats(&end)
			alloc := end.TotalAlloc - base.TotalAlloc
			t.Logf("%s: peak live heap %.1f MB, allocated %.1f MB, %.2f s (t = %.3g s after %d steps)",
				c.method, mb(peakLive), mb(alloc), time.Since(start).Seconds(), m.Current().T, c.steps)
			if alloc > c.alloc {
				t.Errorf("%s: allocated %.0f MB from the build to the last step, want < %d MB", c.method, mb(alloc), c.alloc>>20)
			}
			if !(m.Current().T > p.T0) {
				t.Errorf("%s: at t = %g after %d steps, want past t0 = %g", c.method, m.Current().T, c.steps, p.T0)
			}
		})
	}
}

// allocWatchdog panics, naming the method, once more than budget bytes were allocated
// since base (runtime.MemStats.TotalAlloc), checked every 10 ms without stopping the world
// (runtime/metrics); the returned function stops it.
func allocWatchdog(base, budget uint64, method string) (stop func()) {
	var done atomic.Bool
	go func() {
		sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
		for !done.Load() {
			metrics.Read(sample)
			if a := sample[0].Value.Uint64(); a > base+budget && !done.Load() {
				panic(fmt.Sprintf("TestLargeChainMemoryGuard, %s: %.0f MB allocated, over the budget of %d MB: a dense nq×nq fallback?",
					method, mb(a-base), budget>>20))
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	return func() { done.Store(true) }
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// TestChain3DSetupLinear: building the 3D chain (spatial assembly and dae.Initialize on its
// sparse path) allocates in proportion to N: 4 times the rods, at most 5 times the bytes.
// Before the LU of G_red took its rows in the rank-revealing LU's pivot order (dae,
// sparseInit.depOrder), the joint rows and the bodies' dependent coordinates drifted apart
// along the chain and the factors filled as N²: Initialize allocated 239 MB for 2000 rods
// and 688 MB for 4000 (now 115 and 230 MB); this test measured a ratio above 5 then.
func TestChain3DSetupLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p, err := Get(fmt.Sprintf("chain3d:%d", n))
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(p)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(500), alloc(2000)
	t.Logf("chain3d: building 500 rods allocates %.1f MB, 2000 rods %.1f MB (ratio %.2f)", mb(small), mb(large), float64(large)/float64(small))
	if float64(large) > 5*float64(small) {
		t.Errorf("chain3d: building 2000 rods allocates %.0f MB, %.1f times 500 rods (%.0f MB); want ≤ 5 (linear: 4)",
			mb(large), float64(large)/float64(small), mb(small))
	}
}
