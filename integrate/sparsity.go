package integrate

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// kktNewtonPattern returns the structural pattern, row by row, of the Newton matrix
//
//	[ A  Gᵀ ]    A = M, f_q, f_v, (M a)_q and (Gᵀλ)_q combined (MassPattern ∪ CouplingPattern)
//	[ G  0  ]
//
// of the implicit methods whose unknowns are (a, λ) (hht, genalpha), or nil when sys does
// not declare its patterns (dae.Sparsity) or its coupling is dense.
func kktNewtonPattern(sys dae.System) [][]int {
	sp, ok := sys.(dae.Sparsity)
	if !ok {
		return nil
	}
	coupling := sp.CouplingPattern()
	if coupling == nil {
		return nil
	}
	nq, nc := sys.Size()
	mass, gRows := sp.MassPattern(), sp.ConstraintPattern()
	rows := make([][]int, nq+nc)
	for i := range nq {
		rows[i] = append(rows[i], i)
		rows[i] = append(rows[i], coupling[i]...)
		if mass != nil {
			rows[i] = append(rows[i], mass[i]...)
		}
	}
	for r, cols := range gRows {
		for _, j := range cols {
			rows[j] = append(rows[j], nq+r) // Gᵀ
		}
		rows[nq+r] = append(rows[nq+r], cols...) // G
	}
	for i := range rows {
		slices.Sort(rows[i])
		rows[i] = slices.Compact(rows[i])
	}
	return rows
}

// newtonFactor factorizes an implicit method's Newton matrix, assembled row-major into
// Matrix(): by dense LU, or by sparse LU when the method has the matrix's pattern and the
// matrix has at least sparseMinSize rows (the assembly stays dense; only the pattern
// entries are read).
type newtonFactor struct {
	dense  *linalg.LU
	sparse *linalg.SparseLU
	buf    *mat.Dense // assembly storage of the sparse path
}

// newNewtonFactor returns the factorization for n×n matrices with the given pattern (nil:
// dense). A pattern that linalg rejects is a bug of the System's declared patterns: it
// panics with the pattern error.
func newNewtonFactor(n int, pattern [][]int) *newtonFactor {
	if pattern == nil || n < sparseMinSize {
		return &newtonFactor{dense: linalg.NewLU(n)}
	}
	s, err := linalg.NewSparseLU(n, pattern)
	if err != nil {
		panic(fmt.Sprintf("integrate: bad Newton matrix pattern: %v", err))
	}
	return &newtonFactor{sparse: s, buf: mat.NewDense(n, n, nil)}
}

// Matrix returns the row-major n×n storage to assemble the Newton matrix into.
func (f *newtonFactor) Matrix() []float64 {
	if f.sparse != nil {
		return f.buf.RawMatrix().Data
	}
	return f.dense.Matrix().Data
}

// Factor factorizes the matrix held in Matrix().
func (f *newtonFactor) Factor() error {
	if f.sparse != nil {
		return f.sparse.Factorize(f.buf)
	}
	return f.dense.Factor()
}

// Solve overwrites b with the solution of K x = b.
func (f *newtonFactor) Solve(b []float64) {
	if f.sparse != nil {
		f.sparse.Solve(b)
		return
	}
	f.dense.Solve(b)
}
