package modelfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// maxFuzzInput caps the inputs FuzzParse parses. The parser allocates up to about 650
// bytes per byte of input within the limits of limits.go, so 16 KiB bounds one input to
// some 10 MB and keeps the fuzzer's workers small and fast (the fuzzer minimizes each new
// input by re-running it many times); every limit can be passed within 16 KiB, and the
// limits are tested on large inputs by TestHostileInputsBoundedMemory.
const maxFuzzInput = 16 << 10

// FuzzParse: no input panics Parse, and every rejection is an ErrorList of errors that name
// the file. The seed corpus is the examples, the malformed files (repeat blocks among
// them), the test models and small versions of the hostile inputs. Inputs over maxFuzzInput are skipped.
// Run with: go test -run '^$' -fuzz FuzzParse -fuzztime 30s ./modelfile/
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"../examples/*.yaml", "../examples/iftomm/*.yaml", "testdata/bad/*.yaml", "testdata/bad/*.json"} {
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
	f.Add([]byte(repeatedChain)) // parameters, nested lists of copies, ${...} in keys and numbers
	for _, c := range hostileInputs() {
		if len(c.data) <= maxFuzzInput {
			f.Add([]byte(c.data))
		}
	}
	// Small versions of the hostile shapes, just past each limit.
	var keys strings.Builder
	for i := range MaxMappingKeys + 1 {
		keys.WriteString("k" + strconv.Itoa(i) + ": 1\n")
	}
	f.Add([]byte(keys.String()))
	f.Add([]byte(strings.Repeat("[", MaxNesting+1)))
	f.Add([]byte(strings.Repeat(`{"a":`, MaxNesting+1)))
	f.Add([]byte(strings.Repeat("- ", MaxNesting+1) + "x"))
	f.Add([]byte("\ufeff" + pendulumYAML))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		// A hang would stall the fuzzer silently; a panic saves the input as a crash.
		watchdog := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("Parse hangs on %q", data)) })
		defer watchdog.Stop()
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
