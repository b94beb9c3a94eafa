package joint

import "math"

// The body-level geometric stiffness of the loads each body carries, for the implicit
// methods' preconditioner (dae.StiffMassSolver). With a body m turned by a small rotation φ
// about its inboard joint point o_m, a force F held fixed at a point P of m (lever
// r = P − o_m) does the work F·(R(φ) − 1) r, whose second variation is
// ½(|φ|²(F·r) − (F·φ)(r·φ)): the potential −Σ F·p has the Hessian
//
//	K_m = Σ_P [ (F_P·r_P) 1 − ½ (F_P r_Pᵀ + r_P F_Pᵀ) ]            (3×3, symmetric)
//
// in φ. The points P are m's centre of mass, with its gravity and d'Alembert force
// m g − m a_c at (q, v, a), and the origin of each child joint, with the force the child's
// subtree exerts on m: the sum of those forces over the subtree, the transmitted force of
// the Newton-Euler pass. K_m is bilinear in (F, r), so splitting a lever at the joints
// loses nothing: for a planar chain at rest (v = 0, a = 0) under gravity Σ_m Φ_mᵀ K_m Φ_m
// (Φ_m = ∂ω_m/∂q', the angular rows of m's Jacobian) is the whole stiffness
// K = (M a)_q − f_q in relative coordinates (TestGeometricStiffnessPlanarChainExact). With
// accelerations it holds each d'Alembert force fixed at its point and leaves out how the
// points' accelerations change with q at fixed joint accelerations (the lever arms of the
// joint accelerations turning), which is most of (M a)_q in the Frobenius norm; in 3D it
// also leaves out the turning of the joint axes under the transmitted wrench (Lie
// brackets of the Cardan axes). Measured as a preconditioner it still does what M + K
// does, and gravity alone without the d'Alembert forces does worse than M alone
// (BENCHMARKS.md, "The geometric stiffness in the joint route's preconditioner"). It is
// an angular inertia [K_m 0; 0 0] on the
// body's spatial inertia (the angular half of a spatial motion is the same at every
// reference point), so the articulated-body recursion solves M + k Σ Φ_mᵀ K_m Φ_m in O(N).
// Bare frames (the inner frames of composite joints) carry nothing and get nothing; loads
// of force elements are left out (their effect on the accelerations is in the d'Alembert
// forces, levered at the centres of mass). The multipliers' loads −Gᵀλ of the loop
// closures (cut joints, slides, axes, cams) are loads like the others: each row's force
// at its point on its body, and summed over a subtree, part of the force the subtree
// transmits (with them left out the levered forces do not balance, and bdf's index1 form
// failed on the cut-joint four-bar). The rows' couples (orientation rows, the cam's
// moment) have no second variation under a rotation and add nothing. Pfaffian rows
// (knife edges, rolling disks) and joints on flexible bodies, whose loads cutLoads does
// not sum, keep K_g off (HasGeometricStiffness); given the Pfaffian rows' multipliers after
// λ, a knife edge's load −μ u is levered at its point as a cut row's (knifePointLoads,
// HasPfaffianGeometricStiffness), held fixed in the world.

// kgSize is the number of values one frame's K_m takes in the flat storage of
// GeometricStiffness: the 3×3 matrix by rows.
const kgSize = 9

// geometricStiffness writes K_m of every frame into kg (kgSize per frame) at the
// kinematics in s.w (positions and velocities), joint accelerations a and multipliers
// lambda (nil: no constraint loads). The loads −Gᵀλ of the cut rows (cutLoads) act on
// their bodies at their points and, summed over each subtree, take their part of the
// force the subtree transmits to its parent, so the levered forces balance as the
// equations of motion balance them. With clip, each K_m is replaced by its positive
// semidefinite part (negative eigenvalues, from compressive loads, set to zero), so
// M + k Σ Φᵀ K_m Φ stays positive definite for every k ≥ 0.
func (s *System) geometricStiffness(kg, a, lambda []float64, clip bool) {
	m, w, d := s.m, s.w, s.d
	m.bodyForces(w, d, a, true)
	clear(kg[:kgSize*len(m.prims)])
	for i := range m.prims {
		if w.bare[i] {
			continue
		}
		b := &m.prims[i].body
		c := w.x[i].add(w.R[i].mulv(b.COM))
		addLever(kg[kgSize*i:], d.f[i].lin().scale(-1), c.sub(w.x[i]))
	}
	W := s.cutPointLoads(kg, lambda)
	if len(lambda) > s.nc {
		s.knifePointLoads(kg, W, lambda[s.nc:])
	}
	loaded := len(lambda) > 0                // W is zero without multipliers: no sums to carry
	for j := len(m.prims) - 1; j >= 0; j-- { // W[j]: the cut loads on j's subtree
		p := m.prims[j].parent
		if p == Ground {
			continue
		}
		if !w.bare[p] { // a joint inside a composite joint has no body to load
			addLever(kg[kgSize*p:], W[j].sub(w.F[j]).lin(), w.x[j].sub(w.x[p]))
		}
		if loaded {
			W[p] = W[p].add(W[j])
		}
	}
	if clip {
		for i := range m.prims {
			if !w.bare[i] {
				positivePart(kg[kgSize*i : kgSize*(i+1)])
			}
		}
	}
}

// cutPointLoads levers every cut row's load −Gᵀλ at its point into its frame's K_m (kg
// nil: none) and returns the loads summed on each frame (s.react; all zero when lambda is
// nil).
func (s *System) cutPointLoads(kg, lambda []float64) []sv {
	if s.react == nil {
		s.react = make([]sv, len(s.m.prims))
	}
	W, w := s.react, s.w
	clear(W)
	if lambda == nil {
		return W
	}
	s.cutLoads(lambda, func(_ string, f int, r vec3, x sv) {
		if f == Ground {
			return
		}
		W[f] = W[f].add(x)
		if kg != nil && !w.bare[f] {
			addLever(kg[kgSize*f:], x.lin(), r.sub(w.x[f]))
		}
	})
	return W
}

// knifePointLoads levers every knife edge's load −Aᵀμ, the world force −μ_k u_k at its
// point P on frame a (u = R_a n across the blade, the force Pfaffian's row k exerts; see
// PfaffianForceDerivative), into frame a's K_m and adds it to W[a], as cutPointLoads does
// a cut row's: mu holds the Pfaffian rows' multipliers in dae.WithPfaffianRows's order
// (the knife edges' first). The lever holds the force fixed in the world; that u turns
// with frame a adds to the stiffness J_Pᵀ μ ∂u/∂q, which is not symmetric (a follower
// load: under a turn φ of a body on P's path the moment of the force about the body's
// joint turns rigidly, δM = φ × M, a skew operator) and which K_g leaves out.
func (s *System) knifePointLoads(kg []float64, W []sv, mu []float64) {
	w := s.w
	for k, e := range s.m.knives {
		r, _, _ := w.point(e.a, e.p)
		u, _, _ := w.turned(e.a, e.n)
		F := u.scale(-mu[k])
		W[e.a] = W[e.a].add(join(r.cross(F), F))
		if !w.bare[e.a] {
			addLever(kg[kgSize*e.a:], F, r.sub(w.x[e.a]))
		}
	}
}

// addLever adds (F·r) 1 − ½ (F rᵀ + r Fᵀ) to the 3×3 matrix K (by rows).
func addLever(K []float64, F, r vec3) {
	fr := F.dot(r)
	for i := range 3 {
		for j := range 3 {
			K[3*i+j] -= (F[i]*r[j] + r[i]*F[j]) / 2
		}
		K[4*i] += fr
	}
}

// addStiffness adds k K (kgSize values by rows) to the angular block of the spatial
// inertia I.
func addStiffness(I *inertia6, K []float64, k float64) {
	for i := range 3 {
		for j := range 3 {
			I[i][j] += k * K[3*i+j]
		}
	}
}

// positivePart overwrites the symmetric 3×3 matrix K (by rows) with V max(Λ, 0) Vᵀ, its
// eigen-decomposition V Λ Vᵀ clipped to the nonnegative eigenvalues. The eigenvalues come
// in closed form (eigenExtremes); with λ₁ ≥ λ₂ ≥ λ₃ the clipped part has one eigenpair
// that matters: K₊ = K − λ₃ v₃ v₃ᵀ when only λ₃ < 0, λ₁ v₁ v₁ᵀ when only λ₁ > 0, 0 when
// none is positive, and that eigenvalue is simple, so its vector is a cross product of two
// rows of K − λ I (eigenvector). Only where the rows leave it ill-determined does it fall
// back to cyclic Jacobi (positivePartJacobi): about a tenth of Jacobi's instructions on the
// chains' K_m.
func positivePart(K []float64) {
	var A mat3
	for i := range 3 {
		for j := range 3 {
			A[i][j] = K[3*i+j]
		}
	}
	if A[0][0] >= 0 && A[1][1] >= 0 && A[2][2] >= 0 && det3(A) >= 0 && minor2(A) >= 0 {
		return // positive semidefinite already: all principal minors nonnegative
	}
	l1, l3 := eigenExtremes(&A)
	l2 := A[0][0] + A[1][1] + A[2][2] - l1 - l3
	switch {
	case l1 <= 0:
		clear(K[:9])
		return
	case l2 < 0: // only λ₁ survives
		if v, ok := eigenvector(&A, l1); ok {
			for i := range 3 {
				for j := range 3 {
					K[3*i+j] = l1 * v[i] * v[j]
				}
			}
			return
		}
	default: // only λ₃ is cut
		if v, ok := eigenvector(&A, l3); ok {
			for i := range 3 {
				for j := range 3 {
					K[3*i+j] = A[i][j] - l3*v[i]*v[j]
				}
			}
			return
		}
	}
	positivePartJacobi(K, A)
}

// eigenExtremes returns the largest and smallest eigenvalues of the symmetric A by the
// trigonometric solution of its characteristic cubic (A = q 1 + p B, det B = 2 cos 3φ),
// accurate to rounding relative to A's norm.
func eigenExtremes(A *mat3) (largest, smallest float64) {
	q := (A[0][0] + A[1][1] + A[2][2]) / 3
	p1 := A[0][1]*A[0][1] + A[0][2]*A[0][2] + A[1][2]*A[1][2]
	d0, d1, d2 := A[0][0]-q, A[1][1]-q, A[2][2]-q
	p2 := d0*d0 + d1*d1 + d2*d2 + 2*p1
	if p2 == 0 {
		return q, q
	}
	p := math.Sqrt(p2 / 6)
	B := *A
	for i := range 3 {
		B[i][i] -= q
		for j := range 3 {
			B[i][j] /= p
		}
	}
	r := math.Max(-1, math.Min(1, det3(B)/2))
	phi := math.Acos(r) / 3
	return q + 2*p*math.Cos(phi), q + 2*p*math.Cos(phi+2*math.Pi/3)
}

// eigenvector returns the unit eigenvector of the symmetric A for its simple eigenvalue l:
// the longest cross product of two rows of A − l 1, which span the plane orthogonal to it.
// ok is false when every cross product is below 1e-6 of the rows' sizes (l within about
// 1e-6 of another eigenvalue), where the direction is not determined to working accuracy.
func eigenvector(A *mat3, l float64) (v vec3, ok bool) {
	r := [3]vec3{{A[0][0] - l, A[0][1], A[0][2]}, {A[1][0], A[1][1] - l, A[1][2]}, {A[2][0], A[2][1], A[2][2] - l}}
	size := r[0].dot(r[0]) + r[1].dot(r[1]) + r[2].dot(r[2])
	var best float64
	for _, c := range [3]vec3{r[0].cross(r[1]), r[0].cross(r[2]), r[1].cross(r[2])} {
		if n := c.dot(c); n > best {
			best, v = n, c
		}
	}
	if !(best > 1e-12*size*size) {
		return vec3{}, false
	}
	return v.scale(1 / math.Sqrt(best)), true
}

// positivePartJacobi is positivePart by cyclic Jacobi on A = K: the eigen-decomposition to
// rounding, then V max(Λ, 0) Vᵀ.
func positivePartJacobi(K []float64, A mat3) {
	V := jacobiEigen(&A)
	l := [3]float64{max(A[0][0], 0), max(A[1][1], 0), max(A[2][2], 0)} // the clipped eigenvalues
	for i := range 3 {
		for j := range 3 {
			var s float64
			for e := range 3 {
				s += V[i][e] * l[e] * V[j][e]
			}
			K[3*i+j] = s
		}
	}
}

// jacobiEigen diagonalizes the symmetric A in place by cyclic Jacobi sweeps until its
// off-diagonal entries are at rounding level relative to its diagonal, and returns the
// rotation V with A_before = V A_after Vᵀ (the eigenvectors as columns).
func jacobiEigen(A *mat3) mat3 {
	V := identity3()
	for range 50 {
		off := math.Abs(A[0][1]) + math.Abs(A[0][2]) + math.Abs(A[1][2])
		if off <= 1e-15*(math.Abs(A[0][0])+math.Abs(A[1][1])+math.Abs(A[2][2])) {
			break
		}
		for p := range 2 {
			for q := p + 1; q < 3; q++ {
				jacobiRotate(A, &V, p, q)
			}
		}
	}
	return V
}

// jacobiRotate zeroes A[p][q] by the plane rotation of Jacobi's method, A ← Jᵀ A J, and
// accumulates V ← V J.
func jacobiRotate(A, V *mat3, p, q int) {
	if A[p][q] == 0 {
		return
	}
	theta := (A[q][q] - A[p][p]) / (2 * A[p][q])
	t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
	c := 1 / math.Sqrt(t*t+1)
	s := t * c
	for k := range 3 {
		akp, akq := A[k][p], A[k][q]
		A[k][p], A[k][q] = c*akp-s*akq, s*akp+c*akq
	}
	for k := range 3 {
		apk, aqk := A[p][k], A[q][k]
		A[p][k], A[q][k] = c*apk-s*aqk, s*apk+c*aqk
	}
	for k := range 3 {
		vkp, vkq := V[k][p], V[k][q]
		V[k][p], V[k][q] = c*vkp-s*vkq, s*vkp+c*vkq
	}
}

func det3(A mat3) float64 {
	return A[0][0]*(A[1][1]*A[2][2]-A[1][2]*A[2][1]) -
		A[0][1]*(A[1][0]*A[2][2]-A[1][2]*A[2][0]) +
		A[0][2]*(A[1][0]*A[2][1]-A[1][1]*A[2][0])
}

// minor2 is the smallest of the three principal 2×2 minors of A.
func minor2(A mat3) float64 {
	return min(A[0][0]*A[1][1]-A[0][1]*A[1][0], A[0][0]*A[2][2]-A[0][2]*A[2][0],
		A[1][1]*A[2][2]-A[1][2]*A[2][1])
}

// HasPfaffianGeometricStiffness reports whether K_g levers the loads of every constraint
// row when GeometricStiffness is given the Pfaffian rows' multipliers μ after λ
// (dae.PfaffianStiffMassSolver): true where HasGeometricStiffness is false only for the
// knife edges (knifePointLoads); rolling disks (their contact point moves on the disk) and
// flexible bodies' joints keep it false.
func (s *System) HasPfaffianGeometricStiffness() bool {
	if len(s.m.disks)+len(s.m.flexCuts) > 0 {
		return false
	}
	for _, fr := range s.m.frictions {
		if fr.cut >= 0 {
			return false
		}
	}
	return true
}

// HasGeometricStiffness reports whether K_g levers the loads of every constraint row
// (dae.StiffMassSolver): the held coordinates' rows (drives, friction's hold rows) act
// along their axes, the loop closures' at their points (cutLoads); knife edges, rolling
// disks and flexible bodies' joints press on the bodies with loads it does not sum
// (HasConstraintForce), and friction on a cut joint acts through the rows' reaction as a
// load on the coordinates, so K_g is off on such models.
func (s *System) HasGeometricStiffness() bool {
	if !s.HasConstraintForce() {
		return false
	}
	for _, fr := range s.m.frictions {
		if fr.cut >= 0 {
			return false
		}
	}
	return true
}

// GeometricStiffnessLen returns the length of the storage GeometricStiffness writes
// (dae.StiffMassSolver): a 3×3 matrix per tree frame.
func (s *System) GeometricStiffnessLen() int { return kgSize * s.nt }

// GeometricStiffness writes into kg every body's geometric stiffness K_m (geomstiff.go) at
// (t, q, v, a) with the loop-closure rows' loads −Gᵀλ of the multipliers lambda (nil:
// none; with the knife edges' μ after λ, their loads −Aᵀμ too, knifePointLoads), clipped
// to its positive semidefinite part (dae.StiffMassSolver): one Newton-Euler pass and one
// pass over the cut rows, O(N + rows).
func (s *System) GeometricStiffness(kg []float64, t float64, q, v, a, lambda []float64) {
	s.m.kinematics(s.w, q, v)
	s.geometricStiffness(kg, a, lambda, true)
}

// AddGeometricStiffnessMul adds k Σ Φ_mᵀ K_m Φ_m x to dst with the K_m of kg
// (GeometricStiffness, dae.StiffMassSolver): the joint rates x give each body's angular
// rate Φ_m x by the outward sweep of the velocity recursion, K_m turns it into a couple
// (a couple is the same at every reference point, so the base-coordinate sums need no
// transport), and the inward sweep sums the couples over each subtree onto the joint
// axes. O(N), K_g never formed. Only the angular halves take part (the rates' linear
// halves never reach a couple), written out on the arrays in place: the operations of
// sv's add and dot, mat3's mulv and scale in their order, without their 6-vector copies.
func (s *System) AddGeometricStiffnessMul(dst []float64, t float64, q, x, kg []float64, k float64) {
	m, w := s.m, s.w
	m.kinematics(w, q, nil)
	n := len(m.prims)
	S, A, F, bare := w.s[:n], w.A[:n], w.F[:n], w.bare[:n]
	x, dst, kg = x[:n], dst[:n], kg[:kgSize*n]
	for i := range S {
		si, a, xi := &S[i], &A[i], x[i]
		a0, a1, a2 := si[0]*xi, si[1]*xi, si[2]*xi
		if p := m.prims[i].parent; p != Ground {
			ap := &A[p]
			a0, a1, a2 = a0+ap[0], a1+ap[1], a2+ap[2]
		}
		a[0], a[1], a[2] = a0, a1, a2
		f := &F[i]
		if bare[i] {
			f[0], f[1], f[2] = 0, 0, 0
			continue
		}
		K := kg[kgSize*i : kgSize*i+kgSize]
		f[0] = (K[0]*a0 + K[1]*a1 + K[2]*a2) * k
		f[1] = (K[3]*a0 + K[4]*a1 + K[5]*a2) * k
		f[2] = (K[6]*a0 + K[7]*a1 + K[8]*a2) * k
	}
	for i := n - 1; i >= 0; i-- {
		si, f := &S[i], &F[i]
		dst[i] += 0 + si[0]*f[0] + si[1]*f[1] + si[2]*f[2]
		if p := m.prims[i].parent; p != Ground {
			fp := &F[p]
			fp[0], fp[1], fp[2] = fp[0]+f[0], fp[1]+f[1], fp[2]+f[2]
		}
	}
}

// mat3ByRows is the 3×3 matrix stored by rows in K[:9].
func mat3ByRows(K []float64) mat3 {
	return mat3{{K[0], K[1], K[2]}, {K[3], K[4], K[5]}, {K[6], K[7], K[8]}}
}

// StiffMassSolve writes x = (M(q) + k Σ Φ_mᵀ K_m Φ_m)⁻¹ b with the K_m of kg
// (GeometricStiffness), by the articulated-body recursion at zero velocity and without
// gravity; the coordinates where locked[i] (locked nil: none) are prescribed as in
// LockedMassSolve. O(N), neither M nor the stiffness formed (dae.StiffMassSolver).
func (s *System) StiffMassSolve(x []float64, t float64, q, b []float64, locked []bool, kg []float64, k float64) {
	s.massSolve(x, q, b, locked, kg, k)
	s.flexSolve(x, q, b)
}
