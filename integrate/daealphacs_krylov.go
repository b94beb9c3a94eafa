package integrate

import "gonum.org/v1/gonum/mat"

// daeAlphaCM is the CM iteration of daealpha's coordinate-split forms (seed 003, eq. 3.6)
// on the joint route's Newton-Krylov corrector (daeAlphaKrylov), its matrix applied in
// product form.
//
// The CM iteration solves, at the iterate (q, v), [J Gᵀ; G 0](δ, s) = −(Π r, G v + g_t, g)
// with J = ∂(M w₁ − β̂h² f, M w₂ − γ̂h f)/∂(q, v), the Newton matrix of index2 (eq. 3.3)
// without (Gᵀν)_q and (Gᵀμ)_q, and discards s (DAEAlpha.factor). Its increment δ does not
// depend on the CS matrix: any right side r + Gᵀν' in place of Π r (Π r − r ∈ range Gᵀ)
// moves s only. So on this path the residual is index2's rows r + Gᵀν with a running
// estimate ν of the multipliers (predicted β̂h²λ_n, γ̂h λ_n, then ν + s), which tends to
// 0 as the iteration converges (an inexact solve, which stops relative to its right
// side, needs that; Π r does too), and GMRES's products are differences of that residual
// with the q rows' multipliers' term G(q₀)ᵀν frozen at the iterate q₀: (Gᵀν)_q, of order
// β̂h² (Gᵀλ)_q, is left out as the CM iteration leaves it out, and P(q) is never formed,
// for either form. The fixed point is eq. 3.6's, P(q) r = 0 (r ∈ range Gᵀ); cs and cs-qr
// take the same increments here, as they do on the dense path up to rounding
// (TestDAEAlphaFormsAgree).
//
// The v rows' term G(q)ᵀμ is not frozen: the products keep (Gᵀμ)_q, of order γ̂h (Gᵀλ)_q.
// The preconditioner solves the v rows less κ = γ̂/(β̂h) times the q rows
// (daeAlphaKrylov), where index2's (Gᵀμ)_q − κ(Gᵀν)_q cancels; with both left out it
// cancels too, but the CM matrix's q rows then differ from A by (Gᵀν)_q, and the
// elimination hands the v rows κ times that difference. In GMRES's 2-norm, where the v
// components are κ times the q components, that is a relative error of order
// ‖A⁻¹β̂h²(Gᵀλ)_q‖ (A holds (Gᵀν)_q's part: K_g at the forward-dynamics accelerations
// levers the transmitted loop load), and on the loaded looped 1000-rod chain at
// h = 0.7 ms every step's second solve ran out at 20 products, missed and failed the
// attempt (26 evaluations per step; 100 rods: 5). With (Gᵀμ)_q kept, the
// difference stays in the q rows, κ times smaller there: one product per solve, 5
// evaluations per step at both sizes (BENCHMARKS.md, "daealpha cs and cs-qr from the
// loaded looped chain"). The linear rate is still the CM iteration's, set by (Gᵀν)_q
// (TestDAEAlphaCSKrylovIsCM: 5.7e-4 and 2.3e-4 on the four-bar at h = 0.02 and 0.01,
// the dense CM matrix's 6.4e-4 and 2.2e-4), and the iterates come nearer the dense
// path's (second increment 4.3 against its 3.7 at h = 0.02, 22 with (Gᵀμ)_q frozen).
//
// The rows are scaled by M(q_F) M(q)⁻¹ before differencing (daeAlphaKrylov.scale), so the
// products carry ∂S/∂q (r + Gᵀν), which the unscaled CM matrix has not; it vanishes with
// the residual at the fixed point. Differencing the unscaled rows instead gives J
// exactly, but Newton on the unscaled rows of the slender chain converges poorly (the
// reason for the scaling). Measured on the driven 70-rod chain (G constant, so the CM
// iteration is Newton's method there): with the unscaled differences at ν = 0 the second
// increment was 660 times index2's at h = 2 ms (exact GMRES) and the iteration diverged
// at 12 ms; with the scaled rows differenced at ν = 0, ∂S/∂q Gᵀν* stays in the products
// (9-11 Newton failures in 21 steps, index2 none); Newton on the projected rows S Π r
// with Gᵀν, Gᵀμ appended (the square form with ν = μ = 0 at its solution, whose Jacobian
// keeps d(P r)/dq) collapsed to 40 µs steps: S Π r holds the unscaled force rows the
// Y coordinates pick. This form takes index2's steps on that chain, bit for bit.
//
// The preconditioner is index2's; the dense fallback (at most massNewtonDenseMax
// coordinates) uses the projected residual and the CM matrix of DAEAlpha.factor.
type daeAlphaCM struct {
	Gb     *mat.Dense // G at the iterate, for the q rows' multipliers' term of the products
	frozen bool       // the q rows' multipliers' term uses Gb (during the products)
}

// newDAEAlphaCM returns the CM products for w's coordinate-split form, or nil when w
// has no Newton-Krylov corrector.
func newDAEAlphaCM(w *daeAlphaWork) *daeAlphaCM {
	if w.kry == nil {
		return nil
	}
	c := &daeAlphaCM{}
	if w.nc > 0 {
		c.Gb = mat.NewDense(w.nc, w.nq, nil)
	}
	return c
}

// unprojected reports whether the residual is index2's rows with the running
// multipliers: when the Newton-Krylov corrector is the matrix in use (false for a nil
// c; the dense fallback projects).
func (c *daeAlphaCM) unprojected(k *daeAlphaKrylov) bool { return c != nil && k.mn.active() }

// addForces adds Gᵀν to r1 and Gᵀμ to r2, with the iterate's G (Gb) in r1 during the
// products.
func (c *daeAlphaCM) addForces(r1, r2 []float64, G *mat.Dense, nu, mu []float64) {
	addGTx(r2, G, mu, 1)
	if c.frozen {
		G = c.Gb
	}
	addGTx(r1, G, nu, 1)
}

// increment applies the CM increment by GMRES (daeAlphaKrylov.increment) with the
// multipliers' term frozen at the iterate.
func (c *daeAlphaCM) increment(w *daeAlphaWork) {
	if c.Gb != nil {
		c.Gb.Copy(w.G) // the residual evaluated G at the iterate
	}
	c.frozen = true
	w.kry.increment(w)
	c.frozen = false
	w.kry.mn.note(w.kry.kr.products)
}

// aged reports whether the kept factorization has cost, in GMRES products above one per
// solve since it was made (massNewton.note), at least daeAlphaCMRefactor: hht's
// rent-or-buy rule (massNewton.aged), for the CM iteration, whose products per solve grow
// with the factorization's age as the state moves from it; false for a nil c.
// Measured on the looped 100-rod chain (BENCHMARKS.md, "daealpha cs and cs-qr from the
// loaded looped chain"): adaptive at tol 1e-6 the same 153 steps and error for 1489
// evaluations instead of 3081 (Newton failures 56 → 1, factorizations 63 → 122), 52 %
// fewer instructions; at fixed h = 1.4 ms from the loaded state 14.1 → 6.3 evaluations
// per step.
func (c *daeAlphaCM) aged(w *daeAlphaWork) bool {
	return c != nil && w.kry.mn.aged(daeAlphaCMRefactor)
}

// daeAlphaCMRefactor is the cost of a new factorization of the preconditioner in GMRES
// products: K_g's Newton-Euler pass and the factorization of G A⁻¹ Gᵀ (nc articulated-body
// solves) against a product's residual evaluation and two solves. 1, 2 and 4 gave the
// same counts on the looped chain's fixed-step rows.
const daeAlphaCMRefactor = 2
