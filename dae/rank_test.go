package dae_test

import (
	"math"
	"slices"
	"testing"

	"linkage/dae"
)

// TestConstraintRankToggle: point 0 hangs on two rods of length 1 from (0, 0) and (2, 0),
// point 1 on a rod from (5, 0). With point 0 at (1, 0), between the pivots, both rods are
// stretched along x: their rows are dependent (a toggle), point 1's row is not involved.
// With the second pivot at (1.5, 0) the rods meet at an angle and G has full rank.
func TestConstraintRankToggle(t *testing.T) {
	sys := &linkSys{mass: []float64{1, 1}, grav: 9.81, pts: []string{"p", "r"}, links: []link{
		ground("left.d", 0, [2]float64{0, 0}, 1),
		ground("right.d", 0, [2]float64{2, 0}, 1),
		ground("other.d", 1, [2]float64{5, 0}, 1),
	}}
	r := dae.ConstraintRank(sys, 0, []float64{1, 0, 5, -1}, 1e-10)
	if r.Rows != 3 || r.Rank != 2 || !(r.Ratio < 1e-15) {
		t.Errorf("toggle: rows %d, rank %d, ratio %g; want 3, 2, ~0", r.Rows, r.Rank, r.Ratio)
	}
	if !slices.Equal(r.Involved, []int{0, 1}) || len(r.Dependent) != 1 {
		t.Errorf("toggle: involved %v, dependent %v; want [0 1] and one dependent row", r.Involved, r.Dependent)
	}
	if o := dae.ConstraintOwner(sys, 1); o != "right" {
		t.Errorf("owner of right.d = %q, want right", o)
	}

	sys.links[1] = ground("right.d", 0, [2]float64{1.5, 0}, 1)
	y := math.Sqrt(1 - 0.75*0.75)
	r = dae.ConstraintRank(sys, 0, []float64{0.75, -y, 5, -1}, 1e-10)
	// The rods meet at about 97°: the smallest pivot is of order sin of that angle.
	if r.Rank != 3 || r.Ratio < 0.1 || len(r.Involved) != 0 {
		t.Errorf("regular pose: rank %d, ratio %g, involved %v; want 3, > 0.1, none", r.Rank, r.Ratio, r.Involved)
	}
}

// TestConstraintRankSparseMatchesDense: the sparse route of ConstraintRank (forced on
// small systems) finds the rank and the rows involved that the pivoted QR finds: a toggle,
// a duplicated coupler (where both name the copy dependent), a parallelogram's third crank
// and a regular chain; its Ratio is ~0 where the QR's is and of order 1 where the QR's is.
func TestConstraintRankSparseMatchesDense(t *testing.T) {
	toggle := &linkSys{mass: []float64{1, 1}, grav: 9.81, pts: []string{"p", "r"}, links: []link{
		ground("left.d", 0, [2]float64{0, 0}, 1),
		ground("right.d", 0, [2]float64{2, 0}, 1),
		ground("other.d", 1, [2]float64{5, 0}, 1),
	}}
	dup, q4 := fourBar(2)
	third, _ := fourBar(2)
	third.links[3] = link{name: "third-crank", terms: []term{{0, 0.5}, {1, 0.5}}, s0: [2]float64{1, 0}, l: 1}
	ch, qc := chain(6)
	for _, c := range []struct {
		name    string
		sys     *linkSys
		q       []float64
		sameDep bool // the dependent row is the same on both routes
	}{
		{"toggle", toggle, []float64{1, 0, 5, -1}, false},
		{"duplicated coupler", dup, q4, true},
		{"third crank", third, q4, false},
		{"chain", ch, qc, true},
	} {
		dense := dae.ConstraintRank(c.sys, chainT0, c.q, 1e-10)
		sparse := dae.ConstraintRankSparse(sparseLink{c.sys}, chainT0, c.q, 1e-10)
		t.Logf("%s: dense %+v, sparse %+v", c.name, dense, sparse)
		if sparse.Rows != dense.Rows || sparse.Rank != dense.Rank || !slices.Equal(sparse.Involved, dense.Involved) {
			t.Errorf("%s: sparse rank %d of %d, involved %v; dense %d of %d, involved %v",
				c.name, sparse.Rank, sparse.Rows, sparse.Involved, dense.Rank, dense.Rows, dense.Involved)
		}
		if c.sameDep && !slices.Equal(sparse.Dependent, dense.Dependent) {
			t.Errorf("%s: sparse dependent rows %v, dense %v", c.name, sparse.Dependent, dense.Dependent)
		}
		// Dependent rows reduce to rounding (1e-15 of G), independent ones stay of order 1
		// on these unit-scaled linkages (0.01: far from either).
		if (dense.Ratio < 1e-15) != (sparse.Ratio < 1e-15) || (dense.Ratio > 0.01) != (sparse.Ratio > 0.01) {
			t.Errorf("%s: ratio sparse %g, dense %g; want both ~0 or both of order 1", c.name, sparse.Ratio, dense.Ratio)
		}
	}
}
