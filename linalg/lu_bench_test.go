package linalg_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"linkage/linalg"
)

// BenchmarkLUFactor: LU.Factorize of a dense random n×n matrix (entries uniform in
// [−1, 1]), the copy into the LU's storage included. Above n = 64 the factorization is
// blocked; allocs/op shows whether it runs without allocating.
func BenchmarkLUFactor(b *testing.B) {
	for _, n := range []int{64, 200, 500, 1000} {
		rng := rand.New(rand.NewPCG(5, uint64(n)))
		K := randDense(rng, n, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f := linalg.NewLU(n)
			b.ReportAllocs()
			for b.Loop() {
				if err := f.Factorize(K); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
