package spatial_test

import (
	"math/rand/v2"
	"testing"

	"linkage/dae"
)

// TestSparseEvaluation: the model with every element kind (bigModel, whose custom force
// makes the coupling dense) writes into the sparse patterns the values of its dense
// matrices, and the patterns cover every nonzero (dae.CheckSparse, 1e-12 relative: both
// paths make the same additions; the one-pass g, G, γ to the bit), at a random and at a
// singular pose; after the first
// call, which builds the patterns, no sparse method allocates.
func TestSparseEvaluation(t *testing.T) {
	sys := bigModel(t)
	nq, nc := sys.Size()
	r := rand.New(rand.NewPCG(9, 10))
	for name, p := range map[string]dae.CheckPoint{"random": randomPoint(r, nq, nc), "singular": singularPoint(r, nq, nc, false)} {
		if err := dae.CheckSparse(sys, p); err != nil {
			t.Errorf("%s pose: %v", name, err)
		}
	}
	p := randomPoint(r, nq, nc)
	mv := make([]float64, func() int { c := dae.MassCSR(sys, nq); return c.NNZ() }())
	gv := make([]float64, func() int { c := dae.ConstraintCSR(sys, nq, nc); return c.NNZ() }())
	cv := make([]float64, func() int { c := dae.CouplingCSR(sys, nq); return c.NNZ() }())
	g, gam := make([]float64, nc), make([]float64, nc)
	evals := map[string]func(){
		"MassValues":                             func() { sys.MassValues(mv, p.T, p.Q) },
		"ConstraintJacobianValues":               func() { sys.ConstraintJacobianValues(gv, p.T, p.Q) },
		"MassDerivativeValues":                   func() { sys.MassDerivativeValues(cv, p.T, p.Q, p.A) },
		"ConstraintForceDerivativeValues":        func() { sys.ConstraintForceDerivativeValues(cv, p.T, p.Q, p.Lambda) },
		"ForceDerivativeQValues":                 func() { sys.ForceDerivativeQValues(cv, p.T, p.Q, p.V) },
		"ForceDerivativeVValues":                 func() { sys.ForceDerivativeVValues(cv, p.T, p.Q, p.V) },
		"ConstraintJacobianDerivativeValues":     func() { sys.ConstraintJacobianDerivativeValues(gv, p.T, p.Q, p.A) },
		"ConstraintJacobianTimeDerivativeValues": func() { sys.ConstraintJacobianTimeDerivativeValues(gv, p.T, p.Q) },
		"ConstraintWithJacobianValues":           func() { sys.ConstraintWithJacobianValues(g, gv, p.T, p.Q) },
		"ConstraintJacobianGammaValues":          func() { sys.ConstraintJacobianGammaValues(g, gv, gam, p.T, p.Q, p.V) },
	}
	for name, fn := range evals {
		fn()
		if n := testing.AllocsPerRun(10, fn); n != 0 {
			t.Errorf("%s allocates %v times per call, want 0", name, n)
		}
	}
}
