package integrate

import (
	"errors"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// massSchur solves the KKT system of seed 002, eq. 17, without forming M, for systems with
// the dae.MassSolver capability (the articulated-body recursion of seed 002 Table 1):
//
//	a₀ = M⁻¹ r,   Y = M⁻¹ Gᵀ,   (G Y) λ = G a₀ − s,   a = a₀ − Y λ,
//
// nc + 1 recursive solves and an nc×nc Cholesky factorization, so the cost is linear in the
// number of bodies for a fixed number of loop-closure equations. Rows that hold one
// coordinate each (drives, friction's hold rows) stay out of G M⁻¹ Gᵀ when the system can
// lock coordinates (heldRows, dae.LockedMassSolver).
type massSchur struct {
	ms     dae.MassSolver
	nq, nc int
	t      float64
	q      []float64  // the position of the factorization (M⁻¹ is applied there)
	G      *mat.Dense // the Jacobian at q (borrowed from the caller), or nil (ownsRows)
	Y      []float64  // nc×nq, row k = M⁻¹ G_kᵀ
	W      []float64  // nc×nc, Cholesky factor of G M⁻¹ Gᵀ + shift·I (lower triangle)
	a0     []float64
	// shift > 0 makes Solve with s = 0 apply (M + GᵀG/shift)⁻¹ by Woodbury's identity,
	// M⁻¹ − Y (G Y + shift·I)⁻¹ Y ᵀ: the augmented Lagrangian matrix M + αΦ_qᵀΦ_q of seed
	// 001 (alikrylov.go), positive definite whatever the rank of G. 0 for eq. 17.
	shift float64
	held  *heldRows // the held rows' elimination (shift 0), or nil
	// loop evaluates G's loop-closure rows alone into Gc (n_C × nq; nil when n_C = 0) when
	// the caller passes no G (ownsRows): the held rows are unit rows, so no nc×nq G is
	// formed (dae.LoopJacobian).
	loop dae.LoopJacobian
	Gc   *mat.Dense
	// stiff > 0 puts stiff·K_g beside M in every solve, M + stiff·K_g (dae.StiffMassSolver:
	// the body-level geometric stiffness kg, written by massNewton.stiffen): the h² term
	// of the implicit methods' iteration matrices that the mass part alone leaves to GMRES.
	// 0: M alone.
	stiff float64
	st    dae.StiffMassSolver // sys's, or nil
	kg    []float64           // K_g's body matrices at the factorization (st's storage)
}

var errSchurSingular = errors.New("is singular: G M⁻¹ Gᵀ not positive definite (redundant loop-closure equations?)")

// newMassSchur returns the solver for sys, or nil when sys has no dae.MassSolver or has
// λ-dependent forces, which its callers' equations would leave out.
func newMassSchur(sys dae.System) *massSchur {
	if dae.HasReactionForce(sys) {
		return nil
	}
	return massSchurOf(sys)
}

// massSchurOf is newMassSchur with λ-dependent forces allowed: for a caller that adds
// f_λ(λ) itself (eq17's iterations on λ, hht's Newton-Krylov residual).
func massSchurOf(sys dae.System) *massSchur {
	ms, ok := sys.(dae.MassSolver)
	if !ok {
		return nil
	}
	nq, nc := sys.Size()
	s := &massSchur{ms: ms, nq: nq, nc: nc, q: make([]float64, nq), a0: make([]float64, nq),
		held: newHeldRows(sys)}
	if s.st = dae.AsStiffMassSolver(sys); s.st != nil {
		s.kg = make([]float64, s.st.GeometricStiffnessLen())
	}
	if s.held != nil {
		n := len(s.held.cut)
		s.Y, s.W = make([]float64, n*nq), make([]float64, n*n)
		if s.loop, _ = sys.(dae.LoopJacobian); s.loop != nil && n > 0 {
			s.Gc = mat.NewDense(n, nq, nil)
		}
	}
	return s
}

// ownsRows reports whether factor takes G = nil: the held rows are eliminated and the
// loop-closure rows are evaluated alone (dae.LoopJacobian), so the caller need not form
// the nc×nq G for the factorization.
func (s *massSchur) ownsRows() bool { return s.eliminates() && s.loop != nil }

// factor prepares Solve at (t, q) with the constraint Jacobian G (nil when nc = 0, or
// when ownsRows: then the loop-closure rows are evaluated here).
func (s *massSchur) factor(t float64, q []float64, G *mat.Dense) error {
	s.at(t, q, G)
	return s.factorize()
}

// at sets the point (t, q) and the Jacobian G there for factorize; with G nil and
// ownsRows it evaluates the loop-closure rows there.
func (s *massSchur) at(t float64, q []float64, G *mat.Dense) {
	s.t, s.G = t, G
	copy(s.q, q)
	if G == nil && s.Gc != nil && s.ownsRows() {
		s.loop.LoopConstraintJacobian(s.Gc, t, q)
	}
}

// factorize forms Y = M⁻¹ Gᵀ and the Cholesky factor of G Y at the point set by at.
func (s *massSchur) factorize() error {
	if s.eliminates() {
		return s.factorizeHeld()
	}
	nq, nc, G := s.nq, s.nc, s.G
	if len(s.Y) < nc*nq { // sized at the first use: with held rows only the shifted matrix needs it
		s.Y, s.W = make([]float64, nc*nq), make([]float64, nc*nc)
	}
	for k := 0; k < nc; k++ {
		s.massSolve(s.Y[k*nq:(k+1)*nq], G.RawRowView(k), nil)
	}
	for i := 0; i < nc; i++ {
		gi := G.RawRowView(i)
		for j := 0; j <= i; j++ {
			var sum float64
			for l, y := range s.Y[j*nq : (j+1)*nq] {
				sum += gi[l] * y
			}
			s.W[i*nc+j] = sum
		}
		s.W[i*nc+i] += s.shift
	}
	if err := linalg.Cholesky(s.W, nc); err != nil {
		return errSchurSingular
	}
	return nil
}

// Solve overwrites x (holding r) and y (holding s) with the solution of eq. 17's matrix
// [M Gᵀ; G 0](x, y) = (r, s) at the factorized point.
func (s *massSchur) Solve(x, y []float64) {
	if s.eliminates() {
		s.solveHeld(x, y)
		return
	}
	nq, nc := s.nq, s.nc
	s.massSolve(s.a0, x, nil)
	for k := 0; k < nc; k++ {
		var sum float64
		for j, g := range s.G.RawRowView(k) {
			sum += g * s.a0[j]
		}
		y[k] = sum - y[k]
	}
	linalg.CholeskySolve(s.W, nc, y)
	copy(x, s.a0)
	for k := 0; k < nc; k++ {
		for j, v := range s.Y[k*nq : (k+1)*nq] {
			x[j] -= v * y[k]
		}
	}
}

// solvesAccelerations reports whether SolveAccelerations may be used: M alone (no K_g)
// and no eliminated held rows.
func (s *massSchur) solvesAccelerations() bool { return !s.eliminates() && s.stiff == 0 }

// SolveAccelerations is Solve with x holding M⁻¹r instead of r (solvesAccelerations must
// hold): it skips Solve's articulated-body solve, for a caller whose right side's force
// rows come as M⁻¹ times them (radauStages).
func (s *massSchur) SolveAccelerations(x, y []float64) {
	nq, nc := s.nq, s.nc
	for k := 0; k < nc; k++ {
		var sum float64
		for j, g := range s.G.RawRowView(k) {
			sum += g * x[j]
		}
		y[k] = sum - y[k]
	}
	linalg.CholeskySolve(s.W, nc, y)
	for k := 0; k < nc; k++ {
		for j, v := range s.Y[k*nq : (k+1)*nq] {
			x[j] -= v * y[k]
		}
	}
}

// eliminates reports whether the held rows are eliminated (heldRows): the shifted matrix
// of the augmented Lagrangian, [M Gᵀ; G −shift·I], holds no coordinate exactly and takes
// every row into the Schur complement.
func (s *massSchur) eliminates() bool { return s.held != nil && s.shift == 0 }

// massSolve writes x = A⁻¹ b at the factorized point, A = M + stiff·K_g (M alone when
// stiff is 0), with the coordinates where locked[i] prescribed (locked nil: none; a
// dae.LockedMassSolver's, as heldRows uses it).
func (s *massSchur) massSolve(x, b []float64, locked []bool) {
	switch {
	case s.stiff > 0:
		s.st.StiffMassSolve(x, s.t, s.q, b, locked, s.kg, s.stiff)
	case locked != nil:
		s.held.ls.LockedMassSolve(x, s.t, s.q, b, locked)
	default:
		s.ms.MassSolve(x, s.t, s.q, b)
	}
}
