package integrate

import (
	"fmt"
	"math"

	"linkage/dae"
)

// MultiIndex is the multi-index variable-step method of Cardenal, Cuadrado and Bayo
// (seed 001, Fig. 4): the augmented Lagrangian methods ALI3 and ALI1 (trapezoidal rule,
// penalty α, projections) with the step size controlled by the change of the energy
// invariant Π = T + V − ∫(P_nc + P_driving) dt over a step (eqs. 11-12) and the index chosen
// by the step size and the convergence:
//
//   - the local error e = |ΔΠ|/E (E the energy scale of the run, see energyMeter) is
//     compared with U_r and L_r: e > U_r rejects the step and reduces h; e < L_r accepts it
//     and enlarges h; in between h is kept. The new step is η h with
//     η = (ν U_r/e)^(1/r) (eqs. 13-14, ν = 0.8, r the integration index, 3 or 1, as the
//     paper defines it), within [MinShrink, MaxGrow] of StepControl;
//   - a Newton failure halves h;
//   - index 3 changes to index 1 after MaxReductions consecutive reductions (a convergence
//     failure or e > U_r) and whenever h falls below SwitchStep (1e-4: "the time step
//     should never be smaller than 10⁻⁴" in index 3);
//   - index 1 changes to index 3 when an enlarged step exceeds SwitchStep.
//
// Before a change to index 1 the current q and q̇ are projected onto their constraint
// manifolds and q̈ and λ recomputed from eq. 6 there (projectForIndex1); the change of
// T + V that projection makes is left out of Π. A Step whose estimate does not shrink
// while its rejections cut h by floorSpan stops with ErrEstimateFloor (not at HMin).
// The system must provide dae.EnergyInvariant (models from planar, spatial and natural do);
// Init refuses one without it. With FixedH it is ali3 (no estimate, no switch).
//
// The tolerances: U_r = StepControl.RTol and L_r = U_r/265 (the paper's suspension run
// uses U_r = 2.65e-5, L_r = 1e-7), unless Upper and Lower are set.
//
// What the tolerance bounds (MultiIndexTolerance): the change of Π per step relative to
// E, not the error of q and v. The trapezoidal rule changes no energy by the phase error
// of an oscillation, and E may be far above the energy the motion moves: on the joint
// route's 3D chain of 100 rods turning at 1 rad/s E is 445 × that energy and the error
// stays at 1.0e-3-1.4e-3 rad from tol 1e-4 to 1e-6 (BENCHMARKS.md, "multi-index's
// tolerance on the long chains"). ControlWarnings says so after such a run.
type MultiIndex struct {
	// Alpha is the penalty factor, relative to the mean mass, in [MinPenalty, MaxPenalty]
	// [DefaultPenalty].
	Alpha float64
	// Upper and Lower are U_r and L_r, relative changes of Π per step; zero takes RTol and
	// Upper/265.
	Upper, Lower float64
	// MaxReductions is "max" of Fig. 4: consecutive step reductions in index 3 before the
	// change to index 1 [3].
	MaxReductions int
	// SwitchStep is the step-size threshold between the indices [1e-4 s].
	SwitchStep float64
	// Newton holds the corrector knobs.
	Newton NewtonSettings

	aliRun
}

// IndexReport counts what the multi-index method did in each index.
type IndexReport struct {
	To1    int     `json:"switches_3_to_1"` // changes from index 3 to 1
	To3    int     `json:"switches_1_to_3"` // changes from index 1 to 3
	Steps3 int     `json:"steps_index3"`    // accepted steps in index 3
	Steps1 int     `json:"steps_index1"`    // accepted steps in index 1
	Time3  float64 `json:"time_index3"`     // simulated time covered in index 3 [s]
	Time1  float64 `json:"time_index1"`     // simulated time covered in index 1 [s]
}

// String is the report in one line, as the run summaries print it.
func (r IndexReport) String() string {
	return fmt.Sprintf("3: %d steps over %.4g s, 1: %d steps over %.4g s; switches 3→1 %d, 1→3 %d",
		r.Steps3, r.Time3, r.Steps1, r.Time1, r.To1, r.To3)
}

// IndexReporter is implemented by methods that switch formulations during a run
// (MultiIndex): the CLI prints the report in its run summary and --json.
type IndexReporter interface {
	Report() IndexReport
}

var _ IndexReporter = (*MultiIndex)(nil)

// count records an accepted step of size h taken in index.
func (r *IndexReport) count(index int, h float64) {
	if index == 3 {
		r.Steps3++
		r.Time3 += h
		return
	}
	r.Steps1++
	r.Time1 += h
}

// IndexSwitching is the formulation of the multi-index method: index 3 and index 1
// augmented Lagrangian forms, switched by step size and convergence (seed 001, Fig. 4).
const IndexSwitching Formulation = "index3+index1"

// Defaults of MultiIndex.
const (
	DefaultMaxReductions = 3
	DefaultSwitchStep    = 1e-4
	// multiSafety is ν of eq. 14 (seed 001: "typically taken as 0.8").
	multiSafety = 0.8
	// maxItersToGrow: a step whose corrector needed more iterations does not enlarge h,
	// whatever its energy error. The trapezoidal rule nearly conserves the energy of
	// oscillations (seed 001: "energy preserving in the linear regime"), so ΔΠ alone lets h
	// grow until the corrector fails (measured on the pendulum at 5°: h from 1e-3 to 0.31 s
	// in 8 steps, then Newton failures); the paper's 1-2 multiplier iterations per step
	// are the sign of a step the formulation handles.
	maxItersToGrow = 2
	// lowerRatio is U_r/L_r of the paper's suspension run (2.65e-5/1e-7).
	lowerRatio = 265
)

// multiIndexEntry: ali3 and ali1 (aliWork) switched by the rule of Fig. 4, so their order
// (with FixedH it is ali3, order 2 in every block) and forces that depend on λ (the energy
// invariant includes the power of f_λ); the error control is its own.
var multiIndexEntry = func() Entry {
	e := aliFamily.variant("multi-index",
		"multi-index variable step: ali3 at large steps, ali1 at small ones, energy-invariant error control",
		"5-9, error 11-12, step 13-14, Fig. 4",
		func() Method { return &MultiIndex{} }).in(nil, IndexSwitching)
	e.Adaptive = true
	e.Tolerance = MultiIndexTolerance
	return e
}()

// MultiIndexTolerance says what the tolerance of the multi-index method bounds (its
// Entry.Tolerance; summaries print it): the relative change of the energy invariant per
// step, which does not see a configuration error that moves no energy (ControlWarnings).
const MultiIndexTolerance = "tol bounds the change of the energy invariant Π per step relative to the run's energy scale (seed 001, eqs. 11-14), " +
	"not the local error of q and v: a phase error of an oscillation changes no energy, and where the energy scale is far above the energy " +
	"the motion moves between T, V and work (a long chain turning fast) tol does not bound the error (the run warns); check against a run at a much tighter tol"

// Init checks the options and the system (dae.EnergyInvariant), starts in index 3 and
// starts the energy invariant.
func (m *MultiIndex) Init(sys dae.System, start State, ctl StepControl) error {
	const name = "multi-index"
	if err := refuseFirstOrder(name, sys); err != nil {
		return err
	}
	if ctl.ATolQ != nil {
		return fmt.Errorf("integrate: %s: StepControl.ATolQ (per-coordinate tolerances) is not supported: the error control of this method is the relative change of the energy invariant, not a norm over coordinates", name)
	}
	if err := refuseNonholonomic(name, sys); err != nil {
		return err
	}
	inv, err := dae.RequireEnergyInvariant("integrate: "+name, sys)
	if err != nil {
		return err
	}
	alpha, err := checkPenalty(name, m.Alpha)
	if err != nil {
		return err
	}
	r := &multiRule{maxRed: m.MaxReductions, switchStep: m.SwitchStep, upper: m.Upper, lower: m.Lower}
	if r.maxRed == 0 {
		r.maxRed = DefaultMaxReductions
	}
	if r.switchStep == 0 {
		r.switchStep = DefaultSwitchStep
	}
	if r.maxRed < 0 || !(r.switchStep > 0) || m.Upper < 0 || m.Lower < 0 || (m.Upper > 0 && m.Lower > m.Upper) ||
		math.IsNaN(m.Upper) || math.IsNaN(m.Lower) {
		return fmt.Errorf("integrate: %s: MaxReductions = %d, SwitchStep = %g, Upper = %g, Lower = %g: want MaxReductions ≥ 0, SwitchStep > 0 and 0 ≤ Lower ≤ Upper",
			name, m.MaxReductions, m.SwitchStep, m.Upper, m.Lower)
	}
	w, err := newALIWork(name, 3, alpha, m.Newton, sys, start, ctl)
	if err != nil {
		return err
	}
	r.w = w
	w.multi = r
	var rx *reaction
	if w.rx != nil {
		rx = w.rx.rx
	}
	w.energy = newEnergyMeter(inv, rx, start.T, w.cur.Q, w.cur.V, w.cur.Lambda)
	return m.start(w, nil)
}

// Index returns the index (3 or 1) of the next attempt.
func (m *MultiIndex) Index() int { return m.w.index }

// Report returns the index changes, steps and time per index so far.
func (m *MultiIndex) Report() IndexReport { return m.w.report }

// LastError returns the relative change of the energy invariant over the last attempt
// (the local error estimate compared with Upper and Lower).
func (m *MultiIndex) LastError() float64 { return m.w.multi.lastE }

// EnergyInvariant returns Π at the last accepted step, less the changes of T + V that
// the projections at changes to index 1 made (projectForIndex1): the invariant the error
// estimate follows, not the solution's energy balance, which assembly.WorkMeter reports.
func (m *MultiIndex) EnergyInvariant() float64 { return m.w.energy.pi }

// EnergyScale returns E, the energy the relative change of Π is divided by (the largest
// T + |V| and |Π| of the run so far): U_r·E is the change of Π a step may make.
func (m *MultiIndex) EnergyScale() float64 { return m.w.energy.scale }

// EnergyVariation returns X, the largest |T − T₀| + |V − V₀| + |W| over the accepted
// steps (W = ∫(P_nc + P_driving) dt): the energy the motion moved between its kinetic,
// potential and dissipated parts, the part of E the integrator has to resolve.
func (m *MultiIndex) EnergyVariation() float64 { return m.w.energy.moved }

// ControlWarner is implemented by methods that can tell after a run that their
// tolerance may not have bounded its error (MultiIndex); the CLI prints the warnings in
// its run summaries.
type ControlWarner interface {
	ControlWarnings() []string
}

var _ ControlWarner = (*MultiIndex)(nil)

// weakScaleRatio is the ratio E/X of the energy scale to EnergyVariation above which
// MultiIndex warns that its tolerance may not bound the error (ControlWarnings).
const weakScaleRatio = 10

// ControlWarnings warns when the error estimate could not see the run's error: its
// estimate is the change of Π over a step relative to E (eqs. 11-14), and when E is more
// than weakScaleRatio times the energy X the motion moved (EnergyVariation; a chain
// turning fast while it sags: E is the rotation's kinetic energy, which the trapezoidal
// rule keeps, X the sag's), U_r·E allows errors of the size of the motion itself; and a
// phase error of an oscillation changes no energy at all (the trapezoidal rule is energy
// preserving in the linear regime, seed 001). Measured on the joint route's 3D chain over
// 0.1 s (BENCHMARKS.md, "multi-index's tolerance on the long chains"): 10 rods, E/X = 5.5,
// error 8.3e-4 → 5.1e-5 rad from tol 1e-4 to 1e-6; 100 rods, E/X = 445, 1.4e-3 → 1.0e-3
// rad. Without steps, with FixedH, or with E ≤ weakScaleRatio·X it returns nil.
func (m *MultiIndex) ControlWarnings() []string {
	w := m.w
	if w == nil || w.lad.fixed || w.stats.Steps == 0 {
		return nil
	}
	e, x := w.energy.scale, w.energy.moved
	if !(e > weakScaleRatio*x) {
		return nil
	}
	ratio := "more than 10⁶"
	if x > 0 && e/x < 1e6 {
		ratio = fmt.Sprintf("%.3g", e/x)
	}
	return []string{fmt.Sprintf("multi-index: the energy scale of its error estimate, E = %.4g J, is %s × the largest change of T, V and the work over the run (%.4g J): "+
		"tol bounds the change of the energy invariant per step relative to E (seed 001, eqs. 11-14), which here allows errors of the size of the motion, "+
		"and phase errors of oscillations change no energy; tol may not bound the error of q and v. Check against a run at a much tighter tol, "+
		"or use a method with a local error estimate (hht, genalpha, bdf, radau5)", e, ratio, x)}
}

// multiRule is the step-size and index rule of Fig. 4 (stepRule).
type multiRule struct {
	w                  *aliWork
	h                  float64 // the next step
	upper, lower       float64 // U_r, L_r
	minShrink, maxGrow float64
	maxRed             int
	switchStep         float64
	reductions         int // consecutive reductions
	pending            int // index to change to before the next attempt (0: none)
	lastE              float64
	// The floor watch over the error-test rejections of one Step: the window's first h
	// and e_rel, and the error once a window showed no decrease (floor).
	floorH, floorE float64
	floorErr       error
}

// Floor watch of the multi-index estimate: a rejected e_rel that has not fallen below
// floorDrop times the e_rel of a rejection floorSpan or more times longer in the same
// Step is a floor. The trapezoidal rule's ΔΠ falls as h³ (index 1), by 1e9 over the
// span; a first-order part (a jump of a force within the step) by 1e3.
const (
	floorSpan = 1e3
	floorDrop = 0.5
)

// setup resolves the tolerances and the first step (1e-3 s, the paper's start, unless H0).
func (r *multiRule) setup(c StepControl, t0, tEnd float64) {
	if r.upper == 0 {
		r.upper = c.RTol
	}
	if r.lower == 0 {
		r.lower = r.upper / lowerRatio
	}
	r.minShrink, r.maxGrow = c.MinShrink, c.MaxGrow
	r.h = c.H0
	if r.h == 0 {
		r.h = math.Min(1e-3, math.Abs(tEnd-t0))
	}
	r.h = math.Min(r.h, c.HMax)
}

func (r *multiRule) size() float64 { return r.h }

// eta is η of eq. 14 for the estimate e (relative change of Π): (ν U_r / e)^(1/r).
func (r *multiRule) eta(e float64) float64 {
	if e == 0 {
		return r.maxGrow
	}
	return math.Min(r.maxGrow, math.Max(r.minShrink, math.Pow(multiSafety*r.upper/e, 1/float64(r.w.index))))
}

// judge accepts e ≤ 1 (e = e_rel/U_r) and chooses the next step and index (Fig. 4).
func (r *multiRule) judge(h, e float64, _ int) bool {
	eRel := e * r.upper
	if !(e <= 1) {
		r.h = h * math.Min(r.eta(eRel), 0.9)
		r.reduced()
		r.watchFloor(h, eRel)
		return false
	}
	r.floorH, r.floorErr = 0, nil
	r.reductions = 0
	r.h = h
	if eRel < r.lower && r.w.iter <= maxItersToGrow {
		r.h = h * math.Max(1, r.eta(eRel))
		if r.w.index == 1 && r.h > r.switchStep {
			r.pending = 3
		}
	}
	if r.w.index == 3 && r.h < r.switchStep {
		r.pending = 1
	}
	return true
}

// watchFloor follows the rejections of a Step (see floorSpan): after a rejection of size
// h with estimate eRel it sets floorErr when the estimate stayed above floorDrop times
// the one floorSpan times longer, and else opens a new window at h when the span is
// covered.
func (r *multiRule) watchFloor(h, eRel float64) {
	switch {
	case r.floorH == 0:
		r.floorH, r.floorE = h, eRel
	case h <= r.floorH/floorSpan && eRel >= floorDrop*r.floorE:
		r.floorErr = fmt.Errorf("%w: the relative change of the energy invariant, |ΔΠ|/E = %.3g at h = %.3g s, was %.3g at h = %.3g s: "+
			"a part of ΔΠ that is not the step's integration error (E = %.4g J; a change of T + V by a projection, a constraint error, "+
			"a force's work the invariant does not integrate); U_r = %.3g (the tolerance), %.2g or above would pass it",
			ErrEstimateFloor, eRel, h, r.floorE, r.floorH, r.w.energy.scaleTry, r.upper, eRel)
	case h <= r.floorH/floorSpan:
		r.floorH, r.floorE = h, eRel
	}
}

// floor reports the floor found by watchFloor (floorRule).
func (r *multiRule) floor() error { return r.floorErr }

// cut halves h after a convergence failure.
func (r *multiRule) cut(h float64) {
	r.h = h / 2
	r.reduced()
}

// reduced counts a reduction and schedules the change to index 1 after MaxReductions
// of them in index 3, or below SwitchStep.
func (r *multiRule) reduced() {
	r.reductions++
	if r.w.index == 3 && (r.reductions >= r.maxRed || r.h < r.switchStep) {
		r.pending = 1
		r.reductions = 0
	}
}

// applySwitch changes the index scheduled by judge or reduced; a change to index 1 first
// projects the current state and recomputes q̈ and λ from eq. 6 there (projectForIndex1;
// seed 001, after Fig. 4).
func (r *multiRule) applySwitch() error {
	to := r.pending
	if to == 0 || to == r.w.index {
		r.pending = 0
		return nil
	}
	r.pending = 0
	w := r.w
	if to == 1 {
		if err := w.projectForIndex1(); err != nil {
			return err
		}
		w.report.To1++
	} else {
		w.report.To3++
	}
	w.index = to
	return nil
}

// projectForIndex1 prepares the current state for index 1 (seed 001, after Fig. 4: "prior
// to the change to index-1 from index-3, it is necessary to recalculate the accelerations
// and velocities to satisfy equation (6) for the current positions"): it projects q onto
// Φ = 0 and q̇ onto Φ̇ = 0 mass-orthogonally, as an index-1 step projects its end, and
// solves eq. 6 there for q̈ and λ.
//
// The position projection is where the paper is silent. Index 3 satisfies Φ = 0 only to
// its corrector's stop (it projects q̇ and q̈, not q), and the first index-1 step would
// otherwise project that residual away at its end, inside the step's ΔΠ: a change of V
// that does not shrink with h. On the stiff chain at tol 6e-5 the index-3 state carried
// |Φ| = 6.5e-8 m, whose projection moved the RSDAs' energy by 1.24e-6 J, 1.5e-4 of E
// against U_r = 6e-5, at every h from 2.5e-4 s down to 1e-14 s: 25 cuts to HMin
// (BENCHMARKS.md, "multi-index's switch to index 1 on the stiff chain"). Projected here,
// the change is measured and left out of the invariant (energyMeter.shift): it is the
// index-3 corrector's constraint error, bounded by its stop, not the error of a step.
func (w *aliWork) projectForIndex1() error {
	s := &w.cur
	if w.nc == 0 {
		if err := w.accelerations(s.T, s.Q, s.V, s.A, s.Lambda); err != nil {
			return err
		}
	} else {
		// As an index-1 step ends (converged): q, then q̇ and eq. 6 on one factorization.
		copy(w.q, s.Q)
		copy(w.v, s.V)
		copy(w.a, s.A)
		copy(w.lamStar, s.Lambda)
		// projectPosition's first matrix takes G as it finds it (an index-1 step's end
		// evaluated it there); here it is the last attempt's, which may have diverged.
		w.sys.ConstraintJacobian(w.G, s.T, w.q)
		if err := w.projectPosition(s.T); err != nil {
			return err
		}
		if err := w.projectVelocity(s.T); err != nil {
			return err
		}
		if err := w.projectAcceleration(s.T); err != nil {
			return err
		}
		copy(s.Q, w.q)
		copy(s.V, w.v)
		copy(s.A, w.a)
		copy(s.Lambda, w.lamStar)
	}
	if w.energy != nil {
		w.energy.shift(s.T, s.Q, s.V, s.Lambda)
	}
	return nil
}
