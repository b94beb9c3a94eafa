package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The viewer of a 10 s run of the 20-bar chain stays under 5 MB (issue 20's budget), and
// the page loads nothing from elsewhere.
func TestViewerSizeBudget(t *testing.T) {
	html := filepath.Join(t.TempDir(), "chain.html")
	code, out, errOut := runCLI("run", "../../examples/stiff-chain.yaml", "--t-end", "10", "--html", html)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	b, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 5<<20 {
		t.Errorf("viewer of the 20-bar chain over 10 s is %.1f MB; the budget is 5 MB", float64(len(b))/(1<<20))
	}
	page := strings.ToLower(string(b))
	for _, bad := range []string{"<script src", "<link", "import(", "@import"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q: it must load nothing at view time", bad)
		}
	}
}

// The summary says which files were written (it did not).
func TestRunSummaryNamesFiles(t *testing.T) {
	dir := t.TempDir()
	csv, png, html := filepath.Join(dir, "r.csv"), filepath.Join(dir, "r.png"), filepath.Join(dir, "r.html")
	code, out, errOut := runCLI("run", "../../examples/slider-crank.yaml", "--out", csv, "--plot", png, "--html", html)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if want := "wrote    " + csv + ", " + png + ", " + html + "\n"; !strings.Contains(out, want) {
		t.Errorf("summary lacks %q:\n%s", want, out)
	}
	for _, p := range []string{csv, png, html} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", p, err)
		}
	}
}

// A --trail naming no marker is refused before the run with the markers listed (exit 2),
// and no page is left.
func TestViewerBadTrail(t *testing.T) {
	html := filepath.Join(t.TempDir(), "v.html")
	code, out, errOut := runCLI("run", "../../examples/slider-crank.yaml", "--html", html, "--trail", "nosuch")
	if code != 2 || !strings.Contains(errOut, `trail: no marker "nosuch"`) || !strings.Contains(errOut, "slot") || out != "" {
		t.Errorf("exit %d, want 2, no run, and the marker named with the valid ones:\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(html); err == nil {
		t.Errorf("%s written despite the error", html)
	}
}

// linkage view makes the page of a finished run from its CSV, which must hold every body's
// pose; a CSV without them is refused naming the missing channels.
func TestViewFromCSV(t *testing.T) {
	dir := t.TempDir()
	csv, html := filepath.Join(dir, "r.csv"), filepath.Join(dir, "v.html")
	code, out, errOut := runCLI("run", "../../examples/spatial-double-pendulum.yaml", "--t-end", "0.5", "--out", csv)
	if code != 0 {
		t.Fatalf("run: exit %d: %s%s", code, out, errOut)
	}
	code, out, errOut = runCLI("view", "../../examples/spatial-double-pendulum.yaml", csv, "--html", html)
	if code != 0 || !strings.Contains(out, "wrote    "+html+" (51 frames)") {
		t.Fatalf("view: exit %d, want the page of 51 frames: %s%s", code, out, errOut)
	}
	b, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(b), `"name":"rod2"`) {
		t.Errorf("page %s lacks the body rod2 (%v)", html, err)
	}

	csv2 := filepath.Join(dir, "fourbar.csv")
	if code, out, errOut := runCLI("run", "../../examples/spatial-fourbar.yaml", "--t-end", "0.1", "--out", csv2); code != 0 {
		t.Fatalf("run: exit %d: %s%s", code, out, errOut)
	}
	code, out, errOut = runCLI("view", "../../examples/spatial-fourbar.yaml", csv2, "--html", html)
	if code != 1 || !strings.Contains(errOut, "lacks coupler.x, coupler.y, coupler.z, coupler.p0") {
		t.Errorf("view of a CSV without the coupler: exit %d, want 1 naming its channels:\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCLI("view", "../../examples/spatial-fourbar.yaml", csv2); code != 2 || !strings.Contains(errOut, "--html") {
		t.Errorf("view without --html: exit %d, want 2: %s", code, errOut)
	}
}

// --out run.parquet writes the same rows as --out run.csv, read back with a Parquet reader,
// and linkage view reads it (issue 20, item 6).
func TestRunParquet(t *testing.T) {
	dir := t.TempDir()
	csv, pq := filepath.Join(dir, "r.csv"), filepath.Join(dir, "r.parquet")
	model := "../../examples/spatial-double-pendulum.yaml"
	for _, out := range []string{csv, pq} {
		if code, o, e := runCLI("run", model, "--t-end", "0.3", "--out", out); code != 0 {
			t.Fatalf("exit %d: %s%s", code, o, e)
		}
	}
	want, err := readResults(csv)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readResults(pq)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Names, ",") != strings.Join(want.Names, ",") {
		t.Fatalf("Parquet channels %v, CSV %v", got.Names, want.Names)
	}
	for _, name := range want.Names {
		w, g := want.Channel(name), got.Channel(name)
		if len(g) != len(w) || len(w) != 31 {
			t.Fatalf("%s: %d Parquet rows, %d CSV rows; want 31", name, len(g), len(w))
		}
		for k := range w {
			if g[k] != w[k] { // CSV writes the shortest exact decimal: equal bit for bit
				t.Fatalf("%s[%d]: Parquet %v, CSV %v", name, k, g[k], w[k])
			}
		}
	}
	html := filepath.Join(dir, "v.html")
	if code, o, e := runCLI("view", model, pq, "--html", html); code != 0 || !strings.Contains(o, "(31 frames)") {
		t.Errorf("view of the Parquet file: exit %d: %s%s", code, o, e)
	}
}
