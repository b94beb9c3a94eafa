package joint

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// knife is a velocity row of the Pfaffian form (seed 002, eq. 44): the point p of frame a
// does not move along the unit direction n fixed in frame a, u·v_P = 0 with u = R_a n.
// A knife edge (a blade on a plane that slides along itself but not across) is one such
// row with n across the blade.
type knife struct {
	name string
	a    int
	p, n vec3
}

var (
	_ dae.Nonholonomic  = (*System)(nil)
	_ dae.PfaffianNamer = (*System)(nil)

	_ dae.PfaffianStiffMassSolver = (*System)(nil)
)

// KnifeEdge adds a nonholonomic row: the velocity of point p of frame a (frame
// coordinates) along the direction n fixed in frame a is zero, A(q) v = (R_a n)·v_P = 0
// (seed 002, eq. 44: a Pfaffian row with b = 0, named NAME.n). A planar knife edge whose
// blade runs along x_a is KnifeEdge(name, a, p, y_a). The row is no position constraint:
// methods that cannot take velocity constraints refuse the system (dae.Nonholonomic).
func (m *Model) KnifeEdge(name string, a int, p, n [3]float64) {
	if a < 0 || a >= len(m.prims) {
		m.fail(fmt.Errorf("joint: knife edge %q: frame %d is not a moving frame (%d frames); want the frame of the body that carries the blade", name, a, len(m.prims)))
		return
	}
	if vec3(n).dot(n) == 0 {
		m.fail(fmt.Errorf("joint: knife edge %q: zero direction, want the nonzero direction across the blade", name))
		return
	}
	m.knives = append(m.knives, knife{name: name, a: a, p: p, n: unit(n)})
}

// NumPfaffian returns the number of Pfaffian rows, the knife edges' and then two of each
// rolling disk (dae.Nonholonomic; 0 for none).
func (s *System) NumPfaffian() int { return len(s.m.knives) + 2*len(s.m.disks) }

// PfaffianName names knife edge k's row NAME.n and a rolling disk's NAME.x, NAME.y
// (dae.PfaffianNamer).
func (s *System) PfaffianName(k int) string {
	if k < len(s.m.knives) {
		return s.m.knives[k].name + ".n"
	}
	k -= len(s.m.knives)
	return s.m.disks[k/2].name + [2]string{".x", ".y"}[k%2]
}

// Pfaffian writes A and b = 0: row k holds, for each joint j on the path to frame a, the
// velocity its axis gives the point along u, u·(s_j,lin + s_j,ang × r_P) (pathRow).
func (s *System) Pfaffian(A *mat.Dense, b []float64, t float64, q []float64) {
	s.m.kinematics(s.w, q, nil)
	A.Zero()
	clear(b)
	for k, e := range s.m.knives {
		r, _, _ := s.w.point(e.a, e.p)
		u, _, _ := s.w.turned(e.a, e.n)
		s.pathRow(A.RawRowView(k), e.a, r, u, 1)
	}
	s.diskPfaffian(A, len(s.m.knives))
}

// PfaffianGamma writes γ_A = −(A v)_q v: with d(u·v_P)/dt = (ω_a × u)·v_P + u·a_P and
// a_P = A a + a_P⁰ (a_P⁰ the point's acceleration at q” = 0),
//
//	γ_A = −(ω_a × u)·v_P − u·a_P⁰.
func (s *System) PfaffianGamma(dst []float64, t float64, q, v []float64) {
	s.m.kinematics(s.w, q, v)
	s.velocityProductAccelerations()
	for k, e := range s.m.knives {
		_, vp, ap := s.w.point(e.a, e.p)
		u, omega, _ := s.w.turned(e.a, e.n)
		dst[k] = -omega.cross(u).dot(vp) - u.dot(ap)
	}
	s.diskGamma(dst, len(s.m.knives), true)
}

// PfaffianRateDerivative writes ∂(A v)/∂q at fixed v. Turning joint k (axis s_k = [ω_k;
// v_k], its parent frame moving with V_λ) moves nothing outside its subtree; inside it u
// turns by ω_k × u, the point by δr = ω_k × r_P + v_k, and the part of v_P that the
// subtree's joints give, v_P − V_λ(r_P), turns rigidly, while the rest, V_λ(r_P), changes by
// ω_λ × δr:
//
//	∂(u·v_P)/∂q_k = (ω_k × u)·v_P + u·(ω_k × (v_P − V_λ(r_P)) + ω_λ × δr).
func (s *System) PfaffianRateDerivative(dst *mat.Dense, t float64, q, v []float64) {
	s.m.kinematics(s.w, q, v)
	dst.Zero()
	for k := range s.m.prims {
		s.m.markSubtree(s.d, k)
		sk := s.w.s[k]
		Vl, _ := s.m.parentMotion(s.w, k)
		for row, e := range s.m.knives {
			if !s.d.inSub[e.a] {
				continue
			}
			r, vp, _ := s.w.point(e.a, e.p)
			u, _, _ := s.w.turned(e.a, e.n)
			dr := sk.ang().cross(r).add(sk.lin())
			sub := vp.sub(Vl.lin().add(Vl.ang().cross(r)))
			x := sk.ang().cross(u).dot(vp) + u.dot(sk.ang().cross(sub).add(Vl.ang().cross(dr)))
			dst.Set(row, k, x)
		}
		s.diskRateColumn(dst, k, len(s.m.knives))
	}
}

// PfaffianForceDerivative writes ∂(Aᵀμ)/∂q. The row acts as the world force f = μ u at
// r_P on frame a, the wrench [r_P × f; f]; turning joint k turns f and moves r_P when a is
// in its subtree, and turns the axes of the subtree (wrenchColumn).
func (s *System) PfaffianForceDerivative(dst *mat.Dense, t float64, q, mu []float64) {
	s.m.kinematics(s.w, q, nil)
	dst.Zero()
	for k := range s.m.prims {
		s.m.markSubtree(s.d, k)
		sk := s.w.s[k]
		for row, e := range s.m.knives {
			r, _, _ := s.w.point(e.a, e.p)
			u, _, _ := s.w.turned(e.a, e.n)
			f := u.scale(mu[row])
			var df, dr vec3
			if s.d.inSub[e.a] {
				df = sk.ang().cross(f)
				dr = sk.ang().cross(r).add(sk.lin())
			}
			s.wrenchColumn(dst, k, e.a, join(r.cross(f), f), join(dr.cross(f).add(r.cross(df)), df))
		}
		s.diskForceColumn(dst, k, mu, len(s.m.knives), true)
	}
}

// velocityProductAccelerations fills w.A with the frames' accelerations at q” = 0 (the
// velocity-product terms of the forward recursion), from kinematics already in w.
func (s *System) velocityProductAccelerations() {
	for i := range s.m.prims {
		A := s.w.c[i]
		if p := s.m.prims[i].parent; p != Ground {
			A = A.add(s.w.A[p])
		}
		s.w.A[i] = A
	}
}
