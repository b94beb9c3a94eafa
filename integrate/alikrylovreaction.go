package integrate

import (
	"fmt"
	"math"

	"linkage/dae"
)

// alikrylovreaction.go: λ-dependent forces (dae.ReactionForce, joint friction) on the
// augmented Lagrangian methods' Newton-Krylov path (aliKrylov). The residual is the dense
// path's: Q carries f_λ(q, v, λ̂), λ̂ the multiplier of eq. 17 with f_λ at the iterate
// (pressReaction). The tangent's product holds what the dense path's addLambdaHat adds:
// ∂f_λ/∂q, ∂f_λ/∂v come with the difference of the rows (f_λ at the iterate's λ̂ held),
// and −∂f_λ/∂λ δλ̂ with δλ̂ the change of λ̂ along the product's direction, which solves the
// linearized eq. 17
//
//	M δa + Gᵀδλ − ∂f_λ/∂λ δλ = δE,   G δa = δC,
//	E = Q + f_λ(λ̂) − M â − Gᵀλ̂,   C = γ − G â   (â, λ̂ held),
//
// δE, δC by the difference that perturbs the rows, ∂f_λ/∂λ δλ by a difference of f_λ in
// λ. Both eq. 17 and its linearization are solved by the fixed-point iteration on λ
// (as eq17's solveReaction) on the projections' factorization of M + αGᵀG (aliEq17):
// joint friction changes the reactions by about μ·(pin radius/lever arm) of themselves,
// so the iteration contracts by that factor, and no matrix ∂f_λ/∂(q, v, λ) is formed.

// aliKrylovReaction is the workspace of the λ-dependent forces on aliKrylov.
type aliKrylovReaction struct {
	e0, e1, fl0, b1, x []float64 // nq: E at the iterate and the perturbed one, f_λ(λ̂), δE, δa
	c0, c1, dl, lt     []float64 // nc: C at both, δλ̂, λ̂ + ηδλ
	fPrev, df          []float64 // nq: fixedPoint's F(λ_{k−1}) and F(λ_k) − F(λ_{k−1})
	step               []float64 // nc: fixedPoint's Δλ
	// failed: a linearized solve of the last GMRES run did not converge, so its products
	// are not the tangent's
	failed bool
}

// aliReactionLinIters bounds the fixed-point iterations of one linearized eq. 17, which
// stop when δλ changes by at most aliReactionLinTol relative: far below GMRES's forcing
// term 1e-2. On the friction chain the iteration contracts by about 2e-5, so 2-3
// iterations reach it.
const (
	aliReactionLinIters = 20
	aliReactionLinTol   = 1e-6
)

// denseWhyTakingReaction is denseWhy for a Newton-Krylov path that takes λ-dependent
// forces (ali3, ali1, multi-index, daealpha's index2 and index1-proj).
func denseWhyTakingReaction(sys dae.System) string {
	if _, pf := sys.(dae.PfaffianRows); pf {
		return "nonholonomic Pfaffian rows"
	}
	if _, ok := sys.(dae.MassMultiplier); !ok {
		return "no dae.MassMultiplier"
	}
	return ""
}

// newReaction returns the reactionAccel that carries f_λ on the path (its derivative
// matrices stay unallocated: solveEq17 replaces its Newton iteration) and sizes k.rf, or
// nil when sys has no λ-dependent forces.
func (k *aliKrylov) newReaction(sys dae.System) *reactionAccel {
	rx := newReactionDeferred(sys, nil)
	if rx == nil {
		return nil
	}
	nq, nc := sys.Size()
	vec := func(n int) []float64 { return make([]float64, n) }
	k.rf = &aliKrylovReaction{e0: vec(nq), e1: vec(nq), fl0: vec(nq), b1: vec(nq), x: vec(nq),
		c0: vec(nc), c1: vec(nc), dl: vec(nc), lt: vec(nc), fPrev: vec(nq), df: vec(nq), step: vec(nc)}
	return &reactionAccel{rx: rx}
}

// solveEq17 is aliWork.solveEq17 with λ-dependent forces on the path: the fixed-point
// iteration λ_{k+1} = λ(Q + f_λ(λ_k)) from lambda's content (the last λ̂ or λ*), until
// the change of λ is at most aliEq17Tol relative.
func (k *aliKrylov) solveEq17(t float64, q, v, a, lambda []float64) error {
	w := k.w
	w.al.err = nil
	d, ok := k.fixedPoint(a, lambda, w.f, w.gam, t, q, v, false, aliEq17Tol, 1, reactionIters)
	if w.al.err != nil {
		return w.al.err
	}
	if !ok {
		return fmt.Errorf("%w in %d iterations at t=%g (last change of λ %.3g)", errReactionFixedPoint, reactionIters, t, d)
	}
	return nil
}

// fixedPoint solves M a + Gᵀλ = base + F(λ), G a = gam for (a, λ) from lambda's content
// λ₀ by the fixed-point iteration on λ, F(λ) = f_λ(t, q, v, λ) or (linear) ∂f_λ/∂λ λ at
// the iterate (reactionTimes), in increment form: after the first solve, (Δa, Δλ) =
// [M Gᵀ; G 0]⁻¹(F(λ_k) − F(λ_{k−1}), 0), so the projection's rounding (λ to about
// α·projTol of G x's scale: measured 1e-4 relative on the 70-rod friction chain, which a
// plain iteration reported as a change of λ that never fell) lands on the small Δλ
// only. It stops when |Δλ| ≤ tol·max(floor, |λ|) and returns the last |Δλ| and whether it
// stopped so within maxIt solves.
func (k *aliKrylov) fixedPoint(a, lambda, base, gam []float64, t float64, q, v []float64, linear bool, tol, floor float64, maxIt int) (float64, bool) {
	w, r := k.w, k.rf
	F := func(dst, l []float64) {
		if linear {
			k.reactionTimes(dst, t, l)
			return
		}
		clear(dst)
		w.rx.rx.add(dst, t, q, v, l)
	}
	F(r.fPrev, lambda)
	for i, f := range base {
		a[i] = f + r.fPrev[i]
	}
	copy(r.step, gam)
	w.al.Solve(a, r.step)
	for i, x := range r.step {
		r.step[i] = x - lambda[i] // the first change, in the form of the later ones
	}
	d := math.NaN()
	for range maxIt {
		w.stats.Solves++
		var s float64
		d = 0
		for i, x := range r.step {
			lambda[i] += x
			d = math.Max(d, math.Abs(x))
			s = math.Max(s, math.Abs(lambda[i]))
		}
		if d <= tol*math.Max(floor, s) {
			return d, true
		}
		if math.IsNaN(d) || w.al.err != nil {
			break
		}
		F(r.df, lambda)
		for i, f := range r.df {
			r.df[i], r.fPrev[i] = f-r.fPrev[i], f
		}
		clear(r.step)
		w.al.Solve(r.df, r.step)
		for i, x := range r.df {
			a[i] += x
		}
	}
	return d, false
}

// reactionBase evaluates, at the iterate, f_λ(λ̂) into fl0 and E, C into e0, c0 (after
// rows, which left Q + f_λ(λ̂) in f1 and G in G1).
func (k *aliKrylov) reactionBase(t float64) {
	w, r := k.w, k.rf
	r.failed = false
	clear(r.fl0)
	w.rx.rx.add(r.fl0, t, w.q, w.v, w.lamHat)
	k.balance(r.e0, r.c0, t, w.q, w.v)
}

// balance writes E = f1 − M(q) â − G1ᵀλ̂ into e and C = γ(q, v) − G1 â into c.
func (k *aliKrylov) balance(e, c []float64, t float64, q, v []float64) {
	w := k.w
	k.mm.MassMul(e, t, q, w.aHat)
	for i, f := range k.f1 {
		e[i] = f - e[i]
	}
	w.sys.Gamma(c, t, q, v)
	for j := range w.nc {
		row, l := k.G1.RawRowView(j), w.lamHat[j]
		for i, g := range row {
			e[i] -= g * l
		}
		c[j] -= dot(row, w.aHat)
	}
}

// addReactionColumn subtracts ∂f_λ/∂λ δλ̂ from the product dst, after rows at the
// perturbed iterate (q1, v1) of step eps: δλ̂ solves the linearized eq. 17 with δE =
// (E1 − E0)/eps, δC = (C1 − C0)/eps by fixedPoint.
func (k *aliKrylov) addReactionColumn(dst []float64, t, eps float64) {
	r := k.rf
	k.balance(r.e1, r.c1, t, k.q1, k.v1)
	for i := range r.b1 {
		r.b1[i] = (r.e1[i] - r.e0[i]) / eps
	}
	for j := range r.c1 {
		r.c1[j] = (r.c1[j] - r.c0[j]) / eps
	}
	clear(r.dl)
	_, ok := k.fixedPoint(r.x, r.dl, r.b1, r.c1, t, nil, nil, true, aliReactionLinTol, 0, aliReactionLinIters)
	r.failed = r.failed || !ok
	k.reactionTimes(r.x, t, r.dl)
	for i, x := range r.x {
		dst[i] -= x
	}
}

// reactionTimes writes ∂f_λ/∂λ d at the iterate (q, v, λ̂) into dst by a forward
// difference of f_λ in λ.
func (k *aliKrylov) reactionTimes(dst []float64, t float64, d []float64) {
	w, r := k.w, k.rf
	eta := perturb(r.lt, w.lamHat, d, 0, nil)
	clear(dst)
	if eta == 0 {
		return
	}
	w.rx.rx.add(dst, t, w.q, w.v, r.lt)
	for i, f := range r.fl0 {
		dst[i] = (dst[i] - f) / eta
	}
}
