package integrate

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/linalg"
)

// redundantKKT returns the saddle-point matrix [M Gᵀ; G 0] of a point mass in the plane
// (M = 2 I) held by three rows of which the third repeats the first (rank 2 of 3: a
// redundant constraint, seed 002 §2.3), row-major, and a consistent right side.
func redundantKKT() (k []float64, n int, rhs []float64) {
	G := [3][2]float64{{1, 0}, {0, 1}, {1, 0}}
	n = 5
	k = make([]float64, n*n)
	for i := range 2 {
		k[i*n+i] = 2
	}
	for r, row := range G {
		for j, g := range row {
			k[(2+r)*n+j] = g
			k[j*n+2+r] = g
		}
	}
	return k, n, []float64{4, 6, 1, 2, 1} // f = (4, 6), G a = (1, 2, 1)
}

// TestRegularizedFactorRankDeficient: for a saddle point whose G has a repeated row the
// regularized factorization (dense, sparse with a dense buffer and
// sparse by values) solves it with the unique a = (1, 2) of seed 002 Theorem 2 and
// bounded multipliers whose force Gᵀλ = f − M a = (2, 2) is exact.
func TestRegularizedFactorRankDeficient(t *testing.T) {
	k, n, rhs := redundantKKT()
	pattern := make([][]int, n)
	for i := range n {
		for j := range n {
			if k[i*n+j] != 0 {
				pattern[i] = append(pattern[i], j)
			}
		}
	}
	dense := newNewtonFactor(n, nil)
	slu, err := linalg.NewSparseLU(n, pattern)
	if err != nil {
		t.Fatal(err)
	}
	buf := sparseFactor(slu, mat.NewDense(n, n, nil))
	byValues := newSparseNewtonFactor(n, pattern)
	for name, f := range map[string]*newtonFactor{"dense": dense, "sparse": buf, "sparse by values": byValues} {
		fill := func() {
			if f.byValues() {
				for i, cols := range pattern {
					for p, j := range cols {
						f.Values()[f.csr.RowStart[i]+p] = k[i*n+j]
					}
				}
				return
			}
			copy(f.Matrix(), k)
		}
		f.regularize()
		fill()
		if err := f.Factor(); err != nil {
			t.Fatalf("%s: regularized factorization: %v", name, err)
		}
		x := append([]float64(nil), rhs...)
		f.Solve(x)
		force := [2]float64{x[2] + x[4], x[3]}
		if math.Abs(x[0]-1) > 1e-12 || math.Abs(x[1]-2) > 1e-12 || math.Abs(force[0]-2) > 1e-12 || math.Abs(force[1]-2) > 1e-12 ||
			math.Abs(x[2]) > 10 || math.Abs(x[4]) > 10 {
			t.Errorf("%s: (a, λ) = %v; want a = (1, 2), Gᵀλ = (2, 2), bounded λ", name, x)
		}
	}
}

// TestSingularModeNoAllocs: a step in the singular mode (regularized matrix, λ and μ out
// of the norms; for radau5 also on ggl's index-3 rows) allocates nothing after warm-up,
// dense and sparse paths alike.
func TestSingularModeNoAllocs(t *testing.T) {
	ch := newChain(3, 1, 1, 9.81)
	hht, ga, bdf, radau, radau3 := DefaultHHT(), DefaultGenAlpha(), DefaultBDF(), Radau5{}, Radau5{}
	type entry struct {
		name string
		m    Method
		w    func() (*newtonSolver, *newtonFactor)
	}
	for _, e := range []entry{
		{"hht", &hht, func() (*newtonSolver, *newtonFactor) { return &hht.w.nw, hht.w.lu }},
		{"genalpha", &ga, func() (*newtonSolver, *newtonFactor) { return &ga.w.nw, ga.w.lu }},
		{"bdf", &bdf, func() (*newtonSolver, *newtonFactor) { return &bdf.w.nw, bdf.w.lu }},
		{"radau5", &radau, func() (*newtonSolver, *newtonFactor) {
			// The first Step makes the Newton solver (setup), which would drop a singular
			// mode set before it: without this Step the case never ran the mode.
			if err := radau.Step(math.Inf(1)); err != nil {
				t.Fatal(err)
			}
			return &radau.w.nw, nil
		}},
		{"radau5 index-3 rows", &radau3, func() (*newtonSolver, *newtonFactor) {
			// The first Step makes the Newton solver (setup); then the mode as after
			// radauIndex3After failures (radauindex3.go).
			if err := radau3.Step(math.Inf(1)); err != nil {
				t.Fatal(err)
			}
			radau3.w.nw.singular, radau3.w.i3.want = true, true
			if err := radau3.Step(math.Inf(1)); err != nil || !radau3.w.i3.on || !radau3.w.jIndex3 {
				t.Errorf("radau5: the step did not run on the index-3 rows (%v; on %v, J %v)", err, radau3.w.i3.on, radau3.w.jIndex3)
			}
			return &radau3.w.nw, nil
		}},
	} {
		if err := e.m.Init(ch, chainStart(ch, nil), StepControl{RTol: 1e-6}); err != nil {
			t.Fatal(err)
		}
		nw, lu := e.w()
		nw.singular = true
		if lu != nil {
			lu.regularize()
		}
		if n := stepAllocs(t, e.m, 10, 30); n != 0 {
			t.Errorf("%s: a step in the singular mode allocates %v times, want 0", e.name, n)
		}
		if e.m == &radau && !radau.w.luReg {
			t.Errorf("radau5: its last factorization is not the singular mode's")
		}
	}
}

// TestSingularWatchNoAllocs: dopri5's singularWatch (one inverse iteration per accepted
// step) allocates nothing in a step, in both formulations, and reports no passage on the
// chain, whose G keeps its rank; μ₀ is positive after the first step.
func TestSingularWatchNoAllocs(t *testing.T) {
	ch := newChain(3, 1, 1, 9.81)
	for _, form := range []Formulation{Index1Projected, Index1} {
		m := &DOPRI5{Formulation: form}
		if err := m.Init(ch, chainStart(ch, nil), StepControl{RTol: 1e-6}); err != nil {
			t.Fatal(err)
		}
		if n := stepAllocs(t, m, 10, 30); n != 0 {
			t.Errorf("%s: a step with the singular watch allocates %v times, want 0", form, n)
		}
		if !(m.w.watch.mu0 > 0) || len(m.SingularPassages()) != 0 {
			t.Errorf("%s: μ₀ = %g, passages %+v; want μ₀ > 0 and none", form, m.w.watch.mu0, m.SingularPassages())
		}
	}
}

// TestSingularWatchEigenvalue: μ₀, converged by inverse iteration with dopri5's
// saddle-point factorization, is the smallest eigenvalue of S = G M⁻¹ Gᵀ at the state of
// the first accepted step (closed against a dense symmetric eigendecomposition).
func TestSingularWatchEigenvalue(t *testing.T) {
	ch := newChain(3, 1, 1, 9.81)
	m := &DOPRI5{}
	if err := m.Init(ch, chainStart(ch, nil), StepControl{RTol: 1e-6}); err != nil {
		t.Fatal(err)
	}
	if err := m.Step(math.Inf(1)); err != nil {
		t.Fatal(err)
	}
	lmin := smallestSchurEigenvalue(t, ch, m.Current())
	if mu := m.w.watch.mu0; math.Abs(mu-lmin) > 1e-8*lmin {
		t.Errorf("μ₀ = %.12g, smallest eigenvalue of G M⁻¹ Gᵀ %.12g", mu, lmin)
	}
}

// TestDropRoundedConstraints: the singular mode leaves uncorrected exactly the position
// rows whose residual g_i = rows_i·scale is within gRoundUlps·ε‖q‖∞ (here ‖q‖∞ = 40, the
// largest coordinate of A02: level 4·40·2⁻⁵² ≈ 3.6e-14), whatever the row scaling.
func TestDropRoundedConstraints(t *testing.T) {
	q := []float64{0.05, -40, 3}
	level := gRoundUlps * 0x1p-52 * 40
	const scale = 0x1p-20 // rows hold g/scale, as hht's g/(βh²) and genalpha's g/h (a power of 2: exact)
	g := []float64{0.5 * level, -level, 1.01 * level, 1e-9, 0}
	rows := make([]float64, len(g))
	for i, gi := range g {
		rows[i] = gi / scale
	}
	dropRoundedConstraints(rows, scale, q)
	want := []float64{0, 0, 1.01 * level / scale, 1e-9 / scale, 0}
	for i := range rows {
		if rows[i] != want[i] {
			t.Errorf("row %d (g = %.3g): %.6g after the drop, want %.6g", i, g[i], rows[i], want[i])
		}
	}
}

// TestDiagnoseSingularQRWhenNeeded: the singular-position test at a Newton failure takes
// the start's column-pivoted QR only when its answer may depend on it. On the slider at
// its start (x = 0.5) and on a chain at states away from any singular position, every
// pivot ratio clears singularModeDrop·startRatioMargin times the Gram route's start
// ratio: no QR, no passage, and the QR's own test agrees. Near the slider's singular
// position (x → 1, G's rows both along x) the ratio falls below it: the QR is taken and
// the passage found, with the rank and both joints.
func TestDiagnoseSingularQRWhenNeeded(t *testing.T) {
	s := slider{x0: 0.5}
	at := func(x float64) State {
		y := -math.Sqrt(1 - x*x)
		return consistentState(s, x-0.5, []float64{x, y}, []float64{1, -x / y})
	}
	start := at(0.5)
	fc := newFailureContext(s, &start)
	if p, ok := fc.diagnoseSingular(&start); ok || fc.rank.qr {
		t.Errorf("slider at its start: passage %v (%v), QR taken %v; want none and no QR", p, ok, fc.rank.qr)
	}
	if r := startPivotRatio(&fc.rank.g0); !(r <= startRatioMargin*fc.rank.gram0) || fc.rank.gram.Rank(singularModeDrop*r) != 2 {
		t.Errorf("slider: QR start ratio %g, Gram route's %g: want the QR's within the margin and its test passed", r, fc.rank.gram0)
	}
	near := at(0.9999)
	p, ok := fc.diagnoseSingular(&near)
	if !ok || !fc.rank.qr || p.Rank != 1 || p.Rows != 2 || len(p.Joints) != 2 {
		t.Errorf("slider near x = 1: passage %+v (%v), QR taken %v; want rank 1 of 2, joints rod and drive, QR taken", p, ok, fc.rank.qr)
	}

	ch := newChain(12, 1, 1, 9.81)
	s0 := chainStart(ch, nil)
	fc = newFailureContext(ch, &s0)
	_, nc := ch.Size()
	for k := range 8 {
		phi := make([]float64, ch.n)
		for i := range phi {
			phi[i] = 0.3*float64(k) + 0.7*float64(i*i%5)
		}
		cur := chainStart(ch, phi)
		if p, ok := fc.diagnoseSingular(&cur); ok {
			t.Errorf("chain, state %d: passage %+v, want none", k, p)
		}
		if fc.rank.settled() && fc.rank.gram.Rank(singularModeDrop*startPivotRatio(&fc.rank.g0)) != nc {
			t.Errorf("chain, state %d: settled by the Gram route's start ratio, but the QR's test fails", k)
		}
	}
	if fc.rank.qr {
		t.Errorf("chain: the QR was taken at states far from a singular position")
	}
}
