// Package reproduce re-runs numerical experiments of the seed papers with linkage's
// integrators and returns their numbers next to the published ones, so that a reader can
// check a claim of a paper (and linkage's implementation of it) with one command.
//
// ArnoldEx8 is Example 8 of seed 002 (Arnold 2016, after eq. 70, Figs. 10 and 16): the
// mathematical pendulum in Cartesian coordinates (eq. 6),
//
//	m x” = −x λ,   m y” = −m g_grav − y λ,   0 = (x² + y² − l²)/2,
//
// integrated by the generalized-α method with ρ∞ = 0.9 in the index-3 form (eqs. 64, 67)
// and the stabilized index-2 form (eqs. 93-94), from x_0 = 0 and x_0 = 0.2 on the energy
// level m/2 − m g_grav l, with h = 0.02 and 0.01. The index-3 form shows the first-order
// transient in λ of Fig. 10 (0.24 → 0.12); the stabilized index-2 form converges with
// order 2 (Fig. 16).
//
// ArnoldDriftOff is the drift-off effect of seed 002, Fig. 14 (eq. 86): without
// projection ‖g‖ grows linearly in the index-2 form and quadratically in the index-1 form;
// with projection (eqs. 89, 91) or the stabilized index-2 form (eq. 92) it stays bounded.
//
// ArnoldEx9 is seed 002, Example 9: backward Euler on the index-3 form, whose λ does not
// converge when h_n → 0 with h_{n−1} fixed.
//
// Haug1997 re-runs section 4 of seed 000 (errors, largest converging steps of IMPL, FV and
// ABM, Table 5, Figs. 9-11); HaugPendulumScan repeats the largest-step search on the stiff
// double pendulum over a grid of the RSDA stiffness and damping that the paper omits.
//
// Yen1998 re-runs section 4 of seed 003 (the DAE α-method): the stiff spring pendulum's
// energy by ρ and trajectory by h (Figs. 2-3), and Table 1 on the nonlinear bushing, the
// CM iteration on the coordinate-split form against Newton on the index-2 form.
//
// Yen1998Flex is the flexible slider-crank of seed 003, section 4.3 (Figs. 7-12, Table 2):
// a beam of 4 finite elements in a floating frame (planar.Beam) driven through a crank,
// integrated in fixed steps by the DAE α-method, CM against index 2 (Yen1998FlexMethod
// takes another pair of formulations).
//
// The package holds no CLI code; `linkage reproduce NAME` prints each Table and plots the
// series.
package reproduce
