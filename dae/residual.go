package dae

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// ConstraintResiduals are the max-norms of the constraint residuals of one state at
// position, velocity and acceleration level (seed 002, eq. 19):
//
//	Pos = ‖g(t,q)‖∞,   Vel = ‖G v + g_t‖∞,   Acc = ‖G a − γ‖∞.
type ConstraintResiduals struct {
	Pos, Vel, Acc float64
	// WorstPos is the index of the constraint with the largest |g_i| (−1 when nc = 0).
	WorstPos int
}

// Max returns the componentwise maximum of r and s (WorstPos follows Pos).
func (r ConstraintResiduals) Max(s ConstraintResiduals) ConstraintResiduals {
	if s.Pos > r.Pos {
		r.Pos, r.WorstPos = s.Pos, s.WorstPos
	}
	r.Vel = math.Max(r.Vel, s.Vel)
	r.Acc = math.Max(r.Acc, s.Acc)
	return r
}

// ResidualMeter evaluates ConstraintResiduals without allocating; one meter serves one
// goroutine. For a SparseEvaluator it holds G as values on ConstraintCSR (memory and work
// in proportion to the nonzeros), else as a dense nc×nq matrix; both sum each row's
// products in increasing column order, so they give the same numbers.
type ResidualMeter struct {
	sys      System
	g, gt, w []float64
	G        *mat.Dense      // dense path
	sparse   SparseEvaluator // sparse path: G's values on pattern
	pattern  CSR
	values   []float64
	gpass    SparseConstraintWithJacobian  // g with G in one pass (the same numbers), or nil
	gamma    SparseConstraintJacobianGamma // g, G and γ in one pass (the same numbers), or nil
}

// NewResidualMeter returns a meter for sys.
func NewResidualMeter(sys System) *ResidualMeter {
	nq, nc := sys.Size()
	m := &ResidualMeter{sys: sys, g: make([]float64, nc), gt: make([]float64, nc), w: make([]float64, nc)}
	if nc == 0 {
		return m
	}
	if se, ok := sys.(SparseEvaluator); ok {
		m.sparse, m.pattern = se, ConstraintCSR(se, nq, nc)
		m.values = make([]float64, m.pattern.NNZ())
		m.gpass, _ = sys.(SparseConstraintWithJacobian)
		m.gamma, _ = sys.(SparseConstraintJacobianGamma)
		return m
	}
	m.G = mat.NewDense(nc, nq, nil)
	return m
}

// Measure returns the residuals of (t, q, v, a); a may be nil to skip the acceleration level.
func (m *ResidualMeter) Measure(t float64, q, v, a []float64) ConstraintResiduals {
	r := ConstraintResiduals{WorstPos: -1}
	if len(m.g) == 0 {
		return r
	}
	haveGamma := false
	switch {
	case a != nil && m.gamma != nil:
		m.gamma.ConstraintJacobianGammaValues(m.g, m.values, m.w, t, q, v)
		haveGamma = true
	case m.gpass != nil:
		m.gpass.ConstraintWithJacobianValues(m.g, m.values, t, q)
	case m.sparse != nil:
		m.sys.Constraint(m.g, t, q)
		m.sparse.ConstraintJacobianValues(m.values, t, q)
	default:
		m.sys.Constraint(m.g, t, q)
		m.sys.ConstraintJacobian(m.G, t, q)
	}
	for i, x := range m.g {
		if ax := math.Abs(x); ax > r.Pos || r.WorstPos < 0 || math.IsNaN(x) {
			r.Pos, r.WorstPos = ax, i
		}
	}
	m.sys.ConstraintTimeDerivative(m.gt, t, q)
	if a == nil {
		r.Vel = m.maxAbsGxPlus(v, m.gt, 1)
		return r
	}
	if !haveGamma {
		m.sys.Gamma(m.w, t, q, v)
	}
	if m.sparse != nil {
		r.Vel, r.Acc = m.maxAbsVelAcc(v, a)
		return r
	}
	r.Vel = m.maxAbsGxPlus(v, m.gt, 1)
	r.Acc = m.maxAbsGxPlus(a, m.w, -1)
	return r
}

// maxAbsVelAcc returns ‖G v + g_t‖∞ and ‖G a − γ‖∞ (g_t in m.gt, γ in m.w) on the sparse
// path in one pass over G's values: each row summed as maxAbsGxPlus sums it, so the same
// numbers (NaN for a level with a NaN row).
func (m *ResidualMeter) maxAbsVelAcc(v, a []float64) (vel, acc float64) {
	p := &m.pattern
	gt, w := m.gt, m.w[:len(m.gt)]
	var nanV, nanA bool
	for i := range gt {
		rv, ra := gt[i], -w[i]
		start, end := p.RowStart[i], p.RowStart[i+1]
		cols := p.Cols[start:end]
		row := m.values[start:end]
		row = row[:len(cols)] // one length: no bounds check on row[k]
		for k, j := range cols {
			g := row[k]
			rv += g * v[j]
			ra += g * a[j]
		}
		nanV = nanV || math.IsNaN(rv)
		nanA = nanA || math.IsNaN(ra)
		vel, acc = max(vel, math.Abs(rv)), max(acc, math.Abs(ra))
	}
	if nanV {
		vel = math.NaN()
	}
	if nanA {
		acc = math.NaN()
	}
	return vel, acc
}

// maxAbsGxPlus returns ‖G x + s·y‖∞ with G as last evaluated (dense or on its pattern).
func (m *ResidualMeter) maxAbsGxPlus(x, y []float64, s float64) float64 {
	if m.sparse == nil {
		var worst float64
		for i := range y {
			r := s * y[i]
			for j, gij := range m.G.RawRowView(i) {
				r += gij * x[j]
			}
			if math.IsNaN(r) {
				return math.NaN()
			}
			worst = max(worst, math.Abs(r))
		}
		return worst
	}
	var worst float64
	for i := range y {
		r := s * y[i]
		start, end := m.pattern.RowStart[i], m.pattern.RowStart[i+1]
		row := m.values[start:end]
		for k, j := range m.pattern.Cols[start:end] {
			r += row[k] * x[j]
		}
		if math.IsNaN(r) {
			return math.NaN()
		}
		worst = max(worst, math.Abs(r))
	}
	return worst
}
