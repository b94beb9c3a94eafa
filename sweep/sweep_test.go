package sweep

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const example = "../examples/sweeps/stiff-pendulum-kc.yaml"

// runLocal runs every run of spec into out and writes the tables.
func runLocal(t *testing.T, s *Spec, out string, workers int) []Row {
	t.Helper()
	if err := s.Execute(context.Background(), Options{Out: out, Workers: workers}); err != nil {
		t.Fatal(err)
	}
	rows, err := s.Merge(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteTables(out, rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestExampleRunsAndRecordsFailures(t *testing.T) {
	s, err := Load(example)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rows := runLocal(t, s, out, 2)
	if len(rows) != 24 {
		t.Fatalf("%d rows, want 24", len(rows))
	}
	var ok, failed int
	for i, r := range rows {
		if r.Run != i {
			t.Fatalf("row %d has run %d", i, r.Run)
		}
		switch r.Status {
		case "ok":
			ok++
		case "failed":
			failed++
			if r.Error == "" {
				t.Errorf("run %d failed without an error", i)
			}
		}
	}
	t.Logf("%d ok, %d failed", ok, failed)
	if ok == 0 {
		t.Errorf("no run succeeded")
	}
	csv, err := os.ReadFile(filepath.Join(out, TableCSV))
	if err != nil {
		t.Fatal(err)
	}
	head := strings.SplitN(string(csv), "\n", 2)[0]
	if want := "run,k,c,method,h,status,error,t_reached,steps,rejected,energy_drift,max_residual,final(bar1.theta),maxabs(bar2.omega)"; head != want {
		t.Errorf("header %q, want %q", head, want)
	}
	for _, f := range []string{TableParquet, "drift-vs-h.png"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}

// TestShardsMergeToTheLocalTable: three shards merged give the bytes of a local run, in
// CSV and in Parquet.
func TestShardsMergeToTheLocalTable(t *testing.T) {
	s, err := Load(example)
	if err != nil {
		t.Fatal(err)
	}
	local := t.TempDir()
	runLocal(t, s, local, 1)
	sharded := t.TempDir()
	for i := range 3 {
		if err := s.Execute(context.Background(), Options{Out: sharded, Shard: Shard{i, 3}, Workers: 1}); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := s.Merge(sharded)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteTables(sharded, rows); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{TableCSV, TableParquet} {
		a, _ := os.ReadFile(filepath.Join(local, f))
		b, _ := os.ReadFile(filepath.Join(sharded, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: merged shards (%d bytes) differ from the local run (%d bytes)", f, len(b), len(a))
		}
	}
}
