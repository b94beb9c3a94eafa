package spatial_test

import (
	"math"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/integrate"
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

// TestLieRollingDiskStepNoAllocations: a step of lie-genalpha (both forms) on the steady
// disk on the group, its rolling rows appended to B, allocates nothing after warm-up.
func TestLieRollingDiskStepNoAllocations(t *testing.T) {
	sys, _ := newSteadyDisk(0.3, -1).model(t)
	ls := newLie(t, sys, nil)
	_, _, nc := ls.LieSize()
	for _, form := range []integrate.Formulation{integrate.Index3, integrate.StabilizedIndex2} {
		m := integrate.DefaultLieGenAlpha()
		m.Formulation = form
		g := lieDiskStart(t, sys, ls)
		if len(g.Lambda) != nc+ls.NumPfaffian() {
			t.Fatalf("λ of the start: %d entries, want %d joint rows + %d Pfaffian rows", len(g.Lambda), nc, ls.NumPfaffian())
		}
		if err := m.InitLie(ls, g, integrate.StepControl{RTol: 1e-8, ATol: 1e-8}); err != nil {
			t.Fatal(err)
		}
		if n := stepAllocs(t, &m); n != 0 {
			t.Errorf("%s: %g allocations per step, want 0", form, n)
		}
	}
}

// lieDiskStart is the consistent start of the disk sys on the group: quaternions unit,
// w = (ẋ, 2 G(p) ṗ), λ without the normalization multiplier (then μ).
func lieDiskStart(t *testing.T, sys *spatial.System, ls *spatial.LieSystem) integrate.State {
	s0 := diskStart(t, sys)
	nq, nv, _ := ls.LieSize()
	g := integrate.State{T: 0, Q: append([]float64(nil), s0.Q...), V: make([]float64, nv), A: make([]float64, nv),
		Lambda: append([]float64(nil), s0.Lambda[nq/7:]...)}
	spatial.NormalizeQuaternions(g.Q)
	ls.LieVelocity(g.V, g.Q, s0.V)
	return g
}

// TestLieRollingDiskOrder: lie-genalpha on the group in fixed steps h, h/2, h/4 converges to
// the steady circle of TestRollingDiskOrder (centre and axis at t = 1) with order 2 (± 0.3),
// in both forms.
func TestLieRollingDiskOrder(t *testing.T) {
	const tEnd = 1.0
	d := newSteadyDisk(0.3, -1)
	sys, _ := d.model(t)
	ls := newLie(t, sys, nil)
	st, ct := math.Sincos(d.theta)
	O := spatial.Vec3{0, -diskR*st + d.rho, 0}
	c0, u0 := spatial.Vec3{0, -diskR * st, diskR * ct}, spatial.Vec3{0, ct, st}
	rot := func(x spatial.Vec3) spatial.Vec3 { // R_z(Ω tEnd) x
		s, c := math.Sincos(d.omega * tEnd)
		return spatial.Vec3{c*x[0] - s*x[1], s*x[0] + c*x[1], x[2]}
	}
	wantC, wantU := O.Add(rot(c0.Sub(O))), rot(u0)
	for _, form := range []integrate.Formulation{integrate.Index3, integrate.StabilizedIndex2} {
		var errs []float64
		for _, h := range []float64{0.01, 0.005, 0.0025} {
			m := integrate.DefaultLieGenAlpha()
			m.Formulation = form
			if err := m.InitLie(ls, lieDiskStart(t, sys, ls), integrate.StepControl{FixedH: h}); err != nil {
				t.Fatal(err)
			}
			for m.Current().T < tEnd-1e-12 {
				if err := m.Step(tEnd); err != nil {
					t.Fatal(err)
				}
			}
			q := m.Current().Q
			C, _ := sys.Pose(1, q)
			_, _, u := sys.MarkerAxes(1, q)
			errs = append(errs, math.Max(C.Sub(wantC).Norm(), u.Sub(wantU).Norm()))
		}
		p1, p2 := math.Log2(errs[0]/errs[1]), math.Log2(errs[1]/errs[2])
		if math.Abs(p1-2) > 0.3 || math.Abs(p2-2) > 0.3 {
			t.Errorf("%s: observed orders %.2f, %.2f (errors %.3g), want 2", form, p1, p2, errs)
		}
		t.Logf("%s: errors %.3g, observed orders %.2f, %.2f", form, errs, p1, p2)
	}
}

// stepAllocs returns the allocations of one step of m after 20 warm-up steps.
func stepAllocs(t *testing.T, m interface{ Step(float64) error }) float64 {
	t.Helper()
	step := func() {
		if err := m.Step(1e6); err != nil {
			t.Fatal(err)
		}
	}
	for range 20 {
		step()
	}
	return testing.AllocsPerRun(20, step)
}
