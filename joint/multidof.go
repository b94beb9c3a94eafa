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

// groupForwardDynamics is stiffForwardDynamics without locked coordinates, with the
// composite joints of w.groups as multi-degree-of-freedom joints: the same accelerations
// up to rounding (the same bits where every group is one primitive). It leaves in w.U,
// w.D and w.L each group's W, Δ and L (abaFactor), and in w.A the accelerations of the
// groups' last frames only.
func (m *Model) groupForwardDynamics(w *frames, a, tau []float64, gravity bool, kg []float64, k float64) {
	for _, g := range w.groups { // the inner frames' inertias and forces are never read
		i := g.last
		w.IA[i] = w.I[i]
		var F sv
		if w.bare[i] {
			w.F[i] = F
			continue
		}
		if kg != nil {
			addStiffness(&w.IA[i], kg[kgSize*i:], k)
		}
		if !w.still {
			F = crossF(w.V[i], w.I[i].mulv(w.V[i]))
		}
		if gravity {
			F = F.sub(w.fx[i])
		}
		w.F[i] = F
	}
	for gi := len(w.groups) - 1; gi >= 0; gi-- {
		g := w.groups[gi]
		f, l := g.first, g.last
		p := m.prims[f].parent
		switch {
		case l == f: // one primitive: the one-degree-of-freedom recursion's operations
			m.inward1(w, l, p, tau[l])
			continue
		case g.ball:
			m.inwardBall(w, gi, f, p, tau)
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
	m.groupOutward(w, a, w.U, w.D, w.L, w.B)
}

// inward1 is the inward step of the recursion on the one-primitive joint i with parent p:
// stiffForwardDynamics' operations.
func (m *Model) inward1(w *frames, i, p int, tau float64) {
	IA, s := &w.IA[i], &w.s[i]
	U := IA.mulv(*s)
	D := s.dot(U)
	u := tau - s.dot(w.F[i])
	w.U[i], w.D[i], w.u[i] = U, D, u
	if p == Ground {
		return
	}
	Ud := U.scale(1 / D)
	if w.still {
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

// ballFactor is a ball joint's factors in the recursion, at its point o: Jinv = J_o⁻¹
// (J_o the articulated inertia's angular block about o), G = J_o⁻¹ H_o (H_o its
// angular-linear block about o) and Sinv = Ŝ⁻¹, Ŝ = [u_1 u_2 u_3] the axes' directions.
// Since S = P Ŝ with P = [1; õ] (the rotations about o), U D⁻¹ Uᵀ = U_P J_o⁻¹ U_Pᵀ for
// U_P = IA P: the downdate leaves about o only the linear block K − H_oᵀ J_o⁻¹ H_o, and a
// right side needs ũ = Ŝ⁻ᵀ τ − n_o (n_o the moment of the body's force about o), the
// parent's force F + [ũ + o × Gᵀũ; Gᵀũ], and the accelerations Ŝ⁻¹ ω' with
// ω' = J_o⁻¹ ũ − α − G a_o (A' = [α; a_O] the parent's, a_o = a_O + α × o).
type ballFactor struct{ Jinv, G, Sinv mat3 }

// inwardBall is the inward step on the ball joint f, f+1, f+2 (group gi) with parent p:
// its factors about its point o (ballFactor) and the downdated inertia added to the
// parent's.
func (m *Model) inwardBall(w *frames, gi, f, p int, tau []float64) {
	l := f + 2
	IA, b := &w.IA[l], &w.B[gi]
	ox, oy, oz := w.x[l][0], w.x[l][1], w.x[l][2]
	u1, u2, u3 := w.s[f].ang(), w.s[f+1].ang(), w.s[l].ang()
	r1, r2, r3 := u2.cross(u3), u3.cross(u1), u1.cross(u2)
	det := 1 / u1.dot(r1)
	b.Sinv = mat3{r1.scale(det), r2.scale(det), r3.scale(det)}
	// The blocks about o: H_o = H − õK, J_o = J − õHᵀ + H_o õ (symmetric), K unchanged;
	// J, H, K the blocks of IA about the origin. Written out: loops over 3 × 3 blocks cost
	// more in their indexing than in their work.
	K00, K01, K02, K11, K12, K22 := IA[3][3], IA[3][4], IA[3][5], IA[4][4], IA[4][5], IA[5][5]
	H := mat3{{IA[0][3], IA[0][4], IA[0][5]}, {IA[1][3], IA[1][4], IA[1][5]}, {IA[2][3], IA[2][4], IA[2][5]}}
	Ho := mat3{
		{H[0][0] + oz*K01 - oy*K02, H[0][1] + oz*K11 - oy*K12, H[0][2] + oz*K12 - oy*K22},
		{H[1][0] - oz*K00 + ox*K02, H[1][1] - oz*K01 + ox*K12, H[1][2] - oz*K02 + ox*K22},
		{H[2][0] + oy*K00 - ox*K01, H[2][1] + oy*K01 - ox*K11, H[2][2] + oy*K02 - ox*K12},
	}
	Jo := mat3{
		{IA[0][0] - (oy*H[0][2] - oz*H[0][1]) + (Ho[0][1]*oz - Ho[0][2]*oy),
			IA[0][1] - (oy*H[1][2] - oz*H[1][1]) + (Ho[0][2]*ox - Ho[0][0]*oz),
			IA[0][2] - (oy*H[2][2] - oz*H[2][1]) + (Ho[0][0]*oy - Ho[0][1]*ox)},
		{0, IA[1][1] - (oz*H[1][0] - ox*H[1][2]) + (Ho[1][2]*ox - Ho[1][0]*oz),
			IA[1][2] - (oz*H[2][0] - ox*H[2][2]) + (Ho[1][0]*oy - Ho[1][1]*ox)},
		{0, 0, IA[2][2] - (ox*H[2][1] - oy*H[2][0]) + (Ho[2][0]*oy - Ho[2][1]*ox)},
	}
	b.Jinv = symInverse(&Jo)
	b.G = b.Jinv.mul(&Ho)
	G := &b.G
	// K' = K − H_oᵀ G, the inertia left about o
	k00 := K00 - (Ho[0][0]*G[0][0] + Ho[1][0]*G[1][0] + Ho[2][0]*G[2][0])
	k01 := K01 - (Ho[0][0]*G[0][1] + Ho[1][0]*G[1][1] + Ho[2][0]*G[2][1])
	k02 := K02 - (Ho[0][0]*G[0][2] + Ho[1][0]*G[1][2] + Ho[2][0]*G[2][2])
	k11 := K11 - (Ho[0][1]*G[0][1] + Ho[1][1]*G[1][1] + Ho[2][1]*G[2][1])
	k12 := K12 - (Ho[0][1]*G[0][2] + Ho[1][1]*G[1][2] + Ho[2][1]*G[2][2])
	k22 := K22 - (Ho[0][2]*G[0][2] + Ho[1][2]*G[1][2] + Ho[2][2]*G[2][2])
	if p != Ground {
		// Ia about the origin: [−õK'õ, õK'; −K'õ, K'], with P = K'õ (rows K'_r × o).
		P00, P01, P02 := k01*oz-k02*oy, k02*ox-k00*oz, k00*oy-k01*ox
		P10, P11, P12 := k11*oz-k12*oy, k12*ox-k01*oz, k01*oy-k11*ox
		P20, P21, P22 := k12*oz-k22*oy, k22*ox-k02*oz, k02*oy-k12*ox
		IAp := &w.IA[p]
		symTo(IAp, 0, 0, oz*P10-oy*P20)
		symTo(IAp, 0, 1, oz*P11-oy*P21)
		symTo(IAp, 0, 2, oz*P12-oy*P22)
		symTo(IAp, 1, 1, ox*P21-oz*P01)
		symTo(IAp, 1, 2, ox*P22-oz*P02)
		symTo(IAp, 2, 2, oy*P02-ox*P12)
		symTo(IAp, 0, 3, -P00)
		symTo(IAp, 0, 4, -P10)
		symTo(IAp, 0, 5, -P20)
		symTo(IAp, 1, 3, -P01)
		symTo(IAp, 1, 4, -P11)
		symTo(IAp, 1, 5, -P21)
		symTo(IAp, 2, 3, -P02)
		symTo(IAp, 2, 4, -P12)
		symTo(IAp, 2, 5, -P22)
		symTo(IAp, 3, 3, k00)
		symTo(IAp, 3, 4, k01)
		symTo(IAp, 3, 5, k02)
		symTo(IAp, 4, 4, k11)
		symTo(IAp, 4, 5, k12)
		symTo(IAp, 5, 5, k22)
		if !w.still { // Ia c = [o × f; f], f = K' (c_lin + c_ang × o)
			c := w.c[f].add(w.c[f+1]).add(w.c[l])
			c0, c1, c2 := c[3]+(c[1]*oz-c[2]*oy), c[4]+(c[2]*ox-c[0]*oz), c[5]+(c[0]*oy-c[1]*ox)
			f0, f1, f2 := k00*c0+k01*c1+k02*c2, k01*c0+k11*c1+k12*c2, k02*c0+k12*c1+k22*c2
			addIn(&w.F[p], &sv{oy*f2 - oz*f1, oz*f0 - ox*f2, ox*f1 - oy*f0, f0, f1, f2})
		}
	}
	ballRight(w, b, f, p, tau, &w.F[l])
}

// ballRight is a ball joint's part of the inward sweep of a right side: ũ = Ŝ⁻ᵀ τ − n_o
// and z = J_o⁻¹ ũ (kept in w.u for the outward sweep), and F + [ũ + o × Gᵀũ; Gᵀũ] added
// to the parent's force.
func ballRight(w *frames, b *ballFactor, f, p int, tau []float64, F *sv) {
	l := f + 2
	o := &w.x[l]
	n := momentAbout(F, o)
	t1, t2, t3 := tau[f], tau[f+1], tau[l]
	S := &b.Sinv
	u := vec3{S[0][0]*t1 + S[1][0]*t2 + S[2][0]*t3 - n[0], S[0][1]*t1 + S[1][1]*t2 + S[2][1]*t3 - n[1], S[0][2]*t1 + S[1][2]*t2 + S[2][2]*t3 - n[2]}
	z := b.Jinv.mulv(u)
	w.u[f], w.u[f+1], w.u[l] = z[0], z[1], z[2]
	if p == Ground {
		return
	}
	G := &b.G
	g := vec3{G[0][0]*u[0] + G[1][0]*u[1] + G[2][0]*u[2], G[0][1]*u[0] + G[1][1]*u[1] + G[2][1]*u[2], G[0][2]*u[0] + G[1][2]*u[1] + G[2][2]*u[2]}
	x := &w.F[p]
	x[0] += F[0] + u[0] + (o[1]*g[2] - o[2]*g[1])
	x[1] += F[1] + u[1] + (o[2]*g[0] - o[0]*g[2])
	x[2] += F[2] + u[2] + (o[0]*g[1] - o[1]*g[0])
	x[3] += F[3] + g[0]
	x[4] += F[4] + g[1]
	x[5] += F[5] + g[2]
}

// ballOut is a ball joint's part of the outward sweep from the parent's acceleration A
// (with the joint's velocity-product term): ω' = z − α − G a_o, the coordinates'
// accelerations Ŝ⁻¹ ω' into a, and A + [ω'; o × ω'] returned.
func ballOut(w *frames, b *ballFactor, f int, a []float64, A sv) sv {
	l := f + 2
	o := &w.x[l]
	ao := vec3{A[3] + (A[1]*o[2] - A[2]*o[1]), A[4] + (A[2]*o[0] - A[0]*o[2]), A[5] + (A[0]*o[1] - A[1]*o[0])}
	Gao := b.G.mulv(ao)
	dw := vec3{w.u[f] - A[0] - Gao[0], w.u[f+1] - A[1] - Gao[1], w.u[l] - A[2] - Gao[2]}
	S := &b.Sinv
	a[f], a[f+1], a[l] = S[0][0]*dw[0]+S[0][1]*dw[1]+S[0][2]*dw[2], S[1][0]*dw[0]+S[1][1]*dw[1]+S[1][2]*dw[2], S[2][0]*dw[0]+S[2][1]*dw[1]+S[2][2]*dw[2]
	return sv{A[0] + dw[0], A[1] + dw[1], A[2] + dw[2],
		A[3] + (o[1]*dw[2] - o[2]*dw[1]), A[4] + (o[2]*dw[0] - o[0]*dw[2]), A[5] + (o[0]*dw[1] - o[1]*dw[0])}
}

// symInverse is the inverse of the symmetric 3 × 3 matrix whose upper triangle J holds,
// by its cofactors.
func symInverse(J *mat3) mat3 {
	a, b, c, d, e, f := J[0][0], J[0][1], J[0][2], J[1][1], J[1][2], J[2][2]
	A, B, C := d*f-e*e, c*e-b*f, b*e-c*d
	s := 1 / (a*A + b*B + c*C)
	D, E, F := (a*f-c*c)*s, (b*c-a*e)*s, (a*d-b*b)*s
	A, B, C = A*s, B*s, C*s
	return mat3{{A, B, C}, {B, D, E}, {C, E, F}}
}

// groupOutward is the outward sweep of the grouped recursion: each group's accelerations
// L⁻ᵀ ((y − Wᵀ A')/Δ) from its parent's acceleration A' (plus its velocity-product term),
// with y in w.u and W, Δ, L the group's factors.
func (m *Model) groupOutward(w *frames, a []float64, W []sv, D []float64, L [][maxGroup - 1]float64, B []ballFactor) {
	for gi, g := range w.groups {
		f, l := g.first, g.last
		var A sv
		switch {
		case l == f: // as the one-degree-of-freedom recursion sums
			A = w.c[l]
			if p := m.prims[l].parent; p != Ground {
				A = A.add(w.A[p])
			}
		case w.still: // c is zero
			if p := m.prims[f].parent; p != Ground {
				A = w.A[p]
			}
		default:
			A = w.c[f]
			for j := f + 1; j <= l; j++ {
				A = A.add(w.c[j])
			}
			if p := m.prims[f].parent; p != Ground {
				A = A.add(w.A[p])
			}
		}
		switch {
		case l == f:
			a[l] = (w.u[l] - W[l].dot(A)) / D[l]
			w.A[l] = A.add(w.s[l].scale(a[l]))
			continue
		case g.ball:
			w.A[l] = ballOut(w, &B[gi], f, a, A)
			continue
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

// groupSolve is abaSolve with the groups' factors W, Δ and L of an earlier
// groupForwardDynamics at the positions in w: the same operations on the right side in
// the same order.
func (m *Model) groupSolve(w *frames, a, tau []float64, W []sv, D []float64, L [][maxGroup - 1]float64, B []ballFactor) {
	clear(w.F[:len(m.prims)])
	for gi := len(w.groups) - 1; gi >= 0; gi-- {
		g := w.groups[gi]
		f, l := g.first, g.last
		F := w.F[l]
		p := m.prims[f].parent
		switch {
		case l == f:
			u := tau[l] - w.s[l].dot(F)
			w.u[l] = u
			if p != Ground {
				w.F[p] = w.F[p].add(F).add(W[l].scale(u / D[l]))
			}
			continue
		case g.ball:
			ballRight(w, &B[gi], f, p, tau, &F)
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
	m.groupOutward(w, a, W, D, L, B)
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
		var A sv
		if l == f { // one primitive: inverseDynamics' sums in its order
			A = w.c[l]
			if a != nil {
				A = A.add(w.s[l].scale(a[l]))
			}
			if p := m.prims[l].parent; p != Ground {
				A = A.add(w.A[p])
			}
		} else if p := m.prims[f].parent; p != Ground {
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
		I := &w.I[l]
		F := I.mulv(A)
		if !w.still {
			F = F.add(crossF(w.V[l], I.mulv(w.V[l])))
		}
		if gravity {
			F = F.sub(w.fx[l])
		}
		w.F[l] = F
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
				tau[j] = w.s[j].dot(*F)
			}
		}
		if p := m.prims[f].parent; p != Ground {
			addIn(&w.F[p], F)
		}
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

// addIn adds y to x.
func addIn(x, y *sv) {
	x[0] += y[0]
	x[1] += y[1]
	x[2] += y[2]
	x[3] += y[3]
	x[4] += y[4]
	x[5] += y[5]
}
