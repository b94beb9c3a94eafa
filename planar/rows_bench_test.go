package planar_test

import (
	"math/rand/v2"
	"testing"

	"linkage/dae"
	"linkage/planar"
)

// barChainState returns a random state of sys near its initial guess: q, v and λ.
func barChainState(sys *planar.System) (q, v, lambda []float64) {
	nq, nc := sys.Size()
	r := rand.New(rand.NewPCG(3, 4))
	q, _ = sys.InitialGuess()
	v, lambda = make([]float64, nq), make([]float64, nc)
	for i := range q {
		q[i] += 0.1 * r.NormFloat64()
		v[i] = r.NormFloat64()
	}
	for i := range lambda {
		lambda[i] = r.NormFloat64()
	}
	return q, v, lambda
}

// BenchmarkBarChainRows measures planar's constraint rows on the bar chain at 1000 bars
// per evaluation: g with G's values (every residual of hht and bdf), g, G and γ (the
// meter after each step), γ alone (dopri5's accelerations), ∂(G v)/∂q's values (bdf's Newton matrix) and ∂(Gᵀλ)/∂q's
// values (each Newton matrix); for callgrind
// (BENCHMARKS.md, "planar's revolute rows").
func BenchmarkBarChainRows(b *testing.B) {
	sys := barChain(b, 1000)
	q, v, lambda := barChainState(sys)
	nq, nc := sys.Size()
	gcsr, ccsr := dae.ConstraintCSR(sys, nq, nc), dae.CouplingCSR(sys, nq)
	g, gamma := make([]float64, nc), make([]float64, nc)
	gv, cv := make([]float64, gcsr.NNZ()), make([]float64, ccsr.NNZ())
	b.Run("gG", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sys.ConstraintWithJacobianValues(g, gv, 0, q)
		}
	})
	b.Run("gGgamma", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sys.ConstraintJacobianGammaValues(g, gv, gamma, 0, q, v)
		}
	})
	b.Run("gamma", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sys.Gamma(gamma, 0, q, v)
		}
	})
	b.Run("Gvq", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sys.ConstraintJacobianDerivativeValues(gv, 0, q, v)
		}
	})
	b.Run("GTlambdaq", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sys.ConstraintForceDerivativeValues(cv, 0, q, lambda)
		}
	})
}
