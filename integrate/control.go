package integrate

import (
	"fmt"
	"math"
)

// StepControl holds the knobs every method shares: tolerances, step-size bounds and
// limits. Zero fields take the defaults in brackets.
type StepControl struct {
	RTol, ATol float64 // error weights 1/(ATol + RTol·|y_i|) [1e-6, RTol]
	// ATolQ, when set, holds one absolute tolerance per coordinate (len nq; per variable
	// of y for a dae.LinearlyImplicit run), each finite and ≥ 0, 0 taking ATol: it
	// replaces ATol in the weights of every error component that belongs to coordinate i
	// (q_i, and v_i, a_i where a method's error vector holds them; λ, μ and X keep ATol).
	// Solve checks its length. multi-index, whose error control is the energy invariant,
	// refuses it. [nil: ATol everywhere]
	ATolQ     []float64
	H0        float64 // first step; 0 chooses one from the tolerances [Hairer-Nørsett-Wanner II.4 starting step]
	HMin      float64 // below it Step fails with ErrStepSizeTooSmall [1e-14·max(1, |t_0|, |t_end|), see defaultHMin]
	HMax      float64 // largest step [|t_end − t_0|]
	FixedH    float64 // > 0: fixed steps of this size (the last one shortened to hit t_end), no error test
	Safety    float64 // h_new = h·min(MaxGrow, max(MinShrink, Safety·e^(−1/(p+1)))) [0.9]
	MinShrink float64 // lower bound on h_new/h [0.2]
	MaxGrow   float64 // upper bound on h_new/h [5]
	MaxSteps  int     // attempts (accepted + rejected) per Solve before ErrMaxSteps [1e6]
}

// Default values of StepControl.
const (
	DefaultRTol      = 1e-6
	DefaultSafety    = 0.9 // seed 004, eq. 38; Hairer-Wanner use 0.9 as well
	DefaultMinShrink = 0.2
	DefaultMaxGrow   = 5.0
	DefaultMaxSteps  = 1000000
)

// Resolve returns c with zero fields replaced by their defaults for a run over
// [t0, tEnd], or an error naming the first field out of range.
func (c StepControl) Resolve(t0, tEnd float64) (StepControl, error) {
	span := math.Abs(tEnd - t0)
	for _, f := range []struct {
		name string
		v    float64
	}{{"RTol", c.RTol}, {"ATol", c.ATol}, {"H0", c.H0}, {"HMin", c.HMin}, {"HMax", c.HMax},
		{"FixedH", c.FixedH}, {"Safety", c.Safety}, {"MinShrink", c.MinShrink}, {"MaxGrow", c.MaxGrow}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return c, fmt.Errorf("integrate: StepControl.%s = %g, want a finite value >= 0", f.name, f.v)
		}
	}
	for i, a := range c.ATolQ {
		if a < 0 || math.IsNaN(a) || math.IsInf(a, 0) {
			return c, fmt.Errorf("integrate: StepControl.ATolQ[%d] = %g, want a finite value >= 0", i, a)
		}
	}
	if c.MaxSteps < 0 {
		return c, fmt.Errorf("integrate: StepControl.MaxSteps = %d, want >= 0", c.MaxSteps)
	}
	c.RTol = orDefault(c.RTol, DefaultRTol)
	c.ATol = orDefault(c.ATol, c.RTol)
	c.HMin = orDefault(c.HMin, defaultHMin(t0, tEnd))
	c.HMax = orDefault(c.HMax, span)
	c.Safety = orDefault(c.Safety, DefaultSafety)
	c.MinShrink = orDefault(c.MinShrink, DefaultMinShrink)
	c.MaxGrow = orDefault(c.MaxGrow, DefaultMaxGrow)
	c.MaxSteps = orDefault(c.MaxSteps, DefaultMaxSteps)
	if c.Safety > 1 {
		return c, fmt.Errorf("integrate: StepControl.Safety = %g outside (0, 1]", c.Safety)
	}
	if c.MinShrink >= 1 || c.MaxGrow <= 1 {
		return c, fmt.Errorf("integrate: StepControl.MinShrink = %g, MaxGrow = %g: want MinShrink < 1 < MaxGrow", c.MinShrink, c.MaxGrow)
	}
	if c.HMin > c.HMax {
		return c, fmt.Errorf("integrate: StepControl.HMin = %g exceeds HMax = %g", c.HMin, c.HMax)
	}
	return c, nil
}

// orDefault is x, or d when x is zero (the options' "zero takes the default").
func orDefault[T int | float64](x, d T) T {
	if x == 0 {
		return d
	}
	return x
}

// resolveForStep resolves c at the first Step of a method, whose Init does not know the end
// of the run: an infinite or empty span [t0, tEnd] counts as a unit span for the
// span-relative defaults (HMin, HMax). It returns the resolved control and the end used.
func (c StepControl) resolveForStep(method string, t0, tEnd float64) (StepControl, float64, error) {
	end := tEnd
	if math.IsInf(end, 0) || end == t0 {
		end = t0 + 1
	}
	r, err := c.Resolve(t0, end)
	if err != nil {
		return r, end, fmt.Errorf("integrate: %s: %w", method, err)
	}
	return r, end, nil
}

// defaultHMin is the default HMin of a run over [t0, tEnd]: 1e-14·max(1, |t0|, |t_end|),
// 45 to 90 times the float64 spacing of the largest |t| of the run. It is relative to t,
// not to the span, because a step must stay well above the spacing of t to move it at
// all: over [1e12, 1e12 + 1] a span-relative 1e-14 would be 1e4 times below the spacing
// 1.2e-4 there, and t + h would round back to t. The unit floor keeps runs near t = 0
// from steps that only rounding could tell apart.
func defaultHMin(t0, tEnd float64) float64 {
	return 1e-14 * timeScale(t0, tEnd)
}

func timeScale(t0, tEnd float64) float64 {
	return math.Max(1, math.Max(math.Abs(t0), math.Abs(tEnd)))
}

// describeHMin says what HMin was in a run over [t0, tEnd] and where its value came from,
// for the error of a step that fell below it.
func (c StepControl) describeHMin(t0, tEnd float64) string {
	if c.HMin > 0 {
		return fmt.Sprintf("HMin = %.3g s, from StepControl.HMin", c.HMin)
	}
	scale := timeScale(t0, tEnd)
	return fmt.Sprintf("HMin = %.3g s = 1e-14·max(1, |t0|, |t_end|), the default: the float64 spacing of t near %.3g is %.2g s, "+
		"so shorter steps could not be told apart; if the motion needs them, start the run nearer t = 0",
		defaultHMin(t0, tEnd), scale, math.Nextafter(scale, math.Inf(1))-scale)
}

// resolveAt validates c at the start of a run of n coordinates (variables for a
// dae.LinearlyImplicit run), for a method's Init: the length of ATolQ, and Resolve over a
// unit span (the span-dependent defaults come at the first Step).
func (c StepControl) resolveAt(t0 float64, n int) (StepControl, error) {
	if err := c.checkATolQ(n); err != nil {
		return c, err
	}
	return c.Resolve(t0, t0+1)
}

// checkATolQ checks that ATolQ, when set, has one entry for each of the n coordinates.
func (c *StepControl) checkATolQ(n int) error {
	if c.ATolQ != nil && len(c.ATolQ) != n {
		return fmt.Errorf("integrate: StepControl.ATolQ has %d entries, want one per coordinate (%d)", len(c.ATolQ), n)
	}
	return nil
}

// atolOf returns the absolute tolerance of component i of an error vector whose first
// blocks·nq components are coordinate-indexed blocks (q; q, v; q, v, a): ATolQ[i mod nq]
// when set and nonzero, else ATol (also for the components beyond, λ, μ or X).
func (c *StepControl) atolOf(i, nq, blocks int) float64 {
	if c.ATolQ == nil || i >= blocks*nq {
		return c.ATol
	}
	if a := c.ATolQ[i%nq]; a != 0 {
		return a
	}
	return c.ATol
}
