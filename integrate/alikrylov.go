package integrate

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// aliKrylov is the Newton-Krylov path of the augmented Lagrangian methods (ali3, ali1,
// multi-index) on systems with dae.MassSolver and dae.MassMultiplier (the joint route):
// no nq×nq matrix is formed. The tangent matrix of seed 001 (eqs. 6-9; see ALI3, ALI1)
//
//	index 3:  M + (h²/4)((M q̈)_q + (Φ_qᵀλ*)_q − Q_q) − (h/2) Q_q̇ + (h²/4) α Φ_qᵀΦ_q
//	index 1:  M + (h²/4)((M q̈)_q + (Φ_qᵀλ*)_q − Q_q) − (h/2) Q_q̇ + α Φ_qᵀ ∂Φ̈/∂q̈
//
// is applied to z by a forward difference of the equation of motion with λ* held (its
// terms but the penalty) plus the penalty term, Φ_qᵀ(Φ_q z) or Φ_qᵀ(Φ̈(q̈ + εz) − Φ̈)/ε, at
// the iterate: the product of the dense path's matrix, so GMRES (gmres.go) solves the
// same Newton increments to its forcing term. Its preconditioner is the mass part with
// the penalty, M + β Φ_qᵀΦ_q (β = αh²/4 in index 3, α in index 1), applied by Woodbury's
// identity through the articulated-body recursion (massSchur with shift 1/β: nc + 1
// recursive solves and an nc×nc Cholesky factorization of G M⁻¹ Gᵀ + I/β per matrix),
// positive definite whatever the rank of Φ_q, as the method promises. The projections'
// matrix M + αΦ_qᵀΦ_q is applied the same way, and M x by dae.MassMultiplier, so the
// projections run the dense path's iteration (solveProjected).
//
// With λ-dependent forces the rows carry f_λ at the iterate's λ̂ and each product the
// derivative through λ̂ (alikrylovreaction.go).
//
// The dynamic rows are not rescaled by M(q_F) M(q)⁻¹ as massNewton's are: the products
// are taken at the iterate, not at the factorization point, and the preconditioner is
// formed at the first iterate of every step (index 3) or at every iterate (index 1), so
// the frozen-M error that scaling cures on the α-methods' reused matrices does not arise.
type aliKrylov struct {
	mm   dae.MassMultiplier
	ms   dae.MassSolver
	tan  *massSchur // the tangent's preconditioner M + βGᵀG at the iterate
	proj *massSchur // the projections' M + αGᵀG
	kr   *gmres
	w    *aliWork

	mt float64   // the point of mulM (aliWork.massAt)
	mq []float64 //
	y  []float64 // nc zeros: the multiplier side of a Woodbury solve

	x0, rb   []float64 // the iterate's unknowns (q or q̈) and its rows without penalty
	q1, v1   []float64 // the perturbed iterate
	a1, f1   []float64
	r1, e1   []float64 // its rows without penalty and its Φ̈ (index 1)
	gam1, gz []float64 // γ and G z (nc)
	G1       *mat.Dense
	missed   bool // the last GMRES solve missed its tolerance

	rf *aliKrylovReaction // λ-dependent forces (alikrylovreaction.go), or nil
}

// newALIKrylov returns the path for sys, or nil when sys lacks dae.MassSolver or
// dae.MassMultiplier or has Pfaffian rows (which the methods refuse).
func newALIKrylov(w *aliWork, sys dae.System) *aliKrylov {
	ms, ok := sys.(dae.MassSolver)
	mm, okm := sys.(dae.MassMultiplier)
	if !ok || !okm || denseWhyTakingReaction(sys) != "" {
		return nil
	}
	nq, nc := sys.Size()
	vec := func(n int) []float64 { return make([]float64, n) }
	// massSchurOf: with λ-dependent forces the residual adds f_λ itself (pressReaction)
	k := &aliKrylov{mm: mm, ms: ms, tan: massSchurOf(sys), proj: massSchurOf(sys), kr: newGMRES(nq), w: w,
		mq: vec(nq), y: vec(nc), x0: vec(nq), rb: vec(nq), q1: vec(nq), v1: vec(nq), a1: vec(nq), f1: vec(nq),
		r1: vec(nq), e1: vec(nc), gam1: vec(nc), gz: vec(nc)}
	// The rounding-only increment (jacVec): the measured one (diffNoise, √(ν S)) moved
	// ali3's and ali1's results with joint friction from the dense path's by 2.8e-5 and
	// 8.6e-5 against errors of 1.1e-5 (TestALIKrylovFrictionMatchesDense): the friction
	// law's curvature in v = 2Δq/h is far above the 1/S the rule assumes.
	k.kr.noise, k.kr.measures = nil, false
	if nc > 0 {
		k.G1 = mat.NewDense(nc, nq, nil)
	}
	return k
}

// meanMassTrace is trace(M(t, q)) by nq products M e_i: O(nq) recursions, once per run
// (the penalty's scale, newALIWork).
func (k *aliKrylov) meanMassTrace(t float64, q []float64) float64 {
	e, col := k.a1, k.r1
	clear(e)
	var tr float64
	for i := range e {
		e[i] = 1
		k.mm.MassMul(col, t, q, e)
		tr += math.Abs(col[i])
		e[i] = 0
	}
	return tr
}

// factor prepares the tangent's preconditioner at the iterate (aliWork.factor). It stays
// M + βΦ_qᵀΦ_q on dae.StiffMassSolver systems too: with (h²/4) K_g beside M (commit
// bb913b3, systems without constraint rows) the 3D chain's steps of 0.2-1 ms took 0-30 %
// fewer residual evaluations and no less CPU (K_g's Newton-Euler pass and the stiffer
// recursion cost what the products saved; up to 26 % more at N = 10), and ali3 and ali1
// still failed their Newton iterations at 0.5 ms on the 1000-rod chain (BENCHMARKS.md,
// "The geometric stiffness in radau5's and bdf's preconditioners").
func (k *aliKrylov) factor() error {
	w := k.w
	h := w.hTry
	beta := w.alpha
	if w.index == 3 {
		beta = w.alpha3 * h * h / 4
	}
	k.tan.shift = 1 / beta
	w.stats.Jacobians++
	w.stats.Factorizations++
	return k.tan.factor(w.cur.T+h, w.q, w.G)
}

// increment writes the Newton increment −J⁻¹r of the unknowns into w.dx by GMRES.
func (k *aliKrylov) increment() {
	w := k.w
	t := w.cur.T + w.hTry
	if w.index == 3 {
		copy(k.x0, w.q)
	} else {
		copy(k.x0, w.a)
	}
	k.rows(k.rb, t, w.q, w.v, w.a, k.G1)
	if k.rf != nil {
		k.reactionBase(t)
	}
	for i, r := range w.r {
		w.dx[i] = -r
	}
	k.missed = !k.kr.solve(k, w.dx)
	if k.rf != nil {
		k.missed = k.missed || k.rf.failed || w.al.err != nil
	}
}

// rows writes M q̈ − Q − f_λ(λ̂) + Gᵀλ* at (t, q, v, q̈) into dst (the equation of motion
// without the penalty, λ̂ of the iterate held), Q + f_λ(λ̂) into f1, G(q) into G.
func (k *aliKrylov) rows(dst []float64, t float64, q, v, a []float64, G *mat.Dense) {
	w := k.w
	w.sys.Force(k.f1, t, q, v)
	w.stats.FuncEvals++
	if w.rx != nil {
		w.rx.rx.add(k.f1, t, q, v, w.lamHat)
	}
	k.mm.MassMul(dst, t, q, a)
	for i, f := range k.f1 {
		dst[i] -= f
	}
	if w.nc == 0 {
		return
	}
	w.sys.ConstraintJacobian(G, t, q)
	for c := range w.nc {
		l := w.lamStar[c]
		for j, g := range G.RawRowView(c) {
			dst[j] += g * l
		}
	}
}

// jacVec writes the tangent matrix times z into dst (krylovSystem; see aliKrylov).
func (k *aliKrylov) jacVec(dst, z []float64) {
	w := k.w
	h := w.hTry
	t, c2, s := w.cur.T+h, h*h/4, &w.cur
	var eps float64
	if w.index == 3 {
		eps = perturb(k.q1, k.x0, z, 1+norm2(s.Q), nil)
		for i := range w.nq {
			k.v1[i] = 2/h*(k.q1[i]-s.Q[i]) - s.V[i]
			k.a1[i] = 4/(h*h)*(k.q1[i]-s.Q[i]) - 4/h*s.V[i] - s.A[i]
		}
	} else {
		eps = perturb(k.a1, k.x0, z, (1+norm2(s.Q))/c2, nil)
		for i := range w.nq {
			k.q1[i] = s.Q[i] + h*s.V[i] + c2*(s.A[i]+k.a1[i])
			k.v1[i] = s.V[i] + h/2*(s.A[i]+k.a1[i])
		}
	}
	if eps == 0 {
		clear(dst)
		return
	}
	k.rows(k.r1, t, k.q1, k.v1, k.a1, k.G1)
	for i := range dst {
		dst[i] = (k.r1[i] - k.rb[i]) / eps
	}
	if w.nc > 0 {
		k.addPenalty(dst, z, t, eps)
		if k.rf != nil {
			k.addReactionColumn(dst, t, eps)
		}
	}
	if w.index == 3 {
		for i := range dst {
			dst[i] *= c2
		}
	}
}

// addPenalty adds the penalty's column to dst: α Gᵀ(G z) in index 3, α Gᵀ(Φ̈(q̈ + εz) −
// Φ̈)/ε in index 1 (Φ̈ at the perturbed iterate from G1, evaluated there by rows), G at
// the iterate.
func (k *aliKrylov) addPenalty(dst, z []float64, t, eps float64) {
	w := k.w
	alpha := w.penalty()
	if w.index == 3 {
		for c := range w.nc {
			k.gz[c] = alpha * dot(w.G.RawRowView(c), z)
		}
	} else {
		w.sys.Gamma(k.gam1, t, k.q1, k.v1)
		for c := range w.nc {
			k.gz[c] = alpha * (dot(k.G1.RawRowView(c), k.a1) - k.gam1[c] - w.phi[c]) / eps
		}
	}
	for c, gz := range k.gz {
		for j, g := range w.G.RawRowView(c) {
			dst[j] += g * gz
		}
	}
}

// precondition applies (M + βGᵀG)⁻¹ (krylovSystem).
func (k *aliKrylov) precondition(x []float64) {
	clear(k.y)
	k.tan.Solve(x, k.y)
}

// factorProjection prepares solveProjection with M + αGᵀG at the point of massAt and G
// at w.q's last evaluation.
func (k *aliKrylov) factorProjection() error {
	k.proj.shift = 1 / k.w.alpha
	k.w.stats.Factorizations++
	return k.proj.factor(k.mt, k.mq, k.w.G)
}

// solveProjection overwrites d with (M + αGᵀG)⁻¹ d.
func (k *aliKrylov) solveProjection(d []float64) {
	clear(k.y)
	k.proj.Solve(d, k.y)
}
