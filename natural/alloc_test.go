package natural_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/natural"
)

// TestNoAllocations: every System evaluation, the sparse ones and the outputs run without
// allocating (STYLE: no allocation in a step).
func TestNoAllocations(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	sys, err := everything(randomPose(rng)).Assemble()
	if err != nil {
		t.Fatal(err)
	}
	nq, nc := sys.Size()
	q, v := sys.InitialGuess()
	a, lambda := randomVec(rng, nq), randomVec(rng, nc)
	M := mat.NewDense(nq, nq, nil)
	G := mat.NewDense(nc, nq, nil)
	f := make([]float64, nq)
	g := make([]float64, nc)
	mass, jac, coup := dae.MassCSR(sys, nq), dae.ConstraintCSR(sys, nq, nc), dae.CouplingCSR(sys, nq)
	mv, gv, cv := make([]float64, mass.NNZ()), make([]float64, jac.NNZ()), make([]float64, coup.NNZ())
	sys.MassValues(mv, 0.3, q) // builds the patterns once
	evals := map[string]func(){
		"Mass":                                   func() { sys.Mass(M, 0.3, q) },
		"Force":                                  func() { sys.Force(f, 0.3, q, v) },
		"Constraint":                             func() { sys.Constraint(g, 0.3, q) },
		"ConstraintJacobian":                     func() { sys.ConstraintJacobian(G, 0.3, q) },
		"ConstraintTimeDerivative":               func() { sys.ConstraintTimeDerivative(g, 0.3, q) },
		"Gamma":                                  func() { sys.Gamma(g, 0.3, q, v) },
		"ConstraintForceDerivative":              func() { sys.ConstraintForceDerivative(M, 0.3, q, lambda) },
		"ForceDerivativeQ":                       func() { sys.ForceDerivativeQ(M, 0.3, q, v) },
		"ForceDerivativeV":                       func() { sys.ForceDerivativeV(M, 0.3, q, v) },
		"MassValues":                             func() { sys.MassValues(mv, 0.3, q) },
		"ConstraintJacobianValues":               func() { sys.ConstraintJacobianValues(gv, 0.3, q) },
		"ForceDerivativeQValues":                 func() { sys.ForceDerivativeQValues(cv, 0.3, q, v) },
		"ConstraintJacobianDerivativeValues":     func() { sys.ConstraintJacobianDerivativeValues(gv, 0.3, q, a) },
		"ConstraintJacobianTimeDerivativeValues": func() { sys.ConstraintJacobianTimeDerivativeValues(gv, 0.3, q) },
		"Energy":                                 func() { sys.Energy(0.3, q, v) },
		"NonConservativePower":                   func() { sys.NonConservativePower(0.3, q, v) },
		"DrivingPower":                           func() { sys.DrivingPower(0.3, q, lambda) },
		"Reaction":                               func() { sys.Reaction(2, 0.3, q, v, a, lambda) },
		"Pose":                                   func() { sys.Pose(natural.BodyID(2), q) },
	}
	for name, fn := range evals {
		if n := testing.AllocsPerRun(10, fn); n != 0 {
			t.Errorf("%s allocates %g times per call", name, n)
		}
	}
}
