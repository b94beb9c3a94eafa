package assembly

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/law"
)

// slotsCase is a small route: three pairs of 6-entry coordinate vectors over nq = 9 (one
// pair reads the ground), each with a local Hessian pattern, the coupling pattern their
// union plus a 3×3 body block, and G with two rows of one term and one of two.
func slotsCase() (pairs [][]int, local []LocalPattern, coupling, g dae.CSR, e Elements) {
	pairs = [][]int{{0, 1, 2, 3, 4, 5}, {2, 3, 4, 5, 6, 7}, {-1, -1, -1, 7, 8, 6}}
	local = make([]LocalPattern, len(pairs))
	en := NewEntries(9)
	for k, cols := range pairs {
		local[k] = NewLocalPattern(6)
		local[k].Set(0, 0)
		local[k].Cross(1<<1, 1<<2|1<<3)
		local[k].Set(3, 3)
		local[k].Set(5, 5)
		en.AddLocal(cols, local[k])
	}
	for a := range 3 {
		for b := range 3 {
			en.Add(4+a, 4+b)
		}
	}
	coupling = dae.NewCSR(en.Rows(), 9, 9, true)
	grows := [][]int{Columns(pairs[0]), Columns(pairs[1], pairs[2]), Columns(pairs[2])}
	g = dae.NewCSR(grows, 3, 9, false)
	e = Elements{Pairs: pairs, RowPairs: [][]int{{0}, {1, 2}, {2}}}
	return pairs, local, coupling, g, e
}

// TestSlotsSameAsLookups: the writers put the same values, bit for bit, into a pattern
// through the positions found once as through the look-ups in each row (Hessians, spring
// Jacobians, outer products, row terms, diagonal entries and runs through the diagonal).
func TestSlotsSameAsLookups(t *testing.T) {
	pairs, local, coupling, g, e := slotsCase()
	cs := slots{csr: &coupling, diag: diagonalSlots(&coupling)}
	cs.blockSlots(pairs)
	gs := slots{csr: &g}
	gs.termSlots(e)
	rng := rand.New(rand.NewPCG(3, 5))
	byLookup, bySlots := make([]float64, coupling.NNZ()), make([]float64, coupling.NNZ())
	gLookup, gSlots := make([]float64, g.NNZ()), make([]float64, g.NNZ())
	for range 5 {
		for k, cols := range pairs {
			var h [6][6]float64
			var grad, vp [6]float64
			for a := range 6 {
				grad[a], vp[a] = rng.NormFloat64(), rng.NormFloat64()
				for b := range 6 {
					if local[k][a]&(1<<b) != 0 {
						h[a][b] = rng.NormFloat64()
					}
				}
			}
			hess := h[:]
			sc := rng.NormFloat64()
			// a spring (no damper) along a coordinate whose gradient has entry 3 alone,
			// and a damper's outer product over entry 0: both inside the local patterns
			ld := law.SDLoad{Fs: rng.NormFloat64(), Ks: rng.NormFloat64()}
			g3 := []float64{0, 0, 0, grad[3], 0, 0}
			for _, dst := range []Target{Sparse(&coupling, byLookup), sparseAt(&cs, bySlots)} {
				AddHessian(dst, k, cols, sc, hess)
				AddJacobianQ(dst, k, cols, &ld, g3, hess, vp[:])
				AddOuter(dst, k, cols, sc, []float64{grad[0], 0, 0, 0, 0, 0})
			}
			for _, dst := range []Target{Sparse(&g, gLookup), sparseAt(&gs, gSlots)} {
				for i, ps := range e.RowPairs {
					for tk, pr := range ps {
						if pr == k {
							dst.AddTermGradient(i, tk, cols, sc, grad[:])
						}
					}
				}
			}
		}
		x := rng.NormFloat64()
		for _, dst := range []Target{Sparse(&coupling, byLookup), sparseAt(&cs, bySlots)} {
			dst.Add(6, 6, x)
			dst.Row(5).AddRun(4, []float64{x, 2 * x, 3 * x})
			dst.Row(4).AddRun(4, []float64{-x, x, 0.5})
		}
	}
	if !slices.Equal(byLookup, bySlots) {
		t.Errorf("coupling values: look-ups %v, positions %v", byLookup, bySlots)
	}
	if !slices.Equal(gLookup, gSlots) {
		t.Errorf("G values: look-ups %v, positions %v", gLookup, gSlots)
	}
	if slices.Max(byLookup) == 0 || slices.Max(gLookup) == 0 {
		t.Error("nothing was written")
	}
}

// TestSlotsMissingEntryPanics: a nonzero at an entry of a pair's block that the pattern
// lacks panics naming the entry, through the positions as through the look-ups; a zero
// there is ignored.
func TestSlotsMissingEntryPanics(t *testing.T) {
	pairs, _, coupling, _, _ := slotsCase()
	cs := slots{csr: &coupling, diag: diagonalSlots(&coupling)}
	cs.blockSlots(pairs)
	vals := make([]float64, coupling.NNZ())
	h := make([][6]float64, 6)
	h[0][2] = 0 // (0, 2) is outside pair 0's local pattern: a zero is fine
	AddHessian(sparseAt(&cs, vals), 0, pairs[0], 1, h)
	h[0][2] = 2.5
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "entry (0, 2) = 2.5 is outside the declared pattern") {
			t.Errorf("recovered %v, want a panic naming entry (0, 2)", r)
		}
	}()
	AddHessian(sparseAt(&cs, vals), 0, pairs[0], 1, h)
}
