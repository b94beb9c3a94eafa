package linalg

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// gglChainMatrix returns the pattern (by rows) and values of the Jacobian
// ∂F/∂y + c_j ∂F/∂y' of the stabilized index-2 (GGL) residual of a planar chain of nm
// point masses on rods in Cartesian coordinates, the matrix SUNDIALS IDA hands to KLU in
// the peer harness ida_chain.c (BENCHMARKS.md "The same matrix through both LUs"):
// unknowns y = (q[2nm], v[2nm], λ[nm], μ[nm]) and residual
//
//	q' − v + Gᵀμ,   m v' − f + Gᵀλ,   g(q),   G v,
//
// with g_i = (|p_i − p_{i−1}|² − l²)/2, m = l = 1. The state is bent (rod angles drawn
// in ±0.5 rad), with tensions λ_i growing towards the pin like a hanging chain's, small
// μ and velocities, and c_j = 200, so that every entry of the pattern is nonzero as in a
// step of a run.
func gglChainMatrix(rng *rand.Rand, nm int, cj float64) (pattern [][]int, value map[[2]int]float64) {
	iq := func(j, c int) int { return 2*(j-1) + c }
	iv := func(j, c int) int { return 2*nm + 2*(j-1) + c }
	il := func(i int) int { return 4*nm + i - 1 }
	im := func(i int) int { return 5*nm + i - 1 }
	d := make([][2]float64, nm+2) // d[i] = p_i − p_{i−1}, zero beyond the ends
	w := make([][2]float64, nm+2) // w[i] = v_i − v_{i−1}
	lam, mu := make([]float64, nm+2), make([]float64, nm+2)
	for i := 1; i <= nm; i++ {
		a := 0.5 * (2*rng.Float64() - 1)
		d[i] = [2]float64{math.Cos(a), math.Sin(a)}
		w[i] = [2]float64{0.1 * (2*rng.Float64() - 1), 0.1 * (2*rng.Float64() - 1)}
		lam[i] = 9.81 * float64(nm-i+1) * (1 + 0.1*rng.Float64())
		mu[i] = 1e-3 * (2*rng.Float64() - 1)
	}
	value = map[[2]int]float64{}
	emit := func(r, c int, v float64) { value[[2]int{r, c}] += v }
	for j := 1; j <= nm; j++ {
		for c := range 2 {
			rq, rv := iq(j, c), iv(j, c)
			emit(rq, iq(j, c), cj+mu[j]+mu[j+1])
			emit(rv, iq(j, c), lam[j]+lam[j+1])
			emit(rq, iv(j, c), -1)
			emit(rv, iv(j, c), cj)
			emit(rq, im(j), d[j][c])
			emit(rv, il(j), d[j][c])
			if j > 1 {
				emit(rq, iq(j-1, c), -mu[j])
				emit(rv, iq(j-1, c), -lam[j])
			}
			if j < nm {
				emit(rq, iq(j+1, c), -mu[j+1])
				emit(rv, iq(j+1, c), -lam[j+1])
				emit(rq, im(j+1), -d[j+1][c])
				emit(rv, il(j+1), -d[j+1][c])
			}
			emit(il(j), iq(j, c), d[j][c])
			emit(im(j), iq(j, c), w[j][c])
			emit(im(j), iv(j, c), d[j][c])
			if j > 1 {
				emit(il(j), iq(j-1, c), -d[j][c])
				emit(im(j), iq(j-1, c), -w[j][c])
				emit(im(j), iv(j-1, c), -d[j][c])
			}
		}
	}
	pattern = make([][]int, 6*nm)
	for _, rc := range slices.SortedFunc(maps.Keys(value), func(a, b [2]int) int {
		return cmpPair(a, b)
	}) {
		pattern[rc[0]] = append(pattern[rc[0]], rc[1])
	}
	return pattern, value
}

func cmpPair(a, b [2]int) int {
	if a[0] != b[0] {
		return a[0] - b[0]
	}
	return a[1] - b[1]
}

// BenchmarkLUGGL: the refactorization and the solve of SparseLU on the GGL Jacobian of
// the point-mass chain (gglChainMatrix) with nm masses, n = 6 nm unknowns, the matrix
// KLU factorizes in the peer harness: nm = 1667 is ida_chain's N_ida for 10 002
// unknowns. Each iteration writes the values (alternating two draws 1 ± 1 % apart, as
// consecutive Newton matrices), refactorizes (Factor, no pivot search: full/op reports
// any) and solves once. Instructions per refactorization and per solve are read with
// callgrind from refactor and solveInPlace (BENCHMARKS.md "SparseLU against KLU per
// nonzero").
func BenchmarkLUGGL(b *testing.B) {
	for _, nm := range []int{167, 1667} {
		rng := rand.New(rand.NewPCG(15, uint64(nm)))
		pattern, value := gglChainMatrix(rng, nm, 200)
		n := 6 * nm
		f, err := NewSparseLU(n, pattern)
		if err != nil {
			b.Fatal(err)
		}
		arp, acol := f.Pattern()
		var vals [2][]float64
		for s := range vals {
			vals[s] = make([]float64, len(acol))
			for i := range n {
				for t := arp[i]; t < arp[i+1]; t++ {
					vals[s][t] = value[[2]int{i, acol[t]}] * (1 + 0.01*(2*rng.Float64()-1))
				}
			}
		}
		rhs := luRandVec(rng, n)
		b.Run(fmt.Sprintf("N_ida=%d", nm), func(b *testing.B) {
			benchLUValues(b, f, vals, rhs, false)
		})
	}
}
