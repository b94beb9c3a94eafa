package integrate

import (
	"slices"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// radauMassRows rescales the dynamic rows of φ at radau5's stages on dae.MassSolver
// systems: φ_a = f − Gᵀλ − M(q) a becomes M(q₀) M(q)⁻¹ φ_a, with q₀ the step start
// where the simplified Newton iteration freezes J. The zeros of φ and J at y₀ are
// unchanged (the factor is I there), so the iteration solves the same collocation
// equations with the same matrices; what changes is how fast it converges. With φ_a as
// it is, J's a-block −M(q₀) stands for −M(q) at the stages, and the iteration contracts at
// the rate ρ(M(q₀)⁻¹ M(q) − I). In relative coordinates of slender bodies that rate is not
// of order h·|v|: M is ill-conditioned (cond ≈ 2e7 on the 10-rod chain of 0.01 m radius,
// the small eigenvalue a rod's spin about its own axis) and its near-null direction
// turns with the joint angles (M is no similarity transform of a constant matrix, as the
// body route's block-diagonal M is), so ρ reached 0.33 at h = 0.4 ms and 1 at 1 ms on
// that chain, whose ODE has no eigenvalue above 22 s⁻¹; radau5 failed a Newton attempt
// about once per accepted step at steps 25 times shorter than the body route's. Scaled,
// the a-block is the constant −M(q₀) and the rows' nonlinearity is that of the
// accelerations M⁻¹(f − Gᵀλ), the physics' own. A scaling costs one articulated-body
// solve and one Newton-Euler product (dae.MassMultiplier), O(N), per stage residual; on
// the dense path of a system without the product, M(q₀) is formed once per step.
type radauMassRows struct {
	ms     dae.MassSolver
	mm     dae.MassMultiplier // nil: M(q₀) x by m0
	sys    dae.System
	ia, nq int
	x      []float64 // M(q)⁻¹ φ_a
	m0     *mat.Dense
	q0     []float64 // the coordinates m0 was formed at
	t0     float64
}

// newRadauMassRows returns the scaling for se's dynamic rows, or nil when se.sys has no
// dae.MassSolver or se is on the sparse evaluation path.
func newRadauMassRows(se *semiExplicit) *radauMassRows {
	if se == nil || se.sp != nil {
		return nil
	}
	ms, ok := se.sys.(dae.MassSolver)
	if !ok {
		return nil
	}
	r := &radauMassRows{ms: ms, sys: se.sys, ia: se.ia(), nq: se.nq, x: make([]float64, se.nq)}
	if r.mm, ok = se.sys.(dae.MassMultiplier); !ok {
		r.m0, r.q0, r.t0 = mat.NewDense(se.nq, se.nq, nil), make([]float64, se.nq), -1
	}
	return r
}

// scale overwrites φ's dynamic rows in phi, evaluated at (t, y), with M(t₀, q₀) M(t, q)⁻¹
// times them, q and q₀ the coordinates of y and y₀; nothing to do at q = q₀.
func (r *radauMassRows) scale(phi []float64, t float64, y []float64, t0 float64, y0 []float64) {
	if r == nil {
		return
	}
	q, q0 := y[:r.nq], y0[:r.nq]
	if slices.Equal(q, q0) {
		return
	}
	rows := phi[r.ia : r.ia+r.nq]
	r.ms.MassSolve(r.x, t, q, rows)
	if r.mm != nil {
		r.mm.MassMul(rows, t0, q0, r.x)
		return
	}
	if t0 != r.t0 || !slices.Equal(q0, r.q0) {
		r.sys.Mass(r.m0, t0, q0)
		r.t0 = t0
		copy(r.q0, q0)
	}
	for i := range rows {
		rows[i] = dotRow(r.m0, i, r.x)
	}
}
