package planar

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/assembly"
	"linkage/law"
)

// cam.go: (q, v) ⇒ the contour part of a cam joint's rows (issue 16, item 3). A cam joint
// keeps the point of marker J on the contour of marker I's body,
//
//	r_J − r_I − A(ψ) p(u) = 0,   p(u) = r(u) (cos u, sin u),   ψ = θ_I + φ_I,
//
// rows "name.x", "name.y": the revolute rows r_J − r_I (kinematics.go) plus the contour
// term h_c = −(A(ψ) p(u))_c, in which the contact parameter u is an algebraic variable
// (dae.Algebraic): a massless coordinate of its own, after every body's and beam's. With
// ∂A/∂ψ = A S and S² = −1,
//
//	∇h: ψ ↦ −(A S p)_c,  u ↦ −(A p')_c;   ∇²h: ψψ ↦ (A p)_c,  ψu ↦ −(A S p')_c,  uu ↦ −(A p″)_c,
//
// with p' = r'(cos u, sin u) + r(−sin u, cos u), p″ = (r″ − r)(cos u, sin u) + 2r'(−sin u, cos u)
// and p‴ = (r‴ − 3r')(cos u, sin u) + (3r″ − r)(−sin u, cos u), r‴ (only in ∂γ/∂u) by a
// central difference of r″, since a law.Func gives two derivatives.

// camRow is the contour term of row `row` (component comp of the joint's two rows).
type camRow struct {
	row, comp   int
	pair        int     // the joint's pair of markers (I on the cam, J the follower)
	thcol, ucol int     // columns of θ_I (−1: the cam is the ground) and of u
	phi         float64 // φ_I, marker I's angle in its body
	profile     law.Func
}

// camParts holds, at (ψ, u), the negated rotated contour vectors −A p, −A p', −A p″, −A p‴
// and their images under S (component comp only), the sign with which they enter h.
type camParts struct {
	p, p1, p2, p3     float64 // −(A p^(k))_c
	sp, sp1, sp2, sp3 float64 // −(A S p^(k))_c
}

// parts evaluates camParts at q; p‴ (two more profile evaluations) only when third.
func (c *camRow) parts(q []float64, third bool) camParts {
	psi := c.phi
	if c.thcol >= 0 {
		psi += q[c.thcol]
	}
	u := q[c.ucol]
	r, r1, r2 := c.profile.Eval(u)
	var r3 float64
	if third {
		h := 6e-6 * math.Max(1, math.Abs(u)) // ≈ ∛ε: central difference of r″
		_, _, r2p := c.profile.Eval(u + h)
		_, _, r2m := c.profile.Eval(u - h)
		r3 = (r2p - r2m) / (2 * h)
	}
	su, cu := math.Sincos(u)
	radial, tangent := Vec{cu, su}, Vec{-su, cu}
	comb := func(a, b float64) Vec { return Vec{a*radial[0] + b*tangent[0], a*radial[1] + b*tangent[1]} }
	vs := [4]Vec{comb(r, 0), comb(r1, r), comb(r2-r, 2*r1), comb(r3-3*r1, 3*r2-r)}
	sn, cs := math.Sincos(psi)
	var out [8]float64
	for k, v := range vs {
		out[k] = -rotateSC(v, sn, cs)[c.comp]
		out[4+k] = -rotateSC(perp(v), sn, cs)[c.comp]
	}
	return camParts{out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]}
}

// hessian returns ∇²h in (ψ, u): ψψ, ψu, uu.
func (k *camParts) hessian() (tt, tu, uu float64) { return -k.p, k.sp1, k.p2 }

// rates returns ψ' (0 for a cam on the ground) and u' from x.
func (c *camRow) rates(x []float64) (wt, wu float64) {
	if c.thcol >= 0 {
		wt = x[c.thcol]
	}
	return wt, x[c.ucol]
}

// addCamsConstraint adds h = −(A p)_c to g.
func (s *System) addCamsConstraint(dst, q []float64) {
	for i := range s.cams {
		c := &s.cams[i]
		dst[c.row] += c.parts(q, false).p
	}
}

// addCamsJacobian adds ∇h to G.
func (s *System) addCamsJacobian(dst assembly.Target, q []float64) {
	for i := range s.cams {
		c := &s.cams[i]
		k := c.parts(q, false)
		if c.thcol >= 0 {
			dst.Add(c.row, c.thcol, k.sp)
		}
		dst.Add(c.row, c.ucol, k.p1)
	}
}

// addCamsHessian adds λ_r ∇²h to ∂(Gᵀλ)/∂q.
func (s *System) addCamsHessian(dst assembly.Target, q, lambda []float64) {
	for i := range s.cams {
		c := &s.cams[i]
		l := lambda[c.row]
		if l == 0 {
			continue
		}
		k := c.parts(q, false)
		tt, tu, uu := k.hessian()
		if c.thcol >= 0 {
			dst.Add(c.thcol, c.thcol, l*tt)
			dst.Add(c.thcol, c.ucol, l*tu)
			dst.Add(c.ucol, c.thcol, l*tu)
		}
		dst.Add(c.ucol, c.ucol, l*uu)
	}
}

// addCamsGamma adds −wᵀ∇²h w, w = (ψ', u'), to γ.
func (s *System) addCamsGamma(dst, q, v []float64) {
	for i := range s.cams {
		c := &s.cams[i]
		k := c.parts(q, false)
		tt, tu, uu := k.hessian()
		wt, wu := c.rates(v)
		dst[c.row] -= tt*wt*wt + 2*tu*wt*wu + uu*wu*wu
	}
}

// addCamsJacobianDerivative adds ∇²h w to row r of ∂(G w)/∂q.
func (s *System) addCamsJacobianDerivative(dst assembly.Target, q, w []float64) {
	for i := range s.cams {
		c := &s.cams[i]
		k := c.parts(q, false)
		tt, tu, uu := k.hessian()
		wt, wu := c.rates(w)
		out := dst.Row(c.row)
		if c.thcol >= 0 {
			out.Add(c.thcol, tt*wt+tu*wu)
		}
		out.Add(c.ucol, tu*wt+uu*wu)
	}
}

// addCamsGammaDerivativeQ adds ∂γ/∂q of the contour terms, γ_h = (ψ'²(A p) − 2ψ'u'(A S p')
// − u'²(A p″))_c:  ψ ↦ (ψ'²(A S p) + 2ψ'u'(A p') − u'²(A S p″))_c,
// u ↦ (ψ'²(A p') − 2ψ'u'(A S p″) − u'²(A p‴))_c.
func (s *System) addCamsGammaDerivativeQ(dst *mat.Dense, q, v []float64) {
	for i := range s.cams {
		c := &s.cams[i]
		k := c.parts(q, true)
		wt, wu := c.rates(v)
		out := dst.RawRowView(c.row)
		if c.thcol >= 0 {
			out[c.thcol] += wt*wt*k.sp + 2*wt*wu*k.p1 - wu*wu*k.sp2
		}
		out[c.ucol] += wt*wt*k.p1 - 2*wt*wu*k.sp2 - wu*wu*k.p3
	}
}

// camPatternColumns adds to rows, per constraint row, the columns the contour terms read.
func (s *System) camPatternColumns(rows [][]int) {
	for _, c := range s.cams {
		cols := []int{c.ucol}
		if c.thcol >= 0 {
			cols = append(cols, c.thcol)
		}
		rows[c.row] = assembly.Columns(rows[c.row], cols)
	}
}

// camCoupling adds the contour terms' Hessian entries (θ_I, u), (u, θ_I), (u, u) to the
// coupling pattern.
func (s *System) camCoupling(out [][]int) {
	for _, c := range s.cams {
		cols := []int{c.ucol}
		if c.thcol >= 0 {
			cols = append(cols, c.thcol)
			out[c.thcol] = assembly.Columns(out[c.thcol], []int{c.ucol})
		}
		out[c.ucol] = assembly.Columns(out[c.ucol], cols)
	}
}

// camGuess writes the initial guess of each contact parameter into q0: the polar angle of
// marker J's point in marker I's frame at the bodies' initial guesses, exact for a point
// follower on a star-shaped contour.
func (s *System) camGuess(q0 []float64) {
	for _, c := range s.cams {
		if c.comp != 0 {
			continue
		}
		pr := &s.pairs[c.pair]
		var k pairKin
		pr.kin(q0, &k)
		q0[c.ucol] = math.Atan2(k.d[0]*k.n[0]+k.d[1]*k.n[1], k.d[0]*k.u[0]+k.d[1]*k.u[1])
	}
}

// AlgebraicCoordinates returns the columns of the cam joints' contact parameters
// (dae.Algebraic): massless coordinates determined by the contour rows.
func (s *System) AlgebraicCoordinates() []int {
	var out []int
	for _, c := range s.cams {
		if c.comp == 0 {
			out = append(out, c.ucol)
		}
	}
	return out
}

// addCam numbers the contact parameter of cam joint js (pair p, rows from s.nc) and records
// its two contour terms.
func (s *System) addCam(ck *assembly.Checker, names assembly.CatalogWriter, what string, js jointSpec, p int) {
	if js.drive == nil {
		ck.Bad("%s: no profile r(u)", what)
		return
	}
	mi := s.markers[js.i-1]
	thcol := -1
	if mi.col >= 0 {
		thcol = mi.col + 2
	}
	for comp := range 2 {
		s.cams = append(s.cams, camRow{row: s.nc + comp, comp: comp, pair: p, thcol: thcol, ucol: s.nq, phi: mi.Angle, profile: js.drive})
	}
	names.AddCoordinates(js.name, ".u")
	s.nq++
}
