package joint

// frames holds the recursive kinematics of seed 002, Table 1 (eqs. 46-50) for one state,
// all in world coordinates at the world origin, and the work arrays of the recursions.
type frames struct {
	R  []mat3     // orientation of each child frame
	x  []vec3     // origin of each child frame
	s  []sv       // joint axis (motion subspace), eq. 47
	V  []sv       // spatial velocity V_i = V_parent + s_i q'_i
	c  []sv       // velocity-product acceleration V_i × s_i q'_i
	I  []inertia6 // rigid-body inertia at the world origin
	fx []sv       // external (gravity) force on each body
	A  []sv       // spatial acceleration
	F  []sv       // articulated or composite force
	IA []inertia6 // articulated-body (or composite) inertia
	U  []sv
	D  []float64
	u  []float64
	L  [][maxGroup - 1]float64 // a group's unit lower triangular factor of D, row by row (multidof.go)

	// groups are the joints of the articulated-body recursion (multidof.go), or nil: every
	// primitive a joint of its own.
	groups []group
	// sole marks the frames whose one child is a ball group's or a one-primitive group's
	// first primitive (Model.soleJoints), or nil: that joint's downdate writes their IA
	// as I + Ia.
	sole []bool

	qpos  []float64 // the q of the positions held (kinematics cache)
	valid bool
	pgen  uint64 // the generation of the positions held: npos when they were computed
	npos  uint64 // the position passes run (kinematics), never swapped
	still bool   // V and c are zero (kinematics at v = nil): the sweeps skip their velocity terms
	bare  []bool // the frame carries no body (an inner frame of a composite joint): I = 0

	// spare holds the positions of the q held before the current one (R, x, s, I, fx,
	// qpos, valid; its other arrays are not allocated), or nil: the implicit methods'
	// Newton-Krylov products alternate between the iterate and the point of the last
	// factorization (the scaled rows' M(q_F) and the preconditioner's solves), and with
	// two positions kept neither is computed again while the other is used.
	spare *frames
}

func newFrames(n int) *frames {
	return &frames{R: make([]mat3, n), x: make([]vec3, n), s: make([]sv, n), V: make([]sv, n),
		c: make([]sv, n), I: make([]inertia6, n), fx: make([]sv, n), A: make([]sv, n),
		F: make([]sv, n), IA: make([]inertia6, n), U: make([]sv, n), D: make([]float64, n),
		u: make([]float64, n), L: make([][maxGroup - 1]float64, n), qpos: make([]float64, n), bare: make([]bool, n)}
}

// newCachedFrames is newFrames with a spare set of positions (frames.spare).
func newCachedFrames(n int) *frames {
	w := newFrames(n)
	w.spare = &frames{R: make([]mat3, n), x: make([]vec3, n), s: make([]sv, n), I: make([]inertia6, n),
		fx: make([]sv, n), qpos: make([]float64, n)}
	return w
}

// swapPositions exchanges the positions held by w and by its spare.
func (w *frames) swapPositions() {
	o := w.spare
	w.R, o.R = o.R, w.R
	w.x, o.x = o.x, w.x
	w.s, o.s = o.s, w.s
	w.I, o.I = o.I, w.I
	w.fx, o.fx = o.fx, w.fx
	w.qpos, o.qpos = o.qpos, w.qpos
	w.valid, o.valid = o.valid, w.valid
	w.pgen, o.pgen = o.pgen, w.pgen
}

// kinematics is the forward recursion (seed 002 eqs. 46-50) from the root to the leaves:
// frame poses, joint axes, inertias and gravity forces at q (kept while q does not
// change; with w.spare, the last two q are kept), then velocities and velocity-product
// terms at v (zero when v is nil).
func (m *Model) kinematics(w *frames, q, v []float64) {
	if !w.valid || !equal(q, w.qpos) {
		if w.spare != nil { // the spare's q, or the current one kept as spare
			w.swapPositions()
		}
		if !w.valid || !equal(q, w.qpos) {
			m.positions(w, q)
			copy(w.qpos, q)
			w.valid = true
			w.npos++
			w.pgen = w.npos
		}
	}
	if v == nil {
		if !w.still { // V and c hold a velocity recursion's values: zero them once
			clear(w.V)
			clear(w.c)
			w.still = true
		}
		return
	}
	w.still = false
	var zero sv
	n := len(m.prims)
	for i := 0; i < n; i++ {
		p := &m.prims[i]
		Vp := &zero
		if p.parent != Ground {
			Vp = &w.V[p.parent]
		}
		if p.ball3 {
			V, c, s := w.V[i:i+3:i+3], w.c[i:i+3:i+3], w.s[i:i+3:i+3]
			velocity(&V[0], &c[0], Vp, &s[0], v[i])
			velocity(&V[1], &c[1], &V[0], &s[1], v[i+1])
			velocity(&V[2], &c[2], &V[1], &s[2], v[i+2])
			i += 2
			continue
		}
		velocity(&w.V[i], &w.c[i], Vp, &w.s[i], v[i])
	}
}

// velocity sets V = Vp + s qd and c = V × (s qd), the operations of sv's add, scale and
// crossM written out on the arrays in place (the velocity recursion's inner loop).
func velocity(V, c, Vp, s *sv, qd float64) {
	m0, m1, m2, m3, m4, m5 := s[0]*qd, s[1]*qd, s[2]*qd, s[3]*qd, s[4]*qd, s[5]*qd
	v0, v1, v2, v3, v4, v5 := Vp[0]+m0, Vp[1]+m1, Vp[2]+m2, Vp[3]+m3, Vp[4]+m4, Vp[5]+m5
	V[0], V[1], V[2], V[3], V[4], V[5] = v0, v1, v2, v3, v4, v5
	c[0] = v1*m2 - v2*m1
	c[1] = v2*m0 - v0*m2
	c[2] = v0*m1 - v1*m0
	c[3] = (v1*m5 - v2*m4) + (v4*m2 - v5*m1)
	c[4] = (v2*m3 - v0*m5) + (v5*m0 - v3*m2)
	c[5] = (v0*m4 - v1*m3) + (v3*m1 - v4*m0)
}

// positions is the position part of kinematics: each frame's pose and axis from its
// parent's, written in place, and the body's inertia and gravity force (bodyTo).
func (m *Model) positions(w *frames, q []float64) {
	g, ground, zero := vec3(m.Gravity), identity3(), vec3{}
	n := len(m.prims)
	for i := 0; i < n; i++ {
		p := &m.prims[i]
		Rp, xp := &ground, &zero
		if p.parent != Ground {
			Rp, xp = &w.R[p.parent], &w.x[p.parent]
		}
		if p.ball3 {
			m.ballPositions(w, i, q, Rp, xp, &g)
			i += 2
			continue
		}
		o := &w.x[i] // the joint's origin, then the frame's
		switch {
		case p.prismatic:
			*o = *xp
			if p.origin != (vec3{}) {
				*o = o.add(Rp.mulv(p.origin))
			}
			u := Rp.mulv(p.axis)
			w.R[i] = *Rp
			w.s[i] = join(vec3{}, u)
			*o = o.add(u.scale(q[i]))
		case p.coord >= 0:
			*o = *xp
			if p.origin != (vec3{}) {
				*o = o.add(Rp.mulv(p.origin))
			}
			u := Rp.column(p.coord).scale(p.sign)
			Rp.turnTo(&w.R[i], p.coord, p.sign*q[i])
			axisTo(&w.s[i], &u, o)
		default:
			turnAbout(&w.R[i], &w.s[i], o, Rp, xp, &p.origin, &p.axis, q[i])
		}
		w.bare[i] = p.bare
		if p.bare {
			continue // an inner frame of a composite joint: I and fx stay zero from newFrames
		}
		w.bodyTo(i, &p.body, p.diagJ, &g)
	}
}

// turnAbout is the position pass's step for a rotation by angle about the unit axis a
// (parent frame, not a coordinate axis) at the point b of the parent with orientation Rp
// and origin xp: the origin o = xp + Rp b, R = Rp Rot(a, angle) (Rodrigues' matrix,
// axisRotation) and the axis s = [u; o × u], u = Rp a; the operations of mulv, add,
// axisRotation, mul and cross in their order, written out on the arrays in place.
func turnAbout(R *mat3, s *sv, o *vec3, Rp *mat3, xp, b, a *vec3, angle float64) {
	P0, P1, P2 := &Rp[0], &Rp[1], &Rp[2]
	o0, o1, o2 := xp[0], xp[1], xp[2]
	if *b != (vec3{}) {
		o0 += P0[0]*b[0] + P0[1]*b[1] + P0[2]*b[2]
		o1 += P1[0]*b[0] + P1[1]*b[1] + P1[2]*b[2]
		o2 += P2[0]*b[0] + P2[1]*b[1] + P2[2]*b[2]
	}
	o[0], o[1], o[2] = o0, o1, o2
	a0, a1, a2 := a[0], a[1], a[2]
	u0 := P0[0]*a0 + P0[1]*a1 + P0[2]*a2
	u1 := P1[0]*a0 + P1[1]*a1 + P1[2]*a2
	u2 := P2[0]*a0 + P2[1]*a1 + P2[2]*a2
	sn, c := sincos(angle)
	k := 1 - c
	n00, n01, n02 := c+k*a0*a0, k*a0*a1-sn*a2, k*a0*a2+sn*a1
	n10, n11, n12 := k*a1*a0+sn*a2, c+k*a1*a1, k*a1*a2-sn*a0
	n20, n21, n22 := k*a2*a0-sn*a1, k*a2*a1+sn*a0, c+k*a2*a2
	R0, R1, R2 := &R[0], &R[1], &R[2]
	R0[0], R0[1], R0[2] = P0[0]*n00+P0[1]*n10+P0[2]*n20, P0[0]*n01+P0[1]*n11+P0[2]*n21, P0[0]*n02+P0[1]*n12+P0[2]*n22
	R1[0], R1[1], R1[2] = P1[0]*n00+P1[1]*n10+P1[2]*n20, P1[0]*n01+P1[1]*n11+P1[2]*n21, P1[0]*n02+P1[1]*n12+P1[2]*n22
	R2[0], R2[1], R2[2] = P2[0]*n00+P2[1]*n10+P2[2]*n20, P2[0]*n01+P2[1]*n11+P2[2]*n21, P2[0]*n02+P2[1]*n12+P2[2]*n22
	s[0], s[1], s[2] = u0, u1, u2
	s[3], s[4], s[5] = o1*u2-o2*u1, o2*u0-o0*u2, o0*u1-o1*u0
}

// ballTurns reports whether primitives i, i+1, i+2 are three turns about coordinate axes
// through one point (a spherical or Cardan joint as model.go builds it): i+1 and i+2 have
// no origin and each is the child of the one before; the first two carry no body.
func (m *Model) ballTurns(i int) bool {
	p, p1, p2 := &m.prims[i], &m.prims[i+1], &m.prims[i+2]
	return p.coord >= 0 && p1.coord >= 0 && p2.coord >= 0 && p.bare && p1.bare &&
		!p.prismatic && !p1.prismatic && !p2.prismatic && p1.parent == i && p2.parent == i+1 &&
		p1.origin == (vec3{}) && p2.origin == (vec3{})
}

// ballPositions is the position pass on the three turns i, i+1, i+2 (ballTurns) with the
// parent's orientation Rp and origin xp: positions' operations in their order (the same
// bits), the joint's point o computed once and the turns written out on the arrays.
func (m *Model) ballPositions(w *frames, i int, q []float64, Rp *mat3, xp *vec3, g *vec3) {
	p := &m.prims[i]
	o := w.x[i : i+3 : i+3]
	R := w.R[i : i+3 : i+3]
	s := w.s[i : i+3 : i+3]
	x := *xp
	if b := &p.origin; *b != (vec3{}) {
		x[0] += Rp[0][0]*b[0] + Rp[0][1]*b[1] + Rp[0][2]*b[2]
		x[1] += Rp[1][0]*b[0] + Rp[1][1]*b[1] + Rp[1][2]*b[2]
		x[2] += Rp[2][0]*b[0] + Rp[2][1]*b[1] + Rp[2][2]*b[2]
	}
	o[0], o[1], o[2] = x, x, x
	turnAxis(&R[0], &s[0], Rp, p.coord, p.sign, q[i], &x)
	p1 := &m.prims[i+1]
	turnAxis(&R[1], &s[1], &R[0], p1.coord, p1.sign, q[i+1], &x)
	p2 := &m.prims[i+2]
	turnAxis(&R[2], &s[2], &R[1], p2.coord, p2.sign, q[i+2], &x)
	w.bare[i], w.bare[i+1], w.bare[i+2] = true, true, p2.bare
	if !p2.bare {
		w.bodyTo(i+2, &p2.body, p2.diagJ, g)
	}
}

// turnAxis sets r to m Rot(e_k, sign·angle) (turnTo) and s to the axis [u; o × u] with
// u = sign·(column k of m) (axisTo): the position pass's step for a coordinate turn.
func turnAxis(r *mat3, s *sv, m *mat3, k int, sign, angle float64, o *vec3) {
	u0, u1, u2 := m[0][k]*sign, m[1][k]*sign, m[2][k]*sign
	m.turnTo(r, k, sign*angle)
	s[0], s[1], s[2] = u0, u1, u2
	s[3], s[4], s[5] = o[1]*u2-o[2]*u1, o[2]*u0-o[0]*u2, o[0]*u1-o[1]*u0
}

// bodyTo sets frame i's spatial inertia I at the world origin and gravity force fx from
// its pose: the centre of mass c = x + R COM, the central inertia R J Rᵀ (symmetric: its
// upper triangle, the entries of R J Rᵀ's product in its order; with diag, J diagonal, R J
// is R's columns scaled), and the parallel-axis theorem (rigidInertiaTo).
func (w *frames) bodyTo(i int, b *Body, diag bool, g *vec3) {
	R := &w.R[i]
	R0, R1, R2 := &R[0], &R[1], &R[2]
	x, e := &w.x[i], &b.COM
	c := vec3{x[0] + (R0[0]*e[0] + R0[1]*e[1] + R0[2]*e[2]), x[1] + (R1[0]*e[0] + R1[1]*e[1] + R1[2]*e[2]),
		x[2] + (R2[0]*e[0] + R2[1]*e[1] + R2[2]*e[2])}
	var r0, r1, r2 vec3 // the rows of R J
	if J := &b.Inertia; diag {
		j0, j1, j2 := J[0][0], J[1][1], J[2][2]
		r0 = vec3{R0[0] * j0, R0[1] * j1, R0[2] * j2}
		r1 = vec3{R1[0] * j0, R1[1] * j1, R1[2] * j2}
		r2 = vec3{R2[0] * j0, R2[1] * j1, R2[2] * j2}
	} else { // R J: mul's sums, on the arrays
		J0, J1, J2 := &J[0], &J[1], &J[2]
		r0 = vec3{R0[0]*J0[0] + R0[1]*J1[0] + R0[2]*J2[0], R0[0]*J0[1] + R0[1]*J1[1] + R0[2]*J2[1], R0[0]*J0[2] + R0[1]*J1[2] + R0[2]*J2[2]}
		r1 = vec3{R1[0]*J0[0] + R1[1]*J1[0] + R1[2]*J2[0], R1[0]*J0[1] + R1[1]*J1[1] + R1[2]*J2[1], R1[0]*J0[2] + R1[1]*J1[2] + R1[2]*J2[2]}
		r2 = vec3{R2[0]*J0[0] + R2[1]*J1[0] + R2[2]*J2[0], R2[0]*J0[1] + R2[1]*J1[1] + R2[2]*J2[1], R2[0]*J0[2] + R2[1]*J1[2] + R2[2]*J2[2]}
	}
	Jc := symm3{r0[0]*R0[0] + r0[1]*R0[1] + r0[2]*R0[2], r0[0]*R1[0] + r0[1]*R1[1] + r0[2]*R1[2],
		r0[0]*R2[0] + r0[1]*R2[1] + r0[2]*R2[2], r1[0]*R1[0] + r1[1]*R1[1] + r1[2]*R1[2],
		r1[0]*R2[0] + r1[1]*R2[1] + r1[2]*R2[2], r2[0]*R2[0] + r2[1]*R2[1] + r2[2]*R2[2]}
	m := b.Mass
	rigidInertiaTo(&w.I[i], m, &c, &Jc)
	f0, f1, f2 := g[0]*m, g[1]*m, g[2]*m
	fx := &w.fx[i]
	fx[0], fx[1], fx[2] = c[1]*f2-c[2]*f1, c[2]*f0-c[0]*f2, c[0]*f1-c[1]*f0
	fx[3], fx[4], fx[5] = f0, f1, f2
}

// positionsFrom copies the position part of kinematics from src when src holds the
// positions at q, and reports whether it did: an output sample at the state an evaluation
// just used (dopri5's interpolated a) reads its frames without a second position pass.
func (w *frames) positionsFrom(src *frames, q []float64) bool {
	if !src.valid || !equal(q, src.qpos) {
		return false
	}
	copy(w.R, src.R)
	copy(w.x, src.x)
	copy(w.s, src.s)
	copy(w.I, src.I)
	copy(w.fx, src.fx)
	copy(w.bare, src.bare)
	copy(w.qpos, src.qpos)
	w.valid = true
	return true
}

// equal reports whether a starts with the kept values b (a may carry the flexible bodies'
// coordinates after the tree's, which the tree's kinematics do not read).
func equal(a, b []float64) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// jointForce is the spring-damper generalized force of coordinate i.
func (p *primitive) jointForce(q, v float64) float64 {
	return -p.k*(q-p.q0) - p.d*v
}

// inverseDynamics is the recursive Newton-Euler algorithm: tau = M(q) a + b(q, v) with
// b the velocity-product and gravity terms, from kinematics already in w. Cost O(N).
func (m *Model) inverseDynamics(w *frames, tau, a []float64, gravity bool) {
	if w.groups != nil {
		m.groupInverseDynamics(w, tau, a, gravity)
		return
	}
	for i := range m.prims {
		p := m.prims[i].parent
		A := w.c[i]
		if a != nil {
			A = A.add(w.s[i].scale(a[i]))
		}
		if p != Ground {
			A = A.add(w.A[p])
		}
		w.A[i] = A
		if w.bare[i] {
			w.F[i] = sv{}
			continue
		}
		I := &w.I[i]
		F := I.mulv(A)
		if !w.still {
			F = F.add(crossF(w.V[i], I.mulv(w.V[i])))
		}
		if gravity {
			F = F.sub(w.fx[i])
		}
		w.F[i] = F
	}
	for i := len(m.prims) - 1; i >= 0; i-- {
		tau[i] = w.s[i].dot(w.F[i])
		if p := m.prims[i].parent; p != Ground {
			w.F[p] = w.F[p].add(w.F[i])
		}
	}
}

// forwardDynamics is the articulated-body recursion of seed 002 Table 1 (eqs. 51-59 in
// the base-coordinate form): a = M(q)⁻¹ (tau − b(q, v)) with kinematics already in w,
// without ever forming M. Three sweeps, each O(N). A joint i with locked[i] (locked nil:
// none) has its acceleration prescribed, tau[i] on entry, and gets on return in a[i] the
// generalized force that prescribes it, (M a + b)_i (hybrid dynamics, lockedJoint).
func (m *Model) forwardDynamics(w *frames, a, tau []float64, locked []bool, gravity bool) {
	m.stiffForwardDynamics(w, a, tau, locked, gravity, nil, 0)
}

// startArticulated sets frame i's articulated inertia and bias force before the inward
// sweep of the articulated-body recursion: IA = I (+ k K_m when kg is given; with sole,
// IA is left for its one child's downdate to write, I + Ia) and F = v ×* I v − f_ext
// (gravity included when asked); a bare frame (no body) starts at zero force.
func (w *frames) startArticulated(i int, gravity bool, kg []float64, k float64, sole bool) {
	if !sole {
		w.IA[i] = w.I[i]
	}
	var F sv
	if w.bare[i] {
		w.F[i] = F
		return
	}
	if kg != nil {
		addStiffness(&w.IA[i], kg[kgSize*i:], k)
	}
	if w.still {
		w.F[i] = F
	} else {
		biasTo(&w.F[i], &w.I[i], &w.V[i])
	}
	if gravity {
		fx, F := &w.fx[i], &w.F[i]
		F[0], F[1], F[2], F[3], F[4], F[5] = F[0]-fx[0], F[1]-fx[1], F[2]-fx[2], F[3]-fx[3], F[4]-fx[4], F[5]-fx[5]
	}
}

// biasTo sets F to V ×* I V for a rigid-body inertia I, the operations of crossF and mulv
// in their order (I V by rigidMulTo), in place.
func biasTo(F *sv, I *inertia6, V *sv) {
	var h sv
	rigidMulTo(&h, I, V)
	F[0] = (V[1]*h[2] - V[2]*h[1]) + (V[4]*h[5] - V[5]*h[4])
	F[1] = (V[2]*h[0] - V[0]*h[2]) + (V[5]*h[3] - V[3]*h[5])
	F[2] = (V[0]*h[1] - V[1]*h[0]) + (V[3]*h[4] - V[4]*h[3])
	F[3] = V[1]*h[5] - V[2]*h[4]
	F[4] = V[2]*h[3] - V[0]*h[5]
	F[5] = V[0]*h[4] - V[1]*h[3]
}

// stiffForwardDynamics is forwardDynamics with k K_m added to the angular block of each
// body's inertia (kg nil: none): the solve of (M + k Σ Φ_mᵀ K_m Φ_m) a = tau − b with the
// geometric stiffness K_m of geomstiff.go, O(N) like the plain recursion.
func (m *Model) stiffForwardDynamics(w *frames, a, tau []float64, locked []bool, gravity bool, kg []float64, k float64) {
	if locked == nil && w.groups != nil {
		m.groupForwardDynamics(w, a, tau, gravity, kg, k)
		return
	}
	n := len(m.prims)
	for i := 0; i < n; i++ {
		w.startArticulated(i, gravity, kg, k, false)
	}
	for i := n - 1; i >= 0; i-- {
		if locked != nil && locked[i] {
			m.lockedJoint(w, i, tau[i])
			continue
		}
		IA, s := &w.IA[i], &w.s[i]
		U := IA.mulv(*s)
		D := s.dot(U)
		u := tau[i] - s.dot(w.F[i])
		w.U[i], w.D[i], w.u[i] = U, D, u
		p := m.prims[i].parent
		if p == Ground {
			continue
		}
		// Ia = IA − U Uᵀ / D: the inertia the parent feels through the free joint, added
		// to the parent's and, for the velocity terms below, kept in IA[i] (no later sweep
		// reads it). Both are symmetric: the upper triangle is computed and mirrored.
		Ud := U.scale(1 / D)
		if w.still { // only the velocity terms below read Ia
			articulateTo(IA, &w.IA[p], &U, &Ud)
		} else {
			articulate(IA, &w.IA[p], &U, &Ud)
		}
		Fp := w.F[p].add(w.F[i])
		if !w.still {
			Fp = Fp.add(IA.mulv(w.c[i]))
		}
		w.F[p] = Fp.add(U.scale(u / D))
	}
	for i := 0; i < n; i++ {
		A := w.c[i]
		if p := m.prims[i].parent; p != Ground {
			A = A.add(w.A[p])
		}
		if locked != nil && locked[i] {
			w.A[i] = A.add(w.s[i].scale(tau[i]))
			a[i] = w.s[i].dot(w.IA[i].mulv(w.A[i]).add(w.F[i]))
			continue
		}
		a[i] = (w.u[i] - w.U[i].dot(A)) / w.D[i]
		w.A[i] = A.add(w.s[i].scale(a[i]))
	}
}

// articulate replaces IA by Ia = IA − U Udᵀ (Ud = U/D), the inertia the parent feels
// through a free joint, and adds it to the parent's IAp. Both are symmetric: the upper
// triangle is computed, row by row, and mirrored. The 21 entries are written out (a loop
// over them costs as much in its control and bounds checks as in its work).
func articulate(IA, IAp *inertia6, U, Ud *sv) {
	sym(IA, IAp, 0, 0, IA[0][0]-U[0]*Ud[0])
	sym(IA, IAp, 0, 1, IA[0][1]-U[0]*Ud[1])
	sym(IA, IAp, 0, 2, IA[0][2]-U[0]*Ud[2])
	sym(IA, IAp, 0, 3, IA[0][3]-U[0]*Ud[3])
	sym(IA, IAp, 0, 4, IA[0][4]-U[0]*Ud[4])
	sym(IA, IAp, 0, 5, IA[0][5]-U[0]*Ud[5])
	sym(IA, IAp, 1, 1, IA[1][1]-U[1]*Ud[1])
	sym(IA, IAp, 1, 2, IA[1][2]-U[1]*Ud[2])
	sym(IA, IAp, 1, 3, IA[1][3]-U[1]*Ud[3])
	sym(IA, IAp, 1, 4, IA[1][4]-U[1]*Ud[4])
	sym(IA, IAp, 1, 5, IA[1][5]-U[1]*Ud[5])
	sym(IA, IAp, 2, 2, IA[2][2]-U[2]*Ud[2])
	sym(IA, IAp, 2, 3, IA[2][3]-U[2]*Ud[3])
	sym(IA, IAp, 2, 4, IA[2][4]-U[2]*Ud[4])
	sym(IA, IAp, 2, 5, IA[2][5]-U[2]*Ud[5])
	sym(IA, IAp, 3, 3, IA[3][3]-U[3]*Ud[3])
	sym(IA, IAp, 3, 4, IA[3][4]-U[3]*Ud[4])
	sym(IA, IAp, 3, 5, IA[3][5]-U[3]*Ud[5])
	sym(IA, IAp, 4, 4, IA[4][4]-U[4]*Ud[4])
	sym(IA, IAp, 4, 5, IA[4][5]-U[4]*Ud[5])
	sym(IA, IAp, 5, 5, IA[5][5]-U[5]*Ud[5])
}

// sym sets entries (r, k) and (k, r) of IA to x and adds x to those of IAp.
func sym(IA, IAp *inertia6, r, k int, x float64) {
	IA[r][k], IA[k][r] = x, x
	y := IAp[r][k] + x
	IAp[r][k], IAp[k][r] = y, y
}

// articulateTo is articulate without keeping Ia in IA: it only adds Ia = IA − U Udᵀ to
// the parent's IAp, the same sums in the same order.
func articulateTo(IA, IAp *inertia6, U, Ud *sv) {
	symTo(IAp, 0, 0, IA[0][0]-U[0]*Ud[0])
	symTo(IAp, 0, 1, IA[0][1]-U[0]*Ud[1])
	symTo(IAp, 0, 2, IA[0][2]-U[0]*Ud[2])
	symTo(IAp, 0, 3, IA[0][3]-U[0]*Ud[3])
	symTo(IAp, 0, 4, IA[0][4]-U[0]*Ud[4])
	symTo(IAp, 0, 5, IA[0][5]-U[0]*Ud[5])
	symTo(IAp, 1, 1, IA[1][1]-U[1]*Ud[1])
	symTo(IAp, 1, 2, IA[1][2]-U[1]*Ud[2])
	symTo(IAp, 1, 3, IA[1][3]-U[1]*Ud[3])
	symTo(IAp, 1, 4, IA[1][4]-U[1]*Ud[4])
	symTo(IAp, 1, 5, IA[1][5]-U[1]*Ud[5])
	symTo(IAp, 2, 2, IA[2][2]-U[2]*Ud[2])
	symTo(IAp, 2, 3, IA[2][3]-U[2]*Ud[3])
	symTo(IAp, 2, 4, IA[2][4]-U[2]*Ud[4])
	symTo(IAp, 2, 5, IA[2][5]-U[2]*Ud[5])
	symTo(IAp, 3, 3, IA[3][3]-U[3]*Ud[3])
	symTo(IAp, 3, 4, IA[3][4]-U[3]*Ud[4])
	symTo(IAp, 3, 5, IA[3][5]-U[3]*Ud[5])
	symTo(IAp, 4, 4, IA[4][4]-U[4]*Ud[4])
	symTo(IAp, 4, 5, IA[4][5]-U[4]*Ud[5])
	symTo(IAp, 5, 5, IA[5][5]-U[5]*Ud[5])
}

// symTo adds x to entries (r, k) and (k, r) of IAp.
func symTo(IAp *inertia6, r, k int, x float64) {
	y := IAp[r][k] + x
	IAp[r][k], IAp[k][r] = y, y
}

// lockedJoint is the inward sweep of forwardDynamics on a joint whose acceleration ai is
// prescribed: no axis of it is free, so the parent takes the whole articulated inertia
// IA_i (not its projection IA − U Uᵀ/D) and the bias force F_i + IA_i (c_i + s_i ai) of
// the prescribed relative motion. IA_i and F_i stay for the outward sweep, where the force
// the joint transmits, IA_i A_i + F_i, gives the generalized force s_iᵀ(IA_i A_i + F_i).
func (m *Model) lockedJoint(w *frames, i int, ai float64) {
	p := m.prims[i].parent
	if p == Ground {
		return
	}
	IA := &w.IA[i]
	IA.addTo(&w.IA[p])
	c := w.s[i].scale(ai)
	if !w.still {
		c = c.add(w.c[i])
	}
	w.F[p] = w.F[p].add(w.F[i]).add(IA.mulv(c))
}

// compositeMass is the composite-rigid-body algorithm: the dense joint-space mass matrix
// (row-major n×n into M) for the methods that need M itself. Cost O(N·depth).
func (m *Model) compositeMass(w *frames, M []float64) {
	n := len(m.prims)
	for i := range M {
		M[i] = 0
	}
	for i := 0; i < n; i++ {
		w.IA[i] = w.I[i]
	}
	for i := n - 1; i >= 0; i-- {
		if p := m.prims[i].parent; p != Ground {
			w.IA[i].addTo(&w.IA[p])
		}
	}
	for i := 0; i < n; i++ {
		F := w.IA[i].mulv(w.s[i])
		M[i*n+i] = w.s[i].dot(F)
		for j := m.prims[i].parent; j != Ground; j = m.prims[j].parent {
			M[i*n+j] = w.s[j].dot(F)
			M[j*n+i] = M[i*n+j]
		}
	}
}

// pointKinematics returns the world position, velocity and acceleration (with the
// accelerations of the frames in w.A) of point p of frame f; Ground is the world.
func (w *frames) point(f int, p vec3) (r, v, a vec3) {
	if f == Ground {
		return p, vec3{}, vec3{}
	}
	r = w.x[f].add(w.R[f].mulv(p))
	V, A := w.V[f], w.A[f]
	v = V.lin().add(V.ang().cross(r))
	a = A.lin().add(A.ang().cross(r)).add(V.ang().cross(v))
	return r, v, a
}

// axisTo sets s to the axis [u; o × u] of a rotation about u through o.
func axisTo(s *sv, u, o *vec3) {
	s[0], s[1], s[2] = u[0], u[1], u[2]
	s[3], s[4], s[5] = o[1]*u[2]-o[2]*u[1], o[2]*u[0]-o[0]*u[2], o[0]*u[1]-o[1]*u[0]
}
