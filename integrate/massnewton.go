package integrate

import (
	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// massNewton is the mass part of the implicit methods' iteration matrix on systems with
// the dae.MassSolver capability (the joint route's articulated-body recursion, seed 002
// Table 1),
//
//	[ c·M(q)  Gᵀ ]
//	[ G       0  ]
//
// with c the method's factor on M (1/(1+α) for hht, C = (1−α_m)/(β(1−α_f)) for genalpha,
// seed 002 eq. 70), solved by massSchur without forming M: nc + 1 recursive solves and an
// nc×nc Cholesky factorization per matrix, one recursive solve per application. It is the
// preconditioner of the methods' Newton-Krylov corrector (gmres.go), whose products with
// the exact matrix are differences of the residual, so the increments are those of the
// exact Newton method and a step costs O(N) per product. The terms it leaves out, of
// order h (damping, velocity products) and h² (stiffness, the derivatives of M a and
// Gᵀλ), set the number of products. When an attempt fails after a Krylov solve missed its
// tolerance or G M⁻¹ Gᵀ was singular, a method on a system of at most massNewtonDenseMax
// coordinates falls back to its dense matrix (fallback, Stats.DenseFallbacks) for
// massNewtonDenseSteps accepted steps and then tries this one again, so stiff models run
// at the dense cost rather than at ever smaller steps.
type massNewton struct {
	schur      *massSchur
	G          *mat.Dense // G at the factorization (the method's G follows the iterate), or nil (withoutG)
	c          float64
	dense      int       // accepted steps left on the dense matrix (0: this one is in use)
	simplified bool      // the method's last factorization was this one (not the dense matrix)
	missed     bool      // a Krylov solve of the current attempt missed its tolerance
	lastMissed bool      // ... and the last one did
	trial      int       // 1: fallback made, its retry not begun; 2: the retry is under way
	x          []float64 // scaleRows' M(q)⁻¹ r (nq)
	k          float64   // the factor on K_g of the next factorization (stiffen), 0: none
	// excess counts the GMRES products above one per solve since the last factorization
	// (note), which aged compares with a factorization's cost.
	excess int
}

// attempt begins an attempt of the method. After a fallback whose attempt with the exact
// matrix failed too, the step was too long for either matrix: the cut h goes back to the
// preconditioned one.
func (m *massNewton) attempt() {
	if m == nil {
		return
	}
	switch m.trial {
	case 1:
		m.trial = 2
	case 2:
		m.trial, m.dense = 0, 0
	}
	m.missed = false
}

// massNewtonDenseSteps is the number of accepted steps a method keeps its exact matrix
// after a fallback before trying the simplified one again: a stiff model then pays one
// failed attempt in that many steps.
const massNewtonDenseSteps = 50

// massNewtonDenseMax is the largest number of coordinates for which a method falls back
// to its exact dense matrix: beyond it one dense factorization costs more than many steps
// on the preconditioned one (an LU of 600 unknowns is about 10⁸ flops), and a failed
// attempt cuts h instead.
const massNewtonDenseMax = 200

// newMassNewton returns the simplified matrix for sys, or nil when sys has no
// dae.MassSolver or has λ-dependent forces (newMassSchur).
func newMassNewton(sys dae.System) *massNewton { return massNewtonOn(newMassSchur(sys)) }

// newMassNewtonReaction is newMassNewton for a method whose residual carries the
// λ-dependent forces f_λ(t, q, v, λ) (dae.ReactionForce, seed 004 eq. 8b) at the iterate's
// λ: GMRES's products by differences of that residual then hold −∂f_λ/∂λ beside Gᵀ (and
// ∂f_λ/∂q, ∂f_λ/∂v), which the preconditioner [M Gᵀ; G 0] lacks and GMRES makes up.
func newMassNewtonReaction(sys dae.System) *massNewton { return massNewtonOn(massSchurOf(sys)) }

// massNewtonOn returns the simplified matrix on the solver s, or nil when s is nil.
func massNewtonOn(s *massSchur) *massNewton {
	if s == nil {
		return nil
	}
	m := &massNewton{schur: s, x: make([]float64, s.nq)}
	if s.nc > 0 {
		m.G = mat.NewDense(s.nc, s.nq, nil)
	}
	return m
}

// withoutG drops m's copy of G when massSchur evaluates G's loop-closure rows alone
// (ownsRows), for a method whose preconditioner reads no other row of G (hht, genalpha's
// index-3 form; bdf's, radau's and si2's read G Gᵀ): factor then takes G = nil.
func (m *massNewton) withoutG() {
	if m != nil && m.schur.ownsRows() {
		m.G = nil
	}
}

// needsG reports whether factor reads the caller's G; when false (withoutG) the caller
// passes nil and need not form the nc×nq G.
func (m *massNewton) needsG() bool { return m.G != nil }

// scaleRows overwrites the dynamic rows r (nq) of a residual evaluated at (t, q) with
// M(t_F, q_F) M(t, q)⁻¹ r, (t_F, q_F) the point of the last factorization: the rows'
// a-block is then M(q_F) at every iterate, as the preconditioner has it (radauMassRows
// gives the reason). mm multiplies by M.
func (m *massNewton) scaleRows(r []float64, mm dae.MassMultiplier, t float64, q []float64) {
	m.schur.ms.MassSolve(m.x, t, q, r)
	mm.MassMul(r, m.schur.t, m.schur.q, m.x)
}

// active reports whether the method should factorize the simplified matrix next.
func (m *massNewton) active() bool { return m != nil && m.dense == 0 }

// inUse reports whether the method's current factorization is the simplified matrix.
func (m *massNewton) inUse() bool { return m != nil && m.simplified }

// stale reports whether the method's factorization is not of the kind it should use now
// (after a fallback, or at the return to the simplified matrix).
func (m *massNewton) stale() bool { return m != nil && m.active() != m.simplified }

// factor prepares solve at (t, q) with the constraint Jacobian G there (nil when nc = 0
// or !needsG) and the factor c on M.
func (m *massNewton) factor(t float64, q []float64, G *mat.Dense, c float64) error {
	if m.G != nil {
		m.G.Copy(G)
	}
	m.c, m.simplified = c, true
	m.excess = 0
	m.schur.stiff = m.k / c
	m.k = 0
	err := m.schur.factor(t, q, m.G)
	if err != nil {
		m.missed = true // G M⁻¹ Gᵀ singular: the dense matrix can go on regularized
	}
	return err
}

// stiffen puts k·K_g(t, q, v, a, λ) beside c·M in the a-block of the next factorization,
//
//	[ c·M(q) + k·K_g  Gᵀ ]
//	[ G               0  ]
//
// when the system offers the dae.StiffMassSolver capability (dae.AsStiffMassSolver: K_g,
// the body-level geometric stiffness of the gravity and d'Alembert loads at (t, q, v, a)
// and of the loop-closure rows' loads −Gᵀλ at the iterate's multipliers lambda, is then
// evaluated here by one Newton-Euler pass): k is the method's factor on the stiffness
// K = (M a)_q − f_q + (Gᵀλ)_q in its iteration matrix (β h² for hht, relative to its c).
// Measured on the 3D chain, it takes the h² term that sets the number of GMRES products
// (BENCHMARKS.md, "The geometric stiffness in the joint route's preconditioner"). A later
// factor without stiffen uses M alone.
func (m *massNewton) stiffen(t float64, q, v, a, lambda []float64, k float64) {
	if m == nil || m.schur.st == nil {
		return
	}
	m.schur.st.GeometricStiffness(m.schur.kg, t, q, v, a, lambda)
	m.k = k
}

// stiffenFD is stiffen for a method whose dynamic rows are M(q_F) (ã − x), x = M(q)⁻¹(f + b)
// the forward-dynamics accelerations (dae.ForwardDynamicsSolver; hhtWork.scaledRows), with
// d = ã − x, the rows' M(q)⁻¹ e₁ at the iterate: the rows' derivative in q holds (M x)_q, so
// K_g's d'Alembert loads are taken at x = a − d rather than at the method's ã. The two
// differ most at the predictor, where the factorizations happen, and in the falling chain
// the d'Alembert loads nearly cancel gravity, so loads at ã left most of the GMRES
// products above one per Newton iteration on the 400-rod chain (BENCHMARKS.md, "The joint
// route's GMRES products").
func (m *massNewton) stiffenFD(t float64, q, v, a, d, lambda []float64, k float64) {
	if m == nil || m.schur.st == nil {
		return
	}
	for i := range m.x {
		m.x[i] = a[i] - d[i]
	}
	m.stiffen(t, q, v, m.x, lambda, k)
}

// solve overwrites u[:nq] (holding r) and u[nq:nq+nc] (holding s) with the solution of
// [c·M Gᵀ; G 0](x, y) = (r, s): with z = c·x it is eq. 17's matrix with right side
// (r, c·s), which massSchur solves.
func (m *massNewton) solve(u []float64) {
	nq, nc := m.schur.nq, m.schur.nc
	x, y := u[:nq], u[nq:nq+nc]
	for i := range y {
		y[i] *= m.c
	}
	m.schur.Solve(x, y)
	for i := range x {
		x[i] /= m.c
	}
}

// solved records whether a Krylov solve reached its tolerance.
func (m *massNewton) solved(reached bool) {
	m.lastMissed = !reached
	if !reached {
		m.missed = true
	}
}

// note counts a Krylov solve's products above the one every solve takes (aged).
func (m *massNewton) note(products int) {
	if m != nil && products > 1 {
		m.excess += products - 1
	}
}

// aged reports whether the simplified matrix in use has cost, in GMRES products above one
// per solve since it was factorized (note), at least cost products, the price of a new
// factorization in products: the rule of the rent-or-buy problem, which for products per
// step growing linearly with the factorization's age refactorizes at the period that
// minimizes the work per step (with e the excess of a step k steps after the
// factorization, e = c k, the work per step over a period T is (cost + c T²/2)/T, least
// at c T²/2 = cost).
func (m *massNewton) aged(cost int) bool { return m.inUse() && m.excess >= cost }

// distrusted reports whether a converged verdict must be refused: the last increment
// came from a Krylov solve that missed its tolerance, so its small norm says nothing about
// the residual (measured: on the 1000-rod chain hht accepted steps of 1 s whose energy
// grew to 1e16 J).
func (m *massNewton) distrusted() bool { return m.inUse() && m.lastMissed }

// Solve is solve for the singular watch's probe of the multipliers' block (linearSolve).
func (m *massNewton) Solve(b []float64) { m.solve(b) }

// or returns m as the method's factorization when its last one was m, else lu.
func (m *massNewton) or(lu *newtonFactor) linearSolve {
	switch {
	case m.inUse():
		return m
	case lu == nil:
		return nil // no factorization (a nil *newtonFactor is not a nil linearSolve)
	}
	return lu
}

// fallback switches to the exact matrix after a failed attempt with a fresh simplified
// one whose Krylov solves missed their tolerance or whose G M⁻¹ Gᵀ was singular (a
// singular position, which the exact matrix passes regularized), and reports whether it
// did: false when the exact matrix was already in use, or the system is too large.
func (m *massNewton) fallback() bool {
	if !m.active() || !m.missed || m.schur.nq > massNewtonDenseMax {
		return false
	}
	m.dense, m.trial = massNewtonDenseSteps, 1
	return true
}

// fallbackTo is fallback for a method whose dense matrices wait for the first fallback:
// it sizes them by alloc (a method's allocDense) when it switches.
func (m *massNewton) fallbackTo(alloc func()) bool {
	if !m.fallback() {
		return false
	}
	alloc()
	return true
}

// accepted counts an accepted step toward the return to the simplified matrix.
func (m *massNewton) accepted() {
	if m != nil && m.dense > 0 {
		m.dense--
		m.trial = 0
	}
}
