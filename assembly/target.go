package assembly

import (
	"fmt"
	"sort"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// target.go: the destination of a matrix a route writes: a dense matrix (dae.System and
// its derivative capabilities) or the value array of a fixed pattern
// (dae.SparseEvaluator). A route writes each matrix once, against a Target, so the dense
// and the sparse path receive the same additions in the same order and agree to the bit.

// Target is a dense matrix or a value array aligned with a CSR pattern. A sparse target
// made by Matrices on its own patterns holds the positions of the diagonal and of the
// route's elements found once (slots.go); other entries, and every entry of other sparse
// targets, are looked up in their row (binary search). Adding a nonzero outside the
// pattern panics, a route's bug that dae.CheckSparse reports by element before it can
// happen.
type Target struct {
	dense         *mat.Dense
	data          []float64 // d's storage, rows stride apart, cols long
	stride, ncols int
	csr           *dae.CSR
	vals          []float64
	slots         *slots // positions on csr found once; nil: look up
}

// Dense returns the target writing into d.
func Dense(d *mat.Dense) Target {
	raw := d.RawMatrix()
	return Target{dense: d, data: raw.Data, stride: raw.Stride, ncols: raw.Cols}
}

// Sparse returns the target writing into vals, aligned with p.
func Sparse(p *dae.CSR, vals []float64) Target { return Target{csr: p, vals: vals} }

// sparseAt returns the target writing into vals, aligned with s's pattern, with s's
// positions.
func sparseAt(s *slots, vals []float64) Target { return Target{csr: s.csr, vals: vals, slots: s} }

// Sparse reports whether t writes into a pattern's value array.
func (t *Target) Sparse() bool { return t.csr != nil }

// ValuesOf returns the value array t writes into when t is aligned with pattern p (the
// same *dae.CSR), else nil: a route may then add at positions it found on p once
// (planar's constraint Jacobian) instead of looking each column up.
func (t *Target) ValuesOf(p *dae.CSR) []float64 {
	if t.csr != p {
		return nil
	}
	return t.vals
}

// Zero sets every entry to zero.
func (t *Target) Zero() {
	if t.dense != nil {
		t.dense.Zero()
		return
	}
	clear(t.vals)
}

// AddTermGradient adds scale·g into row i at the columns cols of the pair of the row's
// term k (a term w·∇c of a row of G), at the positions found once when t holds them for
// that term (Elements.RowPairs), else by look-ups in the row. (A method on *Target: G is written term by term
// at every residual, and a Target passed by value made the call cost a third more.)
func (t *Target) AddTermGradient(i, k int, cols []int, scale float64, g []float64) {
	if s := t.slots; s != nil && i < len(s.terms) {
		if pos := s.terms[i][k]; pos != nil {
			g = g[:len(pos)]
			vals := t.vals
			for b, p := range pos {
				y := scale * g[b]
				if p >= 0 {
					vals[p] += y
				} else if p == slotMissing && y != 0 {
					outside(i, cols[b], y)
				}
			}
			return
		}
	}
	t.Row(i).AddAt(cols, scale, g)
}

// Positions that TermPositions lists where an entry is no value: a column of the ground,
// which adds nothing, and an entry the pattern lacks, where a nonzero is the route's bug
// (AddTermGradient reports it).
const (
	PosGround  = slotGround
	PosMissing = slotMissing
)

// TermPositions returns t's value array and the positions in it of the entries of the pair
// of term k of row i, those AddTermGradient adds at, or nil, nil when t holds none for that
// term: for a route that writes a gradient with few nonzeros entry by entry (planar's
// separations d_x, d_y). A position is ≥ 0, PosGround or PosMissing.
func (t *Target) TermPositions(i, k int) ([]float64, []int32) {
	if s := t.slots; s != nil && i < len(s.terms) {
		if pos := s.terms[i][k]; pos != nil {
			return t.vals, pos
		}
	}
	return nil, nil
}

// PairBlockPositions returns t's value array and the positions in it of pair k's n×n
// block (entry (a, b) at a·n + b), those AddHessianOver adds at, or nil, nil when t holds
// none: for a route that writes a Hessian with few nonzeros entry by entry (planar's
// separations d_x, d_y). A position is ≥ 0, PosGround or PosMissing.
func (t *Target) PairBlockPositions(k, n int) ([]float64, []int32) {
	if blk := t.slots.block(k, n); blk != nil {
		return t.vals, blk
	}
	return nil, nil
}

// Row returns row i for additions.
func (t *Target) Row(i int) TargetRow {
	if t.dense != nil {
		o := i * t.stride
		return TargetRow{dense: t.data[o : o+t.ncols : o+t.ncols], row: i}
	}
	return t.sparseRow(i)
}

func (t *Target) sparseRow(i int) TargetRow {
	a, b := t.csr.RowStart[i], t.csr.RowStart[i+1]
	diag := -1
	if t.slots != nil && t.slots.diag != nil && t.slots.diag[i] >= 0 {
		diag = int(t.slots.diag[i]) - a
	}
	return TargetRow{cols: t.csr.Cols[a:b], vals: t.vals[a:b], row: i, diag: diag}
}

// Add adds x to entry (i, j); a diagonal entry of a target with positions without a search.
func (t *Target) Add(i, j int, x float64) {
	if t.data != nil {
		t.data[i*t.stride+j] += x
		return
	}
	if i == j && t.slots != nil && t.slots.diag != nil {
		if p := t.slots.diag[i]; p >= 0 {
			t.vals[p] += x
		} else if x != 0 {
			outside(i, j, x)
		}
		return
	}
	t.addSparse(i, j, x)
}

func (t *Target) addSparse(i, j int, x float64) { t.sparseRow(i).addSparse(j, x) }

// TargetRow is one row of a Target.
type TargetRow struct {
	dense []float64 // the dense row, or nil
	cols  []int     // the sparse row's columns
	vals  []float64 // and values
	row   int
	diag  int // position of the diagonal in cols, −1 if unknown (no positions, or unlisted)
}

// Add adds x to the entry in column j. It is small enough to inline, so that the dense
// path costs one branch more than writing the row directly.
func (r TargetRow) Add(j int, x float64) {
	if r.dense != nil {
		r.dense[j] += x
		return
	}
	r.addSparse(j, x)
}

// AddAt adds scale·x[k] to the entry in column cols[k] for every k with cols[k] ≥ 0 (a
// pair's columns, −1 for the ground). A sparse row is searched linearly from the last
// column found: a pair's columns rise within each body, so the search walks the row about
// once per body instead of a binary search per entry. Exact zeros are not added to a
// sparse row (a + 0 = a: the values are those of the dense path).
func (r TargetRow) AddAt(cols []int, scale float64, x []float64) {
	if d := r.dense; d != nil {
		for k, c := range cols {
			if c >= 0 {
				d[c] += scale * x[k]
			}
		}
		return
	}
	p := 0
	for k, c := range cols {
		y := scale * x[k]
		if c < 0 || y == 0 {
			continue
		}
		if p == len(r.cols) || r.cols[p] > c {
			p = 0
		}
		for p < len(r.cols) && r.cols[p] < c {
			p++
		}
		if p == len(r.cols) || r.cols[p] != c {
			panic(fmt.Sprintf("assembly: entry (%d, %d) = %g is outside the declared pattern", r.row, c, y))
		}
		r.vals[p] += y
	}
}

// AddRun adds x[k] to the entry in column j0+k for every k: a dense block's row, such as a
// body's 4×4 block in the Euler parameters. A sparse row finds j0 from its diagonal's
// position when the run covers the diagonal and the target holds positions, else by one
// search; the run's columns must follow j0 in the row without a gap (a block is declared
// whole).
func (r TargetRow) AddRun(j0 int, x []float64) {
	if len(x) == 0 {
		return
	}
	if d := r.dense; d != nil {
		d = d[j0 : j0+len(x)]
		for k, v := range x {
			d[k] += v
		}
		return
	}
	p := r.diag - (r.row - j0)
	if r.diag < 0 || r.row < j0 || r.row >= j0+len(x) {
		p = sort.SearchInts(r.cols, j0)
	}
	if p < 0 || p+len(x) > len(r.cols) || r.cols[p] != j0 || r.cols[p+len(x)-1] != j0+len(x)-1 {
		panic(fmt.Sprintf("assembly: columns %d..%d of row %d are not all in the declared pattern", j0, j0+len(x)-1, r.row))
	}
	vals := r.vals[p : p+len(x)]
	for k, v := range x {
		vals[k] += v
	}
}

// addSparse finds column j in the sparse row and adds x there.
func (r TargetRow) addSparse(j int, x float64) {
	k := sort.SearchInts(r.cols, j)
	if k < len(r.cols) && r.cols[k] == j {
		r.vals[k] += x
		return
	}
	if x != 0 {
		panic(fmt.Sprintf("assembly: entry (%d, %d) = %g is outside the declared pattern", r.row, j, x))
	}
}
