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
