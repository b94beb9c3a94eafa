package integrate

// NewtonFill returns, for hht, the genalpha family, daealpha, bdf and radau5 (its real system) on
// their sparse path, the nonzeros of the Newton
// matrix's pattern, those of its last LU factors (L + U with the diagonal) and the number
// of full (pivot-choosing) factorizations and of factorizations by pivot blocks
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
