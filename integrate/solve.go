package integrate

import (
	"fmt"
	"math"
	"time"

	"linkage/dae"
)

// SolveOptions configure Solve.
type SolveOptions struct {
	Control StepControl // tolerances, step bounds, fixed step; passed to Method.Init
	// Output lists the times at which to record the solution, strictly increasing within
	// [start.T, tEnd]; they are filled by the method's dense output. nil records the start
	// and every accepted step.
	Output []float64
	// Observer, when set, is called after every accepted step with the current state (read
	// only; it changes with the next step). A non-nil return stops the run; Solve then
	// returns the partial Solution and that error.
	Observer func(s *State) error
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
	// ‖G v + g_t‖∞ and ‖G a − γ‖∞ (seed 002, eq. 19), measured by dae.ResidualMeter.
	MaxResidual dae.ConstraintResiduals
	Wall        time.Duration // wall-clock time of the run, Init included
}

// Solve integrates sys from start to tEnd with m (named name in the Solution): it calls
// m.Init, steps until tEnd, records the samples asked for in opt.Output (or every step),
// measures the constraint residuals after every accepted step and calls opt.Observer.
//
// On a failed step it returns the partial Solution (samples up to the last accepted
// step, Final, Stats, MaxResidual) together with the error (a *StepError from the method).
// Bad Output times or tEnd before start.T give an error naming them, and a nil Solution.
//
// The steps themselves do not allocate; recording a sample allocates its copies of q, v,
// a and λ (and grows the sample slices).
func Solve(m Method, name string, sys dae.System, start State, tEnd float64, opt SolveOptions) (*Solution, error) {
	t0 := start.T
	if math.IsNaN(tEnd) || math.IsInf(tEnd, 0) || tEnd < t0 {
		return nil, fmt.Errorf("integrate: Solve: tEnd = %g, want a finite time >= start.T = %g", tEnd, t0)
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
	begin := time.Now()
	sol := &Solution{Method: name, MaxResidual: dae.ConstraintResiduals{WorstPos: -1}}
	if err := m.Init(sys, start, opt.Control); err != nil {
		return nil, err
	}
	meter := dae.NewResidualMeter(sys)
	cur := m.Current()
	var sample State
	if opt.Output != nil {
		sample = NewState(len(cur.Q), len(cur.Lambda))
		if cur.X != nil {
			sample.X = make([]float64, len(cur.X))
		}
	}
	next := 0 // index of the next Output time
	record := func(s *State) {
		c := s.Clone()
		sol.T = append(sol.T, c.T)
		sol.Q = append(sol.Q, c.Q)
		sol.V = append(sol.V, c.V)
		sol.A = append(sol.A, c.A)
		sol.Lambda = append(sol.Lambda, c.Lambda)
		if c.X != nil {
			sol.X = append(sol.X, c.X)
		}
	}
	// emit records the Output times reached by the last step (all of them when there is
	// no Output list: the current state).
	emit := func() {
		if opt.Output == nil {
			record(cur)
			return
		}
		for next < len(opt.Output) && opt.Output[next] <= cur.T {
			if t := opt.Output[next]; t == cur.T {
				record(cur)
			} else {
				m.Interpolate(&sample, t)
				record(&sample)
			}
			next++
		}
	}
	finish := func(err error) (*Solution, error) {
		sol.Final = cur.Clone()
		sol.Stats = m.Stats()
		sol.Wall = time.Since(begin)
		return sol, err
	}

	emit()
	for cur.T < tEnd {
		if err := m.Step(tEnd); err != nil {
			return finish(err)
		}
		cur = m.Current()
		sol.MaxResidual = sol.MaxResidual.Max(meter.Measure(cur.T, cur.Q, cur.V, cur.A))
		emit()
		if opt.Observer != nil {
			if err := opt.Observer(cur); err != nil {
				return finish(fmt.Errorf("integrate: Solve: observer stopped the run at t=%g: %w", cur.T, err))
			}
		}
	}
	return finish(nil)
}
