package output

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTableAlignsColumns(t *testing.T) {
	tb := Table{Header: []string{"method", "scd"}}
	tb.Add("hht", 6.123456)
	tb.Add("dopri5", 10.0)
	var b bytes.Buffer
	if err := tb.Write(&b); err != nil {
		t.Fatal(err)
	}
	want := "method    scd\n------  -----\nhht     6.123\ndopri5     10\n"
	if b.String() != want {
		t.Errorf("table:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	if err := tb.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| hht | 6.123 |") {
		t.Errorf("markdown table lacks the hht row:\n%s", b.String())
	}
}

func TestWriteCSVRoundTripsFloats(t *testing.T) {
	xs := []float64{0.1, 1.0 / 3, -2.5e-17}
	var b bytes.Buffer
	err := WriteCSV(&b, len(xs), []Channel{
		{Name: "k", Value: func(k int) float64 { return float64(k) }},
		{Name: "x", Value: func(k int) float64 { return xs[k] }},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "k,x\n0,0.1\n1,0.3333333333333333\n2,-2.5e-17\n"
	if b.String() != want {
		t.Errorf("csv:\n%q\nwant\n%q", b.String(), want)
	}
}

func TestPlotWritesPNGAndSVG(t *testing.T) {
	dir := t.TempDir()
	s := []Series{{Name: "a", X: []float64{1e-3, 1e-2, 1e-1}, Y: []float64{8, 6, 4}}}
	for _, name := range []string{"wp.png", "wp.svg"} {
		path := filepath.Join(dir, name)
		if err := Plot(path, PlotSpec{Title: "t", LogX: true, Points: true}, s); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() < 1000 {
			t.Errorf("%s: size %d bytes; want a plot of at least 1 kB", name, st.Size())
		}
	}
}

// TestFileIsAtomic (issue 13, items 4 and 10): what was at the path stays until Commit;
// Abort leaves it; CommitAs puts the file elsewhere; bad paths are refused by Create.
func TestFileIsAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.csv")
	if err := os.WriteFile(path, []byte("previous\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	read := func(p string) string {
		b, _ := os.ReadFile(p)
		return string(b)
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new\n"))
	if got := read(path); got != "previous\n" {
		t.Errorf("before Commit the path holds %q", got)
	}
	if err := f.Commit(); err != nil || read(path) != "new\n" {
		t.Errorf("after Commit (err %v) the path holds %q, want new", err, read(path))
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the replaced file's 0600", st.Mode().Perm())
	}
	f, _ = Create(path)
	f.Write([]byte("half"))
	f.Abort()
	if got := read(path); got != "new\n" {
		t.Errorf("after Abort the path holds %q", got)
	}
	f, _ = Create(path)
	f.Write([]byte("partial\n"))
	if err := f.CommitAs(PartialPath(path)); err != nil || read(filepath.Join(dir, "r.partial.csv")) != "partial\n" || read(path) != "new\n" {
		t.Errorf("CommitAs: err %v, r.partial.csv %q, r.csv %q", err, read(filepath.Join(dir, "r.partial.csv")), read(path))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("temporary files left behind: %v", ents)
	}
	for _, c := range []struct{ path, want string }{
		{dir, "is a directory"},
		{filepath.Join(dir, "nodir", "r.csv"), "directory " + filepath.Join(dir, "nodir") + " does not exist"},
		{"/dev/null", "is not a regular file"},
	} {
		if _, err := Create(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Create(%s): %v, want %q", c.path, err, c.want)
		}
	}
	if _, err := PlotFormat("k.dat"); err == nil || !strings.Contains(err.Error(), `unsupported plot format ".dat"`) {
		t.Errorf("PlotFormat(k.dat): %v", err)
	}
}

// TestCSVWriterStreams: rows reach the writer as they are written, in the form WriteCSV
// uses, and a comment line closes a partial file.
func TestCSVWriterStreams(t *testing.T) {
	var b bytes.Buffer
	w := NewCSVWriter(&b, []string{"t", "x"})
	w.Row([]float64{0, 0.1})
	w.Row([]float64{1, -2.5e-17})
	w.Comment("run failed at t=1: no\nconvergence")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := "t,x\n0,0.1\n1,-2.5e-17\n# run failed at t=1: no convergence\n"; b.String() != want {
		t.Errorf("csv:\n%q\nwant\n%q", b.String(), want)
	}
}
