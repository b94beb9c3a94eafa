package joint

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// CutSlide adds the point rows of a translational or cylindrical cut joint between frames
// a and b (seed 002 §3.3: the cut joint's constraints g(q) = 0): point pb of frame b keeps
// to the line through point pa of frame a along the directions perpendicular to it,
// (R_a e_k)·(r_b − r_a) = 0 for each e_k in dirs (frame a coordinates; Ground is the
// world), the rows turning with frame a. With CutAxes, a
// cylindrical cut joint along z_a is CutSlide(name, a, pa, b, pb, x_a, y_a) and
// CutAxes(name, a, z_a, b, x_b, y_b) (4 rows); a translational one adds the torsion row
// CutAxes(name, a, x_a, b, y_b) (5 rows).
func (m *Model) CutSlide(name string, a int, pa [3]float64, b int, pb [3]float64, dirs ...[3]float64) {
	if c, ok := m.pointCut(name, a, pa, b, pb, dirs); ok {
		m.slides = append(m.slides, c)
	}
}

// slideNames appends the row names NAME.slide[k] of the slide rows.
func (m *Model) slideNames(names []string) []string {
	for _, c := range m.slides {
		for k := range c.dirs {
			names = append(names, fmt.Sprintf("%s.slide[%d]", c.name, k))
		}
	}
	return names
}

// slideConstraint writes the rows u·(r_b − r_a) from dst[k] on and returns the next row.
func (s *System) slideConstraint(dst []float64, k int) int {
	for _, c := range s.m.slides {
		ra, _, _ := s.w.point(c.a, c.pa)
		rb, _, _ := s.w.point(c.b, c.pb)
		for _, e := range c.dirs {
			u, _, _ := s.w.turned(c.a, e)
			dst[k] = u.dot(rb.sub(ra))
			k++
		}
	}
	return k
}

// slideJacobian writes the rows of G from row k on. With d = r_b − r_a,
//
//	d(u·d)/dt = (ω_a × u)·d + u·(v_b − v_a) = u·(v_b − v_a(r_b)),
//
// where v_a(r_b) is the velocity of frame a's material point at r_b: joint j on the path
// to b contributes u·(s_lin + s_ang × r_b), on the path to a its negative.
func (s *System) slideJacobian(dst *mat.Dense, k int) int {
	for _, c := range s.m.slides {
		rb, _, _ := s.w.point(c.b, c.pb)
		for _, e := range c.dirs {
			u, _, _ := s.w.turned(c.a, e)
			row := dst.RawRowView(k)
			s.pathRow(row, c.b, rb, u, 1)
			s.pathRow(row, c.a, rb, u, -1)
			k++
		}
	}
	return k
}

// slideGamma writes γ of the slide rows from row k on, with w.A holding the accelerations
// at q” = 0: minus d²(u·d)/dt² there,
//
//	γ = −(α_a × u + ω_a × (ω_a × u))·d − 2 (ω_a × u)·(v_b − v_a) − u·(a_b − a_a).
func (s *System) slideGamma(dst []float64, k int) int {
	for _, c := range s.m.slides {
		ra, va, aa := s.w.point(c.a, c.pa)
		rb, vb, ab := s.w.point(c.b, c.pb)
		d, dv, da := rb.sub(ra), vb.sub(va), ab.sub(aa)
		for _, e := range c.dirs {
			u, omega, alpha := s.w.turned(c.a, e)
			du := omega.cross(u)
			ddu := alpha.cross(u).add(omega.cross(du))
			dst[k] = -ddu.dot(d) - 2*du.dot(dv) - u.dot(da)
			k++
		}
	}
	return k
}

// slideForceColumn adds to column k of dst (s.d.inSub marking the subtree of k) the change
// of the slide rows' Gᵀλ, from multiplier row on; it returns the next row. The rows act as
// the force f = Σ λ u at r_b, the wrench w = [r_b × f; f] on frame b and −w on frame a;
// turning joint k turns f when a is in its subtree and moves r_b when b is.
func (s *System) slideForceColumn(dst *mat.Dense, k int, lambda []float64, row int) int {
	sk := s.w.s[k]
	for _, c := range s.m.slides {
		rb, _, _ := s.w.point(c.b, c.pb)
		var f, df vec3
		for _, e := range c.dirs {
			u, _, _ := s.w.turned(c.a, e)
			f = f.add(u.scale(lambda[row]))
			df = df.add(s.turnedBy(c.a, sk.ang(), u).scale(lambda[row]))
			row++
		}
		var dr vec3
		if c.b != Ground && s.d.inSub[c.b] {
			dr = sk.ang().cross(rb).add(sk.lin())
		}
		w := join(rb.cross(f), f)
		dw := join(dr.cross(f).add(rb.cross(df)), df)
		s.wrenchColumn(dst, k, c.b, w, dw)
		s.wrenchColumn(dst, k, c.a, w.scale(-1), dw.scale(-1))
	}
	return row
}
