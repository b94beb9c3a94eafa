package sweep

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"

	batchv1 "k8s.io/api/batch/v1"
	k8syaml "sigs.k8s.io/yaml"
)

// k8sSchema compiles the vendored excerpt of the Kubernetes API schema of batch/v1 Job.
func k8sSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/k8s-job-batch-v1.excerpt.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("job.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("job.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func manifest(t *testing.T, text []byte) (any, map[string]any) {
	t.Helper()
	j, err := yaml.YAMLToJSON(text)
	if err != nil {
		t.Fatalf("manifest is not YAML: %v\n%s", err, text)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return inst, inst.(map[string]any)
}

var dns1123Label = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// TestEmitK8sValidates checks the Indexed Job against the schema excerpt and against the
// API server's rules for Indexed Jobs that a schema does not express (completionMode's
// description, pod restart policy of a Job, name lengths).
func TestEmitK8sValidates(t *testing.T) {
	s, err := Load(example)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := s.EmitK8s(&b, EmitOptions{SweepFile: "sweeps/kc.yaml", Out: "results/kc", Shards: 4, Workers: 2, Image: "registry.example/linkage:1", Claim: "sweeps"}); err != nil {
		t.Fatal(err)
	}
	inst, m := manifest(t, b.Bytes())
	if err := k8sSchema(t).Validate(inst); err != nil {
		t.Fatalf("manifest fails the Kubernetes schema: %v\n%s", err, b.String())
	}
	spec := m["spec"].(map[string]any)
	pod := spec["template"].(map[string]any)["spec"].(map[string]any)
	c := pod["containers"].([]any)[0].(map[string]any)
	name := m["metadata"].(map[string]any)["name"].(string)
	args := strings.Join(toStrings(c["args"]), " ")
	for _, check := range []struct {
		ok   bool
		what string
	}{
		{spec["completionMode"] == "Indexed", "completionMode Indexed"},
		{fmt.Sprint(spec["completions"]) == "4", "completions = shards"},
		{pod["restartPolicy"] == "Never", "restartPolicy Never (backoffLimitPerIndex needs it)"},
		{dns1123Label.MatchString(name) && len(name) <= 63-6, "job name a DNS-1123 label leaving room for -INDEX in pod hostnames"},
		{strings.Contains(args, "--shard $(JOB_COMPLETION_INDEX)/4"), "shard from $(JOB_COMPLETION_INDEX)"},
		{strings.Contains(args, "sweeps/kc.yaml") && strings.Contains(args, "--out results/kc"), "sweep file and output on the volume"},
		{c["workingDir"] == "/data" && c["volumeMounts"].([]any)[0].(map[string]any)["mountPath"] == "/data", "working directory is the volume's mount"},
	} {
		if !check.ok {
			t.Errorf("manifest: want %s\n%s", check.what, b.String())
		}
	}
	// The schema check is not vacuous: a misspelt field fails it.
	bad := strings.Replace(b.String(), "completionMode", "completionMod", 1)
	inst, _ = manifest(t, []byte(bad))
	if err := k8sSchema(t).Validate(inst); err == nil || !strings.Contains(err.Error(), "completionMod") {
		t.Errorf("a misspelt completionMode passed the schema: %v", err)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestEmitSlurm(t *testing.T) {
	s, err := Load(example)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := s.EmitSlurm(&b, EmitOptions{SweepFile: "kc's.yaml", Out: "out", Dir: "/shared", Shards: 5, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#!/bin/bash\n", "#SBATCH --array=0-4\n", "#SBATCH --cpus-per-task=2\n", "#SBATCH --chdir=/shared\n",
		`--shard "${SLURM_ARRAY_TASK_ID}/5"`, `sweep 'kc'\''s.yaml'`, "linkage sweep merge"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("script lacks %q:\n%s", want, b.String())
		}
	}
	if err := s.EmitSlurm(&b, EmitOptions{Shards: 0}); err == nil || !strings.Contains(err.Error(), "0 shards") {
		t.Errorf("0 shards: %v", err)
	}
}

// TestEmitK8sDecodesAsJob: the emitted manifest decodes strictly (unknown fields are errors)
// into batch/v1 Job of k8s.io/api, the Go types the Kubernetes API server is generated from,
// so every field the manifest writes exists in the real API with the right type; the
// Indexed-Job fields come through with their values.
func TestEmitK8sDecodesAsJob(t *testing.T) {
	s, err := Load(example)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := s.EmitK8s(&b, EmitOptions{SweepFile: "sweeps/kc.yaml", Out: "results/kc", Shards: 4, Workers: 2, Image: "registry.example/linkage:1", Claim: "sweeps"}); err != nil {
		t.Fatal(err)
	}
	var job batchv1.Job
	if err := k8syaml.UnmarshalStrict(b.Bytes(), &job); err != nil {
		t.Fatalf("manifest is not a batch/v1 Job: %v\n%s", err, b.String())
	}
	if job.Kind != "Job" || job.APIVersion != "batch/v1" || job.Spec.CompletionMode == nil || *job.Spec.CompletionMode != batchv1.IndexedCompletion ||
		job.Spec.Completions == nil || *job.Spec.Completions != 4 {
		t.Errorf("decoded Job %+v: want kind Job, batch/v1, Indexed completion mode, 4 completions", job.Spec)
	}
	bad := strings.Replace(b.String(), "completionMode", "completionMod", 1)
	if err := k8syaml.UnmarshalStrict([]byte(bad), &job); err == nil {
		t.Error("a misspelt completionMode decoded as a Job")
	}
}
