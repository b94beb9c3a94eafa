package spatial

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/lie"
)

// LieSystem is an assembled spatial System seen on the Lie group (SO(3) × ℝ³)ᴺ (seed 002,
// Remark 5 and eqs. 33-34; dae.LieSystem): the same stored q (x, p per body, 7 numbers,
// p a unit quaternion), velocities w = (u, Ω) per body with u = ẋ in the inertial frame
// and Ω the angular velocity in the body frame, and the joint rows of the System without
// the normalizations |p|² = 1, which the group keeps by construction.
//
// Everything is derived from the Euler-parameter equations by the velocity map
//
//	q̇ = E(q) w,   E = blockdiag(I₃, ½ G(p)ᵀ),   ½ G(p)ᵀ Ω = ½ p ⊗ (0, Ω)   (seed 002, eq. 39),
//
// and the projection of the Euler-parameter equations M q̈ = f − Gᵀλ onto the velocities
// (Eᵀ annihilates the normalization rows' gradient 2p). On unit quaternions, with
// G(p) G(p)ᵀ = I₃ and G(p) x = vec(p̄ ⊗ x):
//
//	mass   Eᵀ M E = diag(m I₃, J'), constant; Eᵀ M Ė w = 0 (Ė w = (0, −¼|Ω|² p), G(p) p = 0),
//	force  f_Lie = Eᵀ f(q, E w): the quadratic velocity force projects to the gyroscopic
//	       term, ½ G(p)·(−4 G(ṗ)ᵀ J'Ω) = −Ω × J'Ω, so it is not added again,
//	B      = G E (joint rows kept),   γ_Lie = γ(q, E w) + ¼ Σ_b |Ω_b|² G_{p_b} p_b.
//
// The derivatives are the chain rule of the System's analytic ones along q∘exp(ε e_j),
// whose direction in q is E e_j: with h = f(q, E w) − Gᵀλ and P(Ω) the derivative of E w
// along the group (rotation columns ¼ p ⊗ (0, e_k) ⊗ (0, Ω)),
//
//	K_t = −[Eᵀ (h_q E + f_q̇ P(Ω)) + D(h)],   D: per body ¼(−(p·h_p) I₃ + (G(p) h_p)~),
//	C_t = −Eᵀ f_q̇ E,   d(B w) along the group = (∂(G E w)/∂q) E + G P(Ω_w),
//
// D being the derivative of Eᵀ itself, and ∂(G u)/∂q from the joint rows' Hessians (the
// stabilized index-2 form of lie-genalpha uses it). The matrices are dense (nv×nv, as the
// contract's), and the chain rule walks them block by block: a step costs O(N²) storage
// and the integrator's dense factorization O(N³), so large chains belong to the
// Euler-parameter route's sparse methods (BENCHMARKS.md, "Lie-group adapter").
//
// Forces that depend on λ (joint friction) have no place in dae.LieSystem and are
// refused by NewLieSystem. One LieSystem owns scratch and serves one goroutine; its
// evaluations do not allocate.
type LieSystem struct {
	s          *System
	n          int   // moving bodies
	rows       []int // the System's constraint rows kept as Φ (joint rows only)
	nq, nv, nc int
	ncFull     int

	der *dae.Derivatives

	qd, f, h       []float64 // E w, f(q, E w) and h = f − Gᵀλ (length 7N)
	gFull, lamFull []float64
	G, S           *mat.Dense      // ncFull×7N: G and ∂(G u)/∂q
	fq, fv, gl     *mat.Dense      // 7N×7N: ∂f/∂q, ∂f/∂q̇, ∂(Gᵀλ)/∂q
	x              *mat.Dense      // 7N×6N: h_q E + f_q̇ P
	ec, pc         [][3][4]float64 // per body: rotation columns of E and of P(Ω) (columns)
	// The bodies whose columns can be nonzero in each row of G (and ∂(G u)/∂q) and of the
	// 7N×7N derivative matrices (the System's patterns): the products with E and P(Ω)
	// visit only those.
	gBodies, cBodies [][]int
	pf               pfaffianScratch // the rolling disks' rows (liepfaffian.go)
	names            []string        // CoordinateName, made once: the integrator asks on failures, which must not allocate
}

var (
	_ dae.LieSystem = (*LieSystem)(nil)
	_ dae.Namer     = (*LieSystem)(nil)
)

// NewLieSystem adapts s to the Lie group, keeping as Φ the constraint rows rows of s (nil:
// every joint row; normalization rows 0..N−1 are always dropped, and a list that drops one
// as redundant is refused, since the group keeps |p| = 1 and the joint rows would then be
// dependent). A System with joint friction (its forces depend on λ) is refused; rolling
// disks' nonholonomic rows become the LieSystem's Pfaffian rows in the algebra's
// velocities (dae.Nonholonomic on the group, liepfaffian.go).
func NewLieSystem(s *System, rows []int) (*LieSystem, error) {
	if len(s.frictions) > 0 {
		return nil, fmt.Errorf("spatial: Lie-group route: joint friction (%d joint(s)) makes the forces depend on λ, which dae.LieSystem cannot take; remove the friction or use the Euler-parameter route", len(s.frictions))
	}
	n := s.nbody
	var kept []int
	if rows == nil {
		for r := n; r < s.nc; r++ {
			kept = append(kept, r)
		}
	} else {
		for r := range n {
			if !slices.Contains(rows, r) {
				return nil, fmt.Errorf("spatial: Lie-group route: the normalization row %s was found redundant; the group keeps |p| = 1, so the joint rows kept would be dependent", s.ConstraintName(r))
			}
		}
		for _, r := range rows {
			if r >= n {
				kept = append(kept, r)
			}
		}
	}
	nq, nc := s.nq, s.nc
	l := &LieSystem{s: s, n: n, rows: kept, nq: nq, nv: 6 * n, nc: len(kept), ncFull: nc,
		der: dae.NewDerivatives(s)}
	l.qd, l.f, l.h = make([]float64, nq), make([]float64, nq), make([]float64, nq)
	l.gFull, l.lamFull = make([]float64, nc), make([]float64, nc)
	l.G, l.S = mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil)
	l.fq, l.fv, l.gl = mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
	l.x = mat.NewDense(nq, l.nv, nil)
	l.ec, l.pc = make([][3][4]float64, n), make([][3][4]float64, n)
	for _, b := range s.bodies[1:] {
		for _, x := range [...]string{".x", ".y", ".z", ".wx", ".wy", ".wz"} {
			l.names = append(l.names, b.Name+x)
		}
	}
	l.gBodies = bodiesOf(s.ConstraintPattern(), nc, n)
	l.cBodies = bodiesOf(s.CouplingPattern(), nq, n)
	l.pf = newPfaffianScratch(s, nq, n)
	return l, nil
}

// bodiesOf lists, for each of the rows rows of a pattern (column lists over q), the bodies
// owning its columns; every body for every row when the pattern is nil.
func bodiesOf(pattern [][]int, rows, n int) [][]int {
	all := make([]int, n)
	for b := range all {
		all[b] = b
	}
	out := make([][]int, rows)
	for i := range out {
		if pattern == nil {
			out[i] = all
			continue
		}
		for _, c := range pattern[i] {
			if b := c / 7; !slices.Contains(out[i], b) {
				out[i] = append(out[i], b)
			}
		}
	}
	return out
}

// Rows returns the System's constraint rows that are the LieSystem's Φ, in order.
func (l *LieSystem) Rows() []int { return l.rows }

// System returns the Euler-parameter System l adapts.
func (l *LieSystem) System() *System { return l.s }

// CoordinateName names velocity i of the algebra after its body: BODY.x, .y, .z (ẋ) and
// BODY.wx, .wy, .wz (Ω in body axes), so that lie-genalpha's failures name the body
// (dae.Namer).
func (l *LieSystem) CoordinateName(i int) string {
	if i < 0 || i >= l.nv {
		return ""
	}
	return l.names[i]
}

// ConstraintName names row i of Φ as the System names it ("joint.suffix").
func (l *LieSystem) ConstraintName(i int) string {
	if i < 0 || i >= l.nc {
		return ""
	}
	return l.s.ConstraintName(l.rows[i])
}

// LieSize returns (7N, 6N, joint rows kept).
func (l *LieSystem) LieSize() (nq, nv, nc int) { return l.nq, l.nv, l.nc }

// Compose writes q∘exp(w) body by body (lie.ComposeBodies).
func (l *LieSystem) Compose(dst, q, w []float64) { lie.ComposeBodies(dst, q, w) }

// Tangent writes diag(I₃, T(Ω_b)) per body.
func (l *LieSystem) Tangent(dst *mat.Dense, w []float64) {
	r := dst.RawMatrix()
	lie.TangentBodies(r.Data, r.Stride, w)
}

// Bracket writes (0, Ω_a × Ω_b) per body.
func (l *LieSystem) Bracket(dst, a, b []float64) { lie.BracketBodies(dst, a, b) }

// EulerVelocity writes q̇ = E(q) w: (u, ½ p ⊗ (0, Ω)) per body.
func (l *LieSystem) EulerVelocity(dst, q, w []float64) {
	for b := range l.n {
		c, o := 7*b, 6*b
		copy(dst[c:c+3], w[o:o+3])
		p := bodyP(q, c)
		G := gMat(&p)
		pd := mulGT(&G, Vec3{w[o+3], w[o+4], w[o+5]})
		for a := range 4 {
			dst[c+3+a] = pd[a] / 2
		}
	}
}

// LieVelocity writes w = (ẋ, 2 G(p) ṗ) per body, the inverse of EulerVelocity on
// pᵀṗ = 0 (seed 002, eq. 38).
func (l *LieSystem) LieVelocity(dst, q, qdot []float64) { l.mapG(dst, q, qdot, 2) }

// EulerAcceleration writes q̈ = E ẇ + Ė w = (u̇, ½ p ⊗ (0, Ω̇) − ¼ |Ω|² p) per body.
func (l *LieSystem) EulerAcceleration(dst, q, w, wdot []float64) {
	l.EulerVelocity(dst, q, wdot)
	for b := range l.n {
		c, o := 7*b, 6*b
		om := Vec3{w[o+3], w[o+4], w[o+5]}
		s := om.Dot(om) / 4
		for a := range 4 {
			dst[c+3+a] -= s * q[c+3+a]
		}
	}
}

// project writes Eᵀ y (length 6N) for y of length 7N: (y_x, ½ G(p) y_p) per body.
func (l *LieSystem) project(dst, q, y []float64) { l.mapG(dst, q, y, 0.5) }

// mapG writes (y_x, s G(p) y_p) per body (length 6N) for y of length 7N.
func (l *LieSystem) mapG(dst, q, y []float64, s float64) {
	for b := range l.n {
		c, o := 7*b, 6*b
		copy(dst[o:o+3], y[c:c+3])
		p, yp := bodyP(q, c), bodyP(y, c)
		G := gMat(&p)
		r := mulG(&G, &yp)
		for k := range 3 {
			dst[o+3+k] = s * r[k]
		}
	}
}

// Mass writes diag(m I₃, J') per body (= Eᵀ M E on unit quaternions).
func (l *LieSystem) Mass(dst *mat.Dense, _ float64, _ []float64) {
	dst.Zero()
	for b, body := range l.s.bodies[1:] {
		o := 6 * b
		for i := range 3 {
			dst.Set(o+i, o+i, body.Mass)
			for j := range 3 {
				dst.Set(o+3+i, o+3+j, body.Inertia[i][j])
			}
		}
	}
}

// Force writes Eᵀ f(t, q, E w), gyroscopic term −Ω × J'Ω included.
func (l *LieSystem) Force(dst []float64, t float64, q, w []float64) {
	l.EulerVelocity(l.qd, q, w)
	l.s.Force(l.f, t, q, l.qd)
	l.project(dst, q, l.f)
}

// Constraint writes the kept joint rows of g(t, q).
func (l *LieSystem) Constraint(dst []float64, t float64, q []float64) {
	l.s.Constraint(l.gFull, t, q)
	l.pick(dst, l.gFull)
}

func (l *LieSystem) pick(dst, full []float64) {
	for i, r := range l.rows {
		dst[i] = full[r]
	}
}

// ConstraintJacobian writes B = G E on the kept rows.
func (l *LieSystem) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	l.s.ConstraintJacobian(l.G, t, q)
	l.columns(q, nil)
	for i, r := range l.rows {
		l.rowTimes(dst.RawRowView(i), l.G.RawRowView(r), l.gBodies[r])
	}
}

// ConstraintTimeDerivative writes the kept rows of g_t.
func (l *LieSystem) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	l.s.ConstraintTimeDerivative(l.gFull, t, q)
	l.pick(dst, l.gFull)
}

// Gamma writes γ(q, E w) + ¼ Σ_b |Ω_b|² G_{p_b} p_b on the kept rows: the Euler-parameter
// γ less G Ė w.
func (l *LieSystem) Gamma(dst []float64, t float64, q, w []float64) {
	l.EulerVelocity(l.qd, q, w)
	l.s.Gamma(l.gFull, t, q, l.qd)
	l.s.ConstraintJacobian(l.G, t, q)
	for i, r := range l.rows {
		g := l.gFull[r]
		row := l.G.RawRowView(r)
		for b := range l.n {
			c, o := 7*b, 6*b
			om := Vec3{w[o+3], w[o+4], w[o+5]}
			s := om.Dot(om) / 4
			for a := range 4 {
				g += s * row[c+3+a] * q[c+3+a]
			}
		}
		dst[i] = g
	}
}

// pColumns returns the rotation columns of P(Ω) at p: column k is ¼ p ⊗ (−Ω_k, e_k × Ω),
// the derivative of ½ p ⊗ (0, Ω) along p ← p ⊗ exp(ε e_k).
func pColumns(p [4]float64, om Vec3) (cols [3][4]float64) {
	for k := range 3 {
		var e Vec3
		e[k] = 1
		x := e.Cross(om)
		r := Quat(p).Mul(Quat{-om[k], x[0], x[1], x[2]})
		for a := range 4 {
			cols[k][a] = r[a] / 4
		}
	}
	return cols
}

// columns fills, per body, the rotation columns of E (½ G(p)ᵀ e_k) and, with w, of P(Ω_w).
func (l *LieSystem) columns(q, w []float64) {
	for b := range l.n {
		p := bodyP(q, 7*b)
		G := gMat(&p)
		for k := range 3 {
			for j := range 4 {
				l.ec[b][k][j] = G[k][j] / 2
			}
		}
		if w != nil {
			o := 6 * b
			l.pc[b] = pColumns(p, Vec3{w[o+3], w[o+4], w[o+5]})
		}
	}
}

// rowTimes writes a E (length 6N) for one row a of length 7N whose nonzero columns belong
// to bodies, with the columns of the last call of columns.
func (l *LieSystem) rowTimes(dst, a []float64, bodies []int) {
	clear(dst)
	for _, b := range bodies {
		c, o := 7*b, 6*b
		ap := [4]float64{a[c+3], a[c+4], a[c+5], a[c+6]}
		for k := range 3 {
			dst[o+k] = a[c+k]
			dst[o+3+k] = dot4(&ap, &l.ec[b][k])
		}
	}
}

func dot4(a, b *[4]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] }

// leftET writes Eᵀ x (6N × 6N) of x (7N × 6N) into dst, with the columns of E of the last
// call of columns: translation rows copied, rotation row k of body b = Σ_a E_ak x_{p_a}.
func (l *LieSystem) leftET(dst, x *mat.Dense) {
	for b := range l.n {
		c, o := 7*b, 6*b
		for k := range 3 {
			copy(dst.RawRowView(o+k), x.RawRowView(c+k))
			out := dst.RawRowView(o + 3 + k)
			e := &l.ec[b][k]
			r0, r1, r2, r3 := x.RawRowView(c+3), x.RawRowView(c+4), x.RawRowView(c+5), x.RawRowView(c+6)
			for j := range out {
				out[j] = e[0]*r0[j] + e[1]*r1[j] + e[2]*r2[j] + e[3]*r3[j]
			}
		}
	}
}

// Stiffness writes K_t = −[Eᵀ (h_q E + f_q̇ P(Ω)) + D(h)], h = f(q, E w) − Gᵀλ (the mass
// term vanishes: Eᵀ M E is constant on the group).
func (l *LieSystem) Stiffness(dst *mat.Dense, t float64, q, w, _, lambda []float64) {
	l.EulerVelocity(l.qd, q, w)
	l.applied(t, q, l.qd, lambda)
	clear(l.lamFull)
	for i, r := range l.rows {
		l.lamFull[r] = lambda[i]
	}
	l.der.ForceDerivativeQ(l.fq, t, q, l.qd)
	l.der.ConstraintForceDerivative(l.gl, t, q, l.lamFull)
	l.fq.Sub(l.fq, l.gl)
	l.der.ForceDerivativeV(l.fv, t, q, l.qd)
	l.columns(q, w)
	for i := range l.nq {
		l.rowTimes(l.x.RawRowView(i), l.fq.RawRowView(i), l.cBodies[i])
		l.rowAdd(l.x.RawRowView(i), l.fv.RawRowView(i), l.cBodies[i])
	}
	l.leftET(dst, l.x)
	l.addETDerivative(dst, q, l.h)
	negate(dst)
}

// addETDerivative adds D(y), the derivative of Eᵀ y (y of length 7N held fixed) along
// q∘exp(ε e_j): per body ¼(−(p·y_p) I₃ + (G(p) y_p)~) in the rotation block.
func (l *LieSystem) addETDerivative(dst *mat.Dense, q, y []float64) {
	for b := range l.n {
		c, o := 7*b, 6*b
		p, yp := bodyP(q, c), bodyP(y, c)
		G := gMat(&p)
		u0, uv := dot4(&p, &yp), mulG(&G, &yp)
		d := lie.Hat(uv)
		for i := range 3 {
			d[i][i] -= u0
			for j := range 3 {
				dst.Set(o+3+i, o+3+j, dst.At(o+3+i, o+3+j)+d[i][j]/4)
			}
		}
	}
}

// rowAdd adds a P(Ω) for one row a of length 7N into dst (length 6N), visiting the
// columns of bodies.
func (l *LieSystem) rowAdd(dst, a []float64, bodies []int) {
	for _, b := range bodies {
		c, o := 7*b, 6*b
		ap := [4]float64{a[c+3], a[c+4], a[c+5], a[c+6]}
		for k := range 3 {
			dst[o+3+k] += dot4(&ap, &l.pc[b][k])
		}
	}
}

// Damping writes C_t = −Eᵀ f_q̇ E at (q, E w).
func (l *LieSystem) Damping(dst *mat.Dense, t float64, q, w []float64) {
	l.EulerVelocity(l.qd, q, w)
	l.der.ForceDerivativeV(l.fv, t, q, l.qd)
	l.columns(q, nil)
	for i := range l.nq {
		l.rowTimes(l.x.RawRowView(i), l.fv.RawRowView(i), l.cBodies[i])
	}
	l.leftET(dst, l.x)
	negate(dst)
}

// ConstraintJacobianDerivative writes d/dε (B(q∘exp(ε e_j)) w) = (∂(G u)/∂q) E + G P(Ω_w)
// at u = E w, on the kept rows.
func (l *LieSystem) ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64) {
	l.EulerVelocity(l.qd, q, w)
	l.jacobianDerivative(t, q, l.qd)
	l.s.ConstraintJacobian(l.G, t, q)
	l.columns(q, w)
	for i, r := range l.rows {
		out := dst.RawRowView(i)
		l.rowTimes(out, l.S.RawRowView(r), l.gBodies[r])
		l.rowAdd(out, l.G.RawRowView(r), l.gBodies[r])
	}
}

// NormalizeQuaternions divides every body's p in q (7 numbers per body) by its norm.
func NormalizeQuaternions(q []float64) {
	for c := 0; c+7 <= len(q); c += 7 {
		p := Quat(bodyP(q, c)).Normalized()
		copy(q[c+3:c+7], p[:])
	}
}

// NormalizationMultipliers writes the multipliers of the normalization rows that the
// Euler-parameter System would have at (t, q, q̇) with the joint multipliers lambda (the
// LieSystem's rows, then the Pfaffian rows' μ when lambda is longer): the p rows of
// M q̈ = f − Gᵀλ − Aᵀμ − 2p λ_n, multiplied by pᵀ (pᵀ M_pp = 0, G(p) p = 0), give
// λ_n = pᵀ(f_p − (Gᵀλ + Aᵀμ)_p) / (2|p|²).
func (l *LieSystem) NormalizationMultipliers(dst []float64, t float64, q, qdot, lambda []float64) {
	l.applied(t, q, qdot, lambda)
	for b := range l.n {
		p, hp := bodyP(q, 7*b), bodyP(l.h, 7*b)
		dst[b] = dot4(&p, &hp) / (2 * dot4(&p, &p))
	}
}

// applied writes h = f(t, q, q̇) − Gᵀλ (the kept rows' λ) − Aᵀμ (μ = lambda[nc:], when
// lambda holds it) into l.h and G into l.G.
func (l *LieSystem) applied(t float64, q, qdot, lambda []float64) {
	if len(lambda) > l.nc {
		l.pfaffianForce(l.pf.y, t, q, lambda[l.nc:])
	}
	l.s.Force(l.h, t, q, qdot)
	l.s.ConstraintJacobian(l.G, t, q)
	for i, r := range l.rows {
		if lambda[i] != 0 {
			for j, g := range l.G.RawRowView(r) {
				l.h[j] -= lambda[i] * g
			}
		}
	}
	if len(lambda) > l.nc {
		for j, y := range l.pf.y {
			l.h[j] -= y
		}
	}
}

// negate writes −A into A in place (mat.Dense.Scale on an aliased receiver allocates).
func negate(a *mat.Dense) {
	r := a.RawMatrix()
	for i := range r.Rows {
		row := r.Data[i*r.Stride : i*r.Stride+r.Cols]
		for j := range row {
			row[j] = -row[j]
		}
	}
}

// jacobianDerivative writes the kept rows of ∂(G u)/∂q into l.S (full row numbering): row
// r is Σ_k W_k (∇²c_k u)ᵀ over its pair's columns, the Hessians of the joint coordinates
// (kinematics.go) contracted with u.
func (l *LieSystem) jacobianDerivative(t float64, q, u []float64) {
	var k pairKin
	var e coordEval
	var up [14]float64
	last := -1
	for _, r := range l.rows {
		rw := &l.s.rows[r-l.n]
		w, _, _, _, _, _ := rw.Weights(t)
		p := rw.Terms[0].Pair
		pr := &l.s.pairs[p]
		if p != last {
			pr.kinRows(q, &k)
			up = pr.rate(u)
			last = p
		}
		out := l.S.RawRowView(r)
		clear(out)
		for i := range rw.N {
			e.eval(&rw.Terms[i].Coord, &k, true)
			for a, ca := range pr.col {
				if ca < 0 {
					continue
				}
				var x float64
				for b, ub := range up {
					x += e.hess[a][b] * ub
				}
				out[ca] += w[i] * x
			}
		}
	}
}
