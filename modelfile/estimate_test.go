package modelfile

import (
	"math"
	"testing"
)

// oscillatorModel is the 2D damped oscillator of TestWorkNCDamper (closed form in
// dampedOscillator), released from 0.7 m and run for 4 s (three periods).
const oscillatorModel = `bodies: [{name: block, mass: 2, inertia: 0.1}]
markers:
  - {name: rail, body: ground}
  - {name: b, body: block}
joints: [{name: slide, type: translational, i: rail, j: b}]
forces: [{name: sd, type: tsda, i: rail, j: b, k: 50, c: 2, free_length: 0.5}]
initial: {bodies: {block: {position: [0.7, 0]}}}
simulation: {t_end: 4, output_step: 0.05, outputs: [block.x, block.vx, energy]}
`

// TestEstimateError: on the damped oscillator, whose solution is known in closed form, the
// estimated global error of block.x and block.vx (worst over the output times and at
// t_end) is within 0.2× to 5× of the true error, for error-controlled hht and dopri5 and
// for fixed-step hht (Richardson with h/4). Before --estimate-error the user saw nothing of
// it: hht at tol 1e-5 ends ~1e-3 m away, 100 × tol. The reference's error is at most 1/20
// of the run's (estimate.go), so the ratio should lie within 0.95..1.05 (measured: within
// 6 %); the bound 0.5..2 is tighter than the 0.2..5 asked for and still leaves room for
// another step sequence.
func TestEstimateError(t *testing.T) {
	osc := dampedOscillator{m: 2, k: 50, c: 2, l0: 0.5, x0: 0.7}
	b := buildString(t, "oscillator.yaml", oscillatorModel)
	exact := map[string]func(t float64) float64{
		"block.x":  func(t float64) float64 { x, _ := osc.state(t); return x },
		"block.vx": func(t float64) float64 { _, v := osc.state(t); return v },
	}
	for _, c := range []struct {
		name string
		opt  RunOptions
	}{
		{"hht tol 1e-5", RunOptions{Method: "hht", Tol: 1e-5}},
		{"dopri5 tol 1e-6", RunOptions{Method: "dopri5", Tol: 1e-6}},
		{"hht h 0.01", RunOptions{Method: "hht", H: 0.01}},
	} {
		r := runExample(t, b, c.opt)
		est, err := EstimateError(b, r)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, ce := range est.Channels {
			f, ok := exact[ce.Channel]
			if !ok {
				continue
			}
			trueWorst, _ := maxDev(t, r, ce.Channel, f)
			x := r.Channel(ce.Channel)
			tEnd := r.Data[0][len(x)-1]
			trueEnd := math.Abs(x[len(x)-1] - f(tEnd))
			t.Logf("%s %s: worst estimated %.3g (t = %g), true %.3g; at t_end estimated %.3g, true %.3g",
				c.name, ce.Channel, ce.Worst, ce.WorstT, trueWorst, ce.AtEnd, trueEnd)
			for _, pair := range []struct {
				what      string
				est, true float64
			}{{"worst", ce.Worst, trueWorst}, {"at t_end", ce.AtEnd, trueEnd}} {
				if ratio := pair.est / pair.true; !(ratio >= 0.5 && ratio <= 2) {
					t.Errorf("%s %s: estimated error %s %.3g, true %.3g (ratio %.2g), want within 0.5..2×",
						c.name, ce.Channel, pair.what, pair.est, pair.true, ratio)
				}
			}
		}
	}
}
