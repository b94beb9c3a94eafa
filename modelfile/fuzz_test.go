package modelfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: no input panics Parse, and every rejection is an ErrorList of errors that name
// the file. The seed corpus is the examples, the malformed files and the test models.
// Run with: go test -run '^$' -fuzz FuzzParse -fuzztime 30s ./modelfile/
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"../examples/*.yaml", "testdata/bad/*.yaml", "testdata/bad/*.json"} {
		files, _ := filepath.Glob(glob)
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(pendulumYAML))
	f.Add([]byte(pendulumJSON))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse("fuzz.yaml", data)
		if err == nil {
			if doc == nil {
				t.Fatal("Parse returned neither a document nor an error")
			}
			return
		}
		var list ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Fatalf("error %v is not a non-empty ErrorList", err)
		}
		for _, e := range list {
			if e.File != "fuzz.yaml" || e.Msg == "" {
				t.Fatalf("error %+v lacks the file or the message", e)
			}
		}
	})
}

// FuzzExpr: no expression panics ParseExpr or Eval.
func FuzzExpr(f *testing.F) {
	for _, s := range []string{"0.1*sin(2*pi*t)", "-t^2", "exp(-t)/(1+t)", "((((t))))", "2^t^2", "sqrt(log(1+t*t))", "1e-3*t", "3 deg"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseExpr(s)
		if err != nil {
			var pe *ExprError
			if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(s) {
				t.Fatalf("ParseExpr(%q): error %v is not an *ExprError within the input", s, err)
			}
			return
		}
		e.Eval(0.3)
	})
}
