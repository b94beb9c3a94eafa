package integrate

import (
	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// gcpStiffness is the preconditioner of gcp-newmark's and gcp-fv's Newton-Krylov corrector
// (gcpKrylov) on dae.StiffMassSolver systems, and the rule that buys it. Ψ̃ = qInd” −
// q̈*_ind(q, q') has the tangent I + βh² S + γh D, where S x is the independent part of
// eq. 17's solution with the stiffness K = (M q̈*)_q − f_q + (Gᵀλ*)_q on the right,
//
//	[M Gᵀ; G 0](w, μ) = (K Z x, 0),   S x = w_ind,
//
// (the loads' derivative along q = βh² Z x, Z = [H; I] of eq. 31) and D the velocity
// terms'. With K_g(q̈*, λ*) for K (dae.StiffMassSolver: the body-level geometric
// stiffness of the gravity, d'Alembert and loop-closure loads) the preconditioner is
// (I + βh² S)⁻¹, which is the independent part of
//
//	[M + βh²K_g  Gᵀ; G  0](y, μ) = (M Z x, 0),
//
// or, with y = Z x − d, x − d_ind for d the solution with right side (βh² K_g Z x, 0):
// one K_g product and one stiff articulated-body solve (nc + 1 at the factorization) per
// application, no mass product. Its loads are eq. 17's q̈* and λ* at the first iterate,
// the accelerations Ψ̃ differentiates (as stiffenFD's for hht).
//
// Rent or buy (as aliStiffness): without K_g the preconditioner is free and GMRES takes
// one product per solve on the short chains; once the products above one per solve reach
// gcpKgBuy, K_g is taken at the next first iterate, and taken afresh once the products
// above one per solve since then reach gcpKgRefactor, or after a solve that missed its
// tolerance, or a re-partition. A new h refactors at the kept K_g and point (βh²
// changes). And sell: when the products above one per solve with K_g came as often as
// in the solves that bought it, at steps no longer than the one it was bought at (the h²
// term grows with h: under step control the products of longer steps say nothing about
// K_g), they are not K_g's (measured on the loaded 100-rod looped chain at 0.48 ms: the
// second Newton solve of every step took 2 products with K_g and without), so the
// preconditioner goes back to the identity for gcpKgHold solves.
type gcpStiffness struct {
	s      *massSchur // M + βh²K_g with the constraint rows at its point, or nil (no K_g)
	st     dae.StiffMassSolver
	G      *mat.Dense // G at s's point
	H      []float64  // nc×nd: H (eq. 31) at s's point
	on     bool       // the preconditioner holds K_g
	due    bool       // take K_g afresh at the next first iterate
	solves int        // GMRES solves since the last K_g or decision
	excess int        // their products above one per solve
	// bought: the solves and excess products of the period that bought K_g (the rate
	// the preconditioner must beat); hold: solves left before the rule may buy again
	boughtSolves, boughtExcess, hold int
	h                                float64   // the step of the factorization
	hBought, hOn                     float64   // h at the purchase; the largest h since
	u, d                             []float64 // nq
	y                                []float64 // nc
}

// gcpKgBuy and gcpKgRefactor are the rule's thresholds in GMRES products above one per
// solve, gcpKgHold the solves the rule waits after a sale (gcpStiffness).
const (
	gcpKgBuy      = 2
	gcpKgRefactor = 2
	gcpKgHold     = 64
)

// init sizes the rule for sys; it stays off on a system without dae.StiffMassSolver.
func (g *gcpStiffness) init(sys dae.System, nq, nc int) {
	s := massSchurOf(sys)
	if s == nil || s.st == nil {
		return
	}
	g.s, g.st = s, s.st
	g.u, g.d, g.y = make([]float64, nq), make([]float64, nq), make([]float64, nc)
	if nc > 0 {
		g.G = mat.NewDense(nc, nq, nil)
		g.H = make([]float64, nc*(nq-nc))
	}
}

// factor takes K_g at the first iterate it (q̈* in a, λ* in it.Lambda) when due, or
// refactors the kept K_g for a new h; cs holds G and H at it.
func (g *gcpStiffness) factor(cs *gcpCore, it *State, a []float64, h float64, stats *Stats) {
	if g.s == nil || !(g.due || g.on && g.h != h) {
		return
	}
	s := g.s
	s.stiff = gcpBeta * h * h
	if g.due {
		g.st.GeometricStiffness(s.kg, it.T, it.Q, it.V, a, it.Lambda)
		if cs.nc > 0 {
			g.G.Copy(cs.G)
			copy(g.H, cs.H.RawMatrix().Data)
		}
		g.solves, g.excess = 0, 0
		stats.Jacobians++
		if err := s.factor(it.T, it.Q, g.G); err != nil {
			g.failed()
			return
		}
	} else if err := s.factorize(); err != nil {
		g.failed()
		return
	}
	stats.Factorizations++
	if !g.on {
		g.hBought, g.hOn = h, h
	}
	g.on, g.due, g.h, g.hOn = true, false, h, max(g.hOn, h)
}

// failed drops a factorization that failed (G M⁻¹ Gᵀ singular) for gcpKgHold solves;
// Ψ̃'s own evaluations report the singular position.
func (g *gcpStiffness) failed() {
	g.on, g.due, g.hold, g.solves, g.excess = false, false, gcpKgHold, 0, 0
}

// apply overwrites x with x − d_ind (gcpStiffness) while the preconditioner holds K_g.
func (g *gcpStiffness) apply(cs *gcpCore, x []float64) {
	if !g.on {
		return
	}
	s, u, d := g.s, g.u, g.d
	nd := cs.nd
	for j, i := range cs.ind {
		u[i] = x[j]
	}
	for k, i := range cs.dep {
		var sum float64
		for j, h := range g.H[k*nd : (k+1)*nd] {
			sum += h * x[j]
		}
		u[i] = sum
	}
	clear(d)
	g.st.AddGeometricStiffnessMul(d, s.t, s.q, u, s.kg, s.stiff)
	clear(g.y)
	s.Solve(d, g.y)
	for j, i := range cs.ind {
		x[j] -= d[i]
	}
}

// counted records a GMRES solve's products in the rule.
func (g *gcpStiffness) counted(products int, reached bool) {
	if g.s == nil {
		return
	}
	if !g.on && g.hold > 0 {
		g.hold--
		return
	}
	g.solves++
	g.excess += products - 1
	switch {
	case g.due:
	case !g.on && g.excess >= gcpKgBuy:
		g.due, g.boughtSolves, g.boughtExcess = true, g.solves, g.excess
	case g.on && !reached:
		g.due = true
	case g.on && g.excess >= gcpKgRefactor:
		if g.excess*g.boughtSolves >= g.boughtExcess*g.solves && g.hOn <= g.hBought { // no fewer than before: sell
			g.on, g.hold = false, gcpKgHold
		} else {
			g.due = true
		}
		g.solves, g.excess = 0, 0
	}
}

// repartitioned drops K_g's factorization after a change of the partition (its H and
// independent coordinates), and takes it afresh at the next first iterate if it was on.
func (g *gcpStiffness) repartitioned() {
	if g.on {
		g.on, g.due = false, true
	}
}
