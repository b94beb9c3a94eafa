package assembly

import (
	"fmt"

	"linkage/integrate"
)

// work.go: (accepted steps, dense output) ⇒ W_nc(t), W_driving(t), the integrals of the
// energy invariant Π = T + V − W_nc − W_driving of seed 001 (eq. 12), for any modeling route
// whose System splits its power into the non-conservative and the driving part.
//
// Over each accepted step [t₀, t₁] the power is integrated by Simpson's rule with the
// method's dense output at the midpoint,
//
//	∫ P dτ ≈ (t₁ − t₀)/6 · (P(t₀) + 4 P((t₀+t₁)/2) + P(t₁)),
//
// whose error, O(h⁵ P⁗) per step, is far below the integration error of the state the
// power is evaluated on (the steps are chosen so that the state is accurate to tol).

// PowerSource splits d(T + V)/dt along a solution into the power of the non-conservative
// applied forces and that of the motions; *planar.System and *spatial.System implement
// it (their energy.go). λ is the full constraint vector's.
type PowerSource interface {
	NonConservativePower(t float64, q, v []float64) float64
	DrivingPower(t float64, q, lambda []float64) float64
}

// Conservative is implemented by a PowerSource that can tell from its elements that its
// power is zero at every state: no dampers, actuators, forces outside a potential, custom
// forces, friction or motions, so W_nc = W_driving = 0 and the invariant of seed 001 is
// T + V alone. WorkMeter then evaluates no power inside a step (each a dense-output
// interpolation, which for methods without a stored acceleration solves eq. 17): on a
// conservative chain of many bodies that was a quarter of a dopri5 run.
type Conservative interface {
	Conservative() bool
}

// Conserves reports whether the spring-dampers sds and the constraint rows of a route put
// no power into the mechanism at any state: every spring-damper Conservative and no row
// driven by a motion. A route's Conservative adds its other elements with power.
func Conserves[C any](sds []SpringDamper[C], rows []Row[C]) bool {
	for i := range sds {
		if !sds[i].Conservative() {
			return false
		}
	}
	for i := range rows {
		if rows[i].Drive != nil {
			return false
		}
	}
	return true
}

// ReactionPowerSource is implemented by a PowerSource whose non-conservative forces
// include forces that depend on λ (joint friction, dae.ReactionForce): their power vᵀ f_λ
// joins W_nc.
type ReactionPowerSource interface {
	ReactionPower(t float64, q, v, lambda []float64) float64
}

// DenseOutput is what a WorkMeter reads from an integrator after each accepted step: the
// state at the step's start and the interpolant on it. integrate.Method implements it.
type DenseOutput interface {
	Previous() *integrate.State
	Interpolate(dst *integrate.State, t float64)
}

// Work is the work done from the start of a run: W_nc by the non-conservative applied
// forces, W_driving by the motions (the same split for powers, in W).
type Work struct {
	NonConservative, Driving float64
}

func (w Work) add(x Work) Work {
	return Work{w.NonConservative + x.NonConservative, w.Driving + x.Driving}
}

func (w Work) scale(c float64) Work { return Work{c * w.NonConservative, c * w.Driving} }

// WorkMeter integrates the power of a PowerSource along a run, so that the work at any
// output time can be asked for as the samples stream out: integrate.Solve hands a step's
// samples (SolveOptions.Sample) to the caller before it calls the Observer, and At answers
// for times inside the step just taken whether or not Observe has seen it. Pass Observe as
// (or call it from) integrate.SolveOptions.Observer; neither allocates after the first step.
type WorkMeter struct {
	src    PowerSource
	m      DenseOutput
	expand func(dst, lambda []float64) // integrated λ → full λ; nil: the same vector
	t0     float64                     // start of the run, where W = 0
	end    float64                     // end of the last observed step (t0 before the first)
	before Work                        // W at the start of the last observed step
	total  Work                        // W at the end of the last observed step
	mid    integrate.State             // dense output scratch, sized at the first use
	lambda []float64                   // full λ
	zero   bool                        // src is Conservative: the work is 0
}

// NewWorkMeter returns a meter of src's work along the steps of m from t0. nc is the length
// of src's full λ; expand maps the integrated system's λ to it (nil when they are the
// same, e.g. dae.ExpandLambda when redundant rows were dropped).
func NewWorkMeter(src PowerSource, nc int, expand func(dst, lambda []float64), m DenseOutput, t0 float64) *WorkMeter {
	c, ok := src.(Conservative)
	return &WorkMeter{src: src, m: m, expand: expand, t0: t0, end: t0, lambda: make([]float64, nc), zero: ok && c.Conservative()}
}

// power returns the power split at a state of the integrated system.
func (wm *WorkMeter) power(s *integrate.State) Work {
	lambda := s.Lambda
	if wm.expand != nil {
		wm.expand(wm.lambda, s.Lambda)
		lambda = wm.lambda
	}
	w := Work{wm.src.NonConservativePower(s.T, s.Q, s.V), wm.src.DrivingPower(s.T, s.Q, lambda)}
	if r, ok := wm.src.(ReactionPowerSource); ok {
		w.NonConservative += r.ReactionPower(s.T, s.Q, s.V, lambda)
	}
	return w
}

// powerAt returns the power at t in the last step, by dense output.
func (wm *WorkMeter) powerAt(t float64) Work {
	if wm.mid.Q == nil {
		prev := wm.m.Previous()
		wm.mid = integrate.NewState(len(prev.Q), len(prev.Lambda))
		if prev.X != nil {
			wm.mid.X = make([]float64, len(prev.X))
		}
	}
	wm.m.Interpolate(&wm.mid, t)
	return wm.power(&wm.mid)
}

// simpson integrates the power over [prev.T, t] within the step the integrator last took.
func (wm *WorkMeter) simpson(prev *integrate.State, t float64) Work {
	if t <= prev.T || wm.zero {
		return Work{}
	}
	sum := wm.power(prev).add(wm.powerAt((prev.T + t) / 2).scale(4)).add(wm.powerAt(t))
	return sum.scale((t - prev.T) / 6)
}

// Observe adds the step that ended at cur (the integrator's Current state after an
// accepted step). It always returns nil (the error is for integrate.SolveOptions.Observer).
//
// For a Conservative source it checks that the power at cur is zero (one evaluation, no
// interpolation) and panics otherwise: the source's Conservative disagrees with its power
// methods, a bug that would otherwise drop work silently.
func (wm *WorkMeter) Observe(cur *integrate.State) error {
	if wm.zero {
		if p := wm.power(cur); p != (Work{}) {
			panic(fmt.Sprintf("assembly: WorkMeter: %T reports Conservative, but its power at t = %g is %+v", wm.src, cur.T, p))
		}
	}
	wm.before = wm.total
	wm.total = wm.total.add(wm.simpson(wm.m.Previous(), cur.T))
	wm.end = cur.T
	return nil
}

// At returns the work from the start of the run to t, for t at or before the start or
// inside the step the integrator last took, observed or not (Simpson's rule from the step's
// start with the dense output).
func (wm *WorkMeter) At(t float64) Work {
	if t <= wm.t0 {
		return Work{}
	}
	prev := wm.m.Previous()
	base := wm.total
	if wm.end > prev.T { // Observe has seen this step already
		base = wm.before
	}
	return base.add(wm.simpson(prev, t))
}

// Total returns the work up to the last observed step.
func (wm *WorkMeter) Total() Work { return wm.total }
