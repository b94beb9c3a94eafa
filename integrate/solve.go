package integrate

import (
	"errors"
	"fmt"
	"math"
	"time"

	"linkage/dae"
)

// SolveOptions configure Solve.
type SolveOptions struct {
	Control StepControl // tolerances, step bounds, fixed step; passed to Method.Init
	// Output lists the times at which to record the solution, strictly increasing within
	// [start.T, tEnd]; they are filled by the method's dense output. nil (and no
	// OutputStep) records the start and every accepted step.
	Output []float64
	// OutputStep > 0 records on the uniform grid start.T + k·OutputStep below tEnd, then at
	// tEnd (see OutputSamples), without a list of the times; it excludes Output.
	OutputStep float64
	// Sample, when set, receives every recorded sample as it is made, instead of the
	// Solution keeping it (its sample fields stay nil), so memory does not grow with the
	// number of samples. The state is read only and reused for the next sample. A non-nil
	// return stops the run; Solve then returns the partial Solution and that error.
	Sample func(s *State) error
	// Observer, when set, is called after every accepted step with the current state (read
	// only; it changes with the next step), after the samples of that step. A non-nil
	// return stops the run; Solve then returns the partial Solution and that error.
	Observer func(s *State) error
	// KinematicSamples says that the samples are read for t, q, v and X alone: a method
	// that is a KinematicInterpolator then fills them by InterpolateKinematics, skipping
	// the accelerations and multipliers its Interpolate would solve for (eq. 17 at each
	// sample for dopri5), and leaves A and λ of the samples between steps NaN. Samples at
	// a step's end are the method's state, complete. Set it only when no reader of the
	// samples needs a or λ; Solution's kept samples then hold NaN there as well.
	KinematicSamples bool
}

// OutputSamples returns the number of samples of the grid t0 + k·step below tEnd, then
// tEnd, that SolveOptions.OutputStep records: ⌈(tEnd − t0)/step − 1e-9⌉ + 1, where the
// 1e-9 keeps a span that is a whole number of steps up to rounding from gaining a last
// interval of a few ulps. It is a float64 so that absurd grids can be counted and refused.
func OutputSamples(t0, tEnd, step float64) float64 {
	return gridIntervals(t0, tEnd, step) + 1
}

func gridIntervals(t0, tEnd, step float64) float64 {
	return math.Max(0, math.Ceil((tEnd-t0)/step-1e-9))
}

// outputTimes walks the output times of a run: the Output list, or the OutputStep grid
// (times computed as t0 + k·step, not accumulated, so they do not drift).
type outputTimes struct {
	list          []float64
	t0, step, end float64
	n             float64 // grid intervals
	k             int     // index of the next time
}

// peek returns the next output time, or false when all have been recorded.
func (o *outputTimes) peek() (float64, bool) {
	if o.list != nil {
		if o.k < len(o.list) {
			return o.list[o.k], true
		}
		return 0, false
	}
	switch k := float64(o.k); {
	case k < o.n:
		return o.t0 + k*o.step, true
	case k == o.n:
		return o.end, true
	}
	return 0, false
}

// Solution is the result of Solve: the recorded samples, the final state, the work and the
// constraint residuals met along the way.
type Solution struct {
	Method string // the name Solve was given

	T               []float64   // sample times
	Q, V, A, Lambda [][]float64 // samples: Q[i] is q at T[i]
	X               [][]float64 // samples of the first-order states (nil for a system without them)

	Final State // the last accepted state

	Stats Stats
	// MaxResidual is the maximum over accepted steps of the constraint residuals ‖g‖∞,
	// ‖G v + g_t‖∞ and ‖G a − γ‖∞ (seed 002, eq. 19), measured by dae.ResidualMeter; the
	// last two include the nonholonomic rows ‖A v + b‖∞ and ‖A a − γ_A‖∞ (dae.Nonholonomic).
	MaxResidual dae.ConstraintResiduals
	Wall        time.Duration // wall-clock time of the run, Init included
	// Setup is the part of Wall spent before the first step: the method's Init (pattern
	// analysis, workspace, first factorizations) and the residual meter.
	Setup time.Duration
}

// Solve integrates sys from start to tEnd with m (named name in the Solution): it calls
// m.Init, steps until tEnd, records the samples asked for in opt.Output or opt.OutputStep
// (or every step), keeping them or handing them to opt.Sample, measures the constraint
// residuals after every accepted step and calls opt.Observer.
//
// On a failed step it returns the partial Solution (samples up to the last accepted
// step, Final, Stats, MaxResidual) together with the error (wrapping the *StepError of the
// method; below HMin the error also says what HMin was and where it came from).
// Bad output times or tEnd before start.T give an error naming them, and a nil Solution.
//
// The steps themselves do not allocate; keeping a sample allocates its copies of q, v,
// a and λ (and grows the sample slices); handing it to opt.Sample does not.
func Solve(m Method, name string, sys dae.System, start State, tEnd float64, opt SolveOptions) (*Solution, error) {
	var meter *dae.ResidualMeter
	init := func() error {
		if err := m.Init(sys, start, opt.Control); err != nil {
			return err
		}
		// G on its pattern for a SparseEvaluator; with nonholonomic constraints the
		// velocity and acceleration residuals include A v + b and A a − γ_A.
		meter = dae.NewResidualMeter(dae.WithPfaffianRows(sys))
		return nil
	}
	measure := func(s *State) dae.ConstraintResiduals { return meter.Measure(s.T, s.Q, s.V, s.A) }
	return drive(m, name, start.T, tEnd, opt, init, measure)
}

// drive is the loop of Solve and SolveImplicit: init starts m, then steps to tEnd
// recording samples; measure (nil: none) gives the constraint residuals of each accepted
// state.
func drive(m Method, name string, t0, tEnd float64, opt SolveOptions, init func() error, measure func(*State) dae.ConstraintResiduals) (*Solution, error) {
	if math.IsNaN(tEnd) || math.IsInf(tEnd, 0) || tEnd < t0 {
		return nil, fmt.Errorf("integrate: Solve: tEnd = %g, want a finite time >= start.T = %g", tEnd, t0)
	}
	times, err := newOutputTimes(opt, t0, tEnd)
	if err != nil {
		return nil, err
	}
	begin := time.Now()
	sol := &Solution{Method: name, MaxResidual: dae.ConstraintResiduals{WorstPos: -1}}
	if err := init(); err != nil {
		return nil, err
	}
	sol.Setup = time.Since(begin)
	cur := m.Current()
	interpolate := m.Interpolate
	if ki, ok := m.(KinematicInterpolator); ok && opt.KinematicSamples {
		interpolate = ki.InterpolateKinematics
	}
	var sample State
	if times != nil {
		sample = cur.Clone()
	}
	record := func(s *State) error {
		if opt.Sample != nil {
			if err := opt.Sample(s); err != nil {
				return fmt.Errorf("integrate: Solve: sample at t=%g: %w", s.T, err)
			}
			return nil
		}
		c := s.Clone()
		sol.T = append(sol.T, c.T)
		sol.Q = append(sol.Q, c.Q)
		sol.V = append(sol.V, c.V)
		sol.A = append(sol.A, c.A)
		sol.Lambda = append(sol.Lambda, c.Lambda)
		if c.X != nil {
			sol.X = append(sol.X, c.X)
		}
		return nil
	}
	// emit records the output times reached by the last step (all of them when there are
	// no output times: the current state).
	emit := func() error {
		if times == nil {
			return record(cur)
		}
		for t, ok := times.peek(); ok && t <= cur.T; t, ok = times.peek() {
			s := cur
			if t != cur.T {
				interpolate(&sample, t)
				s = &sample
			}
			if err := record(s); err != nil {
				return err
			}
			times.k++
		}
		return nil
	}
	finish := func(err error) (*Solution, error) {
		sol.Final = cur.Clone()
		sol.Stats = m.Stats()
		sol.Wall = time.Since(begin)
		if errors.Is(err, ErrStepSizeTooSmall) {
			err = fmt.Errorf("%w (%s)", err, opt.Control.describeHMin(t0, tEnd))
		}
		return sol, err
	}

	if err := emit(); err != nil {
		return finish(err)
	}
	for cur.T < tEnd {
		if err := m.Step(tEnd); err != nil {
			return finish(err)
		}
		cur = m.Current()
		if measure != nil {
			sol.MaxResidual = sol.MaxResidual.Max(measure(cur))
		}
		if err := emit(); err != nil {
			return finish(err)
		}
		if opt.Observer != nil {
			if err := opt.Observer(cur); err != nil {
				return finish(fmt.Errorf("integrate: Solve: observer stopped the run at t=%g: %w", cur.T, err))
			}
		}
	}
	return finish(nil)
}

// newOutputTimes checks the output times of opt for a run over [t0, tEnd]; nil means
// every step.
func newOutputTimes(opt SolveOptions, t0, tEnd float64) (*outputTimes, error) {
	switch {
	case opt.OutputStep != 0 && opt.Output != nil:
		return nil, fmt.Errorf("integrate: Solve: both Output (%d times) and OutputStep = %g given; want one", len(opt.Output), opt.OutputStep)
	case opt.OutputStep != 0:
		if !(opt.OutputStep > 0) || math.IsInf(opt.OutputStep, 0) {
			return nil, fmt.Errorf("integrate: Solve: OutputStep = %g, want a finite step > 0", opt.OutputStep)
		}
		return &outputTimes{t0: t0, step: opt.OutputStep, end: tEnd, n: gridIntervals(t0, tEnd, opt.OutputStep)}, nil
	case opt.Output == nil:
		return nil, nil
	}
	for i, t := range opt.Output {
		if !(t >= t0 && t <= tEnd) {
			return nil, fmt.Errorf("integrate: Solve: Output[%d] = %g outside [%g, %g]", i, t, t0, tEnd)
		}
		if i > 0 && !(t > opt.Output[i-1]) {
			return nil, fmt.Errorf("integrate: Solve: Output[%d] = %g not after Output[%d] = %g; want strictly increasing times",
				i, t, i-1, opt.Output[i-1])
		}
	}
	return &outputTimes{list: opt.Output}, nil
}
