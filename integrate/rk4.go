package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// RK4 integrates the index-1 form of the equations of motion (seed 002, eq. 84) in all
// coordinates, y = (q, v), y' = (v, a(t, q, v)) with a and λ from the KKT system of eq. 17,
//
//	[M Gᵀ; G 0] (a, λ) = (f, γ),
//
// by the classical fourth-order Runge-Kutta method with a constant step (StepControl.FixedH),
// for reference solutions (seed 000, section 4.1 uses "a fourth order Runge-Kutta method
// with very small time step"). With formulation Index1Projected (the default) every step
// ends with the mass-orthogonal projections of seed 002, eqs. 89 and 91: Newton iterations
//
//	[M Gᵀ; G 0] (Δq, μ) = (0, −g(t, q̂)),   q̂ ← q̂ + Δq
//
// with the matrix at the unprojected q, until |Δq_i| ≤ 1e-12·(1 + |q̂_i|), then at q̂
// [M Gᵀ; G 0] (Δv, μ) = (0, −(G v + g_t)), and a, λ from eq. 17 with the same
// factorization. Projection keeps the drift off without touching the fourth order. With
// Index1 the constraints drift as O(h⁴) per unit time.
//
// Stats: FuncEvals counts eq. 17 solves (4 per step), Projections 2 per projected step.
type RK4 struct {
	// Formulation is Index1Projected (default) or Index1.
	Formulation
	w         *rk4Work
	*accepted // Current, Previous, Stats (method.go)
}

// rk4Entry: dopri5's index-1 form (eq. 84 with a, λ from eq. 17; the projections eqs. 89, 91
// by projectPositions; forces that depend on λ by eq. 17 through reactionAccel), so its
// seed and formulations, at fourth order with constant steps. It takes neither first-order
// states nor nonholonomic constraints.
var rk4Entry = func() Entry {
	e := dopri5Entry.variant("rk4",
		"classical Runge-Kutta 4 on the index-1 form, constant step, for reference solutions",
		"17, 84; projection 89, 91",
		func() Method { return &RK4{} }).constantStep(Order{Q: 4, V: 4, Lambda: 4})
	e.States, e.Nonholonomic = false, nil
	return e
}()

// rk4ProjTol and rk4ProjMaxIters bound the position projection (eq. 89); the simplified
// Newton iteration contracts by about |Δq| per iteration, so a few iterations suffice.
const (
	rk4ProjTol      = 1e-12
	rk4ProjMaxIters = 10
)

type rk4Work struct {
	sys     dae.System
	nq, nc  int
	project bool
	lad     ladder // the step loop: constant steps (ladder.go)

	accepted  // cur, prev, stats: Current, Previous, Stats
	it        State
	kq, kv    [4][]float64 // stage rates of q and v
	qs, vs    []float64    // stage arguments
	M, G      *mat.Dense   // nil on the sparse evaluation path
	sp        *sparseEval  // the sparse evaluation path (sparseeval.go), or nil
	kkt       linalg.SaddlePoint
	rec       *massSchur                         // eq. 17 by dae.MassSolver (massschur.go), or nil
	solver    interface{ Solve(x, y []float64) } // kkt or rec
	rxa       *reactionAccel                     // eq. 17 with λ-dependent forces (reactionaccel.go), or nil
	r, dq, gt []float64
}

// refuseForConstantStep is the check of what the constant-step methods (rk4, gcp-abm)
// cannot take: nonholonomic constraints, first-order states, and a StepControl without
// FixedH.
func refuseForConstantStep(method string, sys dae.System, ctl StepControl) error {
	if err := refuseNonholonomic(method, sys); err != nil {
		return err
	}
	if dae.StateSize(sys) > 0 {
		return fmt.Errorf("integrate: %s: systems with first-order states (dae.FirstOrder) are not supported", method)
	}
	if ctl.FixedH <= 0 {
		return fmt.Errorf("integrate: %s: constant step only: StepControl.FixedH = %g, want > 0", method, ctl.FixedH)
	}
	return nil
}

// Init checks the formulation, FixedH and the consistency of start, and computes a and λ
// from eq. 17.
func (m *RK4) Init(sys dae.System, start State, ctl StepControl) error {
	f, err := rk4Entry.formulation(m.Formulation)
	if err != nil {
		return err
	}
	if err := refuseForConstantStep("rk4", sys, ctl); err != nil {
		return err
	}
	if _, err := ctl.resolveAt(start.T, len(start.Q)); err != nil {
		return fmt.Errorf("integrate: rk4: %w", err)
	}
	nq, nc := sys.Size()
	if len(start.Q) != nq || len(start.V) != nq {
		panic(fmt.Sprintf("integrate: rk4: Init: start has len(Q) = %d, len(V) = %d, want %d", len(start.Q), len(start.V), nq))
	}
	w := &rk4Work{sys: sys, nq: nq, nc: nc, project: f == Index1Projected && nc > 0}
	w.lad = ladder{name: "rk4", m: w, raw: ctl, fixed: true, constant: true, stats: &w.stats, cur: &w.cur, fc: newFailureContext(sys, &start)}
	w.cur, w.prev, w.it = NewState(nq, nc), NewState(nq, nc), NewState(nq, nc)
	for i := range w.kq {
		w.kq[i], w.kv[i] = make([]float64, nq), make([]float64, nq)
	}
	w.qs, w.vs, w.dq = make([]float64, nq), make([]float64, nq), make([]float64, nq)
	w.r, w.gt = make([]float64, nc), make([]float64, nc)
	if w.sp = newSparseEval(sys, false); w.sp == nil {
		w.rec = newMassSchur(sys)
		if nc > 0 {
			w.G = mat.NewDense(nc, nq, nil)
		}
	}
	w.rxa = newReactionAccel(sys, w.sp)
	if w.rec != nil {
		w.solver = w.rec // M is never formed: O(N) per stage (massschur.go)
	} else {
		if w.sp == nil {
			w.M = mat.NewDense(nq, nq, nil)
		}
		w.kkt = newSaddlePoint(sys)
		w.solver = w.kkt
	}
	r := measureStart(w.sp, sys, start)
	if r.Pos > 1e-8*math.Max(1, hhtMaxAbs(start.Q)) || r.Vel > 1e-8*math.Max(1, hhtMaxAbs(start.V)) ||
		math.IsNaN(r.Pos) || math.IsNaN(r.Vel) {
		return fmt.Errorf("integrate: rk4: inconsistent start at t=%g: |g| = %.2g at %s, |G v + g_t| = %.2g (want ≤ 1e-8 relative)",
			start.T, r.Pos, dae.ConstraintName(sys, max(r.WorstPos, 0)), r.Vel)
	}
	w.cur.T = start.T
	copy(w.cur.Q, start.Q)
	copy(w.cur.V, start.V)
	if err := w.eval(w.cur.T, w.cur.Q, w.cur.V, w.cur.A, w.cur.Lambda); err != nil {
		return fmt.Errorf("integrate: rk4: start at t=%g: eq. 17: %w", start.T, err)
	}
	w.prev.CopyFrom(&w.cur)
	m.w, m.accepted = w, &w.accepted
	return nil
}

// factor evaluates M and G at (t, q) and factorizes [M Gᵀ; G 0].
func (w *rk4Work) factor(t float64, q []float64) error {
	if w.sp != nil {
		return w.factorSparse(t, q)
	}
	if w.rec != nil {
		return w.factorRecursive(t, q)
	}
	w.sys.Mass(w.M, t, q)
	if w.nc > 0 {
		w.sys.ConstraintJacobian(w.G, t, q)
	}
	w.stats.Factorizations++
	var err error
	if w.nc > 0 {
		err = w.kkt.FactorizeSym(w.M, w.G)
	} else {
		err = w.kkt.FactorizeSym(w.M, nil)
	}
	if err != nil {
		if !allFinite(w.M.RawMatrix().Data) || (w.nc > 0 && !allFinite(w.G.RawMatrix().Data)) {
			w.lad.worst = Residual{Block: "mass matrix or constraint Jacobian", Value: math.NaN()}
			return ErrNonFinite
		}
		w.lad.worst = Residual{Block: "KKT matrix (eq. 17)"}
	}
	return err
}

// factorRecursive is factor for a dae.MassSolver: G and the Schur complement G M⁻¹ Gᵀ.
func (w *rk4Work) factorRecursive(t float64, q []float64) error {
	if w.nc > 0 {
		w.sys.ConstraintJacobian(w.G, t, q)
	}
	w.stats.Factorizations++
	err := w.rec.factor(t, q, w.G)
	if err != nil {
		w.lad.worst = Residual{Block: "KKT matrix (eq. 17)"}
	}
	return err
}

// factorSparse is factor on the sparse evaluation path.
func (w *rk4Work) factorSparse(t float64, q []float64) error {
	w.sp.evalM(t, q)
	w.sp.evalG(t, q)
	w.stats.Factorizations++
	err := w.kkt.FactorizeSym(w.sp.kktArgs())
	if err != nil {
		if !allFinite(w.sp.M) || !allFinite(w.sp.G) {
			w.lad.worst = Residual{Block: "mass matrix or constraint Jacobian", Value: math.NaN()}
			return ErrNonFinite
		}
		w.lad.worst = Residual{Block: "KKT matrix (eq. 17)"}
	}
	return err
}

// eval solves eq. 17 for (a, λ) at (t, q, v).
func (w *rk4Work) eval(t float64, q, v, a, lambda []float64) error {
	if err := w.factor(t, q); err != nil {
		return err
	}
	return w.accel(t, q, v, a, lambda)
}

// accel solves eq. 17 with the factorization in place (with λ-dependent forces by Newton
// on λ, reactionaccel.go).
func (w *rk4Work) accel(t float64, q, v, a, lambda []float64) error {
	w.sys.Force(a, t, q, v)
	if w.nc > 0 {
		w.sys.Gamma(lambda, t, q, v)
	}
	w.stats.FuncEvals++
	if w.rxa != nil {
		if err := w.rxa.solve(w.solver, a, lambda, t, q, v, &w.stats); err != nil {
			w.lad.worst = Residual{Block: "lambda"}
			return err
		}
	} else {
		w.solver.Solve(a, lambda)
		w.stats.Solves++
	}
	for i, x := range a {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			w.lad.worst = Residual{Block: "acceleration", Index: i, Value: x, Owner: dae.CoordinateName(w.sys, i)}
			return ErrNonFinite
		}
	}
	if !allFinite(lambda) {
		w.lad.worst = Residual{Block: "lambda", Value: math.NaN()}
		return ErrNonFinite
	}
	return nil
}

// Step takes one step of size FixedH (shortened to land on tEnd).
func (m *RK4) Step(tEnd float64) error {
	mustInit(m.w != nil, "rk4")
	return m.w.lad.step(tEnd)
}

// attempt computes the stages and the new state into w.it.
func (w *rk4Work) attempt(h float64) (int, error) {
	err := w.stages(w.cur.T, h)
	if err != nil {
		w.stats.countFailure(err)
	}
	return 0, err
}

// errorNorm is 0: constant steps have no error estimate.
func (w *rk4Work) errorNorm(float64) float64 { return 0 }

// commit makes the step in w.it the current state.
func (w *rk4Work) commit(float64) error {
	w.prev.CopyFrom(&w.cur)
	w.cur.CopyFrom(&w.it)
	w.stats.Steps++
	return nil
}

// stages computes the stages and the new state into w.it.
func (w *rk4Work) stages(t, h float64) error {
	s := &w.cur
	copy(w.kq[0], s.V)
	copy(w.kv[0], s.A)
	for st, c := range [3]float64{0.5, 0.5, 1} {
		for i := range w.qs {
			w.qs[i] = s.Q[i] + c*h*w.kq[st][i]
			w.vs[i] = s.V[i] + c*h*w.kv[st][i]
		}
		copy(w.kq[st+1], w.vs)
		if err := w.eval(t+c*h, w.qs, w.vs, w.kv[st+1], w.it.Lambda); err != nil {
			return err
		}
	}
	it := &w.it
	it.T = t + h
	for i := range it.Q {
		it.Q[i] = s.Q[i] + h/6*(w.kq[0][i]+2*w.kq[1][i]+2*w.kq[2][i]+w.kq[3][i])
		it.V[i] = s.V[i] + h/6*(w.kv[0][i]+2*w.kv[1][i]+2*w.kv[2][i]+w.kv[3][i])
	}
	if !allFinite(it.Q) || !allFinite(it.V) {
		w.lad.worst = Residual{Block: "position or velocity", Value: math.NaN()}
		return ErrNonFinite
	}
	if w.project {
		if err := w.projectState(it); err != nil {
			return err
		}
		return w.accel(it.T, it.Q, it.V, it.A, it.Lambda) // factorization at q̂ from the velocity projection
	}
	return w.eval(it.T, it.Q, it.V, it.A, it.Lambda)
}

// projectState applies eqs. 89 and 91 to s (see RK4) and leaves [M Gᵀ; G 0] factorized at
// the projected q.
func (w *rk4Work) projectState(s *State) error {
	if err := w.factor(s.T, s.Q); err != nil {
		return err
	}
	if !projectPositions(w.sys, w.solver, s.T, s.Q, w.r, w.dq, rk4ProjTol, rk4ProjMaxIters, &w.stats) &&
		// near a singular position the correction is noise while q̂ satisfies g = 0
		!(allFinite(s.Q) && onManifold(w.r, maxAbs(s.Q))) {
		return projectionFailure(w.sys, s.Q, w.r, &w.lad.worst, "seed 002, eq. 89")
	}
	w.stats.Projections++
	if err := w.factor(s.T, s.Q); err != nil {
		return err
	}
	w.sys.ConstraintTimeDerivative(w.gt, s.T, s.Q)
	if w.sp != nil {
		w.sp.gxPlus(w.r, s.V, w.gt)
		for k := range w.r {
			w.r[k] = -w.r[k]
		}
	} else {
		for k := range w.r {
			sum := w.gt[k]
			for j, g := range w.G.RawRowView(k) {
				sum += g * s.V[j]
			}
			w.r[k] = -sum
		}
	}
	clear(w.dq)
	w.solver.Solve(w.dq, w.r)
	w.stats.Solves++
	for i, d := range w.dq {
		s.V[i] += d
	}
	w.stats.Projections++
	return nil
}

// Interpolate writes the dense output at t in [Previous().T, Current().T] into dst by cubic
// Hermite interpolation (third order in q and v).
func (m *RK4) Interpolate(dst *State, t float64) { hermiteInterpolate(dst, &m.w.prev, &m.w.cur, t) }
