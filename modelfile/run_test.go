package modelfile

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"

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
