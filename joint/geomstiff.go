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
//
// The Newton-Euler pass is bodyForces' (the same operations in their order) kept to what
// the levers read: a body's force only by its linear half (a couple has no lever), w.A
// whole (the children's accelerations need both halves), the subtree sums in the linear
// halves of w.F (their angular halves are left as they were), each body's centre-of-mass
// lever taken in the outward sweep and each joint's in the inward one that sums the
// forces.
func (s *System) geometricStiffness(kg, a, lambda []float64, clip bool) {
	m, w := s.m, s.w
	n := len(m.prims)
	kg = kg[:kgSize*n]
	for i := range n {
		A := &w.A[i]
		*A = w.c[i]
		if a != nil {
			sa, si := a[i], &w.s[i]
			A[0], A[1], A[2], A[3], A[4], A[5] = A[0]+si[0]*sa, A[1]+si[1]*sa, A[2]+si[2]*sa,
				A[3]+si[3]*sa, A[4]+si[4]*sa, A[5]+si[5]*sa
		}
		if p := m.prims[i].parent; p != Ground {
			Ap := &w.A[p]
			A[0], A[1], A[2], A[3], A[4], A[5] = A[0]+Ap[0], A[1]+Ap[1], A[2]+Ap[2],
				A[3]+Ap[3], A[4]+Ap[4], A[5]+Ap[5]
		}
		K := (*[kgSize]float64)(kg[kgSize*i : kgSize*i+kgSize])
		*K = [kgSize]float64{}
		F := &w.F[i]
		if w.bare[i] { // no body: I and the external force are zero, so is its force
			F[3], F[4], F[5] = 0, 0, 0
			continue
		}
		f := bodyForceLin(&w.I[i], A, &w.V[i], &w.fx[i], w.still)
		F[3], F[4], F[5] = f[0], f[1], f[2]
		addLever(K[:], f.scale(-1), comLever(&w.R[i], &w.x[i], &m.prims[i].body.COM))
	}
	W := s.cutPointLoads(kg, lambda)
	if len(lambda) > s.nc {
		s.knifePointLoads(kg, W, lambda[s.nc:])
	}
	loaded := len(lambda) > 0     // W is zero without multipliers: no sums to carry
	for j := n - 1; j >= 0; j-- { // W[j]: the cut loads on j's subtree; F[j]: j's subtree's forces
		p := m.prims[j].parent
		if p == Ground {
			continue
		}
		F, Fp := &w.F[j], &w.F[p]
		if !w.bare[p] { // a joint inside a composite joint has no body to load
			Wj := &W[j]
			addLever(kg[kgSize*p:], vec3{Wj[3] - F[3], Wj[4] - F[4], Wj[5] - F[5]}, w.x[j].sub(w.x[p]))
		}
		Fp[3], Fp[4], Fp[5] = Fp[3]+F[3], Fp[4]+F[4], Fp[5]+F[5]
		if loaded {
			W[p] = W[p].add(W[j])
		}
	}
	if clip {
		for i := range n {
			if !w.bare[i] {
				positivePart(kg[kgSize*i : kgSize*(i+1)])
			}
		}
	}
}

// comLever is the lever c − x of the centre of mass c = x + R e from the frame's origin x,
// rounded as the centre of mass is (bodyTo) and then the lever.
func comLever(R *mat3, x *vec3, e *[3]float64) vec3 {
	R0, R1, R2 := &R[0], &R[1], &R[2]
	c0 := x[0] + (R0[0]*e[0] + R0[1]*e[1] + R0[2]*e[2])
	c1 := x[1] + (R1[0]*e[0] + R1[1]*e[1] + R1[2]*e[2])
	c2 := x[2] + (R2[0]*e[0] + R2[1]*e[1] + R2[2]*e[2])
	return vec3{c0 - x[0], c1 - x[1], c2 - x[2]}
}

// bodyForceLin is the linear half of bodyForces' body force I A + V ×* (I V) − f_x (the
// gravity force f_x): the inertia's rows 3-5 (mulv), the force cross product's linear
// half, which reads only (I V)'s linear half (crossF), and no velocity term when still (V
// zero). A rigid body's I (rigidInertiaTo) has rows 3-5 [−m c̃ | m 1]: three entries of
// each are exact zeros, whose products mulv adds to +0 without changing its sums, so they
// are left out, the others taken in mulv's order (the same values).
func bodyForceLin(I *inertia6, A, V, fx *sv, still bool) vec3 {
	I3, I4, I5 := &I[3], &I[4], &I[5]
	f0 := I3[1]*A[1] + I3[2]*A[2] + I3[3]*A[3]
	f1 := I4[0]*A[0] + I4[2]*A[2] + I4[4]*A[4]
	f2 := I5[0]*A[0] + I5[1]*A[1] + I5[5]*A[5]
	if !still {
		h0 := I3[1]*V[1] + I3[2]*V[2] + I3[3]*V[3]
		h1 := I4[0]*V[0] + I4[2]*V[2] + I4[4]*V[4]
		h2 := I5[0]*V[0] + I5[1]*V[1] + I5[5]*V[5]
		f0 += V[1]*h2 - V[2]*h1
		f1 += V[2]*h0 - V[0]*h2
		f2 += V[0]*h1 - V[1]*h0
	}
	return vec3{f0 - fx[3], f1 - fx[4], f2 - fx[5]}
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

// addLever adds (F·r) 1 − ½ (F rᵀ + r Fᵀ) to the 3×3 matrix K (by rows), written out:
// each off-diagonal pair takes one value, F_i r_j + r_i F_j being F_j r_i + r_j F_i.
func addLever(K []float64, F, r vec3) {
	K = K[:kgSize]
	fr := F[0]*r[0] + F[1]*r[1] + F[2]*r[2]
	o01, o02, o12 := (F[0]*r[1]+r[0]*F[1])/2, (F[0]*r[2]+r[0]*F[2])/2, (F[1]*r[2]+r[1]*F[2])/2
	K[0] = K[0] - (F[0]*r[0]+r[0]*F[0])/2 + fr
	K[4] = K[4] - (F[1]*r[1]+r[1]*F[1])/2 + fr
	K[8] = K[8] - (F[2]*r[2]+r[2]*F[2])/2 + fr
	K[1], K[3] = K[1]-o01, K[3]-o01
	K[2], K[6] = K[2]-o02, K[6]-o02
	K[5], K[7] = K[5]-o12, K[7]-o12
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
// in closed form (cubicAngle); with λ₁ ≥ λ₂ ≥ λ₃ the clipped part has one eigenpair that
// matters: K₊ = K − λ₃ v₃ v₃ᵀ when only λ₃ < 0, λ₁ v₁ v₁ᵀ when only λ₁ > 0, 0 when none
// is positive, and that eigenvalue is simple, so its vector is a cross product of two
// rows of K − λ 1 (eigenvector). Only where the rows leave it ill-determined does it fall
// back to cyclic Jacobi (positivePartJacobi): about a tenth of Jacobi's instructions on
// the chains' K_m.
func positivePart(K []float64) {
	K = K[:kgSize]
	A := mat3{{K[0], K[1], K[2]}, {K[3], K[4], K[5]}, {K[6], K[7], K[8]}}
	if A[0][0] >= 0 && A[1][1] >= 0 && A[2][2] >= 0 && det3(&A) >= 0 && minor2(&A) >= 0 {
		return // positive semidefinite already: all principal minors nonnegative
	}
	q, p, phi := cubicAngle(&A)
	l1, l3 := q+2*p*math.Cos(phi), q+2*p*math.Cos(phi+2*math.Pi/3)
	l2 := A[0][0] + A[1][1] + A[2][2] - l1 - l3
	if l1 <= 0 {
		clear(K)
		return
	}
	keep := l2 < 0 // only λ₁ survives; else only λ₃ is cut
	l := l3
	if keep {
		l = l1
	}
	if v, ok := eigenvector(&A, l); ok {
		if keep {
			setOuter(K, &v, l)
			return
		}
		setOuter(K, &v, -l) // only λ₃ is cut: K − λ₃ v₃ v₃ᵀ
		K[0], K[1], K[2] = K[0]+A[0][0], K[1]+A[0][1], K[2]+A[0][2]
		K[3], K[4], K[5] = K[3]+A[1][0], K[4]+A[1][1], K[5]+A[1][2]
		K[6], K[7], K[8] = K[6]+A[2][0], K[7]+A[2][1], K[8]+A[2][2]
		return
	}
	positivePartJacobi(K, A)
}

// setOuter writes l v vᵀ into K (by rows) as l·v_i·v_j, left to right.
func setOuter(K []float64, v *vec3, l float64) {
	K = K[:kgSize]
	a0, a1, a2 := l*v[0], l*v[1], l*v[2]
	K[0], K[1], K[2] = a0*v[0], a0*v[1], a0*v[2]
	K[3], K[4], K[5] = a1*v[0], a1*v[1], a1*v[2]
	K[6], K[7], K[8] = a2*v[0], a2*v[1], a2*v[2]
}

// cubicAngle is the trigonometric solution of the symmetric A's characteristic cubic
// (A = q 1 + p B, det B = 2 cos 3φ): its eigenvalues are q + 2p cos(φ + 2πk/3), the largest
// at k = 0 and the smallest at k = 1, accurate to rounding relative to A's norm.
func cubicAngle(A *mat3) (q, p, phi float64) {
	q = (A[0][0] + A[1][1] + A[2][2]) / 3
	p1 := A[0][1]*A[0][1] + A[0][2]*A[0][2] + A[1][2]*A[1][2]
	d0, d1, d2 := A[0][0]-q, A[1][1]-q, A[2][2]-q
	p2 := d0*d0 + d1*d1 + d2*d2 + 2*p1
	if p2 == 0 {
		return q, 0, 0
	}
	p = math.Sqrt(p2 / 6)
	B := mat3{{d0 / p, A[0][1] / p, A[0][2] / p}, {A[1][0] / p, d1 / p, A[1][2] / p}, {A[2][0] / p, A[2][1] / p, d2 / p}}
	r := det3(&B) / 2
	if r < -1 {
		r = -1
	} else if r > 1 {
		r = 1
	}
	return q, p, math.Acos(r) / 3
}

// eigenvector returns the unit eigenvector of the symmetric A for its simple eigenvalue l:
// the longest cross product of two rows of A − l 1, which span the plane orthogonal to it.
// ok is false when every cross product is below 1e-6 of the rows' sizes (l within about
// 1e-6 of another eigenvalue), where the direction is not determined to working accuracy.
func eigenvector(A *mat3, l float64) (v vec3, ok bool) {
	a00, a01, a02 := A[0][0]-l, A[0][1], A[0][2]
	a10, a11, a12 := A[1][0], A[1][1]-l, A[1][2]
	a20, a21, a22 := A[2][0], A[2][1], A[2][2]-l
	size := (a00*a00 + a01*a01 + a02*a02) + (a10*a10 + a11*a11 + a12*a12) + (a20*a20 + a21*a21 + a22*a22)
	// The cross products r₀ × r₁, r₀ × r₂, r₁ × r₂ of the rows, the first longest kept.
	x0, x1, x2 := a01*a12-a02*a11, a02*a10-a00*a12, a00*a11-a01*a10
	best := x0*x0 + x1*x1 + x2*x2
	if !(best > 0) {
		best, x0, x1, x2 = 0, 0, 0, 0
	}
	if y0, y1, y2 := a01*a22-a02*a21, a02*a20-a00*a22, a00*a21-a01*a20; y0*y0+y1*y1+y2*y2 > best {
		best, x0, x1, x2 = y0*y0+y1*y1+y2*y2, y0, y1, y2
	}
	if y0, y1, y2 := a11*a22-a12*a21, a12*a20-a10*a22, a10*a21-a11*a20; y0*y0+y1*y1+y2*y2 > best {
		best, x0, x1, x2 = y0*y0+y1*y1+y2*y2, y0, y1, y2
	}
	if !(best > 1e-12*size*size) {
		return vec3{}, false
	}
	u := 1 / math.Sqrt(best)
	return vec3{u * x0, u * x1, u * x2}, true
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

func det3(A *mat3) float64 {
	return A[0][0]*(A[1][1]*A[2][2]-A[1][2]*A[2][1]) -
		A[0][1]*(A[1][0]*A[2][2]-A[1][2]*A[2][0]) +
		A[0][2]*(A[1][0]*A[2][1]-A[1][1]*A[2][0])
}

// minor2 is the smallest of the three principal 2×2 minors of A.
func minor2(A *mat3) float64 {
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
