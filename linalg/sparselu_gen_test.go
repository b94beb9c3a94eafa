package linalg

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// luSystem is a sparse test matrix with its pattern, assembled densely.
type luSystem struct {
	n       int
	A       *mat.Dense
	pattern [][]int
}

// luBuilder assembles a dense matrix and records every entry it sets as the pattern.
type luBuilder struct {
	A    *mat.Dense
	cols []map[int]bool
}

func newLUBuilder(n int) *luBuilder {
	b := &luBuilder{A: mat.NewDense(n, n, nil), cols: make([]map[int]bool, n)}
	for i := range b.cols {
		b.cols[i] = map[int]bool{}
	}
	return b
}

func (b *luBuilder) add(i, j int, v float64) {
	b.A.Set(i, j, b.A.At(i, j)+v)
	b.cols[i][j] = true
}

// block adds s·R, R a random r×c block with entries in [−1, 1] (plus d on its diagonal),
// at rows rows and columns cols.
func (b *luBuilder) block(rng *rand.Rand, rows, cols []int, s, d float64) {
	for a, i := range rows {
		for c, j := range cols {
			v := 2*rng.Float64() - 1
			if a == c {
				v += d
			}
			b.add(i, j, s*v)
		}
	}
}

func (b *luBuilder) system() luSystem {
	n, _ := b.A.Dims()
	s := luSystem{n: n, A: b.A, pattern: make([][]int, n)}
	for i, set := range b.cols {
		for j := range set {
			s.pattern[i] = append(s.pattern[i], j)
		}
		slices.Sort(s.pattern[i])
	}
	return s
}

// bodyCols returns the 3 coordinates of body b, offset by off.
func bodyCols(b, off int) []int { return []int{off + 3*b, off + 3*b + 1, off + 3*b + 2} }

// jointRows returns the constraint rows of each joint, numbered from off.
func jointRows(joints []joint, off int) [][]int {
	rows := make([][]int, len(joints))
	for j, jt := range joints {
		for range jt.rows {
			rows[j] = append(rows[j], off)
			off++
		}
	}
	return rows
}

// luScale draws 10^U(−span, span): masses, stiffnesses, dampings of a model whose
// entries span 10^±span.
func luScale(rng *rand.Rand, span float64) float64 {
	if span == 0 {
		return 0.5 + rng.Float64()
	}
	return math.Pow(10, span*(2*rng.Float64()-1))
}

// coupled adds to b, at row offset ro and column offset co, a random unsymmetric
// bodywise matrix: a 3×3 block s·(R + d·I) per body and, for every joint between two
// bodies a and b, a spring-like coupling s·(±3I + R) at the blocks (a, a), (b, b) (+)
// and (a, b), (b, a) (−), each R with independent entries in [−1, 1], as damping,
// follower forces and (M a)_q couple the bodies of a joint unsymmetrically.
func (b *luBuilder) coupled(rng *rand.Rand, nb int, joints []joint, ro, co int, span, d float64) {
	for body := range nb {
		b.block(rng, bodyCols(body, ro), bodyCols(body, co), luScale(rng, span), d)
	}
	for _, jt := range joints {
		if jt.a < 0 || jt.b < 0 {
			continue
		}
		s := luScale(rng, span)
		for _, p := range [][2]int{{jt.a, jt.a}, {jt.b, jt.b}, {jt.a, jt.b}, {jt.b, jt.a}} {
			sign := 1.0
			if p[0] != p[1] {
				sign = -1
			}
			b.block(rng, bodyCols(p[0], ro), bodyCols(p[1], co), s, 3*sign)
		}
	}
}

// gEntry is an entry G(r, c) of a constraint Jacobian.
type gEntry struct {
	r, c int
	v    float64
}

// constraintJacobian draws G: each joint's rows cover the coordinates of its bodies,
// entries in [−1, 1].
func constraintJacobian(rng *rand.Rand, joints []joint) []gEntry {
	var g []gEntry
	for j, rows := range jointRows(joints, 0) {
		for _, r := range rows {
			for _, body := range []int{joints[j].a, joints[j].b} {
				if body < 0 {
					continue
				}
				for _, c := range bodyCols(body, 0) {
					g = append(g, gEntry{r, c, 2*rng.Float64() - 1})
				}
			}
		}
	}
	return g
}

// kktLU returns the Newton matrix of an index-3 method on a mechanism,
//
//	[ M̂  Gᵀ ]
//	[ G  0  ],
//
// M̂ unsymmetric with 3×3 blocks per body (diagonal raised by 3, a mass-like dominance)
// and random coupling blocks for every joint between bodies.
func kktLU(rng *rand.Rand, nb int, joints []joint, span float64) luSystem {
	nq := 3 * nb
	nc := 0
	for _, j := range joints {
		nc += j.rows
	}
	b := newLUBuilder(nq + nc)
	b.coupled(rng, nb, joints, 0, 0, span, 3)
	for _, e := range constraintJacobian(rng, joints) {
		b.add(nq+e.r, e.c, e.v)
		b.add(e.c, nq+e.r, e.v)
	}
	return b.system()
}

// bdfLU returns the Newton matrix of BDF on the first-order index-3 form (q, v, λ),
//
//	[ cI     −I      0   ]
//	[ K   cM + C   c²Gᵀ  ]
//	[ c²G    0       0   ],
//
// c = α₀/h with h = 10^U(−3, −1), K and C bodywise coupled and unsymmetric, M block
// diagonal. The constraint rows and the multipliers are scaled by c² (Bottasso, Dopico
// & Trainelli, "On the optimal scaling of index three DAEs in multibody dynamics",
// Multibody Syst. Dyn. 19, 2008) as integrators do, which brings κ₁(A) of these draws
// from up to 1e14 down to 1e10 (measured with LU.RCond). The c²Gᵀ block is drawn independently of c²G (the multiplier term
// differentiated at another point, as in simplified Newton).
func bdfLU(rng *rand.Rand, nb int, joints []joint, span float64) luSystem {
	nq := 3 * nb
	nc := 0
	for _, j := range joints {
		nc += j.rows
	}
	c := 1.5 * math.Pow(10, 1+2*rng.Float64())
	b := newLUBuilder(2*nq + nc)
	for i := range nq {
		b.add(i, i, c)
		b.add(i, nq+i, -1)
	}
	b.coupled(rng, nb, joints, nq, 0, span, 0)  // K
	b.coupled(rng, nb, joints, nq, nq, span, 0) // C
	for body := range nb {                      // c·M
		b.block(rng, bodyCols(body, nq), bodyCols(body, nq), c*luScale(rng, span), 3)
	}
	for _, e := range constraintJacobian(rng, joints) {
		b.add(2*nq+e.r, e.c, c*c*e.v)
	}
	for _, e := range constraintJacobian(rng, joints) {
		b.add(nq+e.c, 2*nq+e.r, c*c*e.v)
	}
	return b.system()
}

// rescaled returns D_r A D_c with every row and column scaled by 10^U(−span/2, span/2):
// the same system in other units, its entries spanning 10^±span, its condition after
// equilibration unchanged.
func rescaled(rng *rand.Rand, s luSystem, span float64) luSystem {
	r, c := make([]float64, s.n), make([]float64, s.n)
	for i := range r {
		r[i] = math.Pow(10, span*(rng.Float64()-0.5))
		c[i] = math.Pow(10, span*(rng.Float64()-0.5))
	}
	A := mat.NewDense(s.n, s.n, nil)
	for i, row := range s.pattern {
		for _, j := range row {
			A.Set(i, j, r[i]*s.A.At(i, j)*c[j])
		}
	}
	return luSystem{n: s.n, A: A, pattern: s.pattern}
}
