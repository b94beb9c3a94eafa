package assembly

import (
	"fmt"
	"math"

	"linkage/dae"
)

// slots.go: a route's elements (pairs, constraint rows' terms) and a fixed pattern ⇒ the
// position of every entry an element writes in the pattern's value array, found once when
// the patterns are built, so that a sparse write in a step is vals[pos] += x with no
// search: the assembly of finite-element codes (issue 15). The positions serve only the
// Targets Matrices makes on its own patterns; any other sparse Target looks entries up.

// Positions that are no value of the pattern.
const (
	slotGround  = -1 // the entry reads the ground (column −1): nothing to add
	slotMissing = -2 // the pattern lacks the entry: a bug of the patterns, reported if nonzero
)

// Elements lists what a route's writers add element by element, for the positions found
// once: the columns of q of each pair's coordinate vector p (−1 for the ground), and for
// each constraint row the pairs of its terms in the order the row's index k names them
// (Target.AddTermGradient; at most two, nil for rows written otherwise).
type Elements struct {
	Pairs    [][]int
	RowPairs [][]int
}

// PairColumns returns Elements.Pairs for a route's pairs, cols giving each one's columns
// (shared with the pair: the route must not move its pairs afterwards).
func PairColumns[P any](pairs []P, cols func(*P) []int) [][]int {
	out := make([][]int, len(pairs))
	for k := range pairs {
		out[k] = cols(&pairs[k])
	}
	return out
}

// RowTermPairs returns Elements.RowPairs for the rows of a route, the first at constraint
// index first, of nc rows in all (the others have no terms).
func RowTermPairs[C any](rows []Row[C], first, nc int) [][]int {
	out := make([][]int, nc)
	for r := range rows {
		rw := &rows[r]
		ps := make([]int, rw.N)
		for k := range rw.N {
			ps[k] = rw.Terms[k].Pair
		}
		out[first+r] = ps
	}
	return out
}

// slots holds the positions in the values of one pattern: of the diagonal (square
// patterns), of each pair's block over its p (coupling), of each row term's pair columns
// in its row (G).
type slots struct {
	csr     *dae.CSR
	diag    []int32      // diag[i]: position of (i, i), slotMissing if unlisted
	blockAt []int        // pair k's n×n block at blocks[blockAt[k]:], row-major over p
	blocks  []int32      //
	terms   [][2][]int32 // term k of row i: the positions of its pair's columns in row i (nil: none)
	pairs   [][]int      // Elements.Pairs
}

// newSlots returns the positions on pattern p: of its diagonal when square, of the pairs'
// blocks of e when p is square (a coupling pattern), of the row terms of e when not (G).
// A pattern too large for int32 positions (a dense coupling of custom forces past
// nq = 46 340, 17 GB of values) gets none: its targets look every entry up.
func newSlots(p *dae.CSR, square bool, e Elements) slots {
	s := slots{csr: p}
	if p.NNZ() > math.MaxInt32 {
		return s
	}
	if !square {
		s.termSlots(e)
		return s
	}
	s.diag = diagonalSlots(p)
	s.blockSlots(e.Pairs)
	return s
}

// position returns the position of entry (i, j), slotGround for a ground column.
func position(p *dae.CSR, i, j int) int32 {
	if i < 0 || j < 0 {
		return slotGround
	}
	if k := p.Find(i, j); k >= 0 {
		return int32(k)
	}
	return slotMissing
}

// diagonalSlots returns the positions of the diagonal of square pattern p.
func diagonalSlots(p *dae.CSR) []int32 {
	d := make([]int32, p.NRows)
	for i := range d {
		d[i] = position(p, i, i)
	}
	return d
}

// blockSlots fills s's pair blocks on its pattern.
func (s *slots) blockSlots(pairs [][]int) {
	s.pairs = pairs
	s.blockAt = make([]int, len(pairs))
	n := 0
	for k, cols := range pairs {
		s.blockAt[k] = n
		n += len(cols) * len(cols)
	}
	s.blocks = make([]int32, 0, n)
	for _, cols := range pairs {
		for _, ca := range cols {
			for _, cb := range cols {
				s.blocks = append(s.blocks, position(s.csr, ca, cb))
			}
		}
	}
}

// termSlots fills s's row terms on G's pattern.
func (s *slots) termSlots(e Elements) {
	s.pairs = e.Pairs
	n := 0
	for _, ps := range e.RowPairs {
		for _, pr := range ps {
			n += len(e.Pairs[pr])
		}
	}
	all := make([]int32, 0, n) // one array, sliced per term
	s.terms = make([][2][]int32, len(e.RowPairs))
	for i, ps := range e.RowPairs {
		if len(ps) > 2 {
			panic(fmt.Sprintf("assembly: constraint row %d has %d terms; a Row has at most 2", i, len(ps)))
		}
		for k, pr := range ps {
			a := len(all)
			for _, c := range e.Pairs[pr] {
				all = append(all, position(s.csr, i, c))
			}
			s.terms[i][k] = all[a:len(all):len(all)]
		}
	}
}

// block returns the positions of pair k's block, or nil when s holds none for it.
func (s *slots) block(k int, n int) []int32 {
	if s == nil || k < 0 || k >= len(s.blockAt) || len(s.pairs[k]) != n {
		return nil
	}
	return s.blocks[s.blockAt[k] : s.blockAt[k]+n*n]
}

// A value of a pattern starts at +0 (Zero) and is a sum of additions, so it is never −0
// (x + (−x) = +0 when rounding to nearest): adding an exact zero leaves every bit of it as
// it is. The writers through positions therefore add zeros without testing for them, and
// still give the look-ups' values bit for bit (those leave zeros out, to spare a search).

// outside panics for the nonzero x at (i, j) outside the declared pattern, a route's bug
// that dae.CheckSparse reports by element before it can happen.
func outside(i, j int, x float64) {
	panic(fmt.Sprintf("assembly: entry (%d, %d) = %g is outside the declared pattern", i, j, x))
}
