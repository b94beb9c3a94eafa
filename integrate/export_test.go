package integrate

import (
	"math"
	"math/cmplx"
	"slices"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// NewtonFill returns, for hht, the genalpha family, daealpha, bdf and radau5 (its real system) on
// their sparse path, the nonzeros of the Newton matrix's pattern (bdf's and radau5's: the
// matrix they factorize, with the accelerations eliminated), those of its last LU factors
// (L + U with the diagonal) and the number of full (pivot-choosing) factorizations and of factorizations by pivot blocks
// (linalg.SparseLU.UseBlocks) so far; ok is false without a sparse Newton factorization.
func NewtonFill(m Method) (matrix, factors, fulls, blocks int, ok bool) {
	var lu *newtonFactor
	switch x := m.(type) {
	case *HHT:
		lu, _, _ = x.w.regularization()
	case *GenAlpha:
		lu, _, _ = x.w.regularization()
	case *BDF:
		lu, _, _ = x.w.regularization()
	case *DAEAlpha:
		lu = x.w.lu
	case *Radau5:
		if s := x.w.spLU; s != nil {
			_, cols := s.re.Pattern()
			return len(cols), s.re.NNZ(), s.re.FullFactorizations(), s.re.BlockFactorizations(), true
		}
	}
	if lu != nil && lu.elimLU != nil { // bdf: the matrix with the accelerations eliminated
		_, cols := lu.elimLU.Pattern()
		return len(cols), lu.elimLU.NNZ(), lu.elimLU.FullFactorizations(), 0, true
	}
	if lu == nil || lu.sparse == nil {
		return 0, 0, 0, 0, false
	}
	return len(lu.csr.Cols), lu.sparse.NNZ(), lu.sparse.FullFactorizations(), lu.sparse.BlockFactorizations(), true
}

// NewtonMatrix returns the sparse Newton matrix that hht's last factorization took: its
// pattern by rows and the values; ok is false without a sparse Newton factorization.
func NewtonMatrix(m Method) (rowStart, cols []int, vals []float64, ok bool) {
	h, isHHT := m.(*HHT)
	if !isHHT {
		return nil, nil, nil, false
	}
	lu, _, _ := h.w.regularization()
	if lu == nil || lu.sparse == nil {
		return nil, nil, nil, false
	}
	rowStart, cols = lu.sparse.Pattern()
	return rowStart, cols, lu.sparse.Values(), true
}

// SemiExplicitNewton writes bdf's and radau5's Newton matrix c K − ∂φ/∂y of sys in
// formulation form (Baumgarte α = 5, β = 20, α₀ = 50) at (t, y), y = fill(n), on the
// sparse path (values on the pattern rowStart, cols) and on the dense path (dense, n×n),
// and returns whether the sparse path took the constraint rows' derivatives from
// dae.SparseConstraintJacobianDerivative and the row evaluations it spent on differences;
// ok is false when sys is not on the sparse path.
func SemiExplicitNewton(sys dae.System, form Formulation, c, t float64, fill func(n int) []float64) (rowStart, cols []int, vals []float64, dense *mat.Dense, analytic bool, rowEvals int, ok bool) {
	sp, err := newSemiExplicit(sys, form, true)
	if err != nil || sp.sp == nil {
		return nil, nil, nil, nil, false, 0, false
	}
	de, _ := newSemiExplicit(sys, form, false)
	for _, s := range []*semiExplicit{sp, de} {
		s.baumAlpha, s.baumBeta, s.alpha0 = 5, 20, 50
	}
	y := fill(sp.n)
	f := sp.sparseNewtonFactor()
	csr := f.patternCSR()
	vals = make([]float64, csr.NNZ())
	sp.newtonValues(vals, c, t, y)
	dense = mat.NewDense(de.n, de.n, nil)
	de.jacobian(dense, t, y)
	dense.Scale(-1, dense)
	for i := range 2 * de.nq {
		dense.Set(i, i, dense.At(i, i)+c)
	}
	return csr.RowStart, csr.Cols, vals, dense, sp.sec != nil, sp.rowEvals, true
}

// SemiExplicitSolves solves bdf's sparse Newton system c K − ∂φ/∂y of sys in formulation
// form at (t, y), y = fill(n), for the right-hand side b = fill(n) (a second draw), twice:
// with the full matrix on (q, v, a, λ[, μ]) factorized by linalg.SparseLU, and with the
// accelerations eliminated (bdf's newtonFactor, velelim.go). It returns both solutions,
// their normwise backward errors in the full matrix K, ‖K x − b‖∞ / (‖K‖∞‖x‖∞), and K's
// condition number κ∞ (dense); ok is false when sys is not on the sparse path.
func SemiExplicitSolves(sys dae.System, form Formulation, c, t float64, fill func(n int) []float64) (full, reduced []float64, omegaFull, omegaRed, kappa float64, ok bool) {
	s, err := newSemiExplicit(sys, form, true)
	if err != nil || s.sp == nil {
		return nil, nil, 0, 0, 0, false
	}
	s.baumAlpha, s.baumBeta, s.alpha0 = 5, 20, 50
	y, b := fill(s.n), fill(s.n)
	f := s.sparseNewtonFactor()
	csr := f.patternCSR()
	s.newtonValues(f.Values(), c, t, y)
	lu, err := linalg.NewSparseLU(s.n, s.newtonPattern())
	if err != nil {
		panic(err)
	}
	copy(lu.Values(), f.Values())
	if err := lu.Factor(); err != nil {
		panic(err)
	}
	if err := f.Factor(); err != nil {
		panic(err)
	}
	full, reduced = slices.Clone(b), slices.Clone(b)
	lu.Solve(full)
	f.Solve(reduced)
	K := mat.NewDense(s.n, s.n, nil)
	for i := range s.n {
		for p := csr.RowStart[i]; p < csr.RowStart[i+1]; p++ {
			K.Set(i, csr.Cols[p], f.Values()[p])
		}
	}
	omega := func(x []float64) float64 {
		r := mat.NewVecDense(s.n, slices.Clone(b))
		r.MulVec(K, mat.NewVecDense(s.n, x))
		r.SubVec(r, mat.NewVecDense(s.n, b))
		return mat.Norm(r, math.Inf(1)) / (mat.Norm(K, math.Inf(1)) * mat.Norm(mat.NewVecDense(s.n, x), math.Inf(1)))
	}
	return full, reduced, omega(full), omega(reduced), mat.Cond(K, math.Inf(1)), true
}

// SemiExplicitComplexSolves is SemiExplicitSolves for radau5's complex system: the matrix
// c K − ∂φ/∂y with c + iβ in place of c on the differential diagonal, a complex right-hand
// side, the full matrix by linalg.ComplexSparseLU against radau5's eliminated one. It
// returns both solutions and the eliminated one's normwise backward error ‖K x − b‖∞ /
// (‖K‖∞‖x‖∞) (moduli).
func SemiExplicitComplexSolves(sys dae.System, form Formulation, c, beta, t float64, fill func(n int) []float64) (full, reduced []complex128, omega float64, ok bool) {
	s, err := newSemiExplicit(sys, form, true)
	if err != nil || s.sp == nil {
		return nil, nil, 0, false
	}
	s.baumAlpha, s.baumBeta, s.alpha0 = 5, 20, 50
	y, br, bi := fill(s.n), fill(s.n), fill(s.n)
	f := s.sparseNewtonFactor()
	s.newtonValues(f.Values(), c, t, y)
	pattern := s.newtonPattern()
	lu, err := linalg.NewComplexSparseLU(s.n, pattern)
	if err != nil {
		panic(err)
	}
	x, _, err := newComplexEliminated(s.n, pattern, s.eliminationStages())
	if err != nil {
		panic(err)
	}
	csr := f.patternCSR()
	for i := range s.n {
		for p := csr.RowStart[i]; p < csr.RowStart[i+1]; p++ {
			v := complex(f.Values()[p], 0)
			if csr.Cols[p] == i && s.differential(i) {
				v += complex(0, beta)
			}
			lu.Values()[p], x.Values()[p] = v, v
		}
	}
	if err := lu.Factor(); err != nil {
		panic(err)
	}
	if err := x.Factor(); err != nil {
		panic(err)
	}
	b := make([]complex128, s.n)
	for i := range b {
		b[i] = complex(br[i], bi[i])
	}
	full, reduced = slices.Clone(b), slices.Clone(b)
	lu.Solve(full)
	x.Solve(reduced)
	var res, kmax, xmax float64
	for i := range s.n {
		r, k := b[i], 0.0
		for p := csr.RowStart[i]; p < csr.RowStart[i+1]; p++ {
			r -= x.Values()[p] * reduced[csr.Cols[p]]
			k += cmplx.Abs(x.Values()[p])
		}
		res, kmax, xmax = math.Max(res, cmplx.Abs(r)), math.Max(kmax, k), math.Max(xmax, cmplx.Abs(reduced[i]))
	}
	return full, reduced, res / (kmax * xmax), true
}
