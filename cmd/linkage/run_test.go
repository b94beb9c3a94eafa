package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
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
