package integrate

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// BDF integrates the equations of motion in a first-order form K y' = φ(t, y) (see
// semiExplicit; seed 002, section 4.2, eqs. 71, 75) by the backward differentiation
// formulas of orders 1 to 5 with variable step size and variable order, in the
// fixed-leading-coefficient, modified-divided-difference form of DASSL and IDA (Brenan,
// Campbell & Petzold 1996, ch. 5; the SUNDIALS IDA documentation):
//
//	0 = G(y_{n+1}) = K y'_{n+1} − φ(t_{n+1}, y_{n+1}),
//	y'_{n+1} = y'_pred + c_j (y_{n+1} − y_pred),   c_j = −α_s / h,   α_s = −Σ_{i=1..k} 1/i,
//
// where y_pred and y'_pred come from the interpolating polynomial through the last k+1
// values (the φ_j arrays). Seed 002 eq. 75 is this formula at constant h. Newton runs on
// G with the iteration matrix c_j K − ∂φ/∂y, kept (with its LU) across steps while the
// corrector contracts with rate θ ≤ Newton.ReuseRate and c_j/c_j(J) stays in [0.6, 1.67]
// (IDA's band); a stale matrix is corrected by the factor 2/(1 + c_j/c_j(J)) (IDA) and,
// after a failure, refreshed once before h is cut.
//
// Formulations (Formulation field): "ggl" (default; seed 002 eq. 92: G v + g_t = 0 and
// g = 0 with q' = v − Gᵀμ; the GSTIFF-like baseline of seed 004's remarks), "index2"
// (eq. 79, drifts in g), "index3" (eq. 77: the Newton matrix grows like h⁻³ and the
// error estimates of v are those of an index-2 variable; as DASSL on index 3 it needs
// small tolerances and may fail at order changes), "index1" (eq. 83, drifts in g and
// G v), "baumgarte" (seed 000, eq. 5) and "index2-baumgarte" (eq. 87, α₀ = C/FixedH with
// fixed steps, the constant C/HMax with error control: index2BaumgarteAlpha0).
//
// Error control: the local error estimate of order k (σ_k‖e‖, IDA's ck·‖e‖ with the
// variable-step constant) is measured in the weighted RMS norm with weights
// 1/(ATol + RTol·|y_n,i|) over the differential components q and v only: a, λ and μ are
// left out, as IDA's suppressalg and seed 002 (section 4.2) ask, since the estimates of
// algebraic variables of index 2 and 3 do not tend to zero with h and must not drive the
// step size. The Newton stop θ/(1−θ)·‖Δ‖ ≤ Newton.Tol uses all components, each of index
// i scaled by h^(i−1) as radau5 scales its error (Hairer & Wanner 1996, VII.8), except
// GGL's μ, measured by the q increment Gᵀδμ/c_j it stands for (bdfWork.newtonNorm). With
// error control on the direct solve, an increment with θ/(1−θ)·‖Δ‖ ≤ 10·Newton.Tol also
// ends the iteration when the constraint rows of the residual at the new iterate are below
// Newton.Tol in the weights of the variables they constrain (bdfStop).
// Order and step selection follow IDA: estimates at orders k−1, k, k+1, the start phase
// that raises the order and doubles h after every step, h kept unless it can double or
// must shrink (factor in [0.5, 0.9]), and after an error-test failure h·0.9(2e+1e-4)^(−1/(k+1))
// in [0.25, 0.9], then 0.25 with order k−1, then 0.25 with order 1. A Newton failure cuts
// h by 0.25. StepControl's Safety, MinShrink and MaxGrow do not apply: these IDA factors
// replace them.
//
// With StepControl.FixedH the order is MaxOrder throughout: the first MaxOrder grid
// points are computed by this same method, adaptive, at tolerance 1e-12 (each counted as
// one step in Stats.Steps, its substeps in the other counters), and the backward
// differences of those k+1 grid values start the fixed-step formula of order k. Unset
// RTol (and ATol) default to 1e-12 in fixed-step mode, where they only set the Newton stop.
type BDF struct {
	// Formulation is the first-order form integrated, one of those of bdfEntry ["ggl"].
	Formulation
	// MaxOrder is the largest order, 1 to 5 [5]. With FixedH it is the order used.
	MaxOrder int
	// FixedOrder keeps the order at MaxOrder once the start phase has reached it (no
	// lowering or raising by the estimates) [false].
	FixedOrder bool
	// BaumgarteAlpha, BaumgarteBeta are α and β of seed 000, eq. 5 (formulation
	// "baumgarte"), ≥ 0; zero takes the default [10, 100]: a critically damped constraint
	// error g'' + 2α g' + β g = 0 with both roots at −10 s⁻¹ (seed 000 gives no values;
	// this is our choice for mechanisms of metre and second scales).
	BaumgarteAlpha, BaumgarteBeta float64
	// Index2BaumgarteC is C in α₀ = C/h of seed 002, eq. 87 (formulation
	// "index2-baumgarte"), > 0; zero takes the default [1]: with fixed steps (h = FixedH)
	// the position error then decays by about e⁻¹ per step. With error control h is
	// HMax, so that α₀h ≤ C on every step (see index2BaumgarteAlpha0).
	Index2BaumgarteC float64
	// Newton holds the corrector knobs: stop rule, iteration limit, Jacobian policy.
	// Deadband does not apply (IDA's c_j band replaces it).
	Newton NewtonSettings
	// DifferenceProducts makes the Newton-Krylov path's products J z forward differences
	// of the residual in the index1 and baumgarte forms also on systems with
	// dae.DirectionalDerivatives (the joint route), whose exact directional derivatives
	// they take otherwise (bdfWork.jvExact); the other forms always difference [false].
	DifferenceProducts bool

	// reactionKrylov puts λ-dependent forces on the Newton-Krylov path at every size, not
	// only above massNewtonDenseMax coordinates (massNewtonFor): for tests that compare the
	// paths on small models.
	reactionKrylov bool
	// exactProducts gives every form the exact products (useExactProducts), for the tests
	// and measurements that compare them.
	exactProducts bool
	// looseStop replaces bdfLooseStop (0: bdfLooseStop; < 0: bdfStop's second test off),
	// for the tests that compare the stops.
	looseStop float64

	w         *bdfWork
	*accepted // Current, Previous, Stats (method.go)
}

// Defaults of BDF.
const (
	DefaultBDFMaxOrder       = 5
	DefaultBaumgarteAlpha    = 10.0
	DefaultBaumgarteBeta     = 100.0
	DefaultIndex2BaumgarteC  = 1.0
	bdfMaxOrder              = 5
	bdfFixedStartTol         = 1e-12 // tolerance of the starting steps in fixed-step mode
	bdfCjLow, bdfCjHigh      = 0.6, 1.67
	bdfStartFraction         = 1e-3 // IDA: h0 = 0.001·|t_out − t0| at most
	bdfStartNormBound        = 0.5  // IDA: ‖h0 y'0‖ ≤ 1/2
	bdfErrorTestShrinkFactor = 0.25
)

// bdfChunk is the number of components that the passes of predict and complete over the
// history φ take at a time: the chunks of φ_0..φ_{k+1}, y, y' and e (at most 9 arrays of
// 4 kB) stay in the first- or second-level cache from one pass to the next, where on the
// 10 000-bar chain (n = 130 000, 1 MB per array) each pass over a whole array went to the
// shared last-level cache or to memory (BENCHMARKS.md, "bdf's memory traffic at 10 000
// bars"). The arithmetic and its order per component are those of whole-array passes.
const bdfChunk = 512

// DefaultBDF returns BDF with the GGL formulation and default settings.
func DefaultBDF() BDF { return BDF{Formulation: StabilizedIndex2} }

// bdfEntry is the registry entry of BDF. In fixed-step mode it runs at order MaxOrder = 5
// from accurate starting values, so every block converges with order 5 on the index-2
// GGL form (Brenan, Campbell & Petzold 1996, Theorem 3.2.2 for semi-explicit index 2).
var bdfEntry = firstOrderEntry(Entry{
	Name:           "bdf",
	Title:          "BDF orders 1-5, variable step and order (DASSL/IDA), GGL by default",
	Seed:           "002",
	Equations:      "71, 75, 77, 79, 83, 87, 92 (formulations); IDA order and step selection",
	Formulations:   []Formulation{StabilizedIndex2, Index2, Index3, Index1, Baumgarte, Index2Baumgarte},
	Order:          Order{Q: 5, V: 5, Lambda: 5},
	Adaptive:       true,
	ReactionForces: true,
	New:            func() Method { m := DefaultBDF(); return &m },
})

// bdfWork is everything a run needs, sized once by Init.
type bdfWork struct {
	fo       firstOrder    // what is integrated: se or li
	se       *semiExplicit // the equations of motion of sys (nil for a dae.LinearlyImplicit run)
	li       *implicitForm // a dae.LinearlyImplicit run (nil for a dae.System)
	sys      dae.System
	nq, nc   int
	n        int       // dimension of y
	kdiag    []float64 // diagonal of K
	unitK    int       // K's diagonal is 1 on [0, unitK) and 0 after (a System: q and v), else −1
	diff     []int     // the differential components (K_ii ≠ 0: q and v for a System; a nonzero column of a general K at the start), in order
	kyp      []float64 // K(t, y) y' with a general K (dae.ImplicitMass), else nil
	yp0      []float64 // y'₀ of a dae.LinearlyImplicit start
	form     Formulation
	maxOrd   int
	fixedOrd bool
	c2       float64 // Index2BaumgarteC

	c          StepControl
	lad        ladder       // the step loop (ladder.go); bdfWork is its stepRule (IDA's)
	rtol, atol float64      // tolerances in use (the starter's during the fixed-step start)
	nw         newtonSolver // the corrector loop (newton.go)
	stop       bdfStop      // its stop rule (bdfstop.go)
	// looseFactor is bdfStop's factor on Newton.Tol (bdfLooseStop; 0: the loose test off).
	looseFactor float64

	accepted // cur, prev, stats: Current, Previous, Stats

	// Divided-difference history (IDA): phi[j] = ψ₁⋯ψ_j·y[t_n, …, t_{n−j}], j = 0..k,
	// phi[k+1] the last correction; psi[i] = t_n − t_{n−i−1}.
	phi                        [bdfMaxOrder + 2][]float64
	psi                        [bdfMaxOrder + 1]float64
	psiNew                     [bdfMaxOrder + 1]float64
	alpha, beta, sigma, gammaC [bdfMaxOrder + 1]float64
	cj, ck                     float64
	k, kused                   int
	hused                      float64
	ns, nsTry                  int // steps taken at constant h and order (IDA's ns)
	phase                      int // 0: start phase (raise order, double h), 1: normal
	hNext                      float64
	knew                       int
	errK, errKm1               float64 // σ-scaled estimates of orders k and k−1

	yy, yp, ee, delta, res, ewt, scal, yInt []float64
	scalH                                   float64 // the h of scal's index scaling h^(index−1) (0: scal is 1)
	Jm                                      *mat.Dense
	lu                                      *newtonFactor
	cjJ                                     float64 // c_j the matrix was assembled with

	// The Newton-Krylov corrector on dae.MassSolver systems (bdfmassnewton.go): pm
	// preconditions GMRES (kr) on residual differences; kyy, kyPrime, kres hold the iterate
	// and its residual during a solve (kyPrime: y'). nil without the capability.
	pm                 *bdfMassPrecond
	kr                 *gmres
	kyy, kyPrime, kres []float64
	ksc                []float64 // GMRES's variable scales 1/(h^(index−1) ewt) (bdfWork.krylov)
	kyw                float64   // RMS norm of kyy/ksc
	resRaw             []float64 // the dynamic rows before massNewton.scaleRows (nq)
	kgD                []float64 // M(q)⁻¹ r_a at a factorization: K_g's loads at a − kgD (factorMass)
	scaled             bool      // res's dynamic rows are scaled
	ex                 *bdfExact // exact products (jvExact), or nil: differences of the residual

	// Fixed-step start; grid is allocated by setup, with FixedH only.
	fixedH   float64
	starting bool
	grid     [bdfMaxOrder + 1][]float64
	nGrid    int
	gridPrev State

	hTry float64

	rnd *newtonRounding // the rounding level of the increments (newBDFRounding), or nil

	gtMu []float64 // Gᵀδμ/c_j of GGL's μ increment in the Newton norm (newtonNorm), nq; nil without μ

	// errorPeak holds the largest weighted component ck·|e_i|·ewt_i of an accepted step's
	// error estimate over q and v (error control only): ControlWarnings.
	errorPeak
}

// Init resolves the options, checks that start is consistent (g = 0 and G v + g_t = 0 to
// 1e-8 relative, seed 002 eq. 17), recomputes a₀ and λ₀ from [M Gᵀ; G 0](a, λ) = (f, γ)
// and sizes the workspace. StepControl is resolved against the tEnd of the first Step (a
// unit span when it is infinite).
func (m *BDF) Init(sys dae.System, start State, ctl StepControl) error {
	maxOrd, ns, err := m.resolveOptions(start.T, len(start.Q), ctl)
	if err != nil {
		return err
	}
	form, sys, err := bdfEntry.firstOrderForm(m.Formulation, sys)
	if err != nil {
		return err
	}
	if nd := dae.StateSize(sys); nd > 0 {
		return fmt.Errorf("integrate: bdf: the system has %d first-order states (dae.FirstOrder), which this method does not integrate; use dopri5 or hht", nd)
	}
	// f_λ is in φ (massNewtonFor); the Pfaffian rows join bdfMassPrecond's rows.
	why := denseWhyTaking(sys, true, true)
	if err := refuseDenseNewton("bdf", form, sys, why); err != nil {
		return err
	}
	nq, nc := sys.Size()
	if len(start.Q) != nq || len(start.V) != nq {
		panic(fmt.Sprintf("integrate: bdf: Init: start has len(Q) = %d, len(V) = %d, want %d", len(start.Q), len(start.V), nq))
	}
	if math.IsNaN(start.T) || math.IsInf(start.T, 0) {
		return fmt.Errorf("integrate: bdf: start time T = %g, want a finite value", start.T)
	}
	for i := range nq {
		if !isFinite(start.Q[i]) || !isFinite(start.V[i]) {
			return fmt.Errorf("integrate: bdf: start is not finite at coordinate %d (%s): q = %g, v = %g",
				i, dae.CoordinateName(sys, i), start.Q[i], start.V[i])
		}
	}
	r := measureStart(newSparseEval(sys, false), sys, start)
	if r.Pos > 1e-8*math.Max(1, hhtMaxAbs(start.Q)) || r.Vel > 1e-8*math.Max(1, hhtMaxAbs(start.V)) ||
		math.IsNaN(r.Pos) || math.IsNaN(r.Vel) {
		return fmt.Errorf("integrate: bdf: inconsistent start at t=%g: |g| = %.2g at %s, |G v + g_t| = %.2g (want ≤ 1e-8 relative)",
			start.T, r.Pos, dae.ConstraintName(sys, max(r.WorstPos, 0)), r.Vel)
	}
	se, err := newSemiExplicit(sys, form, true)
	if err != nil {
		return fmt.Errorf("integrate: bdf: %w", err)
	}
	se.baumAlpha, se.baumBeta = orDefault(m.BaumgarteAlpha, DefaultBaumgarteAlpha), orDefault(m.BaumgarteBeta, DefaultBaumgarteBeta)
	w := newBDFWork(se, NewState(nq, nc), m, maxOrd, ns)
	w.se, w.sys, w.nq, w.nc, w.form = se, sys, nq, nc, form
	if se.sp != nil {
		w.lu = se.sparseNewtonFactor()
	} else if w.pm = newBDFMassPrecond(sys, form, m.reactionKrylov); w.pm != nil {
		se.mm, se.ma = sys.(dae.MassMultiplier), make([]float64, nq)
		se.M, se.work = nil, nil // until a fallback (allocDense): 2 nq² floats
		w.kr = newGMRES(se.n)
		w.kr.noise.rms = true // jacVec's norms
		w.kyy, w.kyPrime, w.kres = make([]float64, se.n), make([]float64, se.n), make([]float64, se.n)
		w.ksc = make([]float64, se.n)
		w.resRaw = make([]float64, nq)
		w.kgD = make([]float64, nq)
		w.useExactProducts(m.DifferenceProducts, m.exactProducts)
	} else {
		w.allocDense()
	}
	w.rnd = newBDFRounding(form, se.n, w.pm != nil)
	if se.hasMu && nc > 0 {
		w.gtMu = make([]float64, nq)
	}
	w.cur.T = start.T
	copy(w.cur.Q, start.Q)
	copy(w.cur.V, start.V)
	w.lad = ladder{name: "bdf", m: w, raw: ctl, rule: w, stats: &w.stats, cur: &w.cur, fc: newFailureContext(sys, &start)}
	w.lad.newton = &w.nw
	if err := consistentStart("bdf", sys, &w.cur, &w.stats); err != nil {
		return err
	}
	w.prev.CopyFrom(&w.cur)
	m.w, m.accepted = w, &w.accepted
	return nil
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// InitImplicit starts a run on the linearly implicit system sys (see ImplicitMethod):
// the same method on K y' = φ with the system's K, indices and ∂φ/∂y (dense Newton
// matrix); y'₀ = yp0 starts the history. With a full or state-dependent K
// (dae.ImplicitMass) the residual is K(t, y) y' − φ(t, y) with y' from the BDF formula,
// and the Newton matrix its derivative in y,
//
//	c_j K(t, y) + ∂(K(t, y) y')/∂y − ∂φ/∂y   at the iterate (t_{n+1}, y, y'),
//
// the middle term zero for a constant K; the error norm takes the variables whose column
// of K(t₀, y₀) is nonzero. Formulation and the Baumgarte knobs, which
// choose a form of the equations of motion, must be unset.
func (m *BDF) InitImplicit(sys dae.LinearlyImplicit, t0 float64, y0, yp0 []float64, ctl StepControl) error {
	if (m.Formulation != "" && m.Formulation != StabilizedIndex2) || m.BaumgarteAlpha != 0 || m.BaumgarteBeta != 0 || m.Index2BaumgarteC != 0 {
		return fmt.Errorf("integrate: bdf: Formulation = %q and the Baumgarte knobs choose a form of the equations of motion and do not apply to a linearly implicit system; leave them unset",
			m.Formulation)
	}
	maxOrd, ns, err := m.resolveOptions(t0, len(y0), ctl)
	if err != nil {
		return err
	}
	if err := dae.CheckLinearlyImplicit(sys, t0, y0, yp0, implicitStartTol); err != nil {
		return fmt.Errorf("integrate: bdf: %w", err)
	}
	li := newImplicitForm(sys, t0, y0)
	w := newBDFWork(li, State{Q: make([]float64, li.n)}, m, maxOrd, ns)
	w.li = li
	w.diff = w.diff[:0]
	for i, d := range li.diffVar {
		if d {
			w.diff = append(w.diff, i)
		}
	}
	if li.gm != nil {
		w.kyp = make([]float64, li.n)
	}
	w.yp0 = slices.Clone(yp0)
	w.Jm = mat.NewDense(li.n, li.n, nil)
	w.lu = newNewtonFactor(li.n, nil)
	w.cur.T = t0
	copy(w.cur.Q, y0)
	w.lad = ladder{name: "bdf", m: w, raw: ctl, rule: w, stats: &w.stats, cur: &w.cur}
	w.prev.CopyFrom(&w.cur)
	m.w, m.accepted = w, &w.accepted
	return nil
}

// resolveOptions checks the options of m and ctl (for n coordinates) and returns the
// maximum order and the resolved Newton settings.
func (m *BDF) resolveOptions(t0 float64, n int, ctl StepControl) (int, NewtonSettings, error) {
	maxOrd := m.MaxOrder
	if maxOrd == 0 {
		maxOrd = DefaultBDFMaxOrder
	}
	if maxOrd < 1 || maxOrd > bdfMaxOrder {
		return 0, NewtonSettings{}, fmt.Errorf("integrate: bdf: MaxOrder = %d outside [1, %d]", m.MaxOrder, bdfMaxOrder)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"BaumgarteAlpha", m.BaumgarteAlpha}, {"BaumgarteBeta", m.BaumgarteBeta}, {"Index2BaumgarteC", m.Index2BaumgarteC}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return 0, NewtonSettings{}, fmt.Errorf("integrate: bdf: %s = %g, want a finite value >= 0 (0: default)", f.name, f.v)
		}
	}
	ns, err := m.Newton.Resolve()
	if err != nil {
		return 0, ns, fmt.Errorf("integrate: bdf: %w", err)
	}
	if _, err := ctl.resolveAt(t0, n); err != nil {
		return 0, ns, fmt.Errorf("integrate: bdf: %w", err)
	}
	return maxOrd, ns, nil
}

// newBDFWork sizes the history and vectors for fo, with States shaped as shape; the
// Newton matrix and its factorization are the caller's.
func newBDFWork(fo firstOrder, shape State, m *BDF, maxOrd int, ns NewtonSettings) *bdfWork {
	n := fo.dim()
	w := &bdfWork{fo: fo, n: n, maxOrd: maxOrd, fixedOrd: m.FixedOrder,
		c2: orDefault(m.Index2BaumgarteC, DefaultIndex2BaumgarteC)}
	w.nw = newNewtonSolver(ns, &w.stats)
	w.stop.mon = &w.nw.mon
	w.nw.rule = &w.stop
	w.looseFactor = bdfLooseStop
	if m.looseStop != 0 {
		w.looseFactor = max(m.looseStop, 0)
	}
	w.cur, w.prev, w.gridPrev = shape.Clone(), shape.Clone(), shape.Clone()
	vec := func() []float64 { return make([]float64, n) }
	for j := range w.phi {
		w.phi[j] = vec()
	}
	w.yy, w.yp, w.ee, w.delta, w.res, w.ewt, w.scal, w.yInt =
		vec(), vec(), vec(), vec(), vec(), vec(), vec(), vec()
	w.kdiag = vec()
	for i := range n {
		w.kdiag[i] = fo.mass(i)
		if w.kdiag[i] != 0 {
			w.diff = append(w.diff, i)
		}
	}
	w.unitK = unitPrefix(w.kdiag)
	return w
}

// unitPrefix returns m when d is 1 on [0, m) and 0 on [m, len(d)), else −1.
func unitPrefix(d []float64) int {
	m := 0
	for m < len(d) && d[m] == 1 {
		m++
	}
	for _, x := range d[m:] {
		if x != 0 {
			return -1
		}
	}
	return m
}

// setup fixes the step control at the first Step and starts the history: φ₀ = y₀,
// φ₁ = h₀ y'₀ with y'₀ = (v, a, 0) (the algebraic derivatives are not known and enter
// only the first prediction), order 1, ψ₀ = h₀.
func (w *bdfWork) setup(tEnd float64) error {
	c, end := w.lad.c, w.lad.end
	w.c = c
	w.rtol, w.atol = c.RTol, c.ATol
	w.fo.pack(w.phi[0], &w.cur)
	yp := w.yp
	clear(yp)
	if w.li != nil {
		copy(yp, w.yp0)
	} else {
		copy(yp, w.cur.V)
		copy(yp[w.nq:], w.cur.A)
	}
	w.setWeights()
	for i := range w.scal {
		w.scal[i] = 1 // until the first attempt sets the index scaling
	}
	w.scalH = 0
	h0 := c.H0
	if c.FixedH > 0 {
		// Without an error test the tolerances only set the Newton stop, which must lie
		// well below the truncation error of order 5 (measured: RTol = 1e-6 lets the
		// corrector error spoil the observed order of BDF4 and BDF5 on the pendulum).
		if w.lad.raw.RTol == 0 {
			c.RTol = bdfFixedStartTol
			if w.lad.raw.ATol == 0 {
				c.ATol = bdfFixedStartTol
			}
			w.c = c
			w.rtol, w.atol = c.RTol, c.ATol
		}
		w.fixedH = c.FixedH
		w.starting = w.maxOrd > 1
		for j := range w.grid {
			if w.grid[j] == nil { // fixed steps only: 6 MB at 10 000 bars
				w.grid[j] = make([]float64, w.n)
			}
		}
		copy(w.grid[0], w.phi[0])
		w.nGrid = 1
		if w.starting {
			w.rtol, w.atol = bdfFixedStartTol, bdfFixedStartTol
			w.setWeights()
			h0 = 0
		} else {
			h0 = c.FixedH
		}
	}
	if h0 == 0 {
		// IDA's initial step: h₀ = 0.001·|t_end − t₀|, reduced so that ‖h₀ y'₀‖ ≤ 1/2.
		h0 = bdfStartFraction * math.Abs(end-w.cur.T)
		if ypn := w.diffNorm(yp, 1); ypn*h0 > bdfStartNormBound {
			h0 = bdfStartNormBound / ypn
		}
		h0 = math.Min(math.Max(h0, 100*c.HMin), c.HMax)
		if w.fixedH > 0 {
			h0 = math.Min(h0, w.fixedH)
		}
	}
	for i := range yp {
		w.phi[1][i] = h0 * yp[i]
	}
	w.psi[0] = h0
	w.k, w.kused, w.hused, w.ns, w.phase = 1, 0, 0, 0, 0
	w.hNext = h0
	w.nw.mon.floor = tenUlpFloor(w.rtol, w.atol) // an increment of 10 ulps
	w.nw.mon.needRate = true
	w.stop.loose = 0
	if w.se != nil && w.pm == nil && w.fixedH == 0 {
		// bdfStop's residual test needs the constraint rows of a System's form and the
		// direct solve; with FixedH no error test bounds the corrector's error.
		w.stop.loose = w.looseFactor * w.nw.s.Tol
	}
	w.lad.c, w.lad.fixed = w.c, w.fixedH > 0 && !w.starting
	return nil
}

// setWeights sets ewt_i = 1/(ATol + RTol·|y_n,i|) from φ₀ = y_n (IDA's error weights).
func (w *bdfWork) setWeights() {
	nq, blocks := w.fo.coordBlocks()
	for i, y := range w.phi[0] {
		a := w.atol
		if a == w.c.ATol { // not the fixed-step start's tolerance: StepControl.ATolQ applies
			a = w.c.atolOf(i, nq, blocks)
		}
		w.ewt[i] = 1 / (a + w.rtol*math.Abs(y))
	}
}

// diffNorm is the weighted RMS norm of s·x over the differential components (q, v),
// each scaled by h^(i−1) for a variable of index i (only v in index3 has i = 2; radau5's
// scaling, Hairer & Wanner 1996, VII.8).
func (w *bdfWork) diffNorm(x []float64, s float64) float64 {
	if len(w.diff) == 0 {
		return 0
	}
	var sum float64
	for _, i := range w.diff {
		r := s * x[i] * w.ewt[i] * w.scal[i]
		sum += r * r
	}
	return math.Sqrt(sum / float64(len(w.diff)))
}

// Step takes one accepted step toward tEnd (see Method).
func (m *BDF) Step(tEnd float64) error {
	w := m.w
	mustInit(w != nil, "bdf")
	if err := w.lad.begin(tEnd); err != nil {
		return err
	}
	if w.starting {
		return w.startStep(tEnd)
	}
	return w.step(tEnd)
}

// startStep computes the next grid point of fixed-step mode by adaptive steps at the
// starter's tolerance and, once MaxOrder+1 grid values are known, switches to fixed steps.
func (w *bdfWork) startStep(tEnd float64) error {
	target := math.Min(w.cur.T+w.fixedH, tEnd)
	if target-w.cur.T > tEnd-target && tEnd-target < 1e-10*w.fixedH {
		target = tEnd
	}
	w.gridPrev.CopyFrom(&w.cur)
	steps := w.stats.Steps
	for w.cur.T < target {
		if err := w.step(target); err != nil {
			w.stats.Steps = steps
			return err
		}
	}
	w.stats.Steps = steps + 1
	w.prev.CopyFrom(&w.gridPrev)
	copy(w.grid[w.nGrid], w.phi[0])
	w.nGrid++
	if w.nGrid == w.maxOrd+1 {
		w.switchToFixed()
	}
	return nil
}

// switchToFixed replaces the history by the backward differences ∇ʲy_k of the grid
// values y_0..y_k (which are the φ_j of a constant step, ψ_i = (i+1)h) and continues at
// order k = MaxOrder with the tolerances of StepControl for the Newton stop.
func (w *bdfWork) switchToFixed() {
	k, h := w.maxOrd, w.fixedH
	// z_i = y_{k−i}; D_l(i) = D_{l−1}(i−1) − D_{l−1}(i) gives D_j(j) = ∇ʲ y_k.
	for i := 0; i <= k; i++ {
		copy(w.phi[i], w.grid[k-i])
	}
	for l := 1; l <= k; l++ {
		for i := k; i >= l; i-- {
			for c := range w.phi[i] {
				w.phi[i][c] = w.phi[i-1][c] - w.phi[i][c]
			}
		}
	}
	clear(w.phi[k+1])
	for i := range w.psi {
		w.psi[i] = float64(i+1) * h
	}
	w.k, w.kused, w.hused, w.ns, w.phase = k, k, h, k+1, 1
	w.hNext = h
	w.starting = false
	w.lad.fixed = true
	w.rtol, w.atol = w.c.RTol, w.c.ATol
	w.nw.mon.floor = tenUlpFloor(w.rtol, w.atol) // an increment of 10 ulps
	w.nw.mon.needRate = true
	w.setWeights()
	w.nw.haveJ = false
}

// step takes one accepted step toward tEnd (ladder.step): adaptive with error test, order
// and step selection, or fixed (h = FixedH, order k, no error test). Shaped as IDAStep:
// set coefficients → predict → Newton → error test → complete, or handle the failure.
func (w *bdfWork) step(tEnd float64) error {
	if w.form == Index2Baumgarte {
		w.se.alpha0 = w.index2BaumgarteAlpha0()
	}
	return w.lad.step(tEnd)
}

// size is the step IDA's rules chose for the next attempt (stepRule).
func (w *bdfWork) size() float64 { return w.hNext }

// judge is IDA's error test with the order k−1 estimate chosen by errorNorm, and its
// ladder after error-test failures: h from the estimate, then 0.25 at the order the
// estimates chose, then 0.25 at order 1 (nef counts the earlier failures of the Step).
func (w *bdfWork) judge(h, e float64, nef int) bool {
	if e <= 1 {
		return true
	}
	w.phase = 1
	switch nef {
	case 0:
		e := w.errK
		if w.knew == w.k-1 {
			e = w.errKm1
		}
		w.k = w.knew
		rr := 0.9 * math.Pow(2*e+1e-4, -1/float64(w.k+1))
		if math.IsNaN(rr) {
			rr = bdfErrorTestShrinkFactor
		}
		w.hNext = h * math.Max(0.25, math.Min(0.9, rr))
	case 1:
		w.k = w.knew
		w.hNext = h * bdfErrorTestShrinkFactor
	default:
		if !w.fixedOrd {
			w.k = 1
		}
		w.hNext = h * bdfErrorTestShrinkFactor
	}
	return false
}

// cut is IDA's and radau5's cut after a Newton failure (stepRule).
func (w *bdfWork) cut(h float64) {
	w.rnd.arm()
	w.phase = 1
	w.hNext = h * failureCut
}

// commit completes the accepted step (complete).
func (w *bdfWork) commit(h float64) error {
	w.complete(h, !w.lad.fixed)
	return nil
}

// index2BaumgarteAlpha0 returns α₀ of eq. 87c (formulation index2-baumgarte) for the
// next Step. With FixedH it is C/FixedH, the seed's α₀ = C/h ("for fixed step size
// computations"), kept through the accurate start-up steps as well: eq. 87 is the
// equation of that run (measured: α₀ = C/h of the tiny start-up steps made the start
// fail at t = 4e-8 on the pendulum).
//
// With error control α₀ is the constant C/HMax, the largest constant with α₀h ≤ C on
// every step. α₀ = C/h following the variable h is not a fix of eq. 87 but a new equation
// at every step: v sits off the velocity manifold by α₀g (G v + g_t = −α₀g) and a change
// of α₀ moves it by Δα₀·g, a jump of a differential variable that the error test of v
// measures. With g at the tolerance level that jump is about tol·|q|/h, above tol·|v|
// whenever a step moves q by less than |q|; each rejection shrinks h, raises the next α₀
// and the next jump, until HMin (andrews and crank at tol ≤ 1e-8 failed this way at
// t = 0 or 5e-12 after tens of rejections; C/h also multiplies the rounding of g, about
// ε|q|, into a v error of C·ε|q|/h, 1e-4 at the first step of 1e-12 on andrews). With the
// constant α₀ these runs pass at every tolerance from 1e-4 to 1e-12.
func (w *bdfWork) index2BaumgarteAlpha0() float64 {
	if w.fixedH > 0 {
		return w.c2 / w.fixedH
	}
	return w.c2 / w.c.HMax
}

// setCoeffs computes the variable-step coefficients of order k for step h from the
// committed ψ (IDASetCoeffs): ψ'_0 = h, ψ'_i = ψ_{i−1} + h, α_i = h/ψ'_i,
// β_i = β_{i−1}ψ'_{i−1}/ψ_{i−1}, σ_i = i·σ_{i−1}α_i, γ_i = γ_{i−1} + α_{i−1}/h, the
// leading coefficient c_j = −α_s/h and the error constant ck = max(|α_k + α_s − α⁰|, α_k).
func (w *bdfWork) setCoeffs(h float64) {
	k := w.k
	w.hTry = h
	if h != w.hused || k != w.kused {
		w.nsTry = 1
	} else {
		w.nsTry = min(w.ns+1, w.kused+2)
	}
	w.beta[0], w.alpha[0], w.gammaC[0], w.sigma[0] = 1, 1, 0, 1
	t1 := h
	for i := 1; i <= k; i++ {
		t2 := w.psi[i-1]
		w.psiNew[i-1] = t1
		w.beta[i] = w.beta[i-1] * w.psiNew[i-1] / t2
		t1 = t2 + h
		w.alpha[i] = h / t1
		w.sigma[i] = float64(i) * w.sigma[i-1] * w.alpha[i]
		w.gammaC[i] = w.gammaC[i-1] + w.alpha[i-1]/h
	}
	w.psiNew[k] = t1
	var alphas, alpha0 float64
	for i := range k {
		alphas -= 1 / float64(i+1)
		alpha0 -= w.alpha[i]
	}
	w.cj = -alphas / h
	w.ck = math.Max(math.Abs(w.alpha[k]+alphas-alpha0), w.alpha[k])
}

// attempt sets the coefficients, predicts and corrects one step (newtonSolver.attempt),
// with a fresh matrix unless JacobianAuto may keep the last one: it converged fast and
// c_j/c_j(J) stays in [bdfCjLow, bdfCjHigh] (IDA).
func (w *bdfWork) attempt(h float64) (usedFresh int, cause error) {
	w.setCoeffs(h)
	needJ := !w.nw.reusable() || w.mn().stale()
	if !needJ {
		if r := w.cj / w.cjJ; r < bdfCjLow || r > bdfCjHigh {
			needJ = true
		}
	}
	return w.nw.attempt(w, h, needJ)
}

// The corrector (newtonIteration for newtonSolver): Newton on G(y) = K y' − φ(t, y),
// y' = y'_pred + c_j(y − y_pred), from the prediction.

// predict writes y_pred = Σ_{j≤k} β_jφ_j and y'_pred = Σ_{1≤j≤k} γ_jβ_jφ_j (IDAPredict
// with φ* = βφ) straight into the iterate (y, y'), which starts there, and clears the
// correction e. The passes go by chunks of bdfChunk components (see bdfChunk).
func (w *bdfWork) predict(h float64, _ bool) error {
	w.mn().attempt()
	w.rnd.attempt()
	for lo := 0; lo < w.n; lo += bdfChunk {
		hi := min(lo+bdfChunk, w.n)
		yy, yp := w.yy[lo:hi], w.yp[lo:hi]
		copy(yy, w.phi[0][lo:hi])
		clear(yp)
		for j := 1; j <= w.k; j++ {
			b, g := w.beta[j], w.gammaC[j]*w.beta[j]
			phi := w.phi[j][lo:hi]
			phi = phi[:len(yy)]
			for i, p := range phi {
				yy[i] += b * p
				yp[i] += g * p
			}
		}
		clear(w.ee[lo:hi])
	}
	if h != w.scalH { // the scaling depends on h alone: most attempts keep the last h
		for i := range w.n {
			w.scal[i] = math.Pow(h, float64(w.fo.index(i)-1))
		}
		w.scalH = h
	}
	return nil
}

// residual evaluates G(y) at the iterate into w.res.
func (w *bdfWork) residual() error {
	w.fo.residual(w.res, w.cur.T+w.hTry, w.yy)
	w.stats.FuncEvals++
	if w.kyp != nil {
		w.li.massMul(w.kyp, w.cur.T+w.hTry, w.yy, w.yp)
		for i, x := range w.kyp {
			w.res[i] = x - w.res[i]
		}
	} else if m := w.unitK; m >= 0 && !w.mn().inUse() {
		// K y' − φ with K = diag(1, …, 1, 0, …, 0) without reading K, and the finiteness
		// test (allFinite's sum of r − r) in the same pass: two passes over n-arrays fewer
		// per Newton iteration, the same values (1·y' = y').
		res, yp := w.res[:w.n], w.yp[:w.n]
		var fin float64
		for i, y := range yp[:m] {
			r := y - res[i]
			res[i] = r
			fin += r - r
		}
		for i := m; i < len(res); i++ {
			r := 0*yp[i] - res[i]
			res[i] = r
			fin += r - r
		}
		w.scaled = false
		if fin != 0 {
			w.noteWorstResidual()
			return ErrNonFinite
		}
		return nil
	} else {
		for i, k := range w.kdiag {
			w.res[i] = k*w.yp[i] - w.res[i]
		}
	}
	if w.scaled = w.mn().inUse(); w.scaled {
		rows := w.res[w.se.ia() : w.se.ia()+w.nq]
		copy(w.resRaw, rows)
		w.mn().scaleRows(rows, w.se.mm, w.cur.T+w.hTry, w.yy[:w.nq])
	}
	return finiteResidual(w, w.res)
}

// increment solves for the Newton increment, applies it to y, y' and the correction e,
// and returns its norm in IDA's weights with the index scaling h^(index−1). The monitor
// stops only once this attempt has measured a rate (needRate, set in resolve as for HHT):
// the rate carried from the previous step let first iterates through with |g| and |G v|
// of 3e-2·tol on chain4 (GGL), far above the Newton stop.
func (w *bdfWork) increment() float64 {
	w.rnd.iteration()
	for i, r := range w.res {
		w.delta[i] = -r
	}
	if w.mn().inUse() {
		w.krylov()
	} else {
		w.lu.Solve(w.delta)
	}
	s, scaled := 1.0, false
	if r := w.cj / w.cjJ; r != 1 && !w.mn().inUse() {
		// IDA: a matrix assembled with c_j(J) ≠ c_j; the factor 2/(1+r) corrects the
		// increment for the difference in the dominant c_j K part.
		s, scaled = 2/(1+r), true
	}
	// One pass scales the increment, applies it to y, y' and e and sums newtonNorm's
	// squares (each component's arithmetic that of separate passes).
	end := w.normEnd()
	cj, n := w.cj, w.n
	delta, yy, yp, ee := w.delta[:n], w.yy[:n], w.yp[:n], w.ee[:n]
	scal, ewt := w.scal[:end], w.ewt[:end]
	var sum float64
	for i, d := range delta[:end] {
		if scaled {
			d *= s
			delta[i] = d
		}
		yy[i] += d
		yp[i] += cj * d
		ee[i] += d
		r := d * scal[i] * ewt[i]
		sum += r * r
	}
	for i := end; i < n; i++ {
		d := delta[i]
		if scaled {
			d *= s
			delta[i] = d
		}
		yy[i] += d
		yp[i] += cj * d
		ee[i] += d
	}
	return w.normOfMu(delta, end, sum)
}

// newtonNorm is the Newton norm of an increment d of y: the RMS over the n components of
// d_i h^(index_i−1) ewt_i, except GGL's μ, measured by its effect on q. μ, zero in the
// exact solution, enters only q' = v − Gᵀμ, where a change δμ at fixed v moves q' as
// c_j δq = −Gᵀδμ would, i.e. q by −Gᵀδμ/c_j (c_j = −α_s/h); that q increment, in q's
// weights 1/(ATol + RTol·|q|), stands for μ's nc components in the sum of squares. μ's own
// weight h/ATol (|μ| ≈ 0, index-2 scaling h) ignored how far q is from the origin: on the
// 10 000-bar chain, whose coordinates reach 5 km, μ's increments spread along the quiet
// chain made 0.97 of the second increment's norm, and so the rate θ, the reuse and
// divergence tests, and the Newton failures (BENCHMARKS.md, "bdf's counts per step against
// N" and "bdf's μ measured through Gᵀδμ"). O(nnz(G)) with G of the last residual.
func (w *bdfWork) newtonNorm(d []float64) float64 {
	end := w.normEnd()
	var sum float64
	for i, x := range d[:end] {
		r := x * w.scal[i] * w.ewt[i]
		sum += r * r
	}
	return w.normOfMu(d, end, sum)
}

// normEnd is the end of the components that newtonNorm weighs themselves: GGL's μ, from
// there on, enters through Gᵀδμ.
func (w *bdfWork) normEnd() int {
	if w.gtMu != nil {
		return w.se.imu()
	}
	return w.n
}

// normOfMu completes newtonNorm from sum, the sum of squares of d's components before
// end: it adds μ's through Gᵀδμ/c_j in q's weights and returns the RMS.
func (w *bdfWork) normOfMu(d []float64, end int, sum float64) float64 {
	if w.gtMu != nil {
		clear(w.gtMu)
		w.se.addGT(w.gtMu, d[end:], 1/w.cj)
		for i, x := range w.gtMu { // q: index 1, scale 1
			r := x * w.ewt[i]
			sum += r * r
		}
	}
	return math.Sqrt(sum / float64(w.n))
}

// converged checks the converged iterate.
func (w *bdfWork) converged() error { return trustedIterate(w, w.mn(), w.yy) }

// diverged names the worst residual of a diverged iteration.
func (w *bdfWork) diverged() error { return notedDivergence(w, w.delta) }

// factor assembles c_j K − ∂φ/∂y at the iterate and factorizes it.
func (w *bdfWork) factor() error {
	if w.mn().active() {
		err := w.factorMass()
		if w.scaled { // the new matrix is at this iterate, where the scaling is I
			copy(w.res[w.se.ia():], w.resRaw)
			w.scaled = false
		}
		if err == nil {
			w.measureRounding(w.pm)
		}
		return err
	}
	if w.scaled { // the dense matrix takes the rows as they are
		copy(w.res[w.se.ia():], w.resRaw)
		w.scaled = false
	}
	if w.pm != nil {
		w.pm.mn.simplified = false
	}
	evals := w.fo.fdEvals()
	if w.Jm == nil {
		w.se.newtonValues(w.lu.Values(), w.cj, w.cur.T+w.hTry, w.yy)
	} else {
		w.assembleDense()
	}
	w.stats.FDEvals += w.fo.fdEvals() - evals
	w.stats.Jacobians++
	w.stats.Factorizations++
	w.cjJ = w.cj
	if err := w.lu.Factor(); err != nil {
		w.noteWorstResidual()
		if !allFinite(w.lu.stored()) {
			return ErrNonFinite
		}
		return err
	}
	w.measureRounding(w.lu)
	return nil
}

// assembleDense writes c_j K − ∂φ/∂y at the iterate into the LU's dense storage, with a
// general K c_j K(t, y) + ∂(K y')/∂y − ∂φ/∂y (see InitImplicit).
func (w *bdfWork) assembleDense() {
	t := w.cur.T + w.hTry
	var K *mat.Dense
	if w.kyp != nil {
		w.li.newtonJacobian(w.Jm, t, w.yy, w.yp)
		K = w.li.massAt(t, w.yy)
	} else {
		w.fo.jacobian(w.Jm, t, w.yy)
	}
	A := w.lu.Matrix()
	for i := range w.n {
		src := w.Jm.RawRowView(i)
		dst := A[i*w.n : (i+1)*w.n]
		for j, v := range src {
			dst[j] = -v
		}
		if K != nil {
			for j, k := range K.RawRowView(i) {
				dst[j] += w.cj * k
			}
		} else if k := w.kdiag[i]; k != 0 {
			dst[i] += w.cj * k
		}
	}
}

// errorNorm is IDATestError's estimate ck·‖e‖ on (q, v) (≤ 1 passes), with the estimates
// of orders k−1 and k (and k−2) that choose the order knew for the next attempt (adaptive
// only).
func (w *bdfWork) errorNorm(float64) float64 {
	k := w.k
	lower := k > 1 && !w.fixedOrd && !w.lad.fixed
	enormK, enormKm1, enormKm2 := w.errorNorms(lower, lower && k > 2)
	w.errK = w.sigma[k] * enormK
	terrK := float64(k+1) * w.errK
	w.knew = k
	if lower {
		w.errKm1 = w.sigma[k-1] * enormKm1
		terrKm1 := float64(k) * w.errKm1
		if k > 2 {
			terrKm2 := float64(k-1) * w.sigma[k-2] * enormKm2
			if math.Max(terrKm1, terrKm2) <= terrK {
				w.knew = k - 1
			}
		} else if terrKm1 <= 0.5*terrK {
			w.knew = k - 1
		}
	}
	e := w.ck * enormK
	if !(e <= 1) && (!w.lad.fixed || fixedStepDiverged(e, w.rtol)) { // a failure to report
		w.noteWorstError()
	}
	return e
}

// errorNorms returns diffNorm of the correction e and, with km1, of φ*_k + e (the
// estimate at order k−1), with km2 also of φ*_k + φ*_{k−1} + e (order k−2), in one pass
// over the differential components: each sum in the order of diffNorm's.
func (w *bdfWork) errorNorms(km1, km2 bool) (eK, eKm1, eKm2 float64) {
	if len(w.diff) == 0 {
		return 0, 0, 0
	}
	k := w.k
	ee, ewt, scal := w.ee, w.ewt, w.scal
	var sK, sKm1, sKm2 float64
	switch {
	case km2:
		bk, bk1, phik, phik1 := w.beta[k], w.beta[k-1], w.phi[k], w.phi[k-1]
		for _, i := range w.diff {
			e := ee[i]
			d1 := bk*phik[i] + e
			d2 := d1 + bk1*phik1[i]
			r0, r1, r2 := e*ewt[i]*scal[i], d1*ewt[i]*scal[i], d2*ewt[i]*scal[i]
			sK += r0 * r0
			sKm1 += r1 * r1
			sKm2 += r2 * r2
		}
	case km1:
		bk, phik := w.beta[k], w.phi[k]
		for _, i := range w.diff {
			e := ee[i]
			d1 := bk*phik[i] + e
			r0, r1 := e*ewt[i]*scal[i], d1*ewt[i]*scal[i]
			sK += r0 * r0
			sKm1 += r1 * r1
		}
	default:
		for _, i := range w.diff {
			r := ee[i] * ewt[i] * scal[i]
			sK += r * r
		}
	}
	m := float64(len(w.diff))
	return math.Sqrt(sK / m), math.Sqrt(sKm1 / m), math.Sqrt(sKm2 / m)
}

// noteWorstError records the largest weighted component of the error estimate (the
// correction e over q and v) for a failure report.
func (w *bdfWork) noteWorstError() {
	bj := worstIndex(len(w.diff), func(j int) float64 { return math.Abs(w.ee[w.diff[j]] * w.ewt[w.diff[j]]) })
	bi := w.diff[bj]
	if w.li != nil {
		w.lad.worst = w.li.component(bi, w.ee[bi], "error estimate")
		return
	}
	r := Residual{Block: "position error estimate", Index: bi, Value: w.ee[bi]}
	if bi >= w.nq {
		r.Block, r.Index = "velocity error estimate", bi-w.nq
	}
	r.Owner = dae.CoordinateName(w.sys, r.Index)
	w.lad.worst = r
}

// notePeak records the weighted components ck·|e_i|·ewt_i (h^(index−1) scaled, as the
// error test weighs them, errorNorm) of the accepted step's estimate over the
// differential components in the run's peak (errorPeak).
func (w *bdfWork) notePeak(h float64) {
	t := w.cur.T + h
	for _, i := range w.diff {
		w.observe(i, w.ck*w.ee[i]*w.ewt[i]*w.scal[i], 1, t)
	}
}

var _ ControlWarner = (*BDF)(nil)

// ControlWarnings warns when an accepted step's error estimate (IDA's ck·e over q and v)
// was more than localPeakRatio × tol in one component: the error test bounds the weighted
// RMS over all 2nq differential components (IDA's test, Hindmarsh et al. 2005, eqs. 2.5-2.6),
// which lets a single one reach √(2nq) × tol (see errorPeak). Without steps or with FixedH
// it returns nil.
func (m *BDF) ControlWarnings() []string {
	w := m.w
	if w == nil {
		return nil
	}
	return w.warnings(w.fixedH > 0, "bdf", w.componentName(w.peakIdx), len(w.diff), "differential components", "IDA's weighted RMS error test")
}

// componentName names component i of y in a warning.
func (w *bdfWork) componentName(i int) string {
	if w.li != nil {
		return dae.VariableName(w.li.sys, i)
	}
	return qvName(w.sys, w.nq, i)
}

// complete accepts the step (IDACompleteStep): order and step size for the next step
// (adaptive only), then the update of the history φ.
func (w *bdfWork) complete(h float64, adaptive bool) {
	if adaptive {
		w.notePeak(h)
	}
	w.mn().accepted()
	k := w.k
	kdiff := k - w.kused
	w.kused, w.hused, w.ns = k, h, w.nsTry
	w.psi = w.psiNew
	w.stats.Steps++
	if adaptive {
		if w.knew == k-1 || k == w.maxOrd {
			w.phase = 1
		}
		hnew := h
		if w.phase == 0 {
			if w.stats.Steps > 1 && k < w.maxOrd {
				w.k++
				hnew = 2 * h
			}
		} else {
			const (
				lower = iota
				maintain
				raise
				unset
			)
			action := unset
			switch {
			case w.fixedOrd:
				action = maintain
			case w.knew == k-1:
				action = lower
			case k == w.maxOrd, k+1 >= w.nsTry, kdiff == 1:
				action = maintain
			}
			errKp1 := 0.0
			if action == unset {
				for _, i := range w.diff {
					w.delta[i] = w.ee[i] - w.phi[k+1][i]
				}
				terrKp1 := w.diffNorm(w.delta, 1)
				errKp1 = terrKp1 / float64(k+2)
				terrK := float64(k+1) * w.errK
				if k == 1 {
					action = raise
					if terrKp1 >= 0.5*terrK {
						action = maintain
					}
				} else {
					terrKm1 := float64(k) * w.errKm1
					switch {
					case terrKm1 <= math.Min(terrK, terrKp1):
						action = lower
					case terrKp1 >= terrK:
						action = maintain
					default:
						action = raise
					}
				}
			}
			errNew := w.errK
			switch action {
			case raise:
				w.k++
				errNew = errKp1
			case lower:
				w.k--
				errNew = w.errKm1
			}
			rr := math.Pow(2*errNew+1e-4, -1/float64(w.k+1))
			switch {
			case rr >= 2:
				hnew = 2 * h
			case rr <= 1:
				hnew = h * math.Max(0.5, math.Min(0.9, rr))
			}
		}
		w.hNext = hnew
	}
	// φ(n+1) from φ*(n) = βφ(n) and the correction e (IDA): φ_{k+1} ← e,
	// φ_k ← φ*_k + e, φ_j ← φ*_j + φ_{j+1} downward; by chunks (bdfChunk).
	for lo := 0; lo < w.n; lo += bdfChunk {
		hi := min(lo+bdfChunk, w.n)
		for j := 1; j <= k; j++ {
			if b := w.beta[j]; b != 1 {
				phi := w.phi[j][lo:hi]
				for i := range phi {
					phi[i] *= b
				}
			}
		}
		ee := w.ee[lo:hi]
		if k < w.maxOrd {
			copy(w.phi[k+1][lo:hi], ee)
		}
		phik := w.phi[k][lo:hi]
		phik = phik[:len(ee)]
		for i, e := range ee {
			phik[i] += e
		}
		for j := k - 1; j >= 0; j-- {
			phi, next := w.phi[j][lo:hi], w.phi[j+1][lo:hi]
			next = next[:len(phi)]
			for i := range phi {
				phi[i] += next[i]
			}
		}
	}
	w.prev.CopyFrom(&w.cur)
	w.fo.unpack(&w.cur, w.cur.T+h, w.phi[0])
	w.setWeights()
}

// noteWorstResidual records the largest component of the last residual G with the block
// and owner it belongs to, for a failure report.
func (w *bdfWork) noteWorstResidual() {
	bi := largest(w.res)
	if w.li != nil {
		w.lad.worst = w.li.component(bi, w.res[bi], "equation")
		return
	}
	nq, nc := w.nq, w.nc
	r := Residual{Value: w.res[bi]}
	switch {
	case bi < nq:
		r.Block, r.Index, r.Owner = "kinematic equation q' = v", bi, dae.CoordinateName(w.sys, bi)
	case bi < 2*nq:
		r.Block, r.Index, r.Owner = "velocity equation v' = a", bi-nq, dae.CoordinateName(w.sys, bi-nq)
	case bi < 3*nq:
		r.Block, r.Index, r.Owner = "equation of motion", bi-2*nq, dae.CoordinateName(w.sys, bi-2*nq)
	case bi < 3*nq+nc:
		r.Index = bi - 3*nq
		r.Owner = dae.ConstraintName(w.sys, r.Index)
		switch w.form {
		case Index3:
			r.Block = "position constraint"
		case Index1, Baumgarte:
			r.Block = "acceleration constraint"
		default:
			r.Block = "velocity constraint"
		}
	default:
		r.Block, r.Index = "position constraint", bi-3*nq-nc
		r.Owner = dae.ConstraintName(w.sys, r.Index)
	}
	w.lad.worst = r
}

// Order returns the order k of the last accepted step (0 before the first).
func (m *BDF) Order() int { return m.w.kused }

// Interpolate writes the dense output at t into dst: the interpolating polynomial of
// the last step (IDAGetSolution),
//
//	y(t) = Σ_{j=0..k} c_j φ_j,   c_0 = 1,   c_j = c_{j−1}·(t − t_n + ψ_{j−2})/ψ_{j−1},
//
// of degree k through y_n, …, y_{n−k}, unpacked into Q, V, A and Lambda. Its error is
// that of the method on [t_{n−1}, t_n]. During the start of fixed-step mode a grid step
// spans several internal steps and the polynomial of the last one is extrapolated back
// over the others. dst needs the sizes of Current().
func (m *BDF) Interpolate(dst *State, t float64) {
	w := m.w
	if w.kused == 0 || t == w.cur.T {
		dst.CopyFrom(&w.cur)
		dst.T = t
		return
	}
	dt := t - w.cur.T
	copy(w.yInt, w.phi[0])
	c := 1.0
	gam := dt / w.psi[0]
	for j := 1; j <= w.kused; j++ {
		c *= gam
		gam = (dt + w.psi[j-1]) / w.psi[j]
		for i, p := range w.phi[j] {
			w.yInt[i] += c * p
		}
	}
	w.fo.unpack(dst, t, w.yInt)
}
