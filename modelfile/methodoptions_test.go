package modelfile

import (
	"strings"
	"testing"
)

// TestMethodOptionsReachRun: hht's α set through RunOptions (as --method-option does) and
// through simulation.method_options changes the run as the numerical damping says it must:
// at a fixed step on A01's pendulum (a 90° swing, 19.6 J exchanged) α = −0.05 keeps the
// energy closer than the default α = −0.3 (measured over 10 s: 9.4e-3 J against 1.36e-2 J),
// and the run reports the α it used.
func TestMethodOptionsReachRun(t *testing.T) {
	b := loadExample(t, "iftomm/a01-pendulum")
	opt := RunOptions{Method: "hht", H: 0.01, TEnd: 10}
	def := runExample(t, b, opt)
	opt.MethodOptions = map[string]float64{"alpha": -0.05}
	light := runExample(t, b, opt)
	t.Logf("energy drift: alpha -0.3 %.3g J, alpha -0.05 %.3g J", def.EnergyDrift, light.EnergyDrift)
	if !(light.EnergyDrift < 0.8*def.EnergyDrift) {
		t.Errorf("alpha -0.05 drifts %.3g J, not below 0.8 × the default's %.3g J", light.EnergyDrift, def.EnergyDrift)
	}
	var sb strings.Builder
	light.Summarize(&b.Doc.Model, nil).WriteText(&sb)
	if !strings.Contains(sb.String(), "hht (index3, alpha -0.05), fixed h 0.01") {
		t.Errorf("summary does not show the α used:\n%s", sb.String())
	}

	// The file's option is used, the flag's overrides it, another method drops it.
	b.Doc.Model.Simulation.Method = "hht"
	b.Doc.Model.Simulation.MethodOptions = map[string]float64{"alpha": -0.05}
	fromFile := runExample(t, b, RunOptions{H: 0.01, TEnd: 10})
	if fromFile.Options["alpha"] != -0.05 || fromFile.EnergyDrift != light.EnergyDrift {
		t.Errorf("file option: options %v, drift %g; want alpha -0.05 and drift %g", fromFile.Options, fromFile.EnergyDrift, light.EnergyDrift)
	}
	over := runExample(t, b, RunOptions{H: 0.01, TEnd: 10, MethodOptions: map[string]float64{"alpha": -0.3}})
	if over.EnergyDrift != def.EnergyDrift {
		t.Errorf("flag alpha -0.3 over the file's -0.05: drift %g, want the default's %g", over.EnergyDrift, def.EnergyDrift)
	}
	other := runExample(t, b, RunOptions{Method: "genalpha", H: 0.01, TEnd: 1})
	if other.Options != nil {
		t.Errorf("genalpha run took the file's hht options %v", other.Options)
	}
}
