package problems

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
)

// andrews is Andrews' squeezing mechanism (seven rigid bodies in a plane, one closed loop
// to the fixed point B and two to A) as in the IVP test set (Mazzia & Iavernaro 2003,
// §II.13; Hairer & Wanner 1996, VII.7): q = (β, Θ, γ, Φ, δ, Ω, ε), seven angles, subject
// to six loop-closure constraints g(q) = 0 with g_t = 0, the motor torque mom on body 1
// and a spring of stiffness c0 and rest length l0 on body 3.
//
// The constraints are sums of the terms a·cos(θ_S) or a·sin(θ_S) with θ_S the sum of one
// or two angles, plus a constant; they are kept as data so that g, G, γ and ∂(Gᵀλ)/∂q come
// from one table: for a term a·trig(θ_S),
//
//	∂/∂q_j = a·trig'(θ_S) (j ∈ S),   ∂²/∂q_j∂q_k = −a·trig(θ_S) (j, k ∈ S),
//
// so its contribution to γ = −(G v)_q v is a·trig(θ_S)·(Σ_{j∈S} v_j)².
type andrews struct {
	m1, m2, m3, m4, m5, m6, m7 float64
	xa, ya, xb, yb, xc, yc     float64
	c0                         float64
	i1, i2, i3, i4, i5, i6, i7 float64
	d, da, e, ea, rr, ra, l0   float64
	ss, sa, sb, sc, sd, ta, tb float64
	u, ua, ub, zf, zt, fa, mom float64
	terms                      [22]loopTerm
	consts                     [6]float64 // constant part of each g_i
}

// loopTerm is a·cos(q_j + q_k) (or sin) in constraint row; k < 0 for a single angle.
type loopTerm struct {
	row  int
	a    float64
	sin  bool
	j, k int
}

var (
	_ dae.System                    = (*andrews)(nil)
	_ dae.MassDerivative            = (*andrews)(nil)
	_ dae.ConstraintForceDerivative = (*andrews)(nil)
	_ dae.ForceDerivative           = (*andrews)(nil)
	_ dae.Namer                     = (*andrews)(nil)
)

// newAndrews returns the mechanism with the test set's parameters (andrews.json
// "parameters", from subroutine andfunc of the test set's andrews.f).
func newAndrews() *andrews {
	p := &andrews{
		m1: 0.04325, m2: 0.00365, m3: 0.02373, m4: 0.00706, m5: 0.07050, m6: 0.00706, m7: 0.05498,
		xa: -0.06934, ya: -0.00227, xb: -0.03635, yb: 0.03273, xc: 0.014, yc: 0.072,
		c0: 4530,
		i1: 2.194e-6, i2: 4.410e-7, i3: 5.255e-6, i4: 5.667e-7, i5: 1.169e-5, i6: 5.667e-7, i7: 1.912e-5,
		d: 28e-3, da: 115e-4, e: 2e-2, ea: 1421e-5, rr: 7e-3, ra: 92e-5, l0: 7785e-5,
		ss: 35e-3, sa: 1874e-5, sb: 1043e-5, sc: 18e-3, sd: 2e-2, ta: 2308e-5, tb: 916e-5,
		u: 4e-2, ua: 1228e-5, ub: 449e-5, zf: 2e-2, zt: 4e-2, fa: 1421e-5, mom: 33e-3,
	}
	// The loop closures of the test set (angles 0-based: β 0, Θ 1, γ 2, Φ 3, δ 4, Ω 5, ε 6):
	//	g1 = rr cos β − d cos(β+Θ) − ss sin γ − xb
	//	g2 = rr sin β − d sin(β+Θ) + ss cos γ − yb
	//	g3 = rr cos β − d cos(β+Θ) − e sin(Φ+δ) − zt cos δ − xa
	//	g4 = rr sin β − d sin(β+Θ) + e cos(Φ+δ) − zt sin δ − ya
	//	g5 = rr cos β − d cos(β+Θ) − zf cos(Ω+ε) − u sin ε − xa
	//	g6 = rr sin β − d sin(β+Θ) − zf sin(Ω+ε) + u cos ε − ya
	const cos, sin = false, true
	n := 0
	add := func(row int, a float64, s bool, j, k int) {
		p.terms[n] = loopTerm{row: row, a: a, sin: s, j: j, k: k}
		n++
	}
	for row := range 6 {
		// Every loop starts with the crank β and the rod Θ; even rows are x, odd rows y.
		add(row, p.rr, row%2 == 1, 0, -1)
		add(row, -p.d, row%2 == 1, 0, 1)
	}
	add(0, -p.ss, sin, 2, -1)
	add(1, p.ss, cos, 2, -1)
	add(2, -p.e, sin, 3, 4)
	add(2, -p.zt, cos, 4, -1)
	add(3, p.e, cos, 3, 4)
	add(3, -p.zt, sin, 4, -1)
	add(4, -p.zf, cos, 5, 6)
	add(4, -p.u, sin, 6, -1)
	add(5, -p.zf, sin, 5, 6)
	add(5, p.u, cos, 6, -1)
	if n != len(p.terms) {
		panic("problems: andrews: term table size")
	}
	p.consts = [6]float64{-p.xb, -p.yb, -p.xa, -p.ya, -p.xa, -p.ya}
	return p
}

// andrewsQ0 etc. are the consistent initial values of the test set (andrews.json
// "initial_values", subroutine andinit; 30 digits, exact decimal strings).
var (
	andrewsQ0 = [7]string{
		"-0.0617138900142764496358948458001", "0", "0.455279819163070380255912382449",
		"0.222668390165885884674473185609", "0.487364979543842550225598953530",
		"-0.222668390165885884674473185609", "1.23054744454982119249735015568",
	}
	andrewsA0      = [7]string{"14222.4439199541138705911625887", "-10666.8329399655854029433719415", "0", "0", "0", "0", "0"}
	andrewsLambda0 = [6]string{"98.5668703962410896057654982170", "-6.12268834425566265503114393122", "0", "0", "0", "0"}
)

// andrewsRef is the reference at t = 0.03 of the test set (andrews.json
// "reference_solution", subroutine andsoln: PSIDE with rtol = atol = 1e-14), y1..y27 =
// (q, v, a, λ).
var andrewsRef = [27]string{
	"0.1581077119629904e+2", "-0.1575637105984298e+2", "0.4082224013073101e-1", "-0.5347301163226948e+0",
	"0.5244099658805304e+0", "0.5347301163226948e+0", "0.1048080741042263e+1", "0.1139920302151208e+4",
	"-0.1424379294994111e+4", "0.1103291221937134e+2", "0.1929337464421385e+2", "0.5735699284790808e+0",
	"-0.1929337464421385e+2", "0.3231791658026955e+0", "-0.2463176316945196e+5", "0.5185037701610329e+5",
	"0.3241025686413781e+6", "0.5667493645176213e+6", "0.1674362929479361e+5", "-0.5667493645176222e+6",
	"0.9826520791458422e+4", "0.1991753333731910e+3", "-0.2975531228015052e+2", "0.2306654119098399e+2",
	"0.3145271365475927e+2", "0.2264249232082739e+2", "0.1161740700019673e+2",
}

func andrewsProblem() Problem {
	start := integrate.NewState(7, 6)
	copy(start.Q, mustParse(andrewsQ0[:]))
	copy(start.A, mustParse(andrewsA0[:]))
	copy(start.Lambda, mustParse(andrewsLambda0[:]))
	ref := mustParse(andrewsRef[:])
	return Problem{
		Name:  "andrews",
		Title: "Andrews' squeezing mechanism, 7 bodies, 6 loop constraints (IVP test set)",
		Source: "IVP test set (Mazzia & Iavernaro, Release 2.2, 2003), problem II.13 'andrews', file src/Ex_andrews.f of cran/deTestSet " +
			"(andfunc: M, f, g, G; andinit: 30-digit consistent initial values); after Hairer & Wanner (1996), VII.7, and Giles (1978)",
		System: newAndrews(),
		T0:     0, TEnd: 0.03,
		Start: start,
		Ref: Reference{
			T: 0.03, Q: ref[0:7], V: ref[7:14], A: ref[14:21], Lambda: ref[21:27],
			SCDIndices: seq(7),
			Source:     "IVP test set subroutine andsoln: PSIDE, rtol = atol = 1e-14, Cray C90; scd over the 7 angles as in the test set",
		},
		Tol: 1e-6,
	}
}

// Size returns nq = 7, nc = 6.
func (p *andrews) Size() (nq, nc int) { return 7, 6 }

// Mass writes the test set's M(q): block diagonal with blocks {β, Θ}, {γ}, {Φ, δ}, {Ω, ε}.
func (p *andrews) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	cth := math.Cos(q[1])
	sph := math.Sin(q[3])
	som := math.Sin(q[5])
	ee, zfa := p.e-p.ea, p.zf-p.fa
	dst.Set(0, 0, p.m1*p.ra*p.ra+p.m2*(p.rr*p.rr-2*p.da*p.rr*cth+p.da*p.da)+p.i1+p.i2)
	m01 := p.m2*(p.da*p.da-p.da*p.rr*cth) + p.i2
	dst.Set(0, 1, m01)
	dst.Set(1, 0, m01)
	dst.Set(1, 1, p.m2*p.da*p.da+p.i2)
	dst.Set(2, 2, p.m3*(p.sa*p.sa+p.sb*p.sb)+p.i3)
	dst.Set(3, 3, p.m4*ee*ee+p.i4)
	m34 := p.m4*(ee*ee+p.zt*ee*sph) + p.i4
	dst.Set(3, 4, m34)
	dst.Set(4, 3, m34)
	dst.Set(4, 4, p.m4*(p.zt*p.zt+2*p.zt*ee*sph+ee*ee)+p.m5*(p.ta*p.ta+p.tb*p.tb)+p.i4+p.i5)
	dst.Set(5, 5, p.m6*zfa*zfa+p.i6)
	m56 := p.m6*(zfa*zfa-p.u*zfa*som) + p.i6
	dst.Set(5, 6, m56)
	dst.Set(6, 5, m56)
	dst.Set(6, 6, p.m6*(zfa*zfa-2*p.u*zfa*som+p.u*p.u)+p.m7*(p.ua*p.ua+p.ub*p.ub)+p.i6+p.i7)
}

// MassDerivative writes ∂(M a)/∂q; M depends on Θ, Φ and Ω only.
func (p *andrews) MassDerivative(dst *mat.Dense, t float64, q, a []float64) {
	dst.Zero()
	k1 := p.m2 * p.da * p.rr * math.Sin(q[1])          // ∂M01/∂Θ; ∂M00/∂Θ = 2 k1
	k3 := p.m4 * p.zt * (p.e - p.ea) * math.Cos(q[3])  // ∂M34/∂Φ; ∂M44/∂Φ = 2 k3
	k5 := -p.m6 * p.u * (p.zf - p.fa) * math.Cos(q[5]) // ∂M56/∂Ω; ∂M66/∂Ω = 2 k5
	dst.Set(0, 1, 2*k1*a[0]+k1*a[1])
	dst.Set(1, 1, k1*a[0])
	dst.Set(3, 3, k3*a[4])
	dst.Set(4, 3, k3*a[3]+2*k3*a[4])
	dst.Set(5, 5, k5*a[6])
	dst.Set(6, 5, k5*a[5]+2*k5*a[6])
}

// spring returns the generalized spring force f₃ = −c0 (L − l0) L' on γ and its
// derivative ∂f₃/∂γ, with L the spring length between D (on body 3) and C and
// L' = dL/dγ. (The test set's Fx·(sc cos γ − sd sin γ) + Fy·(sd cos γ + sc sin γ) with
// F = −c0 (L − l0)/L is the same expression.)
func (p *andrews) spring(gamma float64) (f3, df3 float64) {
	sg, cg := math.Sincos(gamma)
	dx := p.sd*cg + p.sc*sg + p.xb - p.xc // x_D − x_C
	dy := p.sd*sg - p.sc*cg + p.yb - p.yc // y_D − y_C
	dxg := -p.sd*sg + p.sc*cg             // dx_D/dγ
	dyg := p.sd*cg + p.sc*sg              // dy_D/dγ
	L := math.Hypot(dx, dy)
	P := dx*dxg + dy*dyg // L L'
	Lp := P / L
	// (L L')' = |dD/dγ|² + (D − C)·D'' with D'' = −(D − B); so L'' = ((L L')' − L'²)/L.
	dP := dxg*dxg + dyg*dyg - dx*(p.sd*cg+p.sc*sg) - dy*(p.sd*sg-p.sc*cg)
	Lpp := (dP - Lp*Lp) / L
	// The test set's form F·(dx·dxg + dy·dyg) keeps its rounding.
	F := -p.c0 * (L - p.l0) / L
	return F*dx*dxg + F*dy*dyg, -p.c0 * (Lp*Lp + (L-p.l0)*Lpp)
}

// Force writes the test set's f(q, v): motor torque, the spring on γ and the
// centrifugal and Coriolis terms of the two-body groups.
func (p *andrews) Force(dst []float64, t float64, q, v []float64) {
	sth, cph, com := math.Sin(q[1]), math.Cos(q[3]), math.Cos(q[5])
	kr := p.m2 * p.da * p.rr
	k4 := p.m4 * p.zt * (p.e - p.ea)
	k6 := p.m6 * p.u * (p.zf - p.fa)
	dst[0] = p.mom - kr*v[1]*(v[1]+2*v[0])*sth
	dst[1] = kr * v[0] * v[0] * sth
	dst[2], _ = p.spring(q[2])
	dst[3] = k4 * v[4] * v[4] * cph
	dst[4] = -k4 * v[3] * (v[3] + 2*v[4]) * cph
	dst[5] = -k6 * v[6] * v[6] * com
	dst[6] = k6 * v[5] * (v[5] + 2*v[6]) * com
}

// ForceDerivativeQ writes ∂f/∂q (diagonal: f_i depends on q_j only through Θ for f₁, f₂,
// γ for f₃, Φ for f₄, f₅ and Ω for f₆, f₇).
func (p *andrews) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	dst.Zero()
	cth, sph, som := math.Cos(q[1]), math.Sin(q[3]), math.Sin(q[5])
	kr := p.m2 * p.da * p.rr
	k4 := p.m4 * p.zt * (p.e - p.ea)
	k6 := p.m6 * p.u * (p.zf - p.fa)
	dst.Set(0, 1, -kr*v[1]*(v[1]+2*v[0])*cth)
	dst.Set(1, 1, kr*v[0]*v[0]*cth)
	_, df3 := p.spring(q[2])
	dst.Set(2, 2, df3)
	dst.Set(3, 3, -k4*v[4]*v[4]*sph)
	dst.Set(4, 3, k4*v[3]*(v[3]+2*v[4])*sph)
	dst.Set(5, 5, k6*v[6]*v[6]*som)
	dst.Set(6, 5, -k6*v[5]*(v[5]+2*v[6])*som)
}

// ForceDerivativeV writes ∂f/∂v.
func (p *andrews) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	dst.Zero()
	sth, cph, com := math.Sin(q[1]), math.Cos(q[3]), math.Cos(q[5])
	kr := p.m2 * p.da * p.rr
	k4 := p.m4 * p.zt * (p.e - p.ea)
	k6 := p.m6 * p.u * (p.zf - p.fa)
	dst.Set(0, 0, -2*kr*v[1]*sth)
	dst.Set(0, 1, -2*kr*(v[1]+v[0])*sth)
	dst.Set(1, 0, 2*kr*v[0]*sth)
	dst.Set(3, 4, 2*k4*v[4]*cph)
	dst.Set(4, 3, -2*k4*(v[3]+v[4])*cph)
	dst.Set(4, 4, -2*k4*v[3]*cph)
	dst.Set(5, 6, -2*k6*v[6]*com)
	dst.Set(6, 5, 2*k6*(v[5]+v[6])*com)
	dst.Set(6, 6, 2*k6*v[5]*com)
}

// angle returns Σ_{j∈S} x_j: θ_S for x = q, the angular rate of the term for x = v.
func (tm *loopTerm) angle(q []float64) float64 {
	if tm.k < 0 {
		return q[tm.j]
	}
	return q[tm.j] + q[tm.k]
}

// trig returns trig(θ) and trig'(θ) of the term.
func (tm *loopTerm) trig(theta float64) (f, df float64) {
	s, c := math.Sincos(theta)
	if tm.sin {
		return s, c
	}
	return c, -s
}

// Constraint writes the six loop closures g(q) (see the type's doc).
func (p *andrews) Constraint(dst []float64, t float64, q []float64) {
	copy(dst[:6], p.consts[:])
	for i := range p.terms {
		tm := &p.terms[i]
		f, _ := tm.trig(tm.angle(q))
		dst[tm.row] += tm.a * f
	}
}

// ConstraintJacobian writes G = ∂g/∂q.
func (p *andrews) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for i := range p.terms {
		tm := &p.terms[i]
		_, df := tm.trig(tm.angle(q))
		dst.Set(tm.row, tm.j, dst.At(tm.row, tm.j)+tm.a*df)
		if tm.k >= 0 {
			dst.Set(tm.row, tm.k, dst.At(tm.row, tm.k)+tm.a*df)
		}
	}
}

// ConstraintTimeDerivative writes g_t = 0 (scleronomic).
func (p *andrews) ConstraintTimeDerivative(dst []float64, t float64, q []float64) { clear(dst[:6]) }

// Gamma writes γ = −(G v)_q v = Σ_terms a·trig(θ_S)·(Σ_{j∈S} v_j)².
func (p *andrews) Gamma(dst []float64, t float64, q, v []float64) {
	clear(dst[:6])
	for i := range p.terms {
		tm := &p.terms[i]
		f, _ := tm.trig(tm.angle(q))
		w := tm.angle(v)
		dst[tm.row] += tm.a * f * w * w
	}
}

// ConstraintForceDerivative writes ∂(Gᵀλ)/∂q = Σ_i λ_i ∇²g_i, with ∇²(a·trig(θ_S)) = −a·trig(θ_S)
// on the entries (j, k ∈ S).
func (p *andrews) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	dst.Zero()
	for i := range p.terms {
		tm := &p.terms[i]
		f, _ := tm.trig(tm.angle(q))
		h := -tm.a * f * lambda[tm.row]
		dst.Set(tm.j, tm.j, dst.At(tm.j, tm.j)+h)
		if tm.k >= 0 {
			dst.Set(tm.k, tm.k, dst.At(tm.k, tm.k)+h)
			dst.Set(tm.j, tm.k, dst.At(tm.j, tm.k)+h)
			dst.Set(tm.k, tm.j, dst.At(tm.k, tm.j)+h)
		}
	}
}

var andrewsCoordNames = [7]string{"beta", "theta", "gamma", "phi", "delta", "Omega", "epsilon"}

var andrewsConstraintNames = [6]string{
	"loop B x", "loop B y", // crank and rod to B through body 3 (γ)
	"loop A x via phi-delta", "loop A y via phi-delta", // to A through bodies 4, 5
	"loop A x via Omega-epsilon", "loop A y via Omega-epsilon", // to A through bodies 6, 7
}

// CoordinateName returns the test set's angle names β, Θ, γ, Φ, δ, Ω, ε spelled out.
func (p *andrews) CoordinateName(i int) string { return andrewsCoordNames[i] }

// ConstraintName names the loop closures: the crank-rod point E joined to B through body
// 3, and to A through bodies 4-5 and through bodies 6-7.
func (p *andrews) ConstraintName(i int) string { return andrewsConstraintNames[i] }
