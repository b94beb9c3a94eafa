package integrate

import (
	"fmt"
	"slices"

	"linkage/dae"
	"linkage/linalg"
)

// Radau5's singular mode (newtonSolver.singular) regularizes the algebraic rows of its
// real and complex matrices c K − J (c = γ/h, (α+iβ)/h) as newtonReg does those of the
// second-order methods: each row i with a zero diagonal (λ, μ) gets K_ii = −ε s_i, s_i
// an estimate of the diagonal of C A⁻¹ B, A the block of the rows with a nonzero diagonal
// (q, v, a), so that the factorized Schur complement is S + ε diag(S). In the first-order
// form y = (q, v, a, λ, μ) the constraint rows reach λ only through other rows (index-3
// g: q → v → a → λ; index-2 G v: v → a → λ), and newtonReg's one-term estimate
// Σ_j K_ij K_ji / K_jj is zero there. With A = D + N (D its diagonal) the Neumann series
// A⁻¹ = D⁻¹ − D⁻¹ N D⁻¹ + D⁻¹ N D⁻¹ N D⁻¹ − … gives s_i as the sum over the closed paths
// i → j₁ → … → j_m → i through rows of A, m ≤ radauRegHops:
//
//	s_i = Σ (−1)^(m−1) K_ij₁ K_j₁j₂ … K_j_m i / (K_j₁j₁ … K_j_mj_m).
//
// On index-3 rows the m = 3 path gives (h/γ)² (G diag(M)⁻¹ Gᵀ)_ii, the Schur complement's
// diagonal through the velocity rows (with the complex shift for the complex system); on
// index-2 rows m = 2 gives (h/γ)(G diag(M)⁻¹ Gᵀ)_ii; on GGL's μ rows m = 1 gives h/γ
// (G Gᵀ)_ii.
const radauRegHops = 3

// radauRegEps is ε for Radau5, relative to the Schur complement's diagonal so that a
// change of units leaves the regularized step unchanged (TestRegularizeSchurUnits). It is
// a measured setting, not a robust one: on A02 (N = 40, 20 s, ggl, a out of the norms in
// the singular mode; BENCHMARKS.md, IFToMM, fourth pass) 1e-14 and 1e-13 pass at tol 1e-8
// and 1e-6, while 1e-16, 1e-15 and 1e-12 to 1e-8 each stop at some singular position at
// tol 1e-8; at 1e-6 all but 1e-8 reach 20 s and 1e-16, 1e-14, 1e-13 and 1e-10 stay within
// 1e-3 m (the error after ten revolutions is 1e-4 to 3e-3 m whatever ε). The stops have
// one signature: at a fixed t the Newton increments of q and v stay at 1e-3 to 5e-3 of
// their scales with a rate near 1 however short h is cut, down to HMin. The regularized
// matrix contracts the residual along a direction whose Schur eigenvalue σ is comparable
// to ε s by ε s/(σ + ε s) per iteration and moves q and v along it by about σ^½ r/(σ + ε
// s) for a residual r there, both independent of h (σ and s scale alike with h): a smaller
// ε amplifies rounding and the residual that earlier steps left along nearly lost
// directions (up to r/(2√(ε s))), a larger one widens the band of slowly converging
// directions. Where a run stops depends on where its steps fall in that band.
// Fifth pass (BENCHMARKS.md; `linkage reproduce iftomm-radau5-eps`, Radau5.RegEps): at
// the stops the first Newton increment of v stays the same for h from 1e-5 to 1e-12 s
// while y₀'s residuals are at 1e-13 (G v + g_t) and 1e-14 (g); the multipliers' increments
// grow as 1/(h ε) along the lost directions, and the rounding of the velocity rows alone,
// solved through this matrix, gives increments of v of 0.5 to 10 times their scale at tol
// 1e-9 within 1e-5 s of a singular instant: GGL's G v + g_t = 0 fixes v there only to
// u|G||v|/σ, finer than that no ε or iteration gets.
const radauRegEps = 1e-14

// radauScalar is the entry type of Radau5's real and complex Newton matrices.
type radauScalar interface{ float64 | complex128 }

// radauPattern is a CSR pattern (sorted columns, every diagonal) on which the singular
// mode's estimate walks; s is its scratch. The dense path uses the full pattern, whose
// values are the row-major matrix.
type radauPattern struct {
	csr dae.CSR
	sr  []float64
	sc  []complex128
}

func newRadauPattern(rows [][]int, n int) *radauPattern {
	return &radauPattern{csr: dae.NewCSR(rows, n, n, true), sr: make([]float64, n), sc: make([]complex128, n)}
}

// at is the slot of (i, j), −1 when absent.
func (p *radauPattern) at(i, j int) int {
	cols := p.csr.Cols[p.csr.RowStart[i]:p.csr.RowStart[i+1]]
	if k, ok := slices.BinarySearch(cols, j); ok {
		return p.csr.RowStart[i] + k
	}
	return -1
}

// regularizeSchur writes K_ii = −ε s_i into every row of v (values on p) whose diagonal
// is zero; s is scratch of length n. The estimates are all made before any is written,
// so the regularized rows never serve as intermediate rows.
func regularizeSchur[T radauScalar](p *radauPattern, v, s []T, eps T) {
	var zero T
	for i := range p.csr.NRows {
		s[i] = zero
		if v[p.at(i, i)] != zero {
			continue
		}
		for t := p.csr.RowStart[i]; t < p.csr.RowStart[i+1]; t++ {
			j := p.csr.Cols[t]
			if kjj := v[p.at(j, j)]; v[t] != zero && kjj != zero {
				s[i] += schurPaths(p, v, i, j, v[t]/kjj, 1)
			}
		}
	}
	for i := range p.csr.NRows {
		if s[i] != zero {
			v[p.at(i, i)] = -eps * s[i]
		}
	}
}

// schurPaths sums the paths of regularizeSchur that have reached row j after m rows of A
// with weight w = (−1)^(m−1) K_ij₁ … K_j_{m−1}j / (K_j₁j₁ … K_jj).
func schurPaths[T radauScalar](p *radauPattern, v []T, i, j int, w T, m int) T {
	var zero, s T
	if t := p.at(j, i); t >= 0 {
		s = w * v[t]
	}
	if m == radauRegHops {
		return s
	}
	for u := p.csr.RowStart[j]; u < p.csr.RowStart[j+1]; u++ {
		l := p.csr.Cols[u]
		if kll := v[p.at(l, l)]; l != j && l != i && v[u] != zero && kll != zero {
			s += schurPaths(p, v, i, l, -w*v[u]/kll, m+1)
		}
	}
	return s
}

// radauAug is the pattern ∪ diagonal on which the sparse paths factorize the regularized
// matrices (the Newton pattern leaves the algebraic rows' diagonal out), made at the
// first regularization. The added diagonals are weak (linalg.NewSparseLURegularized):
// ordered as the rows without diagonal they were, the factors keep the Newton pattern's
// fill; as ordinary diagonals they had 5× its fill on A02 (N = 40: nnz(L+U) 2.2e5
// against 4.4e4), which made the singular mode 8× slower per step.
type radauAug struct {
	p    *radauPattern
	re   *linalg.SparseLU
	cx   *linalg.ComplexSparseLU
	slot []int // slot of the original pattern's entry t in p
	neg  []float64
}

func newRadauAug(row, col []int, n int) *radauAug {
	rows := make([][]int, n)
	weak := make([]bool, n) // rows the original pattern leaves without diagonal
	for i := range weak {
		weak[i] = true
	}
	for t, i := range row {
		rows[i] = append(rows[i], col[t])
		if col[t] == i {
			weak[i] = false
		}
	}
	for i := range rows {
		slices.Sort(rows[i])
	}
	a := &radauAug{p: newRadauPattern(rows, n)}
	c := &a.p.csr
	aug := make([][]int, n)
	for i := range n {
		aug[i] = c.Cols[c.RowStart[i]:c.RowStart[i+1]]
	}
	var err error
	if a.re, err = linalg.NewSparseLURegularized(n, aug, weak); err == nil {
		a.cx, err = linalg.NewComplexSparseLURegularized(n, aug, weak)
	}
	if err != nil {
		panic(fmt.Sprintf("integrate: radau5: regularized Newton matrix pattern: %v", err))
	}
	a.slot = make([]int, len(row))
	for t, i := range row {
		a.slot[t] = a.p.at(i, col[t])
	}
	a.neg = make([]float64, len(c.Cols))
	return a
}

// factor writes c K − J from −J on the original pattern (negJ) and −1 on the diagonal
// of the rows unit, regularizes both matrices with ε = eps and factorizes them.
func (a *radauAug) factor(negJ, kdiag []float64, unit []int, fr, ar, br, eps float64) error {
	clear(a.neg)
	for t, x := range negJ {
		a.neg[a.slot[t]] = x
	}
	for _, i := range unit {
		a.neg[a.p.at(i, i)] = -1
	}
	c := &a.p.csr
	rv, cv := a.re.Values(), a.cx.Values()
	for i := range c.NRows {
		for t := c.RowStart[i]; t < c.RowStart[i+1]; t++ {
			x := a.neg[t]
			rv[t], cv[t] = x, complex(x, 0)
			if c.Cols[t] == i {
				rv[t] += fr * kdiag[i]
				cv[t] += complex(ar*kdiag[i], br*kdiag[i])
			}
		}
	}
	regularizeSchur(a.p, rv, a.p.sr, eps)
	regularizeSchur(a.p, cv, a.p.sc, complex(eps, 0))
	if err := a.re.Factor(); err != nil {
		return err
	}
	return a.cx.Factor()
}
