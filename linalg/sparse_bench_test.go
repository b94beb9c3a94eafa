package linalg_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"linkage/linalg"
)

// BenchmarkKKTChain: Factorize + Solve of the KKT matrix of a planar chain of N bodies
// (nq = 3N, nc = 2N, M = diag(m, m, J) per body as planar assembles it, revolute
// joints ground–body 0 and body i–body i+1), dense LU against the sparse LDLᵀ. Dense
// stops at N = 200 (n = 1000: 0.15 s per factorization, DEPENDENCIES.md).
func BenchmarkKKTChain(b *testing.B) {
	for _, nb := range []int{10, 50, 200, 1000} {
		cs := newChain(rand.New(rand.NewPCG(91, uint64(nb))), nb, chainOptions{diagonal: true})
		rng := rand.New(rand.NewPCG(92, 93))
		r, s := randVec(rng, cs.nq), randVec(rng, cs.nc)
		x, y := make([]float64, cs.nq), make([]float64, cs.nc)
		if nb <= 200 {
			b.Run(fmt.Sprintf("dense/N=%d", nb), func(b *testing.B) {
				k := linalg.NewKKT(cs.nq, cs.nc)
				b.ReportAllocs()
				for b.Loop() {
					if err := k.Factorize(cs.A, cs.G, cs.G, 0); err != nil {
						b.Fatal(err)
					}
					copy(x, r)
					copy(y, s)
					k.Solve(x, y)
				}
			})
		}
		b.Run(fmt.Sprintf("sparse/N=%d", nb), func(b *testing.B) {
			k, err := linalg.NewSparseKKT(cs.nq, cs.nc, cs.aPat, cs.gPat)
			if err != nil {
				b.Fatal(err)
			}
			refinements := 0
			b.ReportAllocs()
			for b.Loop() {
				if err := k.Factorize(cs.A, cs.G, 0); err != nil {
					b.Fatal(err)
				}
				copy(x, r)
				copy(y, s)
				k.Solve(x, y)
				refinements += k.Refinements()
			}
			b.ReportMetric(float64(refinements)/float64(b.N), "refine/op")
			b.ReportMetric(float64(k.NNZ()), "nnz(L)")
		})
	}
}
