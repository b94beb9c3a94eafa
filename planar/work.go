package planar

import "linkage/integrate"

// work.go: (accepted steps, dense output) ⇒ W_nc(t), W_driving(t), the integrals of the
// energy invariant Π = T + V − W_nc − W_driving of seed 001 (eq. 12), for any modeling route
// whose System splits its power as this package's does (spatial's too).
//
// Over each accepted step [t₀, t₁] the power is integrated by Simpson's rule with the
// method's dense output at the midpoint,
//
//	∫ P dτ ≈ (t₁ − t₀)/6 · (P(t₀) + 4 P((t₀+t₁)/2) + P(t₁)),
//
// whose error, O(h⁵ P⁗) per step, is far below the integration error of the state the
// power is evaluated on (the steps are chosen so that the state is accurate to tol).

// PowerSource splits d(T + V)/dt along a solution into the power of the non-conservative
// applied forces and that of the motions (energy.go); *System and *spatial.System
// implement it. λ is the full constraint vector's.
type PowerSource interface {
	NonConservativePower(t float64, q, v []float64) float64
	DrivingPower(t float64, q, lambda []float64) float64
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

// WorkMeter integrates the power of a PowerSource along a run and samples the work at given
// times. Pass Observe as (or call it from) integrate.SolveOptions.Observer; it does not
// allocate after the first step.
type WorkMeter struct {
	src    PowerSource
	m      DenseOutput
	expand func(dst, lambda []float64) // integrated λ → full λ; nil: the same vector
	times  []float64                   // sample times, increasing
	next   int                         // first sample time not yet reached
	w      []Work                      // W(times[k]) for k < next
	before Work                        // W at the start of the last accepted step
	total  Work                        // W at the last accepted step
	t0     float64                     // start of the last accepted step
	p0     Work                        // power at t0
	mid    integrate.State             // dense output scratch, sized at the first step
	lambda []float64                   // full λ
}

// NewWorkMeter returns a meter of src's work along the steps of m, sampled at times
// (increasing; times before the first step's start get zero work). nc is the length of
// src's full λ; expand maps the integrated system's λ to it (nil when they are the same,
// e.g. dae.ExpandLambda when redundant rows were dropped).
func NewWorkMeter(src PowerSource, nc int, expand func(dst, lambda []float64), m DenseOutput, times []float64) *WorkMeter {
	return &WorkMeter{src: src, m: m, expand: expand, times: times, w: make([]Work, len(times)), lambda: make([]float64, nc)}
}

// power returns the power split at a state of the integrated system.
func (wm *WorkMeter) power(s *integrate.State) Work {
	lambda := s.Lambda
	if wm.expand != nil {
		wm.expand(wm.lambda, s.Lambda)
		lambda = wm.lambda
	}
	return Work{wm.src.NonConservativePower(s.T, s.Q, s.V), wm.src.DrivingPower(s.T, s.Q, lambda)}
}

// powerAt returns the power at t in the last step, by dense output.
func (wm *WorkMeter) powerAt(t float64) Work {
	wm.m.Interpolate(&wm.mid, t)
	return wm.power(&wm.mid)
}

// simpson integrates the power over [t0, t] within the last step.
func (wm *WorkMeter) simpson(t float64) Work {
	if t <= wm.t0 {
		return Work{}
	}
	sum := wm.p0.add(wm.powerAt((wm.t0 + t) / 2).scale(4)).add(wm.powerAt(t))
	return sum.scale((t - wm.t0) / 6)
}

// Observe adds the step that ended at cur (the integrator's Current state after an
// accepted step) and records the work at the sample times it passed. It always returns
// nil (the error is for integrate.SolveOptions.Observer).
func (wm *WorkMeter) Observe(cur *integrate.State) error {
	prev := wm.m.Previous()
	if wm.mid.Q == nil {
		wm.mid = integrate.NewState(len(cur.Q), len(cur.Lambda))
		if cur.X != nil {
			wm.mid.X = make([]float64, len(cur.X))
		}
	}
	for wm.next < len(wm.times) && wm.times[wm.next] <= prev.T {
		wm.w[wm.next] = wm.total // times at or before the start of this step
		wm.next++
	}
	wm.before, wm.t0 = wm.total, prev.T
	wm.p0 = wm.power(prev)
	for wm.next < len(wm.times) && wm.times[wm.next] <= cur.T {
		wm.w[wm.next] = wm.At(wm.times[wm.next])
		wm.next++
	}
	wm.total = wm.before.add(wm.simpson(cur.T))
	return nil
}

// At returns the work at t within the last observed step (Simpson's rule from its start
// with the dense output), for a caller that samples as it goes.
func (wm *WorkMeter) At(t float64) Work { return wm.before.add(wm.simpson(t)) }

// Samples returns the work at every sample time (shared, not copied); times not yet
// reached by an observed step hold zero, which is right for those at the start.
func (wm *WorkMeter) Samples() []Work { return wm.w }

// Total returns the work up to the last observed step.
func (wm *WorkMeter) Total() Work { return wm.total }
