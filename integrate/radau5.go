package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// Radau5 integrates the first-order form K y' = φ(t, y) of the equations of motion
// (semiexplicit.go; y = (q, v, a, λ[, μ])) by the 3-stage Radau IIA collocation method of
// order 5, implemented as Hairer and Wanner's RADAU5 (Hairer & Wanner 1996, "Solving
// Ordinary Differential Equations II", IV.8, and VII.4 for the DAE case; seed 002,
// section 4.2, Examples 10-11). With the stage increments Z = (z₁, z₂, z₃), z_i = Y_i − y₀,
// the method is (IV.8, the reformulated nonlinear system, with the mass matrix K)
//
//	(A⁻¹ ⊗ K) Z = h Φ(Z),    Φ_i = φ(t₀ + c_i h, y₀ + z_i),    y₁ = y₀ + z₃.
//
// Simplified Newton (IV.8) with J ≈ ∂φ/∂y at (t₀, y₀) is decoupled by the eigenvalues
// of A⁻¹ (IV.8, "the linear system"): with W = (T⁻¹ ⊗ I) Z and T⁻¹A⁻¹T = [γ 0 0; 0 α −β; 0 β α],
//
//	(γ/h K − J) ΔW₁ = (T⁻¹Φ)₁ − γ/h K W₁                                       (real, n×n)
//	((α+iβ)/h K − J)(ΔW₂ + iΔW₃) = (T⁻¹Φ)₂ − K(αW₂ − βW₃)/h + i[(T⁻¹Φ)₃ − K(βW₂ + αW₃)/h]
//
// the second solved in complex arithmetic (radauSystems: dense LUs, or linalg.SparseLU and
// linalg.ComplexSparseLU on the pattern of the first-order form for systems that declare
// their sparsity and have at least 40 unknowns, as bdf; one real and one complex
// factorization count as one Factorizations event, the test set's "nlu"). The iteration starts from the collocation polynomial of the previous step
// extrapolated to the new stages (IV.8, "starting values") and stops when
// θ/(1−θ)·‖ΔW‖ ≤ FNEWT (IV.8, stopping criterion; ‖·‖ the scaled RMS norm below; at the
// first iteration θ/(1−θ) is the last attempt's, FACCON, and radau5 also asks ‖ΔW‖ ≤ 1
// there, which RADAU5 does not: radauMonitor.staleFirst); a rate
// θ that predicts no convergence within MaxIters cuts h at once by
// 0.8·(predicted error)^(−1/(4+left)).
//
// Error estimate (IV.8, the embedded formula with γ₀ = 1/γ):
//
//	err = (γ/h K − J)⁻¹ [φ(t₀, y₀) + K(d₁z₁ + d₂z₂ + d₃z₃)/h],   d = −(13+7√6)/3, (−13+7√6)/3, −1/3,
//
// repeated once with φ(t₀, y₀ + err) after a rejection or at the first step when it is
// ≥ 1 (IV.8, for stiff components). Its norm is sqrt(mean((err_i / sc_i)²)) with
// sc_i = (ATol' + RTol'|y₀_i|) / h^(k_i − 1), k_i the index of component i
// (semiExplicit.index: RADAU5's NIND1/2/3 blocks; index-2 components are measured by
// h·err, index-3 ones by h²·err), and the same scales weigh the Newton increments, with
// two exceptions: v with λ-dependent forces (below), and ggl's μ, measured on systems of
// sparseMinSize unknowns and more by the q increment it stands for in the decoupled
// systems, (h/γ)·GᵀΔW₁_μ and (h/|α+iβ|)·GᵀΔW₂,₃_μ, in q's scales (radauWork.muNorm2).
//
// Index3 with forces that depend on λ (dae.ReactionForce, joint friction): v is measured
// at its index-1 scale, ATol' + RTol'|v₀| without the 1/h, in the error test and in the
// Newton norm. The tangential part of v is a differential variable of the motion on the
// constraint manifold, and its errors persist (they move q by δv per unit time); the index
// scaling lets both the iteration (δv ≈ FNEWT·sc/h, δa and δλ ≈ FNEWT·sc/h²) and the step
// (h·err_v) leave them large, which the λ-only coupling Gᵀλ tolerates but a λ-dependent,
// often stiffly velocity-dependent, force does not: it turns λ's and v's errors into
// tangential force. Measured on the friction pendulum of reaction_test.go (smooth law),
// |Δq(0.5)| at RTol = ATol = 1e-5 … 1e-9 went from 2.2e-3, 6.0e-4, 2.9e-5, 4.5e-6, 2.2e-6
// (an attempt of h = 8e-6 stopped after one iteration with a off by 14.5 and v by 1.3e-5)
// to 7.3e-7, 1.4e-7, 2.5e-9, 1.6e-10, 2.6e-11 (TestRadau5Index3Reaction); on the pin
// friction of planar's pinPendulum (v_reg = 1e-4, stiff near the swing reversals) the
// angle at t = 3 is off by 9.7e-6, 4.4e-6, 2.5e-7, 1.9e-8, 1.0e-8 at 1e-5 … 1e-9
// (TestPinFrictionRadauIndex3), where measuring v in the Newton norm alone left 4.6e-4,
// 1.6e-4, 3.0e-5, 2.8e-5 at 1e-6 … 1e-9. The price is 1.2 to 2.7 times the evaluations of
// the index2 form at the same tolerance (measured on that pin), which is the form to
// prefer. Below h ≈ ε|a|/sc the rounding of v exceeds that scale, which vRoundoff
// floors; a and λ keep the index scaling (measured: weighing their error
// estimate by h or 1 drives h to HMin, the embedded estimate of an index-3 λ is not of
// the order of its error). Without λ-dependent forces index3 keeps RADAU5's scaling, whose
// global errors seed 002 (Figs. 12-13) shows and the reproduce package checks.
//
// One deliberate difference from RADAU5: the algebraic rows of φ(t₀, y₀) (zero at a
// consistent y₀) are left out of the first estimate. After a step they hold the residual
// the stopped Newton iteration left in the constraints, which the matrix amplifies by 1/h
// (index 2) or 1/h² (index 3), exactly what the index scaling multiplies back, so the
// scaled estimate does not vanish as h → 0: with them, the index2 run on Andrews at tol
// 1e-4 (velocities of 1e3, G v + g_t left at 1e-3) was rejected 72 times down to HMin;
// without them it takes 67 steps. λ and a are thus in the norm but damped by h
// or h². Tolerances are transformed as RADAU5 does, RTol' = 0.1·RTol^(2/3) and
// ATol' = RTol'·ATol/RTol, so that the estimate (of order h⁴) matches the global error of
// the order-5 solution and run statistics compare with the published RADAU5 runs.
//
// Step size (IV.8, step size selection):
// h_new = h·min(MaxGrow, max(MinShrink, fac·err^(−1/4))) with fac = min(Safety, Safety·(1+2·MaxIters)/(newt + 2·MaxIters)) lowered by the number
// newt of Newton iterations, and after the second accepted step Gustafsson's predictive
// controller, h_new = h·(h/h_acc)·(err_acc/err²)^(1/4)·Safety, whichever is smaller; no growth
// right after a rejection; a rejected first step is retried with h/10.
//
// Reuse (RADAU5's rules): the Jacobian is kept across steps while the last Newton rate
// θ ≤ Newton.ReuseRate (THET, 0.001), and the factorizations too while h_new/h lies in
// Newton.Deadband (1 to 1.2, keeping the old h). The iteration runs in the one Newton loop
// (newtonSolver) with RADAU5's stopping rule (radauMonitor), and failures follow the one
// ladder: a failure with a Jacobian not evaluated at the current y₀ is retried at the same
// h with a fresh one, and only then is h cut (RADAU5 does both at once: a Newton failure
// halves h). A matrix that is singular when factorized for a kept Jacobian and a new h
// is such a failure, and the cut after a singular matrix is always 1/2, never the factor
// of an earlier slow iteration.
//
// Dense output is the collocation polynomial of the last step (IV.8), of degree 3. It is
// not projected: between the nodes, where g = 0 holds, its |g| is its interpolation error,
// 0.09 to 0.2 of RTol' on A04 at tol 1e-6 to 1e-9 (BENCHMARKS.md, IFToMM fifth pass).
//
// Formulations: ggl (default, seed 002 eq. 92), index2 (eq. 79), index3 (eq. 16). Radau
// IIA converges with order 5 in q on all three; on index2 and ggl the index-2 variables
// (a, λ) with order 3, on index3 v with order 3 and a, λ with order 2 (Hairer & Wanner
// 1996, VII.4: for Radau IIA the global errors of the index-1, -2 and -3 variables are
// O(h^(2s−1)), O(h^s) and O(h^(s−1)), s = 3).
type Radau5 struct {
	// Formulation is StabilizedIndex2 (ggl), Index2 or Index3; zero means StabilizedIndex2.
	Formulation
	// ApproxJacobian replaces ∂φ/∂y by the IVP test set's approximation that neglects the
	// derivatives of f, M and G (semiExplicit.approxJacobian) [false].
	ApproxJacobian bool
	// Newton holds the corrector knobs with RADAU5's defaults for zero fields: MaxIters
	// (NIT) [7; 20 with FixedH, where a step cannot be cut], Tol (FNEWT) [max(10ε/RTol', min(0.03, √RTol')); with FixedH max(10ε/RTol', 1e-3·RTol')],
	// ReuseRate (THET) [0.001], Deadband (QUOT1, QUOT2) [1, 1.2], Jacobian JacobianAuto or
	// JacobianEveryStep (simplified Newton has no per-iteration refresh), and on the
	// Newton-Krylov path (dae.MassSolver systems, the joint route) also
	// JacobianEveryIteration. There Jacobian chooses the iteration (radauStages):
	// JacobianEveryStep RADAU5's simplified one with J at (t₀, y₀) for the three stages,
	// JacobianEveryIteration the inexact Newton iteration on the coupled stage system with
	// each stage's J at its iterate, and JacobianAuto the first until a Newton failure,
	// then the second for 50 accepted steps (radauWork.switchIteration; BENCHMARKS.md,
	// "radau5's coupled stage iteration after a frozen failure": on the joint route's
	// slender and 1000-rod chains 7-80 % fewer evaluations than the first where it fails,
	// its counts where it does not).
	Newton NewtonSettings
	// RegEps is ε of the singular mode's regularization K_ii = −ε s_i of the multiplier
	// rows, s_i the Schur complement's diagonal (radaureg.go) [radauRegEps, 1e-14]. The
	// passage of A02's singular positions depends on it erratically (BENCHMARKS.md, IFToMM
	// fifth pass); it is a parameter so that the dependence can be measured. Where ggl's
	// regularized rows fail repeatedly the mode takes the index-3 rows (radauindex3.go;
	// sixth pass: at tol 1e-8 ε from 1e-16 to 1e-10 reach 20 s on A02, all but 1e-11
	// within 1e-3 m).
	RegEps float64

	// DifferenceProducts makes the Newton-Krylov path's products J z forward differences
	// of φ also on systems with dae.DirectionalDerivatives (the joint route), whose exact
	// directional derivatives it takes otherwise (radauKrylov.jvExact) [false].
	DifferenceProducts bool

	// Stiffness chooses where the Newton-Krylov path's preconditioner takes the geometric
	// stiffness K_g beside M in its a-blocks (radauStiff): the complex system, the real
	// one, both or neither [RadauStiffnessDefault: both]. Only on trees without constraint
	// rows whose system offers dae.StiffMassSolver (and, for the complex system, a complex
	// articulated-body solve); M elsewhere.
	Stiffness RadauStiffness

	// reactionKrylov puts λ-dependent forces on the Newton-Krylov path at every size, not
	// only above massNewtonDenseMax coordinates (massNewtonFor): for tests that compare the
	// paths on small models.
	reactionKrylov bool

	w         *radauWork
	*accepted // Current, Previous, Stats (method.go)
}

// radau5Entry is the registry entry of Radau5; the order is that of ggl, the default form.
var radau5Entry = firstOrderEntry(Entry{
	Name:           "radau5",
	Title:          "Radau IIA, 3 stages, order 5 (RADAU5), on the first-order form K y' = φ",
	Seed:           "002",
	Equations:      "sec. 4.2, Examples 10-11; Hairer-Wanner (1996) IV.8, VII.4",
	Formulations:   []Formulation{StabilizedIndex2, Index2, Index3},
	Order:          Order{Q: 5, V: 5, Lambda: 3},
	Adaptive:       true,
	ReactionForces: true,
	Params:         []Param{radauRegEpsParam},
	New:            func() Method { return &Radau5{} },
})

// RADAU5's defaults (Hairer & Wanner 1996, IV.8, and the documented defaults of radau5.f).
const (
	radauMaxIters      = 7     // NIT
	radauFixedMaxIters = 20    // NIT with FixedH: about 16 iterations take a zero start to 1e-8 at θ = 0.3
	radauReuseRate     = 0.001 // THET: keep J while θ ≤ THET
	radauHoldLo        = 1.0   // QUOT1: keep h and the LU while QUOT1 ≤ h_new/h ≤ QUOT2
	radauHoldHi        = 1.2   // QUOT2
	radauMaxGrow       = 8.0   // 1/FACR: h_new/h ≤ 8 unless StepControl.MaxGrow is set
	radauH0            = 1e-6  // first step when H0 = 0
	radauUround        = 0x1p-52
)

// radauFirstMax is the largest ‖ΔW‖ at which FACCON, a rate from an earlier attempt, may
// stop a first iteration (radauMonitor.staleFirst); RADAU5 has no such bound.
const radauFirstMax = 1.0

// Radau IIA (s = 3) coefficients. c₁, c₂ = (4 ∓ √6)/10, c₃ = 1; A⁻¹ has the real eigenvalue
// γ = 3 + 3^(2/3) − 3^(1/3) and the pair α ± iβ, α = 3 + (3^(1/3) − 3^(2/3))/2,
// β = (3^(5/6) + 3^(7/6))/2. T's columns are the real eigenvector and the real and imaginary
// parts of the eigenvector for α − iβ, each scaled to a last component 1 (so z₃ = W₁ + W₂);
// the test checks T⁻¹A⁻¹T = [γ 0 0; 0 α −β; 0 β α] and TT⁻¹ = I. d are the error weights of
// the embedded formula (times γ₀ = 1/γ): Σd_i c_i = −1, Σd_i c_i² = Σd_i c_i³ = 0.
var radauCoef = struct {
	c1, c2             float64
	gamma, alpha, beta float64
	t, ti              [3][3]float64
	d1, d2, d3         float64
}{
	c1:    0.15505102572168219018, // (4 − √6)/10
	c2:    0.64494897427831780982, // (4 + √6)/10
	gamma: 3.6378342527444957322,
	alpha: 2.6810828736277521339,
	beta:  3.0504301992474105694,
	t: [3][3]float64{
		{0.094438762488975356, -0.14125529502095432, -0.030029194105147219},
		{0.25021312296533321, 0.20412935229380039, 0.38294211275726192},
		{1, 1, 0},
	},
	ti: [3][3]float64{
		{4.1787185915519016, 0.32768282076105992, 0.52337644549945006},
		{-4.1787185915519016, -0.32768282076105992, 0.47662355450055},
		{-0.50287263494578049, 2.5719269498556061, -0.59603920482822537},
	},
	d1: -(13 + 7*2.4494897427831780982) / 3,
	d2: (-13 + 7*2.4494897427831780982) / 3,
	d3: -1.0 / 3,
}

// radauWork is the run state of Radau5, sized once by Init.
type radauWork struct {
	fo       firstOrder    // what is integrated: se or li
	se       *semiExplicit // the equations of motion of sys (nil for a dae.LinearlyImplicit run)
	li       *implicitForm // a dae.LinearlyImplicit run (nil for a dae.System)
	sys      dae.System
	n        int
	approx   bool
	newton   NewtonSettings
	tolSet   bool // Newton.Tol was given
	itersSet bool // Newton.MaxIters was given

	c        StepControl // resolved; RTol, ATol transformed
	lad      ladder      // the step loop (ladder.go); radauWork is its stepRule (RADAU5's)
	fnewt    float64
	roundoff float64 // scaled norm of an increment at rounding level
	maxGrow  float64

	kdiag []float64     // diagonal of K (zero with a general K)
	kexp  []int         // index − 1 of each component (exponent of h in its scale)
	gk    *radauGeneral // a general K(t, y) (dae.ImplicitMass), else nil

	accepted            // cur, prev, stats: Current, Previous, Stats
	y0, f0    []float64 // y and φ(t, y) at the step start
	z, wt, ph [3][]float64
	dw        [3][]float64
	cont      [4][]float64 // collocation polynomial of the last accepted step (Newton form)
	scal      []float64
	errv, tmp []float64
	yt        []float64
	yi        []float64 // Interpolate scratch

	J   *mat.Dense   // nil on the sparse evaluation path and until a Krylov run falls back
	lin radauSystems // the real and complex Newton matrices, dense or sparse, or kry
	// kry is the Newton-Krylov path on dae.MassSolver systems (radaumassnewton.go), nil
	// elsewhere; dense is its fallback (allocDense), lin the one in use.
	kry   *radauKrylov
	stg   *radauStages   // the coupled stage solves on the Newton-Krylov path, or nil
	rows  *radauMassRows // the dynamic rows' scaling on dae.MassSolver systems (radaumassrows.go)
	dense radauSystems
	// iteration is the Newton-Krylov path's choice of iteration (Newton.Jacobian, see
	// Radau5); coupledLeft counts the accepted steps the coupled one has left after a
	// switch (radauSwitch).
	iteration   radauIteration
	coupledLeft int
	// On the sparse evaluation path (se.sp set): −J as values on the Newton pattern and
	// the sparse factorizations that take them.
	negJ   []float64
	spLU   *radauSparse
	crhs   []complex128
	haveJ  bool // J is usable (possibly evaluated at an earlier y₀)
	jFresh bool // J was evaluated at the current y₀ (RADAU5's CALJAC)
	haveLU bool
	hLU    float64
	luReg  bool // the factorizations are the singular mode's (radaureg.go)
	// i3 holds ggl's index-3 rows of the singular mode (radauindex3.go); jIndex3 is
	// whether J was evaluated with them.
	i3      radauIndex3
	jIndex3 bool
	eps     float64 // ε of the singular mode (Radau5.RegEps resolved)

	nw   newtonSolver // the corrector loop (newton.go), with mon as its stopRule
	mon  radauMonitor
	hTry float64 // size of the current attempt
	// kept is the last measured rounding level for later attempts at the same h
	// (radaurounding.go, keptFloor).
	kept radauKeptLevel

	h, hold, hacc, erracc float64
	first, reject         bool
	eLast                 float64 // error norm of the last converged attempt
	naccpt                int
	// gtMu is f·Gᵀδμ of GGL's μ increments in the Newton norm (muNorm2), nq; nil without μ.
	gtMu []float64
	// errorPeak holds the largest weighted component |err_i|/sc_i of an accepted step's
	// estimate over the differential components (error control only): ControlWarnings.
	errorPeak
}

// Init checks the options and the start (g = 0 and G v + g_t = 0 to 1e-8 relative, seed
// 002 eq. 17), recomputes a₀ and λ₀ from the KKT system [M Gᵀ; G 0](a, λ) = (f, γ) so that y₀
// is consistent at every level (μ₀ = 0 in ggl) and sizes the workspace. StepControl is
// resolved at the first Step against its tEnd (a unit span when infinite).
func (m *Radau5) Init(sys dae.System, start State, ctl StepControl) error {
	form, sys, err := radau5Entry.firstOrderForm(m.Formulation, sys)
	if err != nil {
		return err
	}
	ns, tolSet, itersSet, err := m.resolveOptions(start.T, len(start.Q), ctl)
	if err != nil {
		return err
	}
	nq, _ := sys.Size()
	if len(start.Q) != nq || len(start.V) != nq {
		panic(fmt.Sprintf("integrate: radau5: Init: start has len(Q) = %d, len(V) = %d, want %d", len(start.Q), len(start.V), nq))
	}
	if dae.StateSize(sys) > 0 {
		return fmt.Errorf("integrate: radau5: systems with first-order states (dae.FirstOrder) are not supported")
	}
	if err := refuseDenseNewton("radau5", form, sys, denseWhyTaking(sys, true, true)); err != nil {
		return err
	}
	se, err := newSemiExplicit(sys, form, !m.ApproxJacobian)
	if err != nil {
		return fmt.Errorf("integrate: radau5: %w", err)
	}
	r := measureStart(se.sp, sys, start)
	if r.Pos > 1e-8*math.Max(1, hhtMaxAbs(start.Q)) || r.Vel > 1e-8*math.Max(1, hhtMaxAbs(start.V)) ||
		math.IsNaN(r.Pos) || math.IsNaN(r.Vel) {
		return fmt.Errorf("integrate: radau5: inconsistent start at t=%g: |g| = %.2g at %s, |G v + g_t| = %.2g (want ≤ 1e-8 relative)",
			start.T, r.Pos, dae.ConstraintName(sys, max(r.WorstPos, 0)), r.Vel)
	}
	_, nc := sys.Size()
	w := newRadauWork(se, se, NewState(nq, nc), m.ApproxJacobian, m.reactionKrylov, m.DifferenceProducts)
	w.sys = sys
	w.approx = m.ApproxJacobian
	if err := w.kry.useStiffness(m.Stiffness); err != nil {
		return err
	}
	if err := w.chooseIteration(&ns); err != nil {
		return err
	}
	w.newton = ns
	w.eps = orDefault(m.RegEps, radauRegEps)
	w.tolSet, w.itersSet = tolSet, itersSet
	w.cur.T = start.T
	w.lad = ladder{name: "radau5", m: w, raw: ctl, rule: w, stats: &w.stats, cur: &w.cur, fc: newFailureContext(sys, &start)}
	w.lad.newton = &w.nw
	copy(w.cur.Q, start.Q)
	copy(w.cur.V, start.V)
	if err := consistentStart("radau5", sys, &w.cur, &w.stats); err != nil {
		return err
	}
	m.w, m.accepted = w, &w.accepted
	w.begin()
	return nil
}

// InitImplicit starts a run on the linearly implicit system sys (see ImplicitMethod):
// the same method on K y' = φ with the system's K, indices and ∂φ/∂y. Formulation and
// ApproxJacobian, which choose a form of the equations of motion, must be unset.
func (m *Radau5) InitImplicit(sys dae.LinearlyImplicit, t0 float64, y0, yp0 []float64, ctl StepControl) error {
	if m.Formulation != "" || m.ApproxJacobian {
		return fmt.Errorf("integrate: radau5: Formulation = %q, ApproxJacobian = %v: these choose a form of the equations of motion and do not apply to a linearly implicit system; leave them unset",
			m.Formulation, m.ApproxJacobian)
	}
	ns, tolSet, itersSet, err := m.resolveOptions(t0, len(y0), ctl)
	if err != nil {
		return err
	}
	if err := dae.CheckLinearlyImplicit(sys, t0, y0, yp0, implicitStartTol); err != nil {
		return fmt.Errorf("integrate: radau5: %w", err)
	}
	li := newImplicitForm(sys, t0, y0)
	w := newRadauWork(li, nil, State{Q: make([]float64, li.n)}, false, false, false)
	w.li = li
	if li.gm != nil {
		w.gk = newRadauMass(li.n, yp0)
		w.lin.(*radauDense).mass = w.gk.KJ
	}
	if err := w.chooseIteration(&ns); err != nil {
		return err
	}
	w.newton = ns
	w.eps = orDefault(m.RegEps, radauRegEps)
	w.tolSet, w.itersSet = tolSet, itersSet
	w.cur.T = t0
	copy(w.cur.Q, y0)
	w.lad = ladder{name: "radau5", m: w, raw: ctl, rule: w, stats: &w.stats, cur: &w.cur}
	m.w, m.accepted = w, &w.accepted
	w.begin()
	return nil
}

// begin starts the history from the consistent state w.cur: y₀, φ(t₀, y₀) and the
// collocation polynomial of a step of length 0.
func (w *radauWork) begin() {
	w.prev.CopyFrom(&w.cur)
	w.fo.pack(w.y0, &w.cur)
	w.fo.residual(w.f0, w.cur.T, w.y0)
	w.stats.FuncEvals++
	if w.gk != nil {
		w.gk.K0.Copy(w.li.massAt(w.cur.T, w.y0))
	}
	for k := range w.cont {
		clear(w.cont[k])
	}
	copy(w.cont[0], w.y0)
	w.first = true
}

// resolveOptions resolves the Newton settings with RADAU5's defaults and checks ctl
// for n coordinates.
func (m *Radau5) resolveOptions(t0 float64, n int, ctl StepControl) (ns NewtonSettings, tolSet, itersSet bool, err error) {
	ns = m.Newton
	tolSet, itersSet = ns.Tol != 0, ns.MaxIters != 0
	ns.MaxIters = orDefault(ns.MaxIters, radauMaxIters)
	ns.ReuseRate = orDefault(ns.ReuseRate, radauReuseRate)
	if ns.Deadband == [2]float64{} {
		ns.Deadband = [2]float64{radauHoldLo, radauHoldHi}
	}
	if ns, err = ns.Resolve(); err != nil {
		return ns, false, false, fmt.Errorf("integrate: radau5: %w", err)
	}
	if _, err := ctl.resolveAt(t0, n); err != nil {
		return ns, false, false, fmt.Errorf("integrate: radau5: %w", err)
	}
	return ns, tolSet, itersSet, nil
}

// newRadauWork sizes the workspace for fo; se is fo when it is the equations of motion
// (nil otherwise), shape the State of the run (its slices are copied in size only), approx
// ApproxJacobian, reactionKrylov Radau5's (newRadauKrylov).
func newRadauWork(fo firstOrder, se *semiExplicit, shape State, approx, reactionKrylov, difference bool) *radauWork {
	n := fo.dim()
	w := &radauWork{fo: fo, se: se, n: n}
	vec := func() []float64 { return make([]float64, n) }
	w.cur, w.prev = shape.Clone(), shape.Clone()
	w.y0, w.f0, w.scal, w.errv, w.tmp, w.yt, w.yi = vec(), vec(), vec(), vec(), vec(), vec(), vec()
	for k := range 3 {
		w.z[k], w.wt[k], w.ph[k], w.dw[k] = vec(), vec(), vec(), vec()
	}
	for k := range w.cont {
		w.cont[k] = vec()
	}
	w.kdiag = vec()
	w.kexp = make([]int, n)
	for i := range n {
		w.kdiag[i] = fo.mass(i)
		w.kexp[i] = fo.index(i) - 1
		if se != nil && se.form == Index3 && se.rx != nil && i >= se.iv() && i < se.ia() {
			w.kexp[i] = 0 // v at its index-1 scale with λ-dependent forces (see Radau5)
		}
	}
	w.crhs = make([]complex128, n)
	if se == nil {
		w.J = mat.NewDense(n, n, nil)
		w.lin = &radauDense{lu: linalg.NewLU(n), clu: newRadauComplexLU(n)}
		return w
	}
	w.rows = newRadauMassRows(se)
	if _, reduced := se.sys.(dae.Rekeeper); se.hasMu && se.nc > 0 && se.nq+se.nc >= sparseMinSize && !reduced { // by size, not by path (muNorm2)
		w.gtMu = make([]float64, se.nq)
	}
	if se.sp != nil {
		pattern := se.newtonPattern()
		w.spLU = newRadauSparse(se, pattern)
		w.lin = w.spLU
		csr := dae.NewCSR(pattern, n, n, false)
		se.spx = newSemiScatter(se, &csr)
		w.negJ = make([]float64, csr.NNZ())
		return w
	}
	if w.kry = newRadauKrylov(se, approx, reactionKrylov, difference, &w.stats); w.kry != nil {
		w.kry.y0, w.kry.f0, w.kry.scal, w.kry.kdiag = w.y0, w.f0, w.scal, w.kdiag
		w.lin = w.kry
		return w
	}
	w.allocDense()
	return w
}

// allocDense sizes the dense Newton matrices: at Init, or at the first fallback of a
// Newton-Krylov run, which stores no n×n matrix otherwise.
func (w *radauWork) allocDense() {
	if w.J != nil {
		return
	}
	se := w.se
	if se.M == nil {
		se.M, se.work = mat.NewDense(se.nq, se.nq, nil), mat.NewDense(se.nq, se.nq, nil)
	}
	w.J = mat.NewDense(w.n, w.n, nil)
	w.dense = newRadauSystems(se)
	w.lin = w.dense
}

// setup fixes the step control at the first Step: defaults, RADAU5's tolerance
// transformation, FNEWT and the first step (stepper).
func (w *radauWork) setup(tEnd float64) error {
	raw, c := w.lad.raw, w.lad.c
	w.maxGrow = c.MaxGrow
	if raw.MaxGrow == 0 {
		w.maxGrow = radauMaxGrow
	}
	// RTol' = 0.1·RTol^(2/3), ATol' = RTol'·ATol/RTol (Hairer & Wanner 1996, IV.8, as RADAU5).
	rt := 0.1 * math.Pow(c.RTol, 2.0/3)
	c.ATol = rt * c.ATol / c.RTol
	if c.ATolQ != nil {
		q := make([]float64, len(c.ATolQ))
		for i, a := range c.ATolQ {
			q[i] = rt * a / c.RTol
		}
		c.ATolQ = q
	}
	c.RTol = rt
	w.c = c
	w.lad.c = c
	w.roundoff = 10 * radauUround / math.Min(c.RTol, 1)
	switch {
	case w.tolSet:
		w.fnewt = w.newton.Tol
	case c.FixedH > 0:
		// No error test guards a fixed step: keep the iteration error 1e-3 below the
		// tolerance scale (absolute about 1e-3·RTol'·(ATol' + RTol'|y|)).
		w.fnewt = math.Max(w.roundoff, 1e-3*c.RTol)
	default:
		w.fnewt = math.Max(w.roundoff, math.Min(0.03, math.Sqrt(c.RTol)))
	}
	if c.FixedH > 0 && w.newton.MaxIters == radauMaxIters && !w.itersSet {
		// A fixed step cannot be cut: let the iteration run to its tolerance.
		w.newton.MaxIters = radauFixedMaxIters
	}
	w.mon = radauMonitor{maxIters: w.newton.MaxIters, fnewt: w.fnewt, roundoff: w.roundoff,
		reuseRate: w.newton.ReuseRate, fixed: c.FixedH > 0}
	if w.kry != nil && !w.approx {
		w.mon.minRate = radauGMRESRTol // per attempt by the iteration (rateFloor)
	}
	w.nw = newNewtonSolver(w.newton, &w.stats)
	w.nw.rule = &w.mon
	w.h = c.H0
	if w.h == 0 {
		w.h = radauH0
	}
	w.h = math.Min(w.h, c.HMax)
	return nil
}

// Step takes one accepted step toward tEnd (see Method) by the ladder's failure policy
// (ladder.go): a Newton failure with a stale Jacobian is retried at the same h with a
// fresh one, then h is halved (or cut by the factor a slow iteration predicts, RADAU5's
// rule); an error-test failure shrinks h from the estimate (h/10 at the first step) and
// refreshes a stale Jacobian; with FixedH a Newton failure after the fresh Jacobian stops
// the run. Below HMin or past MaxSteps it returns a *StepError.
func (m *Radau5) Step(tEnd float64) error {
	mustInit(m.w != nil, "radau5")
	return m.w.lad.step(tEnd)
}

// attempt corrects a step of size h in the one Newton loop (newtonSolver.attempt), with a
// fresh Jacobian when there is none or JacobianEveryStep asks for one. A Jacobian already
// evaluated at the current y₀ (after a rejection) is fresh too: a failure with it is not
// retried; a failure with one kept from an earlier step is retried once with a fresh one.
func (w *radauWork) attempt(h float64) (usedFresh int, err error) {
	needJ := !w.haveJ || w.jFresh || w.newton.Jacobian == JacobianEveryStep || w.mn().stale()
	usedFresh, err = w.nw.attempt(w, h, needJ)
	if err != nil && w.switchIteration() && w.c.FixedH > 0 {
		// A fixed step cannot be cut: the coupled iteration retries it.
		var more int
		more, err = w.nw.attempt(w, h, true)
		usedFresh += more
	}
	return usedFresh, err
}

// size is the step RADAU5's rules chose (stepRule).
func (w *radauWork) size() float64 { return w.h }

// judge passes e < 1 (RADAU5's test); otherwise rejectStep sets the next h (stepRule).
func (w *radauWork) judge(h, e float64, _ int) bool {
	if e < 1 {
		return true
	}
	w.rejectStep(h, e)
	return false
}

// cut halves h after a Newton failure (RADAU5's "unexpected step rejection"), or cuts it
// by the factor a slow iteration predicted (stepRule).
func (w *radauWork) cut(h float64) {
	w.reject = true
	if w.mon.slow {
		w.h = h * w.mon.hhfac
	} else {
		w.h = h * 0.5
	}
	w.noteModeFailure(h)
}

// commit accepts the converged step and chooses the next h (accept).
func (w *radauWork) commit(h float64) error {
	if !w.lad.fixed {
		w.notePeak(h)
	}
	w.accept(h, w.eLast)
	return nil
}

// jacobian evaluates J ≈ ∂φ/∂y at (t₀, y₀), exact or approximate; with a general K,
// J = ∂φ/∂y − ∂(K y'₀)/∂y and K_J = K(t₀, y₀) (see radauGeneral).
func (w *radauWork) jacobian() {
	if w.kry.active() {
		w.krylovJacobian()
		return
	}
	if w.kry != nil {
		w.kry.mn.simplified = false
		w.lin = w.dense
	}
	se := w.se
	before := w.fo.fdEvals()
	switch {
	case w.negJ != nil:
		se.newtonValues(w.negJ, 0, w.cur.T, w.y0)
	case w.approx:
		se.approxJacobian(w.J, w.cur.T, w.y0)
	case w.gk != nil:
		w.li.newtonJacobian(w.J, w.cur.T, w.y0, w.gk.yp)
		w.gk.KJ.Copy(w.gk.K0)
	default:
		w.fo.jacobian(w.J, w.cur.T, w.y0)
	}
	if w.i3.on {
		if w.negJ != nil {
			w.index3Values(w.negJ)
		} else {
			index3Jacobian(w.J, se.il(), se.imu(), se.ncH)
		}
	}
	w.stats.FDEvals += w.fo.fdEvals() - before
	w.stats.Jacobians++
	w.haveJ, w.jFresh, w.haveLU, w.jIndex3 = true, true, false, w.i3.on
}

// decompose factorizes γ/h K − J (real) and (α+iβ)/h K − J (complex); it fails with
// ErrNonFinite when J is not finite, else with linalg.ErrSingular.
func (w *radauWork) decompose(h float64) error {
	k := &radauCoef
	w.haveLU = false
	if w.mn().inUse() {
		if err := w.kry.decompose(nil, nil, k.gamma/h, k.alpha/h, k.beta/h, w.regEps()); err != nil {
			return err
		}
		w.haveLU, w.hLU, w.luReg = true, h, w.nw.singular
		return nil
	}
	w.stats.Factorizations++
	if w.spLU != nil {
		w.spLU.unit = w.i3.unit[:0]
		if w.i3.on {
			w.spLU.unit = w.i3.unit
		}
		if err := w.spLU.decomposeNeg(w.negJ, w.kdiag, k.gamma/h, k.alpha/h, k.beta/h, w.regEps()); err != nil {
			if !allFinite(w.negJ) {
				return ErrNonFinite
			}
			return linalg.ErrSingular
		}
		w.haveLU, w.hLU, w.luReg = true, h, w.nw.singular
		return nil
	}
	if err := w.lin.decompose(w.J, w.kdiag, k.gamma/h, k.alpha/h, k.beta/h, w.regEps()); err != nil {
		if !allFinite(w.J.RawMatrix().Data) {
			return ErrNonFinite
		}
		return linalg.ErrSingular
	}
	w.haveLU, w.hLU, w.luReg = true, h, w.nw.singular
	return nil
}

// regEps is ε of the singular mode's regularization (radaureg.go), 0 outside the mode.
func (w *radauWork) regEps() float64 {
	if !w.nw.singular {
		return 0
	}
	return w.eps
}

// luFor reports whether the factorizations are those for h in the current mode.
func (w *radauWork) luFor(h float64) bool {
	return w.haveLU && h == w.hLU && w.luReg == w.nw.singular
}

// setScal writes the error and Newton scales sc_i = (ATol' + RTol'|y₀_i|)/h^(k_i−1).
func (w *radauWork) setScal(h float64) {
	nq, blocks := w.fo.coordBlocks()
	vFloor := w.vRoundoff(h)
	for i, y := range w.y0 {
		if w.nw.singular && i >= w.se.ia() {
			// a, λ, μ: the multipliers are not unique at a singular position, and the
			// algebraic accelerations take the regularized multipliers' part Gᵀλ.
			w.scal[i] = math.Inf(1)
			continue
		}
		s := w.c.atolOf(i, nq, blocks) + w.c.RTol*math.Abs(y)
		k := w.kexp[i]
		if w.i3.on && i >= w.se.iv() {
			k = 1 // v at index 2, as the index3 form weighs it (radauindex3.go)
		}
		for range k {
			s /= h
		}
		if vFloor > 0 && i >= w.se.iv() && i < w.se.ia() {
			s = math.Max(s, vFloor)
		}
		w.scal[i] = s
	}
}

// vRoundoff returns the rounding level of v in an index-3 step of size h when v is
// measured at its index-1 scale (λ-dependent forces, see Radau5), else 0: the solve
// resolves a and the constraint forces M⁻¹Gᵀλ to about ε of their size per h², which
// moves v by ε·(their size)/h; 100 times that is a floor for v's scale. Their size is
// taken as the largest |a| or |λ| at y₀, λ standing in for M⁻¹Gᵀλ (a heuristic that
// assumes masses and lever arms of order 1). Measured: without the floor the first steps
// of 1e-6 s of planar's TestPendulumPinFriction (v_reg = 1e-6, ATol = 1e-11) could not
// converge v below its rounding and h fell to HMin; with |a| alone spatial's
// TestPendulumPinFriction3D (a rod at rest, whose |a| is small against M⁻¹Gᵀλ) still did.
func (w *radauWork) vRoundoff(h float64) float64 {
	if w.se == nil || w.se.form != Index3 || w.se.rx == nil {
		return 0
	}
	var amax float64
	for _, a := range w.y0[w.se.ia() : w.se.il()+w.se.nc] {
		amax = math.Max(amax, math.Abs(a))
	}
	return 100 * radauUround * amax / h
}

// radauMonitor is RADAU5's stopping rule (Hairer & Wanner 1996, IV.8), the stopRule of
// radau5 in newtonSolver. It differs from newtonMonitor in four ways, all RADAU5's: the rate
// θ is the geometric mean of the last two quotients from the third iteration on; θ ≥ 0.99
// diverges; a rate that predicts ‖Δ‖ above FNEWT after the remaining iterations stops the
// attempt as slow, with the cut hhfac = 0.8·(predicted error)^(−1/(4+left)) for the next h
// (not with FixedH, where h cannot be cut); and the first increment is judged by the
// FACCON θ/(1−θ) of the previous attempt, with no rate test at the last iteration or at
// rounding level.
type radauMonitor struct {
	maxIters  int     // NIT
	fnewt     float64 // FNEWT: stop when FACCON·‖ΔW‖ ≤ FNEWT
	roundoff  float64 // an increment at or below it has converged
	reuseRate float64 // THET: θ of an attempt before it measures one
	fixed     bool    // FixedH: no early stop by a slow rate
	minRate   float64 // floor of θ: the forcing term of inexact (GMRES) solves, else 0
	floor     float64 // the attempt's measured rounding floor (radaurounding.go), 0 until measured

	iter                 int
	theta, faccon        float64
	dynold, thqold, norm float64 // ‖ΔW‖ of the last two iterations, the last quotient
	slow                 bool    // the last attempt stopped because its rate was too slow
	hhfac                float64 // ... and h should be cut by this factor
}

// start begins an attempt, keeping FACCON from the previous one (RADAU5: FACCON =
// MAX(FACCON, UROUND)**0.8).
func (r *radauMonitor) start() {
	r.iter, r.slow, r.dynold, r.thqold, r.floor = 0, false, 0, 0, 0
	if r.faccon == 0 {
		r.faccon = 1
	}
	r.faccon = math.Max(math.Pow(math.Max(r.faccon, radauUround), 0.8), r.minRate/(1-r.minRate))
	r.theta = r.reuseRate
}

func (r *radauMonitor) rate() float64 { return r.theta }

// staleFirst reports a first increment too large for FACCON to certify. At the first
// iteration of an attempt no rate has been measured: FACCON is the θ/(1−θ) of the last
// attempt that measured one, raised to 0.8 per attempt since (start), and that attempt's
// step may have been much shorter and quieter. On chain10 (radau5, tol 6.3e-6) the first
// step's second increment measured θ = 6e-9, at rounding level, so FACCON was still
// 2.0e-3 five steps later, on a step 8 times longer whose first increment ‖ΔW‖ = 2.2
// passed FACCON·‖ΔW‖ ≤ FNEWT; it left |Gv| = 3e-5 in the constraint rows, and from there
// no step passed the error test down to HMin (BENCHMARKS.md, "radau5's first iterate").
// RADAU5 has no such bound; radau5 lets FACCON stop a first iteration only at ‖ΔW‖ ≤
// radauFirstMax = 1, an increment within the tolerance scale itself, on every path (the
// Newton-Krylov path carries FACCON the same way, with the floor minRate; on the four-bar
// of TestRadau5MassNewtonApproxJacobian both paths refuse the same first iterate,
// ‖ΔW‖ = 11.2 at FACCON = 2.3e-5, the 17th attempt).
func (r *radauMonitor) staleFirst(dyno float64) bool {
	return r.iter == 1 && dyno > radauFirstMax
}

// continues reports whether update would judge the increment of norm dyno as one more
// to iterate (newtonContinue), without changing r.
func (r *radauMonitor) continues(dyno float64) bool {
	probe := *r
	return probe.update(dyno) == newtonContinue
}

// update judges the scaled norm ‖ΔW‖ of the latest increment (IV.8, stopping criterion).
func (r *radauMonitor) update(dyno float64) newtonStatus {
	r.iter++
	r.norm = dyno
	if math.IsNaN(dyno) || math.IsInf(dyno, 0) {
		return newtonDiverged
	}
	roundoff := math.Max(r.roundoff, r.floor)
	if r.iter > 1 && r.iter < r.maxIters && dyno > roundoff {
		thq := dyno / r.dynold
		if r.iter == 2 {
			r.theta = thq
		} else {
			r.theta = math.Sqrt(thq * r.thqold)
		}
		r.theta = math.Max(r.theta, r.minRate)
		r.thqold = thq
		if r.theta >= 0.99 {
			return newtonDiverged
		}
		r.faccon = r.theta / (1 - r.theta)
		left := r.maxIters - 1 - r.iter
		dyth := r.faccon * dyno * math.Pow(r.theta, float64(left)) / r.fnewt
		if dyth >= 1 && !r.fixed {
			qnewt := math.Max(1e-4, math.Min(20, dyth))
			r.hhfac = 0.8 * math.Pow(qnewt, -1/(4+float64(left)))
			r.slow = true
			return newtonDiverged
		}
	}
	r.dynold = math.Max(dyno, radauUround)
	if (r.faccon*dyno <= r.fnewt && !r.staleFirst(dyno)) || dyno <= roundoff {
		return newtonConverged
	}
	if r.iter >= r.maxIters {
		return newtonDiverged
	}
	return newtonContinue
}

// The corrector (newtonIteration for newtonSolver): the transformed simplified Newton
// iteration of Radau5 on W = (T⁻¹ ⊗ I) Z, with J at (t₀, y₀).

// predict writes the starting values of an attempt of size h and refactorizes a kept
// Jacobian for a new h (with a fresh one, factor does).
func (w *radauWork) predict(h float64, freshJ bool) error {
	k := &radauCoef
	w.hTry = h
	w.mon.slow = false
	w.mn().attempt()
	w.syncIndex3()
	if !freshJ && w.haveJ && w.jIndex3 != w.i3.on {
		w.jacobian() // the rows changed: J of the other form is no simplified Newton matrix
	}
	if !freshJ && !w.luFor(h) {
		if err := w.decompose(h); err != nil {
			return err
		}
	}
	w.setScal(h)
	if w.stg != nil {
		w.mon.minRate = w.stg.rateFloor(w.coupledMode())
	}
	if w.first {
		for j := range 3 {
			clear(w.z[j])
			clear(w.wt[j])
		}
		return nil
	}
	// The collocation polynomial of the last step at the new stages, τ = 1 + c_i·h/h_old
	// on the old step (IV.8, starting values).
	r := h / w.hold
	cs := [3]float64{k.c1 * r, k.c2 * r, r}
	z1, z2, z3 := w.z[0], w.z[1], w.z[2]
	for j, s := range cs {
		zj := w.z[j]
		for i := range w.n {
			zj[i] = s * (w.cont[1][i] + (s+1-k.c2)*(w.cont[2][i]+(s+1-k.c1)*w.cont[3][i]))
		}
	}
	for i := range w.n {
		a, b, c := z1[i], z2[i], z3[i]
		w.wt[0][i] = k.ti[0][0]*a + k.ti[0][1]*b + k.ti[0][2]*c
		w.wt[1][i] = k.ti[1][0]*a + k.ti[1][1]*b + k.ti[1][2]*c
		w.wt[2][i] = k.ti[2][0]*a + k.ti[2][1]*b + k.ti[2][2]*c
	}
	return nil
}

// residual evaluates φ at the three stages Y_i = y₀ + z_i, less K(Y_i) Y'_i with a
// general K (see radauGeneral).
func (w *radauWork) residual() error {
	k := &radauCoef
	cs := [3]float64{k.c1, k.c2, 1}
	for j := range 3 {
		for i := range w.n {
			w.yt[i] = w.y0[i] + w.z[j][i]
		}
		w.residualAt(w.ph[j], w.cur.T+cs[j]*w.hTry, w.yt)
		w.stats.FuncEvals++
		if w.coupledMode() { // before factor: the first residual of an attempt precedes it
			w.stg.noteStage(j, w.cur.T+cs[j]*w.hTry, w.yt, w.y0, w.ph[j])
		}
		if w.gk != nil {
			w.gk.subtractMassTerm(w, j, w.cur.T+cs[j]*w.hTry)
		}
		if !allFinite(w.ph[j]) {
			w.noteResidual(w.ph[j])
			return ErrNonFinite
		}
	}
	return nil
}

// factor evaluates J at (t₀, y₀) unless it is already fresh there, and factorizes the
// real and complex matrices for the attempt's h.
func (w *radauWork) factor() error {
	if !w.jFresh || w.jIndex3 != w.i3.on {
		w.jacobian()
	}
	if w.luFor(w.hTry) {
		return nil
	}
	return w.decompose(w.hTry)
}

// increment solves the real and the complex system for ΔW (see Radau5), updates W and
// Z = (T ⊗ I) W and returns ‖ΔW‖ in the scales sc.
func (w *radauWork) increment() float64 {
	k := &radauCoef
	n := w.n
	h := w.hTry
	fg, fa, fb := k.gamma/h, k.alpha/h, k.beta/h
	d1, d2, d3 := w.dw[0], w.dw[1], w.dw[2]
	for i := range n {
		a, b, c := w.ph[0][i], w.ph[1][i], w.ph[2][i]
		g1 := k.ti[0][0]*a + k.ti[0][1]*b + k.ti[0][2]*c
		g2 := k.ti[1][0]*a + k.ti[1][1]*b + k.ti[1][2]*c
		g3 := k.ti[2][0]*a + k.ti[2][1]*b + k.ti[2][2]*c
		kk := w.kdiag[i]
		w1, w2, w3 := w.wt[0][i], w.wt[1][i], w.wt[2][i]
		d1[i] = g1 - kk*fg*w1
		w.crhs[i] = complex(g2-kk*(fa*w2-fb*w3), g3-kk*(fb*w2+fa*w3))
	}
	if w.coupled() {
		w.stg.solve(d1, w.crhs)
	} else {
		w.lin.solveReal(d1)
		w.lin.solveComplex(w.crhs)
	}
	w.stats.Solves++ // the solver counts one of the two
	var dyno float64
	z1, z2, z3 := w.z[0], w.z[1], w.z[2]
	end := w.muStart()
	for i := range n {
		d2[i], d3[i] = real(w.crhs[i]), imag(w.crhs[i])
		if i < end {
			s := w.scal[i]
			dyno += (d1[i]/s)*(d1[i]/s) + (d2[i]/s)*(d2[i]/s) + (d3[i]/s)*(d3[i]/s)
		}
		w.wt[0][i] += d1[i]
		w.wt[1][i] += d2[i]
		w.wt[2][i] += d3[i]
		a, b, c := w.wt[0][i], w.wt[1][i], w.wt[2][i]
		z1[i] = k.t[0][0]*a + k.t[0][1]*b + k.t[0][2]*c
		z2[i] = k.t[1][0]*a + k.t[1][1]*b + k.t[1][2]*c
		z3[i] = a + b // T's last row is (1, 1, 0)
	}
	if end < n {
		fc := h / math.Hypot(k.alpha, k.beta)
		dyno += w.muNorm2(d1[end:], h/k.gamma) + w.muNorm2(d2[end:], fc) + w.muNorm2(d3[end:], fc)
	}
	dyno = math.Sqrt(dyno / float64(3*n))
	w.noteStall(dyno)
	return dyno
}

// muStart returns the offset of GGL's μ block in y when the Newton norm measures it
// through Gᵀδμ (muNorm2), else n: ggl with constraints, outside the singular mode (whose
// scales leave a, λ and μ out of the norm, setScal).
func (w *radauWork) muStart() int {
	if w.gtMu == nil || w.nw.singular {
		return w.n
	}
	return w.se.imu()
}

// muNorm2 returns the sum of squares that stands for the μ block x of one transformed
// stage increment in the Newton norm: Σ_i ((f·Gᵀx)_i / sc_i)² over q's scales, f the
// factor below. μ, zero in the exact solution, enters only the q rows q' = v − Gᵀμ. In
// the decoupled systems (see Radau5) those rows read (γ/h) ΔW₁_q − ΔW₁_v + Gᵀ ΔW₁_μ = r₁
// and ((α+iβ)/h) ΔU_q − ΔU_v + Gᵀ ΔU_μ = r₂ + i r₃ with ΔU = ΔW₂ + iΔW₃: at fixed v, a
// change of ΔW₁_μ moves ΔW₁_q by −(h/γ) Gᵀ ΔW₁_μ, and one of ΔU_μ moves ΔU_q by
// −h/(α+iβ) Gᵀ ΔU_μ, whose squared modulus per component, with Gᵀ real, is
// h²/(α²+β²) ((GᵀΔW₂_μ)_i² + (GᵀΔW₃_μ)_i²). So f = h/γ for ΔW₁ and h/|α+iβ| for ΔW₂
// and ΔW₃: the analogue of bdf's 1/c_j (bdfWork.newtonNorm). That q increment in q's
// scales ATol' + RTol'|q| stands for μ's nc components in the RMS; μ's own scale
// (ATol' + RTol'|μ|)/h (index 2, |μ| ≈ 0) ignored how far q is from the origin, as bdf's
// did (BENCHMARKS.md, "bdf's counts per step against N"). O(nnz(G)) with G of the last
// residual.
//
// Only on systems of sparseMinSize unknowns (nq + nc) and more, the size from which they
// take the sparse path, on either path, as hht's failure memory: on Andrews (nq + nc = 13)
// μ's own scale, larger than this one there, had worked as a tighter Newton stop, and
// this norm cost 0.15-0.26 digit of scd at equal work (BENCHMARKS.md, "radau5's μ measured
// through Gᵀδμ"); the small tables keep every count. The size rule is a trade, not a law:
// on chain10 (30 unknowns) this norm gained 0.1 digit at equal work and ran through the 5
// tolerances of 123 (5.2e-6 … 7.5e-6) where μ's own scale stopped at HMin at t = 0.037
// (its first step measured a rate θ = 6e-9 whose FACCON, five steps later, stopped a step
// 8 times longer at its first iterate, ‖ΔW‖ = 2.2, leaving |Gv| = 3e-5; such a stop is now
// refused, radauMonitor.staleFirst, and chain10 runs through with μ's own scale, 0.03
// digit better at equal work than before), while Andrews loses as above; a tighter FNEWT
// with this norm at every size (× 0.5 … 0.1, or RTol'^(2/3)) gains Andrews 0.3-1 digit
// but loses 0.06-0.46 on the bar chains (BENCHMARKS.md, "radau5's Newton stop at every
// size", "radau5's first iterate"). Not on systems with redundant rows removed
// (dae.Rekeeper), for a reason of principle: this norm does not see a δμ along a null
// direction of Gᵀ, which moves no q, and such a system's G nears one where its kept rows
// change; on A04 (Bricard) radau5 then converged to iterates that failed at t = 1.04 and
// 1.19 s down to HMin where μ's own scale had let the passage through (iftomm's
// TestA04Settings, TestRunsStartFromKeptRows). Measuring that null component by μ's own
// scale would need a basis of the null space of Gᵀ at each Jacobian (not tried).
func (w *radauWork) muNorm2(x []float64, f float64) float64 {
	clear(w.gtMu)
	w.se.addGT(w.gtMu, x, f)
	var s float64
	for i, g := range w.gtMu { // q: index 1, h⁰
		r := g / w.scal[i]
		s += r * r
	}
	return s
}

// stageNorm is the Newton norm of one real-system solution x (the rounding level of ΔW₁,
// radaurounding.go): the RMS of x_i/sc_i with μ through muNorm2 at f = h/γ.
func (w *radauWork) stageNorm(x []float64) float64 {
	end := w.muStart()
	var s float64
	for i, v := range x[:end] {
		r := v / w.scal[i]
		s += r * r
	}
	if end < len(x) {
		s += w.muNorm2(x[end:], w.hTry/radauCoef.gamma)
	}
	return math.Sqrt(s / float64(len(x)))
}

// converged refuses an iterate whose last increment came from a GMRES solve that missed
// its tolerance (massNewton.distrusted), at FixedH unless the miss was near
// (radauKrylov.nearMiss): there a refusal ends the run, in adaptive runs it cuts h.
func (w *radauWork) converged() error {
	if w.mn().distrusted() && !(w.c.FixedH > 0 && w.kry.nearMiss(w.mon.norm, w.mon.fnewt)) {
		w.noteResidual(w.ph[2])
		return ErrNoConvergence
	}
	return nil
}

// diverged names the worst component of the last stage's φ.
func (w *radauWork) diverged() error {
	w.noteResidual(w.ph[2])
	if math.IsNaN(w.mon.norm) || math.IsInf(w.mon.norm, 0) {
		return ErrNonFinite
	}
	return ErrNoConvergence
}

// errorNorm returns the scaled norm of the embedded error estimate (see
// Radau5), at least 1e-10 as in RADAU5, and records the worst component for a report.
func (w *radauWork) errorNorm(h float64) float64 {
	k := &radauCoef
	z1, z2, z3 := w.z[0], w.z[1], w.z[2]
	for i := range w.n {
		w.errv[i] = (k.d1*z1[i] + k.d2*z2[i] + k.d3*z3[i]) / h
	}
	w.massTimes(w.tmp, w.errv)
	for i := range w.n {
		// Only the differential rows of φ(t₀, y₀): the algebraic ones are the Newton
		// residual left by the previous step (see Radau5), not part of the local error.
		w.errv[i] = w.tmp[i]
		if w.differentialRow(i) {
			w.errv[i] += w.f0[i]
		}
	}
	w.lin.solveReal(w.errv)
	w.stats.Solves++
	e := w.estimateNorm()
	if !(e < 1) && (w.first || w.reject) {
		for i := range w.n {
			w.yt[i] = w.y0[i] + w.errv[i]
		}
		w.residualAt(w.errv, w.cur.T, w.yt)
		w.stats.FuncEvals++
		for i := range w.n {
			w.errv[i] += w.tmp[i]
		}
		w.lin.solveReal(w.errv)
		w.stats.Solves++
		e = w.estimateNorm()
	}
	if !(e < 1) && (w.c.FixedH == 0 || fixedStepDiverged(e, w.c.RTol)) { // a failure to report
		bi := worstIndex(w.n, func(i int) float64 { return math.Abs(w.errv[i] / w.scal[i]) })
		w.lad.worst = w.component(bi, w.errv[bi], "error estimate")
	}
	w.eLast = math.Max(e, 1e-10)
	return w.eLast
}

func (w *radauWork) scaledNorm(x []float64) float64 {
	var s float64
	for i, v := range x {
		r := v / w.scal[i]
		s += r * r
	}
	return math.Sqrt(s / float64(len(x)))
}

// notePeak records the weighted components |err_i|/sc_i of the accepted step's estimate
// (errorNorm left it in errv) over the differential components (q and v of the equations
// of motion; K_ii ≠ 0) in the run's peak (errorPeak). a, λ and μ, which the test weighs
// by h or h², stay out: their embedded estimates are not of the order of their errors.
func (w *radauWork) notePeak(h float64) {
	t := w.cur.T + h
	for i, x := range w.errv {
		if w.differentialRow(i) {
			w.observe(i, x, w.scal[i], t)
		}
	}
}

var _ ControlWarner = (*Radau5)(nil)

// ControlWarnings warns when an accepted step's error estimate (IV.8's embedded formula)
// was more than localPeakRatio × tol in one differential component, tol being RADAU5's
// transformed tolerance (see Radau5): the step test bounds the scaled RMS over all n
// components of y, which lets a single one reach √n × tol (see errorPeak). Without steps
// or with FixedH it returns nil.
func (m *Radau5) ControlWarnings() []string {
	w := m.w
	if w == nil {
		return nil
	}
	name := ""
	if w.li != nil {
		name = dae.VariableName(w.li.sys, w.peakIdx)
	} else {
		name = qvName(w.sys, w.se.nq, w.peakIdx)
	}
	return w.warnings(w.lad.fixed, "radau5", name, w.n, "components", "Hairer & Wanner 1996, IV.8")
}

// stepQuot returns h/h_new from the error norm e (IV.8, step size selection) before Gustafsson's
// correction.
func (w *radauWork) stepQuot(e float64) float64 {
	nit := float64(w.newton.MaxIters)
	safe := w.c.Safety
	fac := math.Min(safe, safe*(1+2*nit)/(float64(w.mon.iter)+2*nit))
	facr, facl := 1/w.maxGrow, 1/w.c.MinShrink
	q := math.Pow(e, 0.25) / fac
	if math.IsNaN(q) {
		q = facl
	}
	return math.Max(facr, math.Min(facl, q))
}

// accept commits the converged step of size h with error norm e and chooses the next h,
// Jacobian and factorization (RADAU5's reuse rules).
func (w *radauWork) accept(h, e float64) {
	k := &radauCoef
	n := w.n
	hnew := h
	if w.c.FixedH == 0 {
		quot := w.stepQuot(e)
		w.naccpt++
		if w.naccpt > 1 {
			// Gustafsson's predictive controller (IV.8).
			fg := (w.hacc / h) * math.Pow(e*e/w.erracc, 0.25) / w.c.Safety
			fg = math.Max(1/w.maxGrow, math.Min(1/w.c.MinShrink, fg))
			quot = math.Max(quot, fg)
		}
		w.hacc, w.erracc = h, math.Max(1e-2, e)
		hnew = math.Min(h/quot, w.c.HMax)
		if w.reject {
			hnew = math.Min(hnew, h)
		}
	}
	w.first, w.reject = false, false
	// Dense output: Newton divided differences of the collocation polynomial on the
	// nodes τ = 1, c₂, c₁, 0 (values z₃, z₂, z₁, 0 relative to y₀).
	z1, z2, z3 := w.z[0], w.z[1], w.z[2]
	c1, c2 := k.c1, k.c2
	for i := range n {
		y1 := w.y0[i] + z3[i]
		d32 := (z3[i] - z2[i]) / (1 - c2)
		d21 := (z2[i] - z1[i]) / (c2 - c1)
		d10 := z1[i] / c1
		d321 := (d32 - d21) / (1 - c1)
		d210 := (d21 - d10) / c2
		w.cont[0][i] = y1
		w.cont[1][i] = d32
		w.cont[2][i] = d321
		w.cont[3][i] = d321 - d210
		w.y0[i] = y1
	}
	w.prev.CopyFrom(&w.cur)
	w.fo.unpack(&w.cur, w.cur.T+h, w.y0)
	w.hold = h
	w.residualAt(w.f0, w.cur.T, w.y0)
	w.stats.FuncEvals++
	if w.gk != nil {
		w.gk.advance(w, h)
	}
	w.stats.Steps++
	w.kept.age++
	w.jFresh = false
	w.i3.fails = 0
	if w.coupledLeft > 0 {
		w.coupledLeft--
	}
	w.mn().accepted()
	// The Newton-Krylov path takes its J at every y₀ (its products are differences there)
	// and has no h-dependent factorization to keep.
	keepJ := w.mon.theta <= w.newton.ReuseRate && w.newton.Jacobian == JacobianAuto && !w.mn().inUse()
	if !keepJ {
		w.haveJ = false
	}
	qt := hnew / h
	if keepJ && qt >= w.newton.Deadband[0] && qt <= w.newton.Deadband[1] {
		w.h = h // keep h, hence the factorizations
		return
	}
	w.h = hnew
}

// rejectStep sets h after an error-test failure with norm e (RADAU5: h/10 at the first
// step) and marks a stale Jacobian for refreshing.
func (w *radauWork) rejectStep(h, e float64) {
	if w.first {
		w.h = 0.1 * h
	} else {
		w.h = h / w.stepQuot(e)
	}
	w.reject = true
	if !w.jFresh {
		w.haveJ = false
	}
}

// noteResidual records the worst component of a stage residual φ for a failure report.
func (w *radauWork) noteResidual(phi []float64) {
	bi := largest(phi)
	se := w.se
	if se == nil {
		w.lad.worst = w.li.component(bi, phi[bi], "equation")
		return
	}
	r := Residual{Value: phi[bi]}
	switch {
	case bi < se.nq:
		r.Block, r.Index = "kinematic equation q' = v", bi
		r.Owner = dae.CoordinateName(w.sys, r.Index)
	case bi < 2*se.nq:
		r.Block, r.Index = "velocity equation v' = a", bi-se.nq
		r.Owner = dae.CoordinateName(w.sys, r.Index)
	case bi < 3*se.nq:
		r.Block, r.Index = "equation of motion", bi-2*se.nq
		r.Owner = dae.CoordinateName(w.sys, r.Index)
	case bi < 3*se.nq+se.nc:
		r.Block, r.Index = string(se.form)+" constraint", bi-3*se.nq
		r.Owner = dae.ConstraintName(w.sys, r.Index)
	default:
		r.Block, r.Index = "position constraint", bi-3*se.nq-se.nc
		r.Owner = dae.ConstraintName(w.sys, r.Index)
	}
	w.lad.worst = r
}

// component names component i of y with value x.
func (w *radauWork) component(i int, x float64, what string) Residual {
	se := w.se
	if se == nil {
		return w.li.component(i, x, what)
	}
	blocks := [...]string{"position", "velocity", "acceleration"}
	switch {
	case i < 3*se.nq:
		j := i % se.nq
		return Residual{Block: blocks[i/se.nq] + " " + what, Index: j, Value: x, Owner: dae.CoordinateName(w.sys, j)}
	case i < 3*se.nq+se.nc:
		j := i - 3*se.nq
		return Residual{Block: "lambda " + what, Index: j, Value: x, Owner: dae.ConstraintName(w.sys, j)}
	}
	j := i - 3*se.nq - se.nc
	return Residual{Block: "mu " + what, Index: j, Value: x, Owner: dae.ConstraintName(w.sys, j)}
}

// Interpolate writes the collocation polynomial of the last step (IV.8) at t in
// [Previous().T, Current().T] into dst: all of q, v, a and λ, with error O(h⁴) in q
// (degree 3), the stage order. dst needs the sizes of Current(). It does not allocate.
func (m *Radau5) Interpolate(dst *State, t float64) {
	w := m.w
	k := &radauCoef
	p, c := &w.prev, &w.cur
	h := c.T - p.T
	if h == 0 {
		dst.CopyFrom(c)
		dst.T = t
		return
	}
	s := (t - p.T) / h
	for i := range w.n {
		w.yi[i] = w.cont[0][i] + (s-1)*(w.cont[1][i]+(s-k.c2)*(w.cont[2][i]+(s-k.c1)*w.cont[3][i]))
	}
	w.fo.unpack(dst, t, w.yi)
}
