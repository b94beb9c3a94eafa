package joint

import "gonum.org/v1/gonum/mat"

// The derivatives of the recursive Newton-Euler algorithm for the implicit methods'
// Newton matrices. Turning joint k by δq_k turns its whole subtree rigidly about the axis
// s_k, so every spatial quantity of the subtree changes by s_k × X (motions) or s_k ×* X
// (forces), plus terms from the parent's motion, which does not turn:
//
//	δV_i = s_k × V_i + ν,                      ν = −s_k × V_λ   (λ the parent of k)
//	δA_i = s_k × A_i − s_k × A_λ + ν × (V_i − V_λ)
//	δI_i x = s_k ×* (I_i x) − I_i (s_k × x)
//
// and the joint forces τ_j = s_j·F_j change by (s_k × s_j)·F_j + s_j·δF_j inside the
// subtree and by s_j·δF_k on the path above it. One column costs O(size of the subtree),
// a matrix O(N·depth): exact derivatives, not the O(N) linearization of the sweeps.

// idWork holds the body forces of the Newton-Euler pass and a column's perturbations.
type idWork struct {
	f, dF  []sv
	inSub  []bool
	column []float64
}

func newIDWork(n int) *idWork {
	return &idWork{f: make([]sv, n), dF: make([]sv, n), inSub: make([]bool, n), column: make([]float64, n)}
}

// bodyForces runs Newton-Euler at the kinematics in w with joint accelerations a (nil:
// zero): w.A, the body forces d.f and the subtree sums w.F. A bare frame (no body) takes
// no force, as in inverseDynamics.
func (m *Model) bodyForces(w *frames, d *idWork, a []float64, gravity bool) {
	for i := range m.prims {
		// A = (c + s a_i) + A', the sv operations' sums on locals.
		c := &w.c[i]
		A0, A1, A2, A3, A4, A5 := c[0], c[1], c[2], c[3], c[4], c[5]
		if a != nil {
			s, ai := &w.s[i], a[i]
			A0, A1, A2, A3, A4, A5 = A0+s[0]*ai, A1+s[1]*ai, A2+s[2]*ai, A3+s[3]*ai, A4+s[4]*ai, A5+s[5]*ai
		}
		if p := m.prims[i].parent; p != Ground {
			Ap := &w.A[p]
			A0, A1, A2, A3, A4, A5 = A0+Ap[0], A1+Ap[1], A2+Ap[2], A3+Ap[3], A4+Ap[4], A5+Ap[5]
		}
		At := &w.A[i]
		At[0], At[1], At[2], At[3], At[4], At[5] = A0, A1, A2, A3, A4, A5
		if w.bare[i] { // no body: I and the external force are zero, so is f
			d.f[i], w.F[i] = sv{}, sv{}
			continue
		}
		// I A + V ×* I V − f_ext: bodyForce's sums (the velocity term always, as
		// crossF's zeros at rest add to them), the same bits as the sv operations.
		bodyForce(&d.f[i], &w.I[i], At, &w.V[i], &w.fx[i], true, gravity)
		w.F[i] = d.f[i]
	}
	for i := len(m.prims) - 1; i >= 0; i-- {
		if p := m.prims[i].parent; p != Ground {
			addIn(&w.F[p], &w.F[i])
		}
	}
}

// markSubtree sets d.inSub to the subtree of k (parents precede children).
func (m *Model) markSubtree(d *idWork, k int) {
	for i := range d.inSub {
		d.inSub[i] = i == k || (i > k && m.prims[i].parent != Ground && d.inSub[m.prims[i].parent])
	}
}

// parentMotion returns V and A of the parent of k (zero at the ground).
func (m *Model) parentMotion(w *frames, k int) (V, A sv) {
	if p := m.prims[k].parent; p != Ground {
		return w.V[p], w.A[p]
	}
	return sv{}, sv{}
}

// idColumnQ writes ∂τ/∂q_k of the Newton-Euler τ(q, v, a) into d.column.
func (m *Model) idColumnQ(w *frames, d *idWork, k int, gravity bool) {
	m.markSubtree(d, k)
	sk := w.s[k]
	Vl, Al := m.parentMotion(w, k)
	nu := crossM(sk, Vl).scale(-1)
	base := crossM(sk, Al).scale(-1)
	g := vec3(m.Gravity)
	for i := range m.prims {
		if !d.inSub[i] {
			continue
		}
		V, A, I := w.V[i], w.A[i], &w.I[i]
		dV := crossM(sk, V).add(nu)
		dA := crossM(sk, A).add(base).add(crossM(nu, V.add(Vl.scale(-1))))
		h := I.mulv(V)
		dIV := crossF(sk, h).add(I.mulv(crossM(sk, V)).scale(-1))
		dIA := crossF(sk, I.mulv(A)).add(I.mulv(crossM(sk, A)).scale(-1))
		df := dIA.add(I.mulv(dA)).add(crossF(dV, h)).add(crossF(V, dIV.add(I.mulv(dV))))
		if b := &m.prims[i].body; gravity && b.Mass != 0 {
			c := w.x[i].add(w.R[i].mulv(b.COM))
			dc := sk.ang().cross(c).add(sk.lin())
			df = df.add(join(dc.cross(g.scale(b.Mass)), vec3{}).scale(-1))
		}
		d.dF[i] = df
	}
	m.columnFromForces(w, d, k, true)
}

// idColumnV writes ∂τ/∂v_k of the Newton-Euler τ(q, v, a) into d.column.
func (m *Model) idColumnV(w *frames, d *idWork, k int) {
	m.markSubtree(d, k)
	sk := w.s[k]
	twice := crossM(w.V[k], sk).scale(2)
	for i := range m.prims {
		if !d.inSub[i] {
			continue
		}
		V, I := w.V[i], &w.I[i]
		dA := twice.add(crossM(sk, V))
		d.dF[i] = I.mulv(dA).add(crossF(sk, I.mulv(V))).add(crossF(V, I.mulv(sk)))
	}
	m.columnFromForces(w, d, k, false)
}

// columnFromForces sums the body-force perturbations d.dF over subtrees and projects them
// on the joint axes; turned adds (s_k × s_j)·F_j for the axes the perturbation turns.
func (m *Model) columnFromForces(w *frames, d *idWork, k int, turned bool) {
	for j := range d.column {
		d.column[j] = 0
	}
	for i := len(m.prims) - 1; i >= k; i-- {
		if !d.inSub[i] {
			continue
		}
		d.column[i] = w.s[i].dot(d.dF[i])
		if turned {
			d.column[i] += crossM(w.s[k], w.s[i]).dot(w.F[i])
		}
		if p := m.prims[i].parent; p != Ground && d.inSub[p] {
			d.dF[p] = d.dF[p].add(d.dF[i])
		}
	}
	for j := m.prims[k].parent; j != Ground; j = m.prims[j].parent {
		d.column[j] = w.s[j].dot(d.dF[k])
	}
}

// MassDerivative writes ∂(M(q) a)/∂q, the derivative of Newton-Euler at zero velocity
// without gravity.
func (s *System) MassDerivative(dst *mat.Dense, t float64, q, a []float64) {
	s.m.kinematics(s.w, q, nil)
	s.m.bodyForces(s.w, s.d, a, false)
	for k := range s.m.prims {
		s.m.idColumnQ(s.w, s.d, k, false)
		for j, x := range s.d.column {
			dst.Set(j, k, x)
		}
	}
	if len(s.flex) > 0 {
		s.clearFlex(dst)
		for i := range s.flex {
			s.flex[i].global.WriteMassDerivative(dense{dst}, q, a)
		}
	}
}

// ForceDerivativeQ writes ∂f/∂q = −∂b/∂q − diag(k) + ∂(JᵀW)/∂q (b the Newton-Euler bias with
// gravity, W the force elements' wrenches).
func (s *System) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	s.m.kinematics(s.w, q, v)
	s.m.bodyForces(s.w, s.d, nil, true)
	s.frameWrenches(t)
	for k := range s.m.prims {
		s.m.idColumnQ(s.w, s.d, k, true)
		for j, x := range s.d.column {
			dst.Set(j, k, -x)
		}
		dst.Set(k, k, dst.At(k, k)-s.m.prims[k].k)
		s.elementColumnQ(dst, t, k)
	}
	if len(s.flex) > 0 {
		s.clearFlex(dst)
		for i := range s.flex {
			s.flex[i].global.WriteForceDerivativeQ(dense{dst}, q, v, s.m.gravity2())
		}
	}
}

// ForceDerivativeV writes ∂f/∂v = −∂b/∂v − diag(d) + ∂(JᵀW)/∂v.
func (s *System) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	s.m.kinematics(s.w, q, v)
	s.m.bodyForces(s.w, s.d, nil, true)
	for k := range s.m.prims {
		s.m.idColumnV(s.w, s.d, k)
		for j, x := range s.d.column {
			dst.Set(j, k, -x)
		}
		dst.Set(k, k, dst.At(k, k)-s.m.prims[k].d)
		s.elementColumnV(dst, t, k)
	}
	if len(s.flex) > 0 {
		s.clearFlex(dst)
		for i := range s.flex {
			s.flex[i].global.WriteForceDerivativeV(dense{dst}, q, v)
		}
	}
}

// ConstraintForceDerivative writes ∂(Gᵀλ)/∂q. A cut joint's point rows act as the world
// force f = ±Σ λ e at its point r, the wrench w = [r × f; f]; turning joint k moves the
// points of its subtree by δr = s_k,ang × r + s_k,lin and turns the axes s_j of the
// subtree. Its slide rows act as a force turning with frame a (slideForceColumn), its
// orientation rows as a moment (axisForceColumn).
func (s *System) ConstraintForceDerivative(dst *mat.Dense, t float64, q, lambda []float64) {
	s.m.kinematics(s.w, q, nil)
	dst.Zero()
	for k := range s.m.prims {
		s.m.markSubtree(s.d, k)
		row := 0
		for _, c := range s.m.cuts {
			var f vec3
			for n, e := range c.dirs {
				f = f.add(e.scale(lambda[row+n]))
			}
			row += len(c.dirs)
			s.cutColumn(dst, k, c.a, c.pa, f)
			s.cutColumn(dst, k, c.b, c.pb, f.scale(-1))
		}
		row = s.slideForceColumn(dst, k, lambda, row)
		row = s.axisForceColumn(dst, k, lambda, row)
		row = s.camForceColumn(dst, k, lambda, row)
		s.diskForceColumn(dst, k, lambda, row, false)
		s.flexCutColumn(dst, k, lambda)
	}
	s.flexCutHessian(dst, q, lambda)
}

// cutColumn adds to column k of dst the change of Σ_j s_j·w for the force f at point p of
// frame fr, when fr lies in the subtree of k.
func (s *System) cutColumn(dst *mat.Dense, k, fr int, p, f vec3) {
	if fr == Ground || !s.d.inSub[fr] {
		return
	}
	sk := s.w.s[k]
	r, _, _ := s.w.point(fr, p)
	dr := sk.ang().cross(r).add(sk.lin())
	s.wrenchColumn(dst, k, fr, join(r.cross(f), f), join(dr.cross(f), vec3{}))
}

// wrenchColumn adds to column k of dst the change of Σ_j s_j·w over the joints j on the
// path to frame fr, for the wrench w on fr changing by dw when joint k turns: the axes s_j
// of k's subtree (s.d.inSub) turn with it.
func (s *System) wrenchColumn(dst *mat.Dense, k, fr int, w, dw sv) {
	sk := s.w.s[k]
	for j := fr; j != Ground; j = s.m.prims[j].parent {
		x := s.w.s[j].dot(dw)
		if s.d.inSub[j] {
			x += crossM(sk, s.w.s[j]).dot(w)
		}
		dst.Set(j, k, dst.At(j, k)+x)
	}
}
