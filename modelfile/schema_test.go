package modelfile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("model.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("model.schema.json")
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return s
}

// instance reads a YAML or JSON file as the JSON value the schema validates.
func instance(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// TestSchemaAcceptsValid: every example and test model that Parse accepts, the schema
// accepts (the schema promises no more than Parse).
func TestSchemaAcceptsValid(t *testing.T) {
	s := compileSchema(t)
	files, _ := filepath.Glob("../examples/*.yaml")
	iftomm, _ := filepath.Glob("../examples/iftomm/*.yaml")
	files = append(files, iftomm...)
	if len(files) == 0 {
		t.Fatal("no examples found")
	}
	inputs := map[string][]byte{"pendulumYAML": []byte(pendulumYAML), "pendulumJSON": []byte(pendulumJSON)}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[p] = data
		if strings.Contains(p, "spatial-double-pendulum") { // the Lie-group route's key
			lie := strings.Replace(strings.Replace(string(data), "dimension: 3", "dimension: 3\nrotations: lie-group", 1), "method: radau5", "method: lie-genalpha", 1)
			inputs[p+" (rotations: lie-group)"] = []byte(lie)
		}
		if strings.HasSuffix(p, "double-pendulum.yaml") && !strings.Contains(p, "spatial") {
			inputs[p+" (rotations: angle)"] = append([]byte("rotations: angle\n"), data...)
		}
	}
	for name, data := range inputs {
		if _, err := Parse(name, data); err != nil {
			t.Errorf("Parse rejects %s: %v", name, err)
			continue
		}
		if err := s.Validate(instance(t, data)); err != nil {
			t.Errorf("the schema rejects %s, which Parse accepts: %v", name, err)
		}
	}
}

// TestSchemaRejectsStructural: the malformed files whose fault is structure, type or range
// (not a reference between elements) are rejected by the schema too.
func TestSchemaRejectsStructural(t *testing.T) {
	s := compileSchema(t)
	for _, name := range []string{"negative-mass.yaml", "mass-string.yaml", "missing-mass.yaml",
		"unknown-top-key.yaml", "missing-bodies.yaml", "ground-body.yaml", "unknown-joint-type.yaml",
		"distance-no-length.yaml", "length-on-revolute.yaml", "force-unknown-type.yaml", "tsda-negative-k.yaml",
		"gravity-one.yaml", "name-with-dot.yaml", "table-unknown-key.yaml", "json-wrong-type.json",
		"point-force-empty.yaml", "rsda-joint-and-markers.yaml", "not-mapping.yaml", "keep-bad.yaml",
		"no-bodies.yaml", "no-bodies-3d.yaml", "no-bodies.json", "tol-huge.yaml", "max-steps-negative.yaml",
		"max-steps-fraction.yaml", "mass-zero.yaml", "distance-zero.yaml", "bushing-negative.yaml",
		"marker-point-three.yaml", "simulation-unknown-key.yaml", "3d-inertia-two.yaml", "3d-gravity-two.yaml",
		"bodies-null.yaml", "name-energy.yaml", "joint-missing-type.yaml", "dimension-4.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata/bad", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(instance(t, data)); err == nil {
			t.Errorf("the schema accepts %s", name)
		}
	}
}
