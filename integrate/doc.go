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
// bdf's order k (1-5) varies with the step; the conformance suite runs it at order 5.
// radau5's λ is third order (s − 1 for the index-2 forms, Hairer-Wanner VII.4).
//
// λ order 1 for the index-3 α-methods is the start-up transient over the run from a state
// in motion (seed 002, Example 8); after it, and from rest, λ is second order. The
// semi-explicit first-order form K y' = φ(t, y) (semiexplicit.go) serves the methods that
// integrate index3, index2, ggl, index1, baumgarte or index2-baumgarte as a DAE in y =
// (q, v, a, λ[, μ]).
//
// Formulations (seed 002, section 4.2): index3 (g = 0, eq. 16), index2 (G v + g_t = 0,
// eq. 79), ggl (stabilized index 2, eq. 92), index1 (G a = γ, eq. 84), index1-proj (eq. 84
// with the projections of eqs. 89 and 91 after every step), index2-proj (eq. 79 with the
// same projections; hedop5, whose λ is of order 4 without them), baumgarte (seed 000, eq. 5),
// index2-baumgarte (seed 002, eq. 87). Entry.NewMethod sets one; `linkage solve
// --formulation` exposes it.
//
// # Error norm
//
// Local error estimates are measured by WeightedRMS (Hairer, Nørsett & Wanner 1993, II.4,
// eq. 4.11): sqrt(mean((e_i / (ATol + RTol·max(|y0_i|, |y1_i|)))²)); a step passes when
// the norm is ≤ 1 (NaN fails). Which blocks enter is stated by each method (dopri5: q and v;
// λ is never controlled by dopri5).
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
// A Step returns nil only for an attempt that passed every test of its method. Otherwise:
//
//  1. error test failed: reject, h from the controller (never grown), retry;
//  2. no estimate (NaN/Inf in a stage, singular KKT matrix, Newton or projection failure):
//     reject, h ← h/4, retry (implicit methods first retry once with a fresh Jacobian);
//  3. h below HMin, or MaxSteps attempts: stop with a *StepError that says when (T, H),
//     what (Worst: block, index, value, owner via dae.Namer), what was tried, and why
//     (Err wraps ErrStepSizeTooSmall or ErrMaxSteps together with the last cause, e.g.
//     ErrNonFinite or linalg.ErrSingular, so errors.Is finds each). In fixed-step mode
//     the first failure stops the run with its cause.
//
// The last accepted state is never changed by a failed Step.
//
// # Counters (Stats)
//
//	Steps           accepted steps
//	Rejected        rejected attempts (error test, non-finite values, singular matrices,
//	                failed projections)
//	NewtonFailures  attempts abandoned because Newton did not converge (implicit methods)
//	NewtonIters     all Newton iterations, rejected attempts included
//	FuncEvals       right-side evaluations: one M, f, G, γ at one point (for dopri5 with its
//	                KKT factorization; 6 per attempt + 1 per projected step + 1 in Init
//	                + 1 for the starting step + 1 per Interpolate inside a step)
//	FDEvals         System evaluations spent on finite-difference Jacobians
//	Jacobians       iteration-matrix assemblies
//	Factorizations  LU factorizations (iteration and KKT matrices)
//	Solves          forward/back substitutions
//	Projections     projections onto the constraint manifold (dopri5: eq. 89 and eq. 91
//	                count one each)
//
// # Solve
//
// Solve runs a method from a start state to t_end, records samples (at SolveOptions.Output
// times by dense output, or every accepted step), measures the constraint residuals after
// every accepted step (Solution.MaxResidual), calls an optional Observer, and on failure
// returns the partial Solution together with the error. Steps do not allocate after Init;
// only recording samples does.
package integrate
