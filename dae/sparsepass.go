package dae

import (
	"fmt"
	"math"
)

// sparsepass.go: g and G in one pass over the constraints.

// SparseConstraintWithJacobian is the optional capability of a SparseEvaluator to write
// the constraints g(t, q) and G's values (ConstraintCSR) in one pass, each constraint's
// kinematics evaluated once for both: what Constraint and ConstraintJacobianValues write,
// the same numbers. Residuals that need both at one q (the GGL, index-3 and Baumgarte
// forms) call it instead of the two. It retains nothing and does not allocate.
type SparseConstraintWithJacobian interface {
	SparseEvaluator
	ConstraintWithJacobianValues(g, G []float64, t float64, q []float64)
}

// SparseConstraintJacobianGamma is the optional capability of a
// SparseConstraintWithJacobian to write γ(t, q, v) (Gamma) in the same pass as g and G's
// values: what Constraint, ConstraintJacobianValues and Gamma write, the same numbers.
// ResidualMeter measures the three constraint levels of a state with it. It retains
// nothing and does not allocate.
type SparseConstraintJacobianGamma interface {
	SparseConstraintWithJacobian
	ConstraintJacobianGammaValues(g, G, gamma []float64, t float64, q, v []float64)
}

// checkConstraintPass returns an error when sys's ConstraintWithJacobianValues at p
// differs from Constraint or ConstraintJacobianValues in any entry (both are the same
// computation, so to the bit), naming the constraint and, for G, the coordinate.
func checkConstraintPass(sys System, p CheckPoint, gc *CSR) error {
	s, ok := sys.(SparseConstraintWithJacobian)
	_, nc := sys.Size()
	if !ok || nc == 0 {
		return nil
	}
	g, G := make([]float64, nc), make([]float64, gc.NNZ())
	for i := range G {
		G[i] = math.NaN()
	}
	s.ConstraintWithJacobianValues(g, G, p.T, p.Q)
	wantG, wantGv := make([]float64, nc), make([]float64, gc.NNZ())
	sys.Constraint(wantG, p.T, p.Q)
	s.ConstraintJacobianValues(wantGv, p.T, p.Q)
	for i := range g {
		if g[i] != wantG[i] {
			return fmt.Errorf("dae: sparse check: ConstraintWithJacobianValues: g[%d] (%s) = %.17g, Constraint gives %.17g",
				i, ConstraintName(sys, i), g[i], wantG[i])
		}
	}
	for i := range gc.NRows {
		for k, j := range gc.Row(i) {
			if at := gc.RowStart[i] + k; G[at] != wantGv[at] {
				return &PatternError{Quantity: "G (with g)", Row: i, Col: j, RowName: ConstraintName(sys, i),
					ColName: CoordinateName(sys, j), Dense: wantGv[at], Sparse: G[at]}
			}
		}
	}
	return checkGammaPass(sys, p, g, wantG, G, wantGv)
}

// checkGammaPass returns an error when sys's ConstraintJacobianGammaValues at p differs
// from Constraint, ConstraintJacobianValues (wantG, wantGv) or Gamma in any entry, to
// the bit; g and G are scratch of their lengths.
func checkGammaPass(sys System, p CheckPoint, g, wantG, G, wantGv []float64) error {
	s, ok := sys.(SparseConstraintJacobianGamma)
	if !ok {
		return nil
	}
	nq, nc := sys.Size()
	v := orZero(p.V, nq)
	gamma, wantGamma := make([]float64, nc), make([]float64, nc)
	for i := range G {
		G[i] = math.NaN()
	}
	s.ConstraintJacobianGammaValues(g, G, gamma, p.T, p.Q, v)
	sys.Gamma(wantGamma, p.T, p.Q, v)
	for i := range g {
		if g[i] != wantG[i] || gamma[i] != wantGamma[i] {
			return fmt.Errorf("dae: sparse check: ConstraintJacobianGammaValues: g[%d], γ[%d] (%s) = %.17g, %.17g; Constraint and Gamma give %.17g, %.17g",
				i, i, ConstraintName(sys, i), g[i], gamma[i], wantG[i], wantGamma[i])
		}
	}
	for i, x := range G {
		if x != wantGv[i] {
			return fmt.Errorf("dae: sparse check: ConstraintJacobianGammaValues: G's value %d = %.17g, ConstraintJacobianValues gives %.17g", i, x, wantGv[i])
		}
	}
	return nil
}
