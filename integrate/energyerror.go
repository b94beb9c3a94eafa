package integrate

import (
	"math"

	"linkage/dae"
)

// energyMeter follows the energy invariant of seed 001 (eqs. 11-12),
//
//	Π = T + V − ∫₀ᵗ (P_nc + P_driving) dτ,
//
// constant along the exact solution, and measures the local error of a step by the change
// of Π over it, relative to the energy scale of the run (seed 001: "the time history of
// the energy invariant is taken as a measure of the local integration error"). The
// integral is advanced by the trapezoidal rule, the rule of the methods it serves, so that
// it adds no error of lower order.
type energyMeter struct {
	inv dae.EnergyInvariant
	// rx and fl add the power vᵀf_λ(λ) of λ-dependent forces (dae.ReactionForce), which
	// NonConservativePower, a function of (t, q, v), cannot include; nil without.
	rx *reaction
	fl []float64
	// pi, work, power, scale at the last accepted step; the *Try fields at the attempt.
	pi, work, power, scale             float64
	piTry, workTry, powerTry, scaleTry float64
	// kin0, pot0: T and V at the start; moved: the largest |T − T₀| + |V − V₀| + |W| over
	// the accepted steps (W the integral above), movedTry its value with the attempt.
	kin0, pot0, moved, movedTry float64
	// shifted is the sum of the changes of T + V that projections of an accepted state made
	// (shift), subtracted from Π: they are not the error of a step.
	shifted float64
}

// newEnergyMeter starts the invariant at the state (t, q, v, λ); rx is the system's
// λ-dependent force, or nil.
func newEnergyMeter(inv dae.EnergyInvariant, rx *reaction, t float64, q, v, lambda []float64) *energyMeter {
	e := &energyMeter{inv: inv, rx: rx}
	if e.rx != nil {
		e.fl = make([]float64, len(q))
	}
	kin, pot := inv.Energy(t, q, v)
	e.power = e.powerAt(t, q, v, lambda)
	e.pi = kin + pot
	e.kin0, e.pot0 = kin, pot
	e.scale = energyScale(kin, pot, e.pi)
	return e
}

// energyScale is the size of the energies a change of Π is compared with: T + |V| and |Π|
// (the zero of V is arbitrary; a run from rest at V = 0 starts with scale 0 and takes the
// scale of its first step).
func energyScale(kin, pot, pi float64) float64 {
	return math.Max(kin+math.Abs(pot), math.Abs(pi))
}

// trial evaluates Π at the end (t, q, v, λ) of an attempt of size h and returns the
// relative change |Π₁ − Π₀| / scale, the estimate of the step's local error.
func (e *energyMeter) trial(h, t float64, q, v, lambda []float64) float64 {
	kin, pot := e.inv.Energy(t, q, v)
	e.powerTry = e.powerAt(t, q, v, lambda)
	e.workTry = e.work + h/2*(e.power+e.powerTry)
	e.piTry = kin + pot - e.workTry - e.shifted
	e.scaleTry = math.Max(e.scale, energyScale(kin, pot, e.piTry))
	e.movedTry = math.Max(e.moved, math.Abs(kin-e.kin0)+math.Abs(pot-e.pot0)+math.Abs(e.workTry))
	if e.scaleTry == 0 {
		return 0
	}
	return math.Abs(e.piTry-e.pi) / e.scaleTry
}

// powerAt is P_nc + P_driving at (t, q, v, λ), plus vᵀf_λ(t, q, v, λ) with λ-dependent
// forces.
func (e *energyMeter) powerAt(t float64, q, v, lambda []float64) float64 {
	p := e.inv.NonConservativePower(t, q, v) + e.inv.DrivingPower(t, q, lambda)
	if e.rx != nil {
		clear(e.fl)
		e.rx.add(e.fl, t, q, v, lambda)
		p += dot(v, e.fl)
	}
	return p
}

// accept makes the last trial the current state of the invariant.
func (e *energyMeter) accept() {
	e.pi, e.work, e.power, e.scale, e.moved = e.piTry, e.workTry, e.powerTry, e.scaleTry, e.movedTry
}

// shift takes the accepted state after a projection, (t, q, v, λ), and leaves Π where it
// was: the change of T + V the projection made is added to shifted, the power restarts
// at the projected state. The multi-index method projects at its change to index 1
// (projectForIndex1), where the index-3 state's constraint error would otherwise enter
// the next step's ΔΠ whatever its h.
func (e *energyMeter) shift(t float64, q, v, lambda []float64) {
	kin, pot := e.inv.Energy(t, q, v)
	jump := kin + pot - e.work - e.shifted - e.pi // the projection's change of Π
	e.shifted += jump
	e.power = e.powerAt(t, q, v, lambda)
	e.scale = math.Max(e.scale, energyScale(kin, pot, e.pi))
}
