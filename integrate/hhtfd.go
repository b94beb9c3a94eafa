package integrate

import "math"

// fdIter is hht's forward-dynamics Newton iteration on a system whose equations of motion
// are solved by a recursive forward-dynamics pass (dae.ForwardDynamicsSolver: the joint
// route of seed 002 Table 1) and that has no constraint rows or first-order states. Its
// Newton matrix is the mass part M(q₁)/(1+α) of eq. 14 at the iterate itself, so that the
// increment Δa = −(1+α) M(q₁)⁻¹ e₁ is what the residual's own forward-dynamics pass
// already computes (fdRows): an iteration costs one evaluation and nothing else, no
// factorization, no K_g, no preconditioner solve, no product with M. The terms it leaves
// out are the stiffness and damping ones, βh²(1+α)·M⁻¹∂(Ma − f)/∂q and γh(1+α)·M⁻¹∂(Ma −
// f)/∂v, which set its rate θ; the preconditioned Newton-Krylov iteration (massNewton with
// K_g) keeps them and costs a factorization per step besides its evaluations.
//
// The choice is by the measured rate. An attempt takes it while the last one that did
// contracted by hhtFDRate or better at every increment; an increment that would contract
// less is not taken: the attempt factorizes massNewton's matrix at that iterate, whose
// residual it has (at the predicted one, if the first rate was poor), and goes on with
// it (fdSwitch), so a poor guess costs at most the one evaluation that measured it.
// After such an attempt, or a failed one, the next attempts take the factorized iteration,
// and the forward-dynamics one is tried again after hhtFDRetry accepted steps, a wait
// that doubles while the tries keep failing (up to hhtFDRetryMax) and is reset by one
// that passes.
type fdIter struct {
	allowed bool    // the system and the Newton settings admit it (allow)
	ok      bool    // the last attempt that took it contracted at hhtFDRate or better
	wait    int     // accepted steps before it is tried again (when !ok)
	backoff int     // the wait after the next poor try
	next    bool    // the attempt being made takes it (predict sets on from it)
	on      bool    // the try under way takes it
	rate    float64 // the largest rate θ of the try's increments
	stale   bool    // tries ran since massNewton's last factorization: the next attempt without it factorizes
	steps   int     // accepted steps it took (tests)
	leaves  int     // tries it left for the factorized iteration (fdSwitch; tests)
	// u0, x0: the try's predicted unknowns and their rows x (fdRows), from which fdSwitch
	// starts the factorized iteration when the first rate is already poor.
	u0, x0 []float64
}

// hhtFDRate is the rate θ an attempt of the forward-dynamics iteration must reach for the
// next one to take it too: one tenth, hhtChordRedoRate, the chord step's bound.
const hhtFDRate = hhtChordRedoRate

// hhtFDRetry and hhtFDRetryMax bound the number of accepted steps on the factorized
// iteration after which the forward-dynamics iteration is tried again (fdIter).
const (
	hhtFDRetry    = 16
	hhtFDRetryMax = 256
)

// allow sets whether the iteration may run on n unknowns, and trusts it for the first
// attempt.
func (f *fdIter) allow(yes bool, n int) {
	f.allowed, f.ok, f.backoff = yes, yes, hhtFDRetry
	if yes {
		f.u0, f.x0 = make([]float64, n), make([]float64, n)
	}
}

// judge takes the verdict on a try: the next attempts keep the iteration when it passed,
// else wait for the backoff, which doubles.
func (f *fdIter) judge(passed bool) {
	if passed {
		f.backoff = hhtFDRetry
		return
	}
	f.ok, f.wait = false, f.backoff
	f.backoff = min(2*f.backoff, hhtFDRetryMax)
}

// accepted counts an accepted step toward the next try.
func (f *fdIter) accepted() {
	if f.on {
		f.steps++
	}
	if f.allowed && !f.ok {
		if f.wait--; f.wait <= 0 {
			f.ok = true
		}
	}
}

// fdReady reports whether the next attempt takes the forward-dynamics iteration: allowed,
// trusted, and the massNewton not replaced by its dense fallback.
func (w *hhtWork) fdReady() bool { return w.fdn.allowed && w.fdn.ok && w.mn.dense == 0 }

// fdAttempt runs an attempt of size h with the forward-dynamics iteration (a failed try is
// retried with a fresh factorization by newtonSolver.attempt) and judges it for the next.
func (w *hhtWork) fdAttempt(h float64) (usedFresh int, cause error) {
	f := &w.fdn
	f.next, f.rate, f.stale = true, 0, true
	usedFresh, cause = w.nw.attempt(w, h, false)
	f.next = false
	f.judge(usedFresh == 0 && cause == nil && f.rate <= hhtFDRate)
	return usedFresh, cause
}

// fdRows writes the residual's dynamic rows scaled by M(q₁)⁻¹, x = ã − M(q₁)⁻¹(f + b), into
// e1 and w.e1x by one forward-dynamics pass, as scaledRows leaves x in w.e1x: the rows
// whose increment is −(1+α)x (fdIncrement), and from which fdSwitch factorizes.
func (w *hhtWork) fdRows(e1 []float64, t1 float64, a, lambda []float64) {
	w.accelerationRows(e1, nil, t1, a, lambda)
	x := w.e1x[:w.nq]
	copy(e1, x)
	if w.nw.mon.iter == 0 {
		copy(w.fdn.u0, w.u)
		copy(w.fdn.x0, x)
	}
	w.scaled, w.scaledFD = false, false
	w.stats.FuncEvals++
}

// fdIncrement turns the rows fdRows left in w.du (negated by increment) into the
// increment −(1+α)x and applies it, returning its norm and true; or, when its rate θ
// against the attempt's previous increment exceeds hhtFDRate, leaves the iteration for
// the factorized one (fdSwitch) and returns false, w.du then holding −e for that one's
// increment; when that factorization fails, a NaN norm and true, which the monitor
// calls divergence.
func (w *hhtWork) fdIncrement(h float64) (norm float64, taken bool) {
	s, du := 1+w.k.alpha, w.du[:w.nq]
	for i := range du {
		du[i] *= s
	}
	if mon := &w.nw.mon; mon.iter >= 1 && mon.prev > 0 {
		rate := w.incrementNorm(h) / mon.prev
		w.fdn.rate = math.Max(w.fdn.rate, rate)
		if rate > hhtFDRate {
			if err := w.fdSwitch(); err != nil {
				return math.NaN(), true
			}
			return 0, false
		}
	}
	return w.apply(h), true
}

// fdSwitch factorizes massNewton's matrix at the iterate whose rows fdRows evaluated (K_g
// at its x, as after scaledRows), or back at the predicted one when the try's first rate
// was poor, so that the attempt is then the factorized iteration's own from its start
// (the first increment, taken before any rate was known, may have moved the iterate off
// along the stiff directions the iteration leaves out), and writes −e = −M(q₁)x into w.du,
// so that increment goes on with a chord step of the fresh matrix, whose rates the monitor
// measures afresh (newtonMonitor.restart: the last increment taken was of another
// iteration). It returns the factorization's error.
func (w *hhtWork) fdSwitch() error {
	w.fdn.on = false
	w.fdn.leaves++
	if w.nw.mon.iter == 1 {
		copy(w.u, w.fdn.u0)
		w.newmark(w.hTry)
		copy(w.e1x, w.fdn.x0)
	}
	w.scaled, w.scaledFD = true, true // factor writes the rows M(q₁)x from w.e1x
	if err := w.factor(); err != nil {
		return err
	}
	w.nw.factored()
	w.nw.mon.restart()
	w.chordSlow = false
	for i, e := range w.du {
		w.du[i] = -e
	}
	return nil
}
