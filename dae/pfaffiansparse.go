package dae

import "gonum.org/v1/gonum/mat"

// SparseNonholonomic is the optional capability of Pfaffian rows (Nonholonomic) on fixed
// patterns, the sparse evaluation path of A(t,q) v + b = 0 beside SparseEvaluator's of
// the holonomic rows: with it, WithPfaffianRows of a SparseEvaluator is a SparseEvaluator
// too, and the integrators that take the rows keep the sparse path on large models.
type SparseNonholonomic interface {
	// PfaffianPattern returns, per row k of A, the columns (increasing) that can be
	// nonzero in A or in ∂(A v + b)/∂q: one pattern for both, as a rolling or knife-edge
	// row reads the coordinates of the bodies whose velocities it constrains.
	PfaffianPattern() [][]int
	// PfaffianValues writes A's values on PfaffianPattern (row by row, CSR order) into dst
	// and b(t,q) into b.
	PfaffianValues(dst, b []float64, t float64, q []float64)
	// PfaffianRateDerivativeValues writes ∂(A v + b)/∂q on PfaffianPattern.
	PfaffianRateDerivativeValues(dst []float64, t float64, q, v []float64)
	// PfaffianForceDerivativeValues writes ∂(Aᵀμ)/∂q on the system's CouplingCSR, which
	// must cover it.
	PfaffianForceDerivativeValues(dst []float64, t float64, q, mu []float64)
}

// PfaffianCSR returns the pattern of A (nn×nq) that PfaffianValues fills.
func PfaffianCSR(s SparseNonholonomic, nq, nn int) CSR {
	return NewCSR(s.PfaffianPattern(), nn, nq, false)
}

// sparsePfaffianRows is WithPfaffianRows of a SparseEvaluator whose rows are a
// SparseNonholonomic: G' = [G; A] on the pattern of G's rows followed by A's, so its values
// are G's followed by A's, and ∂(Gᵀλ + Aᵀμ)/∂q on the coupling pattern.
type sparsePfaffianRows struct {
	*pfaffianRows
	se    SparseEvaluator
	sn    SparseNonholonomic
	rows  [][]int   // ConstraintPattern: G's rows, then A's
	nnzG  int       // values of G's rows
	coupl []float64 // scratch on CouplingCSR
}

// patternPfaffianRows is WithPfaffianRows of a system that declares patterns (Sparsity)
// without writing values, with SparseNonholonomic rows: the patterns of G' = [G; A] for
// the sparse factorizations of dense-evaluated Newton matrices.
type patternPfaffianRows struct {
	*pfaffianRows
	sp   Sparsity
	rows [][]int
}

func (s *patternPfaffianRows) MassPattern() [][]int       { return s.sp.MassPattern() }
func (s *patternPfaffianRows) ConstraintPattern() [][]int { return s.rows }
func (s *patternPfaffianRows) CouplingPattern() [][]int   { return s.sp.CouplingPattern() }

// newSparsePfaffianRows returns p with the patterns (and values) of its rows when the
// underlying system and its rows have them.
func newSparsePfaffianRows(p *pfaffianRows) System {
	sp, ok := p.System.(Sparsity)
	sn, ok2 := p.n.(SparseNonholonomic)
	if !ok || !ok2 {
		return p
	}
	rows := append(append([][]int(nil), sp.ConstraintPattern()[:p.nc]...), sn.PfaffianPattern()...)
	se, ok := p.System.(SparseEvaluator)
	if !ok {
		return &patternPfaffianRows{pfaffianRows: p, sp: sp, rows: rows}
	}
	s := &sparsePfaffianRows{pfaffianRows: p, se: se, sn: sn, rows: rows}
	g := ConstraintCSR(se, p.nq, p.nc)
	s.nnzG = g.NNZ()
	c := CouplingCSR(se, p.nq)
	s.coupl = make([]float64, c.NNZ())
	return s
}

var (
	_ SparseEvaluator = (*sparsePfaffianRows)(nil)
	_ PfaffianRows    = (*sparsePfaffianRows)(nil)
)

func (s *sparsePfaffianRows) MassPattern() [][]int       { return s.se.MassPattern() }
func (s *sparsePfaffianRows) ConstraintPattern() [][]int { return s.rows }
func (s *sparsePfaffianRows) CouplingPattern() [][]int   { return s.se.CouplingPattern() }

func (s *sparsePfaffianRows) MassValues(dst []float64, t float64, q []float64) {
	s.se.MassValues(dst, t, q)
}

// ConstraintJacobianValues writes G's values, then A's.
func (s *sparsePfaffianRows) ConstraintJacobianValues(dst []float64, t float64, q []float64) {
	if s.nc > 0 {
		s.se.ConstraintJacobianValues(dst[:s.nnzG], t, q)
	}
	s.sn.PfaffianValues(dst[s.nnzG:], s.pfaffianRows.rows.b, t, q)
}

func (s *sparsePfaffianRows) MassDerivativeValues(dst []float64, t float64, q, a []float64) {
	s.se.MassDerivativeValues(dst, t, q, a)
}

// ConstraintForceDerivativeValues writes ∂(Gᵀλ + Aᵀμ)/∂q with (λ, μ) = lm.
func (s *sparsePfaffianRows) ConstraintForceDerivativeValues(dst []float64, t float64, q, lm []float64) {
	if s.nc > 0 {
		s.se.ConstraintForceDerivativeValues(dst, t, q, lm[:s.nc])
	} else {
		clear(dst)
	}
	s.sn.PfaffianForceDerivativeValues(s.coupl, t, q, lm[s.nc:])
	for k, x := range s.coupl {
		dst[k] += x
	}
}

func (s *sparsePfaffianRows) ForceDerivativeQValues(dst []float64, t float64, q, v []float64) {
	s.se.ForceDerivativeQValues(dst, t, q, v)
}

func (s *sparsePfaffianRows) ForceDerivativeVValues(dst []float64, t float64, q, v []float64) {
	s.se.ForceDerivativeVValues(dst, t, q, v)
}

// PfaffianRateValues writes ∂(A v + b)/∂q of the Pfaffian rows on their pattern, the
// values of G's pattern after HolonomicRows (SparsePfaffianRows).
func (s *sparsePfaffianRows) PfaffianRateValues(dst []float64, t float64, q, v []float64) {
	s.sn.PfaffianRateDerivativeValues(dst, t, q, v)
}

// SparsePfaffianRows is implemented by WithPfaffianRows of a SparseEvaluator with
// SparseNonholonomic rows: ∂(A v + b)/∂q on the part of ConstraintCSR after the
// HolonomicRows (its values follow G's there), for the Newton matrices of the methods that
// take the rows (hht).
type SparsePfaffianRows interface {
	PfaffianRows
	PfaffianRateValues(dst []float64, t float64, q, v []float64)
}

// checkSparsePfaffian checks, for a SparseEvaluator with SparseNonholonomic rows, the
// system with its rows appended (CheckSparse: [G; A] and ∂(Gᵀλ + Aᵀμ)/∂q against the
// dense matrices) and ∂(A v + b)/∂q on PfaffianPattern against PfaffianRateDerivative.
func checkSparsePfaffian(sys System, p CheckPoint) error {
	n, ok := AsNonholonomic(sys)
	sn, ok2 := sys.(SparseNonholonomic)
	if _, se := sys.(SparseEvaluator); !ok || !ok2 || !se {
		return nil
	}
	nq, nc := sys.Size()
	nn := n.NumPfaffian()
	w := WithPfaffianRows(sys)
	pw := p
	pw.Lambda = make([]float64, nc+nn)
	copy(pw.Lambda, orZero(p.Lambda, nc))
	for k := range nn {
		pw.Lambda[nc+k] = 1 + 0.5*float64(k) // a generic μ, as checkPfaffian
	}
	if err := CheckSparse(w, pw); err != nil {
		return err
	}
	csr := PfaffianCSR(sn, nq, nn)
	d := mat.NewDense(nn, nq, nil)
	n.PfaffianRateDerivative(d, p.T, p.Q, p.V)
	const name = "d(A v + b)/dq"
	if err := checkCoverage(w, name, d, &csr); err != nil {
		return err
	}
	vals := make([]float64, csr.NNZ())
	sn.PfaffianRateDerivativeValues(vals, p.T, p.Q, p.V)
	return compareSparse(w, name, d, &csr, vals, sparseTol)
}
