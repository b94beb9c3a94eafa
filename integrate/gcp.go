package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// GCP integrates the equations of motion as a state-space ODE in independent coordinates
// by generalized coordinate partitioning and the implicit Newmark formulas, following Haug,
// Negrut and Iancu (seed 000, section 3), who write Φ for g, Φ_q for G, Q for f and τ for
// γ. Their dependent u and independent v are qDep and qInd here (v is velocity).
//
// Partition (eqs. 7-8): Gaussian elimination with full pivoting of G(q) (linalg.FullPivLU)
// takes the pivot columns as the dependent coordinates, so that G_u is nonsingular; for a
// System that declares G's pattern (dae.Sparsity) with nq + nc ≥ sparseMinSize, the
// threshold-pivoting linalg.SparseRankLU does, on the dense and the sparse path alike
// (large systems run on the sparse path: gcpsparse.go).
//
// Recovery of the dependent quantities from the independent ones (eqs. 10-14, 37-38): for
// given qInd, qInd' and qInd”,
//
//	g(t, qDep, qInd) = 0                 Newton iteration on qDep with G_u          (eq. 11)
//	G_u H = −G_v                         (eq. 31)
//	qDep' = H qInd' − G_u⁻¹ g_t          (eqs. 12, 37; g_t = 0 in the paper)
//	qDep'' = H qInd'' + α,  G_u α = γ    (eqs. 13, 37)
//	G_uᵀ λ = f_u − (M q'')_u             (eqs. 10, 38)
//
// The Newmark formulas (eqs. 16-19) with γ = 1/2, β = 1/4 (trapezoidal, section 4) give
// qInd and qInd' from the unknown qInd” at t₁ = tₙ + h, and the discretized state-space
// equation is the independent rows of the equations of motion (eq. 20):
//
//	Ψ(qInd'') = (M q'')_v + G_vᵀ λ − f_v = 0.
//
// Newton's method (eq. 30) uses the Jacobian of eq. 29. With Z = [H; I] (dependent rows H,
// independent rows the identity) and the matrices of eqs. 32-36,
//
//	G_u N = γ_v Z                                       (eq. 34)
//	G_u J = −((G q')_q + G_t) Z = ½ γ_v Z,  J = N/2     (eq. 32)
//	G_u L = (γ_q − (G q'')_q) Z + γ_v[:,u] J            (eq. 33)
//
// (the second form of eq. 32 is the identity γ_v = −2(G v)_q − 2G_t of dae.GammaDerivative,
// which also covers rheonomic constraints), the derivatives of the full q, q' and q” with
// respect to qInd” are βh²Z, βh²J̃ + γhZ and βh²L̃ + γhÑ + Z (J̃, L̃, Ñ: J, L, N in the
// dependent rows, zero in the independent ones; eqs. 21, 23, 25), and eq. 29 is
//
//	Ψ_v'' = Zᵀ [ M (βh²L̃ + γhÑ + Z) − f_v' (βh²J̃ + γhZ) + βh² ((M q'')_q + (Gᵀλ)_q − f_q) Z ],
//
// whose dependent rows are eqs. 35-36 (R and S) mapped through Hᵀ and whose first term is
// the positive definite reduced mass Zᵀ M Z of eq. 39. The second derivatives come from
// dae.Derivatives and dae.SecondDerivatives (analytic when the System implements the
// capabilities, finite differences otherwise).
//
// Variant GCPFisetteVaneghem drops the terms of eq. 40, i.e. L̃, Ñ and (Gᵀλ)_q above
// (Fisette and Vaneghem 1996, a quasi-Newton method); the discretization, hence the
// solution, is the same. On a dae.MassSolver system (the joint route) both variants take
// the increment by GMRES on differences of Ψ (gcpKrylov, gcpmass.go), which hold eq. 40's
// terms: there gcp-fv is the exact Newton iteration of gcp-newmark.
//
// Step (section 3.3): the predictor evaluates eqs. 16-17 with β = γ = 0, i.e. takes qInd
// and qInd' as the predictor terms of eqs. 18-19 (those use the method's β = 1/4, γ = 1/2:
// the Newmark step with qInd”ₙ₊₁ = 0, as Hughes's Newmark predictor; the paper's sentence
// could also be read as a Taylor step with β = γ = 0 in eqs. 18-19 too, which measured
// 13-26% smaller largest steps on the double pendulum for IMPL and FV alike), recovers
// qDep, qDep' and solves eq. 39 for qInd” (Predictor
// GCPPredictLastAcceleration starts from qInd”ₙ instead); the corrector iterates eqs.
// 16-17, 11, 31, 37, 38, 20, 29, 30. Every corrector iteration recovers all dependent
// quantities, so each iterate satisfies g = 0, G q' + g_t = 0, G q” = γ and the dependent
// rows of the equations of motion. The increments of qInd” are measured in the weighted
// RMS norm (weights ATol + RTol·|qInd”|); full Newton (JacobianEveryIteration, the paper's
// and the default) stops by fullNewton's rule, the simplified forms by newtonMonitor's
// rate test. After convergence the dependent quantities are recovered once more at the
// final qInd”.
//
// Constant step (StepControl.FixedH, as in the paper): a Newton failure stops the run with
// a *StepError (after one retry with a fresh Jacobian when it was reused), which is how the
// largest step that still converges is found. Variable step: the local error estimate of
// the Newmark displacement formula (Zienkiewicz and Xie 1991; the same estimate as seed 004,
// eq. 26 with α = 0),
//
//	δ_q = (β − 1/6) h² (q''ₙ₊₁ − q''ₙ) = h²/12 (q''ₙ₊₁ − q''ₙ),
//
// over all coordinates, in WeightedRMS with RTol and ATol, drives the elementary controller
// with order 2 (δ_q ~ h³); a Newton failure cuts h by 0.25.
//
// Re-partition: the Newton matrix of eq. 29 amplifies G_u⁻¹, which grows without bound as
// G_u approaches singularity; max|H_ij| (eq. 31) measures it at every recovery. After an
// accepted step with max|H_ij| > Repartition·max(1, H₀), H₀ its value just after the last
// partition, the partition is recomputed at the new state (Stats.Repartitions counts the
// changes). The full state is stored, so the next step simply reads its independent
// coordinates from it.
type GCP struct {
	Variant     GCPVariant     // GCPExact (eq. 29) or GCPFisetteVaneghem (eq. 29 less eq. 40)
	Newton      NewtonSettings // corrector stop; the paper uses full Newton: DefaultGCP sets JacobianEveryIteration
	Repartition float64        // re-partition threshold on max|H_ij| relative to its value at the last partition [DefaultRepartition]
	Predictor   GCPPredictor   // start of the corrector [GCPPredictSection33, the paper's]
	w           *gcpWork
	*accepted   // Current, Previous, Stats (method.go)
}

// GCPPredictor selects the starting value of GCP's corrector.
type GCPPredictor int

const (
	// GCPPredictSection33 is the predictor stage of seed 000, section 3.3: eqs. 16-17
	// with β = γ = 0 (qInd, qInd' from the predictor terms of eqs. 18-19), recovery of
	// qDep, qDep', and qInd'' from eq. 39 at the predicted state.
	GCPPredictSection33 GCPPredictor = iota
	// GCPPredictLastAcceleration starts the corrector at qInd''ₙ (the constant-acceleration
	// start of structural-dynamics Newmark codes). On stiff systems the section 3.3 predictor
	// evaluates the stiff forces at explicitly predicted positions and starts Newton far from
	// the solution; this start does not (measured on the stiff double pendulum of seed 000,
	// section 4.1, with k = 1e6: 3 iterations per step at h = 0.02 against a Newton failure
	// at h = 0.005 with the section 3.3 predictor).
	GCPPredictLastAcceleration
)

// GCPVariant selects the Newton matrix of GCP.
type GCPVariant int

const (
	// GCPExact is the exact Jacobian of eq. 29 (Haug, Negrut and Iancu; "IMPL").
	GCPExact GCPVariant = iota
	// GCPFisetteVaneghem omits the terms of eq. 40 ("FV"), except on the Newton-Krylov
	// path of a dae.MassSolver system, whose products of Ψ keep them (gcpKrylov).
	GCPFisetteVaneghem
)

// DefaultRepartition is the growth of max|H_ij| (eq. 31) since the last partition that
// triggers a new one. Its value is our choice, not the paper's (which only asks for a new
// partition when G_u is ill conditioned): a tenfold growth of G_u⁻¹ G_v leaves the Newton
// matrix well scaled and, on the pendulum, switches the dependent coordinate within about
// 6° of the vertical.
const DefaultRepartition = 10

// gcpMaxPosIters bounds the Newton iterations of the position recovery (eq. 11); it
// converges quadratically from the predicted or previous qDep, in 2-4 iterations.
const gcpMaxPosIters = 12

// gcpPosTol stops the position recovery when every correction is below gcpPosTol·(1+|q_i|):
// quadratic convergence then leaves an error near rounding.
const gcpPosTol = 1e-11

// gcpMaxCoords is the largest number of coordinates the dense path of the gcp methods
// takes: there the partition, H (eq. 31), the reduced mass of eq. 39 and the Newton
// matrix of eq. 29 are dense (gcpDenseBytes: about 300 MB at 2000 coordinates of a
// chain), so a larger system without the sparse path (gcpsparse.go) is refused by name
// instead of running out of memory.
const gcpMaxCoords = 2000

// gcpLargeMethods are the other methods whose steps run on the sparse evaluation path
// (dae.SparseEvaluator).
const gcpLargeMethods = "hht, genalpha, genalpha-si2, newmark, daealpha, bdf, radau5, dopri5, mdop5, hedop5, rk4"

// gcpDenseBytes is the storage newGCPCore allocates for nq coordinates and nc constraints:
// M, K, f_v and a scratch (nq×nq), D1, D2, X (nq×nd), G, γ_q, γ_v, (G a)_q (nc×nq), H, N,
// J, L (nc×nd), G_u, the reduced mass and the Newton matrix with their factorizations.
func gcpDenseBytes(nq, nc int) float64 {
	q, c := float64(nq), float64(nc)
	d := q - c
	return 8 * (4*q*q + 3*q*d + 5*c*q + 4*c*d + 2*c*c + 4*d*d)
}

// DefaultGCP returns the method of seed 000 with its defaults: exact Jacobian, full Newton.
func DefaultGCP() GCP {
	return GCP{Newton: NewtonSettings{Jacobian: JacobianEveryIteration}}
}

var gcpNewmarkEntry = Entry{
	Name:         "gcp-newmark",
	Title:        "state-space trapezoidal Newmark by coordinate partitioning, exact Newton Jacobian",
	Seed:         "000",
	Equations:    "7-8, 10-13, 16-20, 29-39; sec. 3.3; error h²/12·Δq''",
	Formulations: []Formulation{StateSpace},
	Order:        Order{Q: 2, V: 2, Lambda: 2},
	Adaptive:     true,
	// ReactionForces: eq. 38 with f_λ(λ) by Newton on λ, its derivative in eq. 29
	// (reactionReduce); dense path (a system with them does not take the sparse one).
	ReactionForces: true,
	New:            func() Method { m := DefaultGCP(); return &m },
}

var gcpFVEntry = gcpNewmarkEntry.variant("gcp-fv",
	"gcp-newmark with the Fisette-Vaneghem quasi-Newton matrix",
	"as gcp-newmark; Jacobian 29 less eq. 40 (exact 29 on the joint route)",
	func() Method {
		m := DefaultGCP()
		m.Variant = GCPFisetteVaneghem
		return &m
	})

// gcpWork is the per-run state of GCP.
type gcpWork struct {
	cs   *gcpCore
	v    GCPVariant
	pred GCPPredictor
	rep  float64
	// nw is the corrector loop (newton.go): simplified Newton under JacobianAuto and
	// JacobianEveryStep, full Newton with fullNewton's stop (the paper's iteration) under
	// JacobianEveryIteration.
	nw newtonSolver

	lad ladder     // step loop, attempts and failure reports (ladder.go)
	ctl controller // the step-size rule

	accepted       // cur, prev, stats: Current, Previous, Stats
	it       State // iterate at t₁ (full q, v, a, λ)

	predQ, predV []float64 // ṽ and ṽ' of eqs. 18-19, full length (independent entries used)
	vdd, dvdd    []float64 // qInd'' and its Newton increment (nd)
	vdd0         []float64 // qInd'' of the previous iterate (weights)
	err          []float64 // nq error estimate

	kry      *gcpKrylov      // the Newton-Krylov corrector of the mass-solve path (gcpmass.go), or nil
	rnd      *newtonRounding // the rounding level of the increments on that path (gcpmass.go), or nil
	rndAge   int             // attempts since rnd's measurement
	rndCount int             // rnd's measurements in the run
	full     *fullNewton     // the stopping rule under JacobianEveryIteration, or nil
	jac      *mat.Dense      // Ψ_v'' (nd×nd)
	jlu      *linalg.LU      // its factorization
	hTry     float64         // h of the attempt under way
	psi      []float64       // Ψ (nd)
	h0Rep    float64         // max|H| just after the last partition
	maxHLast float64
}

// Init resolves the options, checks that start is consistent (g = 0 and G v + g_t = 0 to
// 1e-8 relative), partitions the coordinates at start.Q (eqs. 7-8) and recomputes a and λ
// from eq. 39. Systems with first-order states (dae.FirstOrder) are not supported.
func (m *GCP) Init(sys dae.System, start State, ctl StepControl) error {
	name := "gcp-newmark"
	if m.Variant == GCPFisetteVaneghem {
		name = "gcp-fv"
	}
	if err := refuseNonholonomic(name, sys); err != nil {
		return err
	}
	if m.Variant != GCPExact && m.Variant != GCPFisetteVaneghem {
		return fmt.Errorf("integrate: gcp: Variant = %d, want GCPExact or GCPFisetteVaneghem", m.Variant)
	}
	if m.Repartition < 0 || math.IsNaN(m.Repartition) || (m.Repartition > 0 && m.Repartition < 1) {
		return fmt.Errorf("integrate: %s: Repartition = %g, want 0 (default) or >= 1", name, m.Repartition)
	}
	ns, err := m.Newton.Resolve()
	if err != nil {
		return fmt.Errorf("integrate: %s: %w", name, err)
	}
	if _, err := ctl.resolveAt(start.T, len(start.Q)); err != nil {
		return fmt.Errorf("integrate: %s: %w", name, err)
	}
	if m.Predictor != GCPPredictSection33 && m.Predictor != GCPPredictLastAcceleration {
		return fmt.Errorf("integrate: %s: Predictor = %d, want GCPPredictSection33 or GCPPredictLastAcceleration", name, m.Predictor)
	}
	w := &gcpWork{v: m.Variant, pred: m.Predictor, rep: m.Repartition}
	cs, err := newGCPCore(name, sys, start, &w.stats, true)
	if err != nil {
		return err
	}
	w.cs = cs
	w.lad = ladder{name: name, m: w, raw: ctl, second: &w.ctl, stats: &w.stats, cur: &w.cur, fc: newFailureContext(sys, &start)}
	nq, nc := sys.Size()
	nd := nq - nc
	if w.rep == 0 {
		w.rep = DefaultRepartition
	}
	w.nw = newNewtonSolver(ns, &w.stats)
	w.cur, w.prev, w.it = NewState(nq, nc), NewState(nq, nc), NewState(nq, nc)
	w.predQ, w.predV, w.err = make([]float64, nq), make([]float64, nq), make([]float64, nq)
	w.vdd, w.dvdd, w.vdd0, w.psi = make([]float64, nd), make([]float64, nd), make([]float64, nd), make([]float64, nd)
	switch {
	case cs.schur != nil:
		w.kry = newGCPKrylov(sys, nq, nc)
		w.rnd = &newtonRounding{y: make([]float64, nd), r0: make([]float64, nd)}
	case cs.sparse == nil:
		w.jac = mat.NewDense(nd, nd, nil)
		w.jlu = linalg.NewLU(nd)
	}
	w.cur.T = start.T
	copy(w.cur.Q, start.Q)
	copy(w.cur.V, start.V)
	if err := cs.start(&w.cur); err != nil {
		return err
	}
	w.h0Rep = cs.hMax()
	w.maxHLast = w.h0Rep
	w.prev.CopyFrom(&w.cur)
	m.w, m.accepted = w, &w.accepted
	return nil
}

// Step takes one accepted step toward tEnd (see Method and GCP).
func (m *GCP) Step(tEnd float64) error {
	mustInit(m.w != nil, "gcp")
	return m.w.lad.step(tEnd)
}

// setup sets the Newton stop (stepper).
func (w *gcpWork) setup(float64) error {
	c := w.lad.c
	// An increment of 10 ulps of qInd'' in the weights ATol + RTol|qInd''|.
	w.nw.mon.floor = tenUlpFloor(c.RTol, c.ATol)
	if w.nw.s.Jacobian == JacobianEveryIteration {
		w.full = &fullNewton{s: w.nw.s, floor: w.nw.mon.floor}
		w.nw.rule = w.full
	}
	return nil
}

// attempt predicts and corrects one step of size h (newtonSolver.attempt), with a fresh
// matrix unless JacobianAuto may keep the last one (fast convergence, h in the Deadband).
func (w *gcpWork) attempt(h float64) (usedFresh int, cause error) {
	return w.nw.attempt(w, h, !w.nw.keeps(h))
}

const (
	gcpBeta  = 0.25 // trapezoidal Newmark (seed 000, section 4: γ = 1/2, β = 1/4)
	gcpGamma = 0.5
)

// predict is the predictor stage of section 3.3: eqs. 16-17 with β = γ = 0 for qInd and
// qInd', recovery of qDep (eq. 11, started from the same predictor), H (eq. 31), qDep'
// (eq. 37), and qInd” from eq. 39. It also stores the predictor terms of eqs. 18-19.
func (w *gcpWork) predict(h float64, _ bool) error {
	w.hTry = h
	if w.rnd != nil {
		if w.rndAge++; w.rndAge > gcpRoundingAttempts {
			w.rnd.current = false // the loads, hence the rounding, move along the run
		}
	}
	cs, s, it := w.cs, &w.cur, &w.it
	it.T = s.T + h
	for i := range s.Q {
		w.predQ[i] = s.Q[i] + h*s.V[i] + h*h/2*(1-2*gcpBeta)*s.A[i] // eq. 19
		w.predV[i] = s.V[i] + (1-gcpGamma)*h*s.A[i]                 // eq. 18
		it.Q[i] = w.predQ[i]
		it.V[i] = w.predV[i]
	}
	if err := cs.positions(it.T, it.Q); err != nil {
		w.lad.worst = cs.worst
		return err
	}
	cs.velocities(it.T, it.Q, it.V)
	if err := cs.reducedAcceleration(it.T, it.Q, it.V, it.A, it.Lambda); err != nil {
		w.lad.worst = cs.worst
		return err
	}
	for j, i := range cs.ind {
		w.vdd[j] = it.A[i]
		if w.pred == GCPPredictLastAcceleration {
			w.vdd[j] = s.A[i]
		}
	}
	return nil
}

// evaluate performs corrector steps (1)-(6) of section 3.3 at the current w.vdd: Newmark
// (eqs. 16-17), qDep (eq. 11), H (eq. 31), qDep', qDep” (eq. 37), λ (eq. 38) and Ψ
// (eq. 20) into w.psi.
func (w *gcpWork) evaluate(h float64) error { return w.evaluateAt(h, w.vdd, &w.it, w.psi) }

// evaluateAt is evaluate at the independent accelerations vdd, into the state it (whose
// dependent positions start the recovery) and psi.
func (w *gcpWork) evaluateAt(h float64, vdd []float64, it *State, psi []float64) error {
	cs := w.cs
	for j, i := range cs.ind {
		it.Q[i] = w.predQ[i] + gcpBeta*h*h*vdd[j]
		it.V[i] = w.predV[i] + gcpGamma*h*vdd[j]
		it.A[i] = vdd[j]
	}
	if err := cs.positions(it.T, it.Q); err != nil {
		w.lad.worst = cs.worst
		return err
	}
	cs.velocities(it.T, it.Q, it.V)
	if w.kry != nil {
		return w.forwardResidual(vdd, it, psi)
	}
	if err := cs.accelerations(it.T, it.Q, it.V, it.A, it.Lambda, psi); err != nil {
		w.lad.worst = cs.worst
		return err
	}
	return nil
}

// The corrector stage of section 3.3 (newtonIteration for newtonSolver): the unknowns
// qInd'', the residual Ψ (eq. 20) and the matrix Ψ_v'' (eq. 29).

// residual performs corrector steps (1)-(6) at the iterate (evaluate).
func (w *gcpWork) residual() error { return w.evaluate(w.hTry) }

// factor assembles and factorizes Ψ_v” at the iterate.
func (w *gcpWork) factor() error { return w.jacobian(w.hTry) }

// increment solves for ΔqInd”, applies it and returns its weighted norm.
func (w *gcpWork) increment() float64 {
	for j := range w.psi {
		w.dvdd[j] = -w.psi[j]
	}
	switch {
	case w.kry != nil:
		w.krylov()
	case w.cs.sparse != nil:
		w.cs.solveNewtonSparse(w.dvdd)
	default:
		w.jlu.Solve(w.dvdd)
	}
	copy(w.vdd0, w.vdd)
	for j := range w.vdd {
		w.vdd[j] += w.dvdd[j]
	}
	norm := WeightedRMS(w.dvdd, w.vdd0, w.vdd, w.lad.c.RTol, w.lad.c.ATol)
	if w.rnd != nil && w.stalled(norm) && w.roundingDue(norm) {
		w.measureRounding()
	}
	w.setFloor()
	return norm
}

// converged recovers the dependent quantities at the final qInd”.
func (w *gcpWork) converged() error { return w.evaluate(w.hTry) }

// diverged names the worst component of Ψ, or the non-finite increment.
func (w *gcpWork) diverged() error {
	if !allFinite(w.dvdd) {
		w.lad.worst = Residual{Block: "independent acceleration increment", Index: 0, Value: math.NaN()}
		return ErrNonFinite
	}
	w.noteWorstPsi()
	return ErrNoConvergence
}

// fullNewton is the stopping rule of GCP's full Newton iteration (eq. 30 with the Jacobian
// of eq. 29 at every iterate). From the explicit predictor of section 3.3 a stiff system
// starts far from the solution (the predicted accelerations carry the stiff forces of the
// predicted positions), and the increments may grow for a few iterations before the
// quadratic convergence sets in; the rate test of newtonMonitor, built for simplified
// Newton, would abandon such an iteration at the first θ ≥ 1. Here an iteration fails only
// when MaxIters pass without convergence or a value is not finite; it converges when
// θ/(1−θ)·‖Δ‖ ≤ Tol with the last rate θ < 1 (‖Δ‖ ≤ Tol at the first iteration, where no
// rate is known), or when ‖Δ‖ is at rounding level (floor).
type fullNewton struct {
	s     NewtonSettings
	floor float64
	iter  int
	prev  float64
	theta float64
}

func (f *fullNewton) start() { f.iter, f.prev, f.theta = 0, 0, 0 }

func (f *fullNewton) rate() float64 { return f.theta }

func (f *fullNewton) update(norm float64) newtonStatus {
	f.iter++
	if math.IsNaN(norm) || math.IsInf(norm, 0) {
		return newtonDiverged
	}
	eta := 1.0
	if f.iter > 1 {
		f.theta = norm / f.prev
		eta = math.Inf(1)
		if f.theta < 1 {
			eta = f.theta / (1 - f.theta)
		}
	}
	f.prev = norm
	if norm == 0 || (f.iter > 1 && norm <= f.floor) || eta*norm <= f.s.Tol {
		return newtonConverged
	}
	if f.iter >= f.s.MaxIters {
		return newtonDiverged
	}
	return newtonContinue
}

// noteWorstPsi records the largest component of Ψ (eq. 20) for a failure report.
func (w *gcpWork) noteWorstPsi() {
	if len(w.psi) > 0 {
		bi := largest(w.psi)
		i := w.cs.ind[bi]
		w.lad.worst = Residual{Block: "state-space equation (eq. 20) of coordinate", Index: i, Value: w.psi[bi], Owner: dae.CoordinateName(w.cs.sys, i)}
	}
}

// jacobian assembles and factorizes Ψ_v” (eq. 29, or eq. 29 less eq. 40 for FV) at the
// current iterate.
func (w *gcpWork) jacobian(h float64) error {
	if w.cs.sparse != nil {
		return w.jacobianSparse(h)
	}
	if w.kry != nil {
		if w.firstIterate() { // Ψ̃ needs no matrix (gcpKrylov); K_g when the rule buys it
			w.kry.kg.factor(w.cs, &w.it, w.kry.a, h, &w.stats)
		}
		return nil
	}
	if err := w.cs.newtonMatrix(w.jac, &w.it, h, gcpBeta, gcpGamma, w.v == GCPFisetteVaneghem); err != nil {
		w.lad.worst = w.cs.worst
		return err
	}
	w.stats.Jacobians++
	w.stats.Factorizations++
	if err := w.jlu.Factorize(w.jac); err != nil {
		if !allFinite(w.jac.RawMatrix().Data) {
			w.lad.worst = Residual{Block: "Newton matrix (eq. 29)"}
			return ErrNonFinite
		}
		w.lad.worst = Residual{Block: "Newton matrix (eq. 29)"}
		return err
	}
	return nil
}

// errorNorm returns the weighted RMS of δ_q = h²/12 (q”ₙ₊₁ − q”ₙ); with FixedH the
// ladder only checks it for divergence (fixedStepDiverged).
func (w *gcpWork) errorNorm(h float64) float64 {
	c := (gcpBeta - 1.0/6) * h * h
	for i := range w.err {
		w.err[i] = c * (w.it.A[i] - w.cur.A[i])
	}
	e := w.lad.c.weightedRMS(w.err, w.cur.Q, w.it.Q, len(w.err), 1)
	if !(e <= 1) && (w.lad.c.FixedH == 0 || fixedStepDiverged(e, w.lad.c.RTol)) { // a failure to report
		bi := w.lad.c.worstWeighted(w.err, w.cur.Q, w.it.Q, len(w.err), 1)
		w.lad.worst = Residual{Block: "position error estimate", Index: bi, Value: w.err[bi], Owner: dae.CoordinateName(w.cs.sys, bi)}
	}
	return e
}

// commit accepts the iterate and re-partitions when H has grown (see GCP).
func (w *gcpWork) commit(h float64) error {
	w.prev.CopyFrom(&w.cur)
	w.cur.CopyFrom(&w.it)
	w.stats.Steps++
	w.maxHLast = w.cs.hMax()
	if w.maxHLast > w.rep*math.Max(1, w.h0Rep) {
		changed, err := w.cs.partition(w.cur.T, w.cur.Q)
		if err == nil {
			// Recompute H (and max|H|) for the new partition at the accepted state.
			if err := w.cs.positions(w.cur.T, w.it.Q); err == nil {
				w.cs.velocities(w.cur.T, w.it.Q, w.it.V)
				w.h0Rep = w.cs.hMax()
			}
			if changed {
				w.stats.Repartitions++
				w.nw.haveJ = false // the unknowns changed
				if w.kry != nil {
					w.kry.kg.repartitioned()
				}
			}
		}
	}
	return nil
}

// Interpolate writes the dense output at t in [Previous().T, Current().T] into dst by cubic
// Hermite interpolation (hermiteInterpolate).
func (m *GCP) Interpolate(dst *State, t float64) { hermiteInterpolate(dst, &m.w.prev, &m.w.cur, t) }

// MaxH returns max|H_ij| (eq. 31) at the last accepted state: the growth of G_u⁻¹ G_v that
// the re-partition rule watches.
func (m *GCP) MaxH() float64 { return m.w.maxHLast }

// Partition returns the dependent and independent coordinates of the current partition
// (owned by the method; they change at a re-partition).
func (m *GCP) Partition() (dep, ind []int) { return m.w.cs.dep, m.w.cs.ind }

// gcpCore holds what the state-space methods share: the partition (eqs. 7-8) and the
// recovery of the dependent quantities from the independent ones (eqs. 10-14, 31, 37-39),
// and the Newton matrix of eq. 29. All workspace is sized at construction.
type gcpCore struct {
	name       string
	sys        dae.System
	der        *dae.Derivatives
	sec        *dae.SecondDerivatives
	nq, nc, nd int

	dep, ind []int                // dependent (pivot) and independent coordinates
	part     *linalg.FullPivLU    // the partition of small systems
	rank     *linalg.SparseRankLU // the partition of systems that declare G's pattern
	gpat     [][]int              // G's pattern (with rank)
	pivots   []int                // nc: the dependent coordinates of the last partition
	sparse   *gcpSparse           // the sparse path (gcpsparse.go), or nil
	schur    *massSchur           // the mass-solve path (gcpmass.go), or nil
	mm       dae.MassMultiplier   // M a on the mass-solve path of gcp-newmark, or nil
	phiU     *linalg.FullPivLU    // G_u at the last position recovery
	Gu       *mat.Dense           // nc×nc
	G, M     *mat.Dense
	H        *mat.Dense // nc×nd, eq. 31
	maxH     float64
	redLU    *linalg.LU // Zᵀ M Z (eq. 39)
	red      *mat.Dense
	f, e     []float64 // nq: f, and M a − f
	g, gt    []float64 // nc
	alpha, r []float64 // nc
	rhs      []float64 // nd

	// Newton matrix workspace (eq. 29).
	K, Fv     *mat.Dense // nq×nq
	tmp       *mat.Dense // nq×nq
	Gq, Gv    *mat.Dense // γ_q, γ_v (nc×nq)
	GAq       *mat.Dense // (G q'')_q (nc×nq)
	N, J, L   *mat.Dense // nc×nd
	D1, D2, X *mat.Dense // nq×nd
	col       []float64  // nc
	inDep     []int      // nq: index into dep, or −1
	// λ-dependent forces (dae.ReactionForce; dense path only): rx, eq. 38 solved by
	// Newton on λ with A = G_uᵀ − ∂f_λ/∂λ_u (alu), fl and dl its scratch, acc eq. 17 with
	// f_λ for eq. 39 (reducedAcceleration).
	rx     *reaction
	rt     float64   // t, q, v of the last alphaDep (held, not copied)
	rq, rv []float64 //
	alu    *linalg.LU
	fl, dl []float64
	// The mass-solve path with λ-dependent forces (gcpmass.go): eq. 17 with f_λ by Newton on
	// λ through massSchur, and eq. 38's matrix by differences of f_λ (fd: no ∂f_λ matrices);
	// aluOK says alu holds a factorization, kept while Newton on λ contracts.
	rxa       *reactionAccel
	fd, aluOK bool
	flt, lt   []float64
	acc       *eq17
	worst     Residual
	stats     *Stats // the owner's counters
}

// newGCPCore returns the core for sys, on the sparse path (gcpsparse.go) when sys is a
// large enough dae.SparseEvaluator; newton says that the method needs the Newton matrix
// of eq. 29 (and so the coupling pattern). On a dae.MassSolver system (with
// dae.MassMultiplier when newton) it takes the mass-solve path (gcpmass.go): the Newton
// matrix is then left to GMRES on differences of Ψ, which gives the exact eq. 29 for
// gcp-newmark and gcp-fv alike (eq. 40's terms included).
func newGCPCore(name string, sys dae.System, start State, stats *Stats, newton bool) (*gcpCore, error) {
	nq, nc := sys.Size()
	if len(start.Q) != nq || len(start.V) != nq {
		panic(fmt.Sprintf("integrate: %s: Init: start has len(Q) = %d, len(V) = %d, want %d", name, len(start.Q), len(start.V), nq))
	}
	if dae.StateSize(sys) > 0 {
		return nil, fmt.Errorf("integrate: %s: systems with first-order states (dae.FirstOrder) are not supported", name)
	}
	if nc >= nq {
		return nil, fmt.Errorf("integrate: %s: %d constraints on %d coordinates leave no independent coordinate", name, nc, nq)
	}
	if sp := newGCPSparse(sys, newton); sp != nil && !dae.HasReactionForce(sys) {
		return newGCPCoreSparse(name, sys, stats, sp)
	}
	if ms := massSchurOf(sys); ms != nil { // f_λ by reducedAccelerationMass, reactionMultipliers
		if mm, ok := sys.(dae.MassMultiplier); ok || !newton {
			return newGCPCoreMass(name, sys, stats, ms, mm)
		}
	}
	if err := refuseDenseNewton(name, StateSpace, sys, denseWhy(sys)); err != nil {
		return nil, err
	}
	if nq > gcpMaxCoords {
		return nil, fmt.Errorf("integrate: %s: %d coordinates (%d constraints) exceed the %d of its dense path, whose partitioned and Newton matrices "+
			"(eqs. 29-39) would take about %.1f GB here; a System that writes its matrices as pattern values (dae.SparseEvaluator, with a coupling "+
			"pattern for gcp-newmark and gcp-fv) runs on the sparse path, as do %s",
			name, nq, nc, gcpMaxCoords, gcpDenseBytes(nq, nc)/(1<<30), gcpLargeMethods)
	}
	nd := nq - nc
	cs := &gcpCore{name: name, sys: sys, stats: stats, der: dae.NewDerivatives(sys), sec: dae.NewSecondDerivatives(sys), nq: nq, nc: nc, nd: nd}
	cs.dep, cs.ind = make([]int, nc), make([]int, nd)
	cs.inDep = make([]int, nq)
	cs.M = mat.NewDense(nq, nq, nil)
	cs.red = mat.NewDense(nd, nd, nil)
	cs.redLU = linalg.NewLU(nd)
	cs.f, cs.e = make([]float64, nq), make([]float64, nq)
	cs.rhs = make([]float64, nd)
	cs.K, cs.Fv, cs.tmp = mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
	cs.D1, cs.D2, cs.X = mat.NewDense(nq, nd, nil), mat.NewDense(nq, nd, nil), mat.NewDense(nq, nd, nil)
	if nc > 0 {
		if err := cs.newRecovery(); err != nil {
			return nil, err
		}
		cs.r = make([]float64, nc)
		cs.Gq, cs.Gv, cs.GAq = mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil)
		cs.N, cs.J, cs.L = mat.NewDense(nc, nd, nil), mat.NewDense(nc, nd, nil), mat.NewDense(nc, nd, nil)
	}
	if cs.rx = newReaction(sys, nil); cs.rx != nil && nc > 0 {
		cs.alu = linalg.NewLU(nc)
		cs.fl, cs.dl = make([]float64, nq), make([]float64, nc)
		cs.acc = newEq17(sys).newtonOnLambda()
	}
	cs.initPartition()
	return cs, nil
}

// newGCPCoreSparse returns the core on the sparse path sp: the vectors of the recovery and
// nothing of size nq×nq, nc×nq or nc×nd.
func newGCPCoreSparse(name string, sys dae.System, stats *Stats, sp *gcpSparse) (*gcpCore, error) {
	nq, nc := sys.Size()
	cs := &gcpCore{name: name, sys: sys, stats: stats, nq: nq, nc: nc, nd: nq - nc, sparse: sp}
	cs.dep, cs.ind, cs.inDep = make([]int, nc), make([]int, nq-nc), make([]int, nq)
	cs.g, cs.gt, cs.alpha = make([]float64, nc), make([]float64, nc), make([]float64, nc)
	cs.f, cs.e = make([]float64, nq), make([]float64, nq)
	if err := cs.newPartition(); err != nil {
		return nil, err
	}
	cs.initPartition()
	return cs, nil
}

// newRecovery allocates the partition and the dense nc-row matrices of the recovery
// (eqs. 11, 31, 37): G, G_u and its factorization, H.
func (cs *gcpCore) newRecovery() error {
	nq, nc, nd := cs.nq, cs.nc, cs.nd
	if err := cs.newPartition(); err != nil {
		return err
	}
	cs.phiU = linalg.NewFullPivLU(nc, nc)
	cs.Gu = mat.NewDense(nc, nc, nil)
	cs.G = mat.NewDense(nc, nq, nil)
	cs.H = mat.NewDense(nc, nd, nil)
	cs.g, cs.gt, cs.alpha, cs.col = make([]float64, nc), make([]float64, nc), make([]float64, nc), make([]float64, nc)
	return nil
}

// newPartition allocates the factorization that partitions: linalg.SparseRankLU on G's
// pattern when sys declares it (dae.Sparsity) and nq + nc ≥ sparseMinSize, full pivoting
// otherwise.
func (cs *gcpCore) newPartition() error {
	cs.pivots = make([]int, cs.nc)
	if sp, ok := cs.sys.(dae.Sparsity); ok && cs.nq+cs.nc >= sparseMinSize && sp.ConstraintPattern() != nil {
		cs.gpat = sp.ConstraintPattern()
		r, err := linalg.NewSparseRankLU(cs.nc, cs.nq, cs.gpat)
		if err != nil {
			return fmt.Errorf("integrate: %s: %T declares a bad constraint pattern: %w", cs.name, cs.sys, err)
		}
		cs.rank = r
		return nil
	}
	if cs.sparse != nil {
		return fmt.Errorf("integrate: %s: the sparse path needs G's pattern (dae.Sparsity)", cs.name)
	}
	cs.part = linalg.NewFullPivLU(cs.nc, cs.nq)
	return nil
}

// initPartition marks every coordinate independent until the first partition.
func (cs *gcpCore) initPartition() {
	for i := range cs.nq {
		cs.inDep[i] = -1
	}
	if cs.nc == 0 {
		for i := range cs.ind {
			cs.ind[i] = i
		}
	}
}

// start checks consistency of s (g = 0, G v + g_t = 0 to 1e-8 relative), partitions at s.Q
// and computes s.A, s.Lambda from eq. 39.
func (cs *gcpCore) start(s *State) error {
	meter := dae.NewResidualMeter(cs.sys)
	r := meter.Measure(s.T, s.Q, s.V, nil)
	if r.Pos > 1e-8*math.Max(1, hhtMaxAbs(s.Q)) || r.Vel > 1e-8*math.Max(1, hhtMaxAbs(s.V)) ||
		math.IsNaN(r.Pos) || math.IsNaN(r.Vel) {
		return fmt.Errorf("integrate: %s: inconsistent start at t=%g: |g| = %.2g at %s, |G v + g_t| = %.2g (want ≤ 1e-8 relative)",
			cs.name, s.T, r.Pos, dae.ConstraintName(cs.sys, max(r.WorstPos, 0)), r.Vel)
	}
	if _, err := cs.partition(s.T, s.Q); err != nil {
		return fmt.Errorf("integrate: %s: start at t=%g: %w", cs.name, s.T, err)
	}
	if err := cs.positions(s.T, s.Q); err != nil {
		return fmt.Errorf("integrate: %s: start at t=%g: position recovery: %w", cs.name, s.T, err)
	}
	cs.velocities(s.T, s.Q, s.V)
	if err := cs.reducedAcceleration(s.T, s.Q, s.V, s.A, s.Lambda); err != nil {
		return fmt.Errorf("integrate: %s: start at t=%g: eq. 39: %w", cs.name, s.T, err)
	}
	return nil
}

// partition chooses the dependent coordinates as the pivot columns of the full-pivoting
// LU of G(t,q) (eqs. 7-8) and reports whether they changed.
func (cs *gcpCore) partition(t float64, q []float64) (changed bool, err error) {
	if cs.nc == 0 {
		return false, nil
	}
	if err := cs.pivotColumns(t, q); err != nil {
		return false, err
	}
	perm := cs.pivots
	for i := range cs.inDep {
		cs.inDep[i] = -1
	}
	// Keep the dependent and independent lists sorted so that a partition is compared as a set.
	ni, nd := 0, 0
	for i := range cs.nq {
		isDep := false
		for k := range cs.nc {
			if perm[k] == i {
				isDep = true
				break
			}
		}
		if isDep {
			if cs.dep[nd] != i {
				changed = true
			}
			cs.dep[nd] = i
			cs.inDep[i] = nd
			nd++
		} else {
			cs.ind[ni] = i
			ni++
		}
	}
	if cs.sparse != nil && (changed || cs.sparse.gu == nil) {
		if err := cs.sparse.setPartition(cs.inDep, cs.dep); err != nil {
			return false, err
		}
	}
	return changed, nil
}

// pivotColumns writes into cs.pivots the columns of G(t,q) that a full-pivoting LU
// (small systems) or linalg.SparseRankLU (systems that declare G's pattern) pivots on.
func (cs *gcpCore) pivotColumns(t float64, q []float64) error {
	if cs.rank == nil {
		cs.sys.ConstraintJacobian(cs.G, t, q)
		if err := cs.part.Factorize(cs.G); err != nil {
			return fmt.Errorf("partition (eq. 7): G has rank %d < %d constraints (redundant constraints or a singular configuration): %w",
				cs.part.Rank(), cs.nc, err)
		}
		copy(cs.pivots, cs.part.ColPerm()[:cs.nc])
		return nil
	}
	v := cs.rank.Values()
	if cs.sparse != nil {
		cs.sparse.sp.evalG(t, q)
		copy(v, cs.sparse.sp.G)
	} else {
		cs.sys.ConstraintJacobian(cs.G, t, q)
		p := 0
		for i, row := range cs.gpat {
			gi := cs.G.RawRowView(i)
			for _, j := range row {
				v[p] = gi[j]
				p++
			}
		}
	}
	err := cs.rank.Factorize()
	if err == nil && cs.rank.Rank() < cs.nc {
		err = linalg.ErrSingular
	}
	if err != nil {
		return fmt.Errorf("partition (eq. 7): G has rank %d < %d constraints (redundant constraints or a singular configuration): %w",
			cs.rank.Rank(), cs.nc, err)
	}
	copy(cs.pivots, cs.rank.Cols())
	return nil
}

// positions solves g(t, qDep, qInd) = 0 for qDep (eq. 11) by Newton's method with G_u,
// starting from q's dependent entries, and leaves G_u factorized near the solution (at the
// last iterate, within gcpPosTol) in cs.phiU and G in cs.G.
func (cs *gcpCore) positions(t float64, q []float64) error {
	if cs.nc == 0 {
		return nil
	}
	if cs.sparse != nil {
		return cs.positionsSparse(t, q)
	}
	for it := 1; ; it++ {
		cs.sys.Constraint(cs.g, t, q)
		cs.sys.ConstraintJacobian(cs.G, t, q)
		if err := cs.factorDep(); err != nil {
			return err
		}
		cs.phiU.Solve(cs.g)
		cs.stats.Solves++
		if done, err := cs.applyPositionStep(it, t, q); done || err != nil {
			return err
		}
	}
}

// applyPositionStep subtracts the Newton correction in cs.g from q's dependent entries
// (iteration it of eq. 11) and reports whether the recovery is done: converged, or failed
// with the error.
func (cs *gcpCore) applyPositionStep(it int, t float64, q []float64) (bool, error) {
	done := true
	for k, i := range cs.dep {
		d := cs.g[k]
		q[i] -= d
		if !(math.Abs(d) <= gcpPosTol*(1+math.Abs(q[i]))) {
			done = false
		}
	}
	if !allFinite(q) {
		cs.worst = Residual{Block: "dependent position", Value: math.NaN()}
		return true, ErrNonFinite
	}
	if done {
		cs.stats.Projections++
		return true, nil
	}
	if it == gcpMaxPosIters {
		cs.sys.Constraint(cs.g, t, q)
		cs.worst = worstConstraint(cs.sys, cs.g)
		return true, ErrNoConvergence
	}
	return false, nil
}

// factorDep copies G_u out of cs.G and factorizes it.
func (cs *gcpCore) factorDep() error {
	for r := range cs.nc {
		row := cs.G.RawRowView(r)
		for k, i := range cs.dep {
			cs.Gu.Set(r, k, row[i])
		}
	}
	return cs.factorize(cs.phiU, cs.Gu, "constraint Jacobian", "dependent block G_u (eq. 8)")
}

// factorize factorizes a by lu and counts it; a failure names the matrix: nanBlock with
// ErrNonFinite when a is not finite, else block with lu's error.
func (cs *gcpCore) factorize(lu interface{ Factorize(mat.Matrix) error }, a *mat.Dense, nanBlock, block string) error {
	cs.stats.Factorizations++
	if err := lu.Factorize(a); err != nil {
		if !allFinite(a.RawMatrix().Data) {
			cs.worst = Residual{Block: nanBlock, Value: math.NaN()}
			return ErrNonFinite
		}
		cs.worst = Residual{Block: block}
		return err
	}
	return nil
}

// velocities computes H (eq. 31), max|H_ij| and qDep' = H qInd' − G_u⁻¹ g_t (eqs. 12, 37),
// with G_u as left by positions.
func (cs *gcpCore) velocities(t float64, q, v []float64) {
	if cs.nc == 0 {
		return
	}
	if cs.sparse != nil {
		cs.velocitiesSparse(t, q, v)
		return
	}
	cs.maxH = 0
	for j, i := range cs.ind {
		for r := range cs.nc {
			cs.col[r] = -cs.G.At(r, i)
		}
		cs.phiU.Solve(cs.col)
		for r := range cs.nc {
			cs.H.Set(r, j, cs.col[r])
			cs.maxH = math.Max(cs.maxH, math.Abs(cs.col[r]))
		}
	}
	cs.stats.Solves += cs.nd
	cs.sys.ConstraintTimeDerivative(cs.gt, t, q)
	cs.phiU.Solve(cs.gt)
	cs.stats.Solves++
	for k, i := range cs.dep {
		s := -cs.gt[k]
		row := cs.H.RawRowView(k)
		for j, l := range cs.ind {
			s += row[j] * v[l]
		}
		v[i] = s
	}
}

// alphaDep evaluates M, f and α = G_u⁻¹ γ (eq. 37) at (t, q, v).
func (cs *gcpCore) alphaDep(t float64, q, v []float64) {
	if cs.sparse != nil {
		cs.alphaDepSparse(t, q, v)
		return
	}
	if cs.M != nil {
		cs.sys.Mass(cs.M, t, q)
	}
	cs.sys.Force(cs.f, t, q, v)
	cs.rt, cs.rq, cs.rv = t, q, v
	if cs.rx != nil && cs.nc == 0 {
		cs.rx.add(cs.f, t, q, v, nil) // without constraints f_λ depends on (t, q, v) alone
	}
	cs.stats.FuncEvals++
	if cs.nc > 0 {
		cs.sys.Gamma(cs.alpha, t, q, v)
		cs.phiU.Solve(cs.alpha)
		cs.stats.Solves++
	}
}

// accelerations completes a from its independent entries (qDep” = H qInd” + α, eq. 37),
// solves eq. 38 for λ and writes Ψ of eq. 20 into psi (length nd).
func (cs *gcpCore) accelerations(t float64, q, v, a, lambda, psi []float64) error {
	cs.alphaDep(t, q, v)
	cs.dependentAccelerations(a)
	return cs.multipliers(a, lambda, psi)
}

// dependentAccelerations completes a from its independent entries: qDep” = H qInd” + α
// (eq. 37).
func (cs *gcpCore) dependentAccelerations(a []float64) {
	if cs.sparse != nil {
		cs.dependentAccelerationsSparse(a)
		return
	}
	for k, i := range cs.dep {
		s := cs.alpha[k]
		row := cs.H.RawRowView(k)
		for j, l := range cs.ind {
			s += row[j] * a[l]
		}
		a[i] = s
	}
}

// multipliers solves G_uᵀ λ = f_u − (M a)_u (eq. 38) and writes Ψ = (M a − f)_v + G_vᵀ λ
// (eq. 20) into psi (nil: not wanted).
func (cs *gcpCore) multipliers(a, lambda, psi []float64) error {
	if cs.sparse != nil {
		return cs.multipliersSparse(a, lambda, psi)
	}
	cs.residualForces(a)
	if cs.alu != nil {
		if err := cs.reactionMultipliers(a, lambda); err != nil {
			return err
		}
	} else if cs.nc > 0 {
		for k, i := range cs.dep {
			lambda[k] = -cs.e[i]
		}
		cs.phiU.SolveTrans(lambda)
		cs.stats.Solves++
	}
	if psi != nil {
		for j, i := range cs.ind {
			s := cs.e[i]
			for r := range cs.nc {
				s += cs.G.At(r, i) * lambda[r]
			}
			psi[j] = s
		}
	}
	return cs.checkFinite(a, lambda, psi)
}

// residualForces writes e = M a − f at the q of the last alphaDep.
func (cs *gcpCore) residualForces(a []float64) {
	if cs.mm != nil {
		cs.mm.MassMul(cs.e, cs.rt, cs.rq, a)
		for i, f := range cs.f {
			cs.e[i] -= f
		}
		return
	}
	for i := range cs.nq {
		row := cs.M.RawRowView(i)
		s := -cs.f[i]
		for j, x := range row {
			s += x * a[j]
		}
		cs.e[i] = s
	}
}

// gcpReactionIters bounds the Newton iteration of reactionMultipliers, which converges
// quadratically from the λ of the previous iterate (2-3 iterations).
const gcpReactionIters = 20

// reactionMultipliers solves eq. 38 with λ-dependent forces, G_uᵀ λ = (f + f_λ(λ) − M a)_u,
// by Newton's method on λ from its value on entry, with the matrix A = G_uᵀ − ∂f_λ/∂λ_u
// at every iterate (nc×nc, dense), to a change below 1e-13 relative; it leaves cs.e =
// M a − f − f_λ(λ) (e holds M a − f on entry), A factorized at the last iterate and
// ∂f_λ at it in cs.rx. q, v are those of the last alphaDep (cs.tq, cs.tv).
func (cs *gcpCore) reactionMultipliers(a, lambda []float64) error {
	copy(cs.fl, cs.e) // M a − f
	d, dPrev := math.Inf(1), math.Inf(1)
	for it := 0; ; it++ {
		copy(cs.e, cs.fl)
		for i := range cs.e {
			cs.e[i] = -cs.e[i]
		}
		cs.rx.add(cs.e, cs.rt, cs.rq, cs.rv, lambda)
		for i := range cs.e {
			cs.e[i] = -cs.e[i] // M a − f − f_λ(λ)
		}
		if err := cs.refactorReaction(lambda, d > 0.1*dPrev); err != nil {
			return err
		}
		dPrev, d = d, 0
		var s float64
		for k, i := range cs.dep {
			r := cs.e[i]
			for l := range cs.nc {
				r += cs.G.At(l, i) * lambda[l]
			}
			cs.dl[k] = -r
		}
		cs.alu.Solve(cs.dl)
		cs.stats.Solves++
		for k, x := range cs.dl {
			lambda[k] += x
			d = math.Max(d, math.Abs(x))
			s = math.Max(s, math.Abs(lambda[k]))
		}
		if d <= 1e-13*math.Max(1, s) || it == gcpReactionIters {
			copy(cs.e, cs.fl)
			for i := range cs.e {
				cs.e[i] = -cs.e[i]
			}
			cs.rx.add(cs.e, cs.rt, cs.rq, cs.rv, lambda)
			for i := range cs.e {
				cs.e[i] = -cs.e[i]
			}
			if d <= 1e-13*math.Max(1, s) {
				return nil
			}
			cs.worst = Residual{Block: "lambda (eq. 38 with λ-dependent forces)", Value: d}
			return ErrNoConvergence
		}
	}
}

// refactorReaction factorizes eq. 38's matrix at λ for reactionMultipliers: at every
// iterate on the dense path (factorReaction), and on the mass-solve path (fd) only when
// none is held or Newton on λ contracted by less than 10 (slow), since each costs nc + 1
// evaluations of f_λ there (factorReactionFD).
func (cs *gcpCore) refactorReaction(lambda []float64, slow bool) error {
	if !cs.fd {
		return cs.factorReaction(lambda)
	}
	if cs.aluOK && !slow {
		return nil
	}
	err := cs.factorReactionFD(lambda)
	cs.aluOK = err == nil
	return err
}

// factorReactionFD is factorReaction with ∂f_λ/∂λ_u by forward differences of f_λ.
func (cs *gcpCore) factorReactionFD(lambda []float64) error {
	nq := cs.nq
	f0, fk := cs.flt[:nq], cs.flt[nq:]
	clear(f0)
	cs.rx.add(f0, cs.rt, cs.rq, cs.rv, lambda)
	A := cs.alu.Matrix()
	for k := range cs.nc {
		copy(cs.lt, lambda)
		eta := math.Sqrt(epsilon) * math.Max(1, math.Abs(lambda[k]))
		cs.lt[k] += eta
		clear(fk)
		cs.rx.add(fk, cs.rt, cs.rq, cs.rv, cs.lt)
		for r, i := range cs.dep {
			A.Data[r*cs.nc+k] = cs.G.At(k, i) - (fk[i]-f0[i])/eta
		}
	}
	cs.stats.Jacobians++
	cs.stats.Factorizations++
	if err := cs.alu.Factor(); err != nil {
		cs.worst = Residual{Block: "G_uᵀ − ∂f_λ/∂λ_u (eq. 38 with λ-dependent forces)"}
		return err
	}
	return nil
}

// factorReaction evaluates ∂f_λ at λ (and the q, v of the last alphaDep) and factorizes
// A = G_uᵀ − ∂f_λ/∂λ_u, A[r][k] = G[k][dep r] − ∂f_λ,dep r/∂λ_k.
func (cs *gcpCore) factorReaction(lambda []float64) error {
	cs.rx.derivatives(cs.rt, cs.rq, cs.rv, lambda)
	A := cs.alu.Matrix()
	for r, i := range cs.dep {
		for k := range cs.nc {
			A.Data[r*cs.nc+k] = cs.G.At(k, i) - cs.rx.Fl.At(i, k)
		}
	}
	cs.stats.Factorizations++
	if err := cs.alu.Factor(); err != nil {
		cs.worst = Residual{Block: "G_uᵀ − ∂f_λ/∂λ_u (eq. 38 with λ-dependent forces)"}
		return err
	}
	return nil
}

// checkFinite returns ErrNonFinite, naming the first non-finite acceleration, when a, λ
// or psi (nil: none) is not finite.
func (cs *gcpCore) checkFinite(a, lambda, psi []float64) error {
	if !allFinite(a) || !allFinite(lambda) || (psi != nil && !allFinite(psi)) {
		for i, x := range a {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				cs.worst = Residual{Block: "acceleration", Index: i, Value: x, Owner: dae.CoordinateName(cs.sys, i)}
				return ErrNonFinite
			}
		}
		cs.worst = Residual{Block: "lambda", Value: math.NaN()}
		return ErrNonFinite
	}
	return nil
}

// reducedAcceleration solves the state-space equation (eq. 39),
//
//	Zᵀ M Z qInd'' = Zᵀ (f − M α̃),    α̃ = α in the dependent rows, 0 elsewhere,
//
// at (t, q, v) (positions and velocities already recovered), then completes a and λ by
// eqs. 37-38.
func (cs *gcpCore) reducedAcceleration(t float64, q, v, a, lambda []float64) error {
	if cs.sparse != nil {
		return cs.reducedAccelerationSparse(t, q, v, a, lambda)
	}
	if cs.schur != nil {
		return cs.reducedAccelerationMass(t, q, v, a, lambda)
	}
	cs.alphaDep(t, q, v)
	if cs.acc != nil {
		// Eq. 39 with eq. 38 is eq. 17 (the same dynamics in other unknowns); with
		// λ-dependent forces it is nonlinear in λ and solved as such (Newton on λ).
		if err := cs.acc.solve(a, lambda, t, q, v, cs.stats); err != nil {
			cs.worst = Residual{Block: "eq. 17 with λ-dependent forces"}
			return err
		}
		return cs.multipliers(a, lambda, nil)
	}
	// e = f − M α̃ (nq), then rhs = Zᵀ e.
	for i := range cs.nq {
		row := cs.M.RawRowView(i)
		s := cs.f[i]
		for k, l := range cs.dep {
			s -= row[l] * cs.alpha[k]
		}
		cs.e[i] = s
	}
	cs.zT(cs.rhs, cs.e)
	// red = Zᵀ M Z: X = M Z first.
	cs.mulZ(cs.X, cs.M)
	cs.zTMat(cs.red, cs.X)
	const red = "reduced mass matrix (eq. 39)"
	if err := cs.factorize(cs.redLU, cs.red, red, red); err != nil {
		return err
	}
	cs.redLU.Solve(cs.rhs)
	cs.stats.Solves++
	for j, i := range cs.ind {
		a[i] = cs.rhs[j]
	}
	cs.dependentAccelerations(a)
	return cs.multipliers(a, lambda, nil)
}

// hMax returns max|H_ij| (eq. 31) at the last recovery: computed by velocities on the
// dense path, here on the sparse one (nd solves, so only where the re-partition rule reads
// it).
func (cs *gcpCore) hMax() float64 {
	if cs.sparse != nil && cs.nc > 0 {
		cs.maxH = cs.hMaxSparse()
	}
	return cs.maxH
}

// zT writes Zᵀ x (length nd) for x of length nq: x_ind + Hᵀ x_dep.
func (cs *gcpCore) zT(dst, x []float64) {
	for j, i := range cs.ind {
		s := x[i]
		for k, l := range cs.dep {
			s += cs.H.At(k, j) * x[l]
		}
		dst[j] = s
	}
}

// mulZ writes A Z (rows of A times Z = [H; I] in partitioned order) into dst (rows×nd).
func (cs *gcpCore) mulZ(dst, A *mat.Dense) {
	r, _ := A.Dims()
	for i := range r {
		row := A.RawRowView(i)
		out := dst.RawRowView(i)
		for j, l := range cs.ind {
			s := row[l]
			for k, d := range cs.dep {
				s += row[d] * cs.H.At(k, j)
			}
			out[j] = s
		}
	}
}

// zTMat writes Zᵀ Y (nd×nd) for Y of size nq×nd.
func (cs *gcpCore) zTMat(dst, Y *mat.Dense) {
	for i, l := range cs.ind {
		out := dst.RawRowView(i)
		copy(out, Y.RawRowView(l))
		for k, d := range cs.dep {
			hki := cs.H.At(k, i)
			if hki == 0 {
				continue
			}
			yr := Y.RawRowView(d)
			for j := range out {
				out[j] += hki * yr[j]
			}
		}
	}
}

// solveCols overwrites every column of X (nc×nd) with G_u⁻¹ times it.
func (cs *gcpCore) solveCols(X *mat.Dense) {
	for j := range cs.nd {
		for r := range cs.nc {
			cs.col[r] = X.At(r, j)
		}
		cs.phiU.Solve(cs.col)
		for r := range cs.nc {
			X.Set(r, j, cs.col[r])
		}
	}
	cs.stats.Solves += cs.nd
}

// newtonMatrix writes Ψ_v” (eq. 29; fv: less the terms of eq. 40) at the iterate s, whose
// dependent quantities and H are current, for the Newmark parameters beta, gamma and step h.
func (cs *gcpCore) newtonMatrix(dst *mat.Dense, s *State, h, beta, gamma float64, fv bool) error {
	t, q, v, a, lambda := s.T, s.Q, s.V, s.A, s.Lambda
	bh2, gh := beta*h*h, gamma*h
	fd0 := cs.der.Evals + cs.sec.Evals
	// K = (M a)_q + (Gᵀλ)_q − f_q; (Gᵀλ)_q is one of the terms of eq. 40.
	cs.der.MassDerivative(cs.K, t, q, a)
	if !fv && cs.nc > 0 {
		cs.der.ConstraintForceDerivative(cs.tmp, t, q, lambda)
		cs.K.Add(cs.K, cs.tmp)
	}
	cs.der.ForceDerivativeQ(cs.tmp, t, q, v)
	cs.K.Sub(cs.K, cs.tmp)
	cs.der.ForceDerivativeV(cs.Fv, t, q, v)
	if cs.rx != nil {
		// f_λ at the iterate's λ as f; its ∂f_λ/∂λ enters the reduction below
		// (reactionReduce), A factorized at that λ.
		if cs.alu != nil {
			if err := cs.factorReaction(lambda); err != nil {
				return err
			}
		} else {
			cs.rx.derivatives(t, q, v, lambda)
		}
		addScaled(cs.K, cs.rx.Fq, -1)
		addScaled(cs.Fv, cs.rx.Fv, 1)
	}

	if cs.nc > 0 {
		// N (eq. 34) and J = N/2 (eq. 32).
		cs.sec.GammaDerivativeV(cs.Gv, t, q, v)
		cs.mulZ(cs.N, cs.Gv)
		cs.solveCols(cs.N)
		cs.J.Scale(0.5, cs.N)
		if !fv {
			// L (eq. 33): G_u L = (γ_q − (G a)_q) Z + γ_v[:,dep] J.
			cs.sec.GammaDerivativeQ(cs.Gq, t, q, v)
			cs.sec.ConstraintJacobianDerivative(cs.GAq, t, q, a)
			cs.Gq.Sub(cs.Gq, cs.GAq)
			cs.mulZ(cs.L, cs.Gq)
			for r := range cs.nc {
				gvRow := cs.Gv.RawRowView(r)
				out := cs.L.RawRowView(r)
				for k, d := range cs.dep {
					g := gvRow[d]
					if g == 0 {
						continue
					}
					jr := cs.J.RawRowView(k)
					for j := range out {
						out[j] += g * jr[j]
					}
				}
			}
			cs.solveCols(cs.L)
		}
	}
	// D1 = ∂q'/∂qInd'' = βh²J̃ + γhZ,  D2 = ∂q''/∂qInd'' = βh²L̃ + γhÑ + Z (FV: Z).
	for i := range cs.nq {
		r1, r2 := cs.D1.RawRowView(i), cs.D2.RawRowView(i)
		if k := cs.inDep[i]; k >= 0 {
			hr, jr := cs.H.RawRowView(k), cs.J.RawRowView(k)
			for j := range r1 {
				r1[j] = bh2*jr[j] + gh*hr[j]
				r2[j] = hr[j]
			}
			if !fv {
				lr, nr := cs.L.RawRowView(k), cs.N.RawRowView(k)
				for j := range r2 {
					r2[j] += bh2*lr[j] + gh*nr[j]
				}
			}
		} else {
			clear(r1)
			clear(r2)
		}
	}
	for j, i := range cs.ind {
		cs.D1.Set(i, j, gh)
		cs.D2.Set(i, j, 1)
	}
	// X = M D2 − f_v D1 + βh² K Z.
	cs.mulZ(cs.X, cs.K)
	for i := range cs.nq {
		xr := cs.X.RawRowView(i)
		mr, fr := cs.M.RawRowView(i), cs.Fv.RawRowView(i)
		for j := range xr {
			s := bh2 * xr[j]
			for l := range cs.nq {
				s += mr[l]*cs.D2.At(l, j) - fr[l]*cs.D1.At(l, j)
			}
			xr[j] = s
		}
	}
	if cs.alu != nil {
		cs.reactionReduce(dst, cs.X)
	} else {
		cs.zTMat(dst, cs.X)
	}
	cs.stats.FDEvals += cs.der.Evals + cs.sec.Evals - fd0
	return nil
}

// reactionReduce writes the derivative of Ψ = (M q” − f − f_λ)_v + G_vᵀλ with respect to
// qInd” when λ solves eq. 38 with λ-dependent forces: with X = ∂(M q” − f − f_λ)/∂qInd”
// at fixed λ (nq×nd), differentiating eq. 38 gives A ∂λ = −X_u (A = G_uᵀ − ∂f_λ/∂λ_u,
// factorized by newtonMatrix), so
//
//	Ψ_v'' = X_v − (G_vᵀ − ∂f_λ/∂λ_v) A⁻¹ X_u,
//
// which is Zᵀ X (eq. 29) when ∂f_λ/∂λ = 0 (Hᵀ = −G_vᵀ G_u⁻ᵀ).
func (cs *gcpCore) reactionReduce(dst, X *mat.Dense) {
	for j := range cs.nd {
		for r, i := range cs.dep {
			cs.col[r] = X.At(i, j)
		}
		cs.alu.Solve(cs.col)
		for jj, i := range cs.ind {
			s := X.At(i, j)
			for k, w := range cs.col {
				s -= (cs.G.At(k, i) - cs.rx.Fl.At(i, k)) * w
			}
			dst.Set(jj, j, s)
		}
	}
	cs.stats.Solves += cs.nd
}
