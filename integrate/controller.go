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
// It is per-run state; the knobs stay in StepControl.
type controller struct {
	c            StepControl
	order        int // p
	h            float64
	justRejected bool // the previous attempt was rejected
	// beta > 0 turns on the PI controller of Gustafsson as the code DOPRI5 uses it (Hairer,
	// Nørsett & Wanner 1993, II.4 and IV.2, eq. 2.43c): after an accepted step
	//
	//	h_new = h · Safety · e^(−(1/(p+1) − 0.75β)) · e_prev^β,
	//
	// which damps the step-size oscillations of the elementary rule where stability, not
	// accuracy, limits h. Rejections use the elementary rule.
	beta  float64
	ePrev float64 // error of the last accepted step, at least 1e-4 (DOPRI5's FACOLD)
	// failCap > 0 remembers where the corrector failed: after a failure at h_f the steps
	// proposed stay below hCap = failCap·h_f, a bound that grows by capRelax at every
	// accepted step, so that the step size returns toward h_f gradually instead of by
	// MaxGrow at once (the cycle it breaks, on the Euler-parameter chains: fail at h_f, cut
	// to h_f/4, grow ×5 past h_f, fail again). Off (0) unless a method sets it.
	failCap, capRelax float64
	hCap              float64 // the bound in force (0: none)
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
	if ct.hCap > 0 {
		ct.h = math.Min(ct.h, ct.hCap)
		if ok {
			ct.hCap *= ct.capRelax
		}
	}
	return ok
}

// cut shrinks the next attempt after a failure that gave no error estimate (a Newton
// failure or a non-finite value): h ← failureCut·h.
func (ct *controller) cut(h float64) {
	ct.justRejected = true
	ct.h = h * failureCut
	if ct.failCap > 0 {
		ct.hCap = ct.failCap * h
	}
}

// failureCut is the step cut after an attempt without an error estimate, as in IDA
// (IDAHandleNFlag) and the codes of Hairer and Wanner.
const failureCut = 0.25
