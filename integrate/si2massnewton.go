package integrate

import (
	"gonum.org/v1/gonum/mat"

	"linkage/linalg"
)

// si2MassPrecond is the mass part of genalpha's stabilized index-2 iteration matrix (eqs.
// 93-94 with the scaling of eq. 70; genalpha.go's assemble writes it densely) for the
// Newton-Krylov corrector on dae.MassSolver systems, on the unknowns (Δq, hλ, μ):
//
//	[ C M        Gᵀ   C M Gᵀ      ]   (J13 without h(γ/β) f_v G₀ᵀ)
//	[ G          0    0           ]
//	[ (γ/β) G    0    (γ/β) G Gᵀ  ]   (J31, J33 without h ∂(G v)/∂q)
//
// with G₀ = G(q_n) and G₁ = G(q_{n+1}) both taken as G at the factorization, and the
// derivatives of M q̈, f and Gᵀλ left out as in massNewton. With Δq̃ = Δq + Gᵀμ the rows
// read C M Δq̃ + Gᵀ hλ = r₁, G Δq = r₂, G Δq̃ = (β/γ) r₃, so
//
//	(G Gᵀ) μ = (β/γ) r₃ − r₂,   [C M Gᵀ; G 0](Δq̃, hλ) = (r₁, (β/γ) r₃),   Δq = Δq̃ − Gᵀμ:
//
// massNewton's solve (one articulated-body solve) and an nc×nc Cholesky factorization of
// G Gᵀ per matrix, as bdfMassPrecond's μ rows. The left-out terms are of relative order h
// (f_v, ∂(G v)/∂q, G₁ − G₀) and h² (stiffness), as for the index-3 form.
//
// Pfaffian rows A v + b = 0 (rows nh… of G, dae.WithPfaffianRows) take no stabilizer:
// their μ rows read μ_P = r₃ and their λ rows (γ/β) A Δq̃ = r₂ (genalpha's
// assemblePfaffianSI2), so μ_P = r₃,P, the saddle-point solve takes (β/γ) r₂,P on A's
// rows, and G Gᵀ shrinks to the holonomic rows with the right side less G_H Aᵀ μ_P.
type si2MassPrecond struct {
	mn         *massNewton
	nq, nc, nh int       // nh: the holonomic rows (nc without Pfaffian rows)
	gb         float64   // γ/β
	GGt        []float64 // nh×nh Cholesky factor of G_H G_Hᵀ
	GAt        []float64 // nh×(nc−nh) G_H Aᵀ
}

// newSI2MassPrecond returns the matrix on mn's solver for the first nh of its nc rows
// holonomic, the rest Pfaffian.
func newSI2MassPrecond(mn *massNewton, gamma, beta float64, nh int) *si2MassPrecond {
	nq, nc := mn.schur.nq, mn.schur.nc
	return &si2MassPrecond{mn: mn, nq: nq, nc: nc, nh: nh, gb: gamma / beta,
		GGt: make([]float64, nh*nh), GAt: make([]float64, nh*(nc-nh))}
}

// factor prepares solve at (t, q₁) with G₁ (nil when nc = 0) and C on M.
func (p *si2MassPrecond) factor(t float64, q []float64, G *mat.Dense, c float64) error {
	if err := p.mn.factor(t, q, G, c); err != nil {
		return err
	}
	np := p.nc - p.nh
	for i := range p.nh {
		for k := range np {
			p.GAt[i*np+k] = dot(G.RawRowView(i), G.RawRowView(p.nh+k))
		}
	}
	return factorGGt(p.GGt, G, p.nh, p.mn)
}

// factorGGt writes the Cholesky factor of G Gᵀ (nc×nc) into dst; when G Gᵀ is singular it
// marks mn's attempt as missed (the dense matrix may go on regularized) and returns
// errSchurSingular.
func factorGGt(dst []float64, G *mat.Dense, nc int, mn *massNewton) error {
	for i := range nc {
		gi := G.RawRowView(i)
		for j := 0; j <= i; j++ {
			dst[i*nc+j] = dot(gi, G.RawRowView(j))
		}
	}
	if linalg.Cholesky(dst, nc) != nil {
		mn.missed = true
		return errSchurSingular
	}
	return nil
}

// solve overwrites u = (r₁, r₂, r₃) with (Δq, hλ, μ).
func (p *si2MassPrecond) solve(u []float64) {
	nq, nc, nh := p.nq, p.nc, p.nh
	r2, r3 := u[nq:nq+nc], u[nq+nc:nq+2*nc]
	for k := range nh { // r₂ ← (β/γ) r₃ (the right side of G Δq̃), r₃ ← μ's
		s := r3[k] / p.gb
		r2[k], r3[k] = s, s-r2[k]
	}
	np := nc - nh
	for k := range np { // Pfaffian rows: μ_P = r₃ (kept), A Δq̃ = (β/γ) r₂
		r2[nh+k] /= p.gb
		for i := range nh {
			r3[i] -= p.GAt[i*np+k] * r3[nh+k]
		}
	}
	linalg.CholeskySolve(p.GGt, nh, r3[:nh])
	p.mn.solve(u[:nq+nc])
	if nc > 0 {
		addGTx(u[:nq], p.mn.G, r3, -1)
	}
}

// Solve is solve for the singular watch's probe of the μ block (linearSolve).
func (p *si2MassPrecond) Solve(b []float64) { p.solve(b) }
