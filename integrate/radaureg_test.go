package integrate

import (
	"math"
	"math/cmplx"
	"slices"
	"testing"
)

// radauIndex3Matrix is c K − J of the first-order index-3 form y = (q, v, a, λ) for two
// coordinates with masses m and one constraint row G = g (no force derivatives):
// q' = v, v' = a, 0 = f − M a − Gᵀλ, 0 = g(q). Its rows q, v, a have the diagonal
// (c, c, m), the constraint row none.
func radauIndex3Matrix(c complex128, m, g [2]float64) (v []complex128, rows [][]int) {
	const n = 7
	v = make([]complex128, n*n)
	set := func(i, j int, x complex128) { v[i*n+j] = x }
	for k := range 2 {
		set(k, k, c)
		set(k, 2+k, -1)
		set(2+k, 2+k, c)
		set(2+k, 4+k, -1)
		set(4+k, 4+k, complex(m[k], 0))
		set(4+k, 6, complex(g[k], 0))
		set(6, k, complex(-g[k], 0))
	}
	rows = [][]int{{0, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 6}, {5, 6}, {0, 1}}
	return v, rows
}

// TestRegularizeSchurIndex3: on the index-3 rows of the first-order form the closed
// paths q → v → a → λ give K_λλ = ε (G M⁻¹ Gᵀ)/c², the Schur complement's diagonal
// scaled by ε, exactly (the block of q, v, a is triangular, its Neumann series ends at
// three terms), for the real shift c = γ/h and the complex one (α + iβ)/h, on the dense
// (full) and the sparse pattern.
func TestRegularizeSchurIndex3(t *testing.T) {
	m, g := [2]float64{2, 0.5}, [2]float64{0.3, -1.2}
	schur := g[0]*g[0]/m[0] + g[1]*g[1]/m[1]
	const eps = 0x1p-40
	for _, c := range []complex128{complex(37.5, 0), complex(25, 14)} {
		want := complex(eps*schur, 0) / (c * c)
		dense, rows := radauIndex3Matrix(c, m, g)
		full := newRadauPattern(nil, 7)
		regularizeSchur(full, dense, full.sc, complex(eps, 0))
		sp := newRadauPattern(rows, 7)
		vals := make([]complex128, len(sp.csr.Cols))
		d, _ := radauIndex3Matrix(c, m, g)
		for i := range 7 {
			for t := sp.csr.RowStart[i]; t < sp.csr.RowStart[i+1]; t++ {
				vals[t] = d[i*7+sp.csr.Cols[t]]
			}
		}
		regularizeSchur(sp, vals, sp.sc, complex(eps, 0))
		for name, got := range map[string]complex128{"dense": dense[6*7+6], "sparse": vals[sp.at(6, 6)]} {
			if cmplx.Abs(got-want) > 1e-14*cmplx.Abs(want) {
				t.Errorf("c = %v, %s: K_λλ = %v, want ε (G M⁻¹ Gᵀ)/c² = %v", c, name, got, want)
			}
		}
		if dense[0] != c || dense[4*7+4] != complex(m[0], 0) {
			t.Errorf("c = %v: rows with a diagonal changed: %v, %v", c, dense[0], dense[4*7+4])
		}
	}
	cm, _ := radauIndex3Matrix(37.5, m, g)
	re := make([]float64, len(cm))
	for k, x := range cm {
		re[k] = real(x)
	}
	full := newRadauPattern(nil, 7)
	regularizeSchur(full, re, full.sr, eps)
	if want := eps * schur / (37.5 * 37.5); math.Abs(re[6*7+6]-want) > 1e-14*want {
		t.Errorf("real: K_λλ = %v, want %v", re[6*7+6], want)
	}
}

// TestRadauRegularizedFactorAllocs: once made, the singular mode's sparse factorization
// (values, estimate, real and complex LU) allocates nothing.
func TestRadauRegularizedFactorAllocs(t *testing.T) {
	dense, rows := radauIndex3Matrix(1, [2]float64{2, 0.5}, [2]float64{0.3, -1.2})
	var row, col []int
	var negJ []float64
	for i, cols := range rows {
		for _, j := range cols {
			row, col = append(row, i), append(col, j)
			x := real(dense[i*7+j])
			if i == j && i < 4 {
				x = 0 // q, v: the diagonal is c K, not −J
			}
			negJ = append(negJ, x)
		}
	}
	kdiag := []float64{1, 1, 1, 1, 0, 0, 0}
	a := newRadauAug(row, col, 7)
	if err := a.factor(negJ, kdiag, nil, 37.5, 25, 14, radauRegEps); err != nil {
		t.Fatalf("regularized factorization: %v", err)
	}
	if n := testing.AllocsPerRun(20, func() { _ = a.factor(negJ, kdiag, nil, 37.5, 25, 14, radauRegEps) }); n != 0 {
		t.Errorf("radauAug.factor allocates %v times per call", n)
	}
}

// TestRegularizeSchurUnits: the singular mode's regularization is relative to the
// Schur complement's diagonal, so a change of units leaves the regularized Newton step
// unchanged in the physical quantities: with the coordinates rescaled by D (q, v, a → Dq,
// Dv, Da; M → D⁻¹MD⁻¹, G → GD⁻¹: metres to millimetres, per coordinate), the masses by k
// (M, f, λ → kM, kf, kλ) and the constraint row by c (g, λ → cg, λ/c), the solution of
// the regularized system (c K − J)x = b for the correspondingly scaled b is the scaled
// solution, to rounding, for an ε large enough to matter (K_λλ = 1e-4 of the Schur
// complement) and for the complex shift.
func TestRegularizeSchurUnits(t *testing.T) {
	m, g := [2]float64{2, 0.5}, [2]float64{0.3, -1.2}
	d, k, cr := [2]float64{1e3, 0.25}, 7.0, 1e-2
	b := []complex128{0.1, -0.2, 0.3, 0.05, 1.5, -0.7, 0.01}
	for _, c := range []complex128{complex(37.5, 0), complex(25, 14)} {
		solve := func(m, g [2]float64, b []complex128) []complex128 {
			v, _ := radauIndex3Matrix(c, m, g)
			full := newRadauPattern(nil, 7)
			regularizeSchur(full, v, full.sc, complex(1e-4, 0))
			lu := newRadauComplexLU(7)
			copy(lu.a, v)
			if err := lu.factor(); err != nil {
				t.Fatal(err)
			}
			x := slices.Clone(b)
			lu.solve(x)
			return x
		}
		x := solve(m, g, b)
		// Scaled problem: M_ii → k m_i / d_i², G_i → c g_i / d_i; rows q, v scale by d
		// (their unknowns do), rows a (forces) by k/d, the constraint row by c.
		var ms, gs [2]float64
		bs := slices.Clone(b)
		for i := range 2 {
			ms[i] = k * m[i] / (d[i] * d[i])
			gs[i] = cr * g[i] / d[i]
			bs[i] *= complex(d[i], 0)
			bs[2+i] *= complex(d[i], 0)
			bs[4+i] *= complex(k/d[i], 0)
		}
		bs[6] *= complex(cr, 0)
		xs := solve(ms, gs, bs)
		want := slices.Clone(x)
		for i := range 2 {
			want[i] *= complex(d[i], 0)   // q
			want[2+i] *= complex(d[i], 0) // v
			want[4+i] *= complex(d[i], 0) // a
		}
		want[6] *= complex(k/cr, 0) // λ
		for i := range want {
			if cmplx.Abs(xs[i]-want[i]) > 1e-12*cmplx.Abs(want[i]) {
				t.Errorf("c = %v: unknown %d = %v in the scaled units, want %v", c, i, xs[i], want[i])
			}
		}
	}
}

// TestRadau5RegEps: the singular mode's ε is Radau5.RegEps when set (the parameter
// reg_eps), radauRegEps otherwise, and only the singular mode regularizes.
func TestRadau5RegEps(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	for _, c := range []struct{ set, want float64 }{{0, radauRegEps}, {3e-11, 3e-11}} {
		m := &Radau5{RegEps: c.set}
		if err := m.Init(p, pendulumStart(p, 1, 0.5), StepControl{RTol: 1e-6}); err != nil {
			t.Fatal(err)
		}
		if got := m.w.regEps(); got != 0 {
			t.Errorf("RegEps %g: ε %g outside the singular mode, want 0", c.set, got)
		}
		m.w.nw.singular = true
		if got := m.w.regEps(); got != c.want {
			t.Errorf("RegEps %g: ε %g in the singular mode, want %g", c.set, got, c.want)
		}
	}
}
