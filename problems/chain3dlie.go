package problems

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
	"linkage/lie"
)

// LieChain3D is the 3D chain of chain3d:N on the Lie group (SO(3) × ℝ³)ᴺ: N rods (length
// chainBarL, mass chainBarM, inertia diag(m r²/2, m L²/12, m L²/12) in the body frame, r =
// chainRodR) on spherical joints, the first to the ground at the origin, released along +x
// at rest under gravity 9.81 along −z. Body k stores (x_k, p_k) (7 numbers, the layout of
// chain3d:N) and moves with v_k = (u_k, Ω_k); joint k joins the point s_A = (−L/2, 0, 0) of
// rod k to the point s_B = (L/2, 0, 0) of rod k − 1 (the origin for k = 0):
//
//	Φ_k = x_k + R_k s_A − x_{k−1} − R_{k−1} s_B = 0.
//
// Each term ±R s of Φ contributes, along q∘exp(εw) with the body's rotation part W,
//
//	B: ∓R s̃ W (translations ±I),   γ: ∓R Ω×(Ω×s),   d(B w): ±R (s × W_w)~ W,
//	K_t (from Bᵀλ, a = Rᵀλ): ±s̃ ã W,
//
// the same terms as LieHeavyTop's −R X; there are 3N constraints and no normalization rows
// (chain3d:N has 4N).
type LieChain3D struct {
	N int // number of rods, ≥ 1
}

var _ dae.LieSystem = LieChain3D{}

// NewLieChain3D returns the chain of n rods, 1 ≤ n ≤ maxChain3DN.
func NewLieChain3D(n int) (LieChain3D, error) {
	if n < 1 || n > maxChain3DN {
		return LieChain3D{}, fmt.Errorf("problems: Lie-group 3D chain: N = %d; want a whole number of rods in [1, %d]", n, maxChain3DN)
	}
	return LieChain3D{N: n}, nil
}

var (
	chainSA = [3]float64{-chainBarL / 2, 0, 0}
	chainSB = [3]float64{chainBarL / 2, 0, 0}
)

func chainInertia() [3]float64 {
	across := chainBarM * chainBarL * chainBarL / 12
	return [3]float64{chainBarM * chainRodR * chainRodR / 2, across, across}
}

// LieSize returns (7N, 6N, 3N).
func (c LieChain3D) LieSize() (nq, nv, nc int) { return 7 * c.N, 6 * c.N, 3 * c.N }

// Compose composes each body with exp of its part of w (lie.ComposeBodies).
func (c LieChain3D) Compose(dst, q, w []float64) { lie.ComposeBodies(dst, q, w) }

// Tangent writes the block diagonal diag(I₃, T(Ω_k)).
func (c LieChain3D) Tangent(dst *mat.Dense, w []float64) {
	r := dst.RawMatrix()
	lie.TangentBodies(r.Data, r.Stride, w)
}

// Bracket writes (0, Ω_a × Ω_b) per body.
func (c LieChain3D) Bracket(dst, a, b []float64) { lie.BracketBodies(dst, a, b) }

func chainRot(q []float64, k int) [3][3]float64 {
	return lie.Quat{q[7*k+3], q[7*k+4], q[7*k+5], q[7*k+6]}.Matrix()
}

func omega(v []float64, k int) [3]float64 { return [3]float64{v[6*k+3], v[6*k+4], v[6*k+5]} }

// Mass writes diag(m I₃, J) per rod.
func (c LieChain3D) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	j := chainInertia()
	for k := range c.N {
		for i := range 3 {
			dst.Set(6*k+i, 6*k+i, chainBarM)
			dst.Set(6*k+3+i, 6*k+3+i, j[i])
		}
	}
}

// Force writes gravity on the translations and −Ω × J Ω on the rotations.
func (c LieChain3D) Force(dst []float64, t float64, q, v []float64) {
	j := chainInertia()
	for k := range c.N {
		om := omega(v, k)
		g := lie.Cross(om, [3]float64{j[0] * om[0], j[1] * om[1], j[2] * om[2]})
		dst[6*k], dst[6*k+1], dst[6*k+2] = 0, 0, -chainBarM*9.81
		dst[6*k+3], dst[6*k+4], dst[6*k+5] = -g[0], -g[1], -g[2]
	}
}

// joint k's terms: rod k with +R s_A, rod k−1 with −R s_B (none for k = 0).
func (c LieChain3D) terms(k int, f func(body int, sign float64, s [3]float64)) {
	f(k, 1, chainSA)
	if k > 0 {
		f(k-1, -1, chainSB)
	}
}

// Constraint writes Φ_k.
func (c LieChain3D) Constraint(dst []float64, t float64, q []float64) {
	for k := range c.N {
		var phi [3]float64
		c.terms(k, func(b int, sg float64, s [3]float64) {
			r := chainRot(q, b)
			rs := lie.MatVec(&r, s)
			for i := range 3 {
				phi[i] += sg * (q[7*b+i] + rs[i])
			}
		})
		copy(dst[3*k:], phi[:])
	}
}

// addBlock adds sg·A into dst at (row, col).
func addBlock(dst *mat.Dense, row, col int, sg float64, a *[3][3]float64) {
	for i := range 3 {
		for j := range 3 {
			dst.Set(row+i, col+j, dst.At(row+i, col+j)+sg*a[i][j])
		}
	}
}

// mul3 returns A B.
func mul3(a, b *[3][3]float64) [3][3]float64 {
	var c [3][3]float64
	for i := range 3 {
		for j := range 3 {
			c[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j] + a[i][2]*b[2][j]
		}
	}
	return c
}

var eye3 = [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

// ConstraintJacobian writes B: ±(I₃, −R s̃) per term.
func (c LieChain3D) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for k := range c.N {
		c.terms(k, func(b int, sg float64, s [3]float64) {
			r := chainRot(q, b)
			st := lie.Hat(s)
			rs := mul3(&r, &st)
			addBlock(dst, 3*k, 6*b, sg, &eye3)
			addBlock(dst, 3*k, 6*b+3, -sg, &rs)
		})
	}
}

// ConstraintTimeDerivative writes Φ_t = 0.
func (c LieChain3D) ConstraintTimeDerivative(dst []float64, t float64, q []float64) { clear(dst) }

// Gamma writes γ_k = Σ ∓R Ω×(Ω×s).
func (c LieChain3D) Gamma(dst []float64, t float64, q, v []float64) {
	clear(dst)
	for k := range c.N {
		c.terms(k, func(b int, sg float64, s [3]float64) {
			r := chainRot(q, b)
			om := omega(v, b)
			a := lie.MatVec(&r, lie.Cross(om, lie.Cross(om, s)))
			for i := range 3 {
				dst[3*k+i] -= sg * a[i]
			}
		})
	}
}

// ConstraintJacobianDerivative writes d/dε (B(q∘exp(εe_j)) w): ±R (s × W_w)~ per term.
func (c LieChain3D) ConstraintJacobianDerivative(dst *mat.Dense, t float64, q, w []float64) {
	dst.Zero()
	for k := range c.N {
		c.terms(k, func(b int, sg float64, s [3]float64) {
			r := chainRot(q, b)
			h := lie.Hat(lie.Cross(s, omega(w, b)))
			rh := mul3(&r, &h)
			addBlock(dst, 3*k, 6*b+3, sg, &rh)
		})
	}
}

// Stiffness writes K_t: ±s̃ (R_bᵀ λ_k)~ on rod b's rotation block per term of joint k.
func (c LieChain3D) Stiffness(dst *mat.Dense, t float64, q, v, vdot, lambda []float64) {
	dst.Zero()
	for k := range c.N {
		l := [3]float64{lambda[3*k], lambda[3*k+1], lambda[3*k+2]}
		c.terms(k, func(b int, sg float64, s [3]float64) {
			r := chainRot(q, b)
			var a [3]float64 // Rᵀ λ
			for i := range 3 {
				a[i] = r[0][i]*l[0] + r[1][i]*l[1] + r[2][i]*l[2]
			}
			st, at := lie.Hat(s), lie.Hat(a)
			m := mul3(&st, &at)
			addBlock(dst, 6*b+3, 6*b+3, sg, &m)
		})
	}
}

// Damping writes C_t = Ω̃ J − (J Ω)~ per rod.
func (c LieChain3D) Damping(dst *mat.Dense, t float64, q, v []float64) {
	dst.Zero()
	j := chainInertia()
	for k := range c.N {
		om := omega(v, k)
		ot := lie.Hat(om)
		jt := lie.Hat([3]float64{j[0] * om[0], j[1] * om[1], j[2] * om[2]})
		for i := range 3 {
			for l := range 3 {
				dst.Set(6*k+3+i, 6*k+3+l, ot[i][l]*j[l]-jt[i][l])
			}
		}
	}
}

// Start returns the chain along +x at rest: x_k = (L(k + ½), 0, 0), R = I, v = 0.
func (c LieChain3D) Start() integrate.State {
	nq, nv, nc := c.LieSize()
	s := integrate.State{Q: make([]float64, nq), V: make([]float64, nv), A: make([]float64, nv), Lambda: make([]float64, nc)}
	for k := range c.N {
		s.Q[7*k] = chainBarL * (float64(k) + 0.5)
		s.Q[7*k+3] = 1
	}
	return s
}

// Reference returns the chain's reference at chainBarTEnd in the layout of q (that of
// chain3d:N, whose reference it is) for N ≤ maxChainRefN, else a Reference without Q.
func (c LieChain3D) Reference() Reference {
	return chainBarsReference(c.N, func(x, z, alpha float64) []float64 {
		s, co := math.Sincos(alpha / 2)
		return []float64{x, 0, z, co, 0, -s, 0}
	})
}
