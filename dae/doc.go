// Package dae states the equations of motion every integrator sees (seed 002, eq. 16):
//
//	M(t,q) a = f(t,q,v) − G(t,q)ᵀ λ,    0 = g(t,q),    G = ∂g/∂q,    v = q',  a = q''
//
// with the hidden constraints at velocity and acceleration level (seed 002, eq. 19)
//
//	G v + g_t = 0,    G a = γ(t,q,v),    γ = −(G v)_q v − 2 G_t v − g_tt.
//
// Sign convention: the generalized constraint force is −Gᵀλ. No other layer flips this
// sign; reactions reported by modeling layers are derived from it.
//
// A System provides M, f, g, G, g_t and γ. Implicit integrators also need derivatives of
// the residual M(q)a − f + Gᵀλ; a System may provide them analytically through the optional
// capability interfaces (MassDerivative, ConstraintForceDerivative, ForceDerivative), which
// are discovered by type assertion. Derivatives wraps a System and answers every
// capability, analytically where the System has it and by central finite differences
// otherwise. Check compares analytic derivatives with finite differences; every model's
// tests call it.
//
// Matrices are gonum *mat.Dense of the exact size (nq×nq for M, nc×nq for G). An evaluation
// writes every entry of its destination, retains nothing and does not allocate.
//
// The second derivatives of the constraints that coordinate-partitioning methods need
// (seed 000, eqs. 31-36: ∂(G w)/∂q, ∂γ/∂q, ∂γ/∂v) are optional capabilities too, answered
// by SecondDerivatives with the same analytic-or-finite-difference rule.
//
// Sparsity declares fixed patterns of M and G, with which integrators factorize the KKT
// matrix of eq. 17 by a sparse solver on large models. A SparseEvaluator also writes M, G,
// ∂(M a)/∂q, ∂(Gᵀλ)/∂q, ∂f/∂q and ∂f/∂v straight into value arrays aligned with those
// patterns in compressed-row form (CSR: MassCSR, ConstraintCSR, CouplingCSR), with no
// nq×nq storage; CheckSparse (run by Check) verifies that the patterns cover every nonzero
// of the dense matrices and that the sparse values equal them, naming the entry otherwise.
//
// KinematicsFD gives g_t and γ by fourth-order central differences of g and G, for a
// rheonomic System whose author derives only g and G (its doc gives the steps and their
// accuracy, about 1e-9 relative for γ); Check compares hand-derived ones the same way.
//
// LinearlyImplicit is the contract for a DAE that is not mechanics, K y' = φ(t, y) with
// constant diagonal K and every variable's differentiation index declared (IVP test set,
// RADAU5), optionally with ∂φ/∂y (LinearlyImplicitJacobian) and names (VariableNamer);
// CheckLinearlyImplicit checks a start (y₀, y'₀) and names the inconsistent equations.
// ImplicitMass makes K full or state-dependent, K(t, y) y' = φ(t, y) (a mechanism in
// minimal coordinates with its configuration-dependent mass matrix in K), with ∂(K z)/∂y
// from ImplicitMassDerivative or MassProductFD; CheckImplicitMass compares the two.
// The equations of motion of a System are integrated in this very form by radau5 and bdf.
//
// ReactionForce adds forces f_λ(t, q, v, λ) that depend on the multipliers (joint friction,
// whose normal force is a reaction): M a = f + f_λ − Gᵀλ, with ∂f_λ/∂q, ∂f_λ/∂v and
// ∂f_λ/∂λ (the last on the pattern of Gᵀ; SparseReactionForce writes it there). System.Force
// stays f alone, so an integrator that does not include f_λ must refuse the system
// (AsReactionForce is the test); Check compares the three derivatives with differences.
//
// Nonholonomic adds constraints on the velocities alone in Pfaffian form, A(t,q) v + b = 0
// (seed 002, eq. 44; seed 004, eq. 8), with reactions −Aᵀμ and, at the acceleration level,
// A a = γ_A: a knife edge, a disk rolling without slipping. With them come ∂(A v + b)/∂q,
// ∂(Aᵀμ)/∂q and γ_A, which Check compares with differences. WithPfaffianRows appends the
// rows to G (G' = [G; A], g'_t = [g_t; b], γ' = [γ; γ_A], g' = [g; 0]), the form in which
// Initialize makes the start velocities satisfy A v + b = 0 too and returns (λ, μ), and in
// which the integrators that take the rows see them (AsNonholonomic is the test).
// SparseNonholonomic puts the rows on patterns (A and ∂(A v + b)/∂q on one, ∂(Aᵀμ)/∂q on
// the coupling pattern), with which WithPfaffianRows of a SparseEvaluator is one too;
// Check then compares those values with the dense matrices.
//
// FirstOrder adds first-order differential states X' = F(t, q, v, X) whose force f_X joins
// f (seed 004, eq. 8a); an integrator that does not integrate X must refuse such a system.
//
// Algebraic declares algebraic variables besides λ (index-1 unknowns such as a cam's contact
// parameter): massless coordinates whose equations are constraint rows, so M is singular
// but positive definite on ker G (seed 002, Lemma 1) and every integrator takes them without
// a change; CheckAlgebraic verifies the declaration and the regularity of [M Gᵀ; G 0].
// UserVariables are the user variables V = v(t, q, v, X) of seed 004, eq. 8b: explicit in
// the state, so computed channels rather than unknowns.
//
// Initialize computes consistent initial values (seed 002, Remark 2b and eq. 17) from a
// guess, detecting redundant constraints by a rank-revealing QR and naming them; Reduce
// drops the redundant rows so that integrators see a full-rank G, and ConstraintRank names
// the rows of a dependency after a failure. On a large SparseEvaluator (nq + nc ≥ 1000)
// all three work on the patterns (linalg.SparseRankLU, values picked row by row), without
// nc×nq or nq×nq storage, and the reduced system stays a SparseEvaluator. ResidualMeter measures
// how well a state satisfies the constraints at position, velocity and acceleration level.
package dae
