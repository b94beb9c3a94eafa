package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const exampleSweep = "../../examples/sweeps/stiff-pendulum-kc.yaml"

// TestSweepCLILocalEqualsShardsMerged: the local run and three shards joined by
// `linkage sweep merge` write the same results.csv and results.parquet.
func TestSweepCLILocalEqualsShardsMerged(t *testing.T) {
	local, sharded := t.TempDir(), t.TempDir()
	code, out, errs := runCLI("sweep", exampleSweep, "--out", local, "--progress=false")
	if code != 0 || !strings.Contains(out, "24 runs, 21 ok, 3 failed") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, sh := range []string{"0/3", "1/3", "2/3"} {
		if code, out, errs := runCLI("sweep", exampleSweep, "--shard", sh, "--out", sharded, "--workers", "1", "--progress=false"); code != 0 {
			t.Fatalf("shard %s: exit %d\n%s%s", sh, code, out, errs)
		}
	}
	code, out, errs = runCLI("sweep", "merge", exampleSweep, "--out", sharded)
	if code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, out, errs)
	}
	for _, f := range []string{"results.csv", "results.parquet"} {
		a, _ := os.ReadFile(filepath.Join(local, f))
		b, _ := os.ReadFile(filepath.Join(sharded, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s of the merged shards differs from the local run's", f)
		}
	}
}

func TestSweepCLIRefusals(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	model, _ := filepath.Abs("../../examples/stiff-double-pendulum.yaml")
	if err := os.WriteFile(bad, []byte("model: "+model+"\nparameters:\n  - {path: forces.spring7.k, values: [1]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"sweep", bad, "--out", dir}, 1, "bad.yaml:3: parameters[0].path: no item named spring7 in forces"},
		{[]string{"sweep", exampleSweep, "--shard", "3/3", "--out", dir}, 2, "--shard: shard \"3/3\": want i/n with 0 <= i < n"},
		{[]string{"sweep", exampleSweep, "--emit", "k8s", "--shards", "2"}, 2, "--emit k8s needs --image"},
		{[]string{"sweep", exampleSweep, "--emit", "pbs", "--shards", "2"}, 2, "--emit \"pbs\": want slurm or k8s"},
		{[]string{"sweep", exampleSweep, "--emit", "slurm"}, 2, "--emit needs --shards n"},
		{[]string{"sweep", "merge", exampleSweep, "--out", dir}, 1, "want the parts of one shard count"},
	} {
		code, _, errs := runCLI(c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "parts")); err == nil {
		t.Errorf("a refused sweep wrote parts")
	}
}
