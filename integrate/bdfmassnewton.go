package integrate

import (
	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// bdfMassPrecond is the mass part of bdf's Newton matrix c K − ∂φ/∂y on the first-order
// form y = (q, v, a, λ[, μ]) (semiexplicit.go; seed 002 eqs. 79 and 92) for systems with
// dae.MassSolver and dae.MassMultiplier, solved without forming M. It keeps the terms of
// order 1/h² relative to the dropped ones and leaves out ∂f/∂q, ∂f/∂v, ∂(M a + Gᵀλ)/∂q,
// ∂(Gᵀμ)/∂q and ∂(G v)/∂q, which leaves, with c = c_j,
//
//	[ c I   −I    0    0   Gᵀ ]   (q rows; Gᵀ in the GGL form only)
//	[ 0     c I  −I    0   0  ]   (v rows)
//	[ 0     0     M    Gᵀ  0  ]   (a rows)
//	[ 0    −G     0    0   0  ]   (λ rows: the velocity constraint)
//	[ −G    0     0    0   0  ]   (μ rows: g, GGL only)
//
// Eliminating δv = c δq + Gᵀδμ − r_q and δa = c δv − r_v leaves, for (δq, δλ), the same
// pattern as hht's and genalpha's mass part with c² on M (massNewton, so one articulated-body
// solve per application),
//
//	[ c² M  Gᵀ ] (δq, δλ) = ( r_a + M(c r_q + r_v − c Gᵀδμ),  s ),
//	[ G     0  ]
//
// with s = −r_μ and (G Gᵀ) δμ = G r_q − r_λ + c r_μ in the GGL form, and s = (G r_q − r_λ)/c,
// δμ absent, in the index-2 form. It costs one M x product (dae.MassMultiplier) and one
// recursive solve per application, and an nc×nc Cholesky factorization of G Gᵀ per matrix.
//
// It is not yet bdf's preconditioner: bdf's residual still forms M densely (semiExplicit),
// so a Newton-Krylov corrector on it would not reach O(N) per product.
type bdfMassPrecond struct {
	mn     *massNewton
	mm     dae.MassMultiplier
	nq, nc int
	hasMu  bool
	c      float64
	GGt    []float64 // nc×nc Cholesky factor of G Gᵀ (GGL only)
	w, mw  []float64 // nq
}

// newBDFMassPrecond returns the preconditioner for sys in formulation form, or nil when sys
// lacks dae.MassSolver or dae.MassMultiplier, has λ-dependent forces, or form is neither
// StabilizedIndex2 nor Index2, or sys has Pfaffian rows (whose μ rows differ).
func newBDFMassPrecond(sys dae.System, form Formulation) *bdfMassPrecond {
	mm, ok := sys.(dae.MassMultiplier)
	if !ok || (form != StabilizedIndex2 && form != Index2) {
		return nil
	}
	if _, pf := sys.(dae.PfaffianRows); pf {
		return nil
	}
	mn := newMassNewton(sys)
	if mn == nil {
		return nil
	}
	nq, nc := sys.Size()
	p := &bdfMassPrecond{mn: mn, mm: mm, nq: nq, nc: nc, hasMu: form == StabilizedIndex2,
		w: make([]float64, nq), mw: make([]float64, nq)}
	if p.hasMu {
		p.GGt = make([]float64, nc*nc)
	}
	return p
}

// size is the dimension of y the preconditioner acts on.
func (p *bdfMassPrecond) size() int {
	if p.hasMu {
		return 3*p.nq + 2*p.nc
	}
	return 3*p.nq + p.nc
}

// factor prepares solve at (t, q) with the constraint Jacobian G there (nil when nc = 0)
// and c = c_j.
func (p *bdfMassPrecond) factor(t float64, q []float64, G *mat.Dense, c float64) error {
	p.c = c
	if err := p.mn.factor(t, q, G, c*c); err != nil {
		return err
	}
	if !p.hasMu || p.nc == 0 {
		return nil
	}
	for i := range p.nc {
		gi := G.RawRowView(i)
		for j := 0; j <= i; j++ {
			p.GGt[i*p.nc+j] = dot(gi, G.RawRowView(j))
		}
	}
	if err := linalg.Cholesky(p.GGt, p.nc); err != nil {
		p.mn.missed = true
		return errSchurSingular
	}
	return nil
}

// solve overwrites u = (r_q, r_v, r_a, r_λ[, r_μ]) with the solution of the matrix above.
func (p *bdfMassPrecond) solve(u []float64) {
	nq, nc, c := p.nq, p.nc, p.c
	rq, rv, ra, rl := u[:nq], u[nq:2*nq], u[2*nq:3*nq], u[3*nq:3*nq+nc]
	G := p.mn.G
	// w = c r_q + r_v − c Gᵀδμ; δμ and s (held in rl) by form.
	for i := range p.w {
		p.w[i] = c*rq[i] + rv[i]
	}
	if p.hasMu {
		rm := u[3*nq+nc : 3*nq+2*nc]
		for k := range nc { // δμ into rm, s = −r_μ into rl
			gr := dot(G.RawRowView(k), rq)
			rl[k], rm[k] = -rm[k], gr-rl[k]+c*rm[k]
		}
		linalg.CholeskySolve(p.GGt, nc, rm)
		if nc > 0 {
			addGTx(p.w, G, rm, -c)
		}
	} else {
		for k := range nc {
			rl[k] = (dot(G.RawRowView(k), rq) - rl[k]) / c
		}
	}
	p.mm.MassMul(p.mw, p.mn.schur.t, p.mn.schur.q, p.w)
	// Keep r_q, r_v for the back substitution; the reduced right side goes into ra.
	for i := range ra {
		ra[i] += p.mw[i]
	}
	p.mn.solve(u[2*nq : 3*nq+nc]) // ra holds δq, rl holds δλ
	clear(p.w)                    // w = Gᵀδμ
	if p.hasMu && nc > 0 {
		addGTx(p.w, G, u[3*nq+nc:3*nq+2*nc], 1)
	}
	for i := range nq {
		dq := ra[i]
		dv := c*dq + p.w[i] - rq[i]
		rq[i], rv[i], ra[i] = dq, dv, c*dv-rv[i]
	}
}
