package modelfile

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// TestRunStreamsRows (issue 13, item 2): with a row sink, every output row reaches the sink
// as it is made, equal bit for bit to the in-memory run; the Result keeps only t and the
// channels asked for in Keep, and the Solution no samples.
func TestRunStreamsRows(t *testing.T) {
	b := loadExample(t, "slider-crank")
	full := runExample(t, b, RunOptions{TEnd: 0.1})
	var rows [][]float64
	sink := func(row []float64) error {
		rows = append(rows, append([]float64(nil), row...))
		return nil
	}
	got := runExample(t, b, RunOptions{TEnd: 0.1, Rows: sink, Keep: []string{"rod.x"}})
	if len(rows) != len(full.Data[0]) || got.Samples != len(rows) {
		t.Fatalf("%d rows streamed (Samples %d), want %d", len(rows), got.Samples, len(full.Data[0]))
	}
	for k, row := range rows {
		if len(row) != len(full.Channels) {
			t.Fatalf("row %d has %d values, want %d channels", k, len(row), len(full.Channels))
		}
		for c := range row {
			if row[c] != full.Data[c][k] && !(math.IsNaN(row[c]) && math.IsNaN(full.Data[c][k])) {
				t.Errorf("row %d, %s = %v, in-memory run %v", k, full.Channels[c], row[c], full.Data[c][k])
			}
		}
	}
	if len(got.Solution.T) != 0 {
		t.Errorf("Solution kept %d samples, want none", len(got.Solution.T))
	}
	if got.Channel("t") == nil || got.Channel("rod.x") == nil || got.Channel("crank.theta") != nil {
		t.Errorf("kept channels: t %v, rod.x %v, crank.theta %v; want only t and rod.x",
			got.Channel("t") != nil, got.Channel("rod.x") != nil, got.Channel("crank.theta") != nil)
	}
	if got.EnergyDrift != full.EnergyDrift || got.EnergyScale != full.EnergyScale {
		t.Errorf("energy drift %g of %g streamed, %g of %g in memory", got.EnergyDrift, got.EnergyScale, full.EnergyDrift, full.EnergyScale)
	}
}

// TestRunStreamingMemoryIsBounded (issue 13, item 2): 100 001 rows streamed to a sink that
// drops them leave the heap as it was after the first thousand; kept in memory they would
// take 12 MB of channels plus the samples.
func TestRunStreamingMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("100 001 output rows")
	}
	b := loadExample(t, "slider-crank")
	b.Doc.Model.Simulation.OutputStep = 1e-6 // 100 000 intervals over [0, 0.1]
	var before, after runtime.MemStats
	n := 0
	sink := func(row []float64) error {
		if n++; n == 1000 {
			runtime.GC()
			runtime.ReadMemStats(&before)
		}
		return nil
	}
	r := runExample(t, b, RunOptions{TEnd: 0.1, Rows: sink})
	runtime.GC()
	runtime.ReadMemStats(&after)
	if n != 100001 || r.Samples != n {
		t.Fatalf("%d rows streamed, Samples %d; want 100001", n, r.Samples)
	}
	// 1 MB covers the run's own workspace and GC noise; storing would take 8 bytes per
	// value: 100 001 rows × 15 channels = 12 MB.
	if grow := int64(after.HeapAlloc) - int64(before.HeapAlloc); grow > 1<<20 {
		t.Errorf("heap grew by %d bytes over 99 001 streamed rows, want < 1 MB", grow)
	}
}

// TestRunRefusesAbsurdOutputStep (issue 13, item 2): too many output rows are refused
// before the first step, with their number, the limit and the smallest output_step allowed.
func TestRunRefusesAbsurdOutputStep(t *testing.T) {
	b := loadExample(t, "slider-crank")
	b.Doc.Model.Simulation.OutputStep = 1e-12
	r, err := Run(b, RunOptions{})
	if err == nil || r != nil {
		t.Fatalf("Run = (%v, %v), want no run and an error", r, err)
	}
	for _, want := range []string{"simulation.output_step: output_step = 1e-12", "5e+11 rows", "limit of 10000000", "output_step >= 5.1e-08"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

// TestRunTolRange (issue 13, items 8 and 14): tolerances outside [MinTol, MaxTol] are
// refused before the run, naming their source and why.
func TestRunTolRange(t *testing.T) {
	b := loadExample(t, "slider-crank")
	for _, c := range []struct {
		file, opt float64
		want      string
	}{
		{10, 0, "simulation.tol: tol = 10 is above 0.1"},
		{1e-20, 0, "simulation.tol: tol = 1e-20 is below 1e-14, below what double precision can resolve"},
		{1e-6, 0.5, "RunOptions.Tol = 0.5 is above 0.1"},
	} {
		b.Doc.Model.Simulation.Tol = c.file
		r, err := Run(b, RunOptions{Tol: c.opt})
		if err == nil || r != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("tol %g/%g: Run = (%v, %v), want no run and %q", c.file, c.opt, r, err, c.want)
		}
	}
}

// TestRunMaxSteps (issue 13, item 15): the step cap comes from RunOptions.MaxSteps or
// simulation.max_steps; hitting it says the limit and how to raise it.
func TestRunMaxSteps(t *testing.T) {
	b := loadExample(t, "slider-crank")
	_, err := Run(b, RunOptions{MaxSteps: 4})
	if !errors.Is(err, integrate.ErrMaxSteps) || !strings.Contains(err.Error(), "stopped at the step limit max_steps = 4; raise it with --max-steps or simulation.max_steps") {
		t.Errorf("err = %v, want ErrMaxSteps with the limit 4 and how to raise it", err)
	}
	b.Doc.Model.Simulation.MaxSteps = 6
	r, err := Run(b, RunOptions{})
	if !errors.Is(err, integrate.ErrMaxSteps) || r == nil || !strings.Contains(err.Error(), "max_steps = 6;") {
		t.Errorf("simulation.max_steps = 6: err = %v, want ErrMaxSteps at the limit 6", err)
	}
}

// TestFixedStepWarnings (issue 13, item 8): a fixed-step run whose energy invariant drifts
// by more than FixedStepMaxDrift of the energy exchanged carries a warning in its summary;
// an error-controlled run is not judged.
func TestFixedStepWarnings(t *testing.T) {
	b := loadExample(t, "stiff-double-pendulum")
	r := runExample(t, b, RunOptions{Method: "rk4", H: 0.008})
	s := r.Summarize(&b.Doc.Model, nil)
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "energy drift") {
		t.Errorf("warnings %q, want one on the energy drift (%.3g of %.3g J)", s.Warnings, r.EnergyDrift, r.EnergyScale)
	}
	r = runExample(t, b, RunOptions{TEnd: 0.1})
	if s := r.Summarize(&b.Doc.Model, nil); len(s.Warnings) != 0 {
		t.Errorf("error-controlled run warned: %q", s.Warnings)
	}
}

// TestSampleNoAlloc (issue 13, item 2): computing an output row (channels, energies,
// residuals, work) allocates nothing, so a streamed run's memory does not grow with rows.
func TestSampleNoAlloc(t *testing.T) {
	b := loadExample(t, "slider-crank")
	e, _ := integrate.Lookup("hht")
	m, _ := e.NewMethod("")
	if err := m.Init(b.Integrated, b.Start.Clone(), integrate.StepControl{RTol: 1e-6, ATol: 1e-6}); err != nil {
		t.Fatal(err)
	}
	wm := b.workMeter(m)
	r := &Result{}
	rc := newRecorder(b, r, nil)
	for range 3 {
		if err := m.Step(1); err != nil {
			t.Fatal(err)
		}
	}
	cur := m.Current()
	if n := testing.AllocsPerRun(20, func() { rc.measure(cur, wm.At(cur.T)) }); n != 0 {
		t.Errorf("an output row allocates %v times, want 0", n)
	}
}

// TestRunKinematicSamples (issue 15): rows streamed from dopri5 whose channels read
// positions and velocities alone are the in-memory run's bit for bit, made without eq. 17
// at the samples between steps (one evaluation fewer each); a channel that reads the
// accelerations or the multipliers (rod.ax, the slider's reaction) turns the shortcut off
// and still gets them, equal to the in-memory run's.
func TestRunKinematicSamples(t *testing.T) {
	b := loadExample(t, "slider-crank")
	sim := &b.Doc.Model.Simulation
	sim.Plot = []string{"rod.x"}
	for _, c := range []struct {
		outputs   []string
		kinematic bool
	}{
		{[]string{"crank.theta", "crank.omega", "rod.x", "rod.vy", "rod.B.x", "rod.B.vy", "energy", "residual.position", "residual.velocity"}, true},
		{[]string{"crank.theta", "rod.x", "rod.ax", "energy"}, false},
		{[]string{"crank.theta", "slider.fy"}, false},
		{[]string{"rod.x", "residual"}, false},
	} {
		sim.Outputs = c.outputs
		opt := RunOptions{Method: "dopri5", Tol: 1e-6, TEnd: 0.1}
		full := runExample(t, b, opt)
		var rows [][]float64
		opt.Rows = func(row []float64) error {
			rows = append(rows, append([]float64(nil), row...))
			return nil
		}
		got := runExample(t, b, opt)
		if len(rows) != len(full.Data[0]) || len(rows) != 21 {
			t.Fatalf("%v: %d rows streamed, %d in memory, want 21", c.outputs, len(rows), len(full.Data[0]))
		}
		for k, row := range rows {
			for i, v := range row {
				if math.Float64bits(v) != math.Float64bits(full.Data[i][k]) || math.IsNaN(v) {
					t.Errorf("%v: row %d, %s = %v streamed, %v in memory", c.outputs, k, full.Channels[i], v, full.Data[i][k])
				}
			}
		}
		fewer := full.Solution.Stats.FuncEvals - got.Solution.Stats.FuncEvals
		want := 0
		if c.kinematic {
			want = len(rows) - 2 // the start and t_end are the method's own states
		}
		if fewer != want || got.Solution.Stats.Steps != full.Solution.Stats.Steps {
			t.Errorf("%v: %d evaluations fewer streamed (steps %d, %d), want %d", c.outputs, fewer, got.Solution.Stats.Steps, full.Solution.Stats.Steps, want)
		}
	}
}

// TestKinematicChannel: the channels that read t, q, v alone, by name; anything else,
// a name it does not know included, counts as reading a or λ.
func TestKinematicChannel(t *testing.T) {
	bodies, markers := map[string]bool{"rod": true}, map[string]bool{"rod.B": true}
	for name, want := range map[string]bool{
		"t": true, "energy": true, "energy.kinetic": true, "energy.work_nc": true, "residual.position": true, "residual.velocity": true,
		"rod.x": true, "rod.z": true, "rod.theta": true, "rod.p3": true, "rod.vy": true, "rod.omega": true, "rod.wz": true, "rod.B.x": true, "rod.B.vz": true,
		"residual": false, "residual.acceleration": false, "rod.ax": false, "rod.az": false, "rod.alpha": false, "rod.strain_energy": false, "rod.u1": false,
		"rod.B.ax": false, "slider.fy": false, "slider.lambda": false, "spring.length": false, "rod.A.x": false, "other": false,
	} {
		if got := kinematicChannel(name, bodies, markers); got != want {
			t.Errorf("kinematicChannel(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestResidualChannels (issue 15): the recorder measures the constraint residuals only
// for a residual channel; then each sample's residual.position, .velocity and
// .acceleration are a residual meter's ‖g‖∞, ‖G v + g_t‖∞ and ‖G a − γ‖∞ at that sample's
// state, bit for bit, and they are not all zero (the rounding of the run).
func TestResidualChannels(t *testing.T) {
	b := loadExample(t, "slider-crank")
	sim := &b.Doc.Model.Simulation
	sim.Plot = nil
	sim.Outputs = []string{"rod.x", "energy"}
	if rc := newRecorder(b, &Result{}, nil); rc.meter != nil {
		t.Errorf("no residual channel among %v, yet the recorder has a residual meter", rc.names)
	}
	sim.Outputs = []string{"rod.x", "residual.position", "residual.velocity", "residual.acceleration"}
	r := runExample(t, b, RunOptions{Method: "hht", Tol: 1e-6, TEnd: 0.1})
	sol := r.Solution
	meter := dae.NewResidualMeter(dae.WithPfaffianRows(b.Full()))
	var largest float64
	for k := range sol.T {
		want := meter.Measure(sol.T[k], sol.Q[k], sol.V[k], sol.A[k])
		for i, w := range []float64{want.Pos, want.Vel, want.Acc} {
			got := r.Channel(sim.Outputs[i+1])[k]
			if math.Float64bits(got) != math.Float64bits(w) {
				t.Errorf("t = %g: %s = %v, want %v", sol.T[k], sim.Outputs[i+1], got, w)
			}
			largest = math.Max(largest, got)
		}
	}
	if len(sol.T) < 10 || !(largest > 0) {
		t.Errorf("%d samples, largest residual %v: want at least 10 samples and a nonzero residual", len(sol.T), largest)
	}
}
