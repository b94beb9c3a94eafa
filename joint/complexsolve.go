package joint

// The articulated-body recursion in complex arithmetic, for radau5's complex Newton system
// (Hairer & Wanner 1996, IV.8): with c = (α+iβ)/h the mass part of c²K − J's a-block with
// the geometric stiffness is M + K_g/c², a complex symmetric (not Hermitian) matrix, since
// M and K_g are real symmetric and 1/c² is complex. The recursion of seed 002 Table 1
// factors M + k K_g as L Δ Lᵀ by eliminating the joints from the leaves in; nothing in
// its algebra needs a conjugate or a real pivot, so the same sweeps with complex numbers
// and the bilinear (unconjugated) product sᵀ U solve the complex matrix. Its pivots
// D_i = s_iᵀ IA_i s_i are nonzero when k is not a negative real: each articulated inertia
// IA_i is the Schur complement of a principal block of M + k K_g, whose real part is
// positive definite up to Re k ≥ 0 and, with K_g positive semidefinite (clipped), the
// matrix is singular only where −1/k is an eigenvalue of K_g x = μ M x, μ ≥ 0.
//
// A composite joint is one joint of several degrees of freedom, as in the real
// recursion's groups (multidof.go: D = Sᵀ IA S factored as L Δ Lᵀ from its first axis on):
// taken primitive by primitive instead, through the bare inner frames, the same matrix
// was solved with other pivots, and on the slender chain (spin inertias 5e-9 kg m²) the
// rounding of that order moved radau5's Newton iterations. The lines of the sweeps follow
// groupForwardDynamics' and groupSolve's generic group (multidof.go) with complex entries;
// the lead may fold them into those files.

// csv is a spatial vector with complex entries.
type csv [6]complex128

// cinertia6 is a complex symmetric 6×6 articulated inertia.
type cinertia6 [6][6]complex128

// complexFactor is the complex recursion's factorization of M + k K_g at a point: each
// joint's (group's, multidof.go) columns W_j, 1/Δ_j and L of D = Sᵀ IA S = L Δ Lᵀ, and the
// point it holds (as abaFactor).
type complexFactor struct {
	valid  bool
	pgen   uint64
	k      complex128
	kg     []float64
	groups []group // the recursion's joints: the frames' groups, or one per primitive
	IA     []cinertia6
	W      []csv
	Di     []complex128
	L      [][maxGroup - 1]complex128
	F, A   []csv
	u      []complex128
}

func newComplexFactor(m *Model, w *frames) *complexFactor {
	n := len(m.prims)
	f := &complexFactor{kg: make([]float64, kgSize*n), groups: w.groups, IA: make([]cinertia6, n),
		W: make([]csv, n), Di: make([]complex128, n), L: make([][maxGroup - 1]complex128, n),
		F: make([]csv, n), A: make([]csv, n), u: make([]complex128, n)}
	if f.groups == nil {
		for i := range n {
			f.groups = append(f.groups, group{first: i, last: i})
		}
	}
	return f
}

// holds reports whether f was computed at the positions w holds with the stiffness k·kg.
func (f *complexFactor) holds(w *frames, kg []float64, k complex128) bool {
	if !f.valid || f.pgen != w.pgen || k != f.k {
		return false
	}
	for i, bare := range w.bare {
		if !bare && !equal(kg[kgSize*i:kgSize*(i+1)], f.kg[kgSize*i:kgSize*(i+1)]) {
			return false
		}
	}
	return true
}

// sdot is sᵀ x for a real s and a complex x (the bilinear product, no conjugate).
func sdot(s *sv, x *csv) complex128 {
	var d complex128
	for r := range 6 {
		d += complex(s[r], 0) * x[r]
	}
	return d
}

// factor runs the inward sweep of the articulated inertias of M + k K_g at the positions
// in w (kinematics at zero velocity): for each joint, from the leaves in, the columns
// W_j = IA s_j − Σ_{r<j} L_jr W_r, L_jr = (s_j·W_r)/Δ_r, Δ_j = s_j·W_j of its last
// frame's articulated inertia IA (groupForwardDynamics' generic group), and the downdate
// IA − Σ_j W_j W_jᵀ/Δ_j added to the parent's.
func (f *complexFactor) factor(m *Model, w *frames, kg []float64, k complex128) {
	for _, g := range f.groups {
		i := g.last
		IA := &f.IA[i]
		for r := range 6 {
			for c := range 6 {
				IA[r][c] = complex(w.I[i][r][c], 0)
			}
		}
		if !w.bare[i] {
			for r := range 3 {
				for c := range 3 {
					IA[r][c] += k * complex(kg[kgSize*i+3*r+c], 0)
				}
			}
		}
	}
	for gi := len(f.groups) - 1; gi >= 0; gi-- {
		g := f.groups[gi]
		fi, l := g.first, g.last
		IA := &f.IA[l]
		for j := fi; j <= l; j++ {
			s := &w.s[j]
			var U csv
			for r := range 6 {
				var x complex128
				for c := range 6 {
					x += IA[r][c] * complex(s[c], 0)
				}
				U[r] = x
			}
			for r := fi; r < j; r++ {
				L := sdot(s, &f.W[r]) * f.Di[r]
				f.L[j][r-fi] = L
				for e := range 6 {
					U[e] -= L * f.W[r][e]
				}
			}
			f.W[j] = U
			f.Di[j] = 1 / sdot(s, &U)
		}
		p := m.prims[fi].parent
		if p == Ground {
			continue
		}
		IAp := &f.IA[p]
		for r := range 6 {
			for c := r; c < 6; c++ {
				x := IA[r][c]
				for j := fi; j <= l; j++ {
					x -= f.W[j][r] * f.W[j][c] * f.Di[j]
				}
				y := IAp[r][c] + x
				IAp[r][c], IAp[c][r] = y, y
			}
		}
	}
	f.pgen, f.k = w.pgen, k
	for i, bare := range w.bare {
		if !bare {
			copy(f.kg[kgSize*i:kgSize*(i+1)], kg[kgSize*i:kgSize*(i+1)])
		}
	}
	f.valid = true
}

// solve runs the right side's sweeps (groupSolve's generic group): a = (M + k K_g)⁻¹ τ,
// τ = br + i·bi, into (xr, xi).
func (f *complexFactor) solve(m *Model, w *frames, xr, xi, br, bi []float64) {
	clear(f.F)
	for gi := len(f.groups) - 1; gi >= 0; gi-- {
		g := f.groups[gi]
		fi, l := g.first, g.last
		F := &f.F[l]
		for j := fi; j <= l; j++ {
			u := complex(br[j], bi[j]) - sdot(&w.s[j], F)
			for r := fi; r < j; r++ {
				u -= f.L[j][r-fi] * f.u[r]
			}
			f.u[j] = u
		}
		p := m.prims[fi].parent
		if p == Ground {
			continue
		}
		Fp := &f.F[p]
		for e := range 6 {
			x := Fp[e] + F[e]
			for j := fi; j <= l; j++ {
				x += f.W[j][e] * (f.u[j] * f.Di[j])
			}
			Fp[e] = x
		}
	}
	for _, g := range f.groups {
		fi, l := g.first, g.last
		var A csv
		if p := m.prims[fi].parent; p != Ground {
			A = f.A[p]
		}
		var a [maxGroup]complex128
		for j := l; j >= fi; j-- {
			var wa complex128
			for e := range 6 {
				wa += f.W[j][e] * A[e]
			}
			t := (f.u[j] - wa) * f.Di[j]
			for r := j + 1; r <= l; r++ {
				t -= f.L[r][j-fi] * a[r-fi]
			}
			a[j-fi] = t
		}
		for j := fi; j <= l; j++ {
			s := &w.s[j]
			for e := range 6 {
				A[e] += complex(s[e], 0) * a[j-fi]
			}
			xr[j], xi[j] = real(a[j-fi]), imag(a[j-fi])
		}
		f.A[l] = A
	}
}

// ComplexStiffMassSolve writes x = (M(q) + k Σ Φ_mᵀ K_m Φ_m)⁻¹ b for a complex factor k
// and a complex right side b = br + i·bi into x = xr + i·xi, with the body matrices K_m
// of kg (GeometricStiffness): the articulated-body recursion at zero velocity and without
// gravity in complex symmetric arithmetic (see above), O(N), neither M nor the stiffness
// formed. The inward sweep of the articulated inertias is kept for the next solve at the
// same positions, kg and k, which then runs only the right side's sweeps. For radau5's
// complex Newton system, whose mass part's a-block is M + K_g/c² with c = (α+iβ)/h
// (integrate's radauKrylov). Trees without flexible bodies and without locked
// coordinates (the coordinates are the tree's).
func (s *System) ComplexStiffMassSolve(xr, xi []float64, t float64, q, br, bi, kg []float64, k complex128) {
	s.m.kinematics(s.w, q, nil)
	if s.cfac == nil {
		s.cfac = newComplexFactor(s.m, s.w)
	}
	if !s.cfac.holds(s.w, kg, k) {
		s.cfac.factor(s.m, s.w, kg, k)
	}
	s.cfac.solve(s.m, s.w, xr, xi, br, bi)
}

// slenderRatio bounds a slender body: its smallest principal moment of inertia about its
// centre of mass is at most slenderRatio times the middle one (a rod, whose spin about its
// axis is light).
const slenderRatio = 0.1

// SpinFreeGeometricStiffness writes the body matrices K_m of GeometricStiffness at
// (t, q, v, a) with the multipliers lambda, each slender body's (slenderRatio) projected
// off its spin axis â, the principal axis of its smallest moment of inertia:
// K_m ← (1 − ââᵀ) K_m (1 − ââᵀ). K_m is the second variation of the loads' potential
// under a rotation vector φ of the body; in joint coordinates (Cardan sequences) the
// rotation about a rod's axis and its bending compose in an order, and the true stiffness
// couples them otherwise than K_m's terms ½|r| F_⊥ between â and the bending axes. Beside
// the spin inertia of a slender rod those terms dominate the a-block: on the 20-rod chain
// of radius 1e-4 m (spin inertia 5e-9 kg m²), M + h²K_g/γ² left eigenvalues of the
// preconditioned matrix 0.86 from 1 at h = 8 ms where M alone left 2e-3, and radau5 took
// 5-10 × the evaluations; projected, 6e-4, below M's at every radius tried (1e-2, 1e-3,
// 1e-4 m; BENCHMARKS.md, "radau5's preconditioner with the geometric stiffness"). For
// radau5's preconditioner (integrate's radauStiff); dae.StiffMassSolver's solves take the
// result as they take GeometricStiffness's.
func (s *System) SpinFreeGeometricStiffness(kg []float64, t float64, q, v, a, lambda []float64) {
	s.GeometricStiffness(kg, t, q, v, a, lambda)
	w := s.w
	for i := range s.m.prims {
		if w.bare[i] {
			continue
		}
		ax, ok := slenderAxis(s.m.prims[i].body.Inertia)
		if !ok {
			continue
		}
		u := w.R[i].mulv(ax)
		K := mat3ByRows(kg[kgSize*i:])
		var P, PK mat3
		for r := range 3 {
			for c := range 3 {
				P[r][c] = -u[r] * u[c]
			}
			P[r][r]++
		}
		for r := range 3 {
			for c := range 3 {
				var x float64
				for e := range 3 {
					x += K[r][e] * P[e][c]
				}
				PK[r][c] = x
			}
		}
		for r := range 3 {
			for c := range 3 {
				var x float64
				for e := range 3 {
					x += P[r][e] * PK[e][c]
				}
				kg[kgSize*i+3*r+c] = x
			}
		}
	}
}

// slenderAxis returns the principal axis of the smallest moment of the inertia tensor J
// (body frame) and whether that moment is at most slenderRatio times the middle one.
func slenderAxis(J [3][3]float64) (vec3, bool) {
	A := mat3(J)
	V := jacobiEigen(&A)
	lo, mid := 0, 0
	d := [3]float64{A[0][0], A[1][1], A[2][2]}
	for i := 1; i < 3; i++ {
		if d[i] < d[lo] {
			lo = i
		}
	}
	first := true
	for i := range 3 {
		if i != lo && (first || d[i] < d[mid]) {
			mid, first = i, false
		}
	}
	if !(d[lo] <= slenderRatio*d[mid]) {
		return vec3{}, false
	}
	return vec3{V[0][lo], V[1][lo], V[2][lo]}, true
}
