package modelfile

import (
	"path/filepath"
	"strings"
	"testing"

	"linkage/assembly"
	"linkage/integrate"
)

// countingOutput counts the dense-output interpolations a WorkMeter asks for.
type countingOutput struct {
	assembly.DenseOutput
	n int
}

func (c *countingOutput) Interpolate(dst *integrate.State, t float64) {
	c.n++
	c.DenseOutput.Interpolate(dst, t)
}

// powerOnly hides a source's Conservative, so that its meter integrates every power (the
// friction's through ReactionPower, 0 for a source without it).
type powerOnly struct{ assembly.PowerSource }

func (p powerOnly) ReactionPower(t float64, q, v, lambda []float64) float64 {
	if r, ok := p.PowerSource.(assembly.ReactionPowerSource); ok {
		return r.ReactionPower(t, q, v, lambda)
	}
	return 0
}

// TestWorkMeterSkipOnExamples: on every example (each route) run by dopri5 over 0.05 s,
// the work meter reports the same numbers, bit for bit, at every output time and step as
// a meter that integrates every power; it interpolates nothing where the mechanism is
// Conservative (then the work is 0), and as often as that meter elsewhere. Examples with
// dampers, motions, friction or forces outside a potential must not be Conservative, and
// the chains (springs and gravity alone) must be.
func TestWorkMeterSkipOnExamples(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	conservative := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		b := loadExample(t, name)
		if b.Doc.Model.Rotations == RotationsLieGroup {
			continue // integrated on the group (Run), not by dopri5 on b.Integrated
		}
		src := b.powerSource()
		c, ok := src.(assembly.Conservative)
		conservative[name] = ok && c.Conservative()
		e, err := integrate.Lookup("dopri5")
		if err != nil {
			t.Fatal(err)
		}
		meth := e.New()
		_, nc := b.Size()
		skip, full := &countingOutput{DenseOutput: meth}, &countingOutput{DenseOutput: meth}
		wSkip := assembly.NewWorkMeter(src, nc, b.FullLambda, skip, b.Start.T)
		wFull := assembly.NewWorkMeter(powerOnly{src}, nc, b.FullLambda, full, b.Start.T)
		var worst float64
		sample := func(s *integrate.State) error {
			a, w := wSkip.At(s.T), wFull.At(s.T)
			if a != w {
				t.Errorf("%s: t = %g: W = %+v with the skip, %+v without", name, s.T, a, w)
			}
			worst = max(worst, abs(w.NonConservative)+abs(w.Driving))
			return nil
		}
		observe := func(s *integrate.State) error {
			wSkip.Observe(s)
			return wFull.Observe(s)
		}
		_, err = integrate.Solve(meth, "dopri5", b.Integrated, b.Start.Clone(), b.Start.T+0.05, integrate.SolveOptions{
			Control: integrate.StepControl{RTol: 1e-6, ATol: 1e-6}, OutputStep: 0.01, Sample: sample, Observer: observe})
		if err != nil {
			t.Logf("%s: not run by dopri5: %v", name, err)
			continue
		}
		if wSkip.Total() != wFull.Total() {
			t.Errorf("%s: Total %+v with the skip, %+v without", name, wSkip.Total(), wFull.Total())
		}
		switch {
		case full.n == 0:
			t.Errorf("%s: no interpolation without the skip: the meter was not exercised", name)
		case conservative[name] && (skip.n != 0 || worst != 0):
			t.Errorf("%s: Conservative, but %d interpolations and largest |W| %g", name, skip.n, worst)
		case !conservative[name] && skip.n != full.n:
			t.Errorf("%s: not Conservative, %d interpolations against %d without the skip", name, skip.n, full.n)
		}
	}
	for name, want := range map[string]bool{"chain-bars": true, "chain3d": true, "double-pendulum": true, "four-bar-joint": false,
		"andrews": false, "joint-friction": false, "stiff-chain": false, "simeon-crank": false} {
		if got, ok := conservative[name]; !ok || got != want {
			t.Errorf("%s: Conservative %v (checked %v), want %v", name, got, ok, want)
		}
	}
	t.Logf("Conservative: %v", conservative)
}

func abs(x float64) float64 { return max(x, -x) }
