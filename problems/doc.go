// Package problems is linkage's benchmark library. Each Problem is a dae.System (seed 002,
// eq. 16, M a = f − Gᵀλ, g = 0) with analytic derivatives (dae.MassDerivative or
// dae.ConstantMass, dae.ConstraintForceDerivative, dae.ForceDerivative) and dae.Namer,
// consistent initial values (q, v, a, λ) at T0, a time span, a reference solution at TEnd
// and the reference's provenance. Get("name") returns one; List returns all with default
// parameters. Reference.SCD measures significant correct digits in the test-set
// convention.
//
// The problems:
//
//   - "pendulum": the mathematical pendulum in Cartesian coordinates of seed 002 (Arnold
//     2016), Examples 1 and 4, eq. 6: m = 1, l = 1, g_grav = 9.81, 5° from rest, t ∈ [0, 1.25].
//     Reference: the exact solution by Jacobi elliptic functions (sn, cn, dn by the
//     arithmetic-geometric mean, Abramowitz & Stegun 16.4), available at any t through
//     PendulumExact for order tests; λ from eq. 15. Implements dae.Energy.
//   - "chain" ("chainN", 2 ≤ N ≤ 50, default N = 10): the chain of N point masses of seed
//     002, Example 2, eqs. 7a-e, same parameters, first rod at 5°, the others hanging
//     vertically, from rest, t ∈ [0, 1]. Reference by an independent route: the chain in
//     relative angle coordinates (an ODE with the mass matrix of its Lagrangian),
//     classical RK4 with 4000 and 8000 steps and one Richardson extrapolation, converted to
//     Cartesian q, v, a and rod forces λ; the estimated error (difference to the
//     extrapolation from 2000 and 4000 steps) is in Ref.Source, 2.4e-14 for N = 10. The
//     reference is computed when the Problem is built (50 ms for N = 10, 2 s for N = 50).
//     Implements dae.Energy.
//   - "andrews": Andrews' squeezing mechanism exactly as in the IVP test set (Mazzia &
//     Iavernaro 2003, II.13; Hairer & Wanner 1996, VII.7): 7 angles, 6 loop constraints,
//     g_t = 0, t ∈ [0, 0.03], the test set's 30-digit consistent initial values; reference
//     the test set's PSIDE run at tolerance 1e-14 (q, v, a, λ), scd over the 7 angles.
//   - "crank": Simeon's slider crank with a flexible connecting rod as coded in the test
//     set's RESMBS (II.19): 3 rigid and 4 elastic coordinates, the position constraints
//     with the rheonomic driver φ₁ = Ω t (g_t = (0, 0, −Ω)), linear elasticity, no damping,
//     gravity 0, π truncated to 3.1415927 as coded, the smooth INIT start, t ∈ [0, 0.1];
//     reference the test set's MEBDFI run at tolerance 1e-14 (q, v, a, λ), scd over the 7
//     positions y1..y7. The elastic positions are of size 1e-5 to 2e-4 and dominate that
//     scd: the test set's older MDOP5 reference agrees with this one to scd 5.4 only.
//     The start is the test set's, completed to consistency by dae.Initialize (its
//     positions and velocities are printed to 9 digits).
//   - "pipendulum": a damped pendulum held by a PI controller whose integrator is a
//     first-order state X (seed 004, eq. 8a; dae.FirstOrder); reference from the angle ODE
//     by RK4 with Richardson extrapolation. Only methods that integrate X (dopri5, mdop5,
//     hht) accept it.
//   - "heavytop", "heavytop-fast": a rigid body on a fixed point with Euler parameters and
//     the normalization as a constraint, written directly as equations (independent of
//     package spatial): the slow top of seed 002, Example 6, and the fast top of Brüls &
//     Cardona with its published reference at t = 1 and t = 2.
//   - "stiffchain": 20 bars pinned end to end with stiff, lightly damped joint springs
//     (RSDA k = 1e5, c = 10), built with package planar and falling from horizontal,
//     t ∈ [0, 1]: the regime of seed 004's HHT-versus-BDF comparison. Reference stored
//     from radau5 at tol 1e-11 (equal to bdf's within 2.6e-12), scd over all 60
//     coordinates; StiffChain builds other sizes and parameters (without reference).
//   - "chain-bars:N" (1 ≤ N ≤ 10000) and "chain3d:N" (1 ≤ N ≤ 10000), outside List: issue 15's
//     chains, N bars (L = 0.5 m, m = 1 kg) pinned end to end in the plane (package planar)
//     or N rods on spherical joints in space (package spatial, as Exudyn's chain
//     benchmark), released horizontal at rest under gravity, t ∈ [0, 1], the models of
//     examples/chain-bars.yaml and chain3d.yaml. Reference for N ≤ 20 by an independent
//     route: the bar chain in absolute angles (an ODE from its Lagrangian), RK4 with
//     Richardson extrapolation, mapped to the rods' coordinates for chain3d (they stay in
//     the x-z plane by symmetry); agrees with radau5 at tol 1e-11 to 9 digits. Above N = 20
//     no reference (its cost grows as N³): a run is judged by residuals and energy.
//
// Also here, outside List: the three models of seed 000 section 4 built with package
// planar (Haug1997: stiff double pendulum with RSDAs, slider-crank with a TSDA, Andrews
// with k = 30000 and c = 100000), whose references `linkage reproduce haug1997` computes.
//
// The test-set data (parameters, initial values, references) are the published decimal
// strings, copied from the team's shared problems/*.json (kept in data/); the tests
// compare them with the JSON digit for digit.
//
// Systems keep no scratch: every evaluation is read-only, writes all of its destination
// and does not allocate, so a Problem may be shared between goroutines.
package problems
