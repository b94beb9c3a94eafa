package linalg

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// SparseKKT factorizes and solves the saddle-point (KKT) systems of constrained mechanics
//
//	K = [ A  Gᵀ ]  [x]   [r]
//	    [ G −d·I ] [y] = [s]
//
// with A nq×nq symmetric (the mass matrix, or M plus stiffness and damping terms), G nc×nq
// the constraint Jacobian of full row rank and d ≥ 0, exploiting the sparsity of A and G.
// Note the sign: the constraint block is −d·I here, where KKT's general form writes +d·I.
//
// NewSparseKKT does the symbolic work once for a fixed pattern: a fill-reducing ordering P
// of K by approximate minimum degree (Amestoy, Davis & Duff 1996) followed by a postorder
// of the elimination tree, the elimination tree of P K Pᵀ, the row patterns and column
// counts of its factor L (fill-in included) and the storage of L. Factorize then
// computes, without pivoting and without allocating,
//
//	S P K Pᵀ S + Δ̃ = L D Lᵀ,
//
// by the up-looking sparse LDLᵀ factorization (T. Davis, "Direct Methods for Sparse
// Linear Systems", SIAM 2006, ch. 4): row k of L solves a sparse triangular system whose
// pattern is the row subtree of k in the elimination tree. S is a diagonal scaling by
// powers of two and Δ̃ a signed static regularization (see Factorize) that makes the
// factorized matrix quasi-definite; in the original units L D Lᵀ factorizes K + Δ with
// Δ = Pᵀ S⁻¹ Δ̃ S⁻¹ P diagonal. Solve recovers the solution of the unregularized K by
// iterative refinement.
//
// Why no pivoting is needed: a symmetric quasi-definite matrix [H Bᵀ; B −F] with H and F
// positive definite is strongly factorizable — every symmetric permutation of it has an
// LDLᵀ factorization with diagonal D, nq positive and nc negative pivots (R. J.
// Vanderbei, "Symmetric quasi-definite matrices", SIAM J. Optim. 5, 1995). So the ordering
// can be chosen from the pattern alone, before any values are known, and fixed for good.
//
// Redundant constraints: if G is rank deficient, K is singular but K + Δ is not, so
// Factorize succeeds and does not report it. Solve then returns a solution when the
// right-hand side is consistent (the multipliers of the redundant rows are split among
// them); otherwise the multipliers grow like 1/δ along the null space of Gᵀ and the
// backward error stays near δ̃ (5.8e-12 for a duplicated row in the tests) instead of
// reaching rounding level: BackwardError reveals it, as it reveals extreme
// ill-conditioning. Integrators remove redundant rows beforehand (dae.Reduce). An
// all-zero row of K (for instance an empty constraint row with d = 0) is detected by
// Factorize, which returns ErrSingular.
//
// Storage is owned by the SparseKKT: Factorize and Solve do not allocate.
type SparseKKT struct {
	nq, nc, n  int
	perm, pinv []int  // row k of P K Pᵀ is row perm[k] of K; pinv inverts perm
	sign       []int8 // +1 for the rows of A, −1 for the constraint rows (permuted order)

	// Upper triangle of C = P K Pᵀ by columns, diagonal last in each column; cx holds
	// the values of K itself (unscaled, unregularized), kept for refinement.
	cp, ci []int
	cx     []float64
	knorm  float64 // ‖K‖∞

	// Where Factorize gathers each value from: A(ai[t], aj[t]) into cx[apos[t]],
	// G(gr[t], gc[t]) into cx[gpos[t]], −d into cx[dpos[r]].
	ai, aj, apos []int
	gr, gc, gpos []int
	dpos         []int

	s []float64 // scaling of C, powers of two

	// L by columns (strictly lower part), D⁻¹, and the pattern of every row of L.
	lp, li   []int
	lx, dinv []float64
	rp, ri   []int
	lnext    []int // during Factorize: next free slot of each column of L

	y, b, z, r, dz []float64 // dense work vectors of length n
	factored       bool
	refinements    int
	berr           float64
	delta          float64 // δ̃ of the last successful factorization
}

// Tuning constants of the regularization and refinement. δ̃ was chosen on random
// chains of 1 to 40 bodies (the generator of sparse_test.go; 4800 systems per span) and
// on the trees, ladders and grids of sparse_internal_test.go, with masses, inertias and
// springs spanning 1e-6..1e6 and 1e-8..1e8. Worst backward errors after at most three
// refinement steps on the chains (span 1e-6..1e6 / 1e-8..1e8), mechanism solves above
// 1e-13 and second attempts (see Factorize) on the chains of both spans:
//
//	δ̃ = 2^-26 (√ε)  2.9e-9  / 1.7e-9    4 of 240 above 1e-13
//	δ̃ = 2^-30       1.4e-11 / 1.7e-10   1 of 240;   second attempt in 1 of 9600
//	δ̃ = 2^-34       1.4e-15 / 6.9e-12   0 of 1440;  second attempt in 6 of 9600
//	δ̃ = 2^-38       1.8e-12 / 5.6e-9    0 of 1440;  second attempt in 16 of 9600
//
// √ε is the textbook balance between the regularization error δ̃‖K̃⁻¹‖ per refinement
// step and the growth ε/δ̃ of a constraint pivoted before its coordinates (Gill,
// Saunders & Shinnerl, "On the stability of Cholesky factorization for symmetric
// quasidefinite systems", SIAM J. Matrix Anal. Appl. 17, 1996); the minimum-degree
// orderings of mechanisms mostly pivot coordinates first, which lets a smaller δ̃ win.
const (
	// sparseDelta is δ̃, the regularization of the scaled matrix (≈ 5.8e-11).
	sparseDelta = 0x1p-34
	// sparseDeltaSafe is δ̃ for a second attempt when the first factorization met a zero
	// pivot or a pivot of the wrong sign: the signs that rounding has swamped δ̃.
	sparseDeltaSafe = 0x1p-26
	// sparseMaxRefine is the most refinement steps per Solve: zero or one suffice for
	// well-conditioned K, up to three for the Andrews-like scalings above.
	sparseMaxRefine = 3
	// sparseRefineTarget ends refinement once the backward error is at rounding level
	// (the residual itself is computed with errors of a few ε).
	sparseRefineTarget = 4 * 0x1p-52
)

// NewSparseKKT returns a sparse KKT solver for nq unknowns x and nc multipliers y with
// the given patterns. aPattern[i] lists the columns j of row i of A that can be nonzero,
// strictly increasing; an entry listed in row i or in row j counts for both (A is
// symmetric), the diagonal is always included, and a nil aPattern means a diagonal A (the
// planar mass matrix). gPattern[i] lists the columns of row i of G, strictly increasing
// (planar.Pattern.GRows). A bad pattern returns a *PatternError naming the block and row.
//
// All symbolic work happens here: ordering, elimination tree, the nonzero pattern of L
// (fill-in included) and every work array, so that Factorize and Solve do not allocate.
func NewSparseKKT(nq, nc int, aPattern, gPattern [][]int) (*SparseKKT, error) {
	if nq <= 0 || nc < 0 {
		return nil, fmt.Errorf("linalg: NewSparseKKT: nq = %d, nc = %d: want nq > 0, nc >= 0", nq, nc)
	}
	if aPattern == nil {
		aPattern = make([][]int, nq)
	}
	if err := checkPattern("A", aPattern, nq, nq); err != nil {
		return nil, err
	}
	if err := checkPattern("G", gPattern, nc, nq); err != nil {
		return nil, err
	}
	n := nq + nc
	ent := newKKTEntries(nq, nc, aPattern, gPattern)
	rows, cols := ent.upperPairs(nq, nc)
	k := &SparseKKT{nq: nq, nc: nc, n: n, ai: ent.ai, aj: ent.aj, gr: ent.gr, gc: ent.gc}
	// Minimum degree, then a postorder of the elimination tree that keeps its fill.
	md := minimumDegree(adjacency(n, rows, cols))
	cp, ci, _ := permutedUpper(n, inverse(md), rows, cols)
	k.perm = make([]int, n)
	for i, p := range postorder(eliminationTree(cp, ci)) {
		k.perm[i] = md[p]
	}
	k.pinv = inverse(k.perm)
	k.sign = make([]int8, n)
	for i, p := range k.perm {
		k.sign[i] = 1
		if p >= nq {
			k.sign[i] = -1
		}
	}
	var pos []int
	k.cp, k.ci, pos = permutedUpper(n, k.pinv, rows, cols)
	na, ng := len(ent.ai), len(ent.gr)
	k.apos, k.gpos, k.dpos = pos[:na], pos[na:na+ng], pos[na+ng:]
	k.cx = make([]float64, len(k.ci))
	k.rp, k.ri = rowPatterns(k.cp, k.ci, eliminationTree(k.cp, k.ci))
	k.lp, k.li = columnStorage(k.rp, k.ri)
	k.lx = make([]float64, len(k.li))
	k.dinv = make([]float64, n)
	k.lnext = make([]int, n)
	k.s = make([]float64, n)
	k.y, k.b, k.z = make([]float64, n), make([]float64, n), make([]float64, n)
	k.r, k.dz = make([]float64, n), make([]float64, n)
	return k, nil
}

// Size returns (nq, nc).
func (k *SparseKKT) Size() (nq, nc int) { return k.nq, k.nc }

// NNZ returns the number of nonzeros of the strictly lower triangle of L (fill-in
// included), fixed by the pattern and the ordering.
func (k *SparseKKT) NNZ() int { return len(k.li) }

// Perm returns the fill-reducing ordering P as a list: row k of P K Pᵀ is row Perm()[k]
// of K, where rows 0..nq−1 are those of A and nq..nq+nc−1 the constraints. The slice is
// owned by the SparseKKT: do not modify it.
func (k *SparseKKT) Perm() []int { return k.perm }

// FactorizeSym factorizes [A Gᵀ; G 0], Factorize with d = 0 (SaddlePoint).
func (k *SparseKKT) FactorizeSym(A, G mat.Matrix) error { return k.Factorize(A, G, 0) }

// Factorize gathers the pattern entries of A (its upper triangle, i ≤ j: A is taken to
// be symmetric), of G and d into K = [A Gᵀ; G −d·I] and factorizes the regularized
// matrix. A, G are read through At, or directly from the storage of a *mat.Dense (and of
// an upper *mat.SymDense for A); G may be nil when nc = 0. Entries of A and G outside
// the patterns are ignored.
//
// Scaling and regularization: K is scaled symmetrically, K̃ = S K S, by the powers of two
// s_i nearest 1/√(max_l |K_il|) (one step of Ruiz's equilibration, D. Ruiz, "A scaling
// algorithm to equilibrate both rows and columns norms in matrices", RAL-TR-2001-034;
// further steps changed no measured residual), which is exact in floating point. The
// matrix factorized is K̃ + diag(+δ̃ on the rows of A, −δ̃ on the constraint rows) with
// δ̃ = 2^-34 ≈ 5.8e-11, that is, in the original units,
//
//	A + diag(δ_i),   −(d·I + diag(δ_j)),   δ_i = δ̃ / s_i² ≈ δ̃ · max_l |K_il|:
//
// each row is regularized relative to the largest entry of its own row, so the
// coordinates of a light body are not perturbed by δ̃ times the heaviest mass. With A
// positive semidefinite (a mass matrix, even a singular one) the result is quasi-definite
// in the sense of Vanderbei 1995, so its LDLᵀ factorization exists in every ordering.
// If a pivot comes out zero or with the wrong sign (rounding has swamped δ̃, or A is
// indefinite), the factorization is repeated once with δ̃ = 2^-26 and accepted whatever
// the signs; the refinement in Solve corrects for either δ̃.
//
// A zero or non-finite pivot in the second attempt, a non-finite entry or an all-zero
// row of K return ErrSingular. Wrong sizes and d < 0 panic.
func (k *SparseKKT) Factorize(A, G mat.Matrix, d float64) error {
	k.checkFactorize(A, G, d)
	k.factored = false
	k.gather(A, G, d)
	if !k.equilibrate() {
		return ErrSingular
	}
	k.delta = sparseDelta
	ok, inertia := k.factor(k.delta)
	if !ok || !inertia {
		k.delta = sparseDeltaSafe
		ok, _ = k.factor(k.delta)
	}
	if !ok {
		return ErrSingular
	}
	k.factored = true
	return nil
}

func (k *SparseKKT) checkFactorize(A, G mat.Matrix, d float64) {
	if r, c := A.Dims(); r != k.nq || c != k.nq {
		panic(fmt.Sprintf("linalg: SparseKKT.Factorize: A is %d×%d, want %d×%d", r, c, k.nq, k.nq))
	}
	if k.nc > 0 {
		if r, c := G.Dims(); r != k.nc || c != k.nq {
			panic(fmt.Sprintf("linalg: SparseKKT.Factorize: G is %d×%d, want %d×%d", r, c, k.nc, k.nq))
		}
	}
	if !(d >= 0) || math.IsInf(d, 1) {
		panic(fmt.Sprintf("linalg: SparseKKT.Factorize: d = %g, want finite d >= 0 (the constraint block is −d·I)", d))
	}
}

// gather copies the pattern entries of A, G and −d into cx.
func (k *SparseKKT) gather(A, G mat.Matrix, d float64) {
	switch a := A.(type) {
	case *mat.Dense:
		raw := a.RawMatrix()
		for t, p := range k.apos {
			k.cx[p] = raw.Data[k.ai[t]*raw.Stride+k.aj[t]]
		}
	case *mat.SymDense:
		raw := a.RawSymmetric()
		if raw.Uplo == blas.Upper {
			for t, p := range k.apos {
				k.cx[p] = raw.Data[k.ai[t]*raw.Stride+k.aj[t]]
			}
			break
		}
		k.gatherAt(A)
	default:
		k.gatherAt(A)
	}
	if g, ok := G.(*mat.Dense); ok {
		raw := g.RawMatrix()
		for t, p := range k.gpos {
			k.cx[p] = raw.Data[k.gr[t]*raw.Stride+k.gc[t]]
		}
	} else {
		for t, p := range k.gpos {
			k.cx[p] = G.At(k.gr[t], k.gc[t])
		}
	}
	for _, p := range k.dpos {
		k.cx[p] = -d
	}
}

func (k *SparseKKT) gatherAt(A mat.Matrix) {
	for t, p := range k.apos {
		k.cx[p] = A.At(k.ai[t], k.aj[t])
	}
}

// equilibrate computes the scaling S and ‖K‖∞ in one pass over K. It reports false if
// K has an all-zero row or a NaN or infinite entry (which makes its row sum NaN or +Inf).
func (k *SparseKKT) equilibrate() bool {
	cp, ci, cx := k.cp, k.ci, k.cx
	rowMax, rowSum := k.s, k.y // k.y is free until factor, which expects it zero
	clear(rowMax)
	for j := range k.n {
		// Column j of the upper triangle, diagonal last, adds to rows i ≤ j; by symmetry
		// its off-diagonal part is also row j.
		last := cp[j+1] - 1
		rows, vals := ci[cp[j]:last], cx[cp[j]:last]
		vals = vals[:len(rows)]
		cmax := math.Abs(cx[last])
		csum := cmax
		for q, i := range rows {
			v := math.Abs(vals[q])
			if v > cmax {
				cmax = v
			}
			if v > rowMax[i] {
				rowMax[i] = v
			}
			csum += v
			rowSum[i] += v
		}
		if cmax > rowMax[j] {
			rowMax[j] = cmax
		}
		rowSum[j] += csum
	}
	k.knorm = 0
	for i, m := range rowMax {
		if m == 0 || !(rowSum[i] <= math.MaxFloat64) {
			clear(rowSum)
			return false
		}
		if rowSum[i] > k.knorm {
			k.knorm = rowSum[i]
		}
		rowMax[i] = powerOfTwoInvSqrt(m)
	}
	clear(rowSum)
	return true
}

// powerOfTwoInvSqrt returns 2^-⌊e/2⌋ for m = f·2^e, f in [0.5, 1): a power of two within a
// factor 2 of 1/√m, so that scaling by it is exact.
func powerOfTwoInvSqrt(m float64) float64 {
	bits := math.Float64bits(m)
	biased := int(bits>>52) & 0x7ff
	if biased == 0 || biased == 0x7ff { // subnormal, Inf or NaN: the slow path
		_, e := math.Frexp(m)
		return math.Ldexp(1, -(e >> 1))
	}
	e := biased - 1022 // m = f·2^e with f in [0.5, 1)
	return math.Float64frombits(uint64(1023-(e>>1)) << 52)
}

// factor computes L D Lᵀ of S C S + Δ row by row (up-looking): row c of L is the solution
// of L[:c,:c] D[:c] l = k_c, the first c entries of column c of the scaled matrix; its
// pattern, precomputed in rp/ri, lists the unknowns so that each comes after all those
// it depends on. It reports false on a zero or non-finite pivot, and inertia = false if
// a pivot's sign differs from sign (the matrix factorized is then not quasi-definite in
// floating point).
func (k *SparseKKT) factor(delta float64) (ok, inertia bool) {
	n, y, s, dinv, sign := k.n, k.y, k.s, k.dinv, k.sign
	cp, ci, cx := k.cp, k.ci, k.cx
	lp, li, lx, next := k.lp, k.li, k.lx, k.lnext
	rp, ri := k.rp, k.ri
	inertia = true
	copy(next, lp[:n])
	for c := range n {
		// y = column c of the upper triangle of S C S + Δ.
		sc := s[c]
		for p := cp[c]; p < cp[c+1]; p++ {
			i := ci[p]
			y[i] = s[i] * sc * cx[p]
		}
		dc := y[c] + float64(sign[c])*delta
		y[c] = 0
		for _, j := range ri[rp[c]:rp[c+1]] {
			yj := y[j]
			y[j] = 0
			start, end := lp[j], next[j]
			rows, vals := li[start:end], lx[start:end]
			vals = vals[:len(rows)]
			for q, i := range rows {
				y[i] -= vals[q] * yj
			}
			l := yj * dinv[j]
			dc -= l * yj
			lx[end] = l
			next[j] = end + 1
		}
		if dc == 0 || dc-dc != 0 { // zero, or dc−dc = NaN for ±Inf and NaN
			clear(y)
			return false, false
		}
		dinv[c] = 1 / dc
		if float64(sign[c])*dc < 0 {
			inertia = false
		}
	}
	return true, inertia
}

// Solve overwrites x (length nq, holding r) and y (length nc, holding s) with the
// solution of K [x; y] = [r; s]. It solves with L D Lᵀ and then refines against the
// unregularized K,
//
//	z ← z + (K + Δ)⁻¹ (b − K z),
//
// at most three times, stopping once the normwise backward error
// ‖b − K z‖∞ / (‖K‖∞‖z‖∞ + ‖b‖∞) is at rounding level (4ε) or stops halving; a step that
// increases it is undone. Each step shrinks the error by about ‖Δ (K + Δ)⁻¹‖ ≈
// δ̃‖K̃⁻¹‖ plus the rounding errors of the factorization. It panics on wrong lengths or
// without a successful Factorize.
func (k *SparseKKT) Solve(x, y []float64) {
	if len(x) != k.nq || len(y) != k.nc {
		panic(fmt.Sprintf("linalg: SparseKKT.Solve: len(x) = %d, len(y) = %d, want %d, %d", len(x), len(y), k.nq, k.nc))
	}
	if !k.factored {
		panic("linalg: SparseKKT.Solve without a successful Factorize")
	}
	b, z, r, dz := k.b, k.z, k.r, k.dz
	bnorm := 0.0
	for i, p := range k.perm {
		if p < k.nq {
			b[i] = x[p]
		} else {
			b[i] = y[p-k.nq]
		}
		bnorm = max(bnorm, math.Abs(b[i]))
	}
	copy(z, b)
	k.solveRegularized(z)
	berr := k.residual(r, b, z, bnorm)
	k.refinements = 0
	for k.refinements < sparseMaxRefine && berr > sparseRefineTarget {
		copy(dz, r)
		k.solveRegularized(dz)
		for i := range z {
			z[i] += dz[i]
		}
		k.refinements++
		next := k.residual(r, b, z, bnorm)
		if next >= berr { // no progress: keep the previous iterate
			for i := range z {
				z[i] -= dz[i]
			}
			break
		}
		stalled := next > berr/2
		berr = next
		if stalled {
			break
		}
	}
	k.berr = berr
	for i, p := range k.perm {
		if p < k.nq {
			x[p] = z[i]
		} else {
			y[p-k.nq] = z[i]
		}
	}
}

// BackwardError returns the normwise backward error ‖b − K z‖∞ / (‖K‖∞‖z‖∞ + ‖b‖∞) of the
// solution z last returned by Solve, against the unregularized K. It is at most 4ε when
// refinement converged; values far above it come from a singular K (redundant
// constraints with an inconsistent right-hand side) or an extremely ill-conditioned one.
func (k *SparseKKT) BackwardError() float64 { return k.berr }

// Refinements returns the number of refinement steps the last Solve took (0 to 3).
func (k *SparseKKT) Refinements() int { return k.refinements }

// solveRegularized overwrites v with (K + Δ)⁻¹ v = S (L D Lᵀ)⁻¹ S v, all in the permuted
// order.
func (k *SparseKKT) solveRegularized(v []float64) {
	n, s, dinv, lp, li, lx := k.n, k.s, k.dinv, k.lp, k.li, k.lx
	v, s, dinv = v[:n], s[:n], dinv[:n]
	for i := range v {
		v[i] *= s[i]
	}
	unitLowerSolve(v, lp, li, lx) // L u = v
	for j := range v {
		v[j] *= dinv[j]
	}
	for j := n - 1; j >= 0; j-- { // Lᵀ v = u
		rows, vals := li[lp[j]:lp[j+1]], lx[lp[j]:lp[j+1]]
		vals = vals[:len(rows)]
		vj := v[j]
		for q, i := range rows {
			vj -= vals[q] * v[i]
		}
		v[j] = vj
	}
	for i := range v {
		v[i] *= s[i]
	}
}

// residual sets r = b − C z (C = P K Pᵀ from its upper triangle, by symmetry) and
// returns the normwise backward error ‖r‖∞ / (‖K‖∞‖z‖∞ + ‖b‖∞) of z.
func (k *SparseKKT) residual(r, b, z []float64, bnorm float64) float64 {
	n, cp, ci, cx := k.n, k.cp, k.ci, k.cx
	r, z = r[:n], z[:n]
	copy(r, b)
	znorm := 0.0
	for j := range z {
		zj := z[j]
		if a := math.Abs(zj); a > znorm {
			znorm = a
		}
		// Column j of the upper triangle: the diagonal last, the rows i < j before it,
		// which are also row j of the lower triangle.
		last := cp[j+1] - 1
		rows, vals := ci[cp[j]:last], cx[cp[j]:last]
		vals = vals[:len(rows)]
		sum := cx[last] * zj
		for q, i := range rows {
			r[i] -= vals[q] * zj
			sum += vals[q] * z[i]
		}
		r[j] -= sum
	}
	rnorm := 0.0
	for _, ri := range r {
		if a := math.Abs(ri); a > rnorm {
			rnorm = a
		}
	}
	if den := k.knorm*znorm + bnorm; den > 0 {
		return rnorm / den
	}
	return 0
}

// inverse returns the inverse of the permutation p.
func inverse(p []int) []int {
	inv := make([]int, len(p))
	for i, v := range p {
		inv[v] = i
	}
	return inv
}

// unitLowerSolve overwrites v with L⁻¹ v, L unit lower triangular by columns without its
// diagonal, its rows li and values lx in two arrays (SparseLU keeps them side by side,
// forwardSubstituted).
func unitLowerSolve(v []float64, lp, li []int, lx []float64) {
	for j := range v {
		vj := v[j]
		if vj == 0 {
			continue
		}
		rows, vals := li[lp[j]:lp[j+1]], lx[lp[j]:lp[j+1]]
		vals = vals[:len(rows)]
		for q, i := range rows {
			v[i] -= vals[q] * vj
		}
	}
}
