package integrate

import "math"

// newtonRounding measures the rounding level of the Newton increments of bdf and of
// genalpha on the Newton-Krylov path (genAlphaWork.measureRounding). bdf's forms whose
// Newton norm weighs the accelerations and multipliers in full (index1, baumgarte: index-1
// variables, scale h⁰) need it from the start: their increments are resolved only to the rounding of the
// dynamic rows' terms (f, M a and Gᵀλ, of the size of the largest joint torque: 2.5e6 N m
// at the base of the 1000-rod chain) times M⁻¹, whose smallest eigenvalue is a rod's spin
// about its axis (5e-5 kg m²). Measured on the joint route's chain at rest, dense path:
// at N = 200 the increments stalled at 2.2e-4 in the Newton norm, 10⁷ times the 10-ulp
// floor of y, so the rate θ ≈ 1 of two rounding-level increments read as divergence and
// every h down to HMin failed at t = 0; on the Newton-Krylov path at N = 1000 the same
// rounding, divided by the difference increment of GMRES's products, swamped them
// (every solve ended at 20 products short of its tolerance, with P⁻¹J v of norm 20 on
// unit vectors where it is near 1).
//
// The level sets the Newton floor (newtonMonitor.floor, bdfRoundingFloor times the
// level: an increment below it is rounding, its rate θ noise). The difference increment of
// GMRES's products (bdfWork.jacVec) takes the same kind of measurement from its own
// solver (diffNoise), on every form.
//
// The level is measured, not modelled: the third difference of the residual along
// y + kτd (k = 0..3, d_i = ±(1 + |y_i|) with pseudo-random signs, τ = 1e-9) cancels its
// smooth part to O(τ³) and leaves the rounding, √20 times one evaluation's for
// independent errors (Moré and Wild 2011, ECnoise); one solve with the Newton matrix (or
// its preconditioner) turns it into an increment whose Newton norm is the floor.
type newtonRounding struct {
	y, yp, r0 []float64 // the iterate, y' (bdf; nil for genalpha) and the residual, restored after the measurement (n)
	level     float64   // the Newton norm of the last measured rounding increment
	// armed: the factorizations measure the level. The forms whose Newton norm scales the
	// algebraic variables by h or h² arm it at their first Newton failure or third
	// iteration of an attempt (slow), so runs that converge in two iterations (the
	// well-conditioned models) pay no evaluations for it; index1 and baumgarte from the
	// start.
	armed   bool
	its     int  // Newton iterations of the current attempt
	current bool // genalpha: the level was measured with the current matrix (genAlphaWork.measureRounding)
}

// bdfRoundingSlowIters is the Newton iteration of an attempt that arms the measurement.
const bdfRoundingSlowIters = 3

// attempt begins the count of an attempt's Newton iterations (nil-safe).
func (m *newtonRounding) attempt() {
	if m != nil {
		m.its = 0
	}
}

// iteration counts a Newton iteration and arms the measurement at the
// bdfRoundingSlowIters-th of an attempt (nil-safe).
func (m *newtonRounding) iteration() {
	if m == nil {
		return
	}
	if m.its++; m.its >= bdfRoundingSlowIters {
		m.armed = true
	}
}

// arm arms the measurement after a Newton failure (nil-safe).
func (m *newtonRounding) arm() {
	if m != nil {
		m.armed = true
	}
}

// bdfRoundingFloor is the Newton floor in units of the measured rounding level: one
// sample of the rounding measures it to a factor of about 1.5 (the stalled increments of
// TestBDFRoundingLevelIsTheStall: 0.97-1.1 × the level at 100 rods, 1.4 × at 200).
const bdfRoundingFloor = 4

// bdfRoundingTau is the step of the third difference: far above the ulps of y (so the
// evaluations round differently) and far below its scale (so the cubic term of the residual, of order τ³, vanishes).
const bdfRoundingTau = 1e-9

// newBDFRounding returns the measurement for a run of n variables in form, on the
// Newton-Krylov path (krylov) or not, or nil for the dense or sparse path of the forms
// whose algebraic variables the Newton norm scales by h or h² (ggl, index2,
// index2-baumgarte, index3), where the rounding of well-conditioned models enters below
// the 10-ulp floor. On the joint route's Newton-Krylov path every form measures it, armed
// at an attempt's third iteration or first failure in those forms (newtonRounding.armed): a
// slender rod's spin inertia makes M⁻¹ amplify the dynamic rows' rounding by
// cond(M) ≈ 1e12 (the 1000-rod chain), so the increments stall above the floor in the
// h-scaled a and λ too, and ggl's rate θ ≈ 1 there cut h from the loaded 1000-rod state
// to 15 µs (1.5 ms with the floor, BENCHMARKS.md "bdf's rounding floor in every form";
// TestBDFGGLLoadedSlenderChain). The dense path is left as it was (its body-route
// work-precision tables), though the same collapse shows there on rods of radius 1e-5 m.
func newBDFRounding(form Formulation, n int, krylov bool) *newtonRounding {
	full := form == Index1 || form == Baumgarte
	if !krylov && !full {
		return nil
	}
	return &newtonRounding{y: make([]float64, n), yp: make([]float64, n), r0: make([]float64, n), armed: full}
}

// roundingSign is a fixed pseudo-random sign for component i (rounding errors have no
// pattern; a smooth d would let the solve cancel them).
func roundingSign(i int) float64 {
	if (uint32(i)*2654435761)>>31 == 0 {
		return 1
	}
	return -1
}

// roundingProbe is a Newton iteration whose increments' rounding level is measured: it
// evaluates its residual at the saved iterate y displaced to y + kτd (roundingShift).
type roundingProbe interface {
	displacedResidual(k int) []float64
}

// roundingShift is kτd_i, the displacement of component i (value y) at the k-th point
// of the third difference.
func roundingShift(k, i int, y float64) float64 {
	return float64(k) * bdfRoundingTau * (1 + math.Abs(y)) * roundingSign(i)
}

// thirdDifference writes Δ³r/√20 = (r₃ − 3r₂ + 3r₁ − r₀)/√20 of p's residual into delta:
// one evaluation's rounding, the smooth part cancelled to O(τ³). Its four residual
// evaluations count in the method's FuncEvals.
func thirdDifference(p roundingProbe, delta []float64) {
	coef := [4]float64{-1, 3, -3, 1}
	for k, ck := range coef {
		for i, r := range p.displacedResidual(k) {
			if k == 0 {
				delta[i] = 0
			}
			delta[i] += ck * r
		}
	}
	s := 1 / math.Sqrt(20)
	for i := range delta {
		delta[i] *= s
	}
}

// floor is the Newton floor the last measurement sets, bdfRoundingFloor times the level
// (0 for nil or before a measurement).
func (m *newtonRounding) floor() float64 {
	if m == nil {
		return 0
	}
	return bdfRoundingFloor * m.level
}

// setLevel records the Newton norm of a measured rounding increment; a non-finite one (a
// non-finite residual nearby, which the attempt's own evaluations report) records none.
func (m *newtonRounding) setLevel(norm float64) {
	m.level = norm
	if !isFinite(norm) {
		m.level = 0
	}
}

// measureRounding sets the Newton floor from the rounding of the residual at the
// iterate, solved by solve (the Newton matrix or its preconditioner), right after factor
// made it. It restores the iterate, y' and the residual.
func (w *bdfWork) measureRounding(solve linearSolve) {
	m := w.rnd
	if m == nil || !m.armed {
		return
	}
	copy(m.y, w.yy)
	copy(m.yp, w.yp)
	copy(m.r0, w.res) // unscaled: factor has just undone the row scaling (w.scaled false)
	thirdDifference(w, w.delta)
	solve.Solve(w.delta)
	m.setLevel(w.newtonNorm(w.delta))
	copy(w.yy, m.y)
	copy(w.yp, m.yp)
	copy(w.res, m.r0)
	w.scaled = false
	w.nw.mon.floor = math.Max(tenUlpFloor(w.rtol, w.atol), m.floor())
}

// displacedResidual evaluates bdf's residual at y + kτd, y' + c_j kτd (roundingProbe).
func (w *bdfWork) displacedResidual(k int) []float64 {
	m := w.rnd
	for i, y := range m.y {
		d := roundingShift(k, i, y)
		w.yy[i] = y + d
		w.yp[i] = m.yp[i] + w.cj*d
	}
	_ = w.residual()
	return w.res
}
