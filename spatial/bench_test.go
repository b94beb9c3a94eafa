package spatial_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkEvaluations measures one evaluation of each System quantity on the spatial
// four-bar (21 coordinates, 23 rows): the per-Newton-iteration costs of the implicit
// methods. Run: go test -run X -bench Evaluations -benchtime 2000x ./spatial/
func BenchmarkEvaluations(b *testing.B) {
	t := &testing.T{}
	sys, _ := spatialFourBar(t)
	nq, nc := sys.Size()
	p := randomPoint(rand.New(rand.NewPCG(11, 12)), nq, nc)
	M := mat.NewDense(nq, nq, nil)
	G := mat.NewDense(nc, nq, nil)
	f := make([]float64, nq)
	g := make([]float64, nc)
	cases := []struct {
		name string
		fn   func()
	}{
		{"Mass", func() { sys.Mass(M, p.T, p.Q) }},
		{"Force", func() { sys.Force(f, p.T, p.Q, p.V) }},
		{"Constraint", func() { sys.Constraint(g, p.T, p.Q) }},
		{"ConstraintJacobian", func() { sys.ConstraintJacobian(G, p.T, p.Q) }},
		{"Gamma", func() { sys.Gamma(g, p.T, p.Q, p.V) }},
		{"ConstraintForceDerivative", func() { sys.ConstraintForceDerivative(M, p.T, p.Q, p.Lambda) }},
		{"ForceDerivativeQ", func() { sys.ForceDerivativeQ(M, p.T, p.Q, p.V) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.fn()
			}
		})
	}
}
