package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// DOPRI5 integrates the index-1 formulation of seed 002, eq. 84,
//
//	q' = v,   v' = a(t,q,v),   [M Gᵀ; G 0](a, λ) = (f, γ)      (eqs. 84c, 17),
//
// by the explicit embedded Runge-Kutta pair of Dormand and Prince, order 5 with an order-4
// error estimator and the first-same-as-last property (Hairer, Nørsett & Wanner 1993,
// "Solving ODEs I", II.5, Table 5.2). Every stage solves the KKT system (17) at its own q,
// so each right-side evaluation is one factorization of [M Gᵀ; G 0].
//
// With Formulation Index1Projected (the default) every accepted step is followed by the
// mass-orthogonal projection of the positions onto g = 0 (seed 002, eq. 89: simplified
// Newton on min ½‖q̂ − q‖²_M subject to g(t,q̂) = 0 with the KKT matrix of the step's last
// stage) and of the velocities onto G v̂ + g_t = 0 (eq. 91); a and λ are then recomputed at
// the projected state, which is the first stage of the next step (FSAL). With Index1 the
// solution is left as computed and the drift off g = 0 and G v + g_t = 0 grows with t.
//
// First-order states X' = F(t, q, v, X) of a dae.FirstOrder system (seed 004, eq. 8a) are
// integrated by the same stages: y = (q, v, X), the state force f_X joins f in eq. 17, X
// is in the error estimate and the dense output and is not projected.
//
// The error estimate ‖y₅ − y₄‖ is the WeightedRMS over (q, v, X); λ is not controlled. The
// step size follows the controller with estimator order 4 (exponent 1/5, in the PI form
// of the code DOPRI5 with β = 0.04); with StepControl.FixedH > 0 the error test is
// skipped. Dense output is the 4th-order
// continuous extension of Dormand and Prince (HNW II.6, the coefficients of the code
// DOPRI5), built on the projected end values so that it is continuous across steps.
//
// Counters: FuncEvals counts KKT right-side evaluations (one M, f, G, γ and one
// factorization each): 1 in Init, 1 for the starting-step trial when H0 = 0 and the run is
// adaptive, 6 per attempt, plus 1 per accepted step at the projected state with
// Index1Projected, plus 1 per Interpolate at a point strictly inside a step. Factorizations
// equals FuncEvals. Solves counts all KKT solves (stages, projection iterations, the
// velocity projection). Projections counts 2 per accepted projected step (eq. 89 and eq.
// 91). A failed attempt counts once by its cause (Stats): Rejected for a failed error test,
// NonFinite for a non-finite stage, Singular for a singular KKT matrix, NewtonFailures for
// a projection that did not converge (an attempt stopped at a failing stage evaluates
// fewer than 6 stages).
//
// Current holds q, v and, from eq. 17, a and λ: at the projected state with
// Index1Projected, at the step result with Index1.
type DOPRI5 struct {
	// Formulation is Index1Projected or Index1; the zero value means Index1Projected.
	Formulation

	name      string      // registry name: "dopri5" when empty, "mdop5" for its alias
	w         *dopri5Work // sized by Init
	*accepted             // Current, Previous, Stats (method.go)
}

var dopri5Entry = Entry{
	Name:           "dopri5",
	Title:          "Dormand-Prince 5(4), explicit, on the index-1 form with projection",
	Seed:           "002",
	Equations:      "84, 89, 91; HNW II.5",
	Formulations:   []Formulation{Index1Projected, Index1},
	Order:          Order{Q: 5, V: 5, Lambda: 5},
	Adaptive:       true,
	States:         true,
	ReactionForces: true,
	Nonholonomic:   []Formulation{Index1Projected, Index1},
	New:            func() Method { return &DOPRI5{} },
}

// Dormand-Prince 5(4) coefficients (Hairer, Nørsett & Wanner 1993, II.5, Table 5.2).
// Row s of dp5A holds a_{s+1,j}; the last row equals dp5B (FSAL). dp5E = b − b̂ gives the
// error estimate y₅ − y₄ = h Σ e_i k_i. The identities (row sums = c_i, Σ b = Σ b̂ = 1, the
// order conditions) are checked in dopri5_test.go.
var (
	dp5C = [7]float64{0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1}
	dp5A = [7][6]float64{
		{},
		{1.0 / 5},
		{3.0 / 40, 9.0 / 40},
		{44.0 / 45, -56.0 / 15, 32.0 / 9},
		{19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
		{9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
		{35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
	}
	dp5B    = [7]float64{35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0}
	dp5BHat = [7]float64{5179.0 / 57600, 0, 7571.0 / 16695, 393.0 / 640, -92097.0 / 339200, 187.0 / 2100, 1.0 / 40}
	dp5E    = [7]float64{
		35.0/384 - 5179.0/57600, 0, 500.0/1113 - 7571.0/16695, 125.0/192 - 393.0/640,
		-2187.0/6784 + 92097.0/339200, 11.0/84 - 187.0/2100, -1.0 / 40,
	}
	// dp5D are the coefficients d_i of the dense output of the code DOPRI5 (Hairer,
	// Nørsett & Wanner 1993, II.6; Shampine 1986): with θ₁ = 1 − θ, Δ = y₁ − y₀,
	//
	//	u(θ) = y₀ + θ(Δ + θ₁(h k₁ − Δ + θ(2Δ − h(k₁ + k₇) + θ₁ h Σ d_i k_i)))
	//
	// is a continuous extension of order 4 with u(1) = y₁, u'(0) = k₁, u'(1) = k₇.
	dp5D = [7]float64{
		-12715105075.0 / 11282082432, 0, 87487479700.0 / 32700410799, -10690763975.0 / 1880347072,
		701980252875.0 / 199316789632, -1453857185.0 / 822651844, 69997945.0 / 29380423,
	}
)

const (
	dp5Order = 4    // order of the embedded solution: e ~ h⁵, exponent 1/5 in the controller
	dp5Beta  = 0.04 // PI step-size control as in the code DOPRI5 (HNW II.4: BETA = 0.04)

	// dp5ProjTol stops the position projection when the weighted RMS norm of the last
	// correction is below it: a millionth of the error tolerance, invisible to the error
	// control. The iteration converges fast because the correction is of the size of the
	// local error and the simplified-Newton rate is proportional to it (1-2 iterations).
	dp5ProjTol = 1e-6
	// dp5ProjMaxIters bounds the projection iterations; more than this means the step
	// left the neighbourhood where the KKT matrix of its last stage is a good Jacobian.
	dp5ProjMaxIters = 5
)

// dopri5Work is the per-run state and workspace, allocated once by Init.
type dopri5Work struct {
	name   string        // registry name, for messages
	half   *hedop5Stages // non-nil: the stages are HEDOP5's half-explicit ones (hedop5.go)
	sys    dae.System
	nq, nc int
	form   Formulation

	// First-order states (dae.FirstOrder, seed 004 eq. 8a): nd > 0 appends X to y, so that
	// y = (q, v, X) and k = (v, a, X'); the state force f_X joins f in eq. 17.
	nd     int
	fo     dae.FirstOrder
	fx     []float64 // nq: f_X scratch
	xdPrev []float64 // nd: X' at prev, for the dense output

	lad  ladder     // the step loop (ladder.go)
	ctl  controller // the step-size rule (PI form)
	tEnd float64    // of the Step under way, to land on it exactly

	M, G *mat.Dense  // G is nil when nc = 0; both nil on the sparse evaluation path
	sp   *sparseEval // the sparse evaluation path (sparseeval.go), or nil
	// kkt factorizes [M Gᵀ; G 0] (sparse for large systems with dae.Sparsity); asym, when
	// set (HEDOP5), factorizes the unsymmetric [M Gᵀ; C 0] of its half-explicit stages and
	// then also serves as kkt.
	kkt linalg.SaddlePoint
	// rec solves eq. 17 through dae.MassSolver (massschur.go) instead of kkt; solver is
	// whichever of the two the stages use.
	rec    *massSchur
	solver interface{ Solve(x, y []float64) }
	asym   asymKKT
	// watch reports the singular positions the run steps over (dopri5 with kkt only:
	// hedop5's factorization after a step is the unsymmetric one of its stages, and the
	// recursive route (rec) holds no saddle-point factorization).
	watch singularWatch
	gt    []float64 // nc: g_t, then residual right sides
	r     []float64 // nc scratch
	lam   []float64 // nc: λ of the stage being evaluated
	lam7  []float64 // nc: λ of the last stage (at the unprojected y₁)
	// rxa solves eq. 17 with forces that depend on λ (dae.ReactionForce) by Newton on λ
	// (reactionaccel.go), or nil.
	rxa *reactionAccel

	accepted         // cur, prev, stats: Current, Previous, Stats
	hLast    float64 // cur.T − prev.T

	y0, y1, ytmp, yerr []float64    // 2nq+nd: (q, v, X) stacked
	k                  [7][]float64 // 2nq+nd each: k_i = (v_i, a_i, X'_i); k[0] = derivative at cur (FSAL)
	rc5                []float64    // 2nq+nd: h Σ d_i k_i of the last accepted step
	dq                 []float64    // nq projection correction
}

// Init resolves the formulation, checks that start is consistent (‖g‖∞ and ‖G v + g_t‖∞
// at most ATol; seed 002 eq. 19) and that the KKT matrix at start is regular, computes a and
// λ at start from eq. 17 (start.A and start.Lambda are not used) and sizes the workspace.
// StepControl fields are validated here; defaults that depend on the time span (HMin,
// HMax) are resolved from the tEnd of the first Step.
func (m *DOPRI5) Init(sys dae.System, start State, ctl StepControl) error {
	e := dopri5Entry
	if m.name == mdop5Entry.Name {
		e = mdop5Entry
	}
	name := e.Name
	form, err := e.formulation(m.Formulation)
	if err != nil {
		return err
	}
	sys, err = withPfaffian(name, sys)
	if err != nil {
		return err
	}
	w, err := newDopri5Work(name, form, sys, start, ctl, true)
	if err != nil {
		return err
	}
	m.w, m.accepted = w, &w.accepted
	return nil
}

// newDopri5Work checks start and ctl as DOPRI5.Init documents and returns the workspace of
// a run of the method called name (dopri5, mdop5 or hedop5, which share this code) with
// formulation form, already validated by the caller.
func newDopri5Work(name string, form Formulation, sys dae.System, start State, ctl StepControl, sparse bool) (*dopri5Work, error) {
	nq, nc := sys.Size()
	nd := dae.StateSize(sys)
	if len(start.X) != nd {
		return nil, fmt.Errorf("integrate: %s: start.X has length %d, the system has %d first-order states", name, len(start.X), nd)
	}
	if i, bad := firstNonFinite(start.X); bad {
		return nil, fmt.Errorf("integrate: %s: start is not finite at first-order state %d: X = %g", name, i, start.X[i])
	}
	if len(start.Q) != nq || len(start.V) != nq {
		panic(fmt.Sprintf("integrate: %s: start has len(Q) = %d, len(V) = %d, want nq = %d", name, len(start.Q), len(start.V), nq))
	}
	for i := range nq {
		if x, y := start.Q[i], start.V[i]; math.IsNaN(x+y) || math.IsInf(x+y, 0) {
			return nil, fmt.Errorf("integrate: %s: start is not finite at coordinate %d (%s): q = %g, v = %g",
				name, i, dae.CoordinateName(sys, i), x, y)
		}
	}
	if math.IsNaN(start.T) || math.IsInf(start.T, 0) {
		return nil, fmt.Errorf("integrate: %s: start time T = %g, want a finite value", name, start.T)
	}
	c, err := ctl.resolveAt(start.T, len(start.Q)) // validates fields; span-dependent defaults come later
	if err != nil {
		return nil, fmt.Errorf("integrate: %s: %w", name, err)
	}

	w := &dopri5Work{name: name, sys: sys, nq: nq, nc: nc, nd: nd, form: form}
	w.lad = ladder{name: name, m: w, raw: ctl, explicit: true, rule: &w.ctl, stats: &w.stats, cur: &w.cur, fc: newFailureContext(sys, &start)}
	if sparse {
		w.sp = newSparseEval(sys, false)
	}
	if w.sp == nil {
		if w.rec = newMassSchur(sys); w.rec == nil {
			w.M = mat.NewDense(nq, nq, nil)
		}
		if nc > 0 {
			w.G = mat.NewDense(nc, nq, nil)
		}
	}
	if w.rec != nil {
		w.solver = w.rec // M is never formed: O(N) per stage for a tree
	} else {
		w.kkt = newSaddlePoint(sys)
		w.solver = w.kkt
		w.watch = newSingularWatch(nq, nc)
	}
	w.rxa = newReactionAccel(sys, w.sp)
	w.gt = make([]float64, nc)
	w.r = make([]float64, nc)
	w.lam = make([]float64, nc)
	w.lam7 = make([]float64, nc)
	w.cur = NewState(nq, nc)
	w.prev = NewState(nq, nc)
	if nd > 0 {
		w.fo = sys.(dae.FirstOrder)
		w.fx = make([]float64, nq)
		w.xdPrev = make([]float64, nd)
		w.cur.X = make([]float64, nd)
		w.prev.X = make([]float64, nd)
	}
	ny := 2*nq + nd
	w.y0 = make([]float64, ny)
	w.y1 = make([]float64, ny)
	w.ytmp = make([]float64, ny)
	w.yerr = make([]float64, ny)
	for i := range w.k {
		w.k[i] = make([]float64, ny)
	}
	w.rc5 = make([]float64, ny)
	w.dq = make([]float64, nq)

	w.cur.T = start.T
	copy(w.cur.Q, start.Q)
	copy(w.cur.V, start.V)
	copy(w.cur.X, start.X)
	if nc > 0 {
		r := measureStart(w.sp, sys, start)
		if !(r.Pos <= c.ATol) {
			return nil, fmt.Errorf("integrate: %s: start is not consistent: position constraint %d (%s) = %.3g exceeds ATol = %g",
				name, r.WorstPos, dae.ConstraintName(sys, r.WorstPos), r.Pos, c.ATol)
		}
		if !(r.Vel <= c.ATol) {
			return nil, fmt.Errorf("integrate: %s: start is not consistent: velocity constraint residual ‖G v + g_t‖ = %.3g exceeds ATol = %g",
				name, r.Vel, c.ATol)
		}
	}
	if err := w.eval(start.T, w.cur.Q, w.cur.V, w.cur.X, w.cur.A, w.cur.Lambda); err != nil {
		where := w.lad.worst.Block
		if o := w.owner(w.lad.worst); o != "" {
			where = fmt.Sprintf("%s %d (%s) = %g", where, w.lad.worst.Index, o, w.lad.worst.Value)
		}
		return nil, fmt.Errorf("integrate: %s: at the start t=%g: %s: %w", name, start.T, where, err)
	}
	copy(w.k[0][:nq], w.cur.V)
	copy(w.k[0][nq:2*nq], w.cur.A)
	w.stateRate(w.k[0][2*nq:], start.T, w.cur.Q, w.cur.V, w.cur.X)
	w.prev.CopyFrom(&w.cur)
	return w, nil
}

// Step takes one accepted step toward tEnd (never past it). On failure it returns a
// *StepError and leaves Current, Previous and the dense output untouched.
func (m *DOPRI5) Step(tEnd float64) error {
	mustInit(m.w != nil, "dopri5")
	return m.w.step(tEnd)
}

// step is Step of the methods sharing dopri5Work: one accepted step toward tEnd.
func (w *dopri5Work) step(tEnd float64) error {
	if err := w.lad.begin(tEnd); err != nil {
		return err
	}
	w.tEnd = tEnd
	return w.lad.step(tEnd)
}

// attempt computes the stages of a step of size h.
func (w *dopri5Work) attempt(h float64) (int, error) {
	err := w.stages(w.cur.T, h)
	if err != nil {
		w.stats.countFailure(err)
		w.nameWorst()
	}
	return 0, err
}

// nameWorst fills in the owner of the worst component of a failed attempt.
func (w *dopri5Work) nameWorst() { w.lad.worst.Owner = w.owner(w.lad.worst) }

// setup chooses the first step (stepper). Toward tEnd = +Inf an explicit method keeps no
// HMax of its own (begin's unit span would cap its steps at 1) and takes its default HMin
// relative to the start, as over a span of max(1, |t0|).
func (w *dopri5Work) setup(tEnd float64) error {
	c, raw := w.lad.c, w.lad.raw
	if math.IsInf(tEnd, 1) {
		t0 := w.cur.T
		if raw.HMin == 0 {
			c.HMin = defaultHMin(t0, t0+math.Max(1, math.Abs(t0)))
		}
		if raw.HMax == 0 {
			c.HMax = math.Inf(1)
		}
	}
	w.lad.c = c
	w.ctl = newController(c, dp5Order, firstStepSize(c, func() float64 { return w.startingStep(tEnd) }))
	w.ctl.beta = dp5Beta
	return nil
}

// startingStep is the starting-step algorithm of Hairer, Nørsett & Wanner 1993, II.4
// (p. 169), with the norm of WeightedRMS and p = 5:
//
//	d₀ = ‖y₀‖, d₁ = ‖f(t₀,y₀)‖, h₀ = 0.01·d₀/d₁ (1e-6 if either is below 1e-5),
//	d₂ = ‖f(t₀+h₀, y₀+h₀f₀) − f₀‖/h₀, h₁ = (0.01/max(d₁,d₂))^(1/(p+1)),
//	h = min(100·h₀, h₁, HMax, tEnd − t₀).
//
// It costs one right-side evaluation.
func (w *dopri5Work) startingStep(tEnd float64) float64 {
	c := w.lad.c
	t0 := w.cur.T
	n := len(w.y0)
	w.loadY0()
	f0 := w.k[0]
	var d0, d1 float64
	for i := range n {
		sc := c.atolOf(i, w.nq, 2) + c.RTol*math.Abs(w.y0[i])
		d0 += (w.y0[i] / sc) * (w.y0[i] / sc)
		d1 += (f0[i] / sc) * (f0[i] / sc)
	}
	d0 = math.Sqrt(d0 / float64(n))
	d1 = math.Sqrt(d1 / float64(n))
	h0 := 1e-6
	if d0 >= 1e-5 && d1 >= 1e-5 {
		h0 = 0.01 * d0 / d1
	}
	h0 = math.Min(h0, math.Min(c.HMax, tEnd-t0))
	for i := range n {
		w.ytmp[i] = w.y0[i] + h0*f0[i]
	}
	k := w.k[1]
	if w.stage(t0+h0, w.ytmp, k, w.lam) != nil {
		return h0 // no second derivative estimate: start small
	}
	d2 := 0.0
	for i := range n {
		sc := c.atolOf(i, w.nq, 2) + c.RTol*math.Abs(w.y0[i])
		x := (k[i] - f0[i]) / sc
		d2 += x * x
	}
	d2 = math.Sqrt(d2/float64(n)) / h0
	h1 := math.Max(1e-6, h0*1e-3)
	if m := math.Max(d1, d2); m > 1e-15 {
		h1 = math.Pow(0.01/m, 1.0/6)
	}
	return math.Min(math.Min(100*h0, h1), math.Min(c.HMax, tEnd-t0))
}

// stages computes y₁ and the stages k₂…k₇ of an attempt of size h from (t, y₀); k₁ = k[0]
// is the derivative at the current state (FSAL). It returns ErrNonFinite or
// linalg.ErrSingular when a stage fails.
func (w *dopri5Work) stages(t, h float64) error {
	if w.half != nil {
		return w.half.stages(t, h)
	}
	w.loadY0()
	for s := 1; s < 7; s++ {
		y := w.ytmp
		if s == 6 {
			y = w.y1 // a₇ⱼ = b_j: the last stage input is the 5th-order result
		}
		copy(y, w.y0)
		for j := range s {
			if a := dp5A[s][j]; a != 0 {
				ha := h * a
				kj := w.k[j]
				for i := range y {
					y[i] += ha * kj[i]
				}
			}
		}
		lam := w.lam
		if s == 6 {
			lam = w.lam7
		}
		if err := w.stage(t+dp5C[s]*h, y, w.k[s], lam); err != nil {
			return err
		}
	}
	return nil
}

// loadY0 writes the current state into y₀ = (q, v, X).
func (w *dopri5Work) loadY0() {
	nq := w.nq
	copy(w.y0[:nq], w.cur.Q)
	copy(w.y0[nq:2*nq], w.cur.V)
	copy(w.y0[2*nq:], w.cur.X)
}

// stage evaluates k = (v, a(t,q,v,X), X'(t,q,v,X)) and λ at y = (q, v, X).
func (w *dopri5Work) stage(t float64, y, k, lam []float64) error {
	nq := w.nq
	q, v, x := y[:nq], y[nq:2*nq], y[2*nq:]
	copy(k[:nq], v)
	if err := w.eval(t, q, v, x, k[nq:2*nq], lam); err != nil {
		return err
	}
	w.stateRate(k[2*nq:], t, q, v, x)
	return nil
}

// stateRate writes X' = F(t, q, v, X) into dst (nothing without first-order states).
func (w *dopri5Work) stateRate(dst []float64, t float64, q, v, x []float64) {
	if w.nd > 0 {
		w.fo.StateRate(dst, t, q, v, x)
	}
}

// force writes the applied force f(t,q,v) + f_X(t,q,v,X) into dst.
func (w *dopri5Work) force(dst []float64, t float64, q, v, x []float64) {
	w.sys.Force(dst, t, q, v)
	if w.nd > 0 {
		w.fo.StateForce(w.fx, t, q, v, x)
		for i, f := range w.fx {
			dst[i] += f
		}
	}
}

// eval solves the KKT system of seed 002, eq. 17, [M Gᵀ; G 0](a, λ) = (f + f_X, γ), at
// (t, q, v, X). It records the offending component in w.lad.worst when it fails.
func (w *dopri5Work) eval(t float64, q, v, x, a, lam []float64) error {
	sys := w.sys
	w.evalMG(t, q)
	w.force(a, t, q, v, x)
	if w.nc > 0 {
		sys.Gamma(lam, t, q, v)
	}
	w.stats.FuncEvals++
	if err := w.factorize(); err != nil {
		return err
	}
	return w.accel(t, q, v, a, lam)
}

// evalMG evaluates M and G at (t, q): into w.M, w.G, or as values on the sparse path.
func (w *dopri5Work) evalMG(t float64, q []float64) {
	if w.rec != nil && w.sp == nil {
		if w.nc > 0 {
			w.sys.ConstraintJacobian(w.G, t, q)
		}
		w.rec.at(t, q, w.G)
		return
	}
	evalMG(w.sys, w.sp, w.M, w.G, t, q)
}

// factorize factorizes [M Gᵀ; G 0] as held in w.M, w.G (or w.sp).
func (w *dopri5Work) factorize() error {
	if w.sp != nil {
		return w.factorizeSparse()
	}
	return w.factorizeKKT(w.G)
}

// factorizeSparse is factorize on the sparse evaluation path.
func (w *dopri5Work) factorizeSparse() error {
	w.stats.Factorizations++
	sp := w.sp
	err := w.kkt.FactorizeSym(sp.kktArgs())
	if err == nil {
		return nil
	}
	if i, x, ok := firstNonFiniteRow(&sp.mass, sp.M); ok {
		w.lad.worst = Residual{Block: "mass matrix row", Index: i, Value: x}
		return ErrNonFinite
	}
	if i, x, ok := firstNonFiniteRow(&sp.con, sp.G); ok {
		w.lad.worst = Residual{Block: "constraint Jacobian row", Index: i, Value: x}
		return ErrNonFinite
	}
	w.lad.worst = Residual{Block: "KKT matrix"}
	return err
}

// factorizeKKT factorizes [M Gᵀ; C 0] with M, G held in w.M, w.G (C = G but for the
// half-explicit stages of HEDOP5, seed 002 eq. 81e, where C is G at the next stage point).
func (w *dopri5Work) factorizeKKT(C *mat.Dense) error {
	w.stats.Factorizations++
	if w.rec != nil {
		err := w.rec.factorize()
		if err != nil {
			w.lad.worst = Residual{Block: "KKT matrix"}
		}
		return err
	}
	var err error
	switch {
	case w.nc == 0:
		err = w.kkt.FactorizeSym(w.M, nil)
	case w.asym != nil:
		err = w.asym.Factorize(w.M, w.G, C, 0)
	case C == w.G:
		err = w.kkt.FactorizeSym(w.M, w.G)
	default:
		panic("integrate: dopri5: unsymmetric KKT matrix without a dense solver")
	}
	if err == nil {
		return nil
	}
	// linalg reports a non-finite matrix as singular; say which it was.
	if i, ok := firstNonFinite(w.M.RawMatrix().Data); ok {
		w.lad.worst = Residual{Block: "mass matrix row", Index: i / w.nq, Value: w.M.RawMatrix().Data[i]}
		return ErrNonFinite
	}
	if w.nc > 0 {
		for _, g := range [2]*mat.Dense{w.G, C} {
			if i, ok := firstNonFinite(g.RawMatrix().Data); ok {
				w.lad.worst = Residual{Block: "constraint Jacobian row", Index: i / w.nq, Value: g.RawMatrix().Data[i]}
				return ErrNonFinite
			}
		}
	}
	w.lad.worst = Residual{Block: "KKT matrix"}
	return err
}

// accel is solveAcc at the state (t, q, v), with the forces that depend on λ added when
// the system has them (Newton on λ, reactionaccel.go).
func (w *dopri5Work) accel(t float64, q, v, a, lam []float64) error {
	if w.rxa == nil {
		return w.solveAcc(a, lam)
	}
	if err := w.rxa.solve(w.solver, a, lam, t, q, v, &w.stats); err != nil {
		w.lad.worst = Residual{Block: "lambda"}
		return err
	}
	return w.checkAcc(a, lam)
}

// solveAcc overwrites (a, lam), holding (f, γ), with the solution of eq. 17 and checks it.
func (w *dopri5Work) solveAcc(a, lam []float64) error {
	w.solver.Solve(a, lam)
	w.stats.Solves++
	return w.checkAcc(a, lam)
}

// checkAcc records a non-finite acceleration or multiplier as the worst residual.
func (w *dopri5Work) checkAcc(a, lam []float64) error {
	if i, ok := firstNonFinite(a); ok {
		w.lad.worst = Residual{Block: "acceleration", Index: i, Value: a[i]}
		return ErrNonFinite
	}
	if i, ok := firstNonFinite(lam); ok {
		w.lad.worst = Residual{Block: "lambda", Index: i, Value: lam[i]}
		return ErrNonFinite
	}
	return nil
}

// errorNorm returns ‖h Σ e_i k_i‖ (WeightedRMS over q and v, weights from y₀ and y₁); the
// error vector stays in w.yerr.
func (w *dopri5Work) errorNorm(h float64) float64 {
	clear(w.yerr)
	for s, e := range dp5E {
		if e == 0 {
			continue
		}
		he := h * e
		for i, x := range w.k[s] {
			w.yerr[i] += he * x
		}
	}
	e := w.lad.c.weightedRMS(w.yerr, w.y0, w.y1, w.nq, 2)
	if !(e <= 1) && (!w.lad.fixed || fixedStepDiverged(e, w.lad.c.RTol)) { // a failure to report
		w.worstError()
		w.nameWorst()
	}
	return e
}

// worstError records the largest weighted component of the rejected error estimate.
func (w *dopri5Work) worstError() {
	best, bi := -1.0, 0
	for i, x := range w.yerr {
		s := math.Abs(x) / w.lad.c.weight(i, w.y0, w.y1, w.nq, 2)
		if s > best || math.IsNaN(s) {
			best, bi = s, i
			if math.IsNaN(s) {
				break
			}
		}
	}
	switch nq := w.nq; {
	case bi < nq:
		w.lad.worst = Residual{Block: "position error", Index: bi, Value: best}
	case bi < 2*nq:
		w.lad.worst = Residual{Block: "velocity error", Index: bi - nq, Value: best}
	default:
		w.lad.worst = Residual{Block: "first-order state error", Index: bi - 2*nq, Value: best}
	}
}

// commit finishes an attempt that passed its error test: projection (Index1Projected),
// dense-output coefficients, and the new current state. It changes nothing when it fails.
func (w *dopri5Work) commit(h float64) error {
	t := w.cur.T
	tNew := end(t, h, w.tEnd)
	nq := w.nq
	// Dense output: h Σ d_i k_i with the stages of this step (into yerr, free now).
	rc5 := w.yerr
	clear(rc5)
	for s, d := range dp5D {
		if d == 0 {
			continue
		}
		hd := h * d
		for i, x := range w.k[s] {
			rc5[i] += hd * x
		}
	}
	// yNew = ytmp, kNew = k[1], lamNew = lam: the stage buffers are free after the stages.
	yNew, kNew := w.ytmp, w.k[1]
	if (w.form == Index1Projected || w.form == Index2Projected) && w.nc > 0 {
		if err := w.project(tNew, yNew, kNew, w.lam); err != nil {
			w.nameWorst()
			return err
		}
		copy(w.lam7, w.lam)
	} else {
		copy(yNew, w.y1)
		copy(kNew, w.k[6])
	}
	w.prev.CopyFrom(&w.cur)
	copy(w.xdPrev, w.k[0][2*nq:])
	w.cur.T = tNew
	copy(w.cur.Q, yNew[:nq])
	copy(w.cur.V, yNew[nq:2*nq])
	copy(w.cur.X, yNew[2*nq:])
	copy(w.cur.A, kNew[nq:2*nq])
	copy(w.cur.Lambda, w.lam7)
	copy(w.k[0], kNew)
	copy(w.rc5, rc5)
	w.hLast = tNew - t
	w.stats.Steps++
	if w.asym == nil && w.rec == nil {
		w.watch.observe(w.kkt, &w.cur, &w.lad.fc)
	}
	return nil
}

// project writes into (yNew, kNew, lam) the projection of y₁ onto the constraint manifold
// and the derivative and λ there. The KKT matrix is still factorized at the last stage
// (t₁, q₁), which serves as the simplified-Newton matrix of eq. 89:
//
//	[M(q₁) G(q₁)ᵀ; G(q₁) 0](Δq, μ) = (0, −g(t₁, q̂)),   q̂ ← q̂ + Δq,
//
// then, at q̂, eq. 91: [M Gᵀ; G 0](Δv, μ) = (0, −(G v₁ + g_t)), v̂ = v₁ + Δv, and eq. 17
// for (â, λ̂) with the same factorization. First-order states X are not projected.
func (w *dopri5Work) project(t1 float64, yNew, kNew, lam []float64) error {
	nq, sys := w.nq, w.sys
	q1 := w.y1[:nq]
	qh, vh, xh := yNew[:nq], yNew[nq:2*nq], yNew[2*nq:]
	copy(qh, q1)
	copy(xh, w.y1[2*nq:])
	prevNorm := math.Inf(1)
	for it := 1; ; it++ {
		sys.Constraint(w.r, t1, qh)
		for i := range w.r {
			w.r[i] = -w.r[i]
		}
		clear(w.dq)
		w.solver.Solve(w.dq, w.r)
		w.stats.Solves++
		qmax := 0.0
		for i, d := range w.dq {
			qh[i] += d
			qmax = math.Max(qmax, math.Abs(qh[i]))
		}
		if i, bad := firstNonFinite(qh); bad {
			w.lad.worst = Residual{Block: "position", Index: i, Value: qh[i]}
			return ErrNonFinite
		}
		norm := w.lad.c.weightedRMS(w.dq, q1, q1, len(w.dq), 1)
		dmax := 0.0
		for _, d := range w.dq {
			dmax = math.Max(dmax, math.Abs(d))
		}
		// Converged: the correction is negligible for the error control, or at rounding level.
		if norm <= dp5ProjTol || dmax <= 4*epsilon*qmax {
			break
		}
		if it == dp5ProjMaxIters || norm >= prevNorm {
			sys.Constraint(w.r, t1, qh)
			if onManifold(w.r, qmax) {
				break // near a singular position: the correction is noise, q̂ satisfies g = 0
			}
			i, worst := 0, -1.0
			for j, g := range w.r {
				if math.Abs(g) > worst {
					i, worst = j, math.Abs(g)
				}
			}
			w.lad.worst = Residual{Block: "position constraint", Index: i, Value: w.r[i]}
			return fmt.Errorf("position projection (eq. 89): %w", ErrNoConvergence)
		}
		prevNorm = norm
	}
	w.stats.Projections++

	// eq. 91 at q̂, and eq. 17 for â, λ̂ with the same factorization (the FSAL evaluation).
	v1 := w.y1[nq : 2*nq]
	w.evalMG(t1, qh)
	w.stats.FuncEvals++
	if err := w.factorize(); err != nil {
		return err
	}
	sys.ConstraintTimeDerivative(w.gt, t1, qh)
	w.velocityResidual(v1)
	clear(w.dq)
	w.solver.Solve(w.dq, w.r)
	w.stats.Solves++
	for i, d := range w.dq {
		vh[i] = v1[i] + d
	}
	w.stats.Projections++
	copy(kNew[:nq], vh)
	a := kNew[nq : 2*nq]
	w.force(a, t1, qh, vh, xh)
	sys.Gamma(lam, t1, qh, vh)
	w.stateRate(kNew[2*nq:], t1, qh, vh, xh)
	return w.accel(t1, qh, vh, a, lam)
}

// velocityResidual writes −(G v + g_t) into w.r, with g_t in w.gt.
func (w *dopri5Work) velocityResidual(v []float64) {
	if w.sp == nil {
		for i := range w.r {
			s := w.gt[i]
			for j, gij := range w.G.RawRowView(i) {
				s += gij * v[j]
			}
			w.r[i] = -s
		}
		return
	}
	p := &w.sp.con
	for i := range w.r {
		s := w.gt[i]
		lo := p.RowStart[i]
		for t, j := range p.Row(i) {
			s += w.sp.G[lo+t] * v[j]
		}
		w.r[i] = -s
	}
}

// firstNonFiniteRow returns the row and value of the first NaN or Inf in the values v of
// pattern p.
func firstNonFiniteRow(p *dae.CSR, v []float64) (int, float64, bool) {
	for i := range p.NRows {
		for t := p.RowStart[i]; t < p.RowStart[i+1]; t++ {
			if math.IsNaN(v[t]) || math.IsInf(v[t], 0) {
				return i, v[t], true
			}
		}
	}
	return 0, 0, false
}

const epsilon = 0x1p-52 // float64 machine epsilon

// firstNonFinite returns the index of the first NaN or Inf in x.
func firstNonFinite(x []float64) (int, bool) {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return i, true
		}
	}
	return 0, false
}

// owner names the coordinate or constraint of r.
func (w *dopri5Work) owner(r Residual) string {
	switch r.Block {
	case "position error", "velocity error", "position", "velocity", "acceleration", "mass matrix row":
		return dae.CoordinateName(w.sys, r.Index)
	case "lambda", "position constraint", "constraint Jacobian row":
		return dae.ConstraintName(w.sys, r.Index)
	}
	return ""
}

// Interpolate writes into dst the dense output at t in [Previous().T, Current().T]: q and
// v from the 4th-order continuous extension of Dormand and Prince, and a, λ from eq. 17 at
// the interpolated (t, q, v) (one right-side evaluation, counted in Stats; NaN when the KKT
// matrix is singular there). The interpolated q and v satisfy the constraints only to the
// accuracy of the method. It panics when t lies outside the last step.
func (m *DOPRI5) Interpolate(dst *State, t float64) { m.w.interpolate(dst, t) }

// InterpolateKinematics writes into dst the q, v (and X) of Interpolate at t without
// solving eq. 17 there: dst.A and dst.Lambda are NaN (KinematicInterpolator).
func (m *DOPRI5) InterpolateKinematics(dst *State, t float64) { m.w.interpolateKinematics(dst, t) }

// interpolate is Interpolate of the methods sharing dopri5Work.
func (w *dopri5Work) interpolate(dst *State, t float64) {
	if !w.interpolateKinematics(dst, t) {
		return
	}
	if w.eval(t, dst.Q, dst.V, dst.X, dst.A, dst.Lambda) != nil {
		fillNaN(dst.A)
		fillNaN(dst.Lambda)
	}
}

// interpolateKinematics writes the continuous extension of q, v and X at t into dst and
// NaN into dst.A and dst.Lambda, and reports true; at either end of the last step it
// copies that state and reports false (nothing left to evaluate).
func (w *dopri5Work) interpolateKinematics(dst *State, t float64) bool {
	p, c := &w.prev, &w.cur
	if t == c.T {
		dst.CopyFrom(c)
		return false
	}
	if t == p.T {
		dst.CopyFrom(p)
		return false
	}
	if !(t > p.T && t < c.T) {
		panic(fmt.Sprintf("integrate: %s: Interpolate at t = %g outside the last step [%g, %g]", w.name, t, p.T, c.T))
	}
	nq := w.nq
	h := w.hLast
	theta := (t - p.T) / h
	theta1 := 1 - theta
	for i := range len(w.rc5) {
		var y0, y1, k1, k7 float64
		switch {
		case i < nq:
			y0, y1, k1, k7 = p.Q[i], c.Q[i], p.V[i], c.V[i]
		case i < 2*nq:
			j := i - nq
			y0, y1, k1, k7 = p.V[j], c.V[j], p.A[j], c.A[j]
		default:
			j := i - 2*nq
			y0, y1, k1, k7 = p.X[j], c.X[j], w.xdPrev[j], w.k[0][i]
		}
		diff := y1 - y0
		bspl := h*k1 - diff
		rc4 := diff - h*k7 - bspl
		u := y0 + theta*(diff+theta1*(bspl+theta*(rc4+theta1*w.rc5[i])))
		switch {
		case i < nq:
			dst.Q[i] = u
		case i < 2*nq:
			dst.V[i-nq] = u
		default:
			dst.X[i-2*nq] = u
		}
	}
	dst.T = t
	fillNaN(dst.A)
	fillNaN(dst.Lambda)
	return true
}

// fillNaN sets every entry of x to NaN.
func fillNaN(x []float64) {
	for i := range x {
		x[i] = math.NaN()
	}
}
