package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// LieGenAlpha integrates the equations of motion on a Lie group (dae.LieSystem: q̇ = q·ṽ,
// M v̇ = f − Bᵀλ, Φ = 0) by the Lie group generalized-α method of Brüls, Cardona & Arnold
// (2012), with the α-recursion of seed 002, eq. 64c, on the velocities of the Lie algebra:
//
//	q_{n+1} = q_n ∘ exp(h Δq_n),    Δq_n = v_n + (½ − β) h a_n + β h a_{n+1}
//	v_{n+1} = v_n + (1 − γ) h a_n + γ h a_{n+1}
//	(1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) v̇_{n+1} + α_f v̇_n
//
// with the equilibrium M v̇_{n+1} = f − Bᵀλ_{n+1} at (t_{n+1}, q_{n+1}, v_{n+1}) and, by
// Formulation,
//
//   - Index3: Φ(q_{n+1}) = 0. Unknowns Δq_n and hλ_{n+1}; residuals r = h(M v̇ − f) + Bᵀ hλ
//     and Φ/h, as seed 002, eq. 69, scales the linear-space method, so that the iteration
//     matrix
//
//     [ c_M M + h(γ/β) C_t + h² K_t T(hΔq_n)    Bᵀ ]       c_M = (1 − α_m)/(β(1 − α_f))
//     [ B T(hΔq_n)                              0  ]
//
//     (Brüls, Cardona & Arnold 2012, eq. 31, multiplied by h²β(1 − α_f)/(1 − α_m) in its
//     first row and by 1/h in its second) stays bounded with a bounded inverse as h → 0.
//     The tangent operator T(hΔq_n) carries the variation of the exponential coordinates
//     to the group: q_n∘exp(hΔq_n + δ) = q_{n+1}∘exp(T(hΔq_n) δ) + O(δ²).
//
//   - StabilizedIndex2 (Arnold, Brüls & Cardona 2015, the stabilized index-2 form):
//     Φ(q_{n+1}) = 0 and B(q_{n+1}) v_{n+1} + Φ_t = 0, the position increment corrected by
//     −B(q_n)ᵀμ (hΔq_n = h(v_n + (½ − β) h a_n + β h a_{n+1}) − h B(q_n)ᵀμ, as seed 002,
//     eq. 94a, does in ℝⁿ); unknowns Δq_n, hλ_{n+1}, μ. The velocity-constraint rows of
//     the iteration matrix are (γ/β) B + h Z T(hΔq_n) in Δq, Z the derivative of B v
//     along the group (LieSystem.ConstraintJacobianDerivative); without Z Newton failed on
//     the fast top (|Ω| = 150 rad/s, h = 1e-3), where h|Z| is not small against γ/β.
//
// Pfaffian rows A(t,q) v + b = 0 (dae.Nonholonomic of the LieSystem, A in the algebra's
// velocities as B is; on ℝⁿ the System's) are appended to B with multipliers μ after λ
// (dae.WithLiePfaffianRows) and held at the velocity level in both forms, as genalpha holds
// them: residual A(q_{n+1}) v_{n+1} + b, unscaled, with rows (γ/β) A + h R T(hΔq_n) in the
// iteration matrix, R the derivative of A v + b along the group; −Aᵀμ enters the
// equilibrium beside −Bᵀλ and its derivative K_t; in the stabilized index-2 form they
// take no stabilizer (μ_k = 0 for them).
//
// Starting values: v̇_0, λ_0 solve [M Bᵀ; B 0](v̇, λ) = (f, γ) at t_0; a_0 = v̇_0 + (α_m −
// α_f) h v̈_0 (seed 002, Example 8), with v̈_0 the central difference of v̇ at the Taylor
// points (t_0 ± h, q_0∘exp(±h v_0 + h²/2 v̇_0), v_0 ± h v̇_0).
//
// Corrector: the one Newton loop (newtonSolver) on the scaled unknowns, the matrix kept
// by NewtonSettings.Jacobian. Error estimate (variable steps): the local error of the
// exponential coordinates. Expanding q(t_n + h) = q_n∘exp(Θ(h)) with Θ' = T(Θ)⁻¹ v =
// v + ½[Θ, v] + O(Θ²) gives Θ(h) = h v + h²/2 v̇ + h³/6 (v̈ + ½[v, v̇]) + O(h⁴), so the
// local error of h Δq_n is h³(β − γ/2 + 1/12) v̈ − h³/12 [v, v̇]: the error of the
// linear-space method (genalpha) plus the bracket term, estimated by
//
//	e = h²(β − γ/2 + 1/12)(a_{n+1} − a_n) − h³/12 [v_n, a_n],
//
// measured by a weighted RMS with weights ATol_i + RTol·s (ATol_i from StepControl.ATolQ,
// one per algebra coordinate, when set): s = 1 on a group (the algebra
// coordinates are angles in rad and translations in model units, with no magnitude to be
// relative to) and s = |q_i| on a vector space (dae.VectorSpace), where the method is
// genalpha's and the bracket vanishes. On a step-size change a_n is shifted to its new
// abscissa as genalpha does.
//
// On a dae.System on ℝⁿ with dae.MassSolver and dae.MassMultiplier (the joint route)
// and without λ-dependent forces (with them, above massNewtonDenseMax coordinates), with
// or without Pfaffian rows, the run is genalpha's (GenAlpha, named lie-genalpha):
// on a vector space T = I and the bracket vanishes, so the two methods take the same
// starting values, updates, predictor and error estimate, and differ only in their
// corrector, which is genalpha's Newton-Krylov one there (massnewton.go), O(N) per
// product, in place of the dense eq. 64 iteration matrix of nv + nc unknowns.
//
// Current holds t_n, q_n, v_n, v̇_n (not a_n) in A, and λ_n.
type LieGenAlpha struct {
	// Params are α_m, α_f, β, γ [GenAlphaFromRhoInf(0.9)]; start from DefaultLieGenAlpha.
	Params GenAlphaParams
	// Formulation is Index3 or StabilizedIndex2 [Index3].
	Formulation
	// Newton is the corrector stop and Jacobian policy [NewtonSettings defaults].
	Newton NewtonSettings

	// factorizedOnly keeps genalpha's forward-dynamics iteration (fdIter) off in a run on
	// a joint-route System (GenAlpha.factorizedOnly), for tests.
	factorizedOnly bool

	w         *lieWork
	ga        *GenAlpha // the run on a joint-route System (krylovOnPlain), or nil
	*accepted           // Current, Previous, Stats (method.go)
}

// lieMoveMax is how far, in ‖·‖∞ of the algebra coordinates summed over the accepted
// steps (radians for rotations), the configuration may move from where the iteration
// matrix was formed before JacobianAuto forms it anew on a group: B(q) and K_t turn with
// the bodies, and on the fast top (|Ω| = 150 rad/s) a matrix formed one step (0.19 rad)
// earlier contracted at θ ≈ 0.25, so nearly every reuse failed. 0.05 rad keeps θ near
// ReuseRate; on ℝⁿ (VectorSpace) the rule is genalpha's (θ and the deadband on h only).
const lieMoveMax = 0.05

// LieMethod is a Method that also integrates a dae.LieSystem (Entry.Lie).
type LieMethod interface {
	Method
	// InitLie is Init for a system on a Lie group: start.Q has the stored length nq,
	// start.V and start.A the group dimension nv (start.A is not used).
	InitLie(sys dae.LieSystem, start State, ctl StepControl) error
}

// DefaultLieGenAlpha returns the index-3 Lie group generalized-α method with ρ∞ = 0.9.
func DefaultLieGenAlpha() LieGenAlpha {
	p, _ := GenAlphaFromRhoInf(DefaultRhoInf)
	return LieGenAlpha{Params: p, Formulation: Index3}
}

var _ LieMethod = (*LieGenAlpha)(nil)

// lieGenAlphaEntry: genalpha's iteration on the group's algebra (alphashared.go), so its
// seed, error control and orders: λ of the index-3 form is first order over a run started
// in motion (the start-up transient of seed 002, Example 8); the ggl form is second order
// in λ. Forces that depend on λ: on a dae.System on ℝⁿ (the capability belongs to
// dae.System; a dae.LieSystem cannot declare one). Pfaffian rows A v + b = 0 in both
// forms (dae.WithLiePfaffianRows), on a LieSystem as on a System.
var lieGenAlphaEntry = func() Entry {
	e := genAlphaEntry.variant("lie-genalpha",
		"Lie group generalized-α (Brüls-Cardona-Arnold 2012, ρ∞ = 0.9), index 3 or stabilized index 2",
		"Remark 5, 33-34, 64; Brüls-Cardona-Arnold 2012; Arnold-Brüls-Cardona 2015 (ggl)",
		func() Method { m := DefaultLieGenAlpha(); return &m }).in(nil, Index3, StabilizedIndex2)
	e.Lie, e.Nonholonomic = true, []Formulation{Index3, StabilizedIndex2}
	return e
}()

// NewLieMethod returns e's method for a dae.LieSystem, or an error naming the capability
// when e steps q' = v in a vector space only.
func (e Entry) NewLieMethod(f Formulation) (LieMethod, error) {
	if !e.Lie {
		var can []string
		for _, x := range registry() {
			if x.Lie {
				can = append(can, x.Name)
			}
		}
		return nil, fmt.Errorf("integrate: method %s cannot integrate a Lie-group system (dae.LieSystem: configuration on a Lie group, updated by q∘exp(w)): it steps q' = v in a vector space; use %v", e.Name, can)
	}
	m, err := e.NewMethod(f)
	if err != nil {
		return nil, err
	}
	return m.(LieMethod), nil
}

// lieWork is the per-run state of LieGenAlpha, sized once by Init.
type lieWork struct {
	name  string
	sys   dae.LieSystem
	vs    *dae.VectorSpace // non-nil when integrating a dae.System on ℝⁿ
	plain dae.System       // that System, for names
	// rx is that System's λ-dependent force (dae.ReactionForce) or nil, pressed by
	// λ_{n+1} = hλ/h in the residual; rxa solves eq. 17 with it (accel).
	rx         *reaction
	rxa        *reactionAccel
	nq, nv, nc int
	// pf are the Pfaffian rows A v + b = 0 (nil: none), rows ncH… of B after those of Φ
	// (dae.WithLiePfaffianRows), held at the velocity level; R is their rate derivative.
	pf  dae.Nonholonomic
	ncH int
	R   *mat.Dense
	alphaScheme
	nw newtonSolver

	lad ladder
	ctl controller

	accepted // cur, prev, stats: Current, Previous, Stats
	aN, jerk []float64
	hA       float64
	theta    []float64 // h Δq_n of the last accepted step (dense output)

	jerk0  []float64
	hJerk  float64
	kkt    *linalg.KKT
	kq, kv []float64

	vn, an         []float64
	x, dx          []float64 // (Δq, hλ, μ) and the Newton increment
	th             []float64 // h Δq of the iterate
	q1, v1, a1, d1 []float64 // q_{n+1}, v_{n+1}, a_{n+1}, v̇_{n+1}
	lam1           []float64
	res, f, br     []float64
	c1             []float64 // nc scratch
	M, K, C, T, J  *mat.Dense
	B0, B1, BT, Z  *mat.Dense
	lu             *newtonFactor
	moved          float64 // Σ ‖hΔq‖∞ of the steps accepted since the matrix was formed
	hTry           float64
}

// Init integrates a System on ℝⁿ as the additive group (dae.VectorSpace): the method is
// then genalpha's (or genalpha-si2's), which the conformance suite checks.
func (m *LieGenAlpha) Init(sys dae.System, start State, ctl StepControl) error {
	if nd := dae.StateSize(sys); nd > 0 {
		return fmt.Errorf("integrate: lie-genalpha: the system has %d first-order states (dae.FirstOrder), which this method does not integrate; use dopri5 or hht", nd)
	}
	if err := dae.RefusePfaffianWith("integrate: lie-genalpha", sys); err != nil {
		return err
	}
	m.ga = nil
	if krylovOnPlain(sys) {
		ga := &GenAlpha{Params: m.Params, Formulation: m.Formulation, Newton: m.Newton, Name: "lie-genalpha", factorizedOnly: m.factorizedOnly}
		if err := ga.Init(sys, start, ctl); err != nil {
			return err
		}
		m.w, m.ga, m.accepted = nil, ga, ga.accepted
		return nil
	}
	vs := dae.NewVectorSpace(sys)
	if err := m.init(vs, start, ctl, sys); err != nil {
		return err
	}
	m.w.vs, m.w.plain = vs, sys
	m.w.lad.fc = newFailureContext(sys, &start)
	return nil
}

// InitLie checks the options and that start is consistent (Φ and B v + Φ_t within
// ATol), solves for v̇_0 and λ_0 and sizes all workspace; after it Step does not allocate.
func (m *LieGenAlpha) InitLie(sys dae.LieSystem, start State, ctl StepControl) error {
	m.ga = nil
	return m.init(sys, start, ctl, nil)
}

// krylovOnPlain reports whether lie-genalpha runs on the System sys on ℝⁿ as genalpha,
// whose Newton-Krylov corrector takes sys (see LieGenAlpha): dae.MassSolver without what
// keeps a system off that corrector (denseWhyTaking: Pfaffian rows are taken, in
// massSchur over (G; A), pfaffianPrecond), or with λ-dependent forces above
// massNewtonDenseMax coordinates, which genalpha's residual carries (reactionKrylov).
func krylovOnPlain(sys dae.System) bool {
	_, ms := sys.(dae.MassSolver)
	return ms && (denseWhyTaking(sys, false, true) == "" || reactionKrylov(sys))
}

// init starts a run on sys; plain is the dae.System on ℝⁿ that sys wraps (nil for a
// dae.LieSystem), whose λ-dependent forces (dae.ReactionForce, a capability of
// dae.System only) the run includes.
func (m *LieGenAlpha) init(sys dae.LieSystem, start State, ctl StepControl, plain dae.System) error {
	name := "lie-genalpha"
	if err := m.Params.check(name); err != nil {
		return err
	}
	form, err := lieGenAlphaEntry.formulation(m.Formulation)
	if err != nil {
		return err
	}
	nwS, err := m.Newton.Resolve()
	if err != nil {
		return err
	}
	pf, hasPf := dae.AsLieNonholonomic(sys)
	_, _, ncH := sys.LieSize()
	sys = dae.WithLiePfaffianRows(sys)
	nq, nv, nc := sys.LieSize()
	rc, err := ctl.resolveAt(start.T, nv) // ATolQ: one tolerance per algebra coordinate
	if err != nil {
		return err
	}
	if len(start.Q) != nq || len(start.V) != nv || len(start.Lambda) != nc || len(start.A) != nv {
		panic(fmt.Sprintf("integrate: %s: Init: start sizes (q %d, v %d, a %d, λ %d) do not match the system (nq %d, nv %d, nc %d)",
			name, len(start.Q), len(start.V), len(start.A), len(start.Lambda), nq, nv, nc))
	}
	if !allFinite(start.Q) || !allFinite(start.V) {
		return fmt.Errorf("integrate: %s: start (q %v, v %v) is not finite", name, start.Q, start.V)
	}
	w := &lieWork{name: name, sys: sys, nq: nq, nv: nv, nc: nc, ncH: ncH, alphaScheme: newAlphaScheme(m.Params, form, nv, nc)}
	if hasPf {
		w.pf, w.R = pf, mat.NewDense(nc-ncH, nv, nil)
	}
	if plain != nil {
		if err := refuseDenseNewton(name, form, plain, denseWhyTaking(plain, false, true)); err != nil {
			return err
		}
		w.rx, w.rxa = newReaction(plain, nil), newReactionAccel(plain, nil)
	}
	w.nw = newNewtonSolver(nwS, &w.stats)
	vec := func(n int) []float64 { return make([]float64, n) }
	state := func() State {
		return State{Q: vec(nq), V: vec(nv), A: vec(nv), Lambda: vec(nc)}
	}
	w.cur, w.prev = state(), state()
	w.aN, w.jerk, w.theta, w.jerk0 = vec(nv), vec(nv), vec(nv), vec(nv)
	w.kq, w.kv = vec(nq), vec(nv)
	w.vn, w.an = vec(nv), vec(nv)
	w.x, w.dx, w.res = vec(w.nx), vec(w.nx), vec(w.nx)
	w.th, w.q1, w.v1, w.a1, w.d1 = vec(nv), vec(nq), vec(nv), vec(nv), vec(nv)
	w.f, w.br, w.lam1, w.c1 = vec(nv), vec(nv), vec(nc), vec(nc)
	sq := func() *mat.Dense { return mat.NewDense(nv, nv, nil) }
	w.M, w.K, w.C, w.T, w.J = sq(), sq(), sq(), sq(), sq()
	if nc > 0 {
		w.B0, w.B1, w.BT, w.Z = mat.NewDense(nc, nv, nil), mat.NewDense(nc, nv, nil), mat.NewDense(nc, nv, nil), mat.NewDense(nc, nv, nil)
	}
	w.lu = newNewtonFactor(w.nx, nil)
	w.kkt = linalg.NewKKT(nv, nc)

	w.cur.T = start.T
	copy(w.cur.Q, start.Q)
	copy(w.cur.V, start.V)
	if nc > 0 {
		sys.Constraint(w.c1, start.T, start.Q)
		if i, r := worstAbs(w.c1); r > rc.ATol {
			return fmt.Errorf("integrate: %s: inconsistent start: position constraint %d (%s) = %.3g exceeds ATol = %g",
				name, i, w.constraintName(i), w.c1[i], rc.ATol)
		}
		sys.ConstraintJacobian(w.B1, start.T, start.Q)
		sys.ConstraintTimeDerivative(w.c1, start.T, start.Q)
		for k := range nc {
			for i, b := range w.B1.RawRowView(k) {
				w.c1[k] += b * start.V[i]
			}
		}
		if i, r := worstAbs(w.c1); r > rc.ATol {
			return fmt.Errorf("integrate: %s: inconsistent start: velocity constraint %d (%s) B v + Φ_t = %.3g exceeds ATol = %g",
				name, i, w.constraintName(i), w.c1[i], rc.ATol)
		}
	}
	if err := w.accel(w.cur.A, w.cur.Lambda, start.T, start.Q, start.V); err != nil {
		return fmt.Errorf("integrate: %s: start at t=%g: KKT matrix [M Bᵀ; B 0] %w (redundant constraints or M singular on ker B)", name, start.T, err)
	}
	copy(w.aN, w.cur.A)
	w.prev.CopyFrom(&w.cur)
	w.lad = ladder{name: name, m: w, raw: ctl, second: &w.ctl, firstStep: w.firstStep, stats: &w.stats, cur: &w.cur}
	w.lad.watch = undampedIndex3(!w.si2, w.p)
	m.w, m.accepted = w, &w.accepted
	return nil
}

// coordinateName names velocity i: the plain system's coordinate on ℝⁿ, else the Lie
// system's own name (dae.Namer), else v[i].
func (w *lieWork) coordinateName(i int) string {
	if w.plain != nil {
		return dae.CoordinateName(w.plain, i)
	}
	return w.lieName(i, "v", dae.Namer.CoordinateName)
}

// constraintName names constraint row i as coordinateName does, Φ[i] without a name; a
// Pfaffian row (i ≥ ncH) by the name dae.WithLiePfaffianRows gives it.
func (w *lieWork) constraintName(i int) string {
	if w.plain != nil && i < w.ncH {
		return dae.ConstraintName(w.plain, i)
	}
	return w.lieName(i, "Φ", dae.Namer.ConstraintName)
}

// lieName is the name name gives i when the Lie system is a dae.Namer and gives one, else
// sym[i].
func (w *lieWork) lieName(i int, sym string, name func(dae.Namer, int) string) string {
	if n, ok := w.sys.(dae.Namer); ok {
		if s := name(n, i); s != "" {
			return s
		}
	}
	return fmt.Sprintf("%s[%d]", sym, i)
}

// accel solves [M Bᵀ; B 0](v̇, λ) = (f, γ) at (t, q, v) (seed 002, eq. 17 on the group).
func (w *lieWork) accel(a, lambda []float64, t float64, q, v []float64) error {
	w.sys.Mass(w.M, t, q)
	w.sys.Force(a, t, q, v)
	var err error
	if w.nc > 0 {
		w.sys.ConstraintJacobian(w.B1, t, q)
		w.sys.Gamma(lambda, t, q, v)
		err = w.kkt.FactorizeSym(w.M, w.B1)
	} else {
		err = w.kkt.FactorizeSym(w.M, nil)
	}
	w.stats.FuncEvals++
	w.stats.Factorizations++
	if err != nil {
		return err
	}
	if w.rxa != nil {
		return w.rxa.solve(w.kkt, a, lambda, t, q, v, &w.stats)
	}
	w.kkt.Solve(a, lambda)
	w.stats.Solves++
	return nil
}

// Step takes one accepted step toward tEnd (ladder.step, which watches the undamped
// index-3 form by index3Watch as for genalpha).
func (m *LieGenAlpha) Step(tEnd float64) error {
	if m.ga != nil {
		return m.ga.Step(tEnd)
	}
	mustInit(m.w != nil, "lie-genalpha")
	return m.w.lad.step(tEnd)
}

// firstStep is genalpha's: h = min(span/100, 1/sqrt(‖v̇_0‖)).
func (w *lieWork) firstStep(tEnd float64) float64 {
	c := w.lad.c
	var s float64
	for i, a := range w.cur.A {
		r := a / (c.atolOf(i, w.nv, 1) + c.RTol*w.scale(i, w.cur.Q))
		s += r * r
	}
	da := math.Sqrt(s / float64(max(w.nv, 1)))
	h := 0.01 * math.Abs(tEnd-w.cur.T)
	if da > 0 {
		h = math.Min(h, 1/math.Sqrt(da))
	}
	return math.Max(math.Min(h, c.HMax), c.HMin)
}

// scale is the magnitude s of algebra coordinate i in the error weights ATol + RTol·s: 1
// on a group, |q_i| on a vector space (see LieGenAlpha).
func (w *lieWork) scale(i int, q []float64) float64 {
	if w.vs != nil {
		return math.Abs(q[i])
	}
	return 1
}

func (w *lieWork) attempt(h float64) (usedFresh int, err error) {
	needJ := !w.nw.keeps(h) || (w.vs == nil && w.moved > lieMoveMax)
	return w.nw.attempt(w, h, needJ)
}

func (w *lieWork) failed(newton bool) { w.nw.refreshAfter(newton) }

// prepare sets v_n and a_n for an attempt of size h: at the first step a_0 from v̈_0,
// later a_n shifted to its abscissa for h (see GenAlpha).
func (w *lieWork) prepare(h float64) {
	copy(w.vn, w.cur.V)
	if w.stats.Steps == 0 {
		if h != w.hJerk {
			w.startJerk(h)
		}
		for i := range w.an {
			w.an[i] = w.cur.A[i] + w.dAlpha*h*w.jerk0[i]
		}
		return
	}
	s := w.dAlpha * (h - w.hA)
	for i := range w.an {
		w.an[i] = w.aN[i] + s*w.jerk[i]
	}
}

// startJerk estimates v̈_0 by the central difference of v̇ at the Taylor points of the
// start on the group (see LieGenAlpha).
func (w *lieWork) startJerk(h float64) {
	t0, q0, v0, a0 := w.cur.T, w.cur.Q, w.cur.V, w.cur.A
	taylor := func(s float64) {
		for i := range w.kv {
			w.th[i] = s*v0[i] + s*s/2*a0[i]
			w.kv[i] = v0[i] + s*a0[i]
		}
		w.sys.Compose(w.kq, q0, w.th)
	}
	taylor(h)
	err := w.accel(w.jerk0, w.lam1, t0+h, w.kq, w.kv)
	if err == nil {
		taylor(-h)
		err = w.accel(w.f, w.lam1, t0-h, w.kq, w.kv)
	}
	if err != nil {
		clear(w.jerk0) // singular at a Taylor point: a_0 = v̇_0 (O(h))
	} else {
		for i := range w.jerk0 {
			w.jerk0[i] = (w.jerk0[i] - w.f[i]) / (2 * h)
		}
	}
	w.hJerk = h
}

// predict starts the iterate: Δq from the expansion v_n + h/2 a_n + h²β v̈, hλ linearly
// extrapolated, μ = 0.
func (w *lieWork) predict(h float64, _ bool) error {
	w.hTry = h
	w.prepare(h)
	jerk := w.jerk
	if w.stats.Steps == 0 {
		jerk = w.jerk0
	}
	for i := range w.nv {
		w.x[i] = w.vn[i] + h/2*w.an[i] + h*h*w.p.Beta*jerk[i]
	}
	for k := range w.nc {
		l := w.cur.Lambda[k]
		if hp := w.cur.T - w.prev.T; w.stats.Steps > 0 && hp > 0 {
			l += (l - w.prev.Lambda[k]) * h / hp
		}
		w.x[w.nv+k] = h * l
		if w.si2 {
			w.x[w.nv+w.nc+k] = 0
		}
	}
	if w.si2 && w.nc > 0 { // B0 is nil without constraints
		w.sys.ConstraintJacobian(w.B0, w.cur.T, w.cur.Q)
	}
	return nil
}

// dqt returns Δq̃_i = Δq_i + (B(q_n)ᵀ μ)_i of x (Δq_i for index 3).
func (w *lieWork) dqt(x []float64, i int) float64 {
	d := x[i]
	if w.si2 {
		for k := range w.nc {
			d += w.B0.At(k, i) * x[w.nv+w.nc+k]
		}
	}
	return d
}

// residualState computes q_{n+1}, v_{n+1}, a_{n+1}, v̇_{n+1} and λ_{n+1} from the iterate.
func (w *lieWork) residualState(h float64) {
	p := w.p
	for i := range w.nv {
		w.th[i] = h * w.x[i]
		w.a1[i] = (w.dqt(w.x, i) - w.vn[i] - (0.5-p.Beta)*h*w.an[i]) / (p.Beta * h)
		w.v1[i] = w.vn[i] + h*(1-p.Gamma)*w.an[i] + h*p.Gamma*w.a1[i]
		w.d1[i] = ((1-p.AlphaM)*w.a1[i] + p.AlphaM*w.an[i] - p.AlphaF*w.cur.A[i]) / (1 - p.AlphaF)
	}
	w.sys.Compose(w.q1, w.cur.Q, w.th)
	for k := range w.nc {
		w.lam1[k] = w.x[w.nv+k] / h
	}
}

func (w *lieWork) residual() error {
	h := w.hTry
	nv, nc := w.nv, w.nc
	t1 := w.cur.T + h
	w.residualState(h)
	w.stats.FuncEvals++
	w.sys.Mass(w.M, t1, w.q1)
	w.sys.Force(w.f, t1, w.q1, w.v1)
	w.rx.add(w.f, t1, w.q1, w.v1, w.lam1)
	for i := range nv {
		var s float64
		for j, mij := range w.M.RawRowView(i) {
			s += mij * w.d1[j]
		}
		w.res[i] = h * (s - w.f[i]) // h(M v̇ − f)
	}
	if nc > 0 {
		w.sys.ConstraintJacobian(w.B1, t1, w.q1)
		w.sys.Constraint(w.c1, t1, w.q1)
		constraintRows(w.res, w.B1, w.x[nv:nv+nc], w.c1, h)
		if w.si2 || w.pf != nil {
			w.sys.ConstraintTimeDerivative(w.c1, t1, w.q1)
		}
		if w.pf != nil {
			rowProductsPlus(w.res[nv:], w.B1, w.v1, w.c1, w.ncH) // A v + b, unscaled
		}
		if w.si2 {
			rowProductsPlus(w.res[nv+nc:], w.B1, w.v1, w.c1, 0) // B v + Φ_t
			for k := w.ncH; k < nc; k++ {
				w.res[nv+nc+k] = w.x[nv+nc+k] // no stabilizer for a Pfaffian row: μ = 0
			}
		}
	}
	if !allFinite(w.res) || !allFinite(w.q1) {
		w.lad.worst = w.worstResidual()
		return ErrNonFinite
	}
	return nil
}

// factor assembles and factorizes the scaled iteration matrix (see LieGenAlpha).
func (w *lieWork) factor() error {
	h := w.hTry
	nv, nc, n := w.nv, w.nc, w.nx
	t1 := w.cur.T + h
	gb := w.p.Gamma / w.p.Beta
	fd0 := w.fdEvals()
	w.stats.Jacobians++
	w.sys.Damping(w.C, t1, w.q1, w.v1)
	w.sys.Stiffness(w.K, t1, w.q1, w.v1, w.d1, w.lam1)
	w.sys.Tangent(w.T, w.th)
	if w.rx != nil {
		// f_λ as f in K_t = ∂(M v̇ − f)/∂q and C_t = −∂f/∂v (on ℝⁿ, where q is the
		// coordinate vector); its ∂f_λ/∂λ goes beside Bᵀ below.
		w.rx.derivatives(t1, w.q1, w.v1, w.lam1)
		addScaled(w.K, w.rx.Fq, -1)
		addScaled(w.C, w.rx.Fv, -1)
	}
	w.stats.FDEvals += w.fdEvals() - fd0
	// J = c_M M + h(γ/β) C_t (kept for the μ column), then + h² K_t T.
	for i := range nv {
		ji, mi, ci := w.J.RawRowView(i), w.M.RawRowView(i), w.C.RawRowView(i)
		for j := range nv {
			ji[j] = w.cM*mi[j] + h*gb*ci[j]
		}
	}
	d := w.lu.Matrix()
	clear(d)
	for i := range nv {
		ji, ki := w.J.RawRowView(i), w.K.RawRowView(i)
		di := d[i*n : i*n+nv]
		copy(di, ji)
		for k, kik := range ki {
			if kik == 0 {
				continue
			}
			for j, tkj := range w.T.RawRowView(k) {
				di[j] += h * h * kik * tkj
			}
		}
	}
	for k := range nc {
		bk := w.B1.RawRowView(k)
		btk := w.BT.RawRowView(k)
		clear(btk)
		for l, bkl := range bk {
			if bkl == 0 {
				continue
			}
			for j, tlj := range w.T.RawRowView(l) {
				btk[j] += bkl * tlj
			}
		}
		for i := range nv {
			d[i*n+nv+k] = bk[i]    // Bᵀ
			d[(nv+k)*n+i] = btk[i] // B T
			if w.rx != nil {
				d[i*n+nv+k] -= w.rx.Fl.At(i, k) // h·(−∂f_λ/∂λ)·∂λ/∂(hλ)
			}
		}
	}
	if w.si2 {
		w.sys.ConstraintJacobianDerivative(w.Z, t1, w.q1, w.v1)
		for i := range nv {
			ji := w.J.RawRowView(i)
			for k := range nc {
				var s float64
				for j, b := range w.B0.RawRowView(k) {
					s += ji[j] * b
				}
				d[i*n+nv+nc+k] = s // (c_M M + h γ/β C_t) B(q_n)ᵀ
			}
		}
		for k := range nc {
			b1k, zk := w.B1.RawRowView(k), w.Z.RawRowView(k)
			w.velocityRow(d[(nv+nc+k)*n:(nv+nc+k)*n+nv], b1k, zk, h)
			for l := range nc {
				var s float64
				for i, b := range w.B0.RawRowView(l) {
					s += b1k[i] * b
				}
				d[(nv+nc+k)*n+nv+nc+l] = gb * s
			}
		}
	}
	w.assemblePfaffian(d, t1, h)
	w.stats.Factorizations++
	w.moved = 0
	return w.lu.Factor()
}

// velocityRow writes into row (length nv) the derivative in Δq of a velocity-level row
// b v_{n+1} + … whose rate has derivative z along the group: (γ/β) b + h z T(hΔq_n).
func (w *lieWork) velocityRow(row, b, z []float64, h float64) {
	gb := w.p.Gamma / w.p.Beta
	for i := range row {
		row[i] = gb * b[i]
	}
	for l, zl := range z {
		if zl == 0 {
			continue
		}
		for j, tlj := range w.T.RawRowView(l) {
			row[j] += h * zl * tlj
		}
	}
}

// assemblePfaffian writes the rows of the Pfaffian constraints A(q_{n+1}) v_{n+1} + b into
// the iteration matrix d: their derivative in Δq, (γ/β) A + h R T(hΔq_n) with R the rate
// derivative along the group, bounded as h → 0 as that of Φ/h, so the rows need no scaling
// (genalpha's treatment, pfaffianResidual). In the stabilized index-2 form they depend on
// μ through v_{n+1}, by (γ/β) A B(q_n)ᵀ, which the loop above left in their velocity rows;
// those become μ_k = 0 (no stabilizer for a velocity-level row).
func (w *lieWork) assemblePfaffian(d []float64, t1, h float64) {
	if w.pf == nil {
		return
	}
	nv, nc, n := w.nv, w.nc, w.nx
	w.pf.PfaffianRateDerivative(w.R, t1, w.q1, w.v1)
	for k := w.ncH; k < nc; k++ {
		ak, rk := w.B1.RawRowView(k), w.R.RawRowView(k-w.ncH)
		w.velocityRow(d[(nv+k)*n:(nv+k)*n+nv], ak, rk, h)
		if w.si2 {
			rowL, rowS := d[(nv+k)*n:(nv+k+1)*n], d[(nv+nc+k)*n:(nv+nc+k+1)*n]
			copy(rowL[nv+nc:], rowS[nv+nc:])
			clear(rowS)
			rowS[nv+nc+k] = 1
		}
	}
}

func (w *lieWork) fdEvals() int {
	if w.vs != nil {
		return w.vs.FDEvals()
	}
	return 0
}

func (w *lieWork) increment() float64 {
	solveIncrement(w.lu, w.res, w.dx, w.x)
	norm, roundoff := w.incrementNorm(w.hTry)
	w.nw.noteIncrement(roundoff)
	return norm
}

// incrementNorm is genalpha's: the weighted RMS of the changes of q (h Δq), v, a and λ
// the increment makes, and the same norm of their rounding level.
func (w *lieWork) incrementNorm(h float64) (norm, roundoff float64) {
	const ulps = 10 * 0x1p-52
	c := w.lad.c
	gb := w.p.Gamma / w.p.Beta
	var s, r float64
	atol := c.ATol
	add := func(d, mag, y float64) {
		wt := atol + c.RTol*math.Abs(y)
		s += (d / wt) * (d / wt)
		r += (ulps * mag / wt) * (ulps * mag / wt)
	}
	for i := range w.nv {
		dqt, xt := w.dqt(w.dx, i), w.dqt(w.x, i)
		sc := w.scale(i, w.cur.Q)
		mag := math.Max(math.Max(math.Abs(xt), math.Abs(w.vn[i])), sc/h)
		atol = c.atolOf(i, w.nv, 1)
		add(h*w.dx[i], sc+h*math.Abs(w.x[i]), sc)
		add(gb*dqt, gb*mag, w.cur.V[i])
		add(dqt/(w.p.Beta*h), mag/(w.p.Beta*h), w.cur.A[i])
	}
	atol = c.ATol
	for k := range w.nc {
		add(w.dx[w.nv+k]/h, math.Abs(w.x[w.nv+k])/h, w.cur.Lambda[k])
	}
	n := float64(3*w.nv + w.nc)
	return math.Sqrt(s / n), math.Sqrt(r / n)
}

func (w *lieWork) converged() error {
	w.residualState(w.hTry)
	return finiteIterate(w.x)
}

func (w *lieWork) diverged() error {
	w.lad.worst = w.worstResidual()
	return divergence(w.dx)
}

func (w *lieWork) worstResidual() Residual {
	i, v := worstAbs(w.res)
	r := Residual{Index: i, Value: v}
	switch {
	case i < w.nv:
		r.Block, r.Owner = "equilibrium", w.coordinateName(i)
	case i < w.nv+w.ncH:
		r.Block, r.Index = "position constraint", i-w.nv
		r.Owner = w.constraintName(r.Index)
	case i < w.nv+w.nc:
		r.Block, r.Index = "Pfaffian constraint", i-w.nv
		r.Owner = w.constraintName(r.Index)
	default:
		r.Block, r.Index = "velocity constraint", i-w.nv-w.nc
		r.Owner = w.constraintName(r.Index)
	}
	return r
}

// errorNorm is the weighted RMS of e = h²(β − γ/2 + 1/12)(a_{n+1} − a_n) − h³/12 [v_n, a_n]
// (see LieGenAlpha).
func (w *lieWork) errorNorm(h float64) float64 {
	c := w.lad.c
	w.sys.Bracket(w.br, w.vn, w.an)
	var s, worst float64
	wi := 0
	for i := range w.nv {
		e := h*h*w.cErr*(w.a1[i]-w.an[i]) - h*h*h/12*w.br[i]
		sc := w.scale(i, w.cur.Q)
		if w.vs != nil {
			sc = math.Max(sc, w.scale(i, w.q1))
		}
		r := e / (c.atolOf(i, w.nv, 1) + c.RTol*sc)
		s += r * r
		if math.Abs(r) > worst || math.IsNaN(r) {
			wi, worst = i, math.Abs(r)
		}
	}
	e := math.Sqrt(s / float64(max(w.nv, 1)))
	if !(e <= 1) && (c.FixedH == 0 || fixedStepDiverged(e, c.RTol)) {
		w.lad.worst = Residual{Block: "position error estimate", Index: wi,
			Value: h*h*w.cErr*(w.a1[wi]-w.an[wi]) - h*h*h/12*w.br[wi], Owner: w.coordinateName(wi)}
	}
	return e
}

func (w *lieWork) commit(h float64) error {
	w.prev.CopyFrom(&w.cur)
	for i := range w.nv {
		w.jerk[i] = (w.a1[i] - w.an[i]) / h
	}
	copy(w.aN, w.a1)
	copy(w.theta, w.th)
	var step float64
	for _, x := range w.th {
		step = math.Max(step, math.Abs(x))
	}
	w.moved += step
	w.hA = h
	w.cur.advance(h, w.q1, w.v1, w.d1, w.lam1)
	w.stats.Steps++
	return nil
}

// Interpolate writes the dense output at t in [Previous().T, Current().T] into dst. On a
// vector space it is genalpha's cubic Hermite interpolation; on a group q(s) =
// q_n∘exp(s² hΔq_n − s(s − 1) h v_n), s = (t − t_n)/h, which starts with velocity v_n and
// ends at q_{n+1} (second order), and v, v̇, λ are linear.
func (m *LieGenAlpha) Interpolate(dst *State, t float64) {
	if m.ga != nil {
		m.ga.Interpolate(dst, t)
		return
	}
	w := m.w
	if w.vs != nil {
		hermiteInterpolate(dst, &w.prev, &w.cur, t)
		return
	}
	a, b := &w.prev, &w.cur
	h, s, done := stepFraction(dst, a, b, t)
	if done {
		return
	}
	for i := range w.nv {
		w.kv[i] = s*s*w.theta[i] - s*(s-1)*h*a.V[i]
	}
	w.sys.Compose(dst.Q, a.Q, w.kv)
	lerp := func(d, x, y []float64) {
		for i := range d {
			d[i] = x[i] + s*(y[i]-x[i])
		}
	}
	lerp(dst.V, a.V, b.V)
	lerp(dst.A, a.A, b.A)
	lerp(dst.Lambda, a.Lambda, b.Lambda)
}
