package sweep

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const pendulum = "../examples/stiff-double-pendulum.yaml"

func parseSweep(t *testing.T, text string) (*Spec, error) {
	t.Helper()
	model, err := os.ReadFile(pendulum)
	if err != nil {
		t.Fatal(err)
	}
	return Parse("../examples/s.yaml", []byte("model: stiff-double-pendulum.yaml\nt_end: 0.02\n"+text), model)
}

// TestBadSweepsRefusedBeforeAnyRun: every mistake is refused by Parse or by Execute's
// value check, naming the sweep file's line and the path, and no part file is written.
func TestBadSweepsRefusedBeforeAnyRun(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"missing path", "parameters:\n  - {path: forces.spring1.kk, values: [1]}\n",
			"s.yaml:4: parameters[0]: forces.spring1.kk = 1 is refused by the model: ../examples/stiff-double-pendulum.yaml:24:6: forces[0].kk: unknown key \"kk\""},
		{"missing item", "parameters:\n  - {path: forces.spring9.k, values: [1]}\n",
			"no item named spring9 in forces of model"},
		{"missing section", "parameters:\n  - {path: nothing.k, values: [1]}\n",
			"s.yaml:4: parameters[0].path: no value nothing in model ../examples/stiff-double-pendulum.yaml; the top level has name, description"},
		{"not a scalar", "parameters:\n  - {path: forces.spring1, values: [1]}\n",
			"forces.spring1 in model ../examples/stiff-double-pendulum.yaml is a mapping"},
		{"string for a number", "parameters:\n  - {path: forces.spring1.k, values: [1, stiff]}\n",
			"s.yaml:4: parameters[0].values[1]: forces.spring1.k: the string \"stiff\" where the model has the number 1.0e4"},
		{"boolean", "parameters:\n  - {path: forces.spring1.k, values: [true]}\n",
			"forces.spring1.k: the boolean true"},
		{"zero runs", "parameters:\n  - {path: forces.spring1.k, values: []}\n",
			"parameters[0]: no values"},
		{"zero count", "parameters:\n  - {path: forces.spring1.k, range: [1, 2], count: 0}\n",
			"parameters[0].count: count = 0"},
		{"zero random runs", "design: monte-carlo\nparameters:\n  - {path: forces.spring1.k, range: [1, 2]}\n",
			"runs: runs = 0; a monte-carlo design wants 1 to"},
		{"too many runs", "parameters:\n  - {path: forces.spring1.k, range: [1, 2], count: 100000}\n  - {path: forces.spring1.c, range: [1, 2], count: 1000}\n",
			"the grid reaches more than 10000000 runs at forces.spring1.c"},
		{"list lengths", "design: list\nparameters:\n  - {path: forces.spring1.k, values: [1, 2]}\n  - {path: forces.spring1.c, values: [1]}\n",
			"forces.spring1.c has 1 values but forces.spring1.k has 2"},
		{"unknown design", "design: sobol\nparameters:\n  - {path: forces.spring1.k, values: [1]}\n",
			"design: unknown design \"sobol\""},
		{"unknown key", "parameters:\n  - {path: forces.spring1.k, value: [1]}\n", "unknown field \"value\""},
		{"twice", "parameters:\n  - {path: forces.spring1.k, values: [1]}\n  - {path: forces.spring1.k, values: [2]}\n",
			"parameters[1].path: forces.spring1.k is swept twice"},
		{"unknown output", "parameters:\n  - {path: forces.spring1.k, values: [1]}\noutputs: {final: [bar3.theta]}\n",
			"outputs.final[0]: \"bar3.theta\" is not an output channel"},
		{"bad plot", "parameters:\n  - {path: forces.spring1.k, values: [1]}\nplots: [{x: k, y: steps}]\n",
			"plots[0].x: \"k\" is not a parameter"},
		{"log of zero", "parameters:\n  - {path: forces.spring1.k, range: [0, 2], count: 3, scale: log}\n",
			"a log scale needs low > 0"},
		// Refused by the model file when the value is built in, before any run:
		{"negative mass", "parameters:\n  - {path: bodies.bar1.mass, values: [1, -2]}\n",
			"parameters[0]: bodies.bar1.mass = -2 is refused by the model"},
		{"unknown method", "parameters:\n  - {path: simulation.method, values: [hht, nosuch]}\n",
			"simulation.method = nosuch is refused by the model"},
		{"unknown key of the model", "parameters:\n  - {path: simulation.hh, values: [0.001]}\n",
			"simulation.hh = 0.001 is refused by the model"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := parseSweep(t, c.text)
			out := t.TempDir()
			if err == nil {
				err = s.Execute(context.Background(), Options{Out: out})
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v; want it to contain %q", err, c.want)
			}
			if _, statErr := os.Stat(filepath.Join(out, PartsDir)); statErr == nil {
				t.Errorf("a part file was made for a refused sweep")
			}
		})
	}
}

// TestInsertedKeyAndFailedRun: simulation.max_steps, absent from the model, is inserted;
// a run that hits it is recorded as failed with its error and the others are not lost.
func TestInsertedKeyAndFailedRun(t *testing.T) {
	s, err := parseSweep(t, "parameters:\n  - {path: simulation.max_steps, values: [3, 100000]}\n")
	if err != nil {
		t.Fatal(err)
	}
	rows := runLocal(t, s, t.TempDir(), 2)
	if len(rows) != 2 || rows[0].Status != "failed" || !strings.Contains(rows[0].Error, "max_steps = 3") || rows[1].Status != "ok" {
		t.Fatalf("rows %+v; want run 0 failed at max_steps = 3 and run 1 ok", rows)
	}
	if n := rows[1].Nums; n[0] != 0.02 || n[1] < 3 {
		t.Errorf("run 1: t_reached %g, steps %g; want 0.02 and more than 3", n[0], n[1])
	}
}

// TestResumeAfterCancel: cancelling keeps the finished rows in the part file; running again
// does only the rest and gives the table of an uninterrupted run.
func TestResumeAfterCancel(t *testing.T) {
	s, err := Load(example)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	err = s.Execute(ctx, Options{Out: out, Workers: 1, Progress: func(p Progress) {
		if p.Done == 5 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "run the same command again to resume") {
		t.Fatalf("error %v; want the cancellation and how to resume", err)
	}
	if _, err := s.Merge(out); err == nil || !strings.Contains(err.Error(), "runs are missing") {
		t.Fatalf("merge of an unfinished sweep: %v; want the missing runs named", err)
	}
	var resumed, ran int
	if err := s.Execute(context.Background(), Options{Out: out, Workers: 2, Progress: func(p Progress) { resumed = p.Resumed; ran++ }}); err != nil {
		t.Fatal(err)
	}
	// A run that finished between the fifth row and the cancellation is kept too.
	if resumed < 5 || resumed > 6 || resumed+ran != 24 {
		t.Errorf("resumed %d runs and ran %d; want 5 (or 6) and the rest of 24", resumed, ran)
	}
	rows, err := s.Merge(out)
	if err != nil {
		t.Fatal(err)
	}
	fresh := runLocal(t, s, t.TempDir(), 1)
	var a, b strings.Builder
	_ = s.WriteCSV(&a, rows)
	_ = s.WriteCSV(&b, fresh)
	if a.String() != b.String() {
		t.Errorf("resumed table differs from a fresh one:\n%s\nvs\n%s", a.String(), b.String())
	}
}

// TestRandomDesigns: the same seed gives the same values; a Latin hypercube puts exactly
// one run in each of its n strata of every parameter; values stay in range.
func TestRandomDesigns(t *testing.T) {
	text := "runs: 50\nseed: 7\nparameters:\n  - {path: forces.spring1.k, range: [1.0e3, 1.0e5], scale: log}\n  - {path: forces.spring1.c, range: [0, 10]}\n"
	for _, design := range []string{"latin-hypercube", "monte-carlo"} {
		s1, err := parseSweep(t, "design: "+design+"\n"+text)
		if err != nil {
			t.Fatal(err)
		}
		s2, _ := parseSweep(t, "design: "+design+"\n"+text)
		d1, _ := s1.design()
		d2, _ := s2.design()
		strata := [2]map[int]bool{{}, {}}
		for i := range 50 {
			v1, v2 := d1.values(i), d2.values(i)
			for k := range v1 {
				if v1[k] != v2[k] {
					t.Fatalf("%s run %d parameter %d: %v then %v", design, i, k, v1[k], v2[k])
				}
			}
			k, c := v1[0].Num, v1[1].Num
			if !(k >= 1e3 && k <= 1e5 && c >= 0 && c <= 10) {
				t.Fatalf("%s run %d: k=%g c=%g out of range", design, i, k, c)
			}
			strata[0][int(math.Log10(k/1e3)/2*50)] = true
			strata[1][int(c/10*50)] = true
		}
		if design == "latin-hypercube" && (len(strata[0]) != 50 || len(strata[1]) != 50) {
			t.Errorf("latin hypercube fills %d and %d of 50 strata; want all", len(strata[0]), len(strata[1]))
		}
	}
	// The draws are pinned: a change of generator would silently change every sweep.
	s, _ := parseSweep(t, "design: monte-carlo\n"+text)
	d, _ := s.design()
	if got := d.values(3)[1].String(); got != pinnedMC {
		t.Errorf("monte-carlo run 3 c = %s; want %s", got, pinnedMC)
	}
}

const pinnedMC = "8.542445568483908"

func TestParseShard(t *testing.T) {
	if sh, err := ParseShard("2/5"); err != nil || sh != (Shard{2, 5}) {
		t.Errorf("2/5: %v %v", sh, err)
	}
	for _, bad := range []string{"5/5", "-1/3", "1", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil || !strings.Contains(err.Error(), "want i/n with 0 <= i < n") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestProgressLine(t *testing.T) {
	p := Progress{Done: 30, Total: 100, Failed: 2, Resumed: 10, Elapsed: 4 * time.Second}
	want := "[###.......] 30/100 runs, 2 failed, 5 runs/s, ETA 14s"
	if got := p.Line(10); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestModelParametersAndSeries: a sweep of the model's own parameters (used in ${...} and
// repeat ranges) changes the mechanism; series: true writes every run's channels.
func TestModelParametersAndSeries(t *testing.T) {
	model, err := os.ReadFile("../examples/chain-bars.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("../examples/s.yaml", []byte("model: chain-bars.yaml\nt_end: 0.05\nseries: true\n"+
		"parameters:\n  - {path: parameters.N, values: [2, 3]}\n  - {path: parameters.L, values: [0.5, 1]}\noutputs: {final: [bar1.theta]}\n"), model)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rows := runLocal(t, s, out, 2)
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	for _, r := range rows {
		if r.Status != "ok" {
			t.Fatalf("run %d: %s", r.Run, r.Error)
		}
	}
	// A longer bar falls slower: its angle at t_end is smaller in magnitude.
	if !(math.Abs(rows[0].Nums[5]) > math.Abs(rows[1].Nums[5])) {
		t.Errorf("final(bar1.theta) %g (L = 0.5) vs %g (L = 1); want the short bar further down", rows[0].Nums[5], rows[1].Nums[5])
	}
	for i := range 4 {
		data, err := os.ReadFile(filepath.Join(out, "series", "run-00000"+string(rune('0'+i))+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Count(string(data), "\n"); !strings.HasPrefix(string(data), "t,") || lines < 3 {
			t.Errorf("series of run %d: %d lines, header %q", i, lines, strings.SplitN(string(data), "\n", 2)[0])
		}
	}
}

// TestRenamedChannelFailsTheRun: an output channel that a swept parameter renames away
// (bar${N}.x) makes that run fail with the reason; the series header is the run's own.
func TestRenamedChannelFailsTheRun(t *testing.T) {
	model, err := os.ReadFile("../examples/chain-bars.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("../examples/s.yaml", []byte("model: chain-bars.yaml\nt_end: 0.02\nseries: true\n"+
		"parameters:\n  - {path: parameters.N, values: [100, 2]}\noutputs: {final: [bar100.x]}\n"), model)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rows := runLocal(t, s, out, 1)
	if rows[0].Status != "ok" || rows[1].Status != "failed" || !strings.Contains(rows[1].Error, `outputs.final: this run has no output channel "bar100.x"`) {
		t.Fatalf("rows %+v; want run 1 (N = 2) failed naming bar100.x", rows)
	}
	if !math.IsNaN(rows[1].Nums[5]) {
		t.Errorf("final(bar100.x) of the failed run = %g; want NaN", rows[1].Nums[5])
	}
}

func TestTooManyParameters(t *testing.T) {
	text := "parameters:\n"
	for range MaxParameters + 1 {
		text += "  - {path: forces.spring1.k, values: [1]}\n"
	}
	if _, err := parseSweep(t, text); err == nil || !strings.Contains(err.Error(), "65 parameters, above the limit of 64") {
		t.Errorf("error %v", err)
	}
}
