package integrate

import (
	"fmt"
	"math"

	"linkage/dae"
)

// ABM integrates the state-space ODE of seed 000 (eq. 15) in the independent coordinates
// of generalized coordinate partitioning with the explicit, constant-step Adams-Bashforth-
// Moulton predictor-corrector, the baseline ("EXPL") of the paper's section 4. The state is
// y = (qInd, qInd') and its rate y' = (qInd', qInd”), where qInd” comes from the same
// recovery as GCP (eqs. 11-13, 31, 37-39): qDep from g = 0 by Newton's method, qDep' from
// eq. 12 and qInd”, qDep”, λ from eq. 39 and eqs. 37-38.
//
// Our choice of the formula (the paper does not give its order): fourth order in PECE mode,
// Adams-Bashforth 4 as predictor and the three-step Adams-Moulton formula as corrector
// (Hairer, Nørsett & Wanner 1993, III.1, eqs. 1.5 and 1.9),
//
//	y^P = yₙ + h/24 (55 fₙ − 59 fₙ₋₁ + 37 fₙ₋₂ − 9 fₙ₋₃),   f^P = f(tₙ₊₁, y^P),
//	yₙ₊₁ = yₙ + h/24 (9 f^P + 19 fₙ − 5 fₙ₋₁ + fₙ₋₂),      fₙ₊₁ = f(tₙ₊₁, yₙ₊₁),
//
// started by three steps of the classical Runge-Kutta method on the same ODE (RK4 is also
// used for the last step when it is shortened to land on t_end, and for three steps after
// a re-partition, since the history then belongs to other coordinates). Constant step only
// (StepControl.FixedH); there is no error estimate, so an unstable step size shows as growth
// until NaN/Inf or a position recovery that does not converge, which stops the run with a
// *StepError. The re-partition rule is GCP's.
//
// On a dae.MassSolver system without λ-dependent forces (the joint route) eq. 39 is taken
// as eq. 17 by the Schur complement through the articulated-body recursion (gcpmass.go):
// no nq×nq matrix at any size.
//
// Stats counts one FuncEvals per rate evaluation and no Newton iterations.
type ABM struct {
	Repartition float64 // re-partition threshold on max|H_ij| relative to its value at the last partition [DefaultRepartition]
	w           *abmWork
	*accepted   // Current, Previous, Stats (method.go)
}

// gcpABMEntry: gcp-newmark's state-space ODE (gcpCore, seed 000), with its forces that
// depend on λ (eq. 39 with f_λ(λ) is eq. 17, solved by Newton on λ, dense path), integrated
// by a fourth-order method with constant steps.
var gcpABMEntry = gcpNewmarkEntry.variant("gcp-abm",
	"Adams-Bashforth-Moulton 4 PECE (RK4 start) on the state-space ODE, constant step",
	"7-8, 11-13, 15 (via 37-39); HNW III.1 eqs. 1.5, 1.9",
	func() Method { return &ABM{} }).constantStep(Order{Q: 4, V: 4, Lambda: 4})

// Adams coefficients ×24 (Hairer, Nørsett & Wanner 1993, III.1, Tables 1.1 and 1.2); each
// row sums to 24, the consistency condition.
var (
	abmBashforth = [4]float64{55, -59, 37, -9}
	abmMoulton   = [4]float64{9, 19, -5, 1}
)

type abmWork struct {
	cs    *gcpCore
	rep   float64
	h0Rep float64
	lad   ladder // the step loop: constant steps (ladder.go)

	accepted    // cur, prev, stats: Current, Previous, Stats
	it          State
	nd          int
	y, yp, ytmp []float64    // 2·nd
	f           [4][]float64 // rate history, newest first
	nHist       int
	fp          []float64    // rate at the predictor
	k           [4][]float64 // RK4 stages
}

// Init checks that StepControl.FixedH is set and start is consistent, partitions the
// coordinates at start.Q and computes a and λ from eq. 39.
func (m *ABM) Init(sys dae.System, start State, ctl StepControl) error {
	if err := refuseForConstantStep("gcp-abm", sys, ctl); err != nil {
		return err
	}
	if m.Repartition < 0 || math.IsNaN(m.Repartition) || (m.Repartition > 0 && m.Repartition < 1) {
		return fmt.Errorf("integrate: gcp-abm: Repartition = %g, want 0 (default) or >= 1", m.Repartition)
	}
	if _, err := ctl.resolveAt(start.T, len(start.Q)); err != nil {
		return fmt.Errorf("integrate: gcp-abm: %w", err)
	}
	w := &abmWork{rep: m.Repartition}
	w.lad = ladder{name: "gcp-abm", m: w, raw: ctl, fixed: true, constant: true, stats: &w.stats, cur: &w.cur, fc: newFailureContext(sys, &start)}
	if w.rep == 0 {
		w.rep = DefaultRepartition
	}
	cs, err := newGCPCore("gcp-abm", sys, start, &w.stats, false)
	if err != nil {
		return err
	}
	w.cs = cs
	nq, nc := sys.Size()
	w.nd = nq - nc
	n := 2 * w.nd
	w.cur, w.prev, w.it = NewState(nq, nc), NewState(nq, nc), NewState(nq, nc)
	w.y, w.yp, w.ytmp, w.fp = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range w.f {
		w.f[i] = make([]float64, n)
		w.k[i] = make([]float64, n)
	}
	w.cur.T = start.T
	copy(w.cur.Q, start.Q)
	copy(w.cur.V, start.V)
	if err := cs.start(&w.cur); err != nil {
		return err
	}
	w.restart()
	w.prev.CopyFrom(&w.cur)
	m.w, m.accepted = w, &w.accepted
	return nil
}

// restart packs y and its rate f₀ from the current state and forgets older rates.
func (w *abmWork) restart() {
	w.h0Rep = w.cs.hMax()
	w.pack(w.y, w.f[0], &w.cur)
	w.nHist = 1
}

// pack writes y = (qInd, qInd') and f = (qInd', qInd”) of s.
func (w *abmWork) pack(y, f []float64, s *State) {
	nd := w.nd
	for j, i := range w.cs.ind {
		y[j], y[nd+j] = s.Q[i], s.V[i]
		f[j], f[nd+j] = s.V[i], s.A[i]
	}
}

// rate evaluates f(t, y) into dst, recovering the full state into w.it (its dependent
// entries are the starting guess of the position recovery).
func (w *abmWork) rate(t float64, y, dst []float64) error {
	cs, s, nd := w.cs, &w.it, w.nd
	s.T = t
	for j, i := range cs.ind {
		s.Q[i], s.V[i] = y[j], y[nd+j]
	}
	if !allFinite(y) {
		w.lad.worst = Residual{Block: "state-space state", Value: math.NaN()}
		return ErrNonFinite
	}
	if err := cs.positions(t, s.Q); err != nil {
		w.lad.worst = cs.worst
		return err
	}
	cs.velocities(t, s.Q, s.V)
	if err := cs.reducedAcceleration(t, s.Q, s.V, s.A, s.Lambda); err != nil {
		w.lad.worst = cs.worst
		return err
	}
	for j, i := range cs.ind {
		dst[j], dst[nd+j] = s.V[i], s.A[i]
	}
	return nil
}

// Step takes one step of size FixedH (shortened to land on tEnd).
func (m *ABM) Step(tEnd float64) error {
	mustInit(m.w != nil, "gcp-abm")
	return m.w.lad.step(tEnd)
}

// attempt takes an RK4 step while the history is short or the step shortened, else a
// PECE step; the full state goes to w.it.
func (w *abmWork) attempt(h float64) (int, error) {
	copy(w.it.Q, w.cur.Q)
	copy(w.it.V, w.cur.V)
	var err error
	if w.nHist < len(w.f) || h != w.lad.c.FixedH {
		err = w.rk4(w.cur.T, h)
	} else {
		err = w.pece(w.cur.T, h)
	}
	if err != nil {
		w.stats.countFailure(err)
	}
	return 0, err
}

// errorNorm is 0: constant steps have no error estimate.
func (w *abmWork) errorNorm(float64) float64 { return 0 }

// rk4 takes a classical Runge-Kutta step into w.yp and evaluates its rate into w.fp.
func (w *abmWork) rk4(t, h float64) error {
	k := &w.k
	copy(k[0], w.f[0])
	for s, c := range [3]float64{0.5, 0.5, 1} {
		for i := range w.ytmp {
			w.ytmp[i] = w.y[i] + c*h*k[s][i]
		}
		if err := w.rate(t+c*h, w.ytmp, k[s+1]); err != nil {
			return err
		}
	}
	for i := range w.yp {
		w.yp[i] = w.y[i] + h/6*(k[0][i]+2*k[1][i]+2*k[2][i]+k[3][i])
	}
	return w.rate(t+h, w.yp, w.fp)
}

// pece takes an Adams-Bashforth-Moulton step into w.yp and evaluates its rate into w.fp.
func (w *abmWork) pece(t, h float64) error {
	for i := range w.ytmp {
		s := 0.0
		for j, b := range abmBashforth {
			s += b * w.f[j][i]
		}
		w.ytmp[i] = w.y[i] + h/24*s
	}
	if err := w.rate(t+h, w.ytmp, w.fp); err != nil {
		return err
	}
	for i := range w.yp {
		s := abmMoulton[0] * w.fp[i]
		for j, b := range abmMoulton[1:] {
			s += b * w.f[j][i]
		}
		w.yp[i] = w.y[i] + h/24*s
	}
	return w.rate(t+h, w.yp, w.fp)
}

// commit accepts w.yp (full state in w.it), shifts the history and re-partitions when H
// has grown (see GCP).
func (w *abmWork) commit(float64) error {
	w.prev.CopyFrom(&w.cur)
	w.cur.CopyFrom(&w.it)
	w.stats.Steps++
	last := w.f[len(w.f)-1]
	copy(w.f[1:], w.f[:len(w.f)-1])
	w.f[0] = last
	copy(w.f[0], w.fp)
	copy(w.y, w.yp)
	w.nHist = min(w.nHist+1, len(w.f))
	cs := w.cs
	if cs.hMax() > w.rep*math.Max(1, w.h0Rep) {
		changed, err := cs.partition(w.cur.T, w.cur.Q)
		if err != nil {
			return nil
		}
		copy(w.it.Q, w.cur.Q)
		copy(w.it.V, w.cur.V)
		if cs.positions(w.cur.T, w.it.Q) != nil {
			return nil
		}
		cs.velocities(w.cur.T, w.it.Q, w.it.V)
		if changed {
			w.stats.Repartitions++
			w.restart()
		} else {
			w.h0Rep = cs.hMax()
		}
	}
	return nil
}

// Interpolate writes the dense output at t in [Previous().T, Current().T] into dst by cubic
// Hermite interpolation (third order in q and v, below the method's fourth).
func (m *ABM) Interpolate(dst *State, t float64) { hermiteInterpolate(dst, &m.w.prev, &m.w.cur, t) }
