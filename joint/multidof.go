package joint

// A composite joint (spherical, universal, free, Cardan) is a chain of primitives whose
// inner frames are bare: no mass, no inertia, no other child. In the articulated-body
// recursion such a chain is one joint of k degrees of freedom with the motion subspace
// S = [s_1 … s_k] of its primitives' axes and the relative velocity-product acceleration
// c = c_1 + … + c_k (Featherstone's multi-degree-of-freedom joint): one downdate of the
// last body's articulated inertia, IA − U D⁻¹ Uᵀ with U = IA S and D = Sᵀ IA S (k × k),
// instead of k rank-one downdates of 6 × 6 inertias through the bare frames.
//
// D is factored as L Δ Lᵀ (L unit lower triangular), column by column from the axes:
// W = U L⁻ᵀ has the columns w_j = IA s_j − Σ_{m<j} L_jm w_m, L_jm = (s_j·w_m)/Δ_m and
// Δ_j = s_j·w_j, so that U D⁻¹ Uᵀ = Σ_j w_j w_jᵀ/Δ_j, U D⁻¹ u = Σ_j w_j y_j/Δ_j with
// y = L⁻¹ u, and the accelerations D⁻¹(u − Uᵀ A) = L⁻ᵀ ((y − Wᵀ A)/Δ). For k = 1 these
// are the one-degree-of-freedom recursion's U, D and operations, bit for bit.

// group is one joint of the recursion: the primitives first … last (consecutive in the
// tree's order, each the parent of the next, all but the last bare with no other child).
// ball marks three rotations about one point o (a spherical or Cardan joint): their axes
// are s_j = [u_j; o × u_j], so Σ s_j a_j = [ω; o × ω] with ω = Σ u_j a_j, and s_j·F =
// u_j·(n − o × f) for F = [n; f], the sums the recursion then takes in these forms.
type group struct {
	first, last int
	ball        bool
}

// maxGroup is the largest number of primitives a group takes (a free joint's six).
const maxGroup = 6

// jointGroups partitions the primitives into groups: a primitive that is bare, has one
// child and that child right after it, is joined with that child, up to maxGroup in a
// group. Every other primitive ends its group.
func (m *Model) jointGroups() []group {
	n := len(m.prims)
	children := make([]int, n)
	for i := range m.prims {
		if p := m.prims[i].parent; p != Ground {
			children[p]++
		}
	}
	var gs []group
	for i := 0; i < n; {
		g := group{first: i, last: i}
		for g.last+1 < n && g.last-g.first+1 < maxGroup && m.prims[g.last].bare &&
			children[g.last] == 1 && m.prims[g.last+1].parent == g.last {
			g.last++
		}
		g.ball = g.last == g.first+2
		for j := g.first; j <= g.last; j++ {
			p := &m.prims[j]
			g.ball = g.ball && !p.prismatic && (j == g.first || p.origin == vec3{})
		}
		gs = append(gs, g)
		i = g.last + 1
	}
	return gs
}

// soleJoints marks the frames whose one child is the first primitive of a ball group or
// a one-primitive group: their articulated inertia is I plus that joint's Ia alone
// (frames.sole), which the joint's downdate (inwardBall, inward1) writes at once.
func (m *Model) soleJoints(gs []group) []bool {
	n := len(m.prims)
	children, sole := make([]int, n), make([]bool, n)
	for i := range m.prims {
		if p := m.prims[i].parent; p != Ground {
			children[p]++
		}
	}
	for _, g := range gs {
		if p := m.prims[g.first].parent; (g.ball || g.first == g.last) && p != Ground && children[p] == 1 {
			sole[p] = true
		}
	}
	return sole
}

// groupForwardDynamics is stiffForwardDynamics without locked coordinates, with the
// composite joints of w.groups as multi-degree-of-freedom joints: the same accelerations
// up to rounding (the same bits where every group is one primitive). It leaves in w.U,
// w.D and w.L each group's W, Δ and L (abaFactor), and in w.A the accelerations of the
// groups' last frames only.
func (m *Model) groupForwardDynamics(w *frames, a, tau []float64, gravity bool, kg []float64, k float64) {
	// The inner frames' inertias and forces are never read. A frame whose one child is a
	// ball or one-primitive joint (frames.sole) gets its articulated inertia from that
	// joint's downdate, I + Ia, without a copy of I first (without K_g: IA = I + k K_g
	// needs the copy).
	sole := w.sole != nil && kg == nil
	for _, g := range w.groups {
		w.startArticulated(g.last, gravity, kg, k, sole && w.sole[g.last])
	}
	for gi := len(w.groups) - 1; gi >= 0; gi-- {
		g := w.groups[gi]
		f, l := g.first, g.last
		p := m.prims[f].parent
		switch {
		case l == f: // one primitive: the one-degree-of-freedom recursion's operations
			m.inward1(w, l, p, tau[l], sole && p != Ground && w.sole[p])
			continue
		case g.ball:
			m.inwardBall(w, f, p, tau, sole && p != Ground && w.sole[p])
			continue
		}
		IA, F := &w.IA[l], w.F[l]
		for j := f; j <= l; j++ {
			s := &w.s[j]
			U := IA.mulv(*s)
			u := tau[j] - s.dot(F)
			for r := f; r < j; r++ {
				L := s.dot(w.U[r]) / w.D[r]
				w.L[j][r-f] = L
				U = U.sub(w.U[r].scale(L))
				u -= L * w.u[r]
			}
			w.U[j], w.D[j], w.u[j] = U, s.dot(U), u
		}
		if p == Ground {
			continue
		}
		downdate(IA, w.U[f:l+1], w.D[f:l+1])
		IA.addTo(&w.IA[p])
		Fp := w.F[p].add(F)
		if !w.still {
			c := w.c[f]
			for j := f + 1; j <= l; j++ {
				c = c.add(w.c[j])
			}
			Fp = Fp.add(IA.mulv(c))
		}
		for j := f; j <= l; j++ {
			Fp = Fp.add(w.U[j].scale(w.u[j] / w.D[j]))
		}
		w.F[p] = Fp
	}
	m.groupOutward(w, a, w.U, w.D, w.L)
}

// inward1 is the inward step of the recursion on the one-primitive joint i with parent p:
// stiffForwardDynamics' operations in their order, on the arrays in place, with the
// downdate by down1 (Ia c formed as Ia is, Ia not stored; with sole, the parent's IA
// written as its I + Ia).
func (m *Model) inward1(w *frames, i, p int, tau float64, sole bool) {
	IA, s, U, F := &w.IA[i], &w.s[i], &w.U[i], &w.F[i]
	mulvTo(U, IA, s)
	D := dot6(s, U)
	u := tau - dot6(s, F)
	w.D[i], w.u[i] = D, u
	if p == Ground {
		return
	}
	d := down1{U: U}
	scaleTo(&d.V, U, 1/D)
	Fp, IAp, base := &w.F[p], &w.IA[p], &w.IA[p]
	if sole {
		base = &w.I[p]
	}
	k := u / D
	if w.still {
		d.articulateTo(IA, base, IAp)
		Fp[0], Fp[1], Fp[2] = (Fp[0]+F[0])+U[0]*k, (Fp[1]+F[1])+U[1]*k, (Fp[2]+F[2])+U[2]*k
		Fp[3], Fp[4], Fp[5] = (Fp[3]+F[3])+U[3]*k, (Fp[4]+F[4])+U[4]*k, (Fp[5]+F[5])+U[5]*k
		return
	}
	var h sv
	d.articulateMul(IA, base, IAp, &w.c[i], &h)
	Fp[0], Fp[1], Fp[2] = ((Fp[0]+F[0])+h[0])+U[0]*k, ((Fp[1]+F[1])+h[1])+U[1]*k, ((Fp[2]+F[2])+h[2])+U[2]*k
	Fp[3], Fp[4], Fp[5] = ((Fp[3]+F[3])+h[3])+U[3]*k, ((Fp[4]+F[4])+h[4])+U[4]*k, ((Fp[5]+F[5])+h[5])+U[5]*k
}

// inwardBall is the inward step on the ball joint f, f+1, f+2 with parent p: the factors
// of D = Sᵀ IA S written out, then one downdate by three columns.
func (m *Model) inwardBall(w *frames, f, p int, tau []float64, sole bool) {
	l := f + 2
	IA, F := &w.IA[l], &w.F[l]
	s1, s2, s3 := &w.s[f], &w.s[f+1], &w.s[l]
	n := momentAbout(F, &w.x[l])
	U1, U2, U3 := &w.U[f], &w.U[f+1], &w.U[l]
	mulvTo(U1, IA, s1)
	D1 := dot6(s1, U1)
	y1 := tau[f] - angDot(s1, &n)
	L21 := dot6(s2, U1) / D1
	mulvSubTo(U2, IA, s2, U1, L21)
	D2 := dot6(s2, U2)
	y2 := tau[f+1] - angDot(s2, &n) - L21*y1
	L31 := dot6(s3, U1) / D1
	L32 := dot6(s3, U2) / D2
	mulvSub2To(U3, IA, s3, U1, L31, U2, L32)
	D3 := dot6(s3, U3)
	y3 := tau[l] - angDot(s3, &n) - L31*y1 - L32*y2
	w.D[f], w.D[f+1], w.D[l] = D1, D2, D3
	w.u[f], w.u[f+1], w.u[l] = y1, y2, y3
	w.L[f+1][0], w.L[l][0], w.L[l][1] = L21, L31, L32
	if p == Ground {
		return
	}
	var d down3
	d.U1, d.U2, d.U3 = U1, U2, U3
	scaleTo(&d.V1, d.U1, 1/D1)
	scaleTo(&d.V2, d.U2, 1/D2)
	scaleTo(&d.V3, d.U3, 1/D3)
	Fp, IAp, base := &w.F[p], &w.IA[p], &w.IA[p]
	if sole {
		base = &w.I[p]
	}
	if w.still {
		d.articulateTo(IA, base, IAp)
	} else {
		c := w.c[f] // the joint's velocity-product term: Fp += Ia (c_1 + c_2 + c_3), in place
		addIn(&c, &w.c[f+1])
		addIn(&c, &w.c[l])
		var h sv
		d.articulateMul(IA, base, IAp, &c, &h)
		addIn(Fp, &h)
	}
	addSum3(Fp, F, d.U1, y1/D1, d.U2, y2/D2, d.U3, y3/D3)
}

// groupOutward is the outward sweep of the grouped recursion: each group's accelerations
// L⁻ᵀ ((y − Wᵀ A')/Δ) from its parent's acceleration A' (plus its velocity-product term),
// with y in w.u and W, Δ, L the group's factors.
func (m *Model) groupOutward(w *frames, a []float64, W []sv, D []float64, L [][maxGroup - 1]float64) {
	for _, g := range w.groups {
		f, l := g.first, g.last
		if l == f {
			m.outward1(w, a, l, W, D)
			continue
		}
		if g.ball {
			m.ballOutward(w, a, f, W, D, L)
			continue
		}
		var A sv
		switch {
		case w.still: // c is zero
			if p := m.prims[f].parent; p != Ground {
				A = w.A[p]
			}
		default:
			A = w.c[f]
			for j := f + 1; j <= l; j++ {
				addIn(&A, &w.c[j])
			}
			if p := m.prims[f].parent; p != Ground {
				addIn(&A, &w.A[p])
			}
		}
		for j := l; j >= f; j-- {
			t := (w.u[j] - W[j].dot(A)) / D[j]
			for r := j + 1; r <= l; r++ {
				t -= L[r][j-f] * a[r]
			}
			a[j] = t
		}
		for j := f; j <= l; j++ {
			A = A.add(w.s[j].scale(a[j]))
		}
		w.A[l] = A
	}
}

// outward1 is groupOutward's step on the one-primitive joint l: A = c + A' (A' the
// parent's acceleration, none at the ground), a_l = (u − Wᵀ A)/D and the frame's
// acceleration A + s a_l, the one-degree-of-freedom recursion's sums in their order on
// locals.
func (m *Model) outward1(w *frames, a []float64, l int, W []sv, D []float64) {
	c := &w.c[l]
	A0, A1, A2, A3, A4, A5 := c[0], c[1], c[2], c[3], c[4], c[5]
	if p := m.prims[l].parent; p != Ground {
		Ap := &w.A[p]
		A0, A1, A2, A3, A4, A5 = A0+Ap[0], A1+Ap[1], A2+Ap[2], A3+Ap[3], A4+Ap[4], A5+Ap[5]
	}
	Wl := &W[l]
	al := (w.u[l] - (0 + Wl[0]*A0 + Wl[1]*A1 + Wl[2]*A2 + Wl[3]*A3 + Wl[4]*A4 + Wl[5]*A5)) / D[l]
	a[l] = al
	s, At := &w.s[l], &w.A[l]
	At[0], At[1], At[2], At[3], At[4], At[5] = A0+s[0]*al, A1+s[1]*al, A2+s[2]*al, A3+s[3]*al, A4+s[4]*al, A5+s[5]*al
}

// ballOutward is groupOutward's step on the ball joint f, f+1, f+2: A = c_1 + c_2 + c_3 +
// A' (A' the parent's acceleration; c_j zero when still), the joint's accelerations from A
// with its factors W, D, L and y (w.u), and its frame's acceleration A + [ω; o × ω], ω =
// Σ u_j a_j: the operations of addIn, dot6 and addTurn in their order, on locals.
func (m *Model) ballOutward(w *frames, a []float64, f int, W []sv, D []float64, L [][maxGroup - 1]float64) {
	l := f + 2
	var A0, A1, A2, A3, A4, A5 float64
	p := m.prims[f].parent
	if !w.still {
		c1, c2, c3 := &w.c[f], &w.c[f+1], &w.c[l]
		A0, A1, A2 = (c1[0]+c2[0])+c3[0], (c1[1]+c2[1])+c3[1], (c1[2]+c2[2])+c3[2]
		A3, A4, A5 = (c1[3]+c2[3])+c3[3], (c1[4]+c2[4])+c3[4], (c1[5]+c2[5])+c3[5]
		if p != Ground {
			Ap := &w.A[p]
			A0, A1, A2, A3, A4, A5 = A0+Ap[0], A1+Ap[1], A2+Ap[2], A3+Ap[3], A4+Ap[4], A5+Ap[5]
		}
	} else if p != Ground {
		Ap := &w.A[p]
		A0, A1, A2, A3, A4, A5 = Ap[0], Ap[1], Ap[2], Ap[3], Ap[4], Ap[5]
	}
	W1, W2, W3 := &W[f], &W[f+1], &W[l]
	L2, L3 := &L[f+1], &L[l]
	a3 := (w.u[l] - (0 + W3[0]*A0 + W3[1]*A1 + W3[2]*A2 + W3[3]*A3 + W3[4]*A4 + W3[5]*A5)) / D[l]
	a2 := (w.u[f+1]-(0+W2[0]*A0+W2[1]*A1+W2[2]*A2+W2[3]*A3+W2[4]*A4+W2[5]*A5))/D[f+1] - L3[1]*a3
	a1 := (w.u[f]-(0+W1[0]*A0+W1[1]*A1+W1[2]*A2+W1[3]*A3+W1[4]*A4+W1[5]*A5))/D[f] - L2[0]*a2 - L3[0]*a3
	a[f], a[f+1], a[l] = a1, a2, a3
	s1, s2, s3, o := &w.s[f], &w.s[f+1], &w.s[l], &w.x[l]
	w0 := s1[0]*a1 + s2[0]*a2 + s3[0]*a3
	w1 := s1[1]*a1 + s2[1]*a2 + s3[1]*a3
	w2 := s1[2]*a1 + s2[2]*a2 + s3[2]*a3
	At := &w.A[l]
	At[0], At[1], At[2] = A0+w0, A1+w1, A2+w2
	At[3], At[4], At[5] = A3+(o[1]*w2-o[2]*w1), A4+(o[2]*w0-o[0]*w2), A5+(o[0]*w1-o[1]*w0)
}

// groupSolve is abaSolve with the groups' factors W, Δ and L of an earlier
// groupForwardDynamics at the positions in w: the same operations on the right side in
// the same order.
func (m *Model) groupSolve(w *frames, a, tau []float64, W []sv, D []float64, L [][maxGroup - 1]float64) {
	clear(w.F[:len(m.prims)])
	for gi := len(w.groups) - 1; gi >= 0; gi-- {
		g := w.groups[gi]
		f, l := g.first, g.last
		p := m.prims[f].parent
		if l == f { // abaSolve's sums in their order, in place
			F := &w.F[l]
			u := tau[l] - dot6(&w.s[l], F)
			w.u[l] = u
			if p != Ground {
				Fp, Wl, k := &w.F[p], &W[l], u/D[l]
				Fp[0], Fp[1], Fp[2] = (Fp[0]+F[0])+Wl[0]*k, (Fp[1]+F[1])+Wl[1]*k, (Fp[2]+F[2])+Wl[2]*k
				Fp[3], Fp[4], Fp[5] = (Fp[3]+F[3])+Wl[3]*k, (Fp[4]+F[4])+Wl[4]*k, (Fp[5]+F[5])+Wl[5]*k
			}
			continue
		}
		F := w.F[l]
		if g.ball {
			n := momentAbout(&F, &w.x[l])
			y1 := tau[f] - angDot(&w.s[f], &n)
			y2 := tau[f+1] - angDot(&w.s[f+1], &n) - L[f+1][0]*y1
			y3 := tau[l] - angDot(&w.s[l], &n) - L[l][0]*y1 - L[l][1]*y2
			w.u[f], w.u[f+1], w.u[l] = y1, y2, y3
			if p != Ground {
				addSum3(&w.F[p], &F, &W[f], y1/D[f], &W[f+1], y2/D[f+1], &W[l], y3/D[l])
			}
			continue
		}
		for j := f; j <= l; j++ {
			u := tau[j] - w.s[j].dot(F)
			for r := f; r < j; r++ {
				u -= L[j][r-f] * w.u[r]
			}
			w.u[j] = u
		}
		if p == Ground {
			continue
		}
		Fp := w.F[p].add(F)
		for j := f; j <= l; j++ {
			Fp = Fp.add(W[j].scale(w.u[j] / D[j]))
		}
		w.F[p] = Fp
	}
	m.groupOutward(w, a, W, D, L)
}

// down3 is a downdate by three columns: U_j and U_j/D_j.
type down3 struct {
	U1, U2, U3 *sv
	V1, V2, V3 sv
}

// at is entry (r, c) of IA − Σ_j U_j V_jᵀ.
func (d *down3) at(IA *inertia6, r, c int) float64 {
	return IA[r][c] - d.U1[r]*d.V1[c] - d.U2[r]*d.V2[c] - d.U3[r]*d.V3[c]
}

// articulateTo adds IA − Σ_j U_j U_jᵀ/D_j (the articulated inertia the parent feels
// through a three-axis joint) to base and writes the sum into the parent's IAp (base is
// IAp, or the parent's own inertia when this joint is its one child, sole); the 21
// entries written out.
func (d *down3) articulateTo(IA, base, IAp *inertia6) {
	symFrom(base, IAp, 0, 0, d.at(IA, 0, 0))
	symFrom(base, IAp, 0, 1, d.at(IA, 0, 1))
	symFrom(base, IAp, 0, 2, d.at(IA, 0, 2))
	symFrom(base, IAp, 0, 3, d.at(IA, 0, 3))
	symFrom(base, IAp, 0, 4, d.at(IA, 0, 4))
	symFrom(base, IAp, 0, 5, d.at(IA, 0, 5))
	symFrom(base, IAp, 1, 1, d.at(IA, 1, 1))
	symFrom(base, IAp, 1, 2, d.at(IA, 1, 2))
	symFrom(base, IAp, 1, 3, d.at(IA, 1, 3))
	symFrom(base, IAp, 1, 4, d.at(IA, 1, 4))
	symFrom(base, IAp, 1, 5, d.at(IA, 1, 5))
	symFrom(base, IAp, 2, 2, d.at(IA, 2, 2))
	symFrom(base, IAp, 2, 3, d.at(IA, 2, 3))
	symFrom(base, IAp, 2, 4, d.at(IA, 2, 4))
	symFrom(base, IAp, 2, 5, d.at(IA, 2, 5))
	symFrom(base, IAp, 3, 3, d.at(IA, 3, 3))
	symFrom(base, IAp, 3, 4, d.at(IA, 3, 4))
	symFrom(base, IAp, 3, 5, d.at(IA, 3, 5))
	symFrom(base, IAp, 4, 4, d.at(IA, 4, 4))
	symFrom(base, IAp, 4, 5, d.at(IA, 4, 5))
	symFrom(base, IAp, 5, 5, d.at(IA, 5, 5))
}

// symFrom sets entries (r, k) and (k, r) of IAp to base's entry (r, k) plus x.
func symFrom(base, IAp *inertia6, r, k int, x float64) {
	y := base[r][k] + x
	IAp[r][k], IAp[k][r] = y, y
}

// articulateMul is articulateTo that also sets h to Ia c, Ia = IA − Σ_j U_j U_jᵀ/D_j,
// without storing Ia: each row of h gathers its terms in index order as the entries are
// formed (row r's terms k < r come from the rows before it), so h has mulvTo's sums of
// Ia c to the bit. Written out with the rows of h and c in locals.
func (d *down3) articulateMul(IA, base, IAp *inertia6, c, h *sv) {
	c0, c1, c2, c3, c4, c5 := c[0], c[1], c[2], c[3], c[4], c[5]
	var h0, h1, h2, h3, h4, h5, x, y float64
	x, y = d.at(IA, 0, 0), base[0][0]
	y += x
	IAp[0][0] = y
	h0 += x * c0
	x, y = d.at(IA, 0, 1), base[0][1]
	y += x
	IAp[0][1], IAp[1][0] = y, y
	h0, h1 = h0+x*c1, h1+x*c0
	x, y = d.at(IA, 0, 2), base[0][2]
	y += x
	IAp[0][2], IAp[2][0] = y, y
	h0, h2 = h0+x*c2, h2+x*c0
	x, y = d.at(IA, 0, 3), base[0][3]
	y += x
	IAp[0][3], IAp[3][0] = y, y
	h0, h3 = h0+x*c3, h3+x*c0
	x, y = d.at(IA, 0, 4), base[0][4]
	y += x
	IAp[0][4], IAp[4][0] = y, y
	h0, h4 = h0+x*c4, h4+x*c0
	x, y = d.at(IA, 0, 5), base[0][5]
	y += x
	IAp[0][5], IAp[5][0] = y, y
	h0, h5 = h0+x*c5, h5+x*c0
	x, y = d.at(IA, 1, 1), base[1][1]
	y += x
	IAp[1][1] = y
	h1 += x * c1
	x, y = d.at(IA, 1, 2), base[1][2]
	y += x
	IAp[1][2], IAp[2][1] = y, y
	h1, h2 = h1+x*c2, h2+x*c1
	x, y = d.at(IA, 1, 3), base[1][3]
	y += x
	IAp[1][3], IAp[3][1] = y, y
	h1, h3 = h1+x*c3, h3+x*c1
	x, y = d.at(IA, 1, 4), base[1][4]
	y += x
	IAp[1][4], IAp[4][1] = y, y
	h1, h4 = h1+x*c4, h4+x*c1
	x, y = d.at(IA, 1, 5), base[1][5]
	y += x
	IAp[1][5], IAp[5][1] = y, y
	h1, h5 = h1+x*c5, h5+x*c1
	x, y = d.at(IA, 2, 2), base[2][2]
	y += x
	IAp[2][2] = y
	h2 += x * c2
	x, y = d.at(IA, 2, 3), base[2][3]
	y += x
	IAp[2][3], IAp[3][2] = y, y
	h2, h3 = h2+x*c3, h3+x*c2
	x, y = d.at(IA, 2, 4), base[2][4]
	y += x
	IAp[2][4], IAp[4][2] = y, y
	h2, h4 = h2+x*c4, h4+x*c2
	x, y = d.at(IA, 2, 5), base[2][5]
	y += x
	IAp[2][5], IAp[5][2] = y, y
	h2, h5 = h2+x*c5, h5+x*c2
	x, y = d.at(IA, 3, 3), base[3][3]
	y += x
	IAp[3][3] = y
	h3 += x * c3
	x, y = d.at(IA, 3, 4), base[3][4]
	y += x
	IAp[3][4], IAp[4][3] = y, y
	h3, h4 = h3+x*c4, h4+x*c3
	x, y = d.at(IA, 3, 5), base[3][5]
	y += x
	IAp[3][5], IAp[5][3] = y, y
	h3, h5 = h3+x*c5, h5+x*c3
	x, y = d.at(IA, 4, 4), base[4][4]
	y += x
	IAp[4][4] = y
	h4 += x * c4
	x, y = d.at(IA, 4, 5), base[4][5]
	y += x
	IAp[4][5], IAp[5][4] = y, y
	h4, h5 = h4+x*c5, h5+x*c4
	x, y = d.at(IA, 5, 5), base[5][5]
	y += x
	IAp[5][5] = y
	h5 += x * c5
	h[0], h[1], h[2], h[3], h[4], h[5] = h0, h1, h2, h3, h4, h5
}

// down1 is a downdate by one column, the one-degree-of-freedom joint's: U and V = U/D.
type down1 struct {
	U *sv
	V sv
}

// at is entry (r, c) of IA − U Vᵀ (articulate's entry).
func (d *down1) at(IA *inertia6, r, c int) float64 { return IA[r][c] - d.U[r]*d.V[c] }

// articulateTo adds IA − U Uᵀ/D to base and writes the sum into the parent's IAp (base is
// IAp, or the parent's own inertia when this joint is its one child, sole): articulateTo's
// sums (recursive.go) without Ia kept; down3.articulateTo's layout.
func (d *down1) articulateTo(IA, base, IAp *inertia6) {
	symFrom(base, IAp, 0, 0, d.at(IA, 0, 0))
	symFrom(base, IAp, 0, 1, d.at(IA, 0, 1))
	symFrom(base, IAp, 0, 2, d.at(IA, 0, 2))
	symFrom(base, IAp, 0, 3, d.at(IA, 0, 3))
	symFrom(base, IAp, 0, 4, d.at(IA, 0, 4))
	symFrom(base, IAp, 0, 5, d.at(IA, 0, 5))
	symFrom(base, IAp, 1, 1, d.at(IA, 1, 1))
	symFrom(base, IAp, 1, 2, d.at(IA, 1, 2))
	symFrom(base, IAp, 1, 3, d.at(IA, 1, 3))
	symFrom(base, IAp, 1, 4, d.at(IA, 1, 4))
	symFrom(base, IAp, 1, 5, d.at(IA, 1, 5))
	symFrom(base, IAp, 2, 2, d.at(IA, 2, 2))
	symFrom(base, IAp, 2, 3, d.at(IA, 2, 3))
	symFrom(base, IAp, 2, 4, d.at(IA, 2, 4))
	symFrom(base, IAp, 2, 5, d.at(IA, 2, 5))
	symFrom(base, IAp, 3, 3, d.at(IA, 3, 3))
	symFrom(base, IAp, 3, 4, d.at(IA, 3, 4))
	symFrom(base, IAp, 3, 5, d.at(IA, 3, 5))
	symFrom(base, IAp, 4, 4, d.at(IA, 4, 4))
	symFrom(base, IAp, 4, 5, d.at(IA, 4, 5))
	symFrom(base, IAp, 5, 5, d.at(IA, 5, 5))
}

// articulateMul is down1.articulateTo that also sets h to Ia c, Ia = IA − U Uᵀ/D, without
// storing Ia: the sums of articulate and then Ia's mulv (stiffForwardDynamics' step) to
// the bit, as down3.articulateMul.
func (d *down1) articulateMul(IA, base, IAp *inertia6, c, h *sv) {
	c0, c1, c2, c3, c4, c5 := c[0], c[1], c[2], c[3], c[4], c[5]
	var h0, h1, h2, h3, h4, h5, x, y float64
	x, y = d.at(IA, 0, 0), base[0][0]
	y += x
	IAp[0][0] = y
	h0 += x * c0
	x, y = d.at(IA, 0, 1), base[0][1]
	y += x
	IAp[0][1], IAp[1][0] = y, y
	h0, h1 = h0+x*c1, h1+x*c0
	x, y = d.at(IA, 0, 2), base[0][2]
	y += x
	IAp[0][2], IAp[2][0] = y, y
	h0, h2 = h0+x*c2, h2+x*c0
	x, y = d.at(IA, 0, 3), base[0][3]
	y += x
	IAp[0][3], IAp[3][0] = y, y
	h0, h3 = h0+x*c3, h3+x*c0
	x, y = d.at(IA, 0, 4), base[0][4]
	y += x
	IAp[0][4], IAp[4][0] = y, y
	h0, h4 = h0+x*c4, h4+x*c0
	x, y = d.at(IA, 0, 5), base[0][5]
	y += x
	IAp[0][5], IAp[5][0] = y, y
	h0, h5 = h0+x*c5, h5+x*c0
	x, y = d.at(IA, 1, 1), base[1][1]
	y += x
	IAp[1][1] = y
	h1 += x * c1
	x, y = d.at(IA, 1, 2), base[1][2]
	y += x
	IAp[1][2], IAp[2][1] = y, y
	h1, h2 = h1+x*c2, h2+x*c1
	x, y = d.at(IA, 1, 3), base[1][3]
	y += x
	IAp[1][3], IAp[3][1] = y, y
	h1, h3 = h1+x*c3, h3+x*c1
	x, y = d.at(IA, 1, 4), base[1][4]
	y += x
	IAp[1][4], IAp[4][1] = y, y
	h1, h4 = h1+x*c4, h4+x*c1
	x, y = d.at(IA, 1, 5), base[1][5]
	y += x
	IAp[1][5], IAp[5][1] = y, y
	h1, h5 = h1+x*c5, h5+x*c1
	x, y = d.at(IA, 2, 2), base[2][2]
	y += x
	IAp[2][2] = y
	h2 += x * c2
	x, y = d.at(IA, 2, 3), base[2][3]
	y += x
	IAp[2][3], IAp[3][2] = y, y
	h2, h3 = h2+x*c3, h3+x*c2
	x, y = d.at(IA, 2, 4), base[2][4]
	y += x
	IAp[2][4], IAp[4][2] = y, y
	h2, h4 = h2+x*c4, h4+x*c2
	x, y = d.at(IA, 2, 5), base[2][5]
	y += x
	IAp[2][5], IAp[5][2] = y, y
	h2, h5 = h2+x*c5, h5+x*c2
	x, y = d.at(IA, 3, 3), base[3][3]
	y += x
	IAp[3][3] = y
	h3 += x * c3
	x, y = d.at(IA, 3, 4), base[3][4]
	y += x
	IAp[3][4], IAp[4][3] = y, y
	h3, h4 = h3+x*c4, h4+x*c3
	x, y = d.at(IA, 3, 5), base[3][5]
	y += x
	IAp[3][5], IAp[5][3] = y, y
	h3, h5 = h3+x*c5, h5+x*c3
	x, y = d.at(IA, 4, 4), base[4][4]
	y += x
	IAp[4][4] = y
	h4 += x * c4
	x, y = d.at(IA, 4, 5), base[4][5]
	y += x
	IAp[4][5], IAp[5][4] = y, y
	h4, h5 = h4+x*c5, h5+x*c4
	x, y = d.at(IA, 5, 5), base[5][5]
	y += x
	IAp[5][5] = y
	h5 += x * c5
	h[0], h[1], h[2], h[3], h[4], h[5] = h0, h1, h2, h3, h4, h5
}

// downdate replaces IA by IA − Σ_j W_j W_jᵀ / D_j, the articulated inertia the parent
// feels through a joint of len(W) degrees of freedom; IA stays symmetric (the upper
// triangle is computed and mirrored).
func downdate(IA *inertia6, W []sv, D []float64) {
	var Wd [maxGroup]sv
	for j := range W {
		Wd[j] = W[j].scale(1 / D[j])
	}
	for r := 0; r < 6; r++ {
		for c := r; c < 6; c++ {
			x := IA[r][c]
			for j := range W {
				x -= W[j][r] * Wd[j][c]
			}
			IA[r][c], IA[c][r] = x, x
		}
	}
}

// groupInverseDynamics is inverseDynamics with the composite joints of w.groups as
// multi-degree-of-freedom joints: the bare inner frames carry no force, so a group's
// acceleration is its parent's plus Σ_j (c_j + s_j a_j) and each of its coordinates
// takes τ_j = s_j·F of the group's last frame. It leaves w.A and w.F of the groups' last
// frames only (innerForces fills the inner frames' F).
func (m *Model) groupInverseDynamics(w *frames, tau, a []float64, gravity bool) {
	for _, g := range w.groups {
		f, l := g.first, g.last
		if g.ball && a != nil {
			m.ballForce(w, f, a, gravity)
			continue
		}
		if l == f {
			m.force1(w, l, a, gravity)
			continue
		}
		var A sv
		if p := m.prims[f].parent; p != Ground {
			A = w.A[p]
		}
		if l > f && !w.still {
			for j := f; j <= l; j++ {
				addIn(&A, &w.c[j])
			}
		}
		if l > f && a != nil {
			if g.ball {
				addTurn(&A, &w.s[f], &w.s[f+1], &w.s[l], a[f], a[f+1], a[l], &w.x[l])
			} else {
				for j := f; j <= l; j++ {
					A = A.add(w.s[j].scale(a[j]))
				}
			}
		}
		w.A[l] = A
		if w.bare[l] {
			w.F[l] = sv{}
			continue
		}
		bodyForce(&w.F[l], &w.I[l], &A, &w.V[l], &w.fx[l], !w.still, gravity)
	}
	for gi := len(w.groups) - 1; gi >= 0; gi-- {
		g := w.groups[gi]
		f, l := g.first, g.last
		F := &w.F[l]
		if g.ball {
			n := momentAbout(F, &w.x[l])
			tau[f], tau[f+1], tau[l] = angDot(&w.s[f], &n), angDot(&w.s[f+1], &n), angDot(&w.s[l], &n)
		} else {
			for j := f; j <= l; j++ {
				tau[j] = dot6(&w.s[j], F)
			}
		}
		if p := m.prims[f].parent; p != Ground {
			addIn(&w.F[p], F)
		}
	}
}

// force1 is groupInverseDynamics' outward step on the one-primitive joint l: its frame's
// acceleration A = (c + s a_l) + A' (a nil: no s a_l; A' the parent's, none at the ground)
// and its body's force (bodyForce), inverseDynamics' sums in their order on locals.
func (m *Model) force1(w *frames, l int, a []float64, gravity bool) {
	c := &w.c[l]
	A0, A1, A2, A3, A4, A5 := c[0], c[1], c[2], c[3], c[4], c[5]
	if a != nil {
		s, al := &w.s[l], a[l]
		A0, A1, A2, A3, A4, A5 = A0+s[0]*al, A1+s[1]*al, A2+s[2]*al, A3+s[3]*al, A4+s[4]*al, A5+s[5]*al
	}
	if p := m.prims[l].parent; p != Ground {
		Ap := &w.A[p]
		A0, A1, A2, A3, A4, A5 = A0+Ap[0], A1+Ap[1], A2+Ap[2], A3+Ap[3], A4+Ap[4], A5+Ap[5]
	}
	At := &w.A[l]
	At[0], At[1], At[2], At[3], At[4], At[5] = A0, A1, A2, A3, A4, A5
	if w.bare[l] {
		w.F[l] = sv{}
		return
	}
	bodyForce(&w.F[l], &w.I[l], At, &w.V[l], &w.fx[l], !w.still, gravity)
}

// ballForce is groupInverseDynamics' outward step on the ball joint f, f+1, f+2 with its
// accelerations in a: the frame's acceleration A = A' (+ c_1 + c_2 + c_3) + [ω; o × ω]
// and its body's force (bodyForce), the same operations in their order, the turn on
// locals and, at zero velocity without gravity (MassMul), I A on them too (rigidMulTo's sums).
func (m *Model) ballForce(w *frames, f int, a []float64, gravity bool) {
	l := f + 2
	At := &w.A[l]
	var A sv
	if p := m.prims[f].parent; p != Ground {
		A = w.A[p]
	}
	if !w.still {
		addIn(&A, &w.c[f])
		addIn(&A, &w.c[f+1])
		addIn(&A, &w.c[l])
	}
	s1, s2, s3, o := &w.s[f], &w.s[f+1], &w.s[l], &w.x[l]
	a1, a2, a3 := a[f], a[f+1], a[l]
	w0 := s1[0]*a1 + s2[0]*a2 + s3[0]*a3
	w1 := s1[1]*a1 + s2[1]*a2 + s3[1]*a3
	w2 := s1[2]*a1 + s2[2]*a2 + s3[2]*a3
	A0, A1, A2 := A[0]+w0, A[1]+w1, A[2]+w2
	A3, A4, A5 := A[3]+(o[1]*w2-o[2]*w1), A[4]+(o[2]*w0-o[0]*w2), A[5]+(o[0]*w1-o[1]*w0)
	At[0], At[1], At[2], At[3], At[4], At[5] = A0, A1, A2, A3, A4, A5
	F := &w.F[l]
	switch {
	case w.bare[l]:
		*F = sv{}
	case w.still && !gravity: // rigidMulTo's sums on the locals
		I0, I1, I2, I3, I4, I5 := &w.I[l][0], &w.I[l][1], &w.I[l][2], &w.I[l][3], &w.I[l][4], &w.I[l][5]
		F[0] = 0 + I0[0]*A0 + I0[1]*A1 + I0[2]*A2 + I0[4]*A4 + I0[5]*A5
		F[1] = 0 + I1[0]*A0 + I1[1]*A1 + I1[2]*A2 + I1[3]*A3 + I1[5]*A5
		F[2] = 0 + I2[0]*A0 + I2[1]*A1 + I2[2]*A2 + I2[3]*A3 + I2[4]*A4
		F[3] = 0 + I3[1]*A1 + I3[2]*A2 + I3[3]*A3
		F[4] = 0 + I4[0]*A0 + I4[2]*A2 + I4[4]*A4
		F[5] = 0 + I5[0]*A0 + I5[1]*A1 + I5[5]*A5
	default:
		bodyForce(F, &w.I[l], At, &w.V[l], &w.fx[l], !w.still, gravity)
	}
}

// innerForces sets w.F of the groups' inner frames to that of their last frame after
// groupInverseDynamics: the force each transmits, as the primitive recursion leaves it.
func (m *Model) innerForces(w *frames) {
	for _, g := range w.groups {
		for j := g.first; j < g.last; j++ {
			w.F[j] = w.F[g.last]
		}
	}
}

// momentAbout returns n − o × f for F = [n; f]: the moment of F about the point o, whose
// product with u is s·F for the rotation axis s = [u; o × u] through o.
func momentAbout(F *sv, o *vec3) vec3 {
	return vec3{F[0] - (o[1]*F[5] - o[2]*F[4]), F[1] - (o[2]*F[3] - o[0]*F[5]), F[2] - (o[0]*F[4] - o[1]*F[3])}
}

// dot6 is a·b summed from +0 in index order, as sv.dot, without copying the vectors.
func dot6(a, b *sv) float64 {
	return 0 + a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] + a[4]*b[4] + a[5]*b[5]
}

// angDot is the product of the angular part of s with n.
func angDot(s *sv, n *vec3) float64 { return s[0]*n[0] + s[1]*n[1] + s[2]*n[2] }

// addTurn adds to A the motion [ω; o × ω] of the rotations a1, a2, a3 about the axes
// s1, s2, s3 through o: ω = a1 u1 + a2 u2 + a3 u3, u_j the angular parts of s_j.
func addTurn(A *sv, s1, s2, s3 *sv, a1, a2, a3 float64, o *vec3) {
	w0 := s1[0]*a1 + s2[0]*a2 + s3[0]*a3
	w1 := s1[1]*a1 + s2[1]*a2 + s3[1]*a3
	w2 := s1[2]*a1 + s2[2]*a2 + s3[2]*a3
	A[0] += w0
	A[1] += w1
	A[2] += w2
	A[3] += o[1]*w2 - o[2]*w1
	A[4] += o[2]*w0 - o[0]*w2
	A[5] += o[0]*w1 - o[1]*w0
}

// scaleTo sets x to k y.
func scaleTo(x, y *sv, k float64) {
	x[0], x[1], x[2], x[3], x[4], x[5] = y[0]*k, y[1]*k, y[2]*k, y[3]*k, y[4]*k, y[5]*k
}

// addSum3 adds F + k1 W1 + k2 W2 + k3 W3 to x.
func addSum3(x, F, W1 *sv, k1 float64, W2 *sv, k2 float64, W3 *sv, k3 float64) {
	x[0] += F[0] + W1[0]*k1 + W2[0]*k2 + W3[0]*k3
	x[1] += F[1] + W1[1]*k1 + W2[1]*k2 + W3[1]*k3
	x[2] += F[2] + W1[2]*k1 + W2[2]*k2 + W3[2]*k3
	x[3] += F[3] + W1[3]*k1 + W2[3]*k2 + W3[3]*k3
	x[4] += F[4] + W1[4]*k1 + W2[4]*k2 + W3[4]*k3
	x[5] += F[5] + W1[5]*k1 + W2[5]*k2 + W3[5]*k3
}

// addIn adds y to x.
func addIn(x, y *sv) {
	x[0] += y[0]
	x[1] += y[1]
	x[2] += y[2]
	x[3] += y[3]
	x[4] += y[4]
	x[5] += y[5]
}

// bodyForce sets F to I A (+ V ×* I V when moving, − fx with gravity): a body's force in
// Newton-Euler, the operations of mulv, crossF, add and sub in their order (the products
// with the rigid-body inertia I by rigidMulTo), in place.
func bodyForce(F *sv, I *inertia6, A, V, fx *sv, moving, gravity bool) {
	rigidMulTo(F, I, A)
	if moving {
		var h sv
		rigidMulTo(&h, I, V)
		F[0] += (V[1]*h[2] - V[2]*h[1]) + (V[4]*h[5] - V[5]*h[4])
		F[1] += (V[2]*h[0] - V[0]*h[2]) + (V[5]*h[3] - V[3]*h[5])
		F[2] += (V[0]*h[1] - V[1]*h[0]) + (V[3]*h[4] - V[4]*h[3])
		F[3] += V[1]*h[5] - V[2]*h[4]
		F[4] += V[2]*h[3] - V[0]*h[5]
		F[5] += V[0]*h[4] - V[1]*h[3]
	}
	if gravity {
		F[0] -= fx[0]
		F[1] -= fx[1]
		F[2] -= fx[2]
		F[3] -= fx[3]
		F[4] -= fx[4]
		F[5] -= fx[5]
	}
}

// mulvSubTo sets y to I x − ka a: mulvTo, then ka a subtracted entry by entry, in one pass.
func mulvSubTo(y *sv, I *inertia6, x, a *sv, ka float64) {
	x0, x1, x2, x3, x4, x5 := x[0], x[1], x[2], x[3], x[4], x[5]
	y[0] = (0 + I[0][0]*x0 + I[0][1]*x1 + I[0][2]*x2 + I[0][3]*x3 + I[0][4]*x4 + I[0][5]*x5) - a[0]*ka
	y[1] = (0 + I[1][0]*x0 + I[1][1]*x1 + I[1][2]*x2 + I[1][3]*x3 + I[1][4]*x4 + I[1][5]*x5) - a[1]*ka
	y[2] = (0 + I[2][0]*x0 + I[2][1]*x1 + I[2][2]*x2 + I[2][3]*x3 + I[2][4]*x4 + I[2][5]*x5) - a[2]*ka
	y[3] = (0 + I[3][0]*x0 + I[3][1]*x1 + I[3][2]*x2 + I[3][3]*x3 + I[3][4]*x4 + I[3][5]*x5) - a[3]*ka
	y[4] = (0 + I[4][0]*x0 + I[4][1]*x1 + I[4][2]*x2 + I[4][3]*x3 + I[4][4]*x4 + I[4][5]*x5) - a[4]*ka
	y[5] = (0 + I[5][0]*x0 + I[5][1]*x1 + I[5][2]*x2 + I[5][3]*x3 + I[5][4]*x4 + I[5][5]*x5) - a[5]*ka
}

// mulvSub2To sets y to I x − ka a − kb b: mulvTo, then ka a and kb b subtracted, in one pass.
func mulvSub2To(y *sv, I *inertia6, x, a *sv, ka float64, b *sv, kb float64) {
	x0, x1, x2, x3, x4, x5 := x[0], x[1], x[2], x[3], x[4], x[5]
	y[0] = ((0 + I[0][0]*x0 + I[0][1]*x1 + I[0][2]*x2 + I[0][3]*x3 + I[0][4]*x4 + I[0][5]*x5) - a[0]*ka) - b[0]*kb
	y[1] = ((0 + I[1][0]*x0 + I[1][1]*x1 + I[1][2]*x2 + I[1][3]*x3 + I[1][4]*x4 + I[1][5]*x5) - a[1]*ka) - b[1]*kb
	y[2] = ((0 + I[2][0]*x0 + I[2][1]*x1 + I[2][2]*x2 + I[2][3]*x3 + I[2][4]*x4 + I[2][5]*x5) - a[2]*ka) - b[2]*kb
	y[3] = ((0 + I[3][0]*x0 + I[3][1]*x1 + I[3][2]*x2 + I[3][3]*x3 + I[3][4]*x4 + I[3][5]*x5) - a[3]*ka) - b[3]*kb
	y[4] = ((0 + I[4][0]*x0 + I[4][1]*x1 + I[4][2]*x2 + I[4][3]*x3 + I[4][4]*x4 + I[4][5]*x5) - a[4]*ka) - b[4]*kb
	y[5] = ((0 + I[5][0]*x0 + I[5][1]*x1 + I[5][2]*x2 + I[5][3]*x3 + I[5][4]*x4 + I[5][5]*x5) - a[5]*ka) - b[5]*kb
}

// mulvTo sets y to I x, each row summed from +0 in index order as mulv does.
func mulvTo(y *sv, I *inertia6, x *sv) {
	x0, x1, x2, x3, x4, x5 := x[0], x[1], x[2], x[3], x[4], x[5]
	y[0] = 0 + I[0][0]*x0 + I[0][1]*x1 + I[0][2]*x2 + I[0][3]*x3 + I[0][4]*x4 + I[0][5]*x5
	y[1] = 0 + I[1][0]*x0 + I[1][1]*x1 + I[1][2]*x2 + I[1][3]*x3 + I[1][4]*x4 + I[1][5]*x5
	y[2] = 0 + I[2][0]*x0 + I[2][1]*x1 + I[2][2]*x2 + I[2][3]*x3 + I[2][4]*x4 + I[2][5]*x5
	y[3] = 0 + I[3][0]*x0 + I[3][1]*x1 + I[3][2]*x2 + I[3][3]*x3 + I[3][4]*x4 + I[3][5]*x5
	y[4] = 0 + I[4][0]*x0 + I[4][1]*x1 + I[4][2]*x2 + I[4][3]*x3 + I[4][4]*x4 + I[4][5]*x5
	y[5] = 0 + I[5][0]*x0 + I[5][1]*x1 + I[5][2]*x2 + I[5][3]*x3 + I[5][4]*x4 + I[5][5]*x5
}
