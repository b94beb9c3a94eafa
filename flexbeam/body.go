package flexbeam

import "math"

// body.go: (q, v) of a flexible body ⇒ its blocks of M, ∂(M a)/∂q, f, ∂f/∂q, ∂f/∂v and
// its energies (beam.go gives the invariants).
//
// A flexible body has q_b = (R, θ, e): the frame's origin R, its angle θ and the elastic
// coordinates e. With A = A(θ), S the rotation by π/2, ρ_c(e) = ∫μρ = (∫μx + c_u·e, c_w·e)
// and C the 2×ne matrix with rows c_u, c_w, the kinetic energy ½∫μ|ṙ|² of
// r = R + A ρ(x) gives the mass matrix of the floating frame of reference (Shabana,
// Dynamics of Multibody Systems, ch. 5, in the plane)
//
//	M_RR = m I,   M_Rθ = A S ρ_c,   M_Re = A C,
//	M_θθ = J₀ + 2 d_u·e + eᵀM_ee e,   M_θe = d_w + Bᵀe,   M_ee,
//
// and, from the velocity part A(−θ̇²ρ + 2θ̇ S N ė) of r̈ and gravity g, the forces
//
//	f_R = A(θ̇² ρ_c − 2θ̇ S C ė) + m g,
//	f_θ = −2θ̇ (d_u + M_ee e)·ė + gᵀ A S ρ_c,
//	f_e = θ̇² (d_u + M_ee e) + 2θ̇ B ė − K e + Cᵀ Aᵀ g.
//
// For Simeon's basis these are the test set's AM and F (problems/crank.go) written in
// body instead of relative coordinates; problems' TestSimeonCrankFileEquations compares
// the two.

// Body is a flexible body of an assembled system: where its coordinates sit in q and its
// invariants. Its methods add its blocks to the route's M, f and their derivatives.
type Body struct {
	Name string
	Col  int // column of the frame's x in q (then y, θ)
	ECol int // column of the first elastic coordinate
	Inv  *Invariants
}

// Matrix is where a Body adds its entries, M[i][j] += x (a route's dense or sparse
// target; a pointer-shaped value, so that passing it allocates nothing).
type Matrix interface {
	Add(i, j int, x float64)
}

// vec is a vector of the plane.
type vec [2]float64

func dot(a, b vec) float64 { return a[0]*b[0] + a[1]*b[1] }

// rotateSC rotates v by the angle with sine sn and cosine cs.
func rotateSC(v vec, sn, cs float64) vec { return vec{cs*v[0] - sn*v[1], sn*v[0] + cs*v[1]} }

// perp is S v, v rotated by π/2.
func perp(v vec) vec { return vec{-v[1], v[0]} }

// rhoC returns ρ_c(e) and C x for the elastic part x (ė or a_e).
func (bd *Body) rhoC(q []float64) vec {
	inv := bd.Inv
	rc := vec{inv.sx, 0}
	for i := range inv.NE {
		e := q[bd.ECol+i]
		rc[0] += inv.cu[i] * e
		rc[1] += inv.cw[i] * e
	}
	return rc
}

// cMul returns C x_e for the elastic block of x.
func (bd *Body) cMul(x []float64) vec {
	var r vec
	for i := range bd.Inv.NE {
		r[0] += bd.Inv.cu[i] * x[bd.ECol+i]
		r[1] += bd.Inv.cw[i] * x[bd.ECol+i]
	}
	return r
}

// dotAt returns Σ a_i x[off+i].
func dotAt(a []float64, x []float64, off int) float64 {
	var s float64
	for i, ai := range a {
		s += ai * x[off+i]
	}
	return s
}

// WriteMass adds the body's blocks of M (the header of this file).
func (bd *Body) WriteMass(dst Matrix, q []float64) {
	inv, c, ec := bd.Inv, bd.Col, bd.ECol
	sn, cs := math.Sincos(q[c+2])
	rc := bd.rhoC(q)
	mrth := rotateSC(perp(rc), sn, cs)
	dst.Add(c, c, inv.m)
	dst.Add(c+1, c+1, inv.m)
	for k := range 2 {
		dst.Add(c+k, c+2, mrth[k])
		dst.Add(c+2, c+k, mrth[k])
	}
	jth := inv.j0 + 2*dotAt(inv.du, q, ec)
	for _, t := range inv.mee {
		jth += q[ec+t.I] * t.V * q[ec+t.J]
	}
	dst.Add(c+2, c+2, jth)
	for i := range inv.NE {
		a := rotateSC(vec{inv.cu[i], inv.cw[i]}, sn, cs)
		dst.Add(c, ec+i, a[0])
		dst.Add(ec+i, c, a[0])
		dst.Add(c+1, ec+i, a[1])
		dst.Add(ec+i, c+1, a[1])
		dst.Add(c+2, ec+i, inv.dw[i])
		dst.Add(ec+i, c+2, inv.dw[i])
	}
	for _, t := range inv.b { // (Bᵀe)_j = Σ_i e_i B_ij
		v := q[ec+t.I] * t.V
		dst.Add(c+2, ec+t.J, v)
		dst.Add(ec+t.J, c+2, v)
	}
	for _, t := range inv.mee {
		dst.Add(ec+t.I, ec+t.J, t.V)
	}
}

// WriteMassDerivative adds ∂(M a)/∂q of the body:
//
//	∂(Ma)_R/∂θ = A(S C a_e − ρ_c a_θ),   ∂(Ma)_R/∂e = A S C a_θ,
//	∂(Ma)_θ/∂θ = −(A ρ_c)·a_R,   ∂(Ma)_θ/∂e = Cᵀ(A S)ᵀ a_R + 2 a_θ (d_u + M_ee e) + B a_e,
//	∂(Ma)_e/∂θ = Cᵀ (A S)ᵀ a_R,   ∂(Ma)_e/∂e = a_θ Bᵀ.
func (bd *Body) WriteMassDerivative(dst Matrix, q, a []float64) {
	inv, c, ec := bd.Inv, bd.Col, bd.ECol
	sn, cs := math.Sincos(q[c+2])
	rc := bd.rhoC(q)
	ca := bd.cMul(a)
	ar := vec{a[c], a[c+1]}
	ath := a[c+2]
	r := rotateSC(vec{-ca[1] - rc[0]*ath, ca[0] - rc[1]*ath}, sn, cs)
	dst.Add(c, c+2, r[0])
	dst.Add(c+1, c+2, r[1])
	arc := rotateSC(rc, sn, cs)
	dst.Add(c+2, c+2, -dot(arc, ar))
	// (A S)ᵀ a_R in the frame: Sᵀ Aᵀ a_R.
	al := rotateSC(ar, -sn, cs)
	sa := vec{al[1], -al[0]}
	for i := range inv.NE {
		col := vec{inv.cu[i], inv.cw[i]}
		g := rotateSC(perp(col), sn, cs)
		dst.Add(c, ec+i, g[0]*ath)
		dst.Add(c+1, ec+i, g[1]*ath)
		v := dot(col, sa)
		dst.Add(c+2, ec+i, v+2*ath*inv.du[i])
		dst.Add(ec+i, c+2, v)
	}
	for _, t := range inv.mee {
		dst.Add(c+2, ec+t.J, 2*ath*q[ec+t.I]*t.V)
	}
	for _, t := range inv.b {
		dst.Add(c+2, ec+t.I, t.V*a[ec+t.J])
		dst.Add(ec+t.J, ec+t.I, ath*t.V)
	}
}

// AddForce adds f of the body (the header of this file) for gravity g.
func (bd *Body) AddForce(dst, q, v []float64, grav [2]float64) {
	g := vec(grav)
	inv, c, ec := bd.Inv, bd.Col, bd.ECol
	sn, cs := math.Sincos(q[c+2])
	thd := v[c+2]
	rc := bd.rhoC(q)
	ce := bd.cMul(v)
	sce := perp(ce)
	fr := rotateSC(vec{thd*thd*rc[0] - 2*thd*sce[0], thd*thd*rc[1] - 2*thd*sce[1]}, sn, cs)
	dst[c] += fr[0] + inv.m*g[0]
	dst[c+1] += fr[1] + inv.m*g[1]
	gl := rotateSC(g, -sn, cs) // Aᵀ g
	dst[c+2] += dot(gl, perp(rc))
	for i := range inv.NE {
		du := inv.du[i]
		dst[c+2] -= 2 * thd * du * v[ec+i]
		dst[ec+i] += thd*thd*du + inv.cu[i]*gl[0] + inv.cw[i]*gl[1]
	}
	for _, t := range inv.mee {
		me := t.V * q[ec+t.J]
		dst[c+2] -= 2 * thd * v[ec+t.I] * me
		dst[ec+t.I] += thd * thd * me
	}
	for _, t := range inv.b {
		dst[ec+t.I] += 2 * thd * t.V * v[ec+t.J]
	}
	for _, t := range inv.k {
		dst[ec+t.I] -= t.V * q[ec+t.J]
	}
}

// WriteForceDerivativeQ adds ∂f/∂q of the body:
//
//	∂f_R/∂θ = A S(θ̇² ρ_c − 2θ̇ S C ė),   ∂f_R/∂e = θ̇² A C,
//	∂f_θ/∂θ = −gᵀ A ρ_c,   ∂f_θ/∂e = −2θ̇ M_ee ė + Cᵀ Sᵀ Aᵀ g,
//	∂f_e/∂θ = Cᵀ Sᵀ Aᵀ g,   ∂f_e/∂e = θ̇² M_ee − K.
func (bd *Body) WriteForceDerivativeQ(dst Matrix, q, v []float64, grav [2]float64) {
	g := vec(grav)
	inv, c, ec := bd.Inv, bd.Col, bd.ECol
	sn, cs := math.Sincos(q[c+2])
	thd := v[c+2]
	rc := bd.rhoC(q)
	sce := perp(bd.cMul(v))
	fr := rotateSC(perp(vec{thd*thd*rc[0] - 2*thd*sce[0], thd*thd*rc[1] - 2*thd*sce[1]}), sn, cs)
	dst.Add(c, c+2, fr[0])
	dst.Add(c+1, c+2, fr[1])
	gl := rotateSC(g, -sn, cs)
	dst.Add(c+2, c+2, -dot(gl, rc))
	sg := vec{gl[1], -gl[0]} // Sᵀ Aᵀ g
	for i := range inv.NE {
		col := vec{inv.cu[i], inv.cw[i]}
		ac := rotateSC(col, sn, cs)
		dst.Add(c, ec+i, thd*thd*ac[0])
		dst.Add(c+1, ec+i, thd*thd*ac[1])
		w := dot(col, sg)
		dst.Add(c+2, ec+i, w)
		dst.Add(ec+i, c+2, w)
	}
	for _, t := range inv.mee {
		dst.Add(c+2, ec+t.J, -2*thd*v[ec+t.I]*t.V)
		dst.Add(ec+t.I, ec+t.J, thd*thd*t.V)
	}
	for _, t := range inv.k {
		dst.Add(ec+t.I, ec+t.J, -t.V)
	}
}

// WriteForceDerivativeV adds ∂f/∂v of the body:
//
//	∂f_R/∂θ̇ = 2A(θ̇ ρ_c − S C ė),   ∂f_R/∂ė = −2θ̇ A S C,
//	∂f_θ/∂θ̇ = −2(d_u + M_ee e)·ė,   ∂f_θ/∂ė = −2θ̇ (d_u + M_ee e),
//	∂f_e/∂θ̇ = 2θ̇ (d_u + M_ee e) + 2B ė,   ∂f_e/∂ė = 2θ̇ B.
func (bd *Body) WriteForceDerivativeV(dst Matrix, q, v []float64) {
	inv, c, ec := bd.Inv, bd.Col, bd.ECol
	sn, cs := math.Sincos(q[c+2])
	thd := v[c+2]
	rc := bd.rhoC(q)
	sce := perp(bd.cMul(v))
	fr := rotateSC(vec{2 * (thd*rc[0] - sce[0]), 2 * (thd*rc[1] - sce[1])}, sn, cs)
	dst.Add(c, c+2, fr[0])
	dst.Add(c+1, c+2, fr[1])
	var pth float64
	for i := range inv.NE {
		col := vec{inv.cu[i], inv.cw[i]}
		g := rotateSC(perp(col), sn, cs)
		dst.Add(c, ec+i, -2*thd*g[0])
		dst.Add(c+1, ec+i, -2*thd*g[1])
		du := inv.du[i]
		pth -= 2 * du * v[ec+i]
		dst.Add(c+2, ec+i, -2*thd*du)
		dst.Add(ec+i, c+2, 2*thd*du)
	}
	for _, t := range inv.mee {
		me := t.V * q[ec+t.J]
		pth -= 2 * v[ec+t.I] * me
		dst.Add(c+2, ec+t.I, -2*thd*me)
		dst.Add(ec+t.I, c+2, 2*thd*me)
	}
	for _, t := range inv.b {
		dst.Add(ec+t.I, c+2, 2*t.V*v[ec+t.J])
		dst.Add(ec+t.I, ec+t.J, 2*thd*t.V)
	}
	dst.Add(c+2, c+2, pth)
}

// Energies returns the body's kinetic energy ½ q̇_bᵀ M q̇_b, its gravitational potential
// −gᵀ(m R + A ρ_c) and its strain energy ½ eᵀ K e.
func (bd *Body) Energies(q, v []float64, grav [2]float64) (kinetic, gravity, strain float64) {
	g := vec(grav)
	inv, c, ec := bd.Inv, bd.Col, bd.ECol
	sn, cs := math.Sincos(q[c+2])
	rc := bd.rhoC(q)
	vr := vec{v[c], v[c+1]}
	thd := v[c+2]
	ce := bd.cMul(v)
	// ½ m|Ṙ|² + θ̇ Ṙ·A S ρ_c + Ṙ·A C ė + ½ J θ̇² + θ̇ (d_w + Bᵀe)·ė + ½ ėᵀ M_ee ė.
	t := 0.5*inv.m*dot(vr, vr) + thd*dot(vr, rotateSC(perp(rc), sn, cs)) + dot(vr, rotateSC(ce, sn, cs))
	jth := inv.j0 + 2*dotAt(inv.du, q, ec)
	for _, m := range inv.mee {
		jth += q[ec+m.I] * m.V * q[ec+m.J]
		t += 0.5 * v[ec+m.I] * m.V * v[ec+m.J]
	}
	t += 0.5*jth*thd*thd + thd*dotAt(inv.dw, v, ec)
	for _, b := range inv.b {
		t += thd * q[ec+b.I] * b.V * v[ec+b.J]
	}
	return t, -(inv.m*dot(g, vec{q[c], q[c+1]}) + dot(g, rotateSC(rc, sn, cs))), inv.StrainEnergy(q[ec : ec+inv.NE])
}
