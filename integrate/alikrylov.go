package integrate

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// aliKrylov is the Newton-Krylov path of the augmented Lagrangian methods (ali3, ali1,
// multi-index) on systems with dae.MassSolver and dae.MassMultiplier (the joint route):
// no nq×nq matrix is formed. The residual R of eq. 8 (index 3, times h²/4) or eq. 5
// (index 1) is solved in its forward-dynamics form
//
//	F(x) = M(q)⁻¹ R(x),   x = qₙ₊₁ (index 3) or q̈ₙ₊₁ (index 1),
//
// which has the same zeros. Newton's method is not invariant under this q-dependent row
// scaling, and that is its purpose: in relative coordinates of slender bodies M(q) is
// ill-conditioned (a rod's spin about its axis) and turns with the joint angles (the spin
// of a rod carries the rest of a nearly straight chain, whose inertia about that axis
// grows from the spins' to m L² θ² within microradians), so R = M(q) q̈ − Q is far more
// curved than M(q)⁻¹R = q̈ − M(q)⁻¹Q. On the 1000-rod chain at 0.4 ms Newton on R left
// spurious spin accelerations that made its next tangents indefinite (GMRES missed, the
// run stopped), whatever the products' accuracy; Newton on F (as hht's scaled rows,
// massNewton.scaleRows) steps there at 0.2-0.8 ms (BENCHMARKS.md, "ali3 and ali1 on the
// forward-dynamics residual"). F's tangent,
//
//	M⁻¹(M + (h²/4)((M q̈)_q + (Φ_qᵀλ*)_q − Q_q) − (h/2) Q_q̇) + (M⁻¹)_q R₀ + (h²/4) M_F⁻¹ α Φ_qᵀΦ_q   (index 3)
//	M⁻¹(M + (h²/4)((M q̈)_q + (Φ_qᵀλ*)_q − Q_q) − (h/2) Q_q̇) + (M⁻¹)_q R₀ + M_F⁻¹ α Φ_qᵀ ∂Φ̈/∂q̈     (index 1)
//
// with R₀ the rows without the penalty force αΦ_qᵀΦ (the dense tangent leaves out
// (Φ_qᵀαΦ)_q alike) and M_F⁻¹Φ_qᵀ the factorization's Y below, is applied to z by a
// forward difference of M(q)⁻¹R₀ = c(q̈ + M(q)⁻¹ℓ) with λ* held (ℓ = Φ_qᵀλ* − Q the
// loads, c = h²/4 or 1: one force evaluation and one articulated-body solve per product,
// jacVec) plus the penalty's column Y α(Φ_q z) or Y α(Φ̈(q̈ + εz) − Φ̈)/ε. GMRES (gmres.go) is preconditioned by (M + β Φ_qᵀΦ_q)⁻¹ M
// (β = αh²/4 in index 3, α in index 1) at the first iterate of every step (index 3) or at
// every iterate (index 1): the identity without constraint rows, else I − Y (G Y +
// I/β)⁻¹ G with Y = M⁻¹ Gᵀ by Woodbury's identity (massSchur with shift 1/β: nc recursive
// solves and an nc×nc Cholesky factorization per matrix, no recursion per application),
// positive definite whatever the rank of Φ_q, as the method promises. The projections'
// matrix M + αΦ_qᵀΦ_q is applied the same way, and M x by dae.MassMultiplier, so the
// projections run the dense path's iteration (solveProjected).
//
// With λ-dependent forces the rows carry f_λ at the iterate's λ̂ and each product the
// derivative through λ̂ (alikrylovreaction.go), in R and u alike.
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

	x0, rc   []float64 // the iterate's unknowns (q or q̈); the reaction column (nq)
	q1, v1   []float64 // the perturbed iterate
	a1, f1   []float64
	r1, e1   []float64 // its rows without penalty and its Φ̈ (index 1)
	gam1, gz []float64 // γ and G z (nc)
	G1       *mat.Dense
	missed   bool // the last GMRES solve missed its tolerance
	// F = M(q)⁻¹R at the iterate, F without the penalty's force, and that at the
	// perturbed iterate (forwardDynamics; nq each)
	F0, Fb, F1 []float64
	tq         float64 // tₙ₊₁, where F is evaluated

	rf *aliKrylovReaction // λ-dependent forces (alikrylovreaction.go), or nil

	kg aliStiffness // K_g in the tangent's preconditioner, bought by GMRES's products
}

// aliStiffness is the rule that puts the geometric stiffness into F's preconditioner,
// (M + c K_g + βGᵀG)⁻¹M with c = h²/4, on dae.StiffMassSolver systems ("rent or buy"):
// the preconditioner stays (M + βGᵀG)⁻¹M, which costs no recursion, while GMRES takes one
// product per solve; once the products above one per solve reach aliKgBuy, K_g is taken
// at the next first iterate with its d'Alembert loads at the forward-dynamics
// accelerations x = q̈ − F/c of F's rows (F = c(q̈ − x) without the penalty), the
// accelerations F's derivative (M⁻¹)_q R = −M⁻¹(M x)_q holds, and kept with its point
// until the products above one per solve since then reach aliKgRefactor (the
// factorization's age). Measured on the 3D chain: BENCHMARKS.md, "ali3 and ali1 with K_g
// at the forward-dynamics accelerations".
type aliStiffness struct {
	on      bool       // the preconditioner holds K_g (factored at the point of k.tan)
	due     bool       // take K_g afresh at the next first iterate
	pending bool       // factor deferred to increment, where x is at hand
	excess  int        // GMRES products above one per solve since the last factorization or decision
	h       float64    // the step of the factorization (c = h²/4)
	s       *massSchur // M + cK_g + βGᵀG at its point (aliKrylov.tan keeps M⁻¹Gᵀ at the iterate for the products)
	G       *mat.Dense // G at s's point
	x       []float64
	u       []float64
	y       []float64
}

// aliKgBuy and aliKgRefactor are the rule's thresholds in GMRES products above one per
// solve: a factorization (one Newton-Euler pass for K_g, nc stiff solves for Y) costs
// about one product; buying K_g adds a K_g product and a stiff solve to every GMRES
// iteration, so it waits for a few excess products.
const (
	aliKgBuy      = 2
	aliKgRefactor = 2
)

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
		mq: vec(nq), y: vec(nc), x0: vec(nq), rc: vec(nq), q1: vec(nq), v1: vec(nq), a1: vec(nq), f1: vec(nq),
		r1: vec(nq), e1: vec(nc), gam1: vec(nc), gz: vec(nc), F0: vec(nq), Fb: vec(nq), F1: vec(nq)}
	// The rounding-only increment (jacVec): the measured one (diffNoise, √(ν S)) moved
	// ali3's and ali1's results with joint friction from the dense path's by 2.8e-5 and
	// 8.6e-5 against errors of 1.1e-5 (TestALIKrylovFrictionMatchesDense): the friction
	// law's curvature in v = 2Δq/h is far above the 1/S the rule assumes.
	k.kr.noise, k.kr.measures = nil, false
	if nc > 0 {
		k.G1 = mat.NewDense(nc, nq, nil)
	}
	k.stiffens()
	return k
}

// stiffens sets up the rule aliStiffness on a dae.StiffMassSolver system (newALIKrylov);
// without one the preconditioner keeps M + βGᵀG.
func (k *aliKrylov) stiffens() {
	if k.tan.st == nil {
		return
	}
	nq, nc := k.w.nq, k.w.nc
	k.kg = aliStiffness{x: make([]float64, nq), u: make([]float64, nq), y: make([]float64, nc),
		s: massSchurOf(k.w.sys)}
	if nc > 0 {
		k.kg.G = mat.NewDense(nc, nq, nil)
	}
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

// factor prepares the tangent's preconditioner at the iterate (aliWork.factor): M +
// βGᵀG, and when the rule aliStiffness asks for it, M + (h²/4)K_g + βGᵀG at the next
// increment, where K_g's loads are at hand. Session 13 measured K_g always in (25-70 %
// dearer at N = 100, where one product per solve needs none) or in the scaling
// ((M + (h²/4) K_g)⁻¹R: multi-index's longer steps on the 4-rod chain 3 times less
// accurate) (BENCHMARKS.md, "ali3 and ali1 on the forward-dynamics residual"); the rule
// buys it only where GMRES needs more than one product.
func (k *aliKrylov) factor() error {
	w := k.w
	h := w.hTry
	// with constraint rows the preconditioner's βGᵀG must follow the iterate (β = α in
	// index 1, and a G at an older point made ali1's four-bar diverge): refactored with
	// tan, K_g with it
	if g := &k.kg; g.x != nil && (g.due || g.on && (g.h != h || w.nc > 0)) {
		g.pending = true // increment factors with K_g at x (aliStiffness)
	}
	beta := w.alpha
	if w.index == 3 {
		beta = w.alpha3 * h * h / 4
	}
	k.tan.shift = 1 / beta
	w.stats.Jacobians++
	w.stats.Factorizations++
	return k.tan.factor(w.cur.T+h, w.q, w.G)
}

// factorStiff factors M + (h²/4)K_g + βGᵀG at the iterate with K_g's d'Alembert loads at
// the forward-dynamics accelerations x = q̈ − F_b/c (F_b = c(q̈ + M⁻¹ℓ) without the
// penalty) and the loop closures' loads at λ*.
func (k *aliKrylov) factorStiff(t float64) {
	w, g := k.w, &k.kg
	h := w.hTry
	c := k.rowScale()
	for i, f := range k.Fb {
		g.x[i] = w.a[i] - f/c
	}
	beta := w.alpha
	if w.index == 3 {
		beta = w.alpha3 * h * h / 4
	}
	s := g.s
	s.shift = 1 / beta
	s.stiff = h * h / 4
	s.st.GeometricStiffness(s.kg, t, w.q, w.v, g.x, w.lamStar)
	if w.nc > 0 {
		g.G.Copy(w.G)
	}
	w.stats.Factorizations++
	g.on, g.due, g.pending, g.excess, g.h = true, false, false, 0, h
	if err := s.factor(t, w.q, g.G); err != nil {
		g.on = false
		k.missed = true
	}
}

// counted records a GMRES solve's products in the rule (aliStiffness).
func (k *aliKrylov) counted(reached bool) {
	g := &k.kg
	if g.x == nil {
		return
	}
	g.excess += k.kr.products - 1
	switch {
	case !reached && g.on:
		g.due = true
	case !g.on && g.excess >= aliKgBuy, g.on && g.excess >= aliKgRefactor:
		g.due, g.excess = true, 0
	}
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
	// the residual's Q + f_λ(λ̂) and G at the iterate, as loads would evaluate them
	copy(k.f1, w.f)
	if w.nc > 0 {
		k.G1.Copy(w.G)
	}
	if k.rf != nil {
		k.reactionBase(t)
	}
	k.tq = t
	k.loadsOf(k.r1, w.G)
	k.forwardDynamics(k.Fb, t, w.q, w.a, k.r1)
	copy(k.F0, k.Fb)
	if w.nc > 0 { // F with the penalty's force αGᵀΦ, which the difference leaves out
		alpha := w.penalty()
		for c := range w.nc {
			mu := alpha * w.phi[c]
			for j, g := range w.G.RawRowView(c) {
				k.r1[j] += g * mu
			}
		}
		k.forwardDynamics(k.F0, t, w.q, w.a, k.r1)
	}
	k.missed = false
	if k.kg.pending {
		k.factorStiff(t)
	}
	for i, f := range k.F0 {
		w.dx[i] = -f
	}
	reached := k.kr.solve(k, w.dx)
	k.counted(reached)
	k.missed = k.missed || !reached
	if k.rf != nil {
		k.missed = k.missed || k.rf.failed || w.al.err != nil
	}
}

// loads writes Gᵀλ* − Q − f_λ(λ̂) at (t, q, v) into dst (the equation of motion without
// M q̈ and the penalty, λ̂ of the iterate held), Q + f_λ(λ̂) into f1, G(q) into G.
func (k *aliKrylov) loads(dst []float64, t float64, q, v []float64, G *mat.Dense) {
	w := k.w
	w.sys.Force(k.f1, t, q, v)
	w.stats.FuncEvals++
	if w.rx != nil {
		w.rx.rx.add(k.f1, t, q, v, w.lamHat)
	}
	if w.nc > 0 {
		w.sys.ConstraintJacobian(G, t, q)
	}
	k.loadsOf(dst, G)
}

// loadsOf writes Gᵀλ* − f1 into dst.
func (k *aliKrylov) loadsOf(dst []float64, G *mat.Dense) {
	w := k.w
	for i, f := range k.f1 {
		dst[i] = -f
	}
	for c := range w.nc {
		l := w.lamStar[c]
		for j, g := range G.RawRowView(c) {
			dst[j] += g * l
		}
	}
}

// forwardDynamics writes c(q̈ + M(q)⁻¹ ℓ) into dst, c = rowScale: M(q)⁻¹ of the rows
// c(M q̈ + ℓ) without forming M q̈, whose round trip through the articulated-body solve
// would add its rounding, amplified by M's condition number (about 1e12 on the
// 1000-rod chain), to every difference. ℓ is overwritten.
func (k *aliKrylov) forwardDynamics(dst []float64, t float64, q, a, l []float64) {
	c := k.rowScale()
	k.ms.MassSolve(dst, t, q, l)
	for i, x := range dst {
		dst[i] = c * (a[i] + x)
	}
}

// jacVec writes F's tangent times z into dst (krylovSystem; see aliKrylov): at the
// perturbed iterate q₁ = q + εz (or q̈ + εz) of rowsJacVec, (c(q̈₁ + M(q₁)⁻¹ℓ₁) − c(q̈ +
// M(q)⁻¹ℓ))/ε with ℓ the loads without the penalty (loads; ℓ₁ with the linearized change
// of f_λ(λ̂) through λ̂), plus the penalty's column (addPenalty). The penalty's force αGᵀΦ
// at the iterate stays out of the difference as the dense tangent leaves out (Gᵀ αΦ)_q
// (aliWork.factor): far from the solution it is orders of magnitude above the loads
// (measured: with it, (M⁻¹)_q αGᵀΦ took GMRES's first reduction on the closed 70-rod
// chain from 2e-3 to 0.7 within 22 steps of 1 ms, and ali3 failed there).
func (k *aliKrylov) jacVec(dst, z []float64) {
	eps := k.perturbedLoads(k.r1, z)
	if eps == 0 {
		clear(dst)
		return
	}
	k.forwardDynamics(k.F1, k.tq, k.q1, k.a1, k.r1)
	for i, f := range k.F1 {
		dst[i] = (f - k.Fb[i]) / eps
	}
	if k.w.nc > 0 {
		k.addPenalty(dst, z, k.tq, eps)
	}
}

// rowScale is the factor on R's rows: h²/4 in index 3 (eq. 8 times h²/4), 1 in index 1.
func (k *aliKrylov) rowScale() float64 {
	if h := k.w.hTry; k.w.index == 3 {
		return h * h / 4
	}
	return 1
}

// perturbedLoads moves the iterate's unknowns by εz (q₁ = q + εz in index 3, q̈₁ = q̈ + εz
// in index 1, the trapezoidal rule giving the rest into q1, v1, a1), writes the loads
// there into dst (with λ-dependent forces plus ε times the change of −f_λ through λ̂,
// addReactionColumn) and returns ε, or 0 when z = 0.
func (k *aliKrylov) perturbedLoads(dst, z []float64) float64 {
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
		return 0
	}
	k.loads(dst, t, k.q1, k.v1, k.G1)
	if k.rf != nil && w.nc > 0 {
		clear(k.rc)
		k.addReactionColumn(k.rc, t, eps)
		for i, x := range k.rc {
			dst[i] += eps * x
		}
	}
	return eps
}

// addPenalty adds F's penalty column to dst: c M⁻¹Gᵀ(α G z) in index 3, M⁻¹Gᵀ α(Φ̈(q̈ + εz)
// − Φ̈)/ε in index 1 (Φ̈ at the perturbed iterate from G1, evaluated there by rows), G at
// the iterate and M⁻¹Gᵀ as Y = M⁻¹Gᵀ of the factorization. Through M(q₁)⁻¹ with the rest
// of the product, the column (α times M's scale) would carry M's change over the
// increment into the product amplified by α: ali1's first GMRES solve on the closed
// 70-rod chain stalled at a relative residual of 0.82.
func (k *aliKrylov) addPenalty(dst, z []float64, t, eps float64) {
	w, s := k.w, k.tan
	alpha := w.penalty()
	if w.index == 3 {
		alpha *= k.rowScale()
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
		for j, y := range s.Y[c*s.nq : (c+1)*s.nq] {
			dst[j] += y * gz
		}
	}
}

// precondition applies (M + βGᵀG)⁻¹ M = I − Y (G Y + I/β)⁻¹ G (krylovSystem), Y = M⁻¹ Gᵀ
// and the Cholesky factor of G Y + I/β from the factorization (massSchur.factorize).
func (k *aliKrylov) precondition(x []float64) {
	if k.kg.on { // x − (M + cK_g + βGᵀG)⁻¹(cK_g + βGᵀG)x
		s := k.kg.s
		u := k.kg.u
		clear(u)
		s.st.AddGeometricStiffnessMul(u, s.t, s.q, x, s.kg, s.stiff)
		for c := range s.nc {
			gx := dot(s.G.RawRowView(c), x) / s.shift
			for j, g := range s.G.RawRowView(c) {
				u[j] += g * gx
			}
		}
		clear(k.kg.y)
		s.Solve(u, k.kg.y)
		for i, v := range u {
			x[i] -= v
		}
		return
	}
	s := k.tan
	if s.nc == 0 {
		return
	}
	for c := range s.nc {
		k.y[c] = dot(s.G.RawRowView(c), x)
	}
	linalg.CholeskySolve(s.W, s.nc, k.y)
	for c, yc := range k.y {
		for j, v := range s.Y[c*s.nq : (c+1)*s.nq] {
			x[j] -= v * yc
		}
	}
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
