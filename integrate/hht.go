package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// HHT integrates the index-3 equations of motion by the Hilber-Hughes-Taylor method as
// implemented by Negrut, Ottarsson, Rampalli and Sajdak (seed 004), who write Φ for g, Φ_q
// for G and Q for f. The Newton unknowns are the (pseudo-)accelerations a of the Newmark
// formulas and the multipliers λ (and the rates X' of first-order states, see below); with
// r = Gᵀλ − f and q̈ₙ the acceleration at tₙ:
//
//	M(q₁)(a₁ + α q̈ₙ)/(1+α) + r₁ = 0           (eq. 11a, see below)
//	g(t₁, q₁)/(β h²) = 0                       (eq. 11b, scaled as in eqs. 12-13)
//
// q₁ and v₁ follow from a₁ by the Newmark formulas (eq. 2),
//
//	q₁ = q₀ + h v₀ + h²[(1/2 − β) a₀ + β a₁],    v₁ = v₀ + h[(1 − γ) a₀ + γ a₁],
//
// with γ = (1 − 2α)/2 and β = (1 − α)²/4 (eq. 6), and q̈₁ = (a₁ + α q̈ₙ)/(1+α), so that
// M q̈₁ = f − Gᵀλ holds at t₁. For a constant mass matrix the first line is exactly eq. 11a,
// M a₁/(1+α) + r₁ − α/(1+α)·rₙ = 0, since M q̈ₙ = −rₙ. For a configuration-dependent M, eq.
// 11a as printed applies M(q₁) to a₁ alone and converges with order 1 only (measured on
// Andrews' squeezer: 0.30 scd per halving of h against 0.60 with this form); the form
// used is the HHT member (α_m = 0, α_f = −α) of the generalized-α method of seed 002, eq.
// 65, which keeps order 2. State.A reports q̈, not the pseudo-acceleration a.
//
// Each Newton iteration solves eq. 12 with the iteration matrix of eq. 14 (here with the
// exact factor 1/(1+α) on M), b = (a + α q̈ₙ)/(1+α):
//
//	[ M/(1+α) + βh²((M b)_q + (Gᵀλ)_q − f_q) − γh f_v   Gᵀ ] [Δa]     [e₁]
//	[ G                                                 0  ] [Δλ] = − [e₂],
//
// whose derivatives come from dae.NewDerivatives (analytic where the system provides them,
// finite differences otherwise). Scaling g by 1/(βh²) keeps this matrix bounded as h → 0
// (seed 004, options (a)-(c) after eq. 14); HHTIterationCond measures it.
//
// Systems implementing dae.FirstOrder add states X with X' = F(t,q,v,X) and a force
// f_X(t,q,v,X) (seed 004, eq. 8a); X is integrated by eq. 9a,
//
//	X₁ = X₀ + h X'₀ + ρ h (X'₁ − X'₀),
//
// with X'₁ a further Newton unknown (third block row of eq. 12: X' − F = 0, derivative
// I − ρh F_X). For ρ ≠ 1/2 that formula is first order, so a coupled system converges with
// order 1 in every block; ρ = 1/2 (trapezoidal) keeps order 2 but has no error estimate
// (eq. 34 vanishes) and is therefore allowed only with fixed steps.
//
// Forces that depend on the multipliers (dae.ReactionForce, seed 004 eq. 8b: Q = Q(λ))
// join f in r, with their derivatives: ∂f_λ/∂q and ∂f_λ/∂v in the first block as f_q, f_v,
// and −∂f_λ/∂λ beside Gᵀ.
//
// Error control (seed 004, eqs. 26, 34-39): the local errors δ_q = (β − 1/(6(1+α))) h² (a₁ − a₀)
// and δ_X = (ρ − 1/2) h (X'₁ − X'₀) are measured by WeightedRMS with StepControl's RTol and
// ATol (eq. 35 with Y_i = ATol/RTol + max(|y₀|, |y₁|)), giving e_q and e_X; the step passes when
// e = max(e_q, e_X^(3/2)) ≤ 1 (eqs. 36, 37), and h_new = s·h·e^(−1/3) equals
// min(s h e_q^(−1/3), s h e_X^(−1/2)) (eqs. 38b, 39b). The tolerance bounds the local error
// of q per step in the RMS over all coordinates, so the global error is about the number of
// steps times tol; one coordinate may pass at up to √nq × tol, and ControlWarnings says when
// one passed at more than 10 × tol (a long chain, whose error sits at a travelling front).
// The local error of v is not estimated. The corrector
// (newtonMonitor) stops when θ/(1−θ) times the same weighted norm of the increments of δ_q
// and δ_X is below Newton.Tol, i.e. eqs. 46-47 with c = Newton.Tol, and never after the
// first iteration (seed 004, after eq. 46). The position constraints then hold to about
// 1e-2·tol·(1 + |q|), not to rounding; a smaller Newton.Tol tightens them.
type HHT struct {
	// Alpha is the HHT damping parameter α in [-1/3, 0] (seed 004, eq. 6): 0 is the
	// undamped trapezoidal rule, −1/3 the most damping. Zero is a valid value, so start
	// from DefaultHHT() [-0.3].
	Alpha float64
	// Rho is ρ of eq. 9a for first-order states, in [1/2, 1]; 1/2 only with fixed steps.
	// Zero takes γ = (1 − 2α)/2, the Newmark velocity weight that eq. 9 mirrors [0].
	Rho float64
	// PredictorOrder is the largest degree, 0 to 3, of the polynomial extrapolation of the
	// Newton unknowns (a, λ, X') that starts each corrector (seed 004, "The prediction
	// stage"); 0 is the constant predictor of Hughes (a₁ = a₀) and a valid value [3].
	PredictorOrder int
	// Newton holds the corrector knobs: stop rule (eqs. 40-47, Tol = c), iteration limit
	// and Jacobian policy.
	Newton NewtonSettings

	// factorizedOnly keeps the forward-dynamics iteration (fdIter) off, for tests of the
	// factorized Newton-Krylov iteration on systems where it would run.
	factorizedOnly bool

	w         *hhtWork
	*accepted // Current, Previous, Stats (method.go)
}

// DefaultHHT returns HHT with α = −0.3 (seed 004), ρ = γ(α) = 0.8, cubic prediction at
// most and default Newton settings.
func DefaultHHT() HHT {
	return HHT{Alpha: DefaultHHTAlpha, PredictorOrder: 3}
}

// DefaultHHTAlpha is the α of DefaultHHT: −0.3 damps the high frequencies well while
// keeping the method close to trapezoidal (the MSC.ADAMS HHT default, seed 004).
const DefaultHHTAlpha = -0.3

// hhtEntry is the registry entry of HHT. λ is computed from the α-weighted equilibrium
// eq. 10, whose transient after the start decays like ρ∞ⁿ (seed 002, Example 8); the
// order test measures 2 for λ at t_end on the smooth test problems.
var hhtEntry = alphaIndex3Entry(Entry{
	Name:      "hht",
	Title:     "Hilber-Hughes-Taylor, index 3, accelerations and multipliers as unknowns",
	Seed:      "004",
	Equations: "2, 6, 10-14; error 26, 34-39; corrector 40-47",
	States:    true,
	Params:    []Param{hhtAlphaParam},
	New:       func() Method { m := DefaultHHT(); return &m },
})

// hhtCoef are the method coefficients of eq. 6 and the error constants of eqs. 26 and 34.
type hhtCoef struct {
	alpha, beta, gamma, rho float64
	errQ                    float64 // β − 1/(6(1+α)), eq. 26
	errX                    float64 // ρ − 1/2, eq. 34
}

// checkHHTAlpha rejects an α outside [−1/3, 0] (seed 004, eq. 6), NaN included.
func checkHHTAlpha(method string, alpha float64) error {
	if !(alpha >= -1.0/3 && alpha <= 0) {
		return fmt.Errorf("integrate: %s: Alpha = %g outside [-1/3, 0]", method, alpha)
	}
	return nil
}

func newHHTCoef(alpha, rho float64) hhtCoef {
	c := hhtCoef{alpha: alpha, gamma: (1 - 2*alpha) / 2, beta: (1 - alpha) * (1 - alpha) / 4, rho: rho}
	if c.rho == 0 {
		c.rho = c.gamma
	}
	c.errQ = c.beta - 1/(6*(1+alpha))
	c.errX = c.rho - 0.5
	return c
}

// hhtWork is everything a run needs, sized once by Init.
type hhtWork struct {
	sys        dae.System
	fo         dae.FirstOrder // nil when nd = 0
	der        *dae.Derivatives
	fod        *dae.FirstOrderDerivatives
	nq, nc, nd int
	n          int // nq + nc + nd: Newton unknowns u = (a, λ, X')
	k          hhtCoef

	// Nonholonomic constraints (dae.Nonholonomic): sys has them appended as the rows ncH..nc
	// (dae.WithPfaffianRows), λ's last nc − ncH entries are their μ; R = ∂(A v + b)/∂q and
	// gt = (g_t, b) are scratch. pf is nil without them. On the sparse path R's values lie
	// on the rows' part of G's pattern (rv, from spf; dae.SparseNonholonomic), which starts
	// at value position rv0.
	pf       dae.Nonholonomic
	ncH      int
	R        *mat.Dense
	gt       []float64
	spf      dae.SparsePfaffianRows
	rv       []float64
	rv0      int
	nw       newtonSolver // the corrector loop (newton.go)
	maxOrder int

	lad ladder     // step loop, attempts and failure reports (ladder.go)
	ctl controller // the step-size rule (eq. 38b)

	accepted            // cur, prev, stats: Current, Previous, Stats
	u0        []float64 // (a, λ, X') at t_n
	q, v, x   []float64 // iterate
	u         []float64 // iterate (a, λ, X')
	du        []float64 // residual, then increment
	res       []float64 // copy of the last residual, for failure reports
	f, fx, tq []float64 // f, f_X, scratch (nq)
	rate      []float64 // F (nd)
	err       []float64 // δ_q or Newton-norm scratch (nq)
	errX      []float64 // δ_X (nd)

	M, G, T1   *mat.Dense                // M, G, nq×nq scratch
	Fq, Fv, Fx *mat.Dense                // ∂F/∂q, ∂F/∂v (nd×nq), ∂F/∂X (nd×nd)
	Xq, Xv, Xx *mat.Dense                // ∂f_X/∂q, ∂f_X/∂v (nq×nq), ∂f_X/∂X (nq×nd)
	lu         *newtonFactor             // dense, or sparse for large systems with patterns (sparsity.go); nil until needed with mn
	mn         *massNewton               // the simplified mass matrix for dae.MassSolver systems (massnewton.go), or nil
	mm         dae.MassMultiplier        // M x without M, or nil
	cf         dae.ConstraintForcer      // Gᵀλ without G while mn is active (G then only at its factorizations), or nil
	kr         *gmres                    // the Newton-Krylov solve with mn as preconditioner (with mn)
	ku, kb     []float64                 // the iterate u at the solve, its right side (n)
	e1raw      []float64                 // the dynamic rows before scaleRows (nq, with mn)
	scaled     bool                      // du's dynamic rows are scaled (massNewton.scaleRows)
	fd         dae.ForwardDynamicsSolver // the scaled rows by forward dynamics (scaledRows), or nil
	scaledFD   bool                      // ... and were (e1raw not written; e1x holds M(q₁)⁻¹ e₁)
	e1x        []float64                 // scaledRows' M(q₁)⁻¹ e₁ (nq)
	sp         *sparseEval               // the sparse evaluation path (M, G, T1, der nil), or nil
	rx         *reaction                 // λ-dependent forces f_λ (dae.ReactionForce), or nil
	kIdx       kktScatter                // where sp's values go in lu's values

	// predictor: the last accepted unknowns (newest first) and their times
	histT  [4]float64
	histU  [4][]float64
	nHist  int
	pred   [4][]float64 // extrapolation of each degree to t₁
	pOrder int          // degree used next

	hTry float64 // h of the attempt under way

	// errorPeak holds the largest weighted component |δ_q,i|/(ATol_i + RTol·max(|q₀,i|,
	// |q₁,i|)) of an accepted step's error estimate (error control only): ControlWarnings.
	errorPeak
	// qOfU says that q, v, X hold newmark(hTry) of the iterate u: increment leaves them so,
	// and the residual that follows it in the Newton loop need not recompute them.
	qOfU bool
	// chord's measures: the products of the last GMRES solve and its relative residual
	// after the first; chordSlow: a chord iteration of this attempt converged slowly.
	lastProducts int
	lastRel1     float64
	chordSlow    bool
	// chordRate: the rate θ of the last chord increment that had one (its norm against the
	// attempt's previous increment) when it is newer than the last GMRES solve; −1 when
	// the GMRES measures are the newer (chordGood). It starts at 0: the first steps are
	// short, where P is the Newton matrix to rounding, and their chords' rates measure it
	// (a GMRES solve first spent diffNoise's measurement and a product: on the 1000-rod
	// chain at tol 1e-6, 2.31 against 2.04 evaluations per step).
	chordRate float64
	// chorded: the last increment was a chord step (increment may redo it by GMRES).
	chorded bool
	// freshJ: the attempt under way factorizes at its first iterate (predict);
	// factorsHere: the residual being evaluated is at an iterate where factor follows,
	// so scaledRows writes its rows M(q₁)(ã − x) without the scaling to M(q_F).
	freshJ, factorsHere bool
	fdn                 fdIter // the forward-dynamics Newton iteration (fditer.go, hhtfd.go)
}

// Init resolves the options, checks that start is consistent (g = 0 and G v + g_t = 0 to
// 1e-8 relative, seed 002 eq. 17), recomputes a₀ and λ₀ from the KKT system [M Gᵀ; G 0]
// (a, λ) = (f + f_X, γ) and sizes the workspace. StepControl is resolved against the tEnd
// of the first Step (a unit span when it is infinite). A dae.FirstOrder system needs
// start.X of length StateSize().
func (m *HHT) Init(sys dae.System, start State, ctl StepControl) error {
	if err := dae.RefusePfaffianWith("integrate: hht", sys); err != nil {
		return err
	}
	if err := checkHHTAlpha("hht", m.Alpha); err != nil {
		return err
	}
	if m.PredictorOrder < 0 || m.PredictorOrder > 3 {
		return fmt.Errorf("integrate: hht: PredictorOrder = %d outside [0, 3]", m.PredictorOrder)
	}
	k := newHHTCoef(m.Alpha, m.Rho)
	if m.Rho != 0 && (m.Rho < 0.5 || m.Rho > 1 || math.IsNaN(m.Rho)) {
		return fmt.Errorf("integrate: hht: Rho = %g outside [1/2, 1]", m.Rho)
	}
	nd := dae.StateSize(sys)
	if nd > 0 && k.errX == 0 && ctl.FixedH == 0 {
		return fmt.Errorf("integrate: hht: Rho = 1/2 (given, or γ of Alpha = %g) gives no error estimate for X (seed 004, eq. 34); use Rho in (1/2, 1] or FixedH", m.Alpha)
	}
	ns, err := m.Newton.Resolve()
	if err != nil {
		return fmt.Errorf("integrate: hht: %w", err)
	}
	if _, err := ctl.resolveAt(start.T, len(start.Q)); err != nil {
		return fmt.Errorf("integrate: hht: %w", err)
	}
	nq, _ := sys.Size()
	if len(start.Q) != nq || len(start.V) != nq {
		panic(fmt.Sprintf("integrate: hht: Init: start has len(Q) = %d, len(V) = %d, want %d", len(start.Q), len(start.V), nq))
	}
	if len(start.X) != nd {
		return fmt.Errorf("integrate: hht: start.X has length %d, the system has %d first-order states", len(start.X), nd)
	}
	w := newHHTWork(sys, k, true)
	if err := w.refuseDense(sys); err != nil {
		return err
	}
	sys = w.sys // with the Pfaffian rows appended
	w.lad.fc, w.lad.raw = newFailureContext(sys, &start), ctl
	w.nw = newNewtonSolver(ns, &w.stats)
	w.fdn.allow(!m.factorizedOnly && w.fd != nil && w.nc == 0 && w.nd == 0 && ns.Jacobian == JacobianAuto, w.n)
	w.maxOrder = m.PredictorOrder
	w.cur.T = start.T
	copy(w.cur.Q, start.Q)
	copy(w.cur.V, start.V)
	copy(w.cur.X, start.X)

	r := measureStart(w.sp, sys, start)
	if r.Pos > 1e-8*math.Max(1, hhtMaxAbs(start.Q)) || r.Vel > 1e-8*math.Max(1, hhtMaxAbs(start.V)) ||
		math.IsNaN(r.Pos) || math.IsNaN(r.Vel) {
		return fmt.Errorf("integrate: hht: inconsistent start at t=%g: |g| = %.2g at %s, |G v + g_t| = %.2g (want ≤ 1e-8 relative)",
			start.T, r.Pos, dae.ConstraintName(sys, max(r.WorstPos, 0)), r.Vel)
	}
	if err := w.consistentStart(); err != nil {
		return err
	}
	w.prev.CopyFrom(&w.cur)
	m.w, m.accepted = w, &w.accepted
	return nil
}

func hhtMaxAbs(x []float64) float64 {
	var s float64
	for _, v := range x {
		s = math.Max(s, math.Abs(v))
	}
	return s
}

// newHHTWork sizes the workspace: on the sparse evaluation path (sparseEval) when sparse
// is set and sys has it and no first-order states, densely otherwise.
func newHHTWork(sys dae.System, k hhtCoef, sparse bool) *hhtWork {
	pf, _ := dae.AsNonholonomic(sys)
	_, ncH := sys.Size()
	sys = dae.WithPfaffianRows(sys)
	nq, nc := sys.Size()
	nd := dae.StateSize(sys)
	n := nq + nc + nd
	w := &hhtWork{sys: sys, nq: nq, nc: nc, nd: nd, n: n, k: k, pf: pf, ncH: ncH}
	if pf != nil {
		w.gt = make([]float64, nc)
	}
	newState := func() State {
		s := NewState(nq, nc)
		if nd > 0 {
			s.X = make([]float64, nd)
		}
		return s
	}
	w.cur, w.prev = newState(), newState()
	w.lad = ladder{name: "hht", m: w, second: &w.ctl, stats: &w.stats, cur: &w.cur}
	w.lad.newton = &w.nw
	vec := func(k int) []float64 { return make([]float64, k) }
	w.u0, w.u, w.du, w.res = vec(n), vec(n), vec(n), vec(n)
	w.q, w.v, w.f, w.fx, w.tq, w.err = vec(nq), vec(nq), vec(nq), vec(nq), vec(nq), vec(nq)
	w.x, w.rate, w.errX = vec(nd), vec(nd), vec(nd)
	for i := range w.histU {
		w.histU[i] = vec(n)
		w.pred[i] = vec(n)
	}
	if sparse && nd == 0 {
		w.sp = newSparseEval(sys, true)
	}
	w.rx = newReactionDeferred(sys, w.sp) // its dense matrices wait for allocDense
	if w.sp != nil {
		w.lu = newBlockNewtonFactor(n, kktNewtonPattern(sys))
		w.kIdx = newKKTScatter(w.sp, &w.lu.csr)
		if pf != nil {
			w.spf = sys.(dae.SparsePfaffianRows) // a SparseEvaluator from WithPfaffianRows is one
			w.rv0 = w.sp.con.RowStart[ncH]
			w.rv = make([]float64, w.sp.con.NNZ()-w.rv0)
		}
		return w
	}
	if pf != nil {
		w.R = mat.NewDense(nc-ncH, nq, nil)
	}
	if nd > 0 {
		w.fo = sys.(dae.FirstOrder)
	}
	w.mm, _ = sys.(dae.MassMultiplier)
	if sparse && nd == 0 && w.mm != nil { // Pfaffian rows join massSchur's rows (precondition)
		w.mn = newMassNewton(sys) // the dense parts wait for a fallback
		if w.mn == nil && nq > massNewtonDenseMax {
			// λ-dependent forces: f_λ is in the residual, so GMRES has its columns; below
			// the bound the dense matrix with ∂f_λ is 3-4 × cheaper (BENCHMARKS.md,
			// "hht with joint friction on the Newton-Krylov path").
			w.mn = newMassNewtonReaction(sys)
		}
	}
	if w.mn != nil {
		w.kr, w.ku, w.kb, w.e1raw = newGMRES(n), vec(n), vec(n), vec(nq)
		if fd, ok := sys.(dae.ForwardDynamicsSolver); ok && w.mm != nil {
			w.fd, w.e1x = fd, vec(nq)
		}
		// pfaffianResidual reads A from G, so runs with Pfaffian rows keep G at the iterate
		if w.cf = dae.AsConstraintForcer(sys); w.cf != nil && pf == nil {
			w.mn.withoutG()
		} else {
			w.cf = nil
		}
	}
	if nc > 0 && !w.gFree() {
		w.G = mat.NewDense(nc, nq, nil)
	}
	if w.mn == nil {
		w.allocDense()
	}
	return w
}

// gFree reports whether the Newton-Krylov path runs without the nc×nq G: the residual adds
// Gᵀλ by the recursion (dae.ConstraintForcer) and the factorization evaluates G's
// loop-closure rows alone (massNewton.needsG). G is then formed only after a dense fallback.
func (w *hhtWork) gFree() bool { return w.cf != nil && w.mn != nil && !w.mn.needsG() }

// allocDense sizes the dense iteration matrix, M and the derivative work: at Init, or at
// the first fallback from the simplified mass matrix (massNewton), whose runs never
// store an nq×nq matrix otherwise.
func (w *hhtWork) allocDense() {
	if w.lu != nil {
		return
	}
	sys, nq, nd := w.sys, w.nq, w.nd
	if w.G == nil && w.nc > 0 {
		w.G = mat.NewDense(w.nc, nq, nil)
	}
	w.der = dae.NewDerivatives(sys)
	w.rx.allocDense(nq, w.nc)
	w.M, w.T1 = mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
	if nd > 0 {
		w.fod = dae.NewFirstOrderDerivatives(sys)
		w.Fq, w.Fv, w.Fx = mat.NewDense(nd, nq, nil), mat.NewDense(nd, nq, nil), mat.NewDense(nd, nd, nil)
		w.Xq, w.Xv, w.Xx = mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil), mat.NewDense(nq, nd, nil)
	}
	var pattern [][]int
	if nd == 0 {
		pattern = kktNewtonPattern(sys)
	}
	w.lu = newNewtonFactor(w.n, pattern)
}

// refuseDense refuses sys (without the Pfaffian rows) when the run has no Newton-Krylov
// corrector on it and would factorize eq. 14's dense matrix (refuseDenseNewton).
func (w *hhtWork) refuseDense(sys dae.System) error {
	if w.mn != nil {
		return nil
	}
	why := denseWhyTaking(sys, true, true) // newMassNewtonReaction, Pfaffian rows in massSchur
	if why == "" && w.nd > 0 {
		why = "first-order states"
	}
	return refuseDenseNewton("hht", Index3, sys, why)
}

// fallback leaves the simplified mass matrix for the exact one (simplifiable).
func (w *hhtWork) fallback() bool { return w.mn.fallbackTo(w.allocDense) }

// consistentStart computes a₀, λ₀ (index-1 KKT system, seed 002 eq. 17), X'₀ = F and
// r₀ = Gᵀλ₀ − f − f_X at the start. On the sparse evaluation path eq. 17 is factorized
// by the Newton matrix's LU (solveEq17OnNewton), whose pattern holds [M Gᵀ; G 0].
func (w *hhtWork) consistentStart() error {
	s := &w.cur
	w.force(w.f, s.T, s.Q, s.V, s.X)
	var err error
	if w.sp != nil {
		// the KKT matrix on the Newton matrix's pattern: one symbolic analysis for both
		err = solveEq17OnNewton(w.sys, w.sp, w.lu, &w.kIdx, w.du, s.A, s.Lambda, s.T, s.Q, s.V, w.f, &w.stats)
	} else {
		err = newEq17(w.sys).solveWithForce(s.A, s.Lambda, s.T, s.Q, s.V, w.f, &w.stats)
	}
	if err != nil {
		return startError("hht", s.T, err)
	}
	if w.nd > 0 {
		w.fo.StateRate(w.rate, s.T, s.Q, s.V, s.X)
	}
	w.packU(w.u0, s.A, s.Lambda, w.rate) // pseudo-acceleration a₀ = q̈(t₀) (seed 002, Example 8)
	w.histT[0] = s.T
	copy(w.histU[0], w.u0)
	w.nHist = 1
	return nil
}

// packU writes (a, λ, X') into u.
func (w *hhtWork) packU(u, a, lambda, xdot []float64) {
	copy(u, a)
	copy(u[w.nq:], lambda)
	copy(u[w.nq+w.nc:], xdot)
}

// force writes f + f_X into dst.
func (w *hhtWork) force(dst []float64, t float64, q, v, x []float64) {
	w.sys.Force(dst, t, q, v)
	if w.nd > 0 {
		w.fo.StateForce(w.fx, t, q, v, x)
		for i := range dst {
			dst[i] += w.fx[i]
		}
	}
}

// forceResidual writes r = Gᵀλ − f − f_X − f_λ at (t, q, v, X, λ) into dst (the bracket
// of eq. 10; f_λ of dae.ReactionForce), and g(t, q) into g when the sparse path evaluates
// it with G (sparseEval.evalGg), which it reports.
func (w *hhtWork) forceResidual(dst, g []float64, t float64, q, v, x, lambda []float64) (haveG bool) {
	w.force(dst, t, q, v, x)
	haveG = w.otherForces(dst, g, t, q, v, lambda)
	w.stats.FuncEvals++
	return haveG
}

// otherForces adds f_λ to dst, negates it and adds Gᵀλ (forceResidual after f and f_X),
// and writes g as forceResidual does.
func (w *hhtWork) otherForces(dst, g []float64, t float64, q, v, lambda []float64) (haveG bool) {
	w.rx.add(dst, t, q, v, lambda)
	for i := range dst {
		dst[i] = -dst[i]
	}
	switch {
	case w.sp != nil:
		haveG = w.sp.evalGg(g, t, q)
		w.sp.addGTx(dst, lambda, 1)
	case w.nc > 0 && w.cf != nil && w.mn.active(): // only jacobian reads G on this path
		w.cf.AddConstraintForce(dst, t, q, lambda)
	case w.nc > 0:
		w.sys.ConstraintJacobian(w.G, t, q)
		for i := range w.nc {
			row := w.G.RawRowView(i)
			for j, gij := range row {
				dst[j] += gij * lambda[i]
			}
		}
	}
	return haveG
}

// Step takes one accepted step toward tEnd (see Method). Its ladder on failure (ladder.step):
// a Newton failure with a reused matrix is retried once with a fresh one, then h is cut by
// 0.25; the next 10 converged attempts take fresh matrices when a reused one failed
// twice within 10 attempts, and the steps after a cut stay below 0.35 times the failed
// h, a bound relaxed by 1.1 per accepted step; an error-test failure shrinks h from the
// estimate (eq. 38b); below HMin, past MaxSteps, or on any Newton failure with FixedH, it
// returns a *StepError.
func (m *HHT) Step(tEnd float64) error {
	mustInit(m.w != nil, "hht")
	return m.w.lad.step(tEnd)
}

// setup sets the Newton floor (stepper).
func (w *hhtWork) setup(float64) error {
	c := w.lad.c
	// 10 ulps of q in the weights of eq. 35: ε(1+|q|)/(ATol + RTol|q|) ≤ ε/min(RTol, ATol).
	w.nw.mon.floor = tenUlpFloor(c.RTol, c.ATol) // an increment of 10 ulps of q
	w.nw.mon.needRate = true
	w.nw.staleHold = hhtStaleHold
	w.ctl.failCap, w.ctl.capRelax = hhtFailCap, hhtCapRelax
	return nil
}

// The step-size memory of hht's corrector (newtonSolver.staleHold, controller.failCap),
// chosen on the spinning 3D chains of examples/chain3d.yaml (N = 20, 100, 400; BENCHMARKS.md,
// "hht's Newton failures on the spinning chain"): after a reused matrix failed for the
// second time within 10 attempts the next 10 converged attempts take fresh ones; after a
// corrector failure at h_f the steps stay below 0.35·h_f, a bound relaxed by 1.1 per
// accepted step. At every size: on the small problems they move no work-precision count
// but the crank's at tol 1e-3, and on the example models they keep every error while the
// Euler-parameter double pendulum spends 7-28 % fewer instructions at tol ≥ 1e-5 and the
// planar ones up to 3 % more (fresh matrices for iterations); a threshold on nq + nc,
// which they had before, left out the small 3D models that gain most (BENCHMARKS.md,
// "hht's failure memory at every size").
const (
	hhtStaleHold = 10
	hhtFailCap   = 0.35
	hhtCapRelax  = 1.1
)

// hhtRefactorProducts is the cost of a new factorization of the Newton-Krylov
// preconditioner in GMRES products (massNewton.aged): K_g's Newton-Euler pass, the
// articulated-body factorization in place of the first solve's sweeps and the unscaled
// rows' product with M, against a product's residual evaluation and preconditioner solve
// (BENCHMARKS.md, "hht's factorization rule and GMRES floor on the joint route"), while
// P is poor as the Newton matrix (refactorCost).
const hhtRefactorProducts = 1

// failed lowers the predictor degree after a failed attempt: 1 after an error-test failure
// (a rough solution: trust low degrees, seed 004, prediction stage), 0 after a corrector
// failure.
func (w *hhtWork) failed(newton bool) {
	if newton {
		w.pOrder = 0
		return
	}
	w.pOrder = min(w.pOrder, 1)
}

// attempt predicts and corrects one step of size h (newtonSolver.attempt), with a fresh
// matrix unless JacobianAuto may keep the last one: it converged fast and h stays within
// the Deadband of the h it was assembled for.
func (w *hhtWork) attempt(h float64) (usedFresh int, cause error) {
	if w.fdReady() {
		return w.fdn.attempt(&w.nw, w, h)
	}
	needJ := !w.nw.keeps(h) || w.mn.stale() || w.mn.aged(w.refactorCost()) || w.fdn.stale
	return w.nw.attempt(w, h, needJ)
}

// newmark writes q₁, v₁ (eq. 2) and X₁ (eq. 9a) from the unknowns u.
func (w *hhtWork) newmark(h float64) {
	k, s, n := &w.k, &w.cur, w.nq
	a0, a := w.u0[:n], w.u[:n]                         // Newmark runs on the pseudo-accelerations
	q, v, q0, v0 := w.q[:n], w.v[:n], s.Q[:n], s.V[:n] // one length: no bounds checks in the loop
	beta, gamma := k.beta, k.gamma                     // held in registers across the stores
	hh, b0, g0 := h*h, 0.5-beta, 1-gamma               // the loop's invariant products, the same numbers
	for i := range n {
		q[i] = q0[i] + h*v0[i] + hh*(b0*a0[i]+beta*a[i])
		v[i] = v0[i] + h*(g0*a0[i]+gamma*a[i])
	}
	xd0, xd := w.u0[w.nq+w.nc:], w.u[w.nq+w.nc:]
	for i := range w.nd {
		w.x[i] = s.X[i] + h*xd0[i] + k.rho*h*(xd[i]-xd0[i])
	}
}

// evalResidual writes e = (e₁, e₂, e₃) of eq. 13 at the iterate into w.du.
func (w *hhtWork) evalResidual(t1, h float64) {
	k := &w.k
	nq, nc := w.nq, w.nc
	a, lambda, xd := w.u[:nq], w.u[nq:nq+nc], w.u[nq+nc:]
	e1, e2, e3 := w.du[:nq], w.du[nq:nq+nc], w.du[nq+nc:]
	if w.fdn.on {
		w.fdRows(e1, t1, a, lambda)
		return
	}
	var haveG bool
	if w.fd != nil && w.mn.inUse() {
		haveG = w.scaledRows(e1, e2, t1, a, lambda)
	} else {
		haveG = w.forceResidual(e1, e2, t1, w.q, w.v, w.x, lambda) // r₁ = Gᵀλ − f − f_X (also fills G)
		w.blend(a)
		w.addMass(e1, t1)
		w.scaledFD = false
		if w.scaled = w.mn.inUse() && !w.factorsHere; w.scaled { // at factor's iterate the scaling is I
			copy(w.e1raw, e1)
			w.mn.scaleRows(e1, w.mm, t1, w.q)
		}
	}
	if nc > 0 {
		if !haveG {
			w.sys.Constraint(e2, t1, w.q)
		}
		s := 1 / (k.beta * h * h)
		for i := range e2 {
			e2[i] *= s
		}
		w.pfaffianResidual(e2, t1, h)
	}
	if w.nd > 0 {
		w.fo.StateRate(w.rate, t1, w.q, w.v, w.x)
		for i := range e3 {
			e3[i] = xd[i] - w.rate[i]
		}
	}
}

// scaledRows writes e₁'s scaled rows M(q_F) M(q₁)⁻¹ e₁ (massNewton.scaleRows) into e1 by
// one forward-dynamics pass (dae.ForwardDynamicsSolver) and a product with M(q_F): with
// e₁ = M(q₁) ã − f − b, b = f_λ − Gᵀλ the terms of r₁ besides f (no f_X: massNewton runs
// without state rows), M(q₁)⁻¹ e₁ = ã − M(q₁)⁻¹ (f + b), which is kept in w.e1x for factor
// (its new matrix is at q₁, where the rows are M(q₁) w.e1x; when factor follows at this
// iterate, factorsHere, the rows are M(q₁) w.e1x at once, without the product with M(q_F)
// that factor would replace). Returns what forceResidual does.
func (w *hhtWork) scaledRows(e1, g []float64, t1 float64, a, lambda []float64) (haveG bool) {
	haveG = w.accelerationRows(e1, g, t1, a, lambda)
	x := w.e1x[:w.nq]
	w.scaledFD = true
	if w.factorsHere { // factor follows at q₁, where the scaling is I: the rows M(q₁) x at once
		w.mm.MassMul(e1, t1, w.q, x)
		w.scaled = false
	} else {
		w.mm.MassMul(e1, w.mn.schur.t, w.mn.schur.q, x)
		w.scaled = true
	}
	w.stats.FuncEvals++
	return haveG
}

// accelerationRows writes M(q₁)⁻¹ e₁ = ã − M(q₁)⁻¹ (f + b) (see scaledRows) into w.e1x by
// one forward-dynamics pass, with e1 as scratch, and returns what forceResidual does.
func (w *hhtWork) accelerationRows(e1, g []float64, t1 float64, a, lambda []float64) (haveG bool) {
	clear(e1)
	haveG = w.otherForces(e1, g, t1, w.q, w.v, lambda) // −b
	for i := range e1 {
		e1[i] = -e1[i]
	}
	w.fd.ForwardDynamics(w.e1x, t1, w.q, w.v, e1)
	w.blend(a)
	x, tq := w.e1x[:w.nq], w.tq[:w.nq]
	for i := range x {
		x[i] = tq[i] - x[i]
	}
	return haveG
}

// pfaffianResidual writes the rows of the nonholonomic constraints into e2: A(q₁) v₁ + b,
// scaled by 1/(γh) as g is by 1/(βh²), so that their derivative in a, A + (βh/γ)∂(A v + b)/∂q,
// stays bounded as h → 0 (the HHT-I3 treatment of Pfaffian rows, seed 004 after eq. 8). G
// holds (G; A) at q₁ (forceResidual).
func (w *hhtWork) pfaffianResidual(e2 []float64, t1, h float64) {
	if w.pf == nil {
		return
	}
	w.sys.ConstraintTimeDerivative(w.gt, t1, w.q)
	s := 1 / (w.k.gamma * h)
	for i := w.ncH; i < w.nc; i++ {
		r := w.gt[i]
		if w.sp != nil {
			lo := w.sp.con.RowStart[i]
			for t, j := range w.sp.con.Row(i) {
				r += w.sp.G[lo+t] * w.v[j]
			}
		} else {
			for j, aij := range w.G.RawRowView(i) {
				r += aij * w.v[j]
			}
		}
		e2[i] = s * r
	}
}

// addMass adds M(q₁)·w.tq to e1: by dae.MassMultiplier (O(N), M not formed) when sys has
// it, else from M.
func (w *hhtWork) addMass(e1 []float64, t1 float64) {
	if w.sp != nil {
		w.sp.evalM(t1, w.q)
		w.sp.addMul(e1, w.tq)
		return
	}
	if w.mm != nil {
		w.mm.MassMul(w.err, t1, w.q, w.tq)
		for i, ma := range w.err {
			e1[i] += ma
		}
		return
	}
	w.sys.Mass(w.M, t1, w.q)
	for i := range w.nq {
		row := w.M.RawRowView(i)
		var ma float64
		for j, mij := range row {
			ma += mij * w.tq[j]
		}
		e1[i] += ma
	}
}

// blend writes (a + α q̈ₙ)/(1+α) into w.tq, the vector M(q₁) multiplies in e₁ (see HHT).
func (w *hhtWork) blend(a []float64) {
	al, nq := w.k.alpha, w.nq
	d, tq, qn, a := 1+al, w.tq[:nq], w.cur.A[:nq], a[:nq] // one length: no bounds checks
	for i := range nq {
		tq[i] = (a[i] + al*qn[i]) / d
	}
}

// jacobian assembles the iteration matrix of eqs. 12 and 14 at the iterate into the LU's
// storage and factorizes it, or, for a dae.MassSolver system, factorizes its mass part
// [M/(1+α) Gᵀ; G 0] by the articulated-body recursion (massNewton).
func (w *hhtWork) jacobian(t1, h float64) error {
	if w.mn.active() {
		if w.cf != nil && w.G != nil { // the residual summed Gᵀλ without G
			w.sys.ConstraintJacobian(w.G, t1, w.q)
		}
		w.stats.Jacobians++
		w.stats.Factorizations++
		w.blend(w.u[:w.nq]) // the accelerations M(q₁) multiplies in e₁: the d'Alembert loads
		if w.scaledFD {     // the last residual's rows M(q_F)(ã − x) at this iterate: K_g at x
			w.mn.stiffenFD(t1, w.q, w.v, w.tq, w.e1x, w.u[w.nq:w.nq+w.nc], w.k.beta*h*h)
		} else {
			w.mn.stiffen(t1, w.q, w.v, w.tq, w.u[w.nq:w.nq+w.nc], w.k.beta*h*h)
		}
		w.chordSlow, w.fdn.stale = false, false
		return w.mn.factor(t1, w.q, w.G, 1/(1+w.k.alpha)) // G nil when gFree
	}
	if w.mn != nil {
		w.mn.simplified = false
	}
	if w.sp != nil {
		w.assembleSparse(t1, h)
	} else {
		w.assemble(w.lu.Matrix(), t1, h, 1)
	}
	w.stats.Jacobians++
	w.stats.Factorizations++
	return w.lu.Factor()
}

// assemble writes the iteration matrix of eqs. 12 and 14 at the iterate (q, v, X, u; G
// already evaluated at q) into the row-major n×n K. gScale multiplies the constraint rows:
// 1 for the scaled eq. 12, βh² for unscaled constraints.
func (w *hhtWork) assemble(K []float64, t1, h, gScale float64) {
	k := &w.k
	nq, nc, nd, n := w.nq, w.nc, w.nd, w.n
	a, lambda := w.u[:nq], w.u[nq:nq+nc]
	clear(K)
	bh2, gh := k.beta*h*h, k.gamma*h
	// J₁₁ = M/(1+α) + βh²((M b)_q + (Gᵀλ)_q − f_q) − γh f_v,  b = (a + α q̈ₙ)/(1+α)
	w.sys.Mass(w.M, t1, w.q)
	w.blend(a)
	w.der.MassDerivative(w.T1, t1, w.q, w.tq)
	for i := range nq {
		mi, ti := w.M.RawRowView(i), w.T1.RawRowView(i)
		for j := range nq {
			K[i*n+j] = mi[j]/(1+k.alpha) + bh2*ti[j]
		}
	}
	addBlock := func(B *mat.Dense, s float64, r0, c0 int) {
		rows, cols := B.Dims()
		for i := range rows {
			bi := B.RawRowView(i)
			for j := range cols {
				K[(r0+i)*n+c0+j] += s * bi[j]
			}
		}
	}
	if nc > 0 {
		w.der.ConstraintForceDerivative(w.T1, t1, w.q, lambda)
		addBlock(w.T1, bh2, 0, 0)
	}
	w.der.ForceDerivativeQ(w.T1, t1, w.q, w.v)
	addBlock(w.T1, -bh2, 0, 0)
	w.der.ForceDerivativeV(w.T1, t1, w.q, w.v)
	addBlock(w.T1, -gh, 0, 0)
	if w.rx != nil {
		// f_λ: like f in J₁₁, and −∂f_λ/∂λ beside Gᵀ (seed 004, eq. 14 with Q = Q(λ))
		w.rx.derivatives(t1, w.q, w.v, lambda)
		w.rx.addDense(K, n, 0, 0, 0, nq, -bh2, -gh, -1)
	}
	if nd > 0 {
		// f_X enters e₁ with a minus sign; X₁ depends on X'₁ through ρh (eq. 9b).
		w.fod.StateForceDerivative(w.Xq, w.Xv, w.Xx, t1, w.q, w.v, w.x)
		addBlock(w.Xq, -bh2, 0, 0)
		addBlock(w.Xv, -gh, 0, 0)
		addBlock(w.Xx, -k.rho*h, 0, nq+nc)
		// e₃ = X' − F: [−(βh² F_q + γh F_v), 0, I − ρh F_X]
		w.fod.StateRateDerivative(w.Fq, w.Fv, w.Fx, t1, w.q, w.v, w.x)
		addBlock(w.Fq, -bh2, nq+nc, 0)
		addBlock(w.Fv, -gh, nq+nc, 0)
		addBlock(w.Fx, -k.rho*h, nq+nc, nq+nc)
		for i := range nd {
			K[(nq+nc+i)*n+nq+nc+i] += 1
		}
	}
	if nc > 0 {
		// G was evaluated at the iterate by residual (forceResidual) or by the caller.
		for i := range nc {
			gi := w.G.RawRowView(i)
			for j := range nq {
				K[j*n+nq+i] += gi[j] // Gᵀ
			}
			if i < w.ncH {
				for j := range nq {
					K[(nq+i)*n+j] += gScale * gi[j] // G (scaled eq. 12) or βh² G
				}
			}
		}
		w.assemblePfaffian(K, t1, h, gScale == 1)
	}
}

// assemblePfaffian writes the rows of the nonholonomic constraints into K: the derivative
// of A(q₁) v₁ + b in a, γh A + βh² ∂(A v + b)/∂q, times 1/(γh) when scaled (pfaffianResidual).
func (w *hhtWork) assemblePfaffian(K []float64, t1, h float64, scaled bool) {
	if w.pf == nil {
		return
	}
	k, nq, n := &w.k, w.nq, w.n
	w.pf.PfaffianRateDerivative(w.R, t1, w.q, w.v)
	cA, cR := k.gamma*h, k.beta*h*h
	if scaled {
		cA, cR = 1, k.beta*h/k.gamma
	}
	for i := w.ncH; i < w.nc; i++ {
		ai, ri := w.G.RawRowView(i), w.R.RawRowView(i-w.ncH)
		row := K[(nq+i)*n:]
		for j := range nq {
			row[j] += cA*ai[j] + cR*ri[j]
		}
	}
}

// assembleSparse writes the iteration matrix of eq. 12 (assemble with gScale 1, no
// first-order states) at the iterate into the LU's values from the sparse evaluator, M
// and G already evaluated at q by the residual: the same terms added in the same order as assemble (the
// Pfaffian rows' A and (βh/γ)R one after the other, where assemble adds their sum to a
// zero entry: the same number).
func (w *hhtWork) assembleSparse(t1, h float64) {
	k, sp, x := &w.k, w.sp, &w.kIdx
	a, lambda := w.u[:w.nq], w.u[w.nq:w.nq+w.nc]
	K := w.lu.Values()
	clear(K)
	bh2, gh := k.beta*h*h, k.gamma*h
	w.blend(a) // sp.M, like G, holds M(q) from the residual at this iterate (addMass)
	scatterAddDiv(K, x.m, sp.M, 1+k.alpha)
	if sp.massDerivative(t1, w.q, w.tq) {
		scatterAdd(K, x.c, sp.C, bh2)
	}
	if w.nc > 0 {
		sp.se.ConstraintForceDerivativeValues(sp.C, t1, w.q, lambda)
		scatterAdd(K, x.c, sp.C, bh2)
	}
	sp.se.ForceDerivativeQValues(sp.C, t1, w.q, w.v)
	scatterAdd(K, x.c, sp.C, -bh2)
	sp.se.ForceDerivativeVValues(sp.C, t1, w.q, w.v)
	scatterAdd(K, x.c, sp.C, -gh)
	if w.rx != nil {
		w.rx.derivatives(t1, w.q, w.v, lambda)
		w.rx.addSparse(K, x.c, x.c, x.gt, -bh2, -gh, -1)
	}
	scatterAdd(K, x.gt, sp.G, 1)
	scatterAdd(K, x.g, sp.G, 1)
	if w.spf != nil {
		// the Pfaffian rows: A (above, as the scaled G) + (βh/γ) ∂(A v + b)/∂q (assemblePfaffian)
		w.spf.PfaffianRateValues(w.rv, t1, w.q, w.v)
		scatterAdd(K, x.g[w.rv0:], w.rv, k.beta*h/k.gamma)
	}
}

// The corrector (newtonIteration for newtonSolver): the unknowns u = (a, λ, X'), the
// residual of eq. 13 and the matrix of eqs. 12 and 14; it stops by eqs. 40-47.

// residual evaluates eq. 13 at the iterate into w.du (and w.res for reports).
func (w *hhtWork) residual() error {
	h := w.hTry
	if !w.qOfU {
		w.newmark(h)
	}
	w.qOfU = false
	w.factorsHere = w.freshJ || w.nw.s.Jacobian == JacobianEveryIteration
	w.freshJ = false // the attempt's later iterates reuse its factorization
	w.evalResidual(w.cur.T+h, h)
	w.factorsHere = false
	copy(w.res, w.du)
	return finiteResidual(w, w.du)
}

// factor assembles and factorizes the iteration matrix at the iterate.
func (w *hhtWork) factor() error {
	h := w.hTry
	before := w.fdEvals()
	err := w.jacobian(w.cur.T+h, h)
	w.stats.FDEvals += w.fdEvals() - before
	if w.scaled { // the new matrix is at this iterate, where the scaling is I
		if w.scaledFD { // the rows M(q₁) (ã − M⁻¹(f + b)) of scaledRows
			w.mm.MassMul(w.e1raw, w.cur.T+h, w.q, w.e1x)
		}
		copy(w.du, w.e1raw)
		copy(w.res, w.e1raw)
	}
	w.scaled, w.scaledFD = false, false
	if err != nil {
		w.noteWorstResidual()
		if !w.mn.inUse() && !allFinite(w.lu.stored()) {
			return ErrNonFinite
		}
		return err
	}
	return nil
}

// fdEvals is the number of System evaluations spent on finite-difference derivatives.
func (w *hhtWork) fdEvals() int {
	var n int
	if w.der != nil {
		n = w.der.Evals
	}
	if w.fod != nil {
		n += w.fod.Evals
	}
	return n
}

// increment solves for Δu, applies it and returns the norm of the change of the error
// estimates (eqs. 46-47): δ_q = errQ·h²·Δa, δ_X = errX·h·ΔX', both in the weights of eq. 35.
// The monitor stops only once a rate ξ has been measured (seed 004 after eq. 46;
// needRate): a rate carried from the previous step let first iterates with |g| up to tol
// through, since the stop measures Δa by its effect on δ_q.
func (w *hhtWork) increment() float64 {
	k, h := &w.k, w.hTry
	for i, d := range w.du {
		w.du[i] = -d
	}
	if w.nw.singular {
		dropRoundedConstraints(w.du[w.nq:w.nq+w.ncH], k.beta*h*h, w.q) // rows g/(βh²)
	}
	w.chorded = false
	if w.fdn.on {
		if norm, taken := w.fdIncrement(h); taken {
			return norm
		}
	}
	if w.mn.inUse() {
		w.krylov()
	} else {
		w.lu.Solve(w.du)
	}
	norm := w.apply(h)
	switch {
	case !w.chorded:
		w.chordRate = -1 // GMRES measured P
	case w.nw.mon.iter >= 1 && w.nw.mon.prev > 0:
		w.chordRate = norm / w.nw.mon.prev
	}
	if w.chorded && w.chordPoor(norm) {
		// A chord increment that contracts poorly or that the monitor would call
		// divergent: redo it by GMRES from the same iterate (its residual is w.res)
		// instead of taking it and failing or slowing the attempt.
		copy(w.u, w.ku)
		w.newmark(h)
		for i, r := range w.res {
			w.du[i] = -r
		}
		if w.nw.singular {
			dropRoundedConstraints(w.du[w.nq:w.nq+w.ncH], k.beta*h*h, w.q)
		}
		w.chordSlow = true
		w.mn.note(2)
		w.krylov()
		norm = w.apply(h) // chordRate keeps the poor chord's rate: P's newest measure as the Newton matrix
	}
	return norm
}

// chordPoor reports whether a chord increment of weighted norm norm is redone by GMRES
// (increment): its rate θ against the attempt's previous increment exceeds hhtChordRel,
// or the monitor would declare divergence. The first increment of an attempt has no rate
// and is kept.
func (w *hhtWork) chordPoor(norm float64) bool {
	mon := &w.nw.mon
	if w.nw.rule != nil || mon.iter < 1 || mon.prev == 0 {
		return false
	}
	return norm > hhtChordRedoRate*mon.prev || mon.wouldDiverge(norm)
}

// hhtChordRedoRate is chordPoor's bound on a chord increment's rate. On the 1000-rod chain
// at tol 1e-4 with a factorization at every step (BENCHMARKS.md, "hht's chord step that
// falls back to GMRES within the attempt") 0.1 and 0.3 redo the same one increment and
// remove the Newton failure; 2e-2 (hhtChordRel) redid three, more evaluations and a
// larger error.
const hhtChordRedoRate = 0.1

// apply adds the increment w.du to the iterate u, updates q, v, X from it (newmark) and
// returns the norm of the change of the error estimates (increment).
func (w *hhtWork) apply(h float64) float64 {
	u, du := w.u, w.du[:len(w.u)] // one length: no bounds checks
	for i := range u {
		u[i] += du[i]
	}
	w.newmark(h)
	w.qOfU = true
	return w.incrementNorm(h)
}

// incrementNorm is the norm apply returns, of the increment in w.du at the iterate in w.q.
func (w *hhtWork) incrementNorm(h float64) float64 {
	k := &w.k
	c, errQ := k.errQ*h*h, w.err[:w.nq] // the product (errQ·h)·h as before
	for i, d := range w.du[:len(errQ)] {
		errQ[i] = c * d
	}
	norm := w.lad.c.weightedRMS(w.err, w.cur.Q, w.q, len(w.err), 1)
	if w.nd > 0 {
		dx := w.du[w.nq+w.nc:]
		for i := range w.nd {
			w.errX[i] = k.errX * h * dx[i]
		}
		if k.errX == 0 { // ρ = 1/2 (fixed steps only): measure ΔX' by h·ΔX'
			for i := range w.nd {
				w.errX[i] = h * dx[i]
			}
		}
		norm = math.Max(norm, WeightedRMS(w.errX, w.cur.X, w.x, w.lad.c.RTol, w.lad.c.ATol))
	}
	return norm
}

// krylov overwrites w.du (holding −e) with the Newton increment J⁻¹(−e) of the exact
// iteration matrix J of eq. 12, by GMRES on products J z (jacVec) preconditioned by the
// mass part [M/(1+α) Gᵀ; G 0] (massNewton): M is never formed.
//
// The increment is P⁻¹(−e) itself, a chord step with the preconditioner P as the Newton
// matrix and no product, when chord says P is that accurate; the corrector's rate test
// then judges it as any increment.
func (w *hhtWork) krylov() {
	if w.chord() {
		copy(w.ku, w.u) // the iterate, should the chord increment be redone (increment)
		w.mn.solve(w.du)
		w.mn.solved(true)
		w.chorded = true
		return
	}
	copy(w.kb, w.du)
	copy(w.ku, w.u)
	w.mn.solved(w.kr.solve(w, w.kb))
	w.mn.note(w.kr.products)
	if w.nw.mon.iter == 0 && !w.nw.fresh && w.kr.products == 1 {
		w.mn.note(2) // the product a fresh factorization's chord would have saved
	}
	w.lastProducts, w.lastRel1, w.chordSlow = w.kr.products, w.kr.rel1, false
	copy(w.u, w.ku)
	copy(w.du, w.kb)
}

// chord reports whether the next Newton increment is taken as P⁻¹(−e) (krylov): at the
// first iteration of an attempt whose preconditioner was factorized at its predictor,
// and at later iterations when the last GMRES solve took one product with a relative
// residual below hhtChordRel after it (P⁻¹ J within that of the identity on the last
// right side). A chord iteration whose rate θ exceeds hhtChordRel sends the attempt back
// to GMRES and counts as a product above one toward a new factorization (massNewton.aged);
// one whose rate exceeds hhtChordRedoRate, or that the monitor would call divergent, is
// redone by GMRES from the same iterate (increment, chordPoor).
// A reused preconditioner's first iteration always takes GMRES, which measures it (a
// chord there failed attempts on the 400- and 1000-rod chains at tol 1e-4), and its one
// product counts toward a new factorization too (krylov: the product a fresh one's chord
// would have saved; the 400-rod chain at tol 1e-6 then refactorizes about every other
// step; BENCHMARKS.md, "hht's factorization rule and GMRES floor on the joint route").
// JacobianEveryIteration keeps GMRES at every iteration.
func (w *hhtWork) chord() bool {
	mon := &w.nw.mon
	if mon.iter >= 2 && mon.theta > hhtChordRel && !w.chordSlow {
		w.chordSlow = true
		w.mn.note(2)
	}
	switch {
	case w.chordSlow || w.nw.s.Jacobian == JacobianEveryIteration: // full Newton asked for
		return false
	case mon.iter == 0:
		return w.nw.fresh
	}
	return w.chordGood()
}

// chordGood reports whether the newest measure of the preconditioner P says it serves as
// the Newton matrix: the rate θ of the last chord increment below hhtChordRel when that
// is newer than the last GMRES solve (chordRate), else that solve took one product with
// a relative residual below hhtChordRel after it. Without the chord rates a run that
// factorizes at every step and takes chords alone would judge P by a GMRES solve of long
// ago (on the 1000-rod chain at tol 1e-4, one at h = 1e-5 judged P at h = 0.05).
func (w *hhtWork) chordGood() bool {
	if w.chordRate >= 0 {
		return w.chordRate < hhtChordRel
	}
	return w.lastProducts == 1 && w.lastRel1 < hhtChordRel
}

// refactorCost is the price of a new factorization in GMRES products above one per solve
// (massNewton.aged): none while chordGood, so that every attempt factorizes at its
// predictor and takes chord increments, two residuals and no product per step when both
// pass; hhtRefactorProducts while P is poor, where a fresh P saves few products and
// reusing it keeps GMRES's measure at the first iteration. With the parts of a
// factorization cheaper (K_g's pass on bodies only, no product with the old M(q_F) at its
// iterate) it costs about one product: on the 3D chain at N = 100, 400, 1000 and tol
// 1e-6, 1e-4 the three cut 13-41 % of the instructions per step with the same steps and
// errors, 3 % on the 1000-rod chain at tol 1e-4 (its q error 1.8e-4 → 1.0e-4), where a
// factorization at every step alone cost 14 % more (BENCHMARKS.md, "hht on the 400-rod
// chain (issue 15 item 5; session 19, hht19)").
func (w *hhtWork) refactorCost() int {
	if w.chordGood() {
		return 0
	}
	return hhtRefactorProducts
}

// hhtChordRel is chord's bound on GMRES's relative residual after one product and on a
// chord iteration's rate: twice GMRES's forcing term gmresRTol.
const hhtChordRel = 2 * gmresRTol

// jacVec writes J z ≈ (e(u + εz) − e(u))/ε into dst (krylovSystem): the iteration matrix
// of eq. 12 applied to z by a forward difference of the residual eq. 13, one evaluation
// of f, M z (dae.MassMultiplier), G and g, with ε from perturb. e(u) is w.res.
func (w *hhtWork) jacVec(dst, z []float64) {
	h := w.hTry
	eps := perturb(w.u, w.ku, z, (1+norm2(w.cur.Q))/(w.k.beta*h*h), w.kr.noise)
	if eps == 0 {
		clear(dst)
		return
	}
	w.newmark(h)
	w.evalResidual(w.cur.T+h, h)
	for i := range dst {
		dst[i] = (w.du[i] - w.res[i]) / eps
	}
}

// precondition applies the mass part's inverse (krylovSystem). The Pfaffian rows need no
// scaling of their right side (genalpha's pfaffianPrecond): scaled by 1/(γh) in e₂
// (pfaffianResidual), their derivative in a is A + (βh/γ) ∂(A v + b)/∂q, whose leading
// term A sits in massNewton's G = (G; A) as the holonomic rows' G does; the O(h) term is
// left out with the other O(h) terms.
func (w *hhtWork) precondition(x []float64) { w.mn.solve(x) }

// converged checks the converged unknowns.
func (w *hhtWork) converged() error { return trustedIterate(w, w.mn, w.u) }

// diverged names the worst residual of a diverged iteration.
func (w *hhtWork) diverged() error { return notedDivergence(w, w.du) }

// noteWorstResidual records the largest component of the last residual (e₁, e₂, e₃) with
// its owner for a failure report.
func (w *hhtWork) noteWorstResidual() {
	bi := largest(w.res)
	r := Residual{Value: w.res[bi]}
	switch {
	case bi < w.nq:
		r.Block, r.Index, r.Owner = "equation of motion", bi, dae.CoordinateName(w.sys, bi)
	case bi < w.nq+w.nc:
		r.Block, r.Index = "position constraint", bi-w.nq
		r.Owner = dae.ConstraintName(w.sys, r.Index)
		r.Value *= w.k.beta * w.hTry * w.hTry // g itself, not g/(βh²)
	default:
		r.Block, r.Index = "first-order state", bi-w.nq-w.nc
	}
	w.lad.worst = r
}

// errorNorm returns e = max(e_q, e_X^(3/2)) (seed 004, eqs. 26, 34-37; see HHT) and
// records the worst position component for a failure report. With FixedH the ladder
// only checks it for divergence (fixedStepDiverged).
func (w *hhtWork) errorNorm(h float64) float64 {
	k := &w.k
	a0, a := w.u0[:w.nq], w.u[:w.nq]
	for i := range w.nq {
		w.err[i] = k.errQ * h * h * (a[i] - a0[i]) // eq. 26
	}
	e := w.lad.c.weightedRMS(w.err, w.cur.Q, w.q, len(w.err), 1)
	if w.nd > 0 {
		xd0, xd := w.u0[w.nq+w.nc:], w.u[w.nq+w.nc:]
		for i := range w.nd {
			w.errX[i] = k.errX * h * (xd[i] - xd0[i]) // eq. 34
		}
		ex := WeightedRMS(w.errX, w.cur.X, w.x, w.lad.c.RTol, w.lad.c.ATol)
		e = math.Max(e, math.Pow(ex, 1.5)) // h_new^X = s h e_X^(−1/2) = s h (e_X^(3/2))^(−1/3)
	}
	if !(e <= 1) && (w.lad.c.FixedH == 0 || fixedStepDiverged(e, w.lad.c.RTol)) { // a failure to report
		bi := w.lad.c.worstWeighted(w.err, w.cur.Q, w.q, len(w.err), 1)
		w.lad.worst = Residual{Block: "position error estimate", Index: bi, Value: w.err[bi], Owner: dae.CoordinateName(w.sys, bi)}
	}
	return e
}

// commit makes the converged iterate the current state and updates the predictor.
func (w *hhtWork) commit(h float64) error {
	if !w.lad.fixed {
		w.notePeak(h)
	}
	w.prev.CopyFrom(&w.cur)
	s := &w.cur
	s.T += h
	copy(s.Q, w.q)
	copy(s.V, w.v)
	copy(s.X, w.x)
	w.blend(w.u[:w.nq])
	copy(s.A, w.tq) // q̈ₙ₊₁ = (aₙ₊₁ + α q̈ₙ)/(1+α): with e₁ = 0, M q̈ₙ₊₁ = f − Gᵀλ at tₙ₊₁
	copy(s.Lambda, w.u[w.nq:w.nq+w.nc])
	copy(w.u0, w.u)
	w.stats.Steps++
	w.mn.accepted()
	w.fdn.accepted()
	w.choosePredictor()
	// Shift the history: newest first.
	last := w.histU[len(w.histU)-1]
	copy(w.histU[1:], w.histU[:len(w.histU)-1])
	copy(w.histT[1:], w.histT[:len(w.histT)-1])
	w.histU[0] = last
	copy(w.histU[0], w.u)
	w.histT[0] = s.T
	w.nHist = min(w.nHist+1, len(w.histU))
	return nil
}

// notePeak records the weighted components of the accepted step's δ_q (errorNorm left it
// in w.err, the step's end in w.q) in the run's peak (errorPeak).
func (w *hhtWork) notePeak(h float64) {
	c, nq := &w.lad.c, w.nq
	e, y0, y1 := w.err[:nq], w.cur.Q[:nq], w.q[:nq]
	rtol, atol, perQ, t := c.RTol, c.ATol, c.ATolQ != nil, w.cur.T+h
	for i, x := range e {
		d := atol + rtol*max(math.Abs(y0[i]), math.Abs(y1[i]))
		if perQ {
			d = c.weight(i, y0, y1, nq, 1)
		}
		w.observe(i, x, d, t)
	}
}

var _ ControlWarner = (*HHT)(nil)

// ControlWarnings warns when an accepted step's error estimate δ_q (eq. 26) was more than
// localPeakRatio × tol in one coordinate: the step test bounds the weighted RMS of δ_q
// over all nq coordinates (eqs. 35-36), which lets a single coordinate reach √nq × tol,
// and on a long chain the error concentrates in the few joint angles at a front
// travelling along it. Measured on the joint route's 3D chain (BenchmarkChain3DHHTLocalError
// in joint; BENCHMARKS.md, "hht's tolerance on the joint route's long chains"): the
// estimate finds the true local error in the same angle (its largest component 0.7-4.9 ×
// the true largest), and that component is 8-12 × tol on 100 rods, 10-25 × on 400 rods; the largest angle error
// at t = 0.15 s was 1.5e-5 rad at tol 1e-8 (100 rods) and 2.5e-5 (400 rods). Without
// steps or with FixedH it returns nil.
func (m *HHT) ControlWarnings() []string {
	w := m.w
	if w == nil {
		return nil
	}
	return w.warnings(w.lad.fixed, "hht", dae.CoordinateName(w.sys, w.peakIdx), w.nq, "coordinates", "seed 004, eqs. 35-36")
}

// KrylovCounts returns the GMRES work of hht's Newton-Krylov corrector so far (zero off
// it, on the dense or sparse matrix): one solve per Newton iteration, and the products
// J z each took, one residual evaluation apiece (with diffNoise's measurements).
func (m *HHT) KrylovCounts() KrylovCounts {
	if m.w == nil || m.w.kr == nil {
		return KrylovCounts{}
	}
	return m.w.kr.total
}

// predict starts an attempt of size h from the extrapolated unknowns (extrapolate).
func (w *hhtWork) predict(h float64, freshJ bool) error {
	w.hTry, w.qOfU, w.freshJ = h, false, freshJ
	w.fdn.begin(freshJ)
	w.mn.attempt()
	w.extrapolate(h)
	return nil
}

// extrapolate writes the starting iterate u at t₁ = t_n + h: the extrapolation of degree
// pOrder through the last pOrder+1 accepted unknowns (Newton divided differences,
// evaluated by Horner's scheme; seed 004, prediction stage). It fills w.pred[d] for every
// available degree d so that choosePredictor can compare them after the step.
func (w *hhtWork) extrapolate(h float64) {
	t1 := w.cur.T + h
	deg := min(w.nHist-1, w.maxOrder)
	var c, tt [4]float64
	for d := 0; d <= deg; d++ {
		tt[d] = w.histT[d]
	}
	if deg == 3 {
		w.extrapolateCubic(t1, &tt)
		copy(w.u, w.pred[min(w.pOrder, deg)])
		return
	}
	for i := range w.n {
		for d := 0; d <= deg; d++ {
			c[d] = w.histU[d][i]
		}
		// Divided differences in place: c[d] = u[t₀, …, t_d] (t₀ newest).
		for lvl := 1; lvl <= deg; lvl++ {
			for d := deg; d >= lvl; d-- {
				c[d] = (c[d] - c[d-1]) / (tt[d] - tt[d-lvl])
			}
		}
		for p := 0; p <= deg; p++ { // Horner for each degree p
			y := c[p]
			for d := p - 1; d >= 0; d-- {
				y = c[d] + (t1-tt[d])*y
			}
			w.pred[p][i] = y
		}
	}
	copy(w.u, w.pred[min(w.pOrder, deg)])
}

// extrapolateCubic is extrapolate's loop for degree 3, the steady state, with the
// divided differences and Horner's schemes written out on scalars and the differences of
// times computed once: the same operations on every component in the same order, so
// the same numbers, without the loop's indexing into small arrays.
func (w *hhtWork) extrapolateCubic(t1 float64, tt *[4]float64) {
	n := w.n
	h0, h1, h2, h3 := w.histU[0][:n], w.histU[1][:n], w.histU[2][:n], w.histU[3][:n]
	p0, p1, p2, p3 := w.pred[0][:n], w.pred[1][:n], w.pred[2][:n], w.pred[3][:n]
	d10, d21, d32 := tt[1]-tt[0], tt[2]-tt[1], tt[3]-tt[2] // level 1: t_d − t_{d−1}
	d20, d31 := tt[2]-tt[0], tt[3]-tt[1]                   // level 2
	d30 := tt[3] - tt[0]                                   // level 3
	e0, e1, e2 := t1-tt[0], t1-tt[1], t1-tt[2]
	for i := range n {
		c0, c1, c2, c3 := h0[i], h1[i], h2[i], h3[i]
		c3, c2, c1 = (c3-c2)/d32, (c2-c1)/d21, (c1-c0)/d10
		c3, c2 = (c3-c2)/d31, (c2-c1)/d20
		c3 = (c3 - c2) / d30
		p0[i] = c0
		p1[i] = c0 + e0*c1
		p2[i] = c0 + e0*(c1+e1*c2)
		p3[i] = c0 + e0*(c1+e1*(c2+e2*c3))
	}
}

// choosePredictor picks the degree for the next step: the one whose extrapolation came
// closest to the converged unknowns of this step (weighted by 1 + |u|), raised by one
// when the history allows a degree not yet tried, within PredictorOrder. Smooth solutions
// thus climb to cubic prediction, while steps after rejections or near discontinuities
// fall back to low degrees (seed 004 bases the choice on smoothness and rejections).
func (w *hhtWork) choosePredictor() {
	deg := min(w.nHist-1, w.maxOrder)
	var sums [4]float64 // Σ_i ((pred_p,i − u_i)/(1 + |u_i|))² for each degree p, i in order
	u := w.u
	for p, pr := range w.pred[:deg+1] {
		pr = pr[:len(u)] // one length: no bounds checks
		var s float64
		for i, ui := range u {
			d := (pr[i] - ui) / (1 + math.Abs(ui))
			s += d * d
		}
		sums[p] = s
	}
	best, bestE := 0, math.Inf(1)
	for p, s := range sums[:deg+1] {
		if s < bestE || (p == 0 && math.IsNaN(s)) {
			best, bestE = p, s
		}
	}
	if best == deg && deg < w.maxOrder && w.nHist < len(w.histU) {
		best++ // the next step has one more point of history: try the next degree
	}
	w.pOrder = best
}

// Interpolate writes the dense output at t in [Previous().T, Current().T] into dst by
// cubic Hermite interpolation (hermiteInterpolate: q and v third order, q̈, λ, X linear);
// dst needs the sizes of Current().
func (m *HHT) Interpolate(dst *State, t float64) { hermiteInterpolate(dst, &m.w.prev, &m.w.cur, t) }

// HHTIterationCond returns the 1-norm condition number ‖J‖₁‖J⁻¹‖₁ of the HHT iteration
// matrix J (seed 004, eqs. 12 and 14) at the state s for step h and parameter alpha: with
// scaled true the constraint rows are G (position constraints divided by βh², eq. 12),
// with scaled false they are βh²·G (the unscaled constraints, option (b) after eq. 14).
// It returns +Inf for a singular matrix. A diagnostic: it allocates.
func HHTIterationCond(sys dae.System, s State, h, alpha float64, scaled bool) float64 {
	w := newHHTWork(sys, newHHTCoef(alpha, 0), false)
	copy(w.q, s.Q)
	copy(w.v, s.V)
	copy(w.x, s.X)
	w.packU(w.u, s.A, s.Lambda, make([]float64, w.nd))
	copy(w.cur.A, s.A) // q̈ₙ = a: the blend (a + α q̈ₙ)/(1+α) is then a
	if w.nc > 0 {
		w.sys.ConstraintJacobian(w.G, s.T, s.Q)
	}
	gScale := 1.0
	if !scaled {
		gScale = w.k.beta * h * h
	}
	J := mat.NewDense(w.n, w.n, nil)
	w.assemble(J.RawMatrix().Data, s.T, h, gScale)
	return mat.Cond(J, 1)
}
