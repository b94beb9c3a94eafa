package joint

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// cam.go: a planar cam joint (in the plane z = 0, frames turning about z) with its contact
// parameter eliminated. The body route keeps the follower's point r_J on the contour
// r_I + A(ψ) r(u)(cos u, sin u) by two rows and carries u as an algebraic variable (a
// massless coordinate), which the articulated-body recursion cannot invert. For a point
// follower the two rows say that D = r_J − r_I has the polar angle u from the cam marker's
// x axis e = R_a x_I and the length r(u); so u is a function of q, the angle from e to D,
// and one row remains (seed 002 §3.3: a cut joint's g(q) = 0):
//
//	g = ρ − r(u),   ρ = |D|,   u = ∠(e, D).
//
// With D̂ = D/ρ, ê = z × D̂, ω_a the cam frame's angular velocity about z and
// n = D̂ − (r'/ρ) ê (the contour's normal, scaled),
//
//	u' = ê·D'/ρ − ω_a,   g' = n·D' + r' ω_a,
//
// so G's row is n on the follower's point, −n on the cam's and r' on the cam's rotation.
// u is taken in (u0 − π, u0 + π] about its start value u0, so the profile must be
// 2π-periodic there (a closed contour), which Cam checks.

// camCut is a cam joint between the contour of frame a (centre pa, polar axis ex, profile r)
// and the point pb of frame b.
type camCut struct {
	name    string
	a, b    int
	pa, pb  vec3
	ex      vec3
	profile func(u float64) (r, r1, r2 float64)
	u0      float64
}

// camGeometry is a cam joint's contact geometry at one state.
type camGeometry struct {
	d, dHat, eHat vec3    // D = r_J − r_I, D̂, ê = z × D̂
	rho, u        float64 // |D|, the contact parameter
	r, r1, r2     float64 // r(u) and its derivatives
	n             vec3    // D̂ − (r'/ρ) ê
}

var zAxis = vec3{0, 0, 1}

// Cam adds a planar cam joint (rows in the plane z = 0): the point pb of frame b stays on
// the contour of frame a, centre pa and polar axis ex (frame a coordinates; Ground is the
// world), whose radius at polar angle u is r(u) (profile returns r, r', r″). The contact
// parameter u is eliminated (cam.go): one row ρ − r(u) = 0 named NAME, with u the angle
// from the polar axis to the follower's point, taken within half a turn of u0; the profile
// must be 2π-periodic (a closed contour).
func (m *Model) Cam(name string, a int, pa, ex [3]float64, b int, pb [3]float64, profile func(float64) (r, r1, r2 float64), u0 float64) {
	if !m.cutFrames(name, a, b, 1) {
		return
	}
	if ex[2] != 0 || vec3(ex).dot(ex) == 0 {
		m.fail(fmt.Errorf("joint: cam %q: polar axis %v, want a nonzero direction in the plane z = 0", name, ex))
		return
	}
	for _, s := range []float64{math.Pi, math.Pi / 2} {
		p1, p2, p3 := profile(u0 + s)
		m1, m2, m3 := profile(u0 + s - 2*math.Pi)
		if gap := math.Max(math.Abs(p1-m1), math.Max(math.Abs(p2-m2), math.Abs(p3-m3))); !(gap <= 1e-9*(1+math.Abs(p1)+math.Abs(p2)+math.Abs(p3))) {
			m.fail(fmt.Errorf("joint: cam %q: profile r(u) not 2π-periodic (r, r', r″ = %.6g, %.6g, %.6g at u = %.6g and %.6g, %.6g, %.6g a turn earlier): "+
				"joint coordinates take the contact parameter as the follower's polar angle, defined modulo 2π, and need a closed contour", name, p1, p2, p3, u0+s, m1, m2, m3))
			return
		}
	}
	m.cams = append(m.cams, camCut{name: name, a: a, b: b, pa: pa, pb: pb, ex: unit(ex), profile: profile, u0: u0})
}

// camNames appends the cam rows' names.
func (m *Model) camNames(names []string) []string {
	for _, c := range m.cams {
		names = append(names, c.name)
	}
	return names
}

// camGeometry returns the contact geometry of c from the positions in w.
func (s *System) camGeometry(c *camCut) camGeometry {
	ra, _, _ := s.w.point(c.a, c.pa)
	rb, _, _ := s.w.point(c.b, c.pb)
	e, _, _ := s.w.turned(c.a, c.ex)
	var k camGeometry
	k.d = rb.sub(ra)
	k.rho = math.Hypot(k.d[0], k.d[1])
	k.dHat = k.d.scale(1 / k.rho)
	k.eHat = zAxis.cross(k.dHat)
	k.u = c.u0 + math.Remainder(math.Atan2(e.cross(k.d)[2], e.dot(k.d))-c.u0, 2*math.Pi)
	k.r, k.r1, k.r2 = c.profile(k.u)
	k.n = k.dHat.sub(k.eHat.scale(k.r1 / k.rho))
	return k
}

// camConstraint writes the rows ρ − r(u) from dst[k] on and returns the next row.
func (s *System) camConstraint(dst []float64, k int) int {
	for i := range s.m.cams {
		g := s.camGeometry(&s.m.cams[i])
		dst[k] = g.rho - g.r
		k++
	}
	return k
}

// camJacobian writes the rows of G from row k on: n·(v_J − v_I) + r' ω_a.
func (s *System) camJacobian(dst *mat.Dense, k int) int {
	for i := range s.m.cams {
		c := &s.m.cams[i]
		g := s.camGeometry(c)
		ra, _, _ := s.w.point(c.a, c.pa)
		rb, _, _ := s.w.point(c.b, c.pb)
		row := dst.RawRowView(k)
		s.pathRow(row, c.b, rb, g.n, 1)
		s.pathRow(row, c.a, ra, g.n, -1)
		s.momentRow(row, c.a, zAxis.scale(g.r1))
		k++
	}
	return k
}

// camGamma writes γ of the cam rows from row k on, with w.A holding the accelerations at
// q” = 0: minus g″ there,
//
//	γ = −n'·D' − n·D″ − r″ u' ω_a − r' α_a,
//	n' = α' ê − (r″ u'/ρ − r' ρ'/ρ²) ê + (r'/ρ) α' D̂,   α' = ê·D'/ρ,   ρ' = D̂·D'.
func (s *System) camGamma(dst []float64, k int) int {
	for i := range s.m.cams {
		c := &s.m.cams[i]
		g := s.camGeometry(c)
		_, va, aa := s.w.point(c.a, c.pa)
		_, vb, ab := s.w.point(c.b, c.pb)
		_, omega, alpha := s.w.turned(c.a, c.ex)
		dv, da := vb.sub(va), ab.sub(aa)
		rate := g.eHat.dot(dv) / g.rho // α', the polar angle's rate in the world
		du := rate - omega[2]
		dn := g.eHat.scale(rate - g.r2*du/g.rho + g.r1*g.dHat.dot(dv)/(g.rho*g.rho)).add(g.dHat.scale(g.r1 / g.rho * rate))
		dst[k] = -dn.dot(dv) - g.n.dot(da) - g.r2*du*omega[2] - g.r1*alpha[2]
		k++
	}
	return k
}

// camForceColumn adds to column k of dst (s.d.inSub marking the subtree of k) the change of
// the cam rows' Gᵀλ, from multiplier row on; it returns the next row. A row acts as the
// force λn at r_J on frame b and as −λn at r_I with the moment λ r' z on frame a; turning
// joint k moves the points in its subtree, δr = s_k,ang × r + s_k,lin, which changes
// D, hence n and r' (δu = ê·δD/ρ − δψ), and turns the axes of the subtree (wrenchColumn).
func (s *System) camForceColumn(dst *mat.Dense, k int, lambda []float64, row int) int {
	sk := s.w.s[k]
	moved := func(f int, r vec3) vec3 {
		if f == Ground || !s.d.inSub[f] {
			return vec3{}
		}
		return sk.ang().cross(r).add(sk.lin())
	}
	for i := range s.m.cams {
		c := &s.m.cams[i]
		g := s.camGeometry(c)
		ra, _, _ := s.w.point(c.a, c.pa)
		rb, _, _ := s.w.point(c.b, c.pb)
		dra, drb := moved(c.a, ra), moved(c.b, rb)
		var dpsi float64
		if c.a != Ground && s.d.inSub[c.a] {
			dpsi = sk.ang()[2]
		}
		dd := drb.sub(dra)
		turn := g.eHat.dot(dd) / g.rho // δ of the polar angle in the world
		du := turn - dpsi
		dn := g.eHat.scale(turn - g.r2*du/g.rho + g.r1*g.dHat.dot(dd)/(g.rho*g.rho)).add(g.dHat.scale(g.r1 / g.rho * turn))
		l := lambda[row]
		n, dnl := g.n.scale(l), dn.scale(l)
		s.wrenchColumn(dst, k, c.b, join(rb.cross(n), n), join(drb.cross(n).add(rb.cross(dnl)), dnl))
		moment, dmoment := zAxis.scale(l*g.r1), zAxis.scale(l*g.r2*du)
		s.wrenchColumn(dst, k, c.a, join(moment.sub(ra.cross(n)), n.scale(-1)),
			join(dmoment.sub(dra.cross(n)).sub(ra.cross(dnl)), dnl.scale(-1)))
		row++
	}
	return row
}
