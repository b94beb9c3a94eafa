package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// GenAlphaParams are the algorithmic parameters α_m, α_f, β, γ of the generalized-α
// method in the convention of seed 002, eq. 64c:
//
//	(1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) q̈_{n+1} + α_f q̈_n.
//
// The method is second order when γ = 1/2 − α_m + α_f (seed 002, after eq. 65); Init
// rejects parameters that break this identity.
type GenAlphaParams struct {
	AlphaM, AlphaF, Beta, Gamma float64
}

// DefaultRhoInf is the spectral radius at infinity of DefaultGenAlpha: ρ∞ = 0.9, the value
// of seed 002, Example 8.
const DefaultRhoInf = 0.9

// GenAlphaFromRhoInf returns the Chung-Hulbert parameters for the spectral radius ρ∞ in
// [0, 1] of the amplification matrix as hω → ∞ (seed 003, section 4; seed 002 around eq.
// 65, ref. [33]):
//
//	α_m = (2ρ∞ − 1)/(ρ∞ + 1),  α_f = ρ∞/(ρ∞ + 1),  γ = 1/2 − α_m + α_f,  β = (1 − α_m + α_f)²/4.
//
// ρ∞ = 1 gives the trapezoidal rule (no numerical damping), ρ∞ = 0 annihilates the highest
// frequencies in one step.
func GenAlphaFromRhoInf(rhoInf float64) (GenAlphaParams, error) {
	if !(rhoInf >= 0 && rhoInf <= 1) {
		return GenAlphaParams{}, fmt.Errorf("integrate: genalpha: RhoInf = %g outside [0, 1]", rhoInf)
	}
	am := (2*rhoInf - 1) / (rhoInf + 1)
	af := rhoInf / (rhoInf + 1)
	return GenAlphaParams{AlphaM: am, AlphaF: af, Gamma: 0.5 - am + af, Beta: (1 - am + af) * (1 - am + af) / 4}, nil
}

// HHTAlphaParams returns the parameters of the HHT-α method (Hilber, Hughes and Taylor;
// seed 002, eq. 66) as a member of the family, derived from the one HHT of hht.go (seed
// 004, eq. 6; newHHTCoef): α_m = 0, α_f = −α, γ = (1 − 2α)/2, β = (1 − α)²/4, for α in
// [−1/3, 0]. GenAlpha with these parameters solves for Δq and hλ where HHT solves for a
// and λ; both take the same steps of the same method.
func HHTAlphaParams(alpha float64) (GenAlphaParams, error) {
	if err := checkHHTAlpha("genalpha: HHT", alpha); err != nil {
		return GenAlphaParams{}, err
	}
	k := newHHTCoef(alpha, 0)
	return GenAlphaParams{AlphaM: 0, AlphaF: -k.alpha, Gamma: k.gamma, Beta: k.beta}, nil
}

// NewmarkParams returns the trapezoidal Newmark rule (average acceleration), α_m = α_f = 0,
// β = 1/4, γ = 1/2: second order, no numerical damping (ρ∞ = 1).
func NewmarkParams() GenAlphaParams {
	return GenAlphaParams{Beta: 0.25, Gamma: 0.5}
}

// GenAlphaParamsByName returns the parameters of a named member of the family:
// "genalpha" (Chung-Hulbert, x = ρ∞ in [0, 1]), "hht" (x = α in [−1/3, 0]) or "newmark"
// (x ignored).
func GenAlphaParamsByName(name string, x float64) (GenAlphaParams, error) {
	switch name {
	case "genalpha":
		return GenAlphaFromRhoInf(x)
	case "hht":
		return HHTAlphaParams(x)
	case "newmark":
		return NewmarkParams(), nil
	}
	return GenAlphaParams{}, fmt.Errorf("integrate: genalpha: unknown parameter family %q; valid: genalpha, hht, newmark", name)
}

// check returns an error naming the first parameter that is out of range.
func (p GenAlphaParams) check(name string) error {
	for _, f := range []struct {
		n string
		v float64
	}{{"AlphaM", p.AlphaM}, {"AlphaF", p.AlphaF}, {"Beta", p.Beta}, {"Gamma", p.Gamma}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("integrate: %s: Params.%s = %g, want a finite value", name, f.n, f.v)
		}
	}
	switch {
	case !(p.AlphaF >= 0 && p.AlphaF < 1):
		return fmt.Errorf("integrate: %s: Params.AlphaF = %g outside [0, 1)", name, p.AlphaF)
	case !(p.AlphaM < 1):
		return fmt.Errorf("integrate: %s: Params.AlphaM = %g, want < 1", name, p.AlphaM)
	case !(p.Beta > 0):
		return fmt.Errorf("integrate: %s: Params.Beta = %g, want > 0 (start from DefaultGenAlpha or GenAlphaFromRhoInf)", name, p.Beta)
	case math.Abs(p.Gamma-(0.5-p.AlphaM+p.AlphaF)) > 1e-12:
		return fmt.Errorf("integrate: %s: Params.Gamma = %g, want 1/2 − AlphaM + AlphaF = %g for second order (seed 002, after eq. 65)",
			name, p.Gamma, 0.5-p.AlphaM+p.AlphaF)
	}
	return nil
}

// GenAlpha integrates M(t,q) q̈ = f − Gᵀλ, g(t,q) = 0 by the generalized-α method of
// Chung and Hulbert in the form of Arnold (seed 002, section 4.1): the Newmark updates
//
//	q_{n+1} = q_n + h v_n + h²(1/2 − β) a_n + h² β a_{n+1}            (eq. 64a)
//	v_{n+1} = v_n + h(1 − γ) a_n + h γ a_{n+1}                          (eq. 64b)
//	(1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) q̈_{n+1} + α_f q̈_n        (eq. 64c)
//
// with the equilibrium M q̈_{n+1} = f − Gᵀλ_{n+1} at t_{n+1} and, by Formulation,
//
//   - Index3: g(q_{n+1}) = 0 (eq. 67). The unknowns are the scaled increment Δq_n of eq.
//     68a and hλ_{n+1}; the residuals r_h = M h q̈ − h f + Gᵀ hλ and g_h = g/h (eq. 69)
//     give the iteration matrix of eq. 70, bounded with a bounded inverse as h → 0.
//   - StabilizedIndex2: g(q_{n+1}) = 0 and G(q_{n+1}) v_{n+1} + g_t = 0 (eq. 93), with the
//     correction −G(q_n)ᵀ μ_n in the position increment (eq. 94a); unknowns Δq_n, hλ_{n+1}, μ_n.
//
// Starting values (seed 002, Example 8 and after eq. 94): q̈_0 and λ_0 solve eq. 17 at t_0;
// a_0 = q̈(t_0 + (α_m − α_f) h) + O(h²) is q̈_0 + (α_m − α_f) h q⃛_0, with q⃛_0 the central
// difference quotient of q̈ from two extra solves of eq. 17 at the Taylor points
// (t_0 ± h, q_0 ± h v_0 + h²/2 q̈_0, v_0 ± h q̈_0). With CorrectStart the index-3 form
// starts from v_0 = v(t_0) + Δ_0: the smooth expansion of the numerical velocity is
// v(t) − h²(β − γ/2 + 1/12) q⃛(t) + O(h³) (Taylor expansion of eqs. 64a,b with
// a_n ≈ q̈(t_n + (α_m − α_f) h)), so on the manifold G v_n = −h²(β − γ/2 + 1/12) G q⃛
// while v(t_0) has G v = 0; Δ_0 is the normal (M-orthogonal) vector with that G Δ_0.
// Starting on the expansion removes the first-order oscillating λ error of Example 8; this
// is the O(h²) correction Δ_0 of Arnold and Brüls (2007; seed 002 ref. [9]) as we derive
// it, not copied from that paper.
//
// Corrector: Newton's method on the scaled unknowns with the iteration matrix of eq. 70
// (derivatives from dae.Derivatives: analytic where the System has them, central
// differences otherwise), reused across iterations and steps by NewtonSettings.Jacobian,
// started from linear extrapolation of a and λ (on the Newton-Krylov path of dae.MassSolver
// systems a_{n+1} = a_n instead when that came closer at the last step: constantCloser).
// Convergence is judged (newtonMonitor) on the weighted RMS of the increments of q, v and
// a_{n+1} and λ: the acceleration block is needed because a Newton error δq in the
// index-3 form reappears as a λ error δq/(βh²) in the next step. On the Newton-Krylov
// path of a system without constraint rows there is no λ, and δa_{n+1} is weighed by its
// effect on the error estimate, h²(β − γ/2 + 1/12) δa_{n+1}, as hht weighs it (aByError).
// On such a tree with dae.ForwardDynamicsSolver and JacobianAuto the corrector first takes
// the mass part C·M(q₁) at the iterate as its matrix, whose increment the residual's
// forward-dynamics pass computes (fdIter, genalphafd.go): one evaluation per iteration
// while it contracts tenfold, the factorized iteration where it would not.
//
// Error estimate (variable steps): the leading local error of eq. 64a with
// a_n ≈ q̈(t_n + (α_m − α_f) h) is h³(β − γ/2 + 1/12) q⃛, estimated by
//
//	e_q = h²(β − γ/2 + 1/12)(a_{n+1} − a_n),
//
// measured with WeightedRMS on q (eq. 64b is O(h³) locally when γ = 1/2 − α_m + α_f, and
// λ, μ stay out of the test as algebraic components). On a step-size change from h_old to
// h the vector a_n, which approximates q̈(t_n + (α_m − α_f) h_old), is shifted to the new
// abscissa by a_n += (α_m − α_f)(h − h_old)·q⃛ with q⃛ ≈ (a_n − a_{n−1})/h_old, so the
// starting-value property of a_n holds after every change.
//
// Current holds t_n, q_n, v_n, q̈_n (not a_n) in A, and λ_n.
type GenAlpha struct {
	// Params are α_m, α_f, β, γ; the zero value is invalid, so start from DefaultGenAlpha()
	// or set them with GenAlphaFromRhoInf, HHTAlphaParams or NewmarkParams
	// [GenAlphaFromRhoInf(0.9)].
	Params GenAlphaParams
	// Formulation is Index3 (eqs. 64, 67) or StabilizedIndex2 (eqs. 64, 93, 94) [Index3].
	Formulation
	// CorrectStart perturbs the starting velocity by Δ_0, the normal part of
	// −h²(β − γ/2 + 1/12) q⃛_0, to restore second order in λ for the index-3 form; Index3
	// only [false, as in seed 002 Fig. 10].
	CorrectStart bool
	// Newton is the corrector stop and Jacobian policy [NewtonSettings defaults].
	Newton NewtonSettings
	// Name is the method name in errors and registry [genalpha or genalpha-si2].
	Name string

	// factorizedOnly keeps the forward-dynamics iteration (fdIter) off, for tests of the
	// factorized Newton-Krylov iteration on systems where it would run.
	factorizedOnly bool

	w         *genAlphaWork
	*accepted // Current, Previous, Stats (method.go)
}

// DefaultGenAlpha returns the index-3 generalized-α method with ρ∞ = 0.9.
func DefaultGenAlpha() GenAlpha {
	p, _ := GenAlphaFromRhoInf(DefaultRhoInf)
	return GenAlpha{Params: p, Formulation: Index3}
}

var genAlphaEntry = alphaIndex3Entry(Entry{
	Name:      "genalpha",
	Title:     "generalized-α (Chung-Hulbert, ρ∞ = 0.9), index 3, scaled",
	Seed:      "002",
	Equations: "64, 67-70; starting values Example 8; parameters seed 003 sec. 4",
	Params:    []Param{genAlphaRhoParam},
	New:       func() Method { m := DefaultGenAlpha(); return &m },
})

// genAlphaConfig is genalpha's entry for another configuration of GenAlpha: the same code
// (and so seed, error control and forces that depend on λ) under other options, in the
// formulations forms, each of which takes nonholonomic constraints as index3 does; λ
// attains order lambdaOrder there, and params are the options users may set.
func genAlphaConfig(name, title, equations string, lambdaOrder int, params []Param, newMethod func() Method, forms ...Formulation) Entry {
	e := genAlphaEntry.variant(name, title, equations, newMethod).in(params, forms...)
	e.Nonholonomic = forms
	e.Order.Lambda = lambdaOrder
	return e
}

var genAlphaSI2Entry = genAlphaConfig("genalpha-si2",
	"generalized-α (Chung-Hulbert, ρ∞ = 0.9), stabilized index 2",
	"64, 93-94; starting values after eq. 94; parameters seed 003 sec. 4",
	2, genAlphaEntry.Params, func() Method {
		m := DefaultGenAlpha()
		m.Formulation = StabilizedIndex2
		return &m
	}, StabilizedIndex2)

// newmarkEntry: the stabilized index-2 form is the default: with ρ∞ = 1 nothing damps the
// start-up oscillation of the index-3 form, whose λ error grows over the run (measured on
// Example 8, x_0 = 0, h = 0.02: 1.1 after 10 s) and whose Newton iteration then fails
// (x_0 = 0.2, t = 6.26). Its α are fixed, so ρ∞ is no option.
var newmarkEntry = genAlphaConfig("newmark",
	"Newmark trapezoidal rule (β = 1/4, γ = 1/2), stabilized index 2",
	"64 with α_m = α_f = 0; 93-94 (ggl) or 67-70 (index3)",
	2, nil, func() Method {
		return &GenAlpha{Params: NewmarkParams(), Formulation: StabilizedIndex2, Name: "newmark"}
	}, StabilizedIndex2, Index3)

// genAlphaWork is the per-run state of GenAlpha, sized once by Init.
type genAlphaWork struct {
	name string
	sys  dae.System // with the Pfaffian rows appended (dae.WithPfaffianRows)
	// Nonholonomic constraints (dae.Nonholonomic, index3 only): the rows ncH..nc of sys,
	// their multipliers the last entries of λ; R = ∂(A v + b)/∂q. pf is nil without them.
	pf     dae.Nonholonomic
	ncH    int
	R      *mat.Dense
	der    *dae.Derivatives
	nq, nc int
	alphaScheme
	correctV bool
	nw       newtonSolver // the corrector loop (newton.go)

	lad ladder     // the step loop (ladder.go); lad.c is resolved on the first Step
	ctl controller // the step-size rule

	// errorPeak holds the largest weighted component of an accepted step's e_q (error
	// control only): ControlWarnings.
	errorPeak

	accepted           // cur, prev, stats: Current, Previous, Stats
	aN       []float64 // a_n of eq. 64c (for step hA)
	hA       float64   // a_n ≈ q̈(t_n + (α_m − α_f) hA)
	jerk     []float64 // q⃛ estimate at t_n
	jerkP    []float64 // the step before's q⃛ estimate, at t_{n−1} (fdQuadratic)
	hP       float64   // that step's size
	constA   bool      // the next attempt predicts a_{n+1} = a_n, not a_n + h q⃛_n (choosePredictor)

	// first-step starting values
	v0     []float64 // v(t_0) as given
	delta0 []float64 // CorrectStart's Δ_0 for the first attempt size hJerk
	jerk0  []float64 // q⃛_0 estimate for the first attempt size hJerk
	hJerk  float64
	kkt    linalg.SaddlePoint
	kq, kv []float64 // Taylor point of the extra eq. 17 solve (startJerk)

	// attempt
	vn, an     []float64 // v_n and a_n used by the attempt
	x, dx      []float64 // (Δq, hλ, μ) and the Newton increment
	q1, v1, a1 []float64
	qdd1       []float64
	lam1       []float64
	res        []float64
	f, tmp     []float64
	gt         []float64
	M, K       *mat.Dense           // nq×nq: M(q₁), scratch derivative (nil on the Newton-Krylov path until a fallback, allocDense)
	J11        *mat.Dense           // nq×nq block of the iteration matrix
	G0, G1     *mat.Dense           // G(q_n), G(q₁); nil on the Newton-Krylov path with cf (gFree) until a fallback
	cf         dae.ConstraintForcer // Gᵀ hλ without G on the index-3 form's Newton-Krylov path, or nil
	lu         *newtonFactor        // dense, or sparse for large systems with patterns
	sp         *sparseEval          // the sparse evaluation path (M, K, J11, G0, G1, der nil), or nil
	kIdx       kktScatter           // where sp's values go in lu's values
	si2x       *si2Sparse           // the stabilized index-2 blocks on the sparse path
	rx         *reaction            // λ-dependent forces f_λ (dae.ReactionForce), or nil
	hTry       float64              // h of the attempt under way
	rescue     bool                 // a corrector of this step failed (failed; commit clears it)
	rnd        *newtonRounding      // the rounding level of the increments on the Newton-Krylov path, or nil
	aByError   bool                 // the Newton norm takes δa_{n+1} by its effect on e_q (incrementNorm)

	// The Newton-Krylov corrector of dae.MassSolver systems (massnewton.go): GMRES
	// preconditioned by [C M Gᵀ; G 0] (index 3) or si2p (stabilized index 2), M z by
	// dae.MassMultiplier. mn is nil otherwise.
	mn           *massNewton
	rec          *massSchur // eq. 17 by dae.MassSolver while M is not formed (with mn)
	si2p         *si2MassPrecond
	mm           dae.MassMultiplier
	kr           *gmres
	kx, kb, kres []float64                 // the iterate, the right side and the residual at the solve
	resRaw       []float64                 // the dynamic rows before massNewton.scaleRows (nq)
	scaled       bool                      // res's dynamic rows are scaled
	fd           dae.ForwardDynamicsSolver // the scaled rows by forward dynamics (scaledRows), or nil
	scaledFD     bool                      // ... and were (resRaw not written; fdx holds M(q₁)⁻¹ r_h)
	fdx          []float64                 // scaledRows' M(q₁)⁻¹ r_h (nq)

	// freshProducts is the most GMRES products a solve took in the attempt that made the
	// current factorization (noteProducts).
	freshProducts int

	fdn fdIter // the forward-dynamics Newton iteration (fditer.go, genalphafd.go)
}

// Init checks the options, checks that start is consistent (g and G v + g_t within ATol,
// seed 002 eq. 17 solvable), computes q̈_0 and λ_0 from eq. 17 (start.A and start.Lambda
// are not used) and sizes all workspace; after Init, Step does not allocate. The
// span-relative defaults of ctl (HMin, HMax, the first step) are resolved on the first
// Step against its tEnd (a unit span when tEnd is infinite), as in hht.go.
func (m *GenAlpha) Init(sys dae.System, start State, ctl StepControl) error {
	name := m.Name
	if name == "" {
		name = "genalpha"
		if m.Formulation == StabilizedIndex2 {
			name = "genalpha-si2"
		}
	}
	if err := m.Params.check(name); err != nil {
		return err
	}
	plain := sys // before the Pfaffian rows join G (takePfaffianStiffness)
	pf, ncH, sys, err := genAlphaPfaffian(name, m.Formulation, m.CorrectStart, sys)
	if err != nil {
		return err
	}
	if nd := dae.StateSize(sys); nd > 0 {
		// Integrating q, v alone would drop the state force f_X: refuse rather than be wrong.
		return fmt.Errorf("integrate: %s: the system has %d first-order states (dae.FirstOrder), which this method does not integrate; use dopri5 or hht", name, nd)
	}
	form := m.Formulation
	if form == "" {
		form = Index3
	}
	if form != Index3 && form != StabilizedIndex2 {
		return fmt.Errorf("integrate: %s: Formulation %q not supported; want %q or %q", name, form, Index3, StabilizedIndex2)
	}
	if m.CorrectStart && form != Index3 {
		return fmt.Errorf("integrate: %s: CorrectStart applies to the %q formulation only, not %q", name, Index3, form)
	}
	nw, err := m.Newton.Resolve()
	if err != nil {
		return err
	}
	if _, err := ctl.resolveAt(start.T, len(start.Q)); err != nil {
		return err
	}
	nq, nc := sys.Size()
	if len(start.Q) != nq || len(start.V) != nq || len(start.Lambda) != nc || len(start.A) != nq {
		panic(fmt.Sprintf("integrate: %s: Init: start sizes (q %d, v %d, a %d, λ %d) do not match the system (nq %d, nc %d)",
			name, len(start.Q), len(start.V), len(start.A), len(start.Lambda), nq, nc))
	}
	for i := range nq {
		if math.IsNaN(start.Q[i]) || math.IsInf(start.Q[i], 0) || math.IsNaN(start.V[i]) || math.IsInf(start.V[i], 0) {
			return fmt.Errorf("integrate: %s: start %s = (q %g, v %g) is not finite", name, dae.CoordinateName(sys, i), start.Q[i], start.V[i])
		}
	}
	w := &genAlphaWork{name: name, sys: sys, nq: nq, nc: nc, alphaScheme: newAlphaScheme(m.Params, form, nq, nc),
		correctV: m.CorrectStart, pf: pf, ncH: ncH}
	if pf != nil {
		w.R = mat.NewDense(nc-ncH, nq, nil)
	}
	w.nw = newNewtonSolver(nw, &w.stats)
	p := m.Params
	vec := func(n int) []float64 { return make([]float64, n) }
	w.cur, w.prev = NewState(nq, nc), NewState(nq, nc)
	w.aN, w.jerk, w.v0, w.jerk0, w.delta0 = vec(nq), vec(nq), vec(nq), vec(nq), vec(nq)
	w.jerkP = vec(nq)
	w.kq, w.kv = vec(nq), vec(nq)
	w.vn, w.an = vec(nq), vec(nq)
	w.x, w.dx, w.res = vec(w.nx), vec(w.nx), vec(w.nx)
	w.q1, w.v1, w.a1, w.qdd1, w.f, w.tmp = vec(nq), vec(nq), vec(nq), vec(nq), vec(nq), vec(nq)
	w.lam1, w.gt = vec(nc), vec(nc)
	if pf == nil { // the Pfaffian rows are assembled densely (assemblePfaffian)
		w.sp = newSparseEval(sys, true)
	}
	if w.sp != nil {
		if w.si2 {
			// Scalar pivots: on the 3D chain the pivot blocks take the place of
			// refactorizations that held and remove few full factorizations (newmark,
			// 100 rods: 6 → 5 of 123, +3 % instructions per step; BENCHMARKS.md).
			w.lu = newSparseNewtonFactor(w.nx, si2NewtonPattern(sys))
			w.si2x = newSI2Sparse(w.sp, &w.lu.csr)
		} else {
			w.lu = newBlockNewtonFactor(w.nx, kktNewtonPattern(sys))
		}
		w.kIdx = newKKTScatter(w.sp, &w.lu.csr)
		w.kkt = newSaddlePoint(sys)
	} else {
		if mm, ok := sys.(dae.MassMultiplier); ok { // Pfaffian rows join massSchur's rows (pfaffianPrecond, si2MassPrecond)
			w.mn = newMassNewton(sys)
			if w.mn == nil && reactionKrylov(sys) {
				w.mn = newMassNewtonReaction(sys) // f_λ is in the residual (evalResidual)
			}
			if pf != nil {
				w.mn.takePfaffianStiffness(plain) // K_g with the rows' loads −Aᵀμ (knife edges)
			}
			if w.mn != nil && w.si2 {
				w.si2p = newSI2MassPrecond(w.mn, p.Gamma, p.Beta, w.holonomic())
			}
			if w.mn != nil {
				w.mm, w.kr = mm, newGMRES(w.nx)
				w.kx, w.kb, w.kres, w.resRaw = vec(w.nx), vec(w.nx), vec(w.nx), vec(nq)
				if fd, ok := plain.(dae.ForwardDynamicsSolver); ok { // M does not see the Pfaffian rows
					w.fd, w.fdx = fd, vec(nq)
				}
				w.rec = massSchurOf(sys) // eq. 17 at the start without M (with f_λ: eq17.solveWith)
				w.rnd = &newtonRounding{y: vec(w.nx), r0: vec(w.nx)}
				w.dropG(sys)
				// Without constraint rows no λ_{n+2} reads δq/(βh²) (see GenAlpha), and
				// δa_{n+1} reaches the solution through e_q and the next step's q, both
				// h² δa: the norm weighs it there, as hht's (seed 004, eqs. 46-47). The
				// a-block at tolerance asked 1/(βh²) more of it than of q: on the joint
				// route's trees 3 Newton iterations where hht stops after 2, and the third
				// at the residual's rounding on the 1000-rod chain (BENCHMARKS.md,
				// "genalpha's Newton stop and predictor on the long chains").
				w.aByError = nc == 0
				w.fdn.allow(!m.factorizedOnly && w.fd != nil && nc == 0 && nw.Jacobian == JacobianAuto, w.nx)
			}
		}
		if nc > 0 && w.cf == nil {
			w.G0, w.G1 = mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil)
		}
	}
	if w.mn == nil {
		if err := refuseDenseNewton(name, form, sys, denseWhy(sys)); err != nil {
			return err
		}
	}
	w.rx = newReactionDeferred(sys, w.sp) // ∂f_λ's dense matrices wait for allocDense
	if w.sp == nil && w.mn == nil {
		w.allocDense()
	}

	// Consistency of the start at position and velocity level (seed 002, eq. 17 needs both).
	rc, _ := ctl.resolveAt(start.T, len(start.Q))
	w.cur.T = start.T
	copy(w.cur.Q, start.Q)
	copy(w.cur.V, start.V)
	copy(w.v0, start.V)
	if nc > 0 {
		sys.Constraint(w.gt, start.T, start.Q)
		if i, r := worstAbs(w.gt); r > rc.ATol {
			return fmt.Errorf("integrate: %s: inconsistent start: position constraint %d (%s) = %.3g exceeds ATol = %g",
				name, i, dae.ConstraintName(sys, i), w.gt[i], rc.ATol)
		}
		sys.ConstraintTimeDerivative(w.gt, start.T, start.Q)
		if w.sp != nil {
			w.sp.evalG(start.T, start.Q)
			w.sp.gxPlus(w.gt, start.V, w.gt)
		} else if w.G0 == nil { // gFree: G v from the unit rows and the loop-closure rows
			w.rec.at(start.T, start.Q, nil)
			w.rec.mulG(w.lam1, start.V)
			for i := range nc {
				w.gt[i] += w.lam1[i]
			}
		} else {
			sys.ConstraintJacobian(w.G0, start.T, start.Q)
			for i := range nc {
				row := w.G0.RawRowView(i)
				s := w.gt[i]
				for j, gij := range row {
					s += gij * start.V[j]
				}
				w.gt[i] = s
			}
		}
		if i, r := worstAbs(w.gt); r > rc.ATol {
			return fmt.Errorf("integrate: %s: inconsistent start: velocity constraint %d (%s) G v + g_t = %.3g exceeds ATol = %g",
				name, i, dae.ConstraintName(sys, i), w.gt[i], rc.ATol)
		}
	}
	if err := w.accel(w.cur.A, w.cur.Lambda, start.T, start.Q, start.V); err != nil {
		return fmt.Errorf("integrate: %s: eq. 17 at the start: %w", name, err)
	}
	copy(w.aN, w.cur.A)
	w.prev.CopyFrom(&w.cur)
	w.lad = ladder{name: name, m: w, raw: ctl, second: &w.ctl, firstStep: w.firstStep, stats: &w.stats, cur: &w.cur, fc: newFailureContext(sys, &start)}
	w.lad.newton = &w.nw
	w.lad.watch = undampedIndex3(!w.si2, p)
	m.w, m.accepted = w, &w.accepted
	return nil
}

// worstAbs returns the index and the value of the largest |x_i|.
func worstAbs(x []float64) (int, float64) {
	k, r := 0, -1.0
	for i, v := range x {
		if a := math.Abs(v); a > r || math.IsNaN(v) {
			k, r = i, a
			if math.IsNaN(v) {
				return i, math.NaN()
			}
		}
	}
	return k, r
}

// accel solves eq. 17, [M Gᵀ; G 0](a, λ) = (f, γ), at (t, q, v) into a and lambda; it
// leaves M and G(t, q) in w.M and w.G1.
func (w *genAlphaWork) accel(a, lambda []float64, t float64, q, v []float64) error {
	e := eq17{sys: w.sys, M: w.M, G: w.G1, sp: w.sp, kkt: w.kkt}
	if w.M == nil && w.sp == nil {
		e.rec = w.rec
	}
	return e.solve(a, lambda, t, q, v, &w.stats)
}

// Step takes one accepted step toward tEnd (never past it).
func (m *GenAlpha) Step(tEnd float64) error {
	mustInit(m.w != nil, "genalpha")
	return m.w.lad.step(tEnd)
}

// attempt prepares and corrects one step of size h (newtonSolver.attempt), with a fresh
// matrix after a failure or unless JacobianAuto may keep the last one (its largest rate
// θ ≤ ReuseRate, h in the Deadband). The largest rate decides, not the last: the last is
// often small even when a stale matrix contracted slowly at first (measured on chain10,
// stabilized index 2: 32 Newton failures in 250 steps when judged by the last rate, 0 by
// the largest). On the Newton-Krylov path a kept preconditioner is also replaced once its
// GMRES products have paid for a new one (massNewton.aged, genAlphaRefactorProducts).
func (w *genAlphaWork) attempt(h float64) (usedFresh int, err error) {
	if w.fdn.ready(w.mn) {
		return w.fdn.attempt(&w.nw, w, h)
	}
	return w.nw.attempt(w, h, !w.nw.keeps(h) || w.mn.stale() || w.mn.aged(genAlphaRefactorProducts) || w.fdn.stale)
}

// genAlphaRefactorProducts is the price of a new factorization of genalpha's Newton-Krylov
// preconditioner in GMRES products (massNewton.aged), counted above those the fresh one
// took (noteProducts): K_g's Newton-Euler pass, the articulated-body factorization and the
// residual's rescaling cost 1.1 products at N = 100 and 1000 on the knife chain (callgrind),
// so the second product saved pays for it. JacobianAuto alone keeps a matrix while Newton
// contracts, and the products per solve then grow with its age where K_g's loads do: on
// the knife chain at fixed 24 ms, whose hold's λ grows −10 → −390 in 25 steps, a
// factorization kept 23 steps took 2 → 9 products per Newton iteration at N = 1000 and
// the instructions per step grew 15.9 × from N = 100; with this rule 12.6 ×, 48 % and
// 59 % fewer at N = 100 and 1000, the same q to 3 digits against a fine reference
// (BENCHMARKS.md, "genalpha's rent-or-buy refactorization on the knife chain").
const genAlphaRefactorProducts = 2

// failed makes the attempt after a corrector failure start from a fresh matrix, and
// judges the step's later attempts by the rounding the solve spreads (incrementNorm).
func (w *genAlphaWork) failed(newton bool) {
	w.nw.refreshAfter(newton)
	w.rescue = w.rescue || newton
}

// firstStep guesses h_0 as the step over which the acceleration term h²/2·q̈_0 alone
// reaches the tolerance, 1/sqrt(‖q̈_0‖) in the weighted norm (a conservative form of the
// Hairer-Nørsett-Wanner II.4 starting step for a second-order method), within HMax and 1%
// of the span.
func (w *genAlphaWork) firstStep(tEnd float64) float64 {
	da := w.lad.c.weightedRMS(w.cur.A, w.cur.Q, w.cur.Q, len(w.cur.A), 1)
	h := 0.01 * math.Abs(tEnd-w.cur.T)
	if da > 0 {
		h = math.Min(h, 1/math.Sqrt(da))
	}
	return math.Max(math.Min(h, w.lad.c.HMax), w.lad.c.HMin)
}

// prepare sets v_n and a_n for an attempt of size h: on the first step the starting values
// of seed 002 Example 8 (and the corrected velocity), later a_n shifted to the abscissa
// t_n + (α_m − α_f) h.
func (w *genAlphaWork) prepare(h float64) {
	if w.stats.Steps == 0 {
		if h != w.hJerk {
			w.startJerk(h)
		}
		for i := range w.an {
			w.an[i] = w.cur.A[i] + w.dAlpha*h*w.jerk0[i]
			w.vn[i] = w.v0[i] + w.delta0[i]
		}
		return
	}
	copy(w.vn, w.cur.V)
	s := w.dAlpha * (h - w.hA)
	for i := range w.an {
		w.an[i] = w.aN[i] + s*w.jerk[i]
	}
}

// startJerk estimates q⃛(t_0) by the central difference quotient of q̈ between the Taylor
// points (t_0 ± h, q_0 ± h v_0 + h²/2 q̈_0, v_0 ± h q̈_0), q̈ from eq. 17 at each. The
// O(h³) position and O(h²) velocity errors of the Taylor points are even in h and cancel
// to O(h²) in the quotient, so a_0 is accurate to O(h²) and Δ_0 to O(h⁴). (A forward
// quotient, O(h) accurate, left an O(h²) start-up transient in λ of 1.1e-2 at h = 0.02
// on Example 8 with x_0 = 0, three times the error without correction.)
func (w *genAlphaWork) startJerk(h float64) {
	for i := range w.kq {
		w.kq[i] = w.cur.Q[i] + h*w.v0[i] + h*h/2*w.cur.A[i]
		w.kv[i] = w.v0[i] + h*w.cur.A[i]
	}
	err := w.accel(w.jerk0, w.lam1, w.cur.T+h, w.kq, w.kv)
	for i := range w.kq {
		w.kq[i] = w.cur.Q[i] - h*w.v0[i] + h*h/2*w.cur.A[i]
		w.kv[i] = w.v0[i] - h*w.cur.A[i]
	}
	if err == nil {
		err = w.accel(w.tmp, w.lam1, w.cur.T-h, w.kq, w.kv)
	}
	w.constA = false
	if err != nil {
		clear(w.jerk0) // a singular pose at a Taylor point: fall back to a_0 = q̈_0 (O(h))
	} else {
		w.constA = w.mn != nil && constantCloser(w.jerk0, w.cur.A, w.tmp, w.tmp)
		for i := range w.jerk0 {
			w.jerk0[i] = (w.jerk0[i] - w.tmp[i]) / (2 * h)
		}
	}
	w.hJerk = h
	clear(w.delta0)
	if w.correctV && w.nc > 0 {
		w.startCorrection(h)
	}
}

// startCorrection sets Δ_0, the velocity correction of CorrectStart: the part of
// −h²(β − γ/2 + 1/12) q⃛_0 normal to the constraint manifold, M-orthogonal to its tangent
// space, from the KKT system at t_0
//
//	[M Gᵀ; G 0] (Δ_0, μ) = (0, −h²(β − γ/2 + 1/12) G q⃛_0).
//
// Only the normal part matters: the tangential part of the velocity offset is a free O(h²)
// change of the trajectory (measured on Example 8 with x_0 = 0: the full vector raises the
// max λ error from 3.9e-3 to 1.1e-2 at h = 0.02).
func (w *genAlphaWork) startCorrection(h float64) {
	t0, q0 := w.cur.T, w.cur.Q
	w.stats.FuncEvals++
	w.stats.Factorizations++
	if w.sp != nil {
		w.sp.evalM(t0, q0)
		w.sp.evalG(t0, q0)
		if err := w.kkt.FactorizeSym(w.sp.kktArgs()); err != nil {
			return
		}
		w.sp.mulG(w.lam1, w.jerk0)
		for k := range w.lam1 {
			w.lam1[k] *= -h * h * w.cErr
		}
	} else {
		if w.G1 != nil {
			w.sys.ConstraintJacobian(w.G1, t0, q0)
		}
		var err error
		if w.M == nil { // the Newton-Krylov path: M only through dae.MassSolver (G1 nil: gFree)
			err = w.rec.factor(t0, q0, w.G1)
		} else {
			w.sys.Mass(w.M, t0, q0)
			err = w.kkt.FactorizeSym(w.M, w.G1)
		}
		if err != nil {
			return // Init solved eq. 17 with this matrix, so it is not singular here
		}
		w.mulG1(w.lam1, w.jerk0)
		for k := range w.lam1 {
			w.lam1[k] *= -h * h * w.cErr
		}
	}
	if w.M == nil && w.sp == nil {
		w.rec.Solve(w.delta0, w.lam1)
	} else {
		w.kkt.Solve(w.delta0, w.lam1)
	}
	w.stats.Solves++
}

// The corrector (newtonIteration for newtonSolver) solves eqs. 69 (index 3) or 93-94
// (stabilized index 2) for the attempt of size h by Newton's method with the scaled
// iteration matrix of eq. 70.

// predict sets v_n, a_n (prepare) and the starting iterate from the predictions
// a_{n+1} = a_n + h q⃛_n or a_n (choosePredictor; the quadratic on the forward-dynamics
// iteration's attempts, fdQuadratic), λ_{n+1} = λ_n + h (λ_n − λ_{n−1})/h_{n−1}, μ_n = 0.
func (w *genAlphaWork) predict(h float64, freshJ bool) error {
	w.hTry = h
	w.fdn.begin(freshJ)
	w.mn.attempt()
	w.prepare(h)
	nq, nc := w.nq, w.nc
	jerk, slope := w.usedJerk(), h*h*w.p.Beta
	if w.constA {
		slope = 0
	}
	for i := range nq {
		// eq. 68a with the prediction a_{n+1} = a_n + h q⃛_n (slope 0: a_{n+1} = a_n)
		w.x[i] = w.vn[i] + h/2*w.an[i] + slope*jerk[i]
	}
	w.fdQuadratic(h)
	for i := range nc {
		w.x[nq+i] = h * w.predLambda(i, h)
		if w.si2 {
			w.x[nq+nc+i] = 0
		}
	}
	switch {
	case w.si2x != nil:
		w.sp.se.ConstraintJacobianValues(w.si2x.g0, w.cur.T, w.cur.Q)
	case w.si2 && w.nc > 0 && w.sp == nil:
		w.sys.ConstraintJacobian(w.G0, w.cur.T, w.cur.Q) // G(q_n): only the si2 terms read it
	}
	return nil
}

// residual evaluates eqs. 69/94 at the iterate (evalResidual).
func (w *genAlphaWork) residual() error {
	if !w.evalResidual(w.hTry) {
		w.lad.worst = w.worstResidual()
		return ErrNonFinite
	}
	return nil
}

// factor assembles and factorizes the iteration matrix at the iterate.
func (w *genAlphaWork) factor() error {
	err := w.jacobian(w.hTry)
	w.freshProducts = 0
	if w.scaled { // the new matrix is at this iterate, where the scaling is I
		if w.scaledFD { // the rows M(q₁) h (q̈ − M⁻¹(f + b)) of scaledRows
			w.mm.MassMul(w.resRaw, w.cur.T+w.hTry, w.q1, w.fdx)
		}
		copy(w.res, w.resRaw)
		w.scaled, w.scaledFD = false, false
	}
	if w.rnd != nil {
		w.rnd.current = false // a level belongs to the matrix it was solved with
	}
	return err
}

// measureRounding measures the rounding level of the increments (newtonRounding) at the
// iterate: the third difference of the residual of eqs. 69/94 along x, solved by the
// preconditioner (or the dense fallback's matrix), in incrementNorm's norm; its Newton
// floor then holds until the next factorization. On the joint route the residual carries
// the rounding of the world-origin moments, which M⁻¹ takes into the spin rows' a at any
// h; the accelerations' weights make it 0.7-1.6 in the Newton norm against a Tol of 1e-3
// on the 100-rod chain hung 450 m off, so without the floor the rate θ of two
// rounding-level increments read as divergence at every h (BENCHMARKS.md, "genalpha's
// rounding floor"). It runs at a stalled increment (alphaStallRate), not as bdf's at
// every factorization once armed: on the 1000-rod chain at the origin, whose attempts
// take three or more iterations without stalling, that cost 13-34 % more evaluations for
// the same steps. It restores x, the residual and the iterate's state.
func (w *genAlphaWork) measureRounding() {
	m := w.rnd
	copy(m.y, w.x)
	copy(m.r0, w.res)
	thirdDifference(w, w.dx)
	var solve linearSolve = w.lu
	if w.mn.inUse() {
		solve = alphaPrecond{w}
	}
	solve.Solve(w.dx)
	copy(w.x, m.y)
	norm, _ := w.incrementNorm(w.hTry)
	m.setLevel(norm)
	m.current = true
	copy(w.res, m.r0)
	w.scaled = false
	w.residualState(w.hTry)
}

// displacedResidual evaluates eqs. 69/94 at x + kτd (roundingProbe).
func (w *genAlphaWork) displacedResidual(k int) []float64 {
	for i, x := range w.rnd.y {
		w.x[i] = x + roundingShift(k, i, x)
	}
	w.evalResidual(w.hTry)
	return w.res
}

// alphaPrecond is genalpha's preconditioner as a linearSolve.
type alphaPrecond struct{ w *genAlphaWork }

// Solve applies the preconditioner to b (linearSolve).
func (p alphaPrecond) Solve(b []float64) { p.w.precondition(b) }

// increment solves for the Newton increment, applies it and returns its norm. With a
// reused matrix the first increment alone is not trusted (needRate): the rate carried from
// the previous attempt (radau5's FACCON) is near zero after a fresh matrix converged
// quadratically, and the Newton error it lets through in q is amplified by 1/(βh²) into
// λ_{n+2} by the index-3 form (measured: λ errors of 2.6e-3 at h = 0.0025 on Example 8
// instead of 2.5e-4).
func (w *genAlphaWork) increment() float64 {
	if w.fdn.on {
		if norm, roundoff, taken := w.fdIncrement(); taken {
			w.nw.noteIncrement(math.Max(roundoff, w.roundingFloor()))
			return norm
		}
	}
	switch {
	case w.mn.inUse():
		w.krylov()
	case w.nw.singular:
		for i, r := range w.res {
			w.dx[i] = -r
		}
		dropRoundedConstraints(w.dx[w.nq:w.nq+w.holonomic()], w.hTry, w.q1) // rows g/h
		w.lu.Solve(w.dx)
		for i, d := range w.dx {
			w.x[i] += d
		}
	default:
		solveIncrement(w.lu, w.res, w.dx, w.x)
	}
	norm, roundoff := w.incrementNorm(w.hTry)
	if mon := &w.nw.mon; w.rnd != nil && !w.rnd.current && mon.iter > 0 && norm >= alphaStallRate*mon.prev {
		w.measureRounding()
	}
	w.nw.noteIncrement(math.Max(roundoff, w.roundingFloor()))
	return norm
}

// roundingFloor is the Newton floor of the rounding level measured with the current
// matrix (newtonRounding.floor), else 0.
func (w *genAlphaWork) roundingFloor() float64 {
	if w.rnd == nil || !w.rnd.current {
		return 0
	}
	return w.rnd.floor()
}

// alphaStallRate is the rate θ of an increment at which genalpha measures the rounding
// level (measureRounding) before the monitor judges it: a stall at the rounding has θ
// near 1 (two increments of noise); 0.5 is a choice, not fitted.
const alphaStallRate = 0.5

// krylov applies the Newton increment J⁻¹(−res) of the exact matrix of eq. 70 to x, by
// GMRES on products J z (jacVec) preconditioned by [C M Gᵀ; G 0] (massNewton).
func (w *genAlphaWork) krylov() {
	copy(w.kx, w.x)
	copy(w.kres, w.res)
	for i, r := range w.res {
		w.kb[i] = -r
	}
	w.mn.solved(w.kr.solve(w, w.kb))
	w.noteProducts()
	copy(w.dx, w.kb)
	copy(w.res, w.kres) // for worstResidual
	for i, d := range w.dx {
		w.x[i] = w.kx[i] + d
	}
}

// noteProducts counts the last Krylov solve's products toward the preconditioner's age
// (massNewton.note, aged): those above the most a solve took in the attempt that
// factorized it. genalpha's fresh preconditioner leaves out the O(h) terms and takes 2-3
// products per solve, so counting above one, as hht does, would refactorize at every
// attempt (measured, with cost 1 or 2: on the open chain at 18 ms, N = 1000, the fresh
// factorization at step 2 failed where the kept one converged).
func (w *genAlphaWork) noteProducts() {
	p := w.kr.products
	if w.nw.fresh {
		w.freshProducts = max(w.freshProducts, p)
		return
	}
	w.mn.note(p - w.freshProducts + 1)
}

// jacVec writes J z ≈ (r(x + εz) − r(x))/ε into dst (krylovSystem): eq. 70's matrix
// applied to z by a forward difference of the residual eq. 69, ε from perturb.
func (w *genAlphaWork) jacVec(dst, z []float64) {
	eps := perturb(w.x, w.kx, z, (1+norm2(w.cur.Q))/w.hTry, w.kr.noise)
	if eps == 0 {
		clear(dst)
		return
	}
	w.evalResidual(w.hTry)
	for i := range dst {
		dst[i] = (w.res[i] - w.kres[i]) / eps
	}
}

// precondition applies the mass part's inverse (krylovSystem).
func (w *genAlphaWork) precondition(x []float64) {
	if w.si2p != nil {
		w.si2p.solve(x)
		return
	}
	w.pfaffianPrecond(x)
	w.mn.solve(x)
}

// pfaffianPrecond scales the Pfaffian rows' entries of x by β/γ: their derivative in Δq
// is (γ/β) A + h ∂(A v + b)/∂q (pfaffianResidual), so the mass part [C M Gᵀ; D G 0], D =
// diag(1, γ/β) on the (holonomic, Pfaffian) rows, is massNewton's matrix with right
// side (r, D⁻¹ s). The h ∂(A v + b)/∂q term is left out with the other O(h) terms.
func (w *genAlphaWork) pfaffianPrecond(x []float64) {
	if w.pf == nil {
		return
	}
	bg := w.p.Beta / w.p.Gamma
	for k := w.nq + w.ncH; k < w.nq+w.nc; k++ {
		x[k] *= bg
	}
}

// fallback leaves the preconditioned Newton-Krylov corrector for the dense matrix
// (simplifiable).
func (w *genAlphaWork) fallback() bool { return w.mn.fallbackTo(w.allocDense) }

// allocDense sizes the dense iteration matrix, M, the derivative work and the dense KKT
// factorization of eq. 17: at Init, or at the first fallback from the Newton-Krylov
// corrector (massNewton), whose runs never store an nq×nq matrix otherwise (on the joint
// route's 1000-rod chain they were 344 MB).
func (w *genAlphaWork) allocDense() {
	if w.lu != nil {
		return
	}
	nq, nc := w.nq, w.nc
	if w.G1 == nil && nc > 0 { // gFree until now
		w.G0, w.G1 = mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil)
	}
	w.der = dae.NewDerivatives(w.sys)
	w.M, w.K, w.J11 = mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
	pattern := kktNewtonPattern(w.sys) // [J Gᵀ; G 0]
	if w.si2 {
		pattern = si2NewtonPattern(w.sys)
	}
	w.lu = newNewtonFactor(w.nx, pattern)
	w.kkt = linalg.NewKKT(nq, nc)
	w.rx.allocDense(nq, nc)
}

// dropG makes the index-3 form's Newton-Krylov path run without the nc×nq G (gFree) when
// sys sums Gᵀλ by the recursion (dae.ConstraintForcer) and the held rows' elimination
// evaluates the loop-closure rows alone (dae.LoopJacobian): the residual (eq. 69) adds
// Gᵀ hλ without G, the preconditioner and eq. 17 read those rows only, and G x at the
// start comes from them and the unit rows (massSchur.mulG). The si2 form keeps G: its
// preconditioner reads G Gᵀ; so do runs with Pfaffian rows (pfaffianPrecond).
func (w *genAlphaWork) dropG(sys dae.System) {
	if w.si2 || w.pf != nil || !w.rec.ownsRows() { // Pfaffian rows: A's rows are not G's loop-closure rows
		return
	}
	if w.cf = dae.AsConstraintForcer(sys); w.cf != nil {
		if w.mn.withoutG(); w.mn.needsG() {
			w.cf = nil
		}
	}
}

// gFree reports whether the residual runs without G: the Newton-Krylov path with dropG's
// capabilities and no dense fallback under way.
func (w *genAlphaWork) gFree() bool { return w.cf != nil && w.mn.active() }

// mulG1 writes G x into dst at the point of the last eq. 17 factorization: from G1, or
// when gFree from the loop-closure rows and the unit rows (massSchur.mulG).
func (w *genAlphaWork) mulG1(dst, x []float64) {
	if w.G1 == nil {
		w.rec.mulG(dst, x)
		return
	}
	for k := range dst {
		dst[k] = dotRow(w.G1, k, x)
	}
}

// reactionKrylov reports whether genalpha takes the λ-dependent forces of sys
// (dae.ReactionForce) on its Newton-Krylov corrector: its residuals (eqs. 69, 94) carry
// f_λ at the iterate's λ, so GMRES's difference products hold −∂f_λ/∂λ beside Gᵀ and
// ∂f_λ/∂q, ∂f_λ/∂v, which the mass-part preconditioner lacks. Only above
// massNewtonDenseMax coordinates: below, the dense matrix with ∂f_λ is cheaper (as for
// hht, BENCHMARKS.md "hht with joint friction on the Newton-Krylov path").
func reactionKrylov(sys dae.System) bool {
	nq, _ := sys.Size()
	return dae.HasReactionForce(sys) && nq > massNewtonDenseMax
}

// converged writes q₁, v₁, a₁, q̈₁, λ₁ of the converged iterate.
func (w *genAlphaWork) converged() error {
	if w.mn.distrusted() {
		w.lad.worst = w.worstResidual()
		return ErrNoConvergence
	}
	w.residualState(w.hTry)
	return nil
}

// diverged names the worst residual of a diverged iteration.
func (w *genAlphaWork) diverged() error {
	w.lad.worst = w.worstResidual()
	return ErrNoConvergence
}

// predLambda extrapolates λ linearly from the last two accepted steps to t_n + h.
func (w *genAlphaWork) predLambda(k int, h float64) float64 {
	l := w.cur.Lambda[k]
	if hp := w.cur.T - w.prev.T; w.stats.Steps > 0 && hp > 0 {
		l += (l - w.prev.Lambda[k]) * h / hp
	}
	return l
}

// residualState writes q₁, v₁, a₁, q̈₁ (eqs. 68b-e, 94b-e) and λ₁ of the iterate x.
func (w *genAlphaWork) residualState(h float64) {
	nq, nc := w.nq, w.nc
	p := w.p
	for i := range nq {
		dqt := w.x[i] // Δq̃ = Δq + G(q_n)ᵀ μ (eq. 94c-e); Δq for index 3
		if w.si2x != nil {
			dqt = w.si2x.addG0TColumn(dqt, i, w.x[nq+nc:])
		} else if w.si2 {
			for k := range nc {
				dqt += w.G0.At(k, i) * w.x[nq+nc+k]
			}
		}
		w.q1[i] = w.cur.Q[i] + h*w.x[i]
		w.a1[i] = (dqt - w.vn[i] - (0.5-p.Beta)*h*w.an[i]) / (p.Beta * h)
		w.v1[i] = w.vn[i] + h*(1-p.Gamma)*w.an[i] + h*p.Gamma*w.a1[i]
		w.qdd1[i] = ((1-p.AlphaM)*w.a1[i] + p.AlphaM*w.an[i] - p.AlphaF*w.cur.A[i]) / (1 - p.AlphaF)
	}
	for k := range nc {
		w.lam1[k] = w.x[nq+k] / h
	}
}

// holonomic is the number of position-constraint rows (those before the Pfaffian rows).
func (w *genAlphaWork) holonomic() int {
	if w.pf == nil {
		return w.nc
	}
	return w.ncH
}

// evalResidual evaluates r_h, g_h (and ġ_h) of eqs. 69 and 94 at the iterate; it reports
// false when a value is not finite.
func (w *genAlphaWork) evalResidual(h float64) bool {
	nq, nc := w.nq, w.nc
	t1 := w.cur.T + h
	w.residualState(h)
	w.stats.FuncEvals++
	if w.sp != nil {
		return w.evalResidualSparse(h, t1)
	}
	fd := w.fd != nil && (w.mn.inUse() || w.fdn.on) // the scaled rows by forward dynamics (scaledRows, fdRows)
	if fd {
		clear(w.f)
		w.rx.add(w.f, t1, w.q1, w.v1, w.lam1) // f_λ
		clear(w.res[:nq])                     // Gᵀ hλ is added below
	} else {
		w.sys.Force(w.f, t1, w.q1, w.v1)
		w.rx.add(w.f, t1, w.q1, w.v1, w.lam1)
	}
	switch {
	case fd: // M(q₁) q̈ − f come from scaledRows
	case w.mn != nil:
		w.mm.MassMul(w.res[:nq], t1, w.q1, w.qdd1) // M q̈ without M (O(N))
		for i := range nq {
			w.res[i] = h*w.res[i] - h*w.f[i] // M h q̈ − h f
		}
	default:
		w.sys.Mass(w.M, t1, w.q1)
		for i := range nq {
			w.res[i] = h*dotRow(w.M, i, w.qdd1) - h*w.f[i] // M h q̈ − h f
		}
	}
	switch {
	case nc > 0 && w.gFree():
		w.cf.AddConstraintForce(w.res[:nq], t1, w.q1, w.x[nq:nq+nc]) // + Gᵀ hλ, G not formed
		w.sys.Constraint(w.gt, t1, w.q1)
		for k, g := range w.gt {
			w.res[nq+k] = g / h
		}
	case nc > 0:
		w.sys.ConstraintJacobian(w.G1, t1, w.q1)
		w.sys.Constraint(w.gt, t1, w.q1)
		constraintRows(w.res, w.G1, w.x[nq:nq+nc], w.gt, h)
		w.pfaffianResidual(t1)
		if w.si2 {
			w.sys.ConstraintTimeDerivative(w.gt, t1, w.q1)
			rowProductsPlus(w.res[nq+nc:], w.G1, w.v1, w.gt, 0) // ġ_h = G v + g_t
			for k := w.ncH; w.pf != nil && k < nc; k++ {
				w.res[nq+nc+k] = w.x[nq+nc+k] // no stabilizer for a Pfaffian row: μ = 0
			}
		}
	}
	switch {
	case w.fdn.on:
		w.fdRows(h, t1)
	case fd:
		w.scaledRows(h, t1)
	default:
		if w.scaled, w.scaledFD = w.mn.inUse(), false; w.scaled {
			copy(w.resRaw, w.res)
			w.mn.scaleRows(w.res[:nq], w.mm, t1, w.q1)
		}
	}
	for _, r := range w.res {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return false
		}
	}
	return true
}

// scaledRows writes the scaled dynamic rows M(q_F) M(q₁)⁻¹ r_h (massNewton.scaleRows) by
// one forward-dynamics pass (dae.ForwardDynamicsSolver) and a product with M(q_F): on
// entry w.f holds f_λ and res's dynamic rows Gᵀ hλ, so with b = f_λ − Gᵀλ,
// r_h = h (M(q₁) q̈ − f − b) and M(q₁)⁻¹ r_h = h (q̈ − M(q₁)⁻¹ (f + b)), kept in w.fdx for
// factor (its new matrix is at q₁, where the rows are M(q₁) w.fdx).
func (w *genAlphaWork) scaledRows(h, t1 float64) {
	w.accelerationRows(h, t1)
	w.mm.MassMul(w.res[:w.nq], w.mn.schur.t, w.mn.schur.q, w.fdx)
	w.scaled, w.scaledFD = true, true
}

// accelerationRows writes M(q₁)⁻¹ r_h = h (q̈ − M(q₁)⁻¹ (f + b)) (see scaledRows) into
// w.fdx by one forward-dynamics pass, with w.f as scratch.
func (w *genAlphaWork) accelerationRows(h, t1 float64) {
	nq := w.nq
	b, res, x, qdd := w.f[:nq], w.res[:nq], w.fdx[:nq], w.qdd1[:nq]
	for i := range b {
		b[i] -= res[i] / h
	}
	w.fd.ForwardDynamics(x, t1, w.q1, w.v1, b)
	for i := range x {
		x[i] = h * (qdd[i] - x[i])
	}
}

// jacobian assembles and factorizes the iteration matrix of eq. 70 (index 3) or of the
// 3×3 block form after eq. 94 (stabilized index 2) at the iterate:
//
//	J11 = C M + h² ∂(M q̈)/∂q − h² ∂f/∂q − h (γ/β) ∂f/∂v + h² ∂(Gᵀλ)/∂q,   C = (1−α_m)/(β(1−α_f))
//	J12 = Gᵀ(q₁),   J21 = G(q₁),   J13 = (C M − h(γ/β) ∂f/∂v) Gᵀ(q_n)
//	J31 = (γ/β) G(q₁),   J33 = (γ/β) G(q₁) Gᵀ(q_n).
//
// In J31 the O(h) terms h ∂(G v)/∂q + h ∂g_t/∂q are left out (no System capability gives
// ∂(G v)/∂q); Newton then contracts at a rate O(h), which the monitor measures.
func (w *genAlphaWork) jacobian(h float64) error {
	if w.sp != nil {
		return w.jacobianSparse(h)
	}
	if w.mn.active() {
		w.stats.Jacobians++
		w.stats.Factorizations++
		w.mn.stiffen(w.cur.T+h, w.q1, w.v1, w.loadAccel(h), w.lam1, h*h) // J11's h² K beside C M
		w.fdn.stale = false
		if w.si2p != nil {
			return w.si2p.factor(w.cur.T+h, w.q1, w.G1, w.cM)
		}
		return w.mn.factor(w.cur.T+h, w.q1, w.G1, w.cM)
	}
	if w.mn != nil {
		w.mn.simplified = false
		w.sys.Mass(w.M, w.cur.T+h, w.q1) // the residual took M q̈ without M
	}
	w.assemble(h)
	w.stats.Factorizations++
	return w.lu.Factor()
}

// loadAccel returns the accelerations of K_g's d'Alembert loads: the forward-dynamics
// accelerations x = M(q₁)⁻¹(f + b) = q̈₁ − M(q₁)⁻¹ r_h / h at the iterate (in w.tmp), not
// q̈₁. The scaled rows M(q_F) M(q₁)⁻¹ r_h that GMRES differences after this factorization
// differentiate to M(q_F) M(q₁)⁻¹ (h C M + h² ((M x)_q − f_q) + …): their stiffness holds
// (M x)_q at (q₁, v₁), as hht's (massNewton.stiffenFD), so jacobian forms K_g at the
// iterate's q₁, v₁ with x. M(q₁)⁻¹ r_h is at hand when the last residual was scaled
// (scaledRows' w.fdx, massNewton.scaleRows' x); at an unscaled one (the run's first
// factorization, the first after the dense matrix) it costs one mass solve. Session 13
// (gaiter2) formed K_g at the Taylor prediction of q, v with q̈₁, which took one GMRES
// product per Newton iteration on the 1000-rod chain from its start where q₁, v₁ with q̈₁
// took two; with x at q₁, v₁ it is one from the start and from the loaded state, where
// the Taylor point took two (BENCHMARKS.md, "K_g at the forward-dynamics accelerations
// in genalpha and daealpha").
func (w *genAlphaWork) loadAccel(h float64) []float64 {
	nq, d := w.nq, w.tmp
	switch {
	case w.scaledFD:
		copy(d, w.fdx)
	case w.scaled:
		copy(d, w.mn.x)
	default:
		w.mn.schur.ms.MassSolve(d, w.cur.T+h, w.q1, w.res[:nq])
	}
	for i, di := range d[:nq] {
		d[i] = w.qdd1[i] - di/h
	}
	return d
}

// assemble writes the dense iteration matrix of jacobian into w.lu.Matrix().
func (w *genAlphaWork) assemble(h float64) {
	nq, nc, n := w.nq, w.nc, w.nx
	p := w.p
	t1 := w.cur.T + h
	gb := p.Gamma / p.Beta
	fd0 := w.der.Evals
	w.stats.Jacobians++
	J := w.J11
	// C M (M(q₁) is current from residual).
	for i := range nq {
		ri, mi := J.RawRowView(i), w.M.RawRowView(i)
		for j := range nq {
			ri[j] = w.cM * mi[j]
		}
	}
	addScaled := func(s float64) {
		for i := range nq {
			ri, ki := J.RawRowView(i), w.K.RawRowView(i)
			for j := range nq {
				ri[j] += s * ki[j]
			}
		}
	}
	w.der.MassDerivative(w.K, t1, w.q1, w.qdd1)
	addScaled(h * h)
	w.der.ForceDerivativeQ(w.K, t1, w.q1, w.v1)
	addScaled(-h * h)
	if nc > 0 {
		w.der.ConstraintForceDerivative(w.K, t1, w.q1, w.lam1)
		addScaled(h * h)
	}
	w.der.ForceDerivativeV(w.K, t1, w.q1, w.v1) // kept in K for J13
	if w.rx != nil {
		// f_λ enters like f: ∂f_λ/∂v joins f_v (also in J13), ∂f_λ/∂q joins f_q.
		w.rx.derivatives(t1, w.q1, w.v1, w.lam1)
		w.K.Add(w.K, w.rx.Fv)
		for i := range nq {
			ri, fi := J.RawRowView(i), w.rx.Fq.RawRowView(i)
			for j := range nq {
				ri[j] -= h * h * fi[j]
			}
		}
	}
	addScaled(-h * gb)
	w.stats.FDEvals += w.der.Evals - fd0

	d := w.lu.Matrix()
	clear(d)
	for i := range nq {
		copy(d[i*n:i*n+nq], J.RawRowView(i))
	}
	for k := range nc {
		gk := w.G1.RawRowView(k)
		for i := range nq {
			d[i*n+nq+k] = gk[i]   // J12 = Gᵀ
			d[(nq+k)*n+i] = gk[i] // J21 = G
		}
	}
	w.assemblePfaffian(d, t1, h)
	if w.rx != nil && nc > 0 {
		// J12 = Gᵀ − ∂f_λ/∂λ: the unknown is hλ and h f_λ enters r_h, so h·∂f_λ/∂λ/h.
		for i := range nq {
			fi := w.rx.Fl.RawRowView(i)
			for k := range nc {
				d[i*n+nq+k] -= fi[k]
			}
		}
	}
	if w.si2 {
		// J13 = (C M − h(γ/β) f_v) G0ᵀ; J31 = (γ/β) G1; J33 = (γ/β) G1 G0ᵀ.
		for i := range nq {
			mi, ki := w.M.RawRowView(i), w.K.RawRowView(i)
			for k := range nc {
				g0k := w.G0.RawRowView(k)
				var s float64
				for j := range nq {
					s += (w.cM*mi[j] - h*gb*ki[j]) * g0k[j]
				}
				d[i*n+nq+nc+k] = s
			}
		}
		for k := range nc {
			g1k := w.G1.RawRowView(k)
			for i := range nq {
				d[(nq+nc+k)*n+i] = gb * g1k[i]
			}
			for l := range nc {
				g0l := w.G0.RawRowView(l)
				var s float64
				for i := range nq {
					s += g1k[i] * g0l[i]
				}
				d[(nq+nc+k)*n+nq+nc+l] = gb * s
			}
		}
		w.assemblePfaffianSI2(d)
	}
}

// incrementNorm returns the weighted RMS norm of the Newton increment mapped to the
// solution, δq = h δΔq, δv = (γ/β) δΔq̃, δa_{n+1} = δΔq̃/(βh) and δλ = δ(hλ)/h, each with
// weights ATol + RTol·|y| at t_n (with aByError the a-block as δe_q = h² cErr δa_{n+1}, see
// below), and the same norm of an increment at rounding level
// (10 ulps of q, of Δq̃ and v_n, from which a_{n+1} is formed by cancellation, and of
// q_n/h, the resolution of Δq in q₁ = q_n + h Δq): below it the rate θ is noise; the
// acceleration block resolves only ulp(q)/(βh²), which grows as h → 0. In the singular
// mode (newtonSolver.singular) the norm is that of δq alone.
func (w *genAlphaWork) incrementNorm(h float64) (norm, roundoff float64) {
	const ulps = 10 * 0x1p-52
	nq, nc := w.nq, w.nc
	c := w.lad.c
	gb := w.p.Gamma / w.p.Beta
	var s, r, sq, rq float64 // all blocks; the q block alone
	singular := w.nw.singular
	add := func(d, mag, y float64) {
		wt := c.ATol + c.RTol*math.Abs(y)
		s += (d / wt) * (d / wt)
		r += (ulps * mag / wt) * (ulps * mag / wt)
	}
	// In the singular mode, and in the attempts of a step whose corrector has failed
	// (rescue), the floor is that of the rounding the solve spreads (below); otherwise
	// each coordinate's own ulps, which the conformance suite's accuracy was measured
	// with (Andrews at tol 1e-8 loses 0.14 scd with the wider floor on every attempt).
	near := singular || w.rescue
	qInf := maxAbs(w.cur.Q)
	for i := range nq {
		dqt := w.dx[i]
		xt := w.x[i]
		if w.si2x != nil {
			dqt = w.si2x.addG0TColumn(dqt, i, w.dx[nq+nc:])
			xt = w.si2x.addG0TColumn(xt, i, w.x[nq+nc:])
		} else if w.si2 {
			for k := range nc {
				dqt += w.G0.At(k, i) * w.dx[nq+nc+k]
				xt += w.G0.At(k, i) * w.x[nq+nc+k]
			}
		}
		// q₁ = q_n + h Δq resolves Δq only to ulp(q_n)/h, and the residual it is solved
		// from only to the rounding of its terms, of the size of the largest coordinate
		// (g sums coordinates), which the solve spreads into every coordinate: q_i's
		// increment is resolved to ulps of ‖q_n‖∞, not of |q_i| (a y of 0.05 m beside x of
		// 40 m; measured on A02, N = 40, tol 1e-8, at t = 13.003 s: δq of 3e-14 with the
		// residual at 2e-15, sixteen times the per-coordinate floor in the norm).
		qMag := math.Abs(w.cur.Q[i])
		if near {
			qMag = qInf
		}
		mag := math.Max(math.Max(math.Abs(xt), math.Abs(w.vn[i])), qMag/h)
		s0, r0 := s, r
		add(h*w.dx[i], qMag+h*math.Abs(w.x[i]), w.cur.Q[i])
		sq, rq = sq+s-s0, rq+r-r0
		if singular {
			continue
		}
		add(gb*dqt, gb*mag, w.cur.V[i])
		if w.aByError {
			e := h * w.cErr / w.p.Beta // δe_q = h² cErr δa_{n+1} = (h cErr/β) δΔq
			add(e*dqt, e*mag, w.cur.Q[i])
			continue
		}
		add(dqt/(w.p.Beta*h), mag/(w.p.Beta*h), w.cur.A[i])
	}
	if singular {
		// Near a singular position (the regularized matrix) only q decides. λ is not
		// unique there (seed 002, Theorem 2) and its increments do not settle. v and a
		// are Δq's Newmark images, δv = (γ/β) δΔq, δa = δΔq/(βh): the solve leaves in Δq
		// a rounding error amplified by the condition of the saddle-point matrix, which
		// grows like σ_min(G)⁻² as G loses rank, and that error reaches a as
		// 1/(βh²) times its size in q, so their increments settle at a level no
		// iteration lowers and that a step cut raises (measured on A02, N = 40, tol
		// 1e-8: at t = 1.2413 s, σ_min(G) = 4.8e-4, the second increment of q stayed at
		// 4e-5 of its weight for every h from 1.2e-3 down to 1e-8 s while that of a grew
		// like 1/h², and the step collapsed to HMin). The local error estimate
		// h²(β − γ/2 + 1/12)(a₁ − a_n) and the next step's q see δa only through h²,
		// i.e. at q's scale, as hht's Newton norm measures it (seed 004, eqs. 46-47).
		return math.Sqrt(sq / float64(nq)), math.Sqrt(rq / float64(nq))
	}
	for k := range nc {
		add(w.dx[nq+k]/h, math.Abs(w.x[nq+k])/h, w.cur.Lambda[k])
	}
	n := float64(3*nq + nc)
	norm, roundoff = math.Sqrt(s/n), math.Sqrt(r/n)
	if near && sq <= rq {
		// q's increment is at its rounding: v and a are its Newmark images, and λ, solved
		// with q from a residual now at rounding too, carries that rounding amplified by
		// the Schur complement's inverse, ∝ σ_min(G)⁻² as G nears a rank drop (measured on
		// A02, N = 40, tol 1e-9, at t = 3.1795 s, 0.03 s before a singular position and
		// outside the singular mode: δq of 4e-14, |r| 2e-15, |g| 9e-15, and δλ of 5e-4,
		// 460 times its weight, at every h down to HMin). Nothing is left to converge.
		roundoff = math.Max(roundoff, norm)
	}
	return norm, roundoff
}

// worstResidual names the largest residual component of the last evaluation, scaled as in
// eqs. 69/94, and reports its value unscaled: the force residual M q̈ − f + Gᵀλ = r_h/h
// and g = h·g_h (hht's report, too, gives g, not g/(βh²)). The scaled g_h = g/h of an
// attempt cut to h = 6e-14 s read as "position constraint = 0.0094" where g was 6e-16 m,
// which looked like a Newton iteration gone far off the constraints (A02, N = 40).
func (w *genAlphaWork) worstResidual() Residual {
	i, v := worstAbs(w.res)
	r := Residual{Index: i, Value: v}
	switch {
	case i < w.nq:
		r.Block, r.Owner = "equilibrium", dae.CoordinateName(w.sys, i)
		r.Value /= w.hTry
	case i < w.nq+w.nc:
		r.Block, r.Index = "position constraint", i-w.nq
		r.Owner = dae.ConstraintName(w.sys, r.Index)
		if r.Index < w.holonomic() {
			r.Value *= w.hTry
		}
	default:
		r.Block, r.Index = "velocity constraint", i-w.nq-w.nc
		r.Owner = dae.ConstraintName(w.sys, r.Index)
	}
	return r
}

// errorNorm is the weighted RMS of the local error estimate e_q = h²(β − γ/2 + 1/12)(a₁ − a_n)
// of eq. 64a (see GenAlpha); velocities, λ and μ stay out. When the attempt fails with it
// (error test, or divergence with FixedH: fixedStepDiverged) it records the worst
// component for the failure report.
func (w *genAlphaWork) errorNorm(h float64) float64 {
	return newmarkErrorNorm(&w.lad, w.sys, h, w.cErr, w.a1, w.an, w.cur.Q, w.q1)
}

// notePeak records the weighted components of the accepted step's e_q (as errorNorm
// weighs them) in the run's peak (errorPeak).
func (w *genAlphaWork) notePeak(h float64) {
	c, q0, q1, t := &w.lad.c, w.cur.Q, w.q1, w.cur.T+h
	s := h * h * w.cErr
	for i, a := range w.a1 {
		w.observe(i, s*(a-w.an[i]), c.weight(i, q0, q1, w.nq, 1), t)
	}
}

var _ ControlWarner = (*GenAlpha)(nil)

// ControlWarnings warns when an accepted step's error estimate e_q (eq. 64a's local error
// of q) was more than localPeakRatio × tol in one coordinate: the step test bounds its
// weighted RMS over all nq coordinates, which lets a single one reach √nq × tol (see
// errorPeak). Without steps or with FixedH it returns nil.
func (m *GenAlpha) ControlWarnings() []string {
	w := m.w
	if w == nil {
		return nil
	}
	return w.warnings(w.lad.fixed, w.name, dae.CoordinateName(w.sys, w.peakIdx), w.nq, "coordinates", "the weighted RMS of e_q")
}

// newmarkErrorNorm is the weighted RMS of the local error estimate of the Newmark position
// update, e_q = h²·cErr·(a₁ − a_n) with cErr = β − γ/2 + 1/12, weighted by q₀ and q₁ (the
// estimate of genalpha and daealpha). When the attempt fails with it (error test, or
// divergence with FixedH: fixedStepDiverged) it records the worst component in lad.worst
// for the failure report.
func newmarkErrorNorm(lad *ladder, sys dae.System, h, cErr float64, a1, an, q0, q1 []float64) float64 {
	c := lad.c
	var s, worst float64
	wi := 0
	for i := range q0 {
		e := h * h * cErr * (a1[i] - an[i])
		r := e / c.weight(i, q0, q1, len(q0), 1)
		s += r * r
		if math.Abs(r) > worst || math.IsNaN(r) {
			wi, worst = i, math.Abs(r)
		}
	}
	e := math.Sqrt(s / float64(len(q0)))
	if !(e <= 1) && (c.FixedH == 0 || fixedStepDiverged(e, c.RTol)) {
		lad.worst = Residual{Block: "position error estimate", Index: wi,
			Value: h * h * cErr * (a1[wi] - an[wi]), Owner: dae.CoordinateName(sys, wi)}
	}
	return e
}

// commit makes the converged attempt of size h the current state.
func (w *genAlphaWork) commit(h float64) error {
	if !w.lad.fixed {
		w.notePeak(h)
	}
	w.prev.CopyFrom(&w.cur)
	if w.stats.Steps == 0 {
		copy(w.prev.V, w.vn) // the (possibly corrected) start the step began from
	}
	if w.mn != nil {
		jerk := w.usedJerk()
		for i, a := range w.an { // the linear prediction of this step (predict), in tmp
			w.tmp[i] = a + h*jerk[i]
		}
		w.constA = constantCloser(w.a1, w.an, w.tmp, nil)
	}
	copy(w.jerkP, w.jerk)
	w.hP = w.hA
	for i := range w.nq {
		w.jerk[i] = (w.a1[i] - w.an[i]) / h
	}
	copy(w.aN, w.a1)
	w.hA = h
	w.rescue = false
	w.cur.advance(h, w.q1, w.v1, w.qdd1, w.lam1)
	w.stats.Steps++
	w.mn.accepted()
	w.fdn.accepted()
	return nil
}

// usedJerk is the q⃛ estimate the attempts of the current step extrapolate a_n with:
// startJerk's q⃛_0 on the first step, later the last step's quotient.
func (w *genAlphaWork) usedJerk() []float64 {
	if w.stats.Steps == 0 {
		return w.jerk0
	}
	return w.jerk
}

// constantCloser reports whether the constant prediction at of the accelerations y came
// closer to them than the linear prediction lin, in the norm Σ((y − p)/(1 + |y|))² (hht's
// choice of its extrapolation degree, seed 004, prediction stage, over degrees 0 and 1).
// With before non-nil, lin is the line through before and at, 2·at − before (at the start,
// where the Taylor points of startJerk are the history; lin may alias before).
//
// On the Newton-Krylov path (dae.MassSolver systems) genalpha predicts a_{n+1} by the one
// that came closer at the last step (commit), on the first step by the Taylor points
// (startJerk): on smooth motion the linear prediction wins; where the accelerations carry
// modes far above 1/h, the quotient (a_{n+1} − a_n)/h and startJerk's q⃛_0 are those
// modes' oscillation, which the line extrapolates, and the preconditioner, kept over many
// steps, is formed with K_g at that predicted state. On the joint route's 1000-rod chain
// (the rods' spins, 5e-5 kg m²) at fixed h = 9 ms the linear prediction's Newton iteration
// diverged (from the start at the 6th step, loaded at the first) where with the choice it
// takes 3 iterations (10.2-10.6 evaluations) per step; at 4.5 ms 6.7 → 6 evaluations
// (BENCHMARKS.md, "genalpha's Newton stop and predictor on the long chains"). The dense
// and sparse paths keep the linear prediction: there the choice moved the small problems'
// tables both ways (Andrews at tol 1e-7 lost one digit).
func constantCloser(y, at, lin, before []float64) bool {
	var el, ec float64
	for i, a := range y {
		p := lin[i]
		if before != nil {
			p = 2*at[i] - before[i]
		}
		s := 1 + math.Abs(a)
		dl, dc := (a-p)/s, (a-at[i])/s
		el += dl * dl
		ec += dc * dc
	}
	return ec < el
}

// Interpolate writes the dense output at t in [Previous().T, Current().T] into dst by
// cubic Hermite interpolation (hermiteInterpolate: q and v third order, q̈ and λ linear).
func (m *GenAlpha) Interpolate(dst *State, t float64) {
	hermiteInterpolate(dst, &m.w.prev, &m.w.cur, t)
}

// evalResidualSparse is evalResidual on the sparse evaluation path, with
// residualState done: the same sums as the dense loops over the patterns' entries.
func (w *genAlphaWork) evalResidualSparse(h, t1 float64) bool {
	nq, nc, sp := w.nq, w.nc, w.sp
	sp.evalM(t1, w.q1)
	w.sys.Force(w.f, t1, w.q1, w.v1)
	w.rx.add(w.f, t1, w.q1, w.v1, w.lam1)
	csrMul(w.tmp, &sp.mass, sp.M, w.qdd1)
	for i := range nq {
		w.res[i] = h*w.tmp[i] - h*w.f[i] // M h q̈ − h f
	}
	if nc > 0 {
		haveG := sp.evalGg(w.gt, t1, w.q1)      // g with G in one pass where the system can
		sp.addGTx(w.res[:nq], w.x[nq:nq+nc], 1) // + Gᵀ hλ
		if !haveG {
			w.sys.Constraint(w.gt, t1, w.q1)
		}
		for k := range nc {
			w.res[nq+k] = w.gt[k] / h // g_h = g/h
		}
		if w.si2 {
			w.sys.ConstraintTimeDerivative(w.gt, t1, w.q1)
			sp.gxPlus(w.res[nq+nc:], w.v1, w.gt) // ġ_h = G v + g_t
		}
	}
	return allFinite(w.res)
}

// jacobianSparse is jacobian on the sparse evaluation path: J11, G, Gᵀ (and the
// stabilized index-2 blocks, si2Sparse) written into the LU's values, the terms in the
// dense order.
func (w *genAlphaWork) jacobianSparse(h float64) error {
	sp, x := w.sp, &w.kIdx
	t1 := w.cur.T + h
	gb := w.p.Gamma / w.p.Beta
	w.stats.Jacobians++
	K := w.lu.Values()
	clear(K)
	scatterAdd(K, x.m, sp.M, w.cM) // M(q₁) is current from residual
	if sp.massDerivative(t1, w.q1, w.qdd1) {
		scatterAdd(K, x.c, sp.C, h*h)
	}
	sp.se.ForceDerivativeQValues(sp.C, t1, w.q1, w.v1)
	scatterAdd(K, x.c, sp.C, -h*h)
	if w.nc > 0 {
		sp.se.ConstraintForceDerivativeValues(sp.C, t1, w.q1, w.lam1)
		scatterAdd(K, x.c, sp.C, h*h)
	}
	sp.se.ForceDerivativeVValues(sp.C, t1, w.q1, w.v1)
	if w.rx != nil { // as in jacobian: f_λ,v joins f_v (sp.C, also for si2), f_λ,q joins f_q
		w.rx.derivatives(t1, w.q1, w.v1, w.lam1)
		for i, fv := range w.rx.Vv {
			sp.C[i] += fv
		}
		scatterAdd(K, x.c, w.rx.Vq, -h*h)
		scatterAdd(K, x.gt, w.rx.VlT, -1)
	}
	scatterAdd(K, x.c, sp.C, -h*gb)
	scatterAdd(K, x.gt, sp.G, 1)
	scatterAdd(K, x.g, sp.G, 1)
	if w.si2x != nil {
		w.si2x.blocks(K, w.cM, h*gb, gb) // sp.C holds f_v
	}
	w.stats.Factorizations++
	return w.lu.Factor()
}

// genAlphaPfaffian returns sys with its nonholonomic rows appended (dae.WithPfaffianRows),
// the rows' source and the number of holonomic rows, or an error for what the rows do not
// combine with (CorrectStart, first-order states, λ-dependent forces).
func genAlphaPfaffian(name string, form Formulation, correctStart bool, sys dae.System) (dae.Nonholonomic, int, dae.System, error) {
	pf, ok := dae.AsNonholonomic(sys)
	if !ok {
		return nil, 0, sys, nil
	}
	if correctStart {
		return nil, 0, nil, fmt.Errorf("integrate: %s: CorrectStart does not take nonholonomic constraints (dae.Nonholonomic)", name)
	}
	if err := dae.RefusePfaffianWith("integrate: "+name, sys); err != nil {
		return nil, 0, nil, err
	}
	_, ncH := sys.Size()
	return pf, ncH, dae.WithPfaffianRows(sys), nil
}

// pfaffianResidual overwrites the residual rows of the nonholonomic constraints with
// A(q₁) v₁ + b (G1 holds (G; A) at q₁): their derivative in Δq, (γ/β) A + h ∂(A v + b)/∂q,
// is bounded as h → 0 like that of g_h = g/h, so they need no scaling (hht's treatment,
// seed 004 after eq. 8, in the variables of eq. 69).
func (w *genAlphaWork) pfaffianResidual(t1 float64) {
	if w.pf == nil {
		return
	}
	w.sys.ConstraintTimeDerivative(w.gt, t1, w.q1)
	rowProductsPlus(w.res[w.nq:], w.G1, w.v1, w.gt, w.ncH)
}

// assemblePfaffian writes the rows of the nonholonomic constraints into the dense
// iteration matrix d: (γ/β) A + h ∂(A v + b)/∂q in the Δq columns (pfaffianResidual).
func (w *genAlphaWork) assemblePfaffian(d []float64, t1, h float64) {
	if w.pf == nil {
		return
	}
	n, nq, gb := w.nx, w.nq, w.p.Gamma/w.p.Beta
	w.pf.PfaffianRateDerivative(w.R, t1, w.q1, w.v1)
	for k := w.ncH; k < w.nc; k++ {
		ak, rk := w.G1.RawRowView(k), w.R.RawRowView(k-w.ncH)
		row := d[(nq+k)*n:]
		for i := range nq {
			row[i] = gb*ak[i] + h*rk[i]
		}
	}
}

// assemblePfaffianSI2 completes the stabilized index-2 matrix for the nonholonomic rows:
// their rows A v₁ + b depend on the stabilizer μ through v₁ (Δq̃ = Δq + G(q_n)ᵀμ), by
// (γ/β) A G(q_n)ᵀ, which the loop of J33 left in the rows of ġ_h; those rows are then
// μ_k = 0, as the Pfaffian rows are velocity-level already and take no stabilizer (the
// ggl treatment of seed 002 after eq. 92, where −Gᵀμ takes the holonomic rows only).
func (w *genAlphaWork) assemblePfaffianSI2(d []float64) {
	if w.pf == nil {
		return
	}
	n, nq, nc := w.nx, w.nq, w.nc
	for k := w.ncH; k < nc; k++ {
		rowL, rowS := d[(nq+k)*n:(nq+k+1)*n], d[(nq+nc+k)*n:(nq+nc+k+1)*n]
		copy(rowL[nq+nc:], rowS[nq+nc:])
		clear(rowS)
		rowS[nq+nc+k] = 1
	}
}
