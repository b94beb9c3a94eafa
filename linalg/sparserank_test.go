package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// rankCase is a constraint-Jacobian-like test matrix: dense values and the pattern of the
// entries set (structural zeros included).
type rankCase struct {
	name    string
	G       *mat.Dense
	pattern [][]int
	keep    []bool
}

// gRows builds a matrix row by row; each row is a map column → value.
func gRows(name string, n int, rows []map[int]float64) rankCase {
	c := rankCase{name: name, G: mat.NewDense(len(rows), n, nil), pattern: make([][]int, len(rows))}
	for i, r := range rows {
		for j, v := range r {
			c.G.Set(i, j, v)
			c.pattern[i] = append(c.pattern[i], j)
		}
		slices.Sort(c.pattern[i])
	}
	return c
}

// chainRows returns the 2 rows of a revolute joint between the end of bar a (−1: the
// ground) and the start of bar b of a planar chain with coordinates (x, y, θ) per bar at
// angles th, half length h.
func chainRows(a, b int, th []float64, h float64) []map[int]float64 {
	rx, ry := map[int]float64{}, map[int]float64{}
	if a >= 0 {
		s, c := math.Sincos(th[a])
		rx[3*a], rx[3*a+2] = 1, -h*s
		ry[3*a+1], ry[3*a+2] = 1, h*c
	}
	if b >= 0 {
		s, c := math.Sincos(th[b])
		rx[3*b], rx[3*b+2] = -1, -h*s
		ry[3*b+1], ry[3*b+2] = -1, h*c
	}
	return []map[int]float64{rx, ry}
}

// rankCases are the matrices of the list: chains, loops, duplicated and combined
// rows, bad scaling, KKT-like rows over two coordinate groups, random sparse rows.
func rankCases() []rankCase {
	rng := rand.New(rand.NewPCG(15, 3))
	angles := func(n int) []float64 {
		th := make([]float64, n)
		for i := range th {
			th[i] = 2 * math.Pi * rng.Float64()
		}
		return th
	}
	chain := func(nb int, th []float64, loop bool) []map[int]float64 {
		var rows []map[int]float64
		for b := range nb {
			rows = append(rows, chainRows(b-1, b, th, 0.25)...)
		}
		if loop {
			rows = append(rows, chainRows(nb-1, -1, th, 0.25)...)
		}
		return rows
	}
	var cs []rankCase
	th := angles(30)
	cs = append(cs, gRows("chain30", 90, chain(30, th, false)))
	cs = append(cs, gRows("loop4", 12, chain(4, angles(4), true)))
	cs = append(cs, gRows("loop30", 90, chain(30, th, true)))

	// A duplicated joint in the middle of a chain and a duplicated row at the end.
	rows := chain(10, angles(10), false)
	dup := slices.Concat(rows[:8], rows[4:6], rows[8:], rows[3:4])
	cs = append(cs, gRows("duplicated", 30, dup))

	// Combined rows: 2·row 1 − 0.5·row 6 inserted after row 7, and a row that combines
	// three rows placed first (then the last of the three is the redundant one).
	rows = chain(8, angles(8), false)
	comb := func(cs ...float64) map[int]float64 {
		out := map[int]float64{}
		for k := 0; k < len(cs); k += 2 {
			for j, v := range rows[int(cs[k])] {
				out[j] += cs[k+1] * v
			}
		}
		return out
	}
	combined := slices.Concat(rows[:8], []map[int]float64{comb(1, 2, 6, -0.5)}, rows[8:])
	cs = append(cs, gRows("combined", 24, combined))
	first := slices.Concat([]map[int]float64{comb(2, 1, 3, 1, 9, -3)}, rows)
	cs = append(cs, gRows("combined-first", 24, first))

	// A parallelogram: three parallel cranks of the same length on a coupler, the third
	// crank redundant at every pose.
	cs = append(cs, parallelogram(0.7))

	// Bad scaling: the rows of a loop scaled by 10^U(−4, 4), columns by 10^U(−2, 2).
	bad := gRows("badly-scaled", 90, chain(30, th, true))
	for i := range 62 {
		s := math.Pow(10, 8*rng.Float64()-4)
		for j := range 90 {
			bad.G.Set(i, j, bad.G.At(i, j)*s)
		}
	}
	for j := range 90 {
		s := math.Pow(10, 4*rng.Float64()-2)
		for i := range 62 {
			bad.G.Set(i, j, bad.G.At(i, j)*s)
		}
	}
	cs = append(cs, bad)

	// KKT-like: constraint rows coupling a block of coordinates to a second block, with a
	// Keep set that the elimination must avoid (the first coordinate of every bar).
	kc := gRows("chain-keep", 90, chain(30, th, false))
	kc.keep = make([]bool, 90)
	for b := range 30 {
		kc.keep[3*b] = true
	}
	cs = append(cs, kc)
	// Keep asking for more than it can get: every coordinate but two kept.
	over := gRows("over-keep", 12, chain(4, angles(4), false))
	over.keep = make([]bool, 12)
	for j := 2; j < 12; j++ {
		over.keep[j] = true
	}
	cs = append(cs, over)

	// Random sparse rows, 3 to 6 entries, m = 40, n = 60, with 5 rows repeated as
	// combinations of two earlier ones.
	var rnd []map[int]float64
	for range 40 {
		r := map[int]float64{}
		for range 3 + rng.IntN(4) {
			r[rng.IntN(60)] = 2*rng.Float64() - 1
		}
		rnd = append(rnd, r)
	}
	for k := range 5 {
		i, j := rng.IntN(20+k), rng.IntN(20+k)
		r := map[int]float64{}
		for c, v := range rnd[i] {
			r[c] += 0.3 * v
		}
		for c, v := range rnd[j] {
			r[c] -= 1.7 * v
		}
		rnd = slices.Insert(rnd, 25+k, r)
	}
	cs = append(cs, gRows("random", 60, rnd))
	return cs
}

// parallelogram returns G of a planar parallelogram at crank angle phi: three cranks
// (bars 0, 1, 2, pinned to the ground at x = 0, 1, 2) of length 1 and a coupler (bar 3)
// pinned to their ends; coordinates (x, y, θ) per bar, half lengths 0.5 and 1 for the
// coupler. The third crank's two rows are combinations of the others at every pose.
func parallelogram(phi float64) rankCase {
	th := []float64{phi, phi, phi, 0}
	var rows []map[int]float64
	for c := range 3 {
		rows = append(rows, chainRows(-1, c, th, 0.5)...) // ground pin (its x offset is a constant)
	}
	for c := range 3 {
		// crank end B (half length 0.5) to the coupler at local x = c − 1
		s, co := math.Sincos(th[c])
		rx := map[int]float64{3 * c: 1, 3*c + 2: -0.5 * s, 9: -1, 11: 0}
		ry := map[int]float64{3*c + 1: 1, 3*c + 2: 0.5 * co, 10: -1, 11: -float64(c - 1)}
		rows = append(rows, rx, ry)
	}
	// Move the third crank's rows (ground pin and coupler pin) to the end, where a model
	// file lists its redundant joint.
	rows = slices.Concat(rows[:4], rows[6:10], rows[4:6], rows[10:])
	return gRows("parallelogram", 12, rows)
}

func factorRank(t *testing.T, c rankCase) *SparseRankLU {
	t.Helper()
	m, n := c.G.Dims()
	f, err := NewSparseRankLU(m, n, c.pattern)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range c.pattern {
		for s, j := range row {
			f.Values()[f.rp[i]+s] = c.G.At(i, j)
		}
	}
	f.Keep = c.keep
	if err := f.Factorize(); err != nil {
		t.Fatal(err)
	}
	return f
}

// denseRank is the rank of the rows of G by the pivoted QR of Initialize (RankTol 1e-10).
func denseRank(G mat.Matrix, rows []int) int {
	if len(rows) == 0 {
		return 0
	}
	_, n := G.Dims()
	sub := mat.NewDense(len(rows), n, nil)
	for r, i := range rows {
		sub.SetRow(r, mat.Row(nil, i, G))
	}
	qr := NewPivotedQR(n, len(rows))
	qr.Factorize(sub, true)
	return qr.Rank(1e-10)
}

// cond2 is the 2-norm condition number of G[rows, cols].
func cond2(G mat.Matrix, rows, cols []int) float64 {
	B := mat.NewDense(len(rows), len(cols), nil)
	for r, i := range rows {
		for c, j := range cols {
			B.Set(r, c, G.At(i, j))
		}
	}
	var svd mat.SVD
	if !svd.Factorize(B, mat.SVDNone) {
		return math.Inf(1)
	}
	s := svd.Values(nil)
	return s[0] / s[len(s)-1]
}

// rowScaled returns G with every row divided by its largest |entry|: the rank and the
// redundant rows do not change, and the dense QR then sees the rows at equal weight.
func rowScaled(G *mat.Dense) *mat.Dense {
	S := mat.DenseCopyOf(G)
	m, _ := S.Dims()
	for i := range m {
		row := S.RawRowView(i)
		var s float64
		for _, v := range row {
			s = math.Max(s, math.Abs(v))
		}
		if s > 0 {
			for j := range row {
				row[j] /= s
			}
		}
	}
	return S
}

// TestSparseRankLUMatchesQR compares the factorization with the dense pivoted QR on every
// case: the same rank; independent rows of full rank, the second copies of duplicated
// rows redundant; a non-singular block G[Rows, Cols] whose condition number stays within a factor 100 of
// that of the block the dense QR picks (pivoted QR of Gᵀ for the rows, then of the chosen
// rows for the columns, as Initialize does); Keep columns only where the free ones do not
// suffice; Solve and SolveTrans to rounding.
func TestSparseRankLUMatchesQR(t *testing.T) {
	for _, c := range rankCases() {
		t.Run(c.name, func(t *testing.T) {
			f := factorRank(t, c)
			m, n := c.G.Dims()
			all := seqInts(m)
			scaled := rowScaled(c.G)
			if got, want := f.Rank(), denseRank(scaled, all); got != want {
				t.Fatalf("rank %d, dense pivoted QR %d", got, want)
			}
			if got, want := len(f.Rows())+len(f.Redundant()), m; got != want {
				t.Fatalf("%d independent + %d redundant rows, want %d", len(f.Rows()), len(f.Redundant()), m)
			}
			// Redundant rows: the independent ones have full rank (so each redundant row is a
			// combination of them, checked by checkSolves), and of duplicated rows the later
			// copy is the redundant one.
			if r := denseRank(scaled, f.Rows()); r != f.Rank() {
				t.Errorf("the %d rows kept have rank %d", f.Rank(), r)
			}
			if c.name == "duplicated" && !slices.Equal(f.Redundant(), []int{8, 9, 22}) {
				t.Errorf("redundant rows %v, want the second copies [8 9 22]", f.Redundant())
			}
			// The block and its conditioning against the dense QR's choice.
			rows, cols := f.Rows(), f.Cols()
			dRows, dCols := denseChoice(scaled, c.keep)
			got, ref := cond2(scaled, rows, cols), cond2(scaled, dRows, dCols)
			t.Logf("rank %d redundant %v cond %.3g dense %.3g nnz %d", f.Rank(), f.Redundant(), got, ref, f.NNZ())
			if !(got <= 100*ref) {
				t.Errorf("cond(B) = %.3g, the dense QR's block %.3g: want within a factor 100", got, ref)
			}
			if c.keep != nil {
				free := []int{}
				for j := range n {
					if !c.keep[j] {
						free = append(free, j)
					}
				}
				nk := 0
				for _, j := range cols {
					if c.keep[j] {
						nk++
					}
				}
				if want := f.Rank() - denseRankCols(c.G, rows, free); nk != want {
					t.Errorf("%d Keep columns pivoted, want %d (rank − rank of the free columns)", nk, want)
				}
			}
			checkSolves(t, f, c.G)
		})
	}
}

// denseChoice is Initialize's dense partition: independent rows by the pivoted QR of Gᵀ,
// then columns by the pivoted QR of those rows, free columns first (Keep: the others
// after projecting out the chosen ones is what Initialize does; here the Keep columns are
// appended by a second QR on the whole rows, which suffices for a reference condition
// number).
func denseChoice(G *mat.Dense, keep []bool) (rows, cols []int) {
	m, n := G.Dims()
	qr := NewPivotedQR(n, m)
	qr.Factorize(G, true)
	r := qr.Rank(1e-10)
	rows = slices.Sorted(slices.Values(qr.Perm()[:r]))
	sub := mat.NewDense(r, n, nil)
	for k, i := range rows {
		sub.SetRow(k, G.RawRowView(i))
	}
	order := seqInts(n)
	if keep != nil {
		order = order[:0]
		for j := range n {
			if !keep[j] {
				order = append(order, j)
			}
		}
	}
	sel := mat.NewDense(r, len(order), nil)
	for k := range r {
		for c, j := range order {
			sel.Set(k, c, sub.At(k, j))
		}
	}
	cq := NewPivotedQR(r, len(order))
	cq.Factorize(sel, false)
	nr := min(cq.Rank(1e-10), r)
	for _, p := range cq.Perm()[:nr] {
		cols = append(cols, order[p])
	}
	if len(cols) < r { // complete from all columns
		fq := NewPivotedQR(r, n)
		fq.Factorize(sub, false)
		for _, j := range fq.Perm() {
			if len(cols) == r {
				break
			}
			if !slices.Contains(cols, j) {
				trial := append(slices.Clone(cols), j)
				if denseRankCols(sub, seqInts(r), trial) == len(trial) {
					cols = trial
				}
			}
		}
	}
	return rows, cols
}

// denseRankCols is the rank of G[rows, cols].
func denseRankCols(G mat.Matrix, rows, cols []int) int {
	if len(rows) == 0 || len(cols) == 0 {
		return 0
	}
	B := mat.NewDense(len(rows), len(cols), nil)
	for r, i := range rows {
		for c, j := range cols {
			B.Set(r, c, G.At(i, j))
		}
	}
	qr := NewPivotedQR(len(rows), len(cols))
	qr.Factorize(B, false)
	return qr.Rank(1e-10)
}

// checkSolves solves B x = b and Bᵀ c = d for random b, d and checks the residuals
// against ‖B‖‖x‖ (backward error of a stable LU: a small multiple of ε), and that the
// coefficients SolveTrans finds for every redundant row rebuild that row of G.
func checkSolves(t *testing.T, f *SparseRankLU, G *mat.Dense) {
	t.Helper()
	rows, cols := f.Rows(), f.Cols()
	r := len(rows)
	B := mat.NewDense(r, r, nil)
	for a, i := range rows {
		for c, j := range cols {
			B.Set(a, c, G.At(i, j))
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	b := make([]float64, r)
	for k := range b {
		b[k] = 2*rng.Float64() - 1
	}
	for _, trans := range []bool{false, true} {
		x := slices.Clone(b)
		var Bx mat.VecDense
		if trans {
			f.SolveTrans(x)
			Bx.MulVec(B.T(), mat.NewVecDense(r, x))
		} else {
			f.Solve(x)
			Bx.MulVec(B, mat.NewVecDense(r, x))
		}
		var res, xn float64
		for k := range b {
			res = math.Max(res, math.Abs(Bx.AtVec(k)-b[k]))
			xn = math.Max(xn, math.Abs(x[k]))
		}
		// 1e-13: a few hundred ε of backward error (Higham 2002, Thm. 9.3, growth ≤ 1/τ per step).
		if berr := res / (mat.Norm(B, math.Inf(1))*xn + 1e-300); berr > 1e-13 {
			t.Errorf("trans=%v: backward error %.3g, want ≤ 1e-13", trans, berr)
		}
	}
	_, n := G.Dims()
	for _, w := range f.Redundant() {
		c := make([]float64, r)
		for k, j := range cols {
			c[k] = G.At(w, j)
		}
		f.SolveTrans(c)
		var worst, scale float64
		for j := range n {
			s := G.At(w, j)
			for k, i := range rows {
				s -= c[k] * G.At(i, j)
			}
			worst = math.Max(worst, math.Abs(s))
			scale = math.Max(scale, math.Abs(G.At(w, j)))
		}
		// The row is a combination to 1e-10 of the size of G (RankTol): 1e-9 of its own size.
		if worst > 1e-9*math.Max(scale, 1e-300) {
			t.Errorf("redundant row %d: Σ c_k G_rows − G_w = %.3g, want ≤ 1e-9·%.3g", w, worst, scale)
		}
	}
}

func seqInts(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestSparseRankLUSkip: skipped rows are neither independent nor redundant, and the rank
// is that of the other rows.
func TestSparseRankLUSkip(t *testing.T) {
	c := rankCases()[3] // duplicated
	f := factorRank(t, c)
	full := f.Rank()
	f.Skip = make([]bool, len(c.pattern))
	f.Skip[4], f.Skip[5] = true, true // the first copy of the duplicated joint
	if err := f.Factorize(); err != nil {
		t.Fatal(err)
	}
	if f.Rank() != full || slices.Contains(f.Rows(), 4) || slices.Contains(f.Redundant(), 4) {
		t.Errorf("skipping rows 4, 5: rank %d (want %d), rows %v, redundant %v", f.Rank(), full, f.Rows(), f.Redundant())
	}
	if slices.Contains(f.Redundant(), 8) || slices.Contains(f.Redundant(), 9) {
		t.Errorf("the second copy (rows 8, 9) is independent once the first is skipped; redundant %v", f.Redundant())
	}
}

// TestSparseRankLUNonFinite: a NaN entry is ErrSingular, and Solve then panics.
func TestSparseRankLUNonFinite(t *testing.T) {
	c := rankCases()[0]
	c.G.Set(5, c.pattern[5][0], math.NaN())
	m, n := c.G.Dims()
	f, _ := NewSparseRankLU(m, n, c.pattern)
	for i, row := range c.pattern {
		for s, j := range row {
			f.Values()[f.rp[i]+s] = c.G.At(i, j)
		}
	}
	if err := f.Factorize(); err != ErrSingular {
		t.Fatalf("Factorize with a NaN: %v, want ErrSingular", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Solve after a failed Factorize did not panic")
		}
	}()
	f.Solve(make([]float64, 1))
}

// TestSparseRankLUZeroAllocs: factorizing again (new values, same pattern) allocates
// nothing, nor do the solves.
func TestSparseRankLUZeroAllocs(t *testing.T) {
	c := rankCases()[2] // loop30
	f := factorRank(t, c)
	vals := slices.Clone(f.Values())
	b := make([]float64, f.Rank())
	n := testing.AllocsPerRun(20, func() {
		for k := range vals {
			f.Values()[k] = vals[k] * 1.01
		}
		if err := f.Factorize(); err != nil {
			t.Fatal(err)
		}
		f.Solve(b)
		f.SolveTrans(b)
	})
	if n != 0 {
		t.Errorf("Factorize + Solve + SolveTrans allocate %v times per call after the first, want 0", n)
	}
}

// TestSparseRankLULongChain: a chain of 10 000 bars (nq = 30 000) factorizes with fill
// linear in its size: at most 6 stored entries of L and U per row of G; so does the chain
// with its joint 5000 listed twice, whose copy is found redundant (before the touched rows
// went first on equal counts, the duplicate opened a second front at the root: nnz 1.3e7 at 10 000 bars).
func TestSparseRankLULongChain(t *testing.T) {
	const nb = 10000
	th := make([]float64, nb)
	for i := range th {
		th[i] = 0.3 * math.Sin(float64(i))
	}
	for _, dup := range []int{-1, nb / 2} {
		pattern := make([][]int, 0, 2*nb+2)
		var vals []float64
		for b := range nb {
			rows := chainRows(b-1, b, th, 0.25)
			if b == dup {
				rows = append(rows, rows...)
			}
			for _, r := range rows {
				cols := make([]int, 0, len(r))
				for j := range r {
					cols = append(cols, j)
				}
				slices.Sort(cols)
				for _, j := range cols {
					vals = append(vals, r[j])
				}
				pattern = append(pattern, cols)
			}
		}
		f, err := NewSparseRankLU(len(pattern), 3*nb, pattern)
		if err != nil {
			t.Fatal(err)
		}
		copy(f.Values(), vals)
		if err := f.Factorize(); err != nil {
			t.Fatal(err)
		}
		var wantRed []int
		if dup >= 0 {
			wantRed = []int{2*dup + 2, 2*dup + 3}
		}
		if f.Rank() != 2*nb || !slices.Equal(f.Redundant(), wantRed) {
			t.Fatalf("joint %d twice: rank %d, redundant %v; want %d, %v", dup, f.Rank(), f.Redundant(), 2*nb, wantRed)
		}
		if nnz := f.NNZ(); nnz > 6*2*nb {
			t.Errorf("joint %d twice: nnz(L+U) = %d, want ≤ %d (6 per row: no fill growing along the chain)", dup, nnz, 12*nb)
		}
	}
}
