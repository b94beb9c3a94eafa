package dae

import "gonum.org/v1/gonum/mat"

// MassSolver is the optional capability of solving M(t,q) x = b without forming M, at a
// cost linear in the number of bodies: the articulated-body recursion of seed 002
// Table 1 for tree-structured systems in joint coordinates. Methods that only need the
// accelerations a = M⁻¹(f − Gᵀλ) (eq. 17 by its Schur complement G M⁻¹ Gᵀ) use it in place
// of a factorization of M; methods that need M itself still call Mass.
type MassSolver interface {
	MassSolve(x []float64, t float64, q, b []float64)
}

// StiffMassSolver is the optional capability of a MassSolver of solving with the mass
// matrix plus a body-level geometric stiffness,
//
//	(M(q) + k K_g) x = b,    K_g = Σ_m Φ_mᵀ K_m Φ_m,
//
// in O(N) without forming either: K_m is the 3×3 Hessian of the potential −Σ F·p of the
// loads body m carries (its gravity and d'Alembert force m g − m a_c at its centre of mass,
// the loads −Gᵀλ of the loop-closure rows at their points on m, the forces its children's
// subtrees transmit at their joints, which include the rows' loads on the subtree) under a
// small rotation of m about its inboard joint, and Φ_m = ∂ω_m/∂q' the angular rows of m's
// Jacobian, so K_g is the part of the stiffness (M a)_q − f_q + (Gᵀλ)_q of the gravity,
// inertia and constraint loads that a body's inertia can hold (all of it for a planar
// chain at rest, with or without loops). The articulated-body recursion of seed 002
// Table 1 takes k K_m as an added angular inertia of body m. The implicit methods'
// Newton-Krylov preconditioner uses it for the h² term of their iteration matrices, which
// the mass part alone leaves to GMRES.
type StiffMassSolver interface {
	MassSolver
	// HasGeometricStiffness reports whether K_g sees every load the bodies carry besides
	// the tree's joints: false when constraint rows press on the bodies with loads
	// GeometricStiffness does not lever (Pfaffian rows, say), so the d'Alembert and
	// transmitted forces it levers would not balance.
	HasGeometricStiffness() bool
	// GeometricStiffnessLen returns the length of the storage GeometricStiffness writes.
	GeometricStiffnessLen() int
	// GeometricStiffness writes K_g's body matrices K_m at (t, q, v, a) with the
	// constraint rows' multipliers lambda (length nc; nil: their loads left out), each
	// clipped to its positive semidefinite part (compressive loads dropped), so M + k K_g
	// is positive definite for k ≥ 0.
	GeometricStiffness(kg []float64, t float64, q, v, a, lambda []float64)
	// StiffMassSolve writes x = (M(t,q) + k K_g)⁻¹ b with K_g as GeometricStiffness wrote
	// it into kg; with locked non-nil (a LockedMassSolver's) the coordinates where
	// locked[i] are prescribed as in LockedMassSolve.
	StiffMassSolve(x []float64, t float64, q, b []float64, locked []bool, kg []float64, k float64)
	// AddGeometricStiffnessMul adds k K_g x to dst with K_g as GeometricStiffness wrote it
	// into kg, at the same O(N) cost: a preconditioner that solves with M + k K_g for the
	// accelerations moves K_g's product with the known part of the positions to the right
	// side by it.
	AddGeometricStiffnessMul(dst []float64, t float64, q, x, kg []float64, k float64)
}

// AsStiffMassSolver returns sys as a StiffMassSolver, or nil when it is none or
// HasGeometricStiffness is false.
func AsStiffMassSolver(sys System) StiffMassSolver {
	if s, ok := sys.(StiffMassSolver); ok && s.HasGeometricStiffness() {
		return s
	}
	return nil
}

// ForwardDynamicsSolver is the optional capability of a MassSolver of giving the
// accelerations of the system under its forces f(t,q,v) (Force) and an added generalized
// force b, with the constraints left out,
//
//	x = M(t,q)⁻¹ (f(t,q,v) + b),
//
// by one recursion: the articulated-body algorithm of seed 002 Table 1 with its
// velocity-product and gravity terms (forward dynamics), where Force and MassSolve take a
// Newton-Euler pass and an articulated-body pass. An implicit method whose residual's
// dynamic rows r = M(q) ã − f − b are scaled to M(q_F) M(q)⁻¹ r (its Newton-Krylov
// preconditioner's rows) takes M(q)⁻¹ r as ã − x: the residual's Newton-Euler pass, its
// product M(q) ã and the solve at q become one articulated-body pass.
type ForwardDynamicsSolver interface {
	MassSolver
	// ForwardDynamics writes x = M(t,q)⁻¹ (f(t,q,v) + b); b is not changed.
	ForwardDynamics(x []float64, t float64, q, v, b []float64)
}

// MassMultiplier is the optional capability of forming the product M(t,q) x without
// forming M, at a cost linear in the number of bodies: the recursive Newton-Euler
// algorithm of seed 002 (Table 1's inverse-dynamics counterpart) at zero velocity and
// without gravity. The implicit methods' residuals need M(q₁) times an acceleration at
// every Newton iteration; with it they stay linear in the number of bodies.
type MassMultiplier interface {
	MassMul(dst []float64, t float64, q, x []float64)
}

// LockedMassSolver is the optional capability of a MassSolver whose constraints include
// rows that hold one coordinate each, g_k = q_i − f_k(t) (G's row k is the unit row e_iᵀ
// at every q: joint drives and the hold rows of joint friction's slack coordinates), and
// that can solve M with those coordinates locked. With E the unit rows, eq. 17's matrix
// [M Eᵀ; E 0](x, μ) = (r, s) has x_h = s, M_ff x_f = r_f − M_fh s and μ = r_h − (M x)_h:
// the forward dynamics of the tree with the held coordinates' motion prescribed, and the
// forces that prescribe it, one articulated-body recursion with fewer free joints
// (Featherstone's hybrid dynamics), so the held rows stay out of the Schur complement
// G M⁻¹ Gᵀ that the remaining (loop-closure) rows need.
type LockedMassSolver interface {
	MassSolver
	// HeldCoordinate returns the coordinate i that constraint row k holds (G's row k is
	// e_iᵀ at every t and q), or −1 when row k is not such a row or i cannot be locked.
	HeldCoordinate(k int) int
	// LockedMassSolve solves M(t,q) x = b with the coordinates i where locked[i] prescribed,
	// in place of their equations: on entry b_i is the force on a free coordinate and the
	// prescribed x_i of a locked one; on return x_i is the solution on a free coordinate
	// and (M x)_i, the force that holds it to x_i, on a locked one. locked[i] is false
	// for every coordinate HeldCoordinate does not return.
	LockedMassSolve(x []float64, t float64, q, b []float64, locked []bool)
}

// ConstraintForcer is the optional capability of adding the constraint force term of
// eq. 16, G(t,q)ᵀλ, without forming G, at a cost linear in the number of bodies: the
// loads of the loop-closure rows summed over each subtree by the recursion's backward
// pass, projected on the joint axes, and the held rows' λ on their coordinates. A residual
// that needs Gᵀλ at every evaluation (the implicit methods' Newton-Krylov products) then
// skips the nc×nq G, which it evaluates only where a factorization needs it.
type ConstraintForcer interface {
	// HasConstraintForce reports whether AddConstraintForce covers every row of this
	// system (false for row kinds it does not sum).
	HasConstraintForce() bool
	// AddConstraintForce adds G(t,q)ᵀλ to dst.
	AddConstraintForce(dst []float64, t float64, q, lambda []float64)
}

// AsConstraintForcer returns sys as a ConstraintForcer, or nil when it is none or
// HasConstraintForce is false.
func AsConstraintForcer(sys System) ConstraintForcer {
	if c, ok := sys.(ConstraintForcer); ok && c.HasConstraintForce() {
		return c
	}
	return nil
}

// LoopJacobian is the optional capability of a LockedMassSolver of evaluating only the
// rows of G(t,q) that HeldCoordinate does not hold (the loop-closure rows of eq. 16, which
// the Schur complement G_C M⁻¹ G_Cᵀ needs; the held rows are unit rows known without
// evaluation). A method that solves eq. 17 with the held rows eliminated then never forms
// the nc×nq G: on a chain with friction in N pins the 2N hold rows made it O(N²) per
// factorization, where the loop-closure rows alone cost O(n_C·N).
type LoopJacobian interface {
	// LoopConstraintJacobian writes the rows k with HeldCoordinate(k) < 0, in increasing
	// k, into the rows of dst (n_C × nq), the same numbers ConstraintJacobian writes there.
	LoopConstraintJacobian(dst *mat.Dense, t float64, q []float64)
}
