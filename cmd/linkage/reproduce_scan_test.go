package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"linkage/reproduce"
)

// haug1997-scan writes its plot and table into --out as every experiment does (it wrote
// nothing). The scan itself takes minutes; its plotting is checked on a small result.
func TestHaugScanWritesPlotAndCSV(t *testing.T) {
	res := &reproduce.HaugScanResult{Impl: "gcp", FV: "hht", Expl: "abm", Ref: "rk4", Rows: []reproduce.HaugScanRow{
		{K: 1e4, C: 2, Impl: reproduce.HaugMax{H: 1e-2}, FV: reproduce.HaugMax{H: 5e-3}, Expl: reproduce.HaugMax{H: 1e-4}},
		{K: 1e5, C: 2, Impl: reproduce.HaugMax{H: 3e-3}, FV: reproduce.HaugMax{H: 2e-3}, Expl: reproduce.HaugMax{H: 3e-5}},
	}}
	dir := t.TempDir()
	var out bytes.Buffer
	if err := writeHaugScan(dir, &out, res); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"haug1997-scan.png", "haug1997-scan.csv"} {
		path := filepath.Join(dir, name)
		if st, err := os.Stat(path); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", path, err)
		}
		if !strings.Contains(out.String(), path) {
			t.Errorf("output does not name %s:\n%s", path, out.String())
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "haug1997-scan.csv"))
	if !strings.HasPrefix(string(b), "k,c,h_impl,h_fv,h_expl\n10000,2,0.01,0.005,0.0001\n") {
		t.Errorf("CSV:\n%s", b)
	}
}
