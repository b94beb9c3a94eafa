package joint

import "gonum.org/v1/gonum/mat"

// axisCut is the orientation part of a cut joint (seed 002 §3.3: the cut joint's
// constraints g(q) = 0): the unit vector ua fixed in frame a stays perpendicular to each
// unit vector ub[k] fixed in frame b, one row u·w_k = 0 each with u = R_a ua, w_k = R_b ub[k].
type axisCut struct {
	name string
	a, b int
	ua   vec3
	ub   []vec3
}

// CutAxes adds the orientation rows of a cut joint between frames a and b: the axis ua of
// frame a stays perpendicular to each vector in ub of frame b, (R_a ua)·(R_b ub_k) = 0
// (frame coordinates; Ground is the world). With Cut's three point rows, a revolute cut
// joint about z_a is CutAxes(name, a, z_a, b, x_b, y_b) where x_b, y_b are perpendicular to
// the axis in frame b (5 rows), and a universal cut joint with cross axes a₁ (in a) and
// b₂ (in b) is CutAxes(name, a, a₁, b, b₂) (4 rows).
func (m *Model) CutAxes(name string, a int, ua [3]float64, b int, ub ...[3]float64) {
	if !m.cutFrames(name, a, b, len(ub)) {
		return
	}
	c := axisCut{name: name, a: a, b: b, ua: unit(ua)}
	for _, w := range ub {
		c.ub = append(c.ub, unit(w))
	}
	m.axes = append(m.axes, c)
}

// turned returns u fixed in frame f in world axes, and f's angular velocity and angular
// acceleration (the angular part of w.A, which the caller fills); zero at the ground.
func (w *frames) turned(f int, u vec3) (uw, omega, alpha vec3) {
	if f == Ground {
		return u, vec3{}, vec3{}
	}
	return w.R[f].mulv(u), w.V[f].ang(), w.A[f].ang()
}

// axisConstraint writes the rows u·w_k from dst[k] on and returns the next row.
func (s *System) axisConstraint(dst []float64, k int) int {
	for _, c := range s.m.axes {
		u, _, _ := s.w.turned(c.a, c.ua)
		for _, ub := range c.ub {
			w, _, _ := s.w.turned(c.b, ub)
			dst[k] = u.dot(w)
			k++
		}
	}
	return k
}

// axisJacobian writes the rows of G from row k on: d(u·w)/dt = (ω_a − ω_b)·(u × w), so
// joint j on the path to a contributes s_j,ang·(u × w) and on the path to b its negative.
func (s *System) axisJacobian(dst *mat.Dense, k int) int {
	for _, c := range s.m.axes {
		u, _, _ := s.w.turned(c.a, c.ua)
		for _, ub := range c.ub {
			w, _, _ := s.w.turned(c.b, ub)
			n := u.cross(w)
			row := dst.RawRowView(k)
			s.momentRow(row, c.a, n)
			s.momentRow(row, c.b, n.scale(-1))
			k++
		}
	}
	return k
}

// momentRow adds s_j,ang·n for every joint j on the path from the root to frame f.
func (s *System) momentRow(row []float64, f int, n vec3) {
	for j := f; j != Ground; j = s.m.prims[j].parent {
		row[j] += s.w.s[j].ang().dot(n)
	}
}

// axisGamma writes γ of the orientation rows from row k on, with w.A holding the
// accelerations at q” = 0: minus d²(u·w)/dt² there,
//
//	γ = −(α_a − α_b)·(u × w) − (ω_a − ω_b)·((ω_a × u) × w + u × (ω_b × w)).
func (s *System) axisGamma(dst []float64, k int) int {
	for _, c := range s.m.axes {
		u, wa, aa := s.w.turned(c.a, c.ua)
		for _, ub := range c.ub {
			w, wb, ab := s.w.turned(c.b, ub)
			rate := wa.cross(u).cross(w).add(u.cross(wb.cross(w)))
			dst[k] = -aa.sub(ab).dot(u.cross(w)) - wa.sub(wb).dot(rate)
			k++
		}
	}
	return k
}

// axisForceColumn adds to column k of dst (s.d.inSub marking the subtree of k) the change
// of the orientation rows' Gᵀλ, from multiplier row on; it returns the next row. The rows
// act as the moment n = Σ λ (u × w) on frame a and −n on frame b; turning joint k turns
// u when a is in its subtree, w when b is, by s_k,ang × (·).
func (s *System) axisForceColumn(dst *mat.Dense, k int, lambda []float64, row int) int {
	sk := s.w.s[k].ang()
	for _, c := range s.m.axes {
		u, _, _ := s.w.turned(c.a, c.ua)
		du := s.turnedBy(c.a, sk, u)
		var n, dn vec3
		for _, ub := range c.ub {
			w, _, _ := s.w.turned(c.b, ub)
			dw := s.turnedBy(c.b, sk, w)
			n = n.add(u.cross(w).scale(lambda[row]))
			dn = dn.add(du.cross(w).add(u.cross(dw)).scale(lambda[row]))
			row++
		}
		s.wrenchColumn(dst, k, c.a, join(n, vec3{}), join(dn, vec3{}))
		s.wrenchColumn(dst, k, c.b, join(n, vec3{}).scale(-1), join(dn, vec3{}).scale(-1))
	}
	return row
}

// turnedBy is the change ω × x of the vector x fixed in frame f when joint k (axis ω,
// s.d.inSub marking its subtree) turns by one radian, zero outside the subtree.
func (s *System) turnedBy(f int, omega, x vec3) vec3 {
	if f == Ground || !s.d.inSub[f] {
		return vec3{}
	}
	return omega.cross(x)
}
