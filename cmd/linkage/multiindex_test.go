package main

import (
	"encoding/json"
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
