// Package integrate holds the time integrators of linkage for the equations of motion of
// package dae (seed 002, eq. 16),
//
//	M(t,q) a = f(t,q,v) − G(t,q)ᵀ λ,    0 = g(t,q),    v = q',  a = q'',
//
// and their shared machinery: step-size control, Newton monitor, error norm, statistics,
// the registry and the Solve driver.
//
// # Methods
//
// Each method is a stateful stepper (Method): Init from a consistent state, Step to take one
// accepted step, Current/Previous for the state (t, q, v, a, λ), Interpolate for dense
// output, Stats for the work. The registry (Methods, Lookup) lists them; the first
// formulation is the default.
//
//	name          seed  equations                                 order q/v/λ  formulations
//	------------  ----  ----------------------------------------  -----------  ----------------
//	dopri5        002   84, 89, 91; HNW II.5                      5 / 5 / 5    index1-proj, index1
//	mdop5         002   84, 85 (Remark 10); 89, 91: runs dopri5   5 / 5 / 5    index1-proj, index1
//	hedop5        002   79, 81a-f (Remark 9); 89, 91              5 / 5 / 5    index2-proj, index2
//	hht           004   2, 6, 10-14; error 26, 34-39; Newton 40-47  2 / 2 / 1    index3
//	genalpha      002   64-70 (003 sec. 4: ρ∞)                    2 / 2 / 1    index3
//	genalpha-si2  002   64-66, 93-94                              2 / 2 / 2    ggl
//	lie-genalpha  002   Remark 5, 33-34, 64; BCA 2012; ABC 2015   2 / 2 / 1    index3, ggl
//	daealpha      003   3.3-3.4; 3.6-3.11 + CM; 2.5-2.6; 4.1-4.2   2 / 2 / 2    index2, cs, cs-qr,
//	                                                                            index1-proj
//	newmark       002   64 with β = 1/4, γ = 1/2                  2 / 2 / 2    ggl, index3
//	radau5        002   sec. 4.2; Hairer-Wanner IV.8, VII.4       5 / 5 / 3    ggl, index2, index3
//	bdf           002   71-79, 83, 87, 92; IDA order/step rules   k / k / k    ggl, index2, index3,
//	                                                                            index1, baumgarte,
//	                                                                            index2-baumgarte
//	gcp-newmark   000   7-8, 10-13, 16-20, 29-39; sec. 3.3        2 / 2 / 2    state-space
//	gcp-fv        000   as gcp-newmark, Jacobian 29 less eq. 40   2 / 2 / 2    state-space
//	gcp-abm       000   15 via 11-13, 37-39; ABM4 PECE, RK4 start  4 / 4 / 4    state-space
//	rk4           002   17, 84; 89, 91 (constant step)            4 / 4 / 4    index1-proj, index1
//
// lie-genalpha (liegenalpha.go) is the Lie group generalized-α method of Brüls, Cardona and
// Arnold (2012) for a dae.LieSystem, whose configuration lives on a Lie group and is
// advanced by q∘exp(hΔq); methods take such a system through Entry.NewLieMethod, which
// refuses every method without Entry.Lie by naming the capability. On a dae.System it
// runs on ℝⁿ as the additive group (dae.VectorSpace) and is genalpha (ggl: genalpha-si2
// with the derivative of G v in its velocity rows), so the conformance suite checks it
// there; its λ is second order in the ggl form.
//
// bdf's order k (1-5) varies with the step; the conformance suite runs it at order 5.
// radau5's λ is third order (s − 1 for the index-2 forms, Hairer-Wanner VII.4).
//
// λ order 1 for the index-3 α-methods is the start-up transient over the run from a state
// in motion (seed 002, Example 8); after it, and from rest, λ is second order. The
// semi-explicit first-order form K y' = φ(t, y) (semiexplicit.go) serves the methods that
// integrate index3, index2, ggl, index1, baumgarte or index2-baumgarte as a DAE in y =
// (q, v, a, λ[, μ]).
//
// # Linearly implicit systems
//
// radau5 and bdf (Entry.Implicit, ImplicitMethod) consume that form through one internal
// interface (firstOrder), whose second implementation is a user's dae.LinearlyImplicit
// K y' = φ(t, y): SolveImplicit (or InitImplicit and Step) integrates it with the
// system's K, its declared indices in the error scaling (h^(index−1), as RADAU5) and
// ∂φ/∂y analytic or by central differences; Current().Q holds y. The start (y₀, y'₀) is
// checked by dae.CheckLinearlyImplicit to 1e-8 relative. Every other method refuses such a
// system with an error naming the capability and the methods that have it. K is the
// constant diagonal of MassDiagonal, or with dae.ImplicitMass a full or state-dependent
// K(t, y): radau5 then solves the collocation conditions K(Y_i) Y'_i = φ(Y_i) at its
// stages with K(t₀, y₀) and J = ∂φ/∂y − ∂(K y'₀)/∂y in the decoupled Newton matrices
// (radaumass.go), bdf the residual K(t, y) y' − φ with the Newton matrix
// c_j K + ∂(K y')/∂y − ∂φ/∂y (BDF.InitImplicit); ∂(K z)/∂y is the system's
// (dae.ImplicitMassDerivative) or central differences of K (dae.MassProductFD).
//
// Forces that depend on λ (dae.ReactionForce: joint friction) make the equations of motion
// M a = f + f_λ(t,q,v,λ) − Gᵀλ (seed 004, eq. 8b lists them in the HHT-I3 formulation).
// hht, genalpha, genalpha-si2, newmark, bdf, radau5 (every formulation) and lie-genalpha
// (on ℝⁿ) add f_λ to their residuals and ∂f_λ/∂q, ∂f_λ/∂v where ∂f/∂q, ∂f/∂v go and
// −∂f_λ/∂λ beside Gᵀ in their Newton matrices (reaction.go), dense and sparse; their start
// values solve eq. 17 with f_λ by a fixed-point iteration on λ. daealpha presses f_λ with
// the multiplier of its eq. 3.3b, μ/(γ̂h) (index2), or ν/(β̂h²) (index1-proj), with ∂f_λ/∂λ
// in those columns; its cs and cs-qr forms refuse such systems (eq. 3.6 eliminates the
// multipliers; Entry.ReactionRefused). gcp-newmark and gcp-fv solve eq. 38 with f_λ(λ) by
// Newton on λ (matrix G_uᵀ − ∂f_λ/∂λ_u) and reduce eq. 29 with
// (G_vᵀ − ∂f_λ/∂λ_v)(G_uᵀ − ∂f_λ/∂λ_u)⁻¹ in place of −Hᵀ (gcpCore.reactionReduce); they
// and gcp-abm take such systems on their dense path. The explicit methods dopri5, mdop5,
// rk4, hedop5 (at each half-explicit stage, on its unsymmetric KKT factorization) and the
// state-space eq. 39 of gcp-abm solve their acceleration problem M a + Gᵀλ = f + f_λ(λ), G a = γ, nonlinear in λ, at every
// stage by Newton's method on (a, λ) with the matrix [M Gᵀ − ∂f_λ/∂λ; G 0], reduced to λ
// through their own factorization of [M Gᵀ; G 0] (an nc×nc matrix formed by one solve per
// nonzero column of ∂f_λ/∂λ, kept across stages while the corrections shrink tenfold per
// iteration; reactionaccel.go), started from the last λ; a failure of that iteration is
// named (errReactionNewton) and cuts the step. Stiff
// friction laws (a small regularization speed) make the explicit methods take steps of
// the law's time constant: use an implicit method there. radau5's index3 form measures v
// at its index-1 scale in its error test and Newton norm for such systems (the index
// scaling let errors of v, which f_λ turns into lasting tangential force, go unchecked;
// Radau5), at 1.2 to 2.7 times the evaluations of its index2 form. ali3, ali1 and
// multi-index press f_λ by λ̂, the multiplier of eq. 17 with f_λ at the iterate (q, v),
// solved by Newton on λ around their projection on M + αGᵀG, with ∂f_λ/∂λ·∂λ̂/∂(q, v) from
// the linearized eq. 17 in the tangent (aliWork.pressReaction, addLambdaHat): their own
// multiplier λ* + αΦ (or αΦ̈) is that of the trapezoidal q̈ₙ₊₁, O(h) off along Gᵀ, and
// friction pressed by it converged with order 1; with λ̂ they keep order 2 in q, v, λ.
// multi-index adds f_λ's power vᵀf_λ to its energy invariant (Entry.ReactionForces,
// `linkage methods` column f(λ)).
//
// Nonholonomic constraints A(t,q) v + b = 0 (dae.Nonholonomic: a knife edge; seed 002, eq.
// 44) join the constraint rows through dae.WithPfaffianRows, with multipliers μ after λ in
// State.Lambda (pfaffian.go). dopri5 and mdop5 add A a = γ_A to eq. 17 and project the
// velocities onto A v + b = 0 after every step (eq. 91); bdf (ggl, index2, index1,
// baumgarte, index2-baumgarte) and radau5 (ggl, index2) hold A v + b = 0 among their
// velocity- or acceleration-level rows (ggl: its stabilizer g = 0, −Gᵀμ takes the
// holonomic rows only, seed 002 after eq. 92); hht holds A(q₁)v₁ + b = 0 scaled by 1/(γh) beside the scaled
// g(q₁) = 0, with derivative A + (βh/γ)∂(A v + b)/∂q in its Newton matrix (the HHT-I3
// treatment, seed 004); genalpha, genalpha-si2 and newmark hold A(q₁)v₁ + b = 0 beside g/h,
// with derivative (γ/β)A + h ∂(A v + b)/∂q in their Newton matrix (eq. 70's variables; on
// the Newton-Krylov path of a dae.MassSolver system the preconditioner takes the rows A
// beside G in massSchur with right side (β/γ)r, pfaffianPrecond, si2MassPrecond, so its
// Schur complement is dense in the number of cut + Pfaffian rows and h ∂(A v + b)/∂q is
// left to GMRES), and in the stabilized index-2 form (eq. 94) give the Pfaffian rows no
// stabilizer (μ = 0 for them, as ggl above); lie-genalpha does the same on the group, A in the
// algebra's velocities and h R T(hΔq) in place of h ∂(A v + b)/∂q (R the rate's derivative
// along q∘exp, dae.WithLiePfaffianRows). Formulations that hold g = 0 alone (index3 but in hht and
// the α-methods) would read the rows as 0 = 0 and refuse, as do daealpha,
// hedop5, rk4, the gcp methods, ali3, ali1 and multi-index, each naming the capability
// (Entry.Nonholonomic, `linkage methods` column "A v+b=0"). Nonholonomic constraints do not
// combine with first-order states or λ-dependent forces yet (refused by name). Rows with
// patterns (dae.SparseNonholonomic: A and ∂(A v + b)/∂q on one pattern, ∂(Aᵀμ)/∂q on the
// coupling pattern) keep a large SparseEvaluator on the sparse path in hht, bdf, radau5,
// dopri5 and mdop5 (the rows' values follow G's); genalpha, genalpha-si2 and newmark
// assemble them densely and so take the dense path when a system has them.
//
// Formulations (seed 002, section 4.2): index3 (g = 0, eq. 16), index2 (G v + g_t = 0,
// eq. 79), ggl (stabilized index 2, eq. 92), index1 (G a = γ, eq. 84), index1-proj (eq. 84
// with the projections of eqs. 89 and 91 after every step), index2-proj (eq. 79 with the
// same projections; hedop5, whose λ is of order 4 without them), baumgarte (seed 000, eq. 5),
// index2-baumgarte (seed 002, eq. 87); for daealpha (seed 003) also cs and cs-qr, eq. 3.3
// premultiplied by the coordinate-splitting matrix P(q) (eq. 3.6) from an LU (eqs.
// 3.8-3.9) or a QR (eqs. 3.10-3.11) factorization of Gᵀ and solved by the CM iteration,
// and index1-proj as the α-method on the underlying ODE with the projections of eqs.
// 2.5-2.6. Entry.NewMethod sets one; `linkage solve --formulation` exposes it.
//
// # Error norm
//
// Local error estimates are measured by WeightedRMS (Hairer, Nørsett & Wanner 1993, II.4,
// eq. 4.11): sqrt(mean((e_i / (ATol + RTol·max(|y0_i|, |y1_i|)))²)); a step passes when
// the norm is ≤ 1 (NaN fails). Which blocks enter is stated by each method (dopri5: q and v;
// λ is never controlled by dopri5). StepControl.ATolQ replaces ATol by one absolute
// tolerance per coordinate for every error component of that coordinate (q_i, v_i, a_i;
// λ, μ and X keep ATol) in every adaptive method (radau5 and bdf also in their Newton
// weights; per variable of y for a linearly implicit system); multi-index, whose error
// control is the energy invariant, refuses it. bdf's Newton norm measures GGL's μ (zero in
// the exact solution) not by its own weight but by the q increment Gᵀδμ/c_j it stands for,
// in q's weights (bdfWork.newtonNorm); radau5's likewise by (h/γ)·GᵀΔW₁_μ and
// (h/|α+iβ|)·GᵀΔW₂,₃_μ on systems of sparseMinSize unknowns and more (radauWork.muNorm2).
// These norms bound the RMS over all components, so one component may pass at up to √n ×
// tol: hht, genalpha, bdf and radau5 warn when an accepted estimate passed at more than
// 10 × tol in one component (errorPeak, ControlWarnings).
//
// # Step-size controller
//
// The elementary controller of HNW II.4 (eq. 4.13): h_new = h·min(MaxGrow, max(MinShrink,
// Safety·e^(−1/(p+1)))) with p the order of the estimator's lower-order solution (dopri5:
// p = 4, exponent 1/5); no growth right after a rejection. dopri5, mdop5 and hedop5 use
// the PI form of the code DOPRI5 after accepted steps (β = 0.04, HNW II.4), which cut the
// rejections on the stiff crank by a third. StepControl holds the knobs
// (tolerances, H0, HMin, HMax, FixedH, MaxSteps) with their defaults; H0 = 0 chooses the
// first step by the starting-step algorithm of HNW II.4. FixedH > 0 takes fixed steps with
// no error test (the last one shortened to land on t_end).
//
// # Failure ladder
//
// Every method steps through one loop, ladder.step (ladder.go): attempt → error test →
// accept or reject → next h. The step-size rule is the method's (stepRule: the controller
// above for hht, genalpha, newmark, gcp and the dopri5 family, RADAU5's for radau5, IDA's
// order and step selection for bdf); the failure policy is the same for all. Its preamble,
// ladder.begin, refuses a tEnd not ahead and, at the first Step, resolves StepControl
// against the end of the run, makes the second-order controller of hht, genalpha,
// lie-genalpha, daealpha and gcp with its first step, and runs the method's setup (its
// Newton stop; the first steps of dopri5, radau5 and bdf, whose rules are their own). The
// implicit methods (hht, genalpha in all forms, lie-genalpha,
// newmark, bdf, radau5 with its real and complex systems, gcp-newmark, gcp-fv) correct in
// one Newton loop,
// newtonSolver (newton.go), which also makes the fresh-Jacobian retry: a method supplies
// its prediction, residual, matrix and increment (newtonIteration) and nothing of the
// loop. The solver also holds the Jacobian reuse policy of NewtonSettings (keeps): under
// JacobianAuto a matrix is kept while it converged with θ ≤ ReuseRate, h/h_J stays in the
// Deadband and no refresh is pending (the α-methods ask for one after a failed corrector,
// refreshAfter). The verdict on each increment is a strategy (stopRule): newtonMonitor (seed 004,
// eqs. 40-47) by default, fullNewton for gcp's full Newton, radauMonitor for radau5
// (RADAU5's FACCON, its θ from the last two quotients, divergence at θ ≥ 0.99, and a slow
// rate stopping the attempt with RADAU5's predicted cut; not RADAU5's: FACCON may stop a
// first iteration only at ‖ΔW‖ ≤ 1, radauMonitor.staleFirst). A Step returns nil only for an
// attempt that passed every test of its method. Otherwise:
//
//  1. error test failed: reject, h from the rule (never grown), retry;
//  2. no estimate (NaN/Inf in a stage, singular matrix, Newton or projection failure): an
//     implicit method whose matrix was reused first retries the same h once with a fresh
//     Jacobian (not after NaN/Inf, which a new matrix does not cure); then the rule cuts
//     h — by 1/4 (the controller, bdf as IDA), by 1/2 or the factor a slow Newton
//     iteration predicts (radau5, as RADAU5) — and retries. hht remembers both: after
//     a reused matrix failed for the second time within 10 attempts, its next 10
//     converged attempts take fresh ones
//     (newtonSolver.staleHold), and after a corrector failure at h_f its steps stay below
//     0.35·h_f, a bound relaxed by 1.1 per accepted step (controller.failCap);
//  3. h below HMin, or MaxSteps attempts: stop with a *StepError that says when (T, H),
//     what (Worst: block, index, value, owner via dae.Namer, always from the attempt whose
//     failure is reported, none for MaxSteps between two accepted steps), what was tried
//     ("N fresh Jacobians, M step cuts"; explicit methods "M step cuts"; rk4 and gcp-abm
//     "constant step"; every shrinking of h in the Step counts as a cut, error-test
//     rejections included), and why (Err wraps ErrStepSizeTooSmall or ErrMaxSteps
//     together with the last cause, e.g. ErrNonFinite or linalg.ErrSingular, so errors.Is
//     finds each).
//
// Fixed steps (StepControl.FixedH) have no smaller step to try: a Newton failure (after a
// fresh Jacobian) ends the run, and so does a converged step that diverged, whose local
// error estimate, computed as in error-controlled mode, is larger than the solution
// itself (e·RTol > 1: hht, genalpha, newmark, gcp-newmark and gcp-fv with the Newmark
// estimate, bdf with its order-k estimate, radau5 with its embedded one, the dopri5
// family with its embedded one; rk4 and gcp-abm have none). Without that
// test a corrector converged to a spurious root of the discrete equations and the run
// grew to NaN through accepted steps (gcp-newmark on the stiff double pendulum at h =
// 0.05). Both wrap the cause in ErrFixedStepTooLarge (ErrDiverged for the second) and
// the StepError's Hint suggests error control or a smaller step.
//
// Two failures are named for what they are:
//
//   - Singular position: on any failure (MaxSteps aside) the rank of G at the last
//     accepted state is measured by dae.ConstraintRank; when its smallest pivot relative to
//     the largest fell below 1e-4 times its value at the start, Err wraps
//     ErrSingularPosition with the time, the rank and the joints owning the dependent rows
//     (dae.ConstraintOwner), and the residual of the failed attempt, meaningless there, is
//     dropped (a four-bar driven past its toggle).
//   - Undamped index-3 drift: newmark on the index3 form (γ = 1/2, no numerical damping)
//     stops with ErrIndex3Instability when, for 50 accepted steps in a row, h is below 1e-2
//     of the largest step taken and ‖λ‖∞ above 100 times its value at the steps of normal
//     size (index3Watch, checked by the ladder after every accepted step); without it the controller shrank h for 10⁶ steps while λ grew
//     like 1/h². The Hint points to hht or genalpha, which damp it, or the ggl form.
//
// bdf's index2-baumgarte form keeps α₀ = C/HMax constant under error control (C/FixedH
// with fixed steps, as seed 002 prescribes α₀ = C/h for fixed step sizes): an α₀ that
// follows the variable h changes eq. 87c from step to step, and the jumps of v it causes
// failed the error test down to HMin at tol ≤ 1e-8.
//
// The last accepted state is never changed by a failed Step. A Step(tEnd) with tEnd not
// ahead of the current time takes no step and returns a *StepError wrapping ErrNoProgress,
// in every method (see Method).
//
// # Counters (Stats)
//
// Every counter has one meaning in every method, defined once on Stats (stats.go): Steps
// (accepted), the four causes of a failed attempt, each counted in its own counter —
// Rejected (error test, or the divergence test of a fixed step), NewtonFailures (a Newton
// iteration that did not converge), Singular (a singular matrix), NonFinite (NaN or Inf)
// — so that Steps + Rejected + NewtonFailures + Singular + NonFinite counts the attempts;
// then NewtonIters, FuncEvals, FDEvals, Jacobians, Factorizations, Solves, Projections,
// Repartitions, Regularized and DenseFallbacks. Per-method detail (e.g. dopri5's
// FuncEvals per attempt) is on each method.
//
// # Newton matrices without M (dae.MassSolver)
//
// On a system with the dae.MassSolver capability (the joint route's articulated-body
// recursion, seed 002 Table 1) and dae.MassMultiplier (M x by Newton-Euler), hht and the
// index-3 form of genalpha and newmark do not form their iteration matrices (seed 004,
// eqs. 12 and 14; seed 002, eq. 70): each Newton increment comes from GMRES (gmres.go,
// left-preconditioned, at most 20 products, relative residual 1e-2: an inexact Newton
// method) on products J z taken as forward differences of the residual eq. 13, one O(N)
// evaluation each, preconditioned by the mass part [c M Gᵀ; G 0] (c = 1/(1+α) for hht, C =
// (1−α_m)/(β(1−α_f)) for genalpha) solved by the Schur complement G M⁻¹ Gᵀ as eq. 17 is
// (massnewton.go, massschur.go). No nq×nq matrix is stored and a step costs O(N) per
// product, times the products GMRES needs: the terms the preconditioner leaves out, γh f_v
// and βh²((M a)_q + (Gᵀλ)_q − f_q), set their number (14 to 42 residual evaluations per
// step on the 3D rod chain, BENCHMARKS.md). Measured on hht's exact matrix of that chain
// (joint's BenchmarkNewtonPreconditioner), the stiffness βh² K is the term that counts
// (γh f_v hardly does), and it is not a per-joint armature the recursion could take: K in
// relative coordinates couples each joint with its whole subtree, and adding its diagonal
// or the spherical joints' 3×3 blocks alone made GMRES up to 8 × slower. What the recursion
// can take is the body-level geometric stiffness K_g = Σ Φ_mᵀ K_m Φ_m of the gravity and
// d'Alembert loads and of the loop closures' loads −Gᵀλ at the iterate's λ
// (dae.StiffMassSolver: K_m, 3×3 per body, an added angular inertia; offered by trees with
// or without cut joints, not with Pfaffian rows, whose loads K_g does not lever). On such
// a system hht, genalpha (index 3, si2; newmark, lie-genalpha's joint route) and bdf (all
// forms) precondition by c·M + k·K_g (massNewton.stiffen; k = βh² for hht, h² for
// genalpha's J₁₁ = C M + h² K, 1 beside bdf's c_j² M), and daealpha's index2 and
// index1-proj forms put β̂h² K_g in their q rows' block on systems without constraint rows,
// and its index2 form (cs, cs-qr) with rows in both of its saddle-point solves, the
// loop-closure loads at λ = ν/(β̂h²) (daeAlphaKrylov.stiffen), K_g evaluated with the factorization at the iterate
// with the d'Alembert loads at the forward-dynamics accelerations x = M⁻¹(f + b) that the
// scaled rows differentiate to (massNewton.stiffenFD, genAlphaWork.loadAccel), one
// Newton-Euler pass; on long loaded chains it takes most of the products the mass part
// alone needs (BENCHMARKS.md, "The geometric stiffness in the joint route's
// preconditioner"). radau5 puts M + K_g/c² in its real and complex systems on trees
// without constraint rows, the complex one by a complex articulated-body solve, K_g of
// the forward-dynamics accelerations at the step start with slender bodies' spin axes
// projected off (radauStiff; its complex shift c = (α+iβ)/h makes 1/c² mostly imaginary);
// ali3, ali1 and multi-index take (h²/4)K_g by a rent-or-buy rule (aliStiffness, below);
// gcp-newmark/gcp-fv keep the mass part (measured with K_g: no gain in CPU time). It is a property of the system, not an option: the residual is exact, so a
// converged iterate solves the same equations as with the dense matrix
// (TestMassNewtonMatchesDense).
//
// The residual's dynamic rows r (those of M a) are scaled on this path: r at q becomes
// M(q_F) M(q)⁻¹ r, q_F the point of the preconditioner's factorization (massNewton.
// scaleRows, one articulated-body solve and one Newton-Euler product per residual; hht,
// genalpha, bdf; radau5 by radauMassRows; ali3, ali1 and multi-index solve M(q)⁻¹r
// itself, alikrylov.go). hht and genalpha on a dae.ForwardDynamicsSolver system form
// M(q)⁻¹ r as ã − M(q)⁻¹(f + b) by one forward-dynamics pass (scaledRows: the residual's
// Newton-Euler pass, M(q) ã and the solve at q in one articulated-body recursion). The zeros are unchanged and the factor is I
// at q_F, but the rows' a-block is then M(q_F) at every iterate, as the preconditioner
// and a kept dense matrix have it. Unscaled, it is M(q), and in relative coordinates of
// slender bodies M(q) is ill-conditioned (cond ≈ 2e7 on a chain of rods of 0.01 m radius:
// a rod's spin about its own axis) with its near-null direction turning with the joint
// angles, so ρ(M(q_F)⁻¹ M(q) − I) reaches 0.3 after a step of 0.4 ms on the 10-rod chain
// (whose ODE has no eigenvalue above 22 s⁻¹): the Newton iteration failed about once per
// accepted step, on the dense path as on this one, and kept the steps of long chains 10 to
// 40 times shorter than the body route's (BENCHMARKS.md, "Scaled dynamic rows"). An iteration whose last Krylov solve missed
// its tolerance is not declared converged: its small increment says nothing about the
// residual. When an attempt's Newton iteration fails
// after GMRES missed its tolerance (stiff joint springs, whose βh² K the preconditioner
// lacks), a system of at most massNewtonDenseMax coordinates retries with the dense matrix
// (Stats.DenseFallbacks) and keeps it for massNewtonDenseSteps accepted steps, or until
// that retry fails as well (the step was too long for either); larger systems cut h as
// after any Newton failure. genalpha keeps its dense matrices allocated for that (their
// pages stay untouched until used); hht allocates them at the first fallback.
//
// bdf in its ggl and index2 forms takes the same path (bdfmassnewton.go): its residual
// K y' − φ on y = (q, v, a, λ[, μ]) takes M a from dae.MassMultiplier, and GMRES on its
// differences is preconditioned by c_j K − ∂φ/∂y without ∂f/∂q, ∂f/∂v and the q
// derivatives of M a, Gᵀλ, Gᵀμ and G v; eliminating δv and δa leaves [c_j² M Gᵀ; G 0]
// (massNewton), with G Gᵀ (nc×nc) for μ in the ggl form. GMRES runs in the variables of
// bdf's Newton norm, z_i h^(index_i−1) ewt_i, as radau5's does, to hht's forcing term
// 1e-2: in the unscaled ones δa ≈ c_j² δq ruled the 2-norm, and the δq, δv errors it
// left made bdf collapse to 6 µs steps on the 1000-rod chain even at 1e-4
// (bdfWork.krylov). The left-out ∂(G v)/∂q δq is O(1)
// in the ggl form but of rank nc, so GMRES takes a few more products there
// (TestBDFMassPrecond). Same fallback policy and counters; bdf allocates its dense
// matrices, and semiExplicit's M, at the first fallback. bdf's other forms take it too,
// their λ rows' weights on G δq, G δv and G δa entering s (constraintWeights,
// formweights.go): index2-baumgarte G δv + α₀ G δq, index3 G δq, index1 G δa, baumgarte
// G δa + 2α G δv + β G δq. index1 and baumgarte, whose a and λ the Newton norm weighs in
// full, stop at t = 0 on the slender 1000-rod chain (h below HMin; cause not isolated,
// BENCHMARKS "bdf on the 1000-rod chain").
//
// radau5 (all three forms) takes the same path (radaumassnewton.go): its real system
// (γ/h) K − J and its complex system ((α+iβ)/h) K − J, the latter as 2n real unknowns,
// are solved by GMRES on forward differences of φ at (t₀, y₀), the simplified Newton
// iteration's point, so the iteration is RADAU5's with the exact J up to the forcing
// term 1e-3 (radauGMRESRTol); GMRES runs in the variables scaled by radau5's Newton
// scales, so its residual is measured in the norm of the stopping rule. The
// preconditioner is bdfMassPrecond's matrix with c = γ/h or (α+iβ)/h: for the complex c
// the elimination leaves c² times the real [M Gᵀ; G 0], solved as two real recursive
// solves on the real and imaginary parts. The rate θ of the stopping rule is floored at
// the forcing term (radauMonitor.minRate), so θ/(1−θ)·‖ΔW‖ ≤ FNEWT still bounds the
// iterate's error with inexact increments, and an estimate whose GMRES solve missed
// rejects the step. Its dynamic rows are scaled by M(q₀) M(q)⁻¹ at the stages
// (radauMassRows; on its dense path too when the system has dae.MassSolver, M(q₀) then
// formed once per step), so the simplified Newton iteration's frozen a-block is exact
// there. The Jacobian (the preconditioner's factorization at q₀) is taken
// at every step; ApproxJacobian (the mass part itself) takes one preconditioner
// application per system and no products. genalpha's stabilized index-2 form
// (genalpha-si2, newmark's default) takes hht's path with si2MassPrecond (G Gᵀ for μ,
// then [C M Gᵀ; G 0], si2massnewton.go). lie-genalpha on such a System (ℝⁿ, where its
// iteration is genalpha's: T = I, no bracket) runs as genalpha, both forms, on this path.
// ali3, ali1 and multi-index (alikrylov.go) solve their tangent matrix of seed 001 eqs.
// 6-9 by GMRES on differences of the equation of motion with λ* held plus the penalty's
// column, preconditioned by M + βΦ_qᵀΦ_q (β = αh²/4 or α) through massSchur with Woodbury's
// identity (G M⁻¹ Gᵀ + I/β, positive definite whatever the rank of Φ_q), and on
// dae.StiffMassSolver systems by M + (h²/4)K_g + βΦ_qᵀΦ_q once GMRES takes more
// than one product per solve, K_g's d'Alembert loads at the forward-dynamics accelerations
// of the residual's rows (aliStiffness); their projections apply M + αΦ_qᵀΦ_q the same way. With λ-dependent forces (joint friction)
// at every size their residual is the dense path's (f_λ pressed by λ̂ of eq. 17 at the
// iterate) and each product adds −∂f_λ/∂λ δλ̂, δλ̂ from the linearized eq. 17 by the
// fixed-point iteration on λ (alikrylovreaction.go): no ∂f_λ matrix is formed.
//
// Forms without the path on a dae.MassSolver system of more than massNewtonDenseMax
// coordinates are refused at Init, naming method, form and reason (refuseDenseNewton:
// first-order states in hht), rather than run at O(nq³) per factorization. Pfaffian rows
// keep the path: genalpha (so lie-genalpha on ℝⁿ) and hht take them in massSchur over
// (G; A) (hht's right side unscaled: its rows A v + b divided by γh lead with A, as
// g/(βh²) with G), bdf (every form that takes them) beside G in
// bdfMassPrecond with G's weights, less the position weight in the Baumgarte forms (g = 0
// on them, rowWeights), and radau5 (ggl, index2) beside G in both of radauKrylov's
// systems, μ = 0 for them in ggl.
// hht and genalpha (both forms, so newmark, and lie-genalpha run as genalpha) take
// λ-dependent forces (joint friction) on the path above massNewtonDenseMax coordinates
// (below, their dense matrices with ∂f_λ are cheaper: 1.6-1.7 × for genalpha on the 10-pin
// friction chain): their residuals (hht's eq. 14, genalpha's eqs. 69/94 with si2's μ rows)
// carry f_λ at the iterate's λ, so GMRES's difference products hold −∂f_λ/∂λ beside Gᵀ
// and ∂f_λ/∂q, ∂f_λ/∂v, which the preconditioner lacks; their starts solve eq. 17 with
// f_λ through massSchur (eq17.solveWith), and ∂f_λ's nq×nq matrices wait for a dense
// fallback (newReactionDeferred). bdf (its six forms) and radau5 (its three) take them alike
// above the bound (massNewtonFor): semiExplicit's φ holds f_λ at the λ of y, so bdf's and
// radau5's difference products (radau5's at the simplified Newton point y₀ + σz, whose λ
// part moves f_λ) hold the same columns; their start is eq17's, ∂f_λ's nq×nq matrices wait
// for a dense jacobian.
// The hold rows of friction's slack coordinates (2 per pin) hold one
// coordinate each and stay out of massSchur's Schur complement (heldRows: solves with
// those coordinates locked, dae.LockedMassSolver), so the preconditioner costs O(N) per
// factorization and per application; with dae.ConstraintForcer hht's and the index-3
// genalpha's residuals add Gᵀλ without forming G, and with dae.LoopJacobian their
// factorizations (and eq. 17 at the start) evaluate G's loop-closure rows alone, so no
// nc×nq G is stored on the path (massNewton.withoutG; genalpha's si2 form keeps it for
// its G Gᵀ). daealpha's index2 form (eqs. 3.3) takes its increments by GMRES on
// residual differences preconditioned by two saddle-point solves [M Gᵀ; G 0](Δq, ν) and
// [M Gᵀ; G 0](Δv − κΔq, μ − κν) on the v rows less κ = γ̂/(β̂h) × the q rows (where the
// forces cancel and the v rows' O(h) stiffness coupling becomes −κMΔq) through massNewton,
// its dynamic rows scaled as genalpha's (daeAlphaKrylov); index1-proj by one such solve for (Δq, ν) and eq. 2.6's rows for Δv,
// its projections (eqs. 2.5b-e) by the Schur complement through dae.MassSolver; both
// take λ-dependent forces at every size (the residual presses f_λ with the iterate's μ
// or ν, so the products hold ∂f_λ/∂λ; eq. 17 with f_λ by Newton on λ with difference
// columns, newReactionAccelFD). cs and cs-qr (eq. 3.6) take the CM iteration's increments
// with index2's preconditioner, the products differences of index2's scaled rows at a
// running multiplier estimate with G(q)ᵀν frozen at the iterate, so ∂(Gᵀν)/∂q is left out
// as the CM iteration leaves it out; P(q) is not formed (the CM increment does not depend
// on it; daeAlphaCM). gcp-abm, explicit, needs no Newton matrix: on a dae.MassSolver
// system it takes eq. 39 as eq. 17 (with λ-dependent forces by Newton on λ with difference
// columns, newReactionAccelFD) by the Schur complement G M⁻¹ Gᵀ (massSchur, gcpmass.go)
// at every size, keeping only the partition's nc-row matrices G, G_u and H (O(N) per rate
// for a fixed number of cut-joint rows). gcp-newmark and gcp-fv on a dae.MassSolver and
// dae.MassMultiplier system take their Newton increment (eq. 30) by GMRES on forward
// differences of Ψ (eq. 20, Zᵀ(M a − f) with M a by the recursion) preconditioned by the
// reduced mass Zᵀ M Z of eq. 39, applied as a Schur-complement solve (gcpKrylov): no nq×nq
// matrix at any size. The differences keep the terms of eq. 40 that gcp-fv's quasi-Newton
// matrix drops, so there gcp-fv is Newton's method on the same equations with the exact
// Jacobian up to the forcing term (gcp-newmark's iteration), not the paper's approximate
// matrix. With λ-dependent forces Ψ carries f_λ pressed by λ of eq. 38, solved by Newton
// on λ with a matrix of differences of f_λ kept while it contracts (refactorReaction), so
// the products hold ∂f_λ through λ.
//
// # Solve
//
// Solve runs a method from a start state to t_end, records samples (at SolveOptions.Output
// times by dense output, or every accepted step), measures the constraint residuals after
// every accepted step (Solution.MaxResidual), calls an optional Observer, and on failure
// returns the partial Solution together with the error. Steps do not allocate after Init;
// only recording samples does.
//
// # Large models
//
// A System with fixed patterns (dae.Sparsity) and at least sparseMinSize KKT rows has its
// KKT and Newton matrices factorized sparsely. When it also writes its matrices as
// pattern values (dae.SparseEvaluator), every method evaluates M, G and the derivatives
// straight into the solvers' patterns through index maps computed by Init, forms M a, Gᵀλ
// and G v as sparse products and stores no nq×nq or nc×nq matrix (sparseeval.go,
// semisparse.go, si2sparse.go, daealphasparse.go, gcpsparse.go); the constraint rows'
// derivatives of bdf, radau5, daealpha, gcp-newmark and gcp-fv are then central
// differences over groups of columns that share no constraint. The gcp methods partition
// by linalg.SparseRankLU, never form H (eq. 31), solve eq. 39 as the KKT system and eq.
// 29 through an augmented sparse system; without the sparse path they refuse systems of
// more than gcpMaxCoords coordinates by name. Both paths
// take the same steps to rounding (problems/sparseeval_test.go).
package integrate
