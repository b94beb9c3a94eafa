package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveIndexReport: linkage solve with the multi-index method (seed 001) reports the
// index switches and the steps and time per index, in the text summary and in --json; a
// method that does not switch reports none.
func TestSolveIndexReport(t *testing.T) {
	code, out, errOut := runCLI("solve", "pendulum", "--method", "multi-index")
	if code != 0 || !strings.Contains(out, "index    3: ") || !strings.Contains(out, "switches 3→1") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s; want an index line", code, out, errOut)
	}
	code, out, errOut = runCLI("solve", "pendulum", "--method", "multi-index", "--json")
	var rep struct {
		Steps       int `json:"steps"`
		IndexReport *struct {
			Steps3 int     `json:"steps_index3"`
			Steps1 int     `json:"steps_index1"`
			Time3  float64 `json:"time_index3"`
		} `json:"index_report"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.IndexReport == nil ||
		rep.IndexReport.Steps3+rep.IndexReport.Steps1 != rep.Steps {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s; want index_report with the run's steps", code, out, errOut)
	}
	_, out, _ = runCLI("solve", "pendulum", "--method", "hht", "--json")
	if strings.Contains(out, "index_report") {
		t.Errorf("hht reports an index_report:\n%s", out)
	}
}

// TestRunIndexReport: linkage run on a model file reports the multi-index method's index
// line in the text summary and index_report in --json, as solve does.
func TestRunIndexReport(t *testing.T) {
	args := []string{"run", "../../examples/double-pendulum.yaml", "--method", "multi-index", "--t-end", "0.2"}
	code, out, errOut := runCLI(args...)
	if code != 0 || !strings.Contains(out, "index    3: ") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s; want an index line", code, out, errOut)
	}
	code, out, errOut = runCLI(append(args, "--json")...)
	var rep struct {
		Steps       int `json:"steps"`
		IndexReport *struct {
			Steps3 int `json:"steps_index3"`
			Steps1 int `json:"steps_index1"`
		} `json:"index_report"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.IndexReport == nil ||
		rep.IndexReport.Steps3+rep.IndexReport.Steps1 != rep.Steps {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s; want index_report with the run's steps", code, out, errOut)
	}
}

// TestRunMultiIndexWarnsWhereTolIsBlind: on examples/chain3d.yaml in joint coordinates
// with 30 rods over 0.05 s the energy scale of multi-index's estimate (the rotation's
// kinetic energy) is far above the change of T and V (the sag): linkage run says what tol
// bounds and warns that it may not bound the error, with the exit status 0; the same
// file as it is (20 rods in body coordinates) over 0.3 s, most of its fall, does not warn.
func TestRunMultiIndexWarnsWhereTolIsBlind(t *testing.T) {
	src, err := os.ReadFile("../../examples/chain3d.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(strings.Replace(string(src), "N: 20,", "N: 30,", 1), "dimension: 3\n", "dimension: 3\ncoordinates: joint\n", 1)
	path := filepath.Join(t.TempDir(), "chain30.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("run", path, "--method", "multi-index", "--tol", "1e-4", "--t-end", "0.05")
	if code != 0 || !strings.Contains(out, "WARNING  multi-index: the energy scale of its error estimate") ||
		!strings.Contains(out, "accuracy tol bounds the change of the energy invariant") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s; want the tolerance statement, a warning and exit 0", code, out, errOut)
	}
	code, out, errOut = runCLI("run", path, "--method", "multi-index", "--tol", "1e-4", "--t-end", "0.05", "--json")
	var sum struct {
		Warnings    []string `json:"warnings"`
		TolControls string   `json:"tol_controls"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &sum) != nil || len(sum.Warnings) != 1 || !strings.Contains(sum.TolControls, "energy invariant") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s; want one warning and the tolerance statement in --json", code, out, errOut)
	}
	code, out, errOut = runCLI("run", "../../examples/chain3d.yaml", "--method", "multi-index", "--tol", "1e-4", "--t-end", "0.3")
	if code != 0 || strings.Contains(out, "WARNING") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s; want no warning on the falling chain", code, out, errOut)
	}
}
