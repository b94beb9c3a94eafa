package linalg

import "math"

// factorFull computes P C = L U by the left-looking Gilbert–Peierls algorithm with
// threshold partial pivoting, choosing the pivot sequence and the patterns of L and U
// anew. L and U grow by append from their previous capacity (the first time, from the
// Cholesky estimate: with diagonal pivots L and U fit in it), and sizeFactors fits the
// capacities to what was found. It reports false when a column has no nonzero candidate
// pivot, leaving x zero.
//
// During the factorization the rows of L carry C's row numbers, since most of them are
// not yet pivotal; they are renumbered to pivot steps at the end, which is what the
// refactorization and the solves use.
func (f *sparseLUOf[T]) factorFull() bool {
	n := f.n
	first := f.li == nil
	if first {
		c := f.lEstimate + f.lEstimate/4 // headroom for off-diagonal pivots
		f.li, f.lnz = make([]int32, 0, c), make([]luEntry[T], 0, c)
		f.ui, f.unz = make([]int32, 0, c), make([]luEntry[T], 0, c)
	}
	f.li, f.lnz = f.li[:0], f.lnz[:0]
	f.ui, f.unz = f.ui[:0], f.unz[:0]
	for i := range n {
		f.pinv[i], f.mark[i] = -1, -1
	}
	for k := range n {
		top := f.reach(k)
		for p := f.ccp[k]; p < f.ccp[k+1]; p++ {
			f.x[f.crow[p]] = f.vals[f.cent[p].at]
		}
		f.columnOfU(k, top)
		if !f.pivot(k, top) {
			return false
		}
	}
	for p, i := range f.li {
		f.li[p] = int32(f.pinv[i])
	}
	for p, e := range f.lnz {
		f.lnz[p].r = int32(f.pinv[e.r])
	}
	for p, i := range f.crow {
		f.cent[p].step = int32(f.pinv[i])
	}
	for k, i := range f.prow {
		f.rowOf[k] = int32(f.perm[i])
	}
	f.sizeFactors(first)
	return true
}

// sizeFactors fits the capacities of L and U after a full factorization. The nonzeros
// need at least the length of their patterns, so that a refactorization, whose exact
// zeros may fall elsewhere, never allocates. The first full factorization allocated all
// from the Cholesky estimate; an array that uses less than 8/9 of it is then copied to
// its size (the patterns with an eighth of room for the off-diagonal pivots of a later
// full factorization): on bdf's Newton matrix of the planar chain U's pattern is 57 % of
// the estimate and 20 % of L's pattern and 30 % of U's are nonzero (the Newton pattern
// is the union over the formulations), and the estimate's capacity held most of the
// memory of a large factorization. A later full factorization whose patterns outgrow the
// nonzeros' capacity gets the same eighth of room: the fill still changes a little from
// one full factorization to the next (sparseLULocalTau), and an exact fit reallocated at
// every new largest pattern. Measured on the 400-rod 3D chain (BenchmarkChain3DStep,
// 1000 steps): 1.7 MB allocated by steps with the exact fit, growing all along; 467 kB
// with the eighth, all of it in the first 300 steps.
func (f *sparseLUOf[T]) sizeFactors(first bool) {
	if first {
		f.li, f.ui = trimmed(f.li, len(f.li)+len(f.li)/8), trimmed(f.ui, len(f.ui)+len(f.ui)/8)
		f.lnz, f.unz = trimmed(f.lnz, len(f.li)), trimmed(f.unz, len(f.ui))
	}
	if c := len(f.li); c > cap(f.lnz) {
		f.lnz = withCap(f.lnz, c+c/8)
	}
	if c := len(f.ui); c > cap(f.unz) {
		f.unz = withCap(f.unz, c+c/8)
	}
}

// trimmed returns s with capacity c when it has more than c + c/8, else s.
func trimmed[E any](s []E, c int) []E {
	if cap(s) > c+c/8 {
		return withCap(s, c)
	}
	return s
}

// withCap returns a copy of s with capacity c ≥ len(s).
func withCap[E any](s []E, c int) []E {
	t := make([]E, len(s), c)
	copy(t, s)
	return t
}

// reach returns top such that xi[top:n] lists, in topological order, the rows of C
// reachable from the pattern of C(:,k) in the directed graph of L(:, 0..k−1), which has
// an edge from row i to every row of column pinv[i] of L when i is pivotal: the nonzero
// pattern of the solution of L x = C(:,k) (Gilbert & Peierls 1988). Pivotal rows in it
// form column k of U, the others are the candidate pivots and column k of L.
func (f *sparseLUOf[T]) reach(k int) int {
	top := f.n
	for p := f.ccp[k]; p < f.ccp[k+1]; p++ {
		if i := int(f.crow[p]); f.mark[i] != k {
			top = f.dfs(i, k, top)
		}
	}
	return top
}

// dfs walks depth first from row i, marking the rows it meets with k, and pushes each
// row onto xi[:top] once all rows it reaches are pushed: xi[top:] is then in reverse
// postorder, a topological order of the graph of L. The recursion is kept on an
// explicit stack, with pstack holding where each row's scan of its column of L stopped.
func (f *sparseLUOf[T]) dfs(i, k, top int) int {
	stack, pstack, mark, pinv, lp, li := f.stack, f.pstack, f.mark, f.pinv, f.lp, f.li
	head := 0
	stack[0], mark[i] = i, k
	if j := pinv[i]; j >= 0 {
		pstack[0] = lp[j]
	}
	for head >= 0 {
		i := stack[head]
		descended := false
		if j := pinv[i]; j >= 0 {
			for p := pstack[head]; p < lp[j+1]; p++ {
				r := int(li[p])
				if mark[r] == k {
					continue
				}
				pstack[head] = p + 1
				head++
				stack[head], mark[r] = r, k
				if jr := pinv[r]; jr >= 0 {
					pstack[head] = lp[jr]
				}
				descended = true
				break
			}
		}
		if !descended {
			head--
			top--
			f.xi[top] = i
		}
	}
	return top
}

// columnOfU solves L x = C(:,k) on the pattern xi[top:], which holds C(:,k) scattered
// in x: in topological order, each pivotal row i is final when met, becomes U(pinv[i], k)
// and is eliminated from the rows of its column of L.
func (f *sparseLUOf[T]) columnOfU(k, top int) {
	x, pinv, lnp, lnz := f.x, f.pinv, f.lnp, f.lnz
	for _, i := range f.xi[top:] {
		j := pinv[i]
		if j < 0 {
			continue
		}
		ujk := x[i]
		x[i] = 0
		f.ui = append(f.ui, int32(j))
		if ujk == 0 {
			continue // an exact zero of U updates nothing (refactor's comment)
		}
		f.unz = append(f.unz, luEntry[T]{ujk, int32(j)})
		for _, e := range lnz[lnp[j]:lnp[j+1]] {
			x[e.r] -= e.v * ujk
		}
	}
	f.up[k+1], f.unp[k+1] = len(f.ui), len(f.unz)
}

// pivot chooses the pivot of column k among the rows of xi[top:] not yet pivotal by
// threshold partial pivoting — the preferred row p = pref[k] (the diagonal of C, or the
// partner of a row without diagonal entry: pairedMinimumDegree) if |x_p| ≥ τ·max |x_i|,
// with τ = sparseLUPartnerTau for a partner and for the diagonal of a row without one in
// an unpaired ordering (filled by the elimination; with τ itself the backward error on a
// random chain KKT matrix was 2.1e-13, with sparseLUPartnerTau 5.7e-14), otherwise the earliest row with |x_i| ≥
// sparseLULocalTau·max — and stores column k of L, x_i / pivot for the other candidates.
// It clears x and reports false if no candidate is nonzero or one is not finite (the
// growth of the entries overflowed).
func (f *sparseLUOf[T]) pivot(k, top int) bool {
	x, pinv := f.x, f.pinv
	cand := f.xi[top:]
	pref := f.pref[k] // the diagonal, or the partner of a row without one
	imax, amax, diag, finite := -1, 0.0, false, true
	for _, i := range cand {
		if pinv[i] >= 0 {
			continue
		}
		a := magnitude(x[i])
		if a > amax || imax < 0 {
			imax, amax = i, a
		}
		diag = diag || i == pref
		finite = finite && a <= math.MaxFloat64
	}
	if imax < 0 || amax == 0 || !finite {
		for _, i := range cand {
			x[i] = 0
		}
		return false
	}
	ipiv := imax
	tau := f.tau
	if pref != k || f.unpaired && !f.diag[f.perm[k]] {
		tau = sparseLUPartnerTau
	}
	if diag && magnitude(x[pref]) >= tau*amax { // amax > 0: a zero entry never passes
		ipiv = pref
	} else {
		// Of the rows within sparseLULocalTau of the largest, the earliest in the
		// elimination order: the largest may lie anywhere along a chain and carry its
		// row's fill to every column up to its own (TestSparseLUWeakDiagonalFill).
		for _, i := range cand {
			if pinv[i] < 0 && i < ipiv && magnitude(x[i]) >= sparseLULocalTau*amax {
				ipiv = i
			}
		}
	}
	piv := x[ipiv]
	x[ipiv] = 0
	pinv[ipiv], f.prow[k], f.udiag[k] = k, ipiv, piv
	for _, i := range cand {
		if pinv[i] >= 0 {
			continue
		}
		f.li = append(f.li, int32(i))
		if l := x[i] / piv; l != 0 {
			f.lnz = append(f.lnz, luEntry[T]{l, int32(i)})
		}
		x[i] = 0
	}
	f.lp[k+1], f.lnp[k+1] = len(f.li), len(f.lnz)
	return true
}

// refactor recomputes the values of L and U for the current values of C with the pivot
// sequence and patterns of the last full factorization: no search, no allocation, the
// same arithmetic as the full factorization in the same order. It reports false, with x
// cleared, as soon as a pivot is zero or smaller than τ times the largest entry below
// it in its column, the test the full factorization applied when choosing it: from
// there on the growth bound of threshold pivoting would not hold.
//
// It writes the nonzeros of L and U only (lnp, unp: an exact zero updates nothing, x − l·0
// = x, for the finite values Factor accepts) and updates column k from those of the
// columns before it, which skips the 60 % of the multiply-adds that are products with
// zero on the 400-rod 3D chain.
func (f *sparseLUOf[T]) refactor() bool {
	x, vals, ccp, cent := f.x, f.vals, f.ccp, f.cent
	lp, li, up, ui := f.lp, f.li, f.up, f.ui
	// The nonzeros are written by index into their patterns' lengths (every successful
	// factorFull ends in sizeFactors, which keeps the capacities at least that) rather
	// than appended: the slices stay unchanged in the loop, with no growslice call path
	// that made the compiler spill them (with eliminated and columnOfL: −16 %
	// instructions per refactorization, the same bits; BENCHMARKS.md "bdf's step
	// against IDA's").
	lnp, lnz := f.lnp, f.lnz[:len(li)]
	unp, unz := f.unp, f.unz[:len(ui)]
	nl, nu := 0, 0
	for k := range f.n {
		for _, c := range cent[ccp[k]:ccp[k+1]] {
			x[c.step] = vals[c.at]
		}
		nu = eliminated(x, ui[up[k]:up[k+1]], lnp, lnz, unz, nu)
		unp[k+1] = nu
		piv := x[k]
		x[k] = 0
		var ok bool
		if nl, ok = columnOfL(x, li[lp[k]:lp[k+1]], piv, f.tau, lnz, nl); !ok {
			// no longer factors: factorFull follows
			f.lnz, f.unz = lnz[:nl], unz[:nu]
			return false
		}
		lnp[k+1] = nl
		f.udiag[k] = piv
	}
	f.lnz, f.unz = lnz[:nl], unz[:nu]
	return true
}

// eliminated is the update of refactor's column k by the columns of L before it: in the
// order of the pattern uj of U(:, k), each x_j becomes U(j, k), stored at unz[nu] when
// nonzero, and is eliminated from the rows of L(:, j). It returns the new
// count nu. A function of its own so that its loops, with few live values, keep them in
// registers (in refactor's body they spilled to the stack around every column of L); not
// inlined, which the one-array layout of L would otherwise allow, for the same reason
// (inlined: +0.9 M instructions per refactorization of BenchmarkLUGGL N_ida = 1667).
//
//go:noinline
func eliminated[T luScalar](x []T, uj []int32, lnp []int, lnz, unz []luEntry[T], nu int) int {
	for _, j := range uj {
		ujk := x[j]
		x[j] = 0
		if ujk == 0 {
			continue
		}
		unz[nu] = luEntry[T]{ujk, j}
		nu++
		for _, e := range lnz[lnp[j]:lnp[j+1]] {
			x[e.r] -= e.v * ujk
		}
	}
	return nu
}

// columnOfL is the pivot test and the column of L of refactor's column k: with x holding
// the updated column and piv its pivot, it stores x_r / piv for the rows r of the
// pattern when nonzero at lnz[nl:], clears x on the pattern and returns the
// new count. It reports false, with x cleared, when piv is zero, not finite or smaller
// than tau times the largest |x_r| (the test of the full factorization's choice). Like
// eliminated, a function of its own for the registers.
func columnOfL[T luScalar](x []T, rows []int32, piv T, tau float64, lnz []luEntry[T], nl int) (int, bool) {
	amax := largestMagnitude(x, rows)
	if a := magnitude(piv); piv == 0 || !(a >= tau*amax) || a > math.MaxFloat64 {
		for _, r := range rows {
			x[r] = 0
		}
		return nl, false
	}
	for _, r := range rows {
		if l := x[r] / piv; l != 0 {
			lnz[nl] = luEntry[T]{l, r}
			nl++
		}
		x[r] = 0
	}
	return nl, true
}

// largestMagnitude returns max over rows of magnitude(x_r), NaN if one is NaN (as the
// builtin max would give). A real x takes a loop of its own, chosen once per call: in
// the generic loop each magnitude re-checked the scalar's type and the builtin max
// handled signed zeros, together about 30 instructions per row (BenchmarkLUGGL).
func largestMagnitude[T luScalar](x []T, rows []int32) float64 {
	amax := 0.0
	if xr, real := any(x).([]float64); real {
		for _, r := range rows {
			if a := math.Abs(xr[r]); a > amax || a != a {
				amax = a
			}
		}
		return amax
	}
	for _, r := range rows {
		amax = max(amax, magnitude(x[r]))
	}
	return amax
}
