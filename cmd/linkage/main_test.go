package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// TestSolveJSON: issue 2 asks `linkage solve andrews --json` to print these fields.
func TestSolveJSON(t *testing.T) {
	code, out, errOut := runCLI("solve", "andrews", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"problem", "method", "tol", "t_end", "scd", "steps", "rejected", "f_evals",
		"newton_iters", "jacobians", "factorizations", "wall_s", "max_residual_pos", "max_residual_vel"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks field %q", k)
		}
	}
	// dopri5 at the default tol 1e-6 gives scd 5.97 on Andrews.
	if scd, _ := m["scd"].(float64); scd < 5.5 {
		t.Errorf("scd = %v, want about 6", m["scd"])
	}
}

func TestSolveSummaryAndCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	code, out, errOut := runCLI("solve", "pendulum", "--method", "hht", "--tol", "1e-6", "--out", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"scd", "steps", "Newton iterations", "max |g|"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	header := strings.SplitN(string(b), "\n", 2)[0]
	if header != "t,x,y,x',y',lambda:rod length" {
		t.Errorf("CSV header %q", header)
	}
}

func TestBadInputExitsTwoWithChoices(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "nope"}, "valid names: pendulum"},
		{[]string{"solve", "andrews", "--method", "rk45"}, "valid methods: dopri5"},
		{[]string{"solve", "andrews", "--bogus"}, "not defined: -bogus"},
		{[]string{"solve", "andrews", "--formulation", "index3"}, "supports: index1-proj, index1"},
		{[]string{"solve"}, "want exactly one PROBLEM"},
		{[]string{"frobnicate"}, "valid commands:"},
		{[]string{"workprecision", "andrews", "--tols", "1e-3:x"}, "--tols"},
		{[]string{"reproduce", "nope"}, "valid: arnold-driftoff, arnold-ex8, arnold-ex9"},
	} {
		code, _, errOut := runCLI(c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

func TestRunFailureExitsOneAndSaysWhere(t *testing.T) {
	// Newmark on the index-3 form has no damping and fails on Andrews (see BENCHMARKS.md).
	code, out, _ := runCLI("solve", "andrews", "--method", "newmark", "--formulation", "index3", "--tol", "1e-5")
	if code != 1 || !strings.Contains(out, "FAILED") || !strings.Contains(out, "t=") {
		t.Errorf("exit %d, output:\n%s\nwant exit 1 and a FAILED line with the time", code, out)
	}
}

func TestWorkPrecisionTable(t *testing.T) {
	plot := filepath.Join(t.TempDir(), "wp.png")
	code, out, errOut := runCLI("workprecision", "andrews", "--methods", "dopri5,hht", "--tols", "1e-4:1e-5", "--repeat", "1", "--plot", plot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(out, "dopri5 "); n != 2 {
		t.Errorf("want 2 dopri5 rows, got %d:\n%s", n, out)
	}
	if _, err := os.Stat(plot); err != nil {
		t.Error(err)
	}
	// The test set's published runs at 1e-4 follow (the 1e-7 rows lie outside --tols).
	if !strings.Contains(out, "published runs (TESTSET2003 Table II.13.3") ||
		!regexp.MustCompile(`RADAU +1e-04 +1\.36 .* 56 +40 +810 +- +54 +96`).MatchString(out) ||
		strings.Contains(out, "1e-07") {
		t.Errorf("want the published 1e-4 runs with RADAU's 56 accepted, 40 rejected, 810 f, 54 Jacobians, 96 LU:\n%s", out)
	}
	code, out, _ = runCLI("workprecision", "pendulum", "--methods", "dopri5", "--tols", "1e-4", "--repeat", "1")
	if code != 0 || strings.Contains(out, "published") {
		t.Errorf("pendulum: exit %d, want no published runs:\n%s", code, out)
	}
}

func TestParseTols(t *testing.T) {
	got, err := parseTols("1e-3:1e-9")
	if err != nil || len(got) != 7 || got[0] != 1e-3 || got[6] < 0.99e-9 || got[6] > 1.01e-9 {
		t.Errorf("parseTols(1e-3:1e-9) = %v, %v", got, err)
	}
	// The ends are the values given, so that "0.1:1e-14" stays within [MinTol, MaxTol].
	got, err = parseTols("0.1:1e-14:2")
	if err != nil || got[0] != 0.1 || got[len(got)-1] != 1e-14 {
		t.Errorf("parseTols(0.1:1e-14:2) = %v, %v; want 0.1 … 1e-14 exactly", got, err)
	}
	got, err = parseTols("1e-4,1e-6")
	if err != nil || len(got) != 2 {
		t.Errorf("parseTols(list) = %v, %v", got, err)
	}
}

func TestListings(t *testing.T) {
	code, out, _ := runCLI("methods")
	if code != 0 || !strings.Contains(out, "dopri5") || !strings.Contains(out, "hht") || !strings.Contains(out, "Every method takes algebraic variables") {
		t.Errorf("methods: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI("problems")
	if code != 0 || !strings.Contains(out, "andrews") || !strings.Contains(out, "crank") {
		t.Errorf("problems: exit %d\n%s", code, out)
	}
}

// TestMethodDetail: `linkage methods NAME` prints one method a field a line, the same
// cells as its row of the table; an unknown name is a usage error listing the methods.
func TestMethodDetail(t *testing.T) {
	code, out, errOut := runCLI("methods", "daealpha")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"name          daealpha\n", "seed          003\n", "f(λ)          true, not cs,cs-qr\n", "options       rho_inf [0, 1] [0.9]\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("methods daealpha lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 13 {
		t.Errorf("methods daealpha: %d lines, want 13 (one per column of the table):\n%s", n, out)
	}
	code, _, errOut = runCLI("methods", "nosuch")
	if code != 2 || !strings.Contains(errOut, `unknown method "nosuch"`) || !strings.Contains(errOut, "radau5") {
		t.Errorf("methods nosuch: exit %d, %s", code, errOut)
	}
	if code, _, _ = runCLI("methods", "hht", "bdf"); code != 2 {
		t.Errorf("methods with two names: exit %d, want 2", code)
	}
}

func TestReproduceEx9(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI("reproduce", "arnold-ex9", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The linear case's error at h_n/h_{n-1} = 1/1024 is 85.9 (seed 002's leading term 86.1).
	if !strings.Contains(out, "8.590e+01") {
		t.Errorf("table lacks the error 8.590e+01 of the smallest ratio:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "arnold-ex9.png")); err != nil {
		t.Error(err)
	}
}

func TestIndexList(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{
		{nil, ""}, {[]int{0}, "[1]"}, {[]int{0, 1}, "[1,2]"}, {[]int{0, 1, 2, 3, 4, 5, 6}, "[1-7]"},
		{[]int{0, 1, 2, 4, 6, 7}, "[1-3,5,7,8]"},
	} {
		if got := indexList(c.in); got != c.want {
			t.Errorf("indexList(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSolveFixedStepWithoutH (issue 13, item 5): a fixed-step method without --h is a
// command-line mistake: exit 2 with a message (it exited 1 printing no error).
func TestSolveFixedStepWithoutH(t *testing.T) {
	code, out, errOut := runCLI("solve", "andrews", "--method", "rk4")
	if code != 2 || out != "" || !strings.Contains(errOut, "method rk4 has no error control: give a fixed step with --h") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and the reason", code, out, errOut)
	}
}

// TestOutputPathsCheckedFirst (issue 13, item 4): solve --out, workprecision --plot and
// reproduce --out check their paths before any work and never truncate an existing file.
func TestOutputPathsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	kdat := filepath.Join(dir, "k.dat")
	if err := os.WriteFile(kdat, []byte("data\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "pendulum", "--out", filepath.Join(dir, "nodir", "s.csv")}, "nodir"},
		{[]string{"workprecision", "andrews", "--methods", "dopri5", "--tols", "1e-4", "--repeat", "1", "--plot", kdat}, `unsupported plot format ".dat"`},
		{[]string{"reproduce", "arnold-ex9", "--out", kdat}, "not a directory"},
	} {
		code, out, errOut := runCLI(c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 before any work and %q", c.args, code, out, errOut, c.want)
		}
	}
	if b, _ := os.ReadFile(kdat); string(b) != "data\n" {
		t.Errorf("k.dat now holds %q, want it untouched", b)
	}
}

// TestSolveFailureKeepsPreviousCSV (issue 13, item 10): a failed solve leaves the previous
// CSV alone and writes the accepted steps to s.partial.csv, marked at its end.
func TestSolveFailureKeepsPreviousCSV(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "s.csv")
	if err := os.WriteFile(csv, []byte("previous\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI("solve", "andrews", "--max-steps", "5", "--out", csv)
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	if b, _ := os.ReadFile(csv); string(b) != "previous\n" {
		t.Errorf("s.csv now holds %q, want the previous result", b)
	}
	b, err := os.ReadFile(filepath.Join(dir, "s.partial.csv"))
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	// The start and 5 accepted steps, then the mark.
	if err != nil || len(lines) != 8 || !strings.HasPrefix(lines[7], "# run failed at t=") {
		t.Errorf("partial CSV (err %v), want header, 6 rows and the mark:\n%s", err, b)
	}
}

// TestSolveListsFailedAttempts: attempts that failed before their error test are counted by
// cause in the JSON and listed in the text (hht on the crank retries one attempt whose
// Newton iteration failed with a stale Jacobian).
func TestSolveListsFailedAttempts(t *testing.T) {
	code, out, errOut := runCLI("solve", "crank", "--method", "hht")
	if code != 0 || !strings.Contains(out, "failed   1 Newton failure (") {
		t.Errorf("exit %d, stdout %q, stderr %q; want a line listing 1 Newton failure", code, out, errOut)
	}
	code, out, _ = runCLI("solve", "crank", "--method", "hht", "--json")
	if code != 0 || !strings.Contains(out, `"newton_failures": 1`) || !strings.Contains(out, `"singular": 0`) || !strings.Contains(out, `"non_finite": 0`) {
		t.Errorf("exit %d, JSON %s; want newton_failures 1, singular 0, non_finite 0", code, out)
	}
}
