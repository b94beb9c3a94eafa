package natural

// second.go: (t, q, w) ⇒ ∂(G w)/∂q;  (t, q) ⇒ G_t, both on G's pattern
// (dae.SparseConstraintJacobianDerivative): row r is Σ_k W_k (∇²c_k w_p)ᵀ and Σ_k W_k' ∇c_k
// (constraint.go's rows; the Hessians are constant, zero for the linear coordinates).

// ConstraintJacobianDerivativeValues writes ∂(G w)/∂q, the constraint Hessians contracted
// with w (seed 000, eqs. 22-25), into the values of G's pattern.
func (s *System) ConstraintJacobianDerivativeValues(dst []float64, t float64, q, w []float64) {
	tg := s.ConstraintTarget(dst)
	tg.Zero()
	var e coordEval
	var hw [8]float64
	for r := range s.rows {
		rw := &s.rows[r]
		pr := &s.pairs[s.rowPair[r]]
		p := pr.values(q)
		wp := pr.rate(w)
		wt, _, _, _, _, _ := rw.Weights(t)
		for k := range rw.N {
			if c := rw.Terms[k].Coord.kind; c == coordDx || c == coordDy {
				continue // linear
			}
			e.eval(rw.Terms[k].Coord, pr, &p, true)
			for a := range hw {
				var x float64
				for b, y := range wp {
					x += e.hess[a][b] * y
				}
				hw[a] = x
			}
			tg.AddTermGradient(r, k, pr.col[:], wt[k], hw[:])
		}
	}
}

// ConstraintJacobianTimeDerivativeValues writes G_t = Σ_k W_k' ∇c_k (nonzero on the rows of
// revolute motions, whose weights turn with the drive) into the values of G's pattern.
func (s *System) ConstraintJacobianTimeDerivativeValues(dst []float64, t float64, q []float64) {
	tg := s.ConstraintTarget(dst)
	tg.Zero()
	var e coordEval
	for r := range s.rows {
		rw := &s.rows[r]
		if !rw.Trig {
			continue // constant weights
		}
		pr := &s.pairs[s.rowPair[r]]
		p := pr.values(q)
		_, dw, _, _, _, _ := rw.Weights(t)
		for k := range rw.N {
			e.eval(rw.Terms[k].Coord, pr, &p, false)
			tg.AddTermGradient(r, k, pr.col[:], dw[k], e.grad[:])
		}
	}
}
