package spatial

// second.go: (t, q, w) ⇒ ∂(G w)/∂q;  (t, q) ⇒ G_t, both on G's pattern
// (dae.SparseConstraintJacobianDerivative). With the rows of constraint.go,
//
//	normalization:  ∂(G w)/∂q = 2 w_pᵀ,                   G_t = 0,
//	joint row:      ∂(G w)/∂q = Σ_k W_k (∇²c_k w_P)ᵀ,     G_t = Σ_k W_k' ∇c_k.

// ConstraintJacobianDerivativeValues writes ∂(G w)/∂q, the constraint Hessians contracted
// with w (seed 000, eqs. 22-25), into the values of G's pattern.
func (s *System) ConstraintJacobianDerivativeValues(dst []float64, t float64, q, w []float64) {
	tg := s.ConstraintTarget(dst)
	tg.Zero()
	for i, b := range s.bodies[1:] {
		c := b.col + 3
		tg.Row(i).AddRun(c, []float64{2 * w[c], 2 * w[c+1], 2 * w[c+2], 2 * w[c+3]})
	}
	var k pairKin
	var e coordEval
	var hw [14]float64
	last := -1
	for r := range s.rows {
		rw := &s.rows[r]
		wt, _, _, _, _, _ := rw.Weights(t)
		pr := s.rowKin(r, q, &k, &last)
		wp := pr.rate(w)
		for i := range rw.N {
			e.evalHessian(&rw.Terms[i].Coord, &k)
			for a := range hw {
				var x float64
				for b, y := range wp {
					x += e.hess[a][b] * y
				}
				hw[a] = x
			}
			tg.AddTermGradient(s.nbody+r, i, pr.col[:], wt[i], hw[:])
		}
	}
}

// ConstraintJacobianTimeDerivativeValues writes G_t = Σ_k W_k' ∇c_k (nonzero on the
// rows of revolute motions, whose weights turn with the drive) into the values of G's
// pattern.
func (s *System) ConstraintJacobianTimeDerivativeValues(dst []float64, t float64, q []float64) {
	tg := s.ConstraintTarget(dst)
	tg.Zero()
	var k pairKin
	var e coordEval
	last := -1
	for r := range s.rows {
		rw := &s.rows[r]
		if !rw.Trig {
			continue // constant weights
		}
		_, dw, _, _, _, _ := rw.Weights(t)
		pr := s.rowKin(r, q, &k, &last)
		for i := range rw.N {
			e.eval(&rw.Terms[i].Coord, &k, false)
			tg.AddTermGradient(s.nbody+r, i, pr.col[:], dw[i], e.grad[:])
		}
	}
}

// rowKin returns the pair of row r with its rows' kinematics at q in k, evaluated anew only
// when the pair differs from the one held (*last), as a joint's rows share it.
func (s *System) rowKin(r int, q []float64, k *pairKin, last *int) *pairRef {
	p := s.rows[r].Terms[0].Pair
	pr := &s.pairs[p]
	if p != *last {
		pr.kinRows(q, k)
		*last = p
	}
	return pr
}
