package linalg

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// RADAU5's complex eigenvalue of the inverse of its coefficient matrix, α + iβ (Hairer &
// Wanner 1996, IV.8; integrate/radau5.go).
const (
	radauAlpha = 2.6810828736277521339
	radauBeta  = 3.0504301992474105694
)

// cluDense is the reference: dense complex LU with partial pivoting by modulus (the
// largest |z| of the column, cmplx.Abs, not the |Re| + |Im| of ComplexSparseLU), row
// major, in storage of its own; it does not allocate after newCLUDense.
type cluDense struct {
	n   int
	a   []complex128
	piv []int
}

func newCLUDense(n int) *cluDense {
	return &cluDense{n: n, a: make([]complex128, n*n), piv: make([]int, n)}
}

// factor factorizes a copy of the n×n row-major a; a zero pivot returns ErrSingular.
func (f *cluDense) factor(a []complex128) error {
	n, lu := f.n, f.a
	copy(lu, a)
	for k := range n {
		p := k
		for i := k + 1; i < n; i++ {
			if cmplx.Abs(lu[i*n+k]) > cmplx.Abs(lu[p*n+k]) {
				p = i
			}
		}
		f.piv[k] = p
		if lu[p*n+k] == 0 {
			return ErrSingular
		}
		if p != k {
			for j := range n {
				lu[k*n+j], lu[p*n+j] = lu[p*n+j], lu[k*n+j]
			}
		}
		for i := k + 1; i < n; i++ {
			l := lu[i*n+k] / lu[k*n+k]
			lu[i*n+k] = l
			if l != 0 {
				for j := k + 1; j < n; j++ {
					lu[i*n+j] -= l * lu[k*n+j]
				}
			}
		}
	}
	return nil
}

// solve overwrites b with A⁻¹ b.
func (f *cluDense) solve(b []complex128) {
	n, lu := f.n, f.a
	for k, p := range f.piv {
		b[k], b[p] = b[p], b[k]
	}
	for i := range n {
		for j := range i {
			b[i] -= lu[i*n+j] * b[j]
		}
	}
	for i := n - 1; i >= 0; i-- {
		for j := i + 1; j < n; j++ {
			b[i] -= lu[i*n+j] * b[j]
		}
		b[i] /= lu[i*n+i]
	}
}

// radauMatrix is the complex Newton matrix c K − J of RADAU5 with its pattern: J the
// real chain KKT-like matrix of kktLU, K = diag(1 on the 3N coordinate rows
// (differential), 0 on the constraint rows (algebraic)), c = (α + iβ)/h.
type radauMatrix struct {
	n       int
	nq      int
	pattern [][]int
	J       *mat.Dense
	a       []complex128 // c K − J, row major
}

func newRadauMatrix(J *mat.Dense, pattern [][]int, nq int, h float64) radauMatrix {
	n, _ := J.Dims()
	m := radauMatrix{n: n, nq: nq, pattern: pattern, J: J}
	m.a = make([]complex128, n*n)
	m.setH(h)
	return m
}

// setH rewrites a for the step size h.
func (m radauMatrix) setH(h float64) {
	c := complex(radauAlpha/h, radauBeta/h)
	for i := range m.n {
		for j := range m.n {
			m.a[i*m.n+j] = complex(-m.J.At(i, j), 0)
		}
		if i < m.nq {
			m.a[i*m.n+i] += c
		}
	}
}

// drawRadau draws J = kktLU of a chain of nb bodies and returns c K − J for h.
func drawRadau(rng *rand.Rand, nb int, h float64) radauMatrix {
	s := kktLU(rng, nb, chainJoints(nb), 0)
	for i := range 3 * nb { // K adds to the diagonal of every differential row
		if !slices.Contains(s.pattern[i], i) {
			s.pattern[i] = append(s.pattern[i], i)
			slices.Sort(s.pattern[i])
		}
	}
	return newRadauMatrix(s.A, s.pattern, 3*nb, h)
}

func cluRandVec(rng *rand.Rand, n int) []complex128 {
	x := make([]complex128, n)
	for i := range x {
		x[i] = complex(2*rng.Float64()-1, 2*rng.Float64()-1)
	}
	return x
}

// cluBackwardError returns ‖A x − b‖∞ / (‖A‖∞‖x‖∞ + ‖b‖∞) with moduli, A n×n row major.
func cluBackwardError(a, x, b []complex128) float64 {
	n := len(b)
	var r, an, xn, bn float64
	for i := range n {
		s, rowSum := -b[i], 0.0
		for j, v := range a[i*n : (i+1)*n] {
			s += v * x[j]
			rowSum += cmplx.Abs(v)
		}
		r, an = max(r, cmplx.Abs(s)), max(an, rowSum)
		bn, xn = max(bn, cmplx.Abs(b[i])), max(xn, cmplx.Abs(x[i]))
	}
	return r / (an*xn + bn)
}

// cluComponentwiseError returns max_i |A x − b|_i / (|A||x| + |b|)_i with moduli, the
// componentwise backward error (Oettli & Prager 1964).
func cluComponentwiseError(a, x, b []complex128) float64 {
	n := len(b)
	omega := 0.0
	for i := range n {
		s, den := -b[i], cmplx.Abs(b[i])
		for j, v := range a[i*n : (i+1)*n] {
			s += v * x[j]
			den += cmplx.Abs(v) * cmplx.Abs(x[j])
		}
		if s != 0 {
			omega = max(omega, cmplx.Abs(s)/den)
		}
	}
	return omega
}

// cluRelDiff returns ‖x − y‖∞ / ‖y‖∞ with moduli.
func cluRelDiff(x, y []complex128) float64 {
	var num, den float64
	for i := range y {
		num, den = max(num, cmplx.Abs(x[i]-y[i])), max(den, cmplx.Abs(y[i]))
	}
	return num / den
}

// cluCond returns κ∞(A) = ‖A‖∞‖A⁻¹‖∞ and Skeel's condition number ‖|A⁻¹||A|‖∞, which
// row scaling does not change and which bounds the forward error of a componentwise
// backward stable solve (Higham 2002, sec. 7.2), A⁻¹ column by column from the
// factorization d of A.
func cluCond(a []complex128, d *cluDense) (kappa, skeel float64) {
	n := d.n
	inv := make([]complex128, n*n) // A⁻¹, row major
	e := make([]complex128, n)
	for j := range n {
		clear(e)
		e[j] = 1
		d.solve(e)
		for i, v := range e {
			inv[i*n+j] = v
		}
	}
	absA := make([]float64, n*n)
	for i, v := range a {
		absA[i] = cmplx.Abs(v)
	}
	var an, invn float64
	row := make([]float64, n) // row i of |A⁻¹||A|
	for i := range n {
		rowA, rowInv := 0.0, 0.0
		clear(row)
		for k := range n {
			rowA += absA[i*n+k]
			v := cmplx.Abs(inv[i*n+k])
			rowInv += v
			for j, w := range absA[k*n : (k+1)*n] {
				row[j] += v * w
			}
		}
		an, invn = max(an, rowA), max(invn, rowInv)
		rowS := 0.0
		for _, v := range row {
			rowS += v
		}
		skeel = max(skeel, rowS)
	}
	return an * invn, skeel
}

// cluSolve factorizes a with a new ComplexSparseLU of the pattern and solves for b.
func cluSolve(t *testing.T, n int, pattern [][]int, a, b []complex128) ([]complex128, *ComplexSparseLU) {
	t.Helper()
	f, err := NewComplexSparseLU(n, pattern)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Factorize(a); err != nil {
		t.Fatal(err)
	}
	x := slices.Clone(b)
	f.Solve(x)
	return x, f
}

// cluReference solves with the dense reference and returns κ∞ and Skeel's condition
// number too.
func cluReference(t *testing.T, a, b []complex128) (x []complex128, kappa, skeel float64) {
	t.Helper()
	d := newCLUDense(len(b))
	if err := d.factor(a); err != nil {
		t.Fatal(err)
	}
	x = slices.Clone(b)
	d.solve(x)
	kappa, skeel = cluCond(a, d)
	return x, kappa, skeel
}

// TestComplexSparseLUMatchesDense: RADAU5's complex matrices (α + iβ)/h K − J for chains
// of N = 1, 2, 10, 50 bodies and h = 1e-5..1e-1, three draws each, against the dense
// reference.
//
// Brief: relative residual ‖A x − b‖∞ / (‖A‖∞‖x‖∞ + ‖b‖∞) (the normwise backward error) ≤
// 1e-13, measured worst 2.0e-17; solutions within 1e-9 relative where κ∞ < 1e8 (26 of
// the 60 draws; κ∞ spans 5e3..3e13, growing as 1/h² with the index-3 structure),
// measured worst 5.6e-13. The other draws are far better conditioned than κ∞ says once
// the rows are scaled: over all draws the difference stays below 1e-15 times Skeel's
// condition number ‖|A⁻¹||A|‖∞ (≤ 1.6e8; measured worst 1.6e-17 times it, 4.5e-10 at
// most).
//
// Componentwise, max_i |A x − b|_i / (|A||x| + |b|)_i, the plain solve reaches 5.5e-10
// at h = 1e-5 (the dense reference 7.6e-15; partial pivoting, τ = 1, in the sparse
// ordering as much: the elimination order of the symmetric ordering, not the threshold,
// makes the difference); one step of refinement (Refine = 1) brings it to rounding
// level, ≤ 1e-15 (measured worst 3.9e-16).
func TestComplexSparseLUMatchesDense(t *testing.T) {
	for _, nb := range []int{1, 2, 10, 50} {
		for _, h := range []float64{1e-5, 1e-4, 1e-3, 1e-2, 1e-1} {
			t.Run(fmt.Sprintf("N=%d/h=%g", nb, h), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(31, uint64(nb)))
				worst, worstCW, worstRefined := 0.0, 0.0, 0.0
				worstDiff, worstSkeel := 0.0, 0.0
				kMin, kMax, sMax, compared := math.Inf(1), 0.0, 0.0, 0
				for range 3 {
					m := drawRadau(rng, nb, h)
					b := cluRandVec(rng, m.n)
					x, f := cluSolve(t, m.n, m.pattern, m.a, b)
					worst = max(worst, cluBackwardError(m.a, x, b))
					worstCW = max(worstCW, cluComponentwiseError(m.a, x, b))
					f.Refine = 1
					xr := slices.Clone(b)
					f.Solve(xr)
					worstRefined = max(worstRefined, cluComponentwiseError(m.a, xr, b))
					ref, kappa, skeel := cluReference(t, m.a, b)
					kMin, kMax, sMax = min(kMin, kappa), max(kMax, kappa), max(sMax, skeel)
					diff := cluRelDiff(x, ref)
					worstSkeel = max(worstSkeel, diff/skeel)
					if kappa < 1e8 {
						compared++
						worstDiff = max(worstDiff, diff)
					}
				}
				t.Logf("κ∞ %.2g..%.2g, Skeel ≤ %.2g; backward error %.3g, componentwise %.3g, refined %.3g; "+
					"relative difference %.3g (%d of 3 with κ∞ < 1e8), %.3g·Skeel (all)",
					kMin, kMax, sMax, worst, worstCW, worstRefined, worstDiff, compared, worstSkeel)
				if worst > 1e-13 {
					t.Errorf("backward error %.3g, want ≤ 1e-13", worst)
				}
				if worstRefined > 1e-15 {
					t.Errorf("componentwise backward error after one refinement step %.3g, want ≤ 1e-15", worstRefined)
				}
				if worstDiff > 1e-9 {
					t.Errorf("relative difference to dense LU %.3g where κ∞ < 1e8, want ≤ 1e-9", worstDiff)
				}
				if worstSkeel > 1e-15 {
					t.Errorf("relative difference to dense LU %.3g times Skeel's condition number, want ≤ 1e-15", worstSkeel)
				}
			})
		}
	}
}

// TestComplexSparseLUReal: on a real matrix stored as complex, ComplexSparseLU performs
// the arithmetic of SparseLU with zero imaginary parts, which is exact (products and
// quotients by an operand with zero imaginary part round as their real counterparts,
// |Re| + |0| = |Re|), so it must choose the same pivots and give bit for bit the same
// solution: the two are one algorithm. Bit for bit where Go does not fuse multiply-adds
// (amd64); elsewhere a fused x − a·b of the real code meets an unfused complex product,
// and the solutions are compared to 1e-12 (κ₁ of these draws up to 1e20, but the
// factors are the same up to rounding).
func TestComplexSparseLUReal(t *testing.T) {
	exact := runtime.GOARCH == "amd64"
	rng := rand.New(rand.NewPCG(33, 34))
	for _, bdf := range []bool{false, true} {
		s := luDraw(rng, 10, treeJoints(10), bdf, luUnits)
		b := luRandVec(rng, s.n)
		x, f := luSparseSolve(t, s, b)
		a := make([]complex128, s.n*s.n)
		cb := make([]complex128, s.n)
		for i := range s.n {
			for j := range s.n {
				a[i*s.n+j] = complex(s.A.At(i, j), 0)
			}
			cb[i] = complex(b[i], 0)
		}
		cx, g := cluSolve(t, s.n, s.pattern, a, cb)
		if !slices.Equal(f.prow, g.prow) {
			t.Errorf("bdf=%v: pivot sequences differ", bdf)
		}
		re := make([]float64, s.n)
		for i, v := range cx {
			re[i] = real(v)
			if imag(v) != 0 {
				t.Errorf("bdf=%v: x[%d] = %v, want a zero imaginary part", bdf, i, v)
				break
			}
		}
		if d := luRelDiff(re, x); exact && d != 0 || d > 1e-12 {
			t.Errorf("bdf=%v: solution differs from SparseLU's by %.3g relative (exact %v)", bdf, d, exact)
		}
	}
}

// TestComplexSparseLURefactor: a new h (0.9·h, outside RADAU5's deadband 1..1.2 where
// it would keep the factorization) or a Jacobian changed by 1 ± 1e-3 per entry takes the
// refactorization path, allocation-free in
// Factorize, Factor and Solve (Refine 2 included), as accurate as the first
// factorization; a diagonal pivot made to collapse to 1e-12 of its value takes the full
// path, which pivots off the diagonal there and stays accurate, and the next mild
// change refactorizes with the new pivot sequence.
func TestComplexSparseLURefactor(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	h := 1e-3
	m := drawRadau(rng, 20, h)
	f, err := NewComplexSparseLU(m.n, m.pattern)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, a []complex128, full, refactor int) {
		t.Helper()
		if err := f.Factorize(a); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if f.FullFactorizations() != full || f.Refactorizations() != refactor {
			t.Errorf("%s: %d full factorizations and %d refactorizations, want %d and %d",
				what, f.FullFactorizations(), f.Refactorizations(), full, refactor)
		}
		b := cluRandVec(rng, m.n)
		x := slices.Clone(b)
		f.Solve(x)
		if be := cluBackwardError(a, x, b); be > 1e-13 {
			t.Errorf("%s: backward error %.3g, want ≤ 1e-13", what, be)
		}
		ref, kappa, _ := cluReference(t, a, b)
		if e := cluRelDiff(x, ref); kappa < 1e8 && e > 1e-9 {
			t.Errorf("%s: relative difference to dense LU %.3g (κ∞ %.2g), want ≤ 1e-9", what, e, kappa)
		}
	}
	check("first", m.a, 1, 0)
	m.setH(0.9 * h)
	check("h·0.9", m.a, 1, 1)
	m1 := newRadauMatrix(perturbed(rng, m.J, 1e-3), m.pattern, m.nq, 0.9*h)
	check("J·(1 ± 1e-3)", m1.a, 1, 2)

	if n := testing.AllocsPerRun(20, func() {
		if err := f.Factorize(m1.a); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Factorize (refactorization) allocates %v times per call, want 0", n)
	}
	if n := testing.AllocsPerRun(20, func() {
		if err := f.Factor(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Factor (refactorization) allocates %v times per call, want 0", n)
	}
	b := cluRandVec(rng, m.n)
	for _, refine := range []int{0, 2} {
		f.Refine = refine
		if n := testing.AllocsPerRun(20, func() { f.Solve(b) }); n != 0 {
			t.Errorf("Solve (Refine %d) allocates %v times per call, want 0", refine, n)
		}
	}
	f.Refine = 0
	if f.FullFactorizations() != 1 {
		t.Fatalf("%d full factorizations after refactorizing the same values, want 1", f.FullFactorizations())
	}

	// A diagonal pivot with entries below it: changing C(k,k) by δ changes the
	// eliminated pivot by δ, so subtracting (1 − 1e-12) of the pivot leaves 1e-12 of it.
	k := -1
	for c := range f.n {
		if f.prow[c] == c && f.lp[c+1] > f.lp[c] && slices.Contains(m.pattern[f.perm[c]], f.perm[c]) {
			k = c
			break
		}
	}
	if k < 0 {
		t.Fatal("no diagonal pivot with a nonempty column of L")
	}
	a2 := slices.Clone(m1.a)
	i := f.perm[k]
	a2[i*m.n+i] -= complex(1-1e-12, 0) * f.udiag[k]
	refactors := f.Refactorizations()
	check("collapsed pivot", a2, 2, refactors)
	if f.prow[k] == k {
		t.Errorf("step %d still pivots on the diagonal after it collapsed", k)
	}
	a3 := slices.Clone(a2)
	for i, v := range a3 {
		a3[i] = v * complex(1+1e-3*(2*rng.Float64()-1), 0)
	}
	check("mild change after the new pivot sequence", a3, 2, refactors+1)
}

// TestComplexSparseLUSingular: an entry with a NaN or infinite real or imaginary part
// and a zero row return ErrSingular, on a fresh ComplexSparseLU and on one holding a
// factorization (refactorization path); Solve then panics, and the next regular matrix
// factorizes.
func TestComplexSparseLUSingular(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 38))
	m := drawRadau(rng, 6, 1e-2)
	set := func(i, j int, v complex128) []complex128 {
		a := slices.Clone(m.a)
		a[i*m.n+j] = v
		return a
	}
	zeroRow := slices.Clone(m.a)
	clear(zeroRow[4*m.n : 5*m.n])
	nq := m.nq
	cases := []struct {
		name string
		a    []complex128
	}{
		{"zero row", zeroRow},
		{"NaN real part", set(nq+2, 3, complex(math.NaN(), 1))},
		{"NaN imaginary part", set(4, 4, complex(1, math.NaN()))},
		{"Inf imaginary part", set(5, 4, complex(0, math.Inf(-1)))},
	}
	for _, c := range cases {
		for _, warm := range []bool{false, true} {
			f, err := NewComplexSparseLU(m.n, m.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if warm {
				if err := f.Factorize(m.a); err != nil {
					t.Fatal(err)
				}
			}
			if err := f.Factorize(c.a); !errors.Is(err, ErrSingular) {
				t.Errorf("%s (warm %v): err %v, want ErrSingular", c.name, warm, err)
			}
			luMustPanic(t, c.name+": Solve after a failed Factorize", func() { f.Solve(make([]complex128, m.n)) })
			if err := f.Factorize(m.a); err != nil {
				t.Errorf("%s (warm %v): regular matrix after the singular one: %v", c.name, warm, err)
			}
		}
	}
}

// TestComplexSparseLUInputForms: Values/Factor gives exactly the result of Factorize,
// entries outside the pattern are ignored, and misuse panics or errs as for SparseLU.
func TestComplexSparseLUInputForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 40))
	m := drawRadau(rng, 8, 1e-3)
	b := cluRandVec(rng, m.n)
	want, f := cluSolve(t, m.n, m.pattern, m.a, b)

	garbage := slices.Clone(m.a)
	for i, row := range m.pattern {
		if j := (i + 1) % m.n; !slices.Contains(row, j) {
			garbage[i*m.n+j] = complex(1e300, -1e300)
		}
	}
	x, _ := cluSolve(t, m.n, m.pattern, garbage, b)
	if !slices.Equal(x, want) {
		t.Errorf("entries outside the pattern change the solution by %.3g", cluRelDiff(x, want))
	}

	vals := f.Values()
	clear(vals)
	t0 := 0
	for i, row := range m.pattern {
		for _, j := range row {
			vals[t0] = m.a[i*m.n+j]
			t0++
		}
	}
	if err := f.Factor(); err != nil {
		t.Fatal(err)
	}
	x = slices.Clone(b)
	f.Solve(x)
	if !slices.Equal(x, want) {
		t.Errorf("Values/Factor: solution differs from Factorize by %.3g", cluRelDiff(x, want))
	}
	if f.Size() != m.n || f.NNZ() < m.n {
		t.Errorf("Size %d, NNZ %d; want %d and at least n", f.Size(), f.NNZ(), m.n)
	}

	luMustPanic(t, "len(a) n²−1", func() { _ = f.Factorize(make([]complex128, m.n*m.n-1)) })
	luMustPanic(t, "len(b) n+1", func() { f.Solve(make([]complex128, m.n+1)) })
	g, err := NewComplexSparseLU(m.n, m.pattern)
	if err != nil {
		t.Fatal(err)
	}
	if g.NNZ() != 0 {
		t.Errorf("NNZ before Factorize = %d, want 0", g.NNZ())
	}
	luMustPanic(t, "Solve before Factorize", func() { g.Solve(make([]complex128, m.n)) })
	if _, err := NewComplexSparseLU(0, nil); err == nil {
		t.Error("n = 0: no error")
	}
	var pe *PatternError
	if _, err := NewComplexSparseLU(2, [][]int{{0}, {2}}); !errors.As(err, &pe) || pe.Row != 1 {
		t.Errorf("column out of range: err %v, want *PatternError for row 1", err)
	}
}

// BenchmarkComplexLUChain: refactorize + solve of RADAU5's complex matrix
// (α + iβ)/h K − J, h = 1e-3, J the chain KKT-like matrix of BenchmarkLUChain, fresh
// values in every iteration: two matrices whose J differ from a common draw by factors
// 1 ± 1 %, taken in turn.
//
//   - dense: the test's dense complex LU with partial pivoting (cluDense, the
//     algorithm of radauComplexLU, which RADAU5 uses now) + solve; stops at N = 50
//     (n = 250).
//   - sparse: ComplexSparseLU.Factorize of the dense row-major matrix (the gather
//     included) + Solve.
//   - sparse-values: the values written into Values() + Factor + Solve.
//   - sparse-full: as sparse-values, but every Factor searches for pivots.
//
// At N = 200 every refactorization falls back to a full factorization (full/op 1), so
// sparse-values costs a failed refactorization more than sparse-full: two constraint columns were
// pivoted on the diagonal with |x_k| / max_i |x_i| within 1 % of τ (0.00099 against
// 0.001 after the change). At h = 1e-3 such columns are to be expected: the eliminated
// diagonal of a constraint row, about −g c⁻¹ gᵀ for its row g of G (|c| ≈ 4e3, |g|² ≈
// 2), is of the order of τ times the O(1) entries below it.
func BenchmarkComplexLUChain(b *testing.B) {
	for _, nb := range []int{10, 50, 200} {
		rng := rand.New(rand.NewPCG(21, uint64(nb)))
		s := kktLU(rng, nb, chainJoints(nb), 0)
		for i := range 3 * nb {
			if !slices.Contains(s.pattern[i], i) {
				b.Fatalf("row %d: no diagonal in the pattern", i)
			}
		}
		ms := [2]radauMatrix{
			newRadauMatrix(perturbed(rng, s.A, 0.01), s.pattern, 3*nb, 1e-3),
			newRadauMatrix(perturbed(rng, s.A, 0.01), s.pattern, 3*nb, 1e-3),
		}
		rhs := cluRandVec(rng, s.n)
		x := make([]complex128, s.n)
		if nb <= 50 {
			b.Run(fmt.Sprintf("dense/N=%d", nb), func(b *testing.B) {
				d := newCLUDense(s.n)
				i := 0
				b.ReportAllocs()
				for b.Loop() {
					if err := d.factor(ms[i%2].a); err != nil {
						b.Fatal(err)
					}
					copy(x, rhs)
					d.solve(x)
					i++
				}
			})
		}
		newLU := func(b *testing.B) *ComplexSparseLU {
			f, err := NewComplexSparseLU(s.n, s.pattern)
			if err != nil {
				b.Fatal(err)
			}
			if err := f.Factorize(ms[1].a); err != nil {
				b.Fatal(err)
			}
			return f
		}
		b.Run(fmt.Sprintf("sparse/N=%d", nb), func(b *testing.B) {
			f := newLU(b)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				if err := f.Factorize(ms[i%2].a); err != nil {
					b.Fatal(err)
				}
				copy(x, rhs)
				f.Solve(x)
				i++
			}
			b.ReportMetric(float64(f.FullFactorizations()-1)/float64(i), "full/op")
			b.ReportMetric(float64(f.NNZ()), "nnz(L+U)")
		})
		var vals [2][]complex128
		for k := range vals {
			f := newLU(b)
			f.gather(ms[k].a, s.n)
			vals[k] = slices.Clone(f.Values())
		}
		for _, full := range []bool{false, true} {
			name := "sparse-values"
			if full {
				name = "sparse-full"
			}
			b.Run(fmt.Sprintf("%s/N=%d", name, nb), func(b *testing.B) {
				f := newLU(b)
				i, full0 := 0, f.FullFactorizations()
				b.ReportAllocs()
				for b.Loop() {
					copy(f.Values(), vals[i%2])
					if full {
						f.symbolic = false
					}
					if err := f.Factor(); err != nil {
						b.Fatal(err)
					}
					copy(x, rhs)
					f.Solve(x)
					i++
				}
				b.ReportMetric(float64(f.FullFactorizations()-full0)/float64(i), "full/op")
				b.ReportMetric(float64(f.NNZ()), "nnz(L+U)")
			})
		}
	}
}
