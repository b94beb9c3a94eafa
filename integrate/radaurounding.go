package integrate

import "math"

// The rounding floor of radau5's Newton iteration on the Newton-Krylov path (joint
// route). The stage residuals φ(t₀ + c_i h, y₀ + z_i) carry the rounding of the dynamic
// rows' terms (the joint loads' world-origin moments), which the mass part's M⁻¹ lifts
// into a slender rod's spin accelerations; once the iteration has removed the rest, its
// increments are that rounding, of constant size, and their rate θ ≈ 1 reads as
// divergence. On the 1000-rod chain at FixedH (Newton tolerance 1e-3·RTol' = 4.6e-8 at
// tol 1e-4) the iteration converged at rates 1e-2 to 1e-3 down to ‖ΔW‖ ≈ 1e-6 from the
// start and 1.3e-5 from the loaded state, then stalled there until MaxIters, so every
// fixed h failed from the loaded state (BENCHMARKS.md, "radau5's Newton iteration on the
// 1000-rod chain"). As bdf's and genalpha's (newtonRounding), the level is measured, not
// modelled: the third difference of the last stage's residual along ±(1 + |y_i|)τ
// (thirdDifference), one application of the real system's preconditioner, in the scaled
// norm of the increments, times radauRoundingSpread for the three stages' mixing by
// T⁻¹; an increment below bdfRoundingFloor times that level has converged (radauMonitor.floor).
//
// It is measured at a stalled increment (rate ≥ alphaStallRate) from the third Newton
// increment of an attempt on: radau5's Newton failures in adaptive runs come at the
// second (slow or diverging rates of increments far above the rounding), where a
// measurement would add its four evaluations for nothing.

// radauRoundingSpread is the RMS of T⁻¹'s row norms (4.22, 4.22, 2.69): the rounding of
// one stage residual becomes about this much rounding in ΔW = (T⁻¹ ⊗ I)(…) per stage,
// measured on the loaded 1000-rod chain as a stall of 1.3e-5 against a one-stage level of
// 2.6e-6 (ratio 5).
var radauRoundingSpread = func() float64 {
	var s float64
	for _, row := range radauCoef.ti {
		for _, x := range row {
			s += x * x
		}
	}
	return math.Sqrt(s / 3)
}()

// radauRoundingIter is the first Newton increment (counted from 1) at which a stall
// measures the rounding level.
const radauRoundingIter = 3

// noteStall measures the rounding level when the increment of norm dyno, the attempt's
// third or later, has stalled against the previous one or would not end the iteration by
// the rate rule (radauMonitor.continues), once per attempt, and sets the monitor's floor
// from it: on the Newton-Krylov path with GMRES only; the dense and sparse paths, which
// carry the small problems' work-precision tables, and ApproxJacobian's mass-part solves
// are left as they were (not measured there).
//
// Measured at a stall alone, the floor came one increment late: on the loaded 1000-rod
// chain at FixedH = 2.6 ms (BenchmarkRadau5StiffFixed) the third increment was already
// at the rounding (6.2e-5 against a level of 4.4e-5) but contracted by 0.02-0.2 from the
// second, short of FNEWT at that rate, so every step took a fourth increment of the same
// size (the stall) before measuring: 3.8 Newton iterations and 31.6 evaluations per step
// (3.0 and 27.2 measured at the third). A level measured in an earlier attempt at the
// same h stands for radauRoundingKeep accepted steps (keptFloor): a third or later
// increment at or below its floor has converged without the four evaluations of a new
// measurement (there 23.6 evaluations per step; BENCHMARKS.md, "radau5's growth by
// instructions").
func (w *radauWork) noteStall(dyno float64) {
	if !w.mn().inUse() || w.approx || w.mon.floor > 0 || w.mon.iter+1 < radauRoundingIter {
		return
	}
	if f := w.keptFloor(); dyno <= f {
		w.mon.floor = f
		return
	}
	if dyno < alphaStallRate*w.mon.dynold && !w.mon.continues(dyno) {
		return
	}
	level := w.roundingLevel()
	w.mon.floor = math.Max(w.roundoff, bdfRoundingFloor*level)
	w.kept = radauKeptLevel{level: level, h: w.hTry}
}

// radauKeptLevel is a measured rounding level kept for the attempts after it: the level,
// the h it was measured at and the accepted steps since.
type radauKeptLevel struct {
	level, h float64
	age      int
}

// radauRoundingKeep is the number of accepted steps a measured rounding level stands
// for the attempts at its h (radauWork.keptFloor): the level follows the loads and the
// state, which change little over a few steps; 5 is a choice, not fitted.
const radauRoundingKeep = 5

// keptFloor is the Newton floor of the kept rounding level when the attempt's h is the
// one it was measured at and it is at most radauRoundingKeep accepted steps old, else 0.
// An increment below it, the third or later of an attempt, has converged without a new
// measurement; one above it measures anew.
func (w *radauWork) keptFloor() float64 {
	k := w.kept
	if k.level <= 0 || k.h != w.hTry || k.age > radauRoundingKeep {
		return 0
	}
	return math.Max(w.roundoff, bdfRoundingFloor*k.level)
}

// roundingLevel returns the scaled norm of the rounding of ΔW at the last stage
// (see above); its four residual evaluations count in FuncEvals. It uses yt, tmp and
// errv, which the iteration does not hold between increments.
func (w *radauWork) roundingLevel() float64 {
	z3 := w.z[2]
	t := w.cur.T + w.hTry
	coef := [4]float64{-1, 3, -3, 1}
	delta := w.tmp
	clear(delta)
	for k, ck := range coef {
		for i, y := range w.y0 {
			y += z3[i]
			w.yt[i] = y + roundingShift(k, i, y)
		}
		w.residualAt(w.errv, t, w.yt)
		w.stats.FuncEvals++
		for i, r := range w.errv {
			delta[i] += ck * r
		}
	}
	s := radauRoundingSpread / math.Sqrt(20)
	for i := range delta {
		delta[i] *= s
	}
	w.kry.solveMass(delta, nil, complex(radauCoef.gamma/w.hTry, 0))
	level := w.stageNorm(delta)
	if !isFinite(level) {
		return 0
	}
	return level
}
