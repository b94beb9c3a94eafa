package integrate

import (
	"errors"

	"gonum.org/v1/gonum/mat"
)

// In its singular mode (newtonSolver.singular), when the regularized ggl rows have failed
// radauIndex3After Newton attempts in a row, Radau5's ggl form integrates the index-3
// equations (seed 002, eq. 16) on the same unknowns y = (q, v, a, λ, μ): the rows of λ
// hold g = 0 in place of G v + g_t = 0 (eq. 92's velocity rows) and the rows of μ hold
// μ = 0, so that q' = v − Gᵀμ = v. Near a singular position GGL's velocity rows fix v
// along the directions G loses only to about u|G||v|/σ_min(G), coarser than the
// tolerance, and the Newton iteration cannot converge however short the step
// (BENCHMARKS.md, IFToMM fifth pass); the index-3 rows reach v only through h (v is
// weighed as the index3 form weighs it, by h·Δv), so cutting h clears that floor. They
// are the second resort, not the first: with v weighed by h the index3 form's phase
// errors are larger (A02 N = 40 to 20 s at tol 1e-6: 0.12 m against 3e-4 m for the ggl
// rows where those pass). When the mode ends (regRearm), v is projected
// mass-orthogonally onto G v + g_t = 0 (seed 002, eq. 91), and a, λ recomputed from
// eq. 17 there, before the velocity rows return. The Pfaffian rows (dae.PfaffianRows)
// have no position level and keep their velocity rows.
type radauIndex3 struct {
	on bool // y₀ and the current iteration use the index-3 rows
	// want is set when the regularized ggl rows have failed radauIndex3After Newton
	// attempts in a row at one step start; fails counts them.
	want  bool
	fails int
	h     float64 // the size of the first of them
	// The sparse evaluation path's slots of −J on the Newton pattern: every slot of the
	// holonomic λ rows, and the pairs (λ row r, q column j) ← (μ row r, q column j).
	lamSlots []int
	pairs    [][2]int
	unit     []int // the μ rows of the holonomic constraints (−J's diagonal −1 there)
	kkt      *eq17 // the projection of v at the mode's end
	dv, r    []float64
}

// gglIndex3 reports whether the ggl form can switch to the index-3 rows in the singular
// mode: equations of motion in ggl with holonomic rows, factorized by LU (the
// Newton-Krylov path refuses the singular mode).
func (w *radauWork) gglIndex3() bool {
	return w.se != nil && w.se.hasMu && w.se.ncH > 0
}

// syncIndex3 enters the index-3 rows when the singular mode has started and leaves them
// (projecting v) when it has ended; predict calls it at the start of every attempt. A
// projection that fails (G still singular to rounding) keeps the mode on.
func (w *radauWork) syncIndex3() {
	if !w.gglIndex3() {
		return
	}
	switch {
	case w.nw.singular && w.i3.want && !w.i3.on:
		w.enterIndex3()
	case !w.nw.singular && w.i3.on:
		if err := w.projectVelocity(); err != nil {
			w.nw.singular, w.nw.regSteps = true, 0
			return
		}
		w.i3.on, w.i3.want = false, false
	}
}

// radauIndex3After is the number of failed Newton attempts in a row, at one step start in
// the singular mode, after which the ggl form takes the index-3 rows. The regularized ggl
// rows pass most singular positions, more accurately (v at its index-1 scale); where they
// cannot converge (v fixed along the lost directions only to u|G||v|/σ_min) the ladder
// cuts h until HMin, 35 to 67 cuts in the fifth pass's stops.
const radauIndex3After = 8

// noteModeFailure counts a failed Newton attempt of size h of the singular mode's ggl
// rows (cut). At the switch to the index-3 rows h returns to the size of the first
// failed attempt: the cuts were spent on the velocity rows' rounding floor, which no h
// clears, and would otherwise leave the index-3 rows a step near HMin.
func (w *radauWork) noteModeFailure(h float64) {
	if !w.nw.singular || w.i3.on || !w.gglIndex3() {
		return
	}
	if w.i3.fails == 0 {
		w.i3.h = h
	}
	if w.i3.fails++; w.i3.fails >= radauIndex3After {
		w.i3.want = true
		w.h = w.i3.h
	}
}

// enterIndex3 switches the rows on, sizing the slot maps of the sparse path at the first
// entry.
func (w *radauWork) enterIndex3() {
	w.i3.on = true
	if w.i3.kkt != nil {
		return
	}
	se := w.se
	il, imu, ncH := se.il(), se.imu(), se.ncH
	for r := range ncH {
		w.i3.unit = append(w.i3.unit, imu+r)
	}
	w.i3.kkt = newEq17(w.sys)
	w.i3.dv, w.i3.r = make([]float64, se.nq), make([]float64, se.nc)
	if w.spLU == nil {
		return
	}
	lam := map[[2]int]int{}
	for t, i := range w.spLU.row {
		if j := w.spLU.col[t]; i >= il && i < il+ncH {
			w.i3.lamSlots = append(w.i3.lamSlots, t)
			lam[[2]int{i - il, j}] = t
		}
	}
	for t, i := range w.spLU.row {
		if j := w.spLU.col[t]; i >= imu && i < imu+ncH && j < se.nq {
			w.i3.pairs = append(w.i3.pairs, [2]int{lam[[2]int{i - imu, j}], t})
		}
	}
}

// index3Residual overwrites the holonomic λ and μ rows of φ(t, y) (dst) with g and μ.
func (w *radauWork) index3Residual(dst, y []float64) {
	il, imu := w.se.il(), w.se.imu()
	for r := range w.se.ncH {
		dst[il+r] = dst[imu+r]
		dst[imu+r] = y[imu+r]
	}
}

// residualAt writes φ(t, y) of the rows in use into dst.
func (w *radauWork) residualAt(dst []float64, t float64, y []float64) {
	w.fo.residual(dst, t, y)
	w.rows.scale(dst, t, y, w.cur.T, w.y0)
	if w.i3.on {
		w.index3Residual(dst, y)
	}
}

// index3Jacobian rewrites ∂φ/∂y (dense J) for the index-3 rows: the λ rows take the μ
// rows (G in the q columns), the μ rows the identity in the μ columns.
func index3Jacobian(J *mat.Dense, il, imu, ncH int) {
	for r := range ncH {
		lr, mr := J.RawRowView(il+r), J.RawRowView(imu+r)
		copy(lr, mr)
		clear(mr)
		mr[imu+r] = 1
	}
}

// index3Values rewrites −∂φ/∂y on the Newton pattern (negJ) for the index-3 rows; the μ
// rows' diagonal, absent from the pattern, is the singular mode's (radauAug, i3.unit).
func (w *radauWork) index3Values(negJ []float64) {
	for _, t := range w.i3.lamSlots {
		negJ[t] = 0
	}
	for _, p := range w.i3.pairs {
		negJ[p[0]], negJ[p[1]] = negJ[p[1]], 0
	}
}

// errNoProjection refuses the end of the index-3 rows for a system whose eq. 17 is
// solved without a saddle-point factorization (dae.MassSolver).
var errNoProjection = errors.New("radau5: no saddle-point factorization for the velocity projection")

// projectVelocity projects v of y₀ onto G v + g_t = 0 (seed 002, eq. 91):
// [M Gᵀ; G 0](Δv, ν) = (0, −(G v + g_t)), then a and λ from eq. 17 at (q, v + Δv), μ = 0,
// and updates φ(t₀, y₀). The accepted state (Current) keeps its values until the next
// accepted step writes y₁ there, so a Step that fails after the projection leaves it
// untouched, as Method promises; y₀ keeps the projection for the next attempt.
func (w *radauWork) projectVelocity() error {
	se, e := w.se, w.i3.kkt
	if e.kkt == nil {
		return errNoProjection
	}
	t := w.cur.T
	q, v, a, lam, mu := se.blocks(w.y0)
	se.residual(w.tmp, t, w.y0) // the ggl rows: G v + g_t in the λ rows
	w.stats.FuncEvals++
	if err := e.factorKKT(w.i3.r, t, q, v); err != nil {
		return err
	}
	w.stats.Factorizations++
	for i := range w.i3.r {
		w.i3.r[i] = -w.tmp[se.il()+i]
	}
	clear(w.i3.dv)
	e.kkt.Solve(w.i3.dv, w.i3.r)
	w.stats.Solves++
	w.stats.Projections++
	for i, d := range w.i3.dv {
		v[i] += d
	}
	if err := e.solve(a, lam, t, q, v, &w.stats); err != nil {
		return err
	}
	clear(mu)
	w.fo.residual(w.f0, t, w.y0)
	w.stats.FuncEvals++
	return nil
}
