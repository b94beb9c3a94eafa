package integrate

import (
	"math"
)

// controller proposes step sizes from error estimates (elementary controller, Hairer,
// Nørsett & Wanner 1993, II.4, eq. 4.13) within the bounds of StepControl:
//
//	h_new = h · min(MaxGrow, max(MinShrink, Safety · e^(−1/(p+1))))
//
// where p is the order of the error estimator's lower-order solution (e ~ h^(p+1)). After
// a rejection the step is not allowed to grow (Hairer-Wanner's rule against oscillation).
// After an attempt without an error estimate (a Newton failure, cut) it remembers the
// failed size h_f: no later proposal exceeds the cap failCapFrac·h_f, which rises by
// failCapRelax per accepted step (see those constants for why). Runs without such failures
// never meet a cap. It is per-run state; the knobs stay in StepControl.
type controller struct {
	c            StepControl
	order        int // p
	h            float64
	justRejected bool // the previous attempt was rejected
	// hCap > 0 bounds every proposal after a Newton failure: failCapFrac·h_f at the failure,
	// times failCapRelax per accepted step since (0: no failure yet).
	hCap float64
	hAcc float64 // the last accepted step (0: none yet)
	// beta > 0 turns on the PI controller of Gustafsson as the code DOPRI5 uses it (Hairer,
	// Nørsett & Wanner 1993, II.4 and IV.2, eq. 2.43c): after an accepted step
	//
	//	h_new = h · Safety · e^(−(1/(p+1) − 0.75β)) · e_prev^β,
	//
	// which damps the step-size oscillations of the elementary rule where stability, not
	// accuracy, limits h. Rejections use the elementary rule.
	beta  float64
	ePrev float64 // error of the last accepted step, at least 1e-4 (DOPRI5's FACOLD)
}

// newController returns a controller for an estimator of order p, with step h0.
func newController(c StepControl, p int, h0 float64) controller {
	return controller{c: c, order: p, h: h0}
}

// size is the step the controller proposes next (stepRule).
func (ct *controller) size() float64 { return ct.h }

// judge is accept as the stepRule of ladder.
func (ct *controller) judge(h, e float64, _ int) bool { return ct.accept(h, e) }

// accept reports whether the scaled error e (≤ 1 passes; NaN fails) is acceptable for the
// attempt of size h and sets the size of the next attempt.
func (ct *controller) accept(h, e float64) bool {
	if ct.c.FixedH > 0 {
		ct.h = ct.c.FixedH
		return !math.IsNaN(e)
	}
	ok := e <= 1
	fac := ct.c.MaxGrow
	switch {
	case ok && ct.beta > 0:
		if ct.ePrev == 0 {
			ct.ePrev = 1e-4
		}
		fac = ct.c.Safety * math.Pow(math.Max(e, 1e-300), -(1/float64(ct.order+1)-0.75*ct.beta)) * math.Pow(ct.ePrev, ct.beta)
		ct.ePrev = math.Max(e, 1e-4)
	case e > 0:
		fac = ct.c.Safety * math.Pow(e, -1/float64(ct.order+1))
	}
	if math.IsNaN(e) {
		fac = ct.c.MinShrink
	}
	fac = math.Min(ct.c.MaxGrow, math.Max(ct.c.MinShrink, fac))
	if ok && ct.justRejected {
		fac = math.Min(fac, 1)
	}
	ct.justRejected = !ok
	ct.h = h * fac
	if ok {
		ct.hAcc = h
	}
	if ct.hCap > 0 {
		ct.h = math.Min(ct.h, ct.hCap)
		if ok {
			ct.hCap *= failCapRelax
		}
	}
	return ok
}

// cut shrinks the next attempt after a failure that gave no error estimate (a Newton
// failure or a non-finite value): h ← failureCut·h, and caps later proposals at
// failCapFrac·h (the most recent failure is the best estimate of the Newton iteration's
// reach, so it replaces an older cap).
func (ct *controller) cut(h float64) {
	ct.justRejected = true
	ct.h = h * failureCut
	if h > failCapGrown*ct.hAcc {
		ct.hCap = h * failCapFrac
	}
}

// failureCut is the step cut after an attempt without an error estimate, as in IDA
// (IDAHandleNFlag) and the codes of Hairer and Wanner.
const failureCut = 0.25

// The Newton-failure memory of controller. An attempt of size h_f that the Newton iteration
// could not converge says its reach is below h_f, while the error test, which never saw that
// attempt, keeps proposing ×MaxGrow from the short step accepted after the cut: on the
// joint route's loaded 1000-rod chain hht and genalpha then failed at every second step
// (BENCHMARKS.md, "Step control after a Newton failure"). CVODE forbids growth on the one
// step after a convergence failure (justRejected does that here); the cap remembers longer:
// half the failed size, twice the step accepted after failureCut, probes back up to h_f
// after ln 2/ln 1.1 ≈ 7 accepted steps and then past it by 10 % per step, so a reach that
// grows is followed and the next failure overshoots it by about 10 %, not ×MaxGrow.
const (
	failCapFrac  = 0.5 // the cap after a Newton failure at h_f, as a fraction of h_f
	failCapRelax = 1.1 // the cap's growth per accepted step
	// failCapGrown: only a failed attempt grown past failCapGrown × the last accepted step
	// sets a cap; a failure inside a cut cascade or at a singular passage (h_f at or below
	// the steps that were accepted) leaves none, so main's growth recovers from it.
	failCapGrown = 2
)
