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
// order 2 (Fig. 16). The package holds no CLI code; `linkage reproduce arnold-ex8` prints
// Table.
package reproduce
