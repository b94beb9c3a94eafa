package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const sliderCrank = "../../examples/slider-crank.yaml"

// TestRunCSVAndPlot: the README's command, `linkage run examples/slider-crank.yaml --out
// r.csv --plot r.png`, writes the requested channels at the output step and a PNG.
func TestRunCSVAndPlot(t *testing.T) {
	dir := t.TempDir()
	csv, png, svg := filepath.Join(dir, "r.csv"), filepath.Join(dir, "r.png"), filepath.Join(dir, "r.svg")
	code, out, errOut := runCLI("run", sliderCrank, "--out", csv, "--plot", png)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"steps", "rejected", "Newton iterations", "max |g|", "energy", "drift"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	wantHeader := "t,crank.theta,crank.omega,rod.x,rod.theta,main.fx,main.fy,main.torque,main.fx_local,main.fy_local,slider.fy," +
		"energy.kinetic,energy.potential,energy.work_nc,energy.work_driving,energy.invariant"
	if lines[0] != wantHeader {
		t.Errorf("CSV header\n  %s\nwant\n  %s", lines[0], wantHeader)
	}
	// t_end 0.5 at output_step 0.005: 101 samples after the header.
	if len(lines) != 102 {
		t.Errorf("CSV has %d lines, want 1 header + 101 samples", len(lines))
	}
	if last := strings.SplitN(lines[len(lines)-1], ",", 2)[0]; last != "0.5" {
		t.Errorf("last sample at t = %s, want 0.5", last)
	}
	img, err := os.ReadFile(png)
	if err != nil || !bytes.HasPrefix(img, []byte("\x89PNG")) {
		t.Errorf("plot %s is not a PNG (err %v)", png, err)
	}
	if code, _, errOut := runCLI("run", sliderCrank, "--t-end", "0.05", "--plot", svg); code != 0 {
		t.Fatalf("svg: exit %d: %s", code, errOut)
	}
	if s, err := os.ReadFile(svg); err != nil || !bytes.Contains(s, []byte("<svg")) {
		t.Errorf("plot %s is not an SVG (err %v)", svg, err)
	}
}

// TestRunJSON: --json prints one object with the summary's numbers, and flags override the
// file (method, tolerance, end time).
func TestRunJSON(t *testing.T) {
	code, out, errOut := runCLI("run", "../../examples/double-pendulum.yaml", "--json", "--method", "radau5", "--tol", "1e-8", "--t-end", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"model", "method", "formulation", "tol", "t_end", "steps", "rejected", "newton_iters",
		"wall_s", "max_residual_pos", "max_residual_vel", "energy_drift", "energy_scale"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if m["method"] != "radau5" || m["tol"] != 1e-8 || m["t_end"] != 1.0 {
		t.Errorf("flags not applied: method %v tol %v t_end %v", m["method"], m["tol"], m["t_end"])
	}
	// A conservative pendulum at tol 1e-8: T + V holds to far below 1e-4 of the ~20 J
	// exchanged in the first second (hht at 1e-7 gives 1.3e-4 over 10 s).
	drift, _ := m["energy_drift"].(float64)
	scale, _ := m["energy_scale"].(float64)
	if !(scale > 1 && drift < 1e-4*scale) {
		t.Errorf("energy drift %g of %g J exchanged, want < 1e-4 of it", drift, scale)
	}
}

// TestRunSetupTime: the summary splits the time before the first step (loading and
// building the model with its consistent start, then the method's Init) from the steps, so
// that the setup of a large model is measured apart (issue 15): the parts are positive,
// add up, and the text prints them; on Linux the integration's CPU time is reported too.
func TestRunSetupTime(t *testing.T) {
	code, out, errOut := runCLI("run", "../../examples/chain-bars.yaml", "--json", "--t-end", "0.05")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	num := func(k string) float64 {
		x, ok := m[k].(float64)
		if !ok {
			t.Errorf("JSON lacks the number %q", k)
		}
		return x
	}
	wall, setup, build, initS, steps := num("wall_s"), num("setup_s"), num("build_s"), num("init_s"), num("step_s")
	if !(build > 0 && initS > 0 && steps > 0) {
		t.Errorf("build_s %g, init_s %g, step_s %g: want each > 0", build, initS, steps)
	}
	if d := math.Abs(setup - (build + initS)); d > 1e-9 {
		t.Errorf("setup_s %g ≠ build_s %g + init_s %g", setup, build, initS)
	}
	if d := math.Abs(wall - (initS + steps)); d > 1e-9 {
		t.Errorf("wall_s %g ≠ init_s %g + step_s %g", wall, initS, steps)
	}
	for _, k := range []string{"cpu_s", "setup_cpu_s"} {
		if cpu, _ := m[k].(float64); runtime.GOOS == "linux" && !(cpu > 0) {
			t.Errorf("%s = %v on linux, want a CPU time > 0", k, m[k])
		}
	}
	code, out, errOut = runCLI("run", "../../examples/chain-bars.yaml", "--t-end", "0.05")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{" ms per step", "\nsetup    ", "before the first step (load, build and consistent start "} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// TestCheck: linkage check reports DOF and names the redundant joint row.
func TestCheck(t *testing.T) {
	code, out, errOut := runCLI("check", "../../examples/parallelogram.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"valid", "dof         1", "redundant   1: ground2.y"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI("check", sliderCrank)
	if code != 0 || !strings.Contains(out, "dof         1") || !strings.Contains(out, "redundant   none") {
		t.Errorf("check slider-crank: exit %d\n%s", code, out)
	}
}

// TestCheckLieGroup: linkage check names the Lie-group route with its dimension and rows
// (the spatial four-bar: 3 bodies, 18 velocities, 17 joint rows).
func TestCheckLieGroup(t *testing.T) {
	data, err := os.ReadFile("../../examples/spatial-fourbar.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(strings.Replace(string(data), "dimension: 3", "dimension: 3\nrotations: lie-group", 1), "method: hht", "method: lie-genalpha", 1)
	path := filepath.Join(t.TempDir(), "fourbar-lie.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("check", path)
	if code != 0 || !strings.Contains(out, "rotations   lie-group: SO(3) × ℝ³ per body, 18 velocities, 17 joint rows") {
		t.Errorf("check: exit %d\n%s%s", code, out, errOut)
	}
}

// TestRunBadInput: a malformed file fails with exit 1 and an error naming file and line;
// command-line mistakes exit 2.
func TestRunBadInput(t *testing.T) {
	bad := "../../modelfile/testdata/bad/negative-mass.yaml"
	for _, cmd := range []string{"run", "check"} {
		code, _, errOut := runCLI(cmd, bad)
		if code != 1 || !strings.Contains(errOut, bad+":4:11: bodies[0].mass") {
			t.Errorf("%s %s: exit %d, stderr %q; want 1 and the file:line:column and path", cmd, bad, code, errOut)
		}
	}
	for _, args := range [][]string{{"run"}, {"run", sliderCrank, "--tol", "-1"}, {"run", sliderCrank, "--method", "euler"}, {"check", "a.yaml", "b.yaml"}} {
		const want = 2
		if code, _, errOut := runCLI(args...); code != want {
			t.Errorf("linkage %s: exit %d (%s), want %d", strings.Join(args, " "), code, errOut, want)
		}
	}
	noEnd := filepath.Join(t.TempDir(), "no-end.yaml")
	if err := os.WriteFile(noEnd, []byte("bodies: [{name: a, mass: 1, inertia: 1}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI("run", noEnd); code != 1 || !strings.Contains(errOut, "simulation.t_end") {
		t.Errorf("file without t_end: exit %d, %q; want 1 and a message about simulation.t_end", code, errOut)
	}
	if code, _, errOut := runCLI("run", "no-such-file.yaml"); code != 1 || !strings.Contains(errOut, "no-such-file.yaml") {
		t.Errorf("missing file: exit %d, %q", code, errOut)
	}
}

const fourBar = "../../examples/four-bar.yaml"

// writeVariant writes a copy of the example file src with each old string replaced by its
// new one (pairs), into dir, and returns its path.
func writeVariant(t *testing.T, dir, src string, pairs ...string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("%s lacks %q", src, pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	f, err := os.CreateTemp(dir, "variant-*-"+filepath.Base(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return f.Name()
}

// TestRunRefusesAbsurdOutputGrid (issue 13, item 2): output_step 1e-12 over 2 s would make
// 2e12 rows; the run is refused before the first step with that count and the limit
// (it ran out of memory allocating the grid).
func TestRunRefusesAbsurdOutputGrid(t *testing.T) {
	model := writeVariant(t, t.TempDir(), fourBar, "output_step: 0.01", "output_step: 1.0e-12")
	code, out, errOut := runCLI("run", model)
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q; want 1 and no run", code, out)
	}
	for _, want := range []string{"simulation.output_step: output_step = 1e-12", "2e+12 rows", "limit of 10000000", "output_step >= 2.1e-07"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// TestRunChecksOutputPathsFirst (issue 13, item 4): an unknown plot format, a missing
// directory or a directory given as the file are refused before the run (exit 2, nothing
// printed on stdout), and the file the flag names is left as it was.
func TestRunChecksOutputPathsFirst(t *testing.T) {
	dir := t.TempDir()
	kdat := filepath.Join(dir, "k.dat")
	if err := os.WriteFile(kdat, []byte("data\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--plot", kdat}, `--plot ` + kdat + `: unsupported plot format ".dat"; want .png, .svg, .pdf`},
		{[]string{"--out", filepath.Join(dir, "no-such-dir", "r.csv")}, "no-such-dir"},
		{[]string{"--out", dir}, "is a directory"},
		{[]string{"--out", filepath.Join(dir, "r.csv"), "--plot", filepath.Join(dir, "nodir", "r.png")}, "nodir"},
	} {
		args := append([]string{"run", fourBar}, c.args...)
		code, out, errOut := runCLI(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 before the run and %q", c.args, code, out, errOut, c.want)
		}
	}
	if b, err := os.ReadFile(kdat); err != nil || string(b) != "data\n" {
		t.Errorf("k.dat now holds %q (err %v), want it untouched", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.csv")); !os.IsNotExist(err) {
		t.Errorf("r.csv was created by a refused run (err %v)", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("refused runs left files behind: %v", ents)
	}
}

// TestRunFailureKeepsPreviousResults (issue 13, items 4 and 10): a run that fails midway
// leaves the previous CSV and plot as they were and puts the rows it made into
// r.partial.csv, whose last line says where and why the run failed, and r.partial.png; the
// summary says where the partial data went.
func TestRunFailureKeepsPreviousResults(t *testing.T) {
	dir := t.TempDir()
	csv, png := filepath.Join(dir, "r.csv"), filepath.Join(dir, "r.png")
	for _, p := range []string{csv, png} {
		if err := os.WriteFile(p, []byte("previous\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// rk4 at h = 0.02 on the stiff double pendulum: the position projection fails at t = 0.02.
	code, out, _ := runCLI("run", "../../examples/stiff-double-pendulum.yaml", "--method", "rk4", "--h", "0.02", "--out", csv, "--plot", png)
	if code != 1 || !strings.Contains(out, "FAILED") {
		t.Fatalf("exit %d, want 1 and a FAILED line:\n%s", code, out)
	}
	for _, p := range []string{csv, png} {
		if b, _ := os.ReadFile(p); string(b) != "previous\n" {
			t.Errorf("%s now holds %q, want the previous result", filepath.Base(p), b)
		}
	}
	partial := filepath.Join(dir, "r.partial.csv")
	b, err := os.ReadFile(partial)
	if err != nil {
		t.Fatalf("no partial CSV: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	// Samples every 0.002 s up to the last accepted step at t = 0.02: 11 rows after the header.
	if len(lines) != 13 || !strings.HasPrefix(lines[0], "t,") || !strings.HasPrefix(lines[11], "0.02,") ||
		!strings.HasPrefix(lines[12], "# run failed at t=0.02: integrate: rk4:") {
		t.Errorf("partial CSV: %d lines, want header, 11 rows to t = 0.02 and a closing '# run failed at t=0.02: ...':\n%s", len(lines), b)
	}
	if !strings.Contains(out, "partial results in "+partial+", "+filepath.Join(dir, "r.partial.png")) {
		t.Errorf("summary does not say where the partial data went:\n%s", out)
	}
	if img, err := os.ReadFile(filepath.Join(dir, "r.partial.png")); err != nil || !bytes.HasPrefix(img, []byte("\x89PNG")) {
		t.Errorf("r.partial.png is not a PNG of the partial run (err %v)", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 4 {
		t.Errorf("want r.csv, r.png, r.partial.csv and r.partial.png, found %v", ents)
	}
}

// TestRunPlotsChannelsNotInOutputs (issue 13, item 6): a plot channel missing from outputs
// is recorded for the plot (not written to the CSV) instead of giving an empty plot.
func TestRunPlotsChannelsNotInOutputs(t *testing.T) {
	dir := t.TempDir()
	model := writeVariant(t, dir, fourBar,
		"outputs: [crank.theta, rocker.theta, drive, rockerpin, energy, residual]", "outputs: [crank.theta]",
		"plot: [rocker.theta, drive.lambda]", "plot: [rocker.theta]")
	svg, csv := filepath.Join(dir, "r.svg"), filepath.Join(dir, "r.csv")
	code, _, errOut := runCLI("run", model, "--t-end", "0.1", "--plot", svg, "--out", csv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if s, err := os.ReadFile(svg); err != nil || !bytes.Contains(s, []byte("rocker.theta")) {
		t.Errorf("plot lacks the series rocker.theta (err %v)", err)
	}
	if b, _ := os.ReadFile(csv); !strings.HasPrefix(string(b), "t,crank.theta\n") {
		t.Errorf("CSV header %q, want only the outputs", strings.SplitN(string(b), "\n", 2)[0])
	}
}

// TestRunTolRange (issue 13, items 8 and 14): tolerances outside [1e-14, 0.1] are refused,
// on the command line (exit 2) and in the file (exit 1), saying why.
func TestRunTolRange(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", fourBar, "--tol", "10"}, 2, "--tol = 10 is above 0.1"},
		{[]string{"run", fourBar, "--tol", "1e-20"}, 2, "--tol = 1e-20 is below 1e-14, below what double precision can resolve"},
		{[]string{"solve", "andrews", "--tol", "10"}, 2, "--tol = 10 is above 0.1"},
		{[]string{"workprecision", "andrews", "--tols", "1e-3,1e-20"}, 2, "--tols: 1e-20 is below 1e-14, below what double precision can resolve"},
		{[]string{"workprecision", "andrews", "--tols", "1,1e-3"}, 2, "--tols: 1 is above 0.1"},
		{[]string{"run", writeVariant(t, dir, fourBar, "tol: 1.0e-7", "tol: 10.0")}, 1, "simulation.tol: tol = 10 is above 0.1"},
		{[]string{"run", writeVariant(t, dir, fourBar, "tol: 1.0e-7", "tol: 1.0e-20")}, 1, "simulation.tol: tol = 1e-20 is below 1e-14, below what double precision can resolve"},
	} {
		code, out, errOut := runCLI(c.args...)
		if code != c.code || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d before any run and %q", c.args, code, out, errOut, c.code, c.want)
		}
	}
}

// TestRunFixedStepFlagsDrift (issue 13, item 8): rk4 at h = 0.008 on the stiff double
// pendulum is far beyond its stability limit (the energy invariant drifts by 6.5 times the
// energy exchanged); the run is flagged in the summary and the JSON and exits 1. A fixed
// step within the limit is not flagged.
func TestRunFixedStepFlagsDrift(t *testing.T) {
	stiff := "../../examples/stiff-double-pendulum.yaml"
	code, out, _ := runCLI("run", stiff, "--method", "rk4", "--h", "0.008")
	if code != 1 || !strings.Contains(out, "WARNING  fixed step: energy drift") || !strings.Contains(out, "above 0.05") {
		t.Errorf("exit %d, want 1 and a WARNING line on the energy drift:\n%s", code, out)
	}
	code, out, _ = runCLI("run", stiff, "--method", "rk4", "--h", "0.008", "--json")
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil || code != 1 {
		t.Fatalf("exit %d, JSON %v:\n%s", code, err, out)
	}
	if w, _ := m["warnings"].([]any); len(w) != 1 || !strings.Contains(w[0].(string), "energy drift") {
		t.Errorf("JSON warnings = %v, want the energy drift", m["warnings"])
	}
	// h = 0.001 on the slider-crank: drift 2.2e-6 of the energy exchanged.
	if code, out, _ := runCLI("run", sliderCrank, "--method", "rk4", "--h", "0.001"); code != 0 || strings.Contains(out, "WARNING") {
		t.Errorf("stable fixed step: exit %d, want 0 and no warning:\n%s", code, out)
	}
}

// TestRunMaxSteps (issue 13, item 15): --max-steps sets the step cap of run and solve;
// hitting it says the limit and how to raise it. (simulation.max_steps, read by the
// decoder, is covered in modelfile's TestRunMaxSteps.)
func TestRunMaxSteps(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", fourBar, "--max-steps", "5"}, "stopped at the step limit max_steps = 5; raise it with --max-steps or simulation.max_steps"},
		{[]string{"solve", "andrews", "--max-steps", "5"}, "stopped at the step limit 5; raise it with --max-steps"},
	} {
		code, out, _ := runCLI(c.args...)
		if code != 1 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, want 1 and %q:\n%s", c.args, code, c.want, out)
		}
	}
	for _, cmd := range []string{"run", "solve"} {
		arg := fourBar
		if cmd == "solve" {
			arg = "andrews"
		}
		if code, _, errOut := runCLI(cmd, arg, "--max-steps", "-1"); code != 2 || !strings.Contains(errOut, "--max-steps = -1") {
			t.Errorf("%s --max-steps -1: exit %d, %q; want 2", cmd, code, errOut)
		}
	}
}

// TestRunUsageErrorsExitTwo (issue 13, item 14): a formulation the method does not have is
// a command-line mistake (exit 2, as the README promises), also when the method is the file's.
func TestRunUsageErrorsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"run", fourBar, "--formulation", "bogus"},
		{"run", fourBar, "--method", "radau5", "--formulation", "bogus"},
	} {
		code, out, errOut := runCLI(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, `formulation "bogus"`) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and the formulation named", args, code, out, errOut)
		}
	}
}

// TestRunHMinSaysWhatItIs (issue 13, item 14): with t_end = 1e12 the default HMin is
// 1e-14·1e12 = 0.01 s; the failure states the value and where it comes from.
func TestRunHMinSaysWhatItIs(t *testing.T) {
	model := writeVariant(t, t.TempDir(), fourBar, "t_end: 2", "t_end: 1.0e12", "output_step: 0.01", "output_step: 1.0e11")
	code, out, _ := runCLI("run", model)
	if code != 1 || !strings.Contains(out, "HMin = 0.01 s = 1e-14·max(1, |t0|, |t_end|)") || !strings.Contains(out, "float64 spacing") {
		t.Errorf("exit %d, want 1 and HMin's value and origin:\n%s", code, out)
	}
}
