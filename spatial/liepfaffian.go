package spatial

import (
	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// liepfaffian.go: the rolling disks' Pfaffian rows A(q) q̇ = 0 (disk.go) on the group, by
// the velocity map q̇ = E(q) w as for B (lie.go), in the algebra's velocities w:
//
//	A_Lie = A E,   γ_A,Lie = γ_A(q, E w) + ¼ Σ_b |Ω_b|² A_{p_b} p_b,
//	d(A_Lie w) along the group = (∂(A u)/∂q) E + A P(Ω_w),   u = E w,
//	d(A_Lieᵀ μ) along the group = Eᵀ (∂(Aᵀμ)/∂q) E + D(Aᵀμ),
//
// D the derivative of Eᵀ itself (as in Stiffness). dae.WithLiePfaffianRows appends them to
// B for lie-genalpha.

// pfaffianScratch is the Euler-parameter scratch of the Pfaffian rows, sized by
// NewLieSystem when the System has any.
type pfaffianScratch struct {
	nn   int
	A, R *mat.Dense // nn×7N: A and ∂(A u)/∂q
	F    *mat.Dense // 7N×7N: ∂(Aᵀμ)/∂q
	b, y []float64  // nn: b; 7N: Aᵀμ
	all  []int      // every body: the rows' columns (A is dense in dae.Nonholonomic)
}

func newPfaffianScratch(s *System, nq, n int) pfaffianScratch {
	nn := s.NumPfaffian()
	if nn == 0 {
		return pfaffianScratch{}
	}
	p := pfaffianScratch{nn: nn, A: mat.NewDense(nn, nq, nil), R: mat.NewDense(nn, nq, nil),
		F: mat.NewDense(nq, nq, nil), b: make([]float64, nn), y: make([]float64, nq), all: make([]int, n)}
	for b := range p.all {
		p.all[b] = b
	}
	return p
}

var _ dae.Nonholonomic = (*LieSystem)(nil)

// NumPfaffian returns the rolling disks' two rows each (dae.Nonholonomic on the group).
func (l *LieSystem) NumPfaffian() int { return l.pf.nn }

// PfaffianName names row k as the System does ("name.x", "name.y").
func (l *LieSystem) PfaffianName(k int) string { return l.s.PfaffianName(k) }

// Pfaffian writes A E (nn×6N) and b.
func (l *LieSystem) Pfaffian(A *mat.Dense, b []float64, t float64, q []float64) {
	l.s.Pfaffian(l.pf.A, b, t, q)
	l.columns(q, nil)
	for k := range l.pf.nn {
		l.rowTimes(A.RawRowView(k), l.pf.A.RawRowView(k), l.pf.all)
	}
}

// PfaffianGamma writes γ_A(q, E w) + ¼ Σ_b |Ω_b|² A_{p_b} p_b: the Euler-parameter γ_A
// less A Ė w, as Gamma does for B.
func (l *LieSystem) PfaffianGamma(dst []float64, t float64, q, w []float64) {
	l.EulerVelocity(l.qd, q, w)
	l.s.PfaffianGamma(dst, t, q, l.qd)
	l.s.Pfaffian(l.pf.A, l.pf.b, t, q)
	for k := range l.pf.nn {
		row := l.pf.A.RawRowView(k)
		for b := range l.n {
			c, o := 7*b, 6*b
			om := Vec3{w[o+3], w[o+4], w[o+5]}
			s := om.Dot(om) / 4
			for a := range 4 {
				dst[k] += s * row[c+3+a] * q[c+3+a]
			}
		}
	}
}

// PfaffianRateDerivative writes the derivative of A_Lie w + b along q∘exp(ε e_j):
// (∂(A u)/∂q) E + A P(Ω_w), u = E w.
func (l *LieSystem) PfaffianRateDerivative(dst *mat.Dense, t float64, q, w []float64) {
	l.EulerVelocity(l.qd, q, w)
	l.s.PfaffianRateDerivative(l.pf.R, t, q, l.qd)
	l.s.Pfaffian(l.pf.A, l.pf.b, t, q)
	l.columns(q, w)
	for k := range l.pf.nn {
		out := dst.RawRowView(k)
		l.rowTimes(out, l.pf.R.RawRowView(k), l.pf.all)
		l.rowAdd(out, l.pf.A.RawRowView(k), l.pf.all)
	}
}

// PfaffianForceDerivative writes the derivative of A_Lieᵀ μ = Eᵀ Aᵀμ along q∘exp(ε e_j):
// Eᵀ (∂(Aᵀμ)/∂q) E + D(Aᵀμ).
func (l *LieSystem) PfaffianForceDerivative(dst *mat.Dense, t float64, q, mu []float64) {
	l.s.PfaffianForceDerivative(l.pf.F, t, q, mu)
	l.pfaffianForce(l.pf.y, t, q, mu)
	l.columns(q, nil)
	for i := range l.nq {
		l.rowTimes(l.x.RawRowView(i), l.pf.F.RawRowView(i), l.pf.all)
	}
	l.leftET(dst, l.x)
	l.addETDerivative(dst, q, l.pf.y)
}

// pfaffianForce writes Aᵀμ (length 7N) of the Euler-parameter rows into dst.
func (l *LieSystem) pfaffianForce(dst []float64, t float64, q, mu []float64) {
	l.s.Pfaffian(l.pf.A, l.pf.b, t, q)
	clear(dst)
	for k, m := range mu {
		for j, a := range l.pf.A.RawRowView(k) {
			dst[j] += m * a
		}
	}
}
