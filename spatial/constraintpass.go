package spatial

// constraintpass.go: g, G and γ in one pass over the rows (dae.SparseConstraintWithJacobian,
// dae.SparseConstraintJacobianGamma). Constraint, WriteConstraintJacobian and Gamma each
// evaluate a joint's pair kinematics on their own; the residuals of hht, genalpha and the
// semi-explicit methods read g and G at one q, and the residual meter reads all three
// after each step, so here the kinematics are evaluated once (kinRows, whose values are
// kinValues' by the same arithmetic, and coordEval.val is coord.value's), and every entry
// is the number the separate methods write, to the bit (dae.CheckSparse compares them).

// ConstraintWithJacobianValues writes g(t, q) and G's values on ConstraintPattern in one
// pass: the numbers of Constraint and ConstraintJacobianValues.
func (s *System) ConstraintWithJacobianValues(g, G []float64, t float64, q []float64) {
	s.writeConstraintPass(g, G, nil, t, q, nil)
}

// ConstraintJacobianGammaValues writes g(t, q), G's values and γ(t, q, v) in one pass:
// the numbers of Constraint, ConstraintJacobianValues and Gamma.
func (s *System) ConstraintJacobianGammaValues(g, G, gamma []float64, t float64, q, v []float64) {
	s.writeConstraintPass(g, G, gamma, t, q, v)
}

// writeConstraintPass writes g and G and, when gamma is not nil, γ at velocity v, each
// with the operations of its own method in the same order.
func (s *System) writeConstraintPass(g, G, gamma []float64, t float64, q, v []float64) {
	dst := s.ConstraintTarget(G)
	dst.Zero()
	for i, b := range s.bodies[1:] {
		p := bodyP(q, b.col)
		g[i] = p[0]*p[0] + p[1]*p[1] + p[2]*p[2] + p[3]*p[3] - 1
		dst.Row(i).AddRun(b.col+3, []float64{2 * p[0], 2 * p[1], 2 * p[2], 2 * p[3]})
		if gamma != nil {
			pd := bodyP(v, b.col)
			gamma[i] = -2 * (pd[0]*pd[0] + pd[1]*pd[1] + pd[2]*pd[2] + pd[3]*pd[3])
		}
	}
	var k pairKin
	var e coordEval
	var vp [14]float64
	last := -1
	for r := range s.rows {
		rw := &s.rows[r]
		w, dw, ddw, F, _, ddF := rw.Weights(t)
		pr := &s.pairs[rw.Terms[0].Pair]
		if rw.Terms[0].Pair != last {
			pr.kinRows(q, &k)
			if gamma != nil {
				vp = pr.rate(v)
			}
			last = rw.Terms[0].Pair
		}
		gr, gm := -rw.C0-F, ddF
		for i := range rw.N {
			c := &rw.Terms[i].Coord
			e.eval(c, &k, false)
			gr += w[i] * e.val
			dst.AddTermGradient(s.nbody+r, i, pr.col[:], w[i], e.grad[:])
			if gamma != nil {
				gm -= w[i]*c.quadAlong(&k, &vp) + 2*dw[i]*e.dotGrad(&vp) + ddw[i]*e.val
			}
		}
		g[s.nbody+r] = gr
		if gamma != nil {
			gamma[s.nbody+r] = gm
		}
	}
}
