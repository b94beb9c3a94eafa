package linalg

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkLUChain: refactorize + solve of the unsymmetric KKT-like Newton matrix
// [M̂ Gᵀ; G 0] of a planar chain of N bodies (n = 5N; kktLU), with fresh values of the
// same pattern in every iteration: two matrices whose entries differ from a common draw
// by factors 1 ± 1 %, as consecutive Newton matrices of an integration do, taken in
// turn. Dense LU stops at N = 200 (n = 1000).
//
//   - dense: LU.Factorize(*mat.Dense) + Solve.
//   - sparse: SparseLU.Factorize(*mat.Dense) + Solve, the gather from the dense storage
//     included (at N = 1000 it reads 51k entries spread over 200 MB).
//   - sparse-values: the values written into Values() + Factor + Solve, the way a
//     caller that assembles sparsely feeds SparseLU.
//   - sparse-full: as sparse-values, but every Factor is a full factorization (pivot
//     search and depth-first searches; the pivot sequence is dropped before each
//     call): the cost of the first factorization and of a degraded refactorization.
//
// full/op is the share of the timed Factorize calls that searched for pivots; every
// SparseLU is warmed up by one full factorization before the timed loop.
func BenchmarkLUChain(b *testing.B) {
	for _, nb := range []int{10, 50, 200, 1000} {
		rng := rand.New(rand.NewPCG(21, uint64(nb)))
		s := kktLU(rng, nb, chainJoints(nb), 0)
		A := [2]*mat.Dense{perturbed(rng, s.A, 0.01), perturbed(rng, s.A, 0.01)}
		s.A = nil
		rhs := luRandVec(rng, s.n)
		x := make([]float64, s.n)
		if nb <= 200 {
			b.Run(fmt.Sprintf("dense/N=%d", nb), func(b *testing.B) {
				f := NewLU(s.n)
				i := 0
				b.ReportAllocs()
				for b.Loop() {
					if err := f.Factorize(A[i%2]); err != nil {
						b.Fatal(err)
					}
					copy(x, rhs)
					f.Solve(x)
					i++
				}
			})
		}
		b.Run(fmt.Sprintf("sparse/N=%d", nb), func(b *testing.B) {
			f := newBenchLU(b, s, A[1])
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				if err := f.Factorize(A[i%2]); err != nil {
					b.Fatal(err)
				}
				copy(x, rhs)
				f.Solve(x)
				i++
			}
			reportLU(b, f, i)
		})
		vals := [2][]float64{patternValues(b, s, A[0]), patternValues(b, s, A[1])}
		for _, full := range []bool{false, true} {
			name := "sparse-values"
			if full {
				name = "sparse-full"
			}
			b.Run(fmt.Sprintf("%s/N=%d", name, nb), func(b *testing.B) {
				benchValues(b, s, vals, rhs, full)
			})
		}
	}
}

// benchValues runs Values() + Factor + Solve, alternating between two sets of values;
// with full, each Factor searches for pivots.
func benchValues(b *testing.B, s luSystem, vals [2][]float64, rhs []float64, full bool) {
	benchLUValues(b, newBenchLU(b, s, nil), vals, rhs, full)
}

// benchLUValues is benchValues' loop on a constructed SparseLU: a warm-up full
// factorization of vals[1], then Values() + Factor + Solve alternating the two sets. It
// reports the share of full factorizations, nnz(L+U) (the patterns) and the nonzeros of
// L and U that the refactorization and the solves work on.
func benchLUValues(b *testing.B, f *SparseLU, vals [2][]float64, rhs []float64, full bool) {
	copy(f.Values(), vals[1])
	if err := f.Factor(); err != nil {
		b.Fatal(err)
	}
	x := make([]float64, len(rhs))
	i, full0 := 0, f.FullFactorizations()
	b.ReportAllocs()
	for b.Loop() {
		copy(f.Values(), vals[i%2])
		if full {
			f.symbolic = false
		}
		if err := f.Factor(); err != nil {
			b.Fatal(err)
		}
		copy(x, rhs)
		f.Solve(x)
		i++
	}
	b.ReportMetric(float64(f.FullFactorizations()-full0)/float64(i), "full/op")
	b.ReportMetric(float64(f.NNZ()), "nnz(L+U)")
	b.ReportMetric(float64(len(f.lnz)+len(f.unz)+f.n), "nonzeros(L+U)")
}

// newBenchLU returns a SparseLU for s, warmed up by a full factorization of A unless A
// is nil.
func newBenchLU(b *testing.B, s luSystem, A *mat.Dense) *SparseLU {
	f, err := NewSparseLU(s.n, s.pattern)
	if err != nil {
		b.Fatal(err)
	}
	if A != nil {
		if err := f.Factorize(A); err != nil {
			b.Fatal(err)
		}
	}
	return f
}

func reportLU(b *testing.B, f *SparseLU, calls int) {
	b.ReportMetric(float64(f.FullFactorizations()-1)/float64(calls), "full/op")
	b.ReportMetric(float64(f.NNZ()), "nnz(L+U)")
}

// patternValues returns the pattern entries of A in the order of Values().
func patternValues(b *testing.B, s luSystem, A *mat.Dense) []float64 {
	f := newBenchLU(b, s, A)
	return slices.Clone(f.Values())
}
