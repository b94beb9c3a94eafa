package dae

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// sparse.go: the sparse evaluation path of the contract. A System that declares its
// patterns (Sparsity) may also write its matrices straight into value arrays aligned with
// them (SparseEvaluator), so that nothing of size nq×nq is stored or swept; the dense
// methods stay for small systems and for checking.

// CSR is a fixed sparsity pattern in compressed-row form: row i's columns are
// Cols[RowStart[i]:RowStart[i+1]], increasing. A value array aligned with it has one entry
// per listed column, in the same order.
type CSR struct {
	NRows, NCols int
	RowStart     []int // length NRows + 1
	Cols         []int
}

// NewCSR returns the pattern of an nrow×ncol matrix whose row i may be nonzero at
// rows[i] (increasing columns), plus the diagonal entry (i, i) when diag is set (mass and
// coupling patterns always hold it). A nil rows means every row is dense.
func NewCSR(rows [][]int, nrow, ncol int, diag bool) CSR {
	p := CSR{NRows: nrow, NCols: ncol, RowStart: make([]int, nrow+1)}
	size := nrow // room for the diagonal
	for i := range rows {
		size += len(rows[i])
	}
	if rows == nil {
		size = nrow * ncol
	}
	p.Cols = make([]int, 0, size)
	for i := range nrow {
		var r []int
		if rows == nil {
			for j := range ncol {
				p.Cols = append(p.Cols, j)
			}
		} else {
			r = rows[i]
		}
		if diag && i < ncol && rows != nil && !containsSorted(r, i) {
			k := sort.SearchInts(r, i)
			p.Cols = append(append(append(p.Cols, r[:k]...), i), r[k:]...)
		} else {
			p.Cols = append(p.Cols, r...)
		}
		p.RowStart[i+1] = len(p.Cols)
	}
	return p
}

func containsSorted(r []int, x int) bool {
	k := sort.SearchInts(r, x)
	return k < len(r) && r[k] == x
}

// NNZ returns the number of listed entries, the length of an aligned value array.
func (p *CSR) NNZ() int { return len(p.Cols) }

// Row returns the columns of row i (shared: do not modify).
func (p *CSR) Row(i int) []int { return p.Cols[p.RowStart[i]:p.RowStart[i+1]] }

// Find returns the position of entry (i, j) in an aligned value array, or −1 when the
// pattern does not list it (binary search in row i).
func (p *CSR) Find(i, j int) int {
	r := p.Row(i)
	k := sort.SearchInts(r, j)
	if k < len(r) && r[k] == j {
		return p.RowStart[i] + k
	}
	return -1
}

// MassCSR returns the pattern of M that SparseEvaluator.MassValues fills: MassPattern with
// the diagonal (the diagonal alone when MassPattern is nil).
func MassCSR(s Sparsity, nq int) CSR {
	rows := s.MassPattern()
	if rows == nil {
		rows = make([][]int, nq)
	}
	return NewCSR(rows, nq, nq, true)
}

// ConstraintCSR returns the pattern of G (nc×nq) that ConstraintJacobianValues fills.
func ConstraintCSR(s Sparsity, nq, nc int) CSR {
	return NewCSR(s.ConstraintPattern(), nc, nq, false)
}

// CouplingCSR returns the pattern of ∂f/∂q, ∂f/∂v, ∂(M a)/∂q and ∂(Gᵀλ)/∂q that the
// coupling methods of SparseEvaluator fill: CouplingPattern with the diagonal, every column
// when CouplingPattern is nil (a dense coupling, e.g. custom forces differenced over all
// of q).
func CouplingCSR(s Sparsity, nq int) CSR {
	return NewCSR(s.CouplingPattern(), nq, nq, true)
}

// SparseEvaluator is the optional capability of a System with fixed patterns (Sparsity) to
// write its matrices straight into value arrays aligned with them: M with MassCSR, G with
// ConstraintCSR, and ∂(M a)/∂q, ∂(Gᵀλ)/∂q, ∂f/∂q, ∂f/∂v with CouplingCSR. Each method
// writes every entry of dst (length NNZ of its pattern), retains nothing and does not
// allocate; the values equal the dense methods' entries on the pattern, and the dense
// matrices are zero off it (CheckSparse verifies both).
type SparseEvaluator interface {
	Sparsity
	MassValues(dst []float64, t float64, q []float64)
	ConstraintJacobianValues(dst []float64, t float64, q []float64)
	MassDerivativeValues(dst []float64, t float64, q, a []float64)
	ConstraintForceDerivativeValues(dst []float64, t float64, q, lambda []float64)
	ForceDerivativeQValues(dst []float64, t float64, q, v []float64)
	ForceDerivativeVValues(dst []float64, t float64, q, v []float64)
}

// PatternError reports a declared pattern that misses a nonzero of the dense matrix, or a
// sparse value that differs from the dense entry, naming the entry by the system's
// coordinate and constraint names.
type PatternError struct {
	Quantity       string // "M", "G", "d(M a)/dq", "d(G^T lambda)/dq", "df/dq", "df/dv"
	Row, Col       int
	RowName        string // the constraint (for G) or coordinate owning the row
	ColName        string // the coordinate of the column
	Dense, Sparse  float64
	OutsidePattern bool // the pattern does not list (Row, Col); Sparse is then 0
}

func (e *PatternError) Error() string {
	if e.OutsidePattern {
		return fmt.Sprintf("dae: sparse check: %s[%d,%d] (row %s, column %s) = %.10g is nonzero but outside the declared pattern",
			e.Quantity, e.Row, e.Col, e.RowName, e.ColName, e.Dense)
	}
	return fmt.Sprintf("dae: sparse check: %s[%d,%d] (row %s, column %s): sparse value %.10g, dense %.10g",
		e.Quantity, e.Row, e.Col, e.RowName, e.ColName, e.Sparse, e.Dense)
}

// sparseTol is the relative gap CheckSparse allows between a sparse value and the dense
// entry: both paths add the same terms, so they agree to rounding of the largest entry.
const sparseTol = 1e-12

// CheckSparse compares, at the point p, every matrix sys writes by SparseEvaluator with its
// dense method: each sparse value must equal the dense entry (to 1e-12 of the largest
// entry), and every nonzero of the dense matrix must lie in the pattern. Quantities whose
// dense capability sys lacks (MassDerivative, ConstraintForceDerivative, ForceDerivative)
// are skipped. A SparseConstraintJacobianDerivative's ∂(G w)/∂q and G_t are compared on
// G's pattern too, against central differences (to 1e-7) where sys has no dense
// ConstraintJacobianDerivative; a SparseConstraintWithJacobian's g and G must equal
// Constraint's and ConstraintJacobianValues' to the bit. The error is a *PatternError naming the worst entry by its row's and
// column's owners; a sys that is not a SparseEvaluator is an error too.
func CheckSparse(sys System, p CheckPoint) error {
	se, ok := sys.(SparseEvaluator)
	if !ok {
		return fmt.Errorf("dae: sparse check: %T does not implement SparseEvaluator", sys)
	}
	nq, nc := sys.Size()
	a := orZero(p.A, nq)
	lambda := orZero(p.Lambda, nc)
	dense := mat.NewDense(nq, nq, nil)
	mc, gc, cc := MassCSR(se, nq), ConstraintCSR(se, nq, nc), CouplingCSR(se, nq)
	qs := []quantity{{"M", &mc,
		func(d *mat.Dense) { sys.Mass(d, p.T, p.Q) },
		func(v []float64) { se.MassValues(v, p.T, p.Q) }}}
	if nc > 0 {
		qs = append(qs, quantity{"G", &gc,
			func(d *mat.Dense) { sys.ConstraintJacobian(d, p.T, p.Q) },
			func(v []float64) { se.ConstraintJacobianValues(v, p.T, p.Q) }})
	}
	if m, ok := sys.(MassDerivative); ok {
		qs = append(qs, quantity{"d(M a)/dq", &cc,
			func(d *mat.Dense) { m.MassDerivative(d, p.T, p.Q, a) },
			func(v []float64) { se.MassDerivativeValues(v, p.T, p.Q, a) }})
	}
	if c, ok := sys.(ConstraintForceDerivative); ok && nc > 0 {
		qs = append(qs, quantity{"d(G^T lambda)/dq", &cc,
			func(d *mat.Dense) { c.ConstraintForceDerivative(d, p.T, p.Q, lambda) },
			func(v []float64) { se.ConstraintForceDerivativeValues(v, p.T, p.Q, lambda) }})
	}
	if f, ok := sys.(ForceDerivative); ok {
		qs = append(qs,
			quantity{"df/dq", &cc,
				func(d *mat.Dense) { f.ForceDerivativeQ(d, p.T, p.Q, p.V) },
				func(v []float64) { se.ForceDerivativeQValues(v, p.T, p.Q, p.V) }},
			quantity{"df/dv", &cc,
				func(d *mat.Dense) { f.ForceDerivativeV(d, p.T, p.Q, p.V) },
				func(v []float64) { se.ForceDerivativeVValues(v, p.T, p.Q, p.V) }})
	}
	qs = append(qs, reactionQuantities(sys, p, lambda, &cc, &gc)...)
	for _, x := range qs {
		if err := checkQuantity(sys, x, dense, sparseTol); err != nil {
			return err
		}
	}
	for _, x := range secondQuantities(sys, p, &gc) {
		if err := checkQuantity(sys, x.quantity, dense, x.tol); err != nil {
			return err
		}
	}
	return checkConstraintPass(sys, p, &gc)
}

// checkQuantity checks the coverage and values of x against its dense method, which
// writes into dense when x has nq rows (a fresh matrix otherwise), to the relative gap tol.
func checkQuantity(sys System, x quantity, dense *mat.Dense, tol float64) error {
	d := dense
	if nq, _ := dense.Dims(); x.csr.NRows != nq {
		d = mat.NewDense(x.csr.NRows, nq, nil)
	}
	x.dense(d)
	// Coverage first: a sparse path may refuse (panic on) an entry outside its pattern.
	if err := checkCoverage(sys, x.name, d, x.csr); err != nil {
		return err
	}
	vals := make([]float64, x.csr.NNZ())
	for k := range vals {
		vals[k] = math.NaN() // an entry the method does not write shows as a mismatch
	}
	x.values(vals)
	return compareSparse(sys, x.name, d, x.csr, vals, tol)
}

// quantity is one matrix CheckSparse compares: its pattern, its dense method and its
// value method.
type quantity struct {
	name   string
	csr    *CSR
	dense  func(*mat.Dense)
	values func([]float64)
}

// reactionQuantities returns the matrices of a SparseReactionForce for CheckSparse:
// ∂f_λ/∂q and ∂f_λ/∂v on the coupling pattern cc and (∂f_λ/∂λ)ᵀ on G's pattern gc.
func reactionQuantities(sys System, p CheckPoint, lambda []float64, cc, gc *CSR) []quantity {
	r, ok := sys.(SparseReactionForce)
	nq, nc := sys.Size()
	if !ok || !r.HasReactionForce() || nc == 0 {
		return nil
	}
	fq, fv, fl := mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil), mat.NewDense(nq, nc, nil)
	r.ReactionForceDerivative(fq, fv, fl, p.T, p.Q, p.V, lambda)
	vq, vv, vl := make([]float64, cc.NNZ()), make([]float64, cc.NNZ()), make([]float64, gc.NNZ())
	r.ReactionForceDerivativeValues(vq, vv, vl, p.T, p.Q, p.V, lambda)
	from := func(src []float64) func([]float64) { return func(v []float64) { copy(v, src) } }
	return []quantity{
		{"df_lambda/dq", cc, func(d *mat.Dense) { d.Copy(fq) }, from(vq)},
		{"df_lambda/dv", cc, func(d *mat.Dense) { d.Copy(fv) }, from(vv)},
		{"(df_lambda/dlambda)^T", gc, func(d *mat.Dense) { d.Copy(fl.T()) }, from(vl)},
	}
}

// entryName returns the names of row i and column j of quantity name: the constraint (for
// G) or coordinate owning the row, the coordinate of the column.
func entryName(sys System, name string, i, j int) (row, col string) {
	switch name {
	case "G", "(df_lambda/dlambda)^T", "d(G w)/dq", "G_t":
		return ConstraintName(sys, i), CoordinateName(sys, j)
	}
	return CoordinateName(sys, i), CoordinateName(sys, j)
}

// checkCoverage returns the first nonzero of the dense matrix d outside pattern csr.
func checkCoverage(sys System, name string, d *mat.Dense, csr *CSR) error {
	for i := range csr.NRows {
		for j, x := range d.RawRowView(i) {
			if x != 0 && csr.Find(i, j) < 0 {
				rn, cn := entryName(sys, name, i, j)
				return &PatternError{Quantity: name, Row: i, Col: j, RowName: rn, ColName: cn, Dense: x, OutsidePattern: true}
			}
		}
	}
	return nil
}

// compareSparse returns the worst disagreement between the dense matrix d and the values
// vals on pattern csr (whose coverage of d is checked already).
func compareSparse(sys System, name string, d *mat.Dense, csr *CSR, vals []float64, tol float64) error {
	scale := 1e-300
	for i := range csr.NRows {
		for _, x := range d.RawRowView(i) {
			scale = math.Max(scale, math.Abs(x))
		}
	}
	var worst *PatternError
	worstGap := 0.0
	for i := range csr.NRows {
		row := d.RawRowView(i)
		for k, j := range csr.Row(i) {
			v := vals[csr.RowStart[i]+k]
			gap := math.Abs(v-row[j]) / scale
			if math.IsNaN(gap) {
				gap = math.Inf(1)
			}
			if gap > tol && gap > worstGap {
				worstGap = gap
				rn, cn := entryName(sys, name, i, j)
				worst = &PatternError{Quantity: name, Row: i, Col: j, RowName: rn, ColName: cn, Dense: row[j], Sparse: v}
			}
		}
	}
	if worst != nil {
		return worst
	}
	return nil
}
