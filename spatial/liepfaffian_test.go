package spatial_test

import (
	"strings"
	"testing"

	"linkage/dae"
	"linkage/spatial"
)

// TestLieRollingDiskDerivatives: a rolling disk's Pfaffian rows on the group (A E, the
// algebra's velocities) by dae.CheckLie at tilted poses: the derivatives of A w and of
// Aᵀμ along q∘exp(εe_j) and γ_A along (t + s, q∘exp(s w)) against central differences;
// and the rows appended to B (dae.WithLiePfaffianRows), whose K_t then holds the
// derivative of Aᵀμ, against the residual M v̇ − f + Bᵀλ + Aᵀμ.
func TestLieRollingDiskDerivatives(t *testing.T) {
	m := spatial.NewModel()
	m.SetGravity(spatial.Vec3{0, 0, -diskG})
	b := m.AddBody(spatial.Body{Name: "disk", Mass: 2, Inertia: spatial.Diag(0.05, 0.06, 0.09)})
	m.AddRollingDisk("roll", m.AddMarker(spatial.Marker{Body: b, Point: spatial.Vec3{0.02, -0.01, 0.03}, Axis: spatial.Vec3{0.2, 0.1, 1}}), 0.4)
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	ls := newLie(t, sys, nil)
	if n := ls.NumPfaffian(); n != 2 || ls.PfaffianName(1) != "roll.y" {
		t.Fatalf("NumPfaffian = %d, row 1 %q; want 2, roll.y", n, ls.PfaffianName(1))
	}
	rows := dae.WithLiePfaffianRows(ls)
	if _, _, nc := rows.LieSize(); nc != 3 || rows.(dae.Namer).ConstraintName(2) != "roll.y" {
		t.Fatalf("WithLiePfaffianRows: %d rows, row 2 %q; want 3 (contact, roll.x, roll.y)", nc, rows.(dae.Namer).ConstraintName(2))
	}
	for k, p := range []spatial.Quat{
		spatial.QuatFromAxisAngle(spatial.Vec3{1, 0.2, 0}, 1.2),
		spatial.QuatFromAxisAngle(spatial.Vec3{0.3, 1, 0.5}, 2.0),
		spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, 1.4),
	} {
		pt := dae.LieCheckPoint{T: 0.2, Q: []float64{0.1, -0.2, 0.35, p[0], p[1], p[2], p[3]},
			V: []float64{0.5, -0.3, 0.2, 0.7, -1.1, 0.4}, VDot: []float64{0.3, 0.1, -0.2, 0.5, 0.4, -0.6}, Lambda: []float64{0.3}}
		ms, err := dae.CheckLie(ls, pt, checkTol)
		if err != nil {
			t.Errorf("pose %d: %v", k, err)
		}
		seen := 0
		for _, m := range ms {
			if strings.Contains(m.Quantity, "A v") || strings.Contains(m.Quantity, "mu") || strings.Contains(m.Quantity, "gamma_A") {
				seen++
			}
		}
		if seen != 3 {
			t.Errorf("pose %d: CheckLie compared %d Pfaffian quantities, want 3", k, seen)
		}
		// With the rows appended only K_t is to compare: B's check differentiates Φ' = 0
		// for the Pfaffian rows, which are no position constraint.
		pt.Lambda = []float64{0.3, -1.7, 0.8}
		ms, _ = dae.CheckLie(rows, pt, checkTol)
		for _, m := range ms {
			if strings.HasPrefix(m.Quantity, "K_t") && m.Gap > checkTol {
				t.Errorf("pose %d, rows appended: %v", k, m)
			}
		}
	}
}
