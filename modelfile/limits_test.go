package modelfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// hostileInputs are shapes whose parse once took gigabytes (issue 13, item 3), and attempts
// to hide them from checkStructure behind quotes, anchors, tags, comments, block scalars
// and line breaks. Each maps to the text its first error must contain.
func hostileInputs() map[string]struct {
	data string
	want string
} {
	rep := strings.Repeat
	keys := func(n int, indent string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(indent + "k" + strconv.Itoa(i) + ": 1\n")
		}
		return b.String()
	}
	deep := "nested more than 64 levels deep"
	many := "more than 1000 keys in the mapping"
	return map[string]struct{ data, want string }{
		"flow-100k":         {rep("[", 100_000), deep},
		"flow-10k":          {rep("[", 10_000), deep},
		"json-50k":          {rep(`{"a":`, 50_000), deep},
		"json-5k":           {rep(`{"a": `, 5_000), deep},
		"json-array-in-key": {`{"bodies": ` + rep("[", 5_000), deep},
		"mapping-flow":      {rep("{", 10_000), deep},
		"dash-100k":         {rep("- ", 100_000) + "x", deep},
		"dash-lines": {func() string {
			var b strings.Builder
			for i := range 2000 {
				b.WriteString(rep(" ", i) + "- \n")
			}
			return b.String()
		}(), deep},
		"block-indent": {func() string {
			var b strings.Builder
			for i := range 2000 {
				b.WriteString(rep(" ", i) + "k:\n")
			}
			return b.String()
		}(), deep},
		"value-flow":          {"bodies: " + rep("[", 10_000), deep},
		"anchor-flow":         {"bodies: &a " + rep("[", 10_000), deep},
		"tag-flow":            {"bodies: !!seq " + rep("[", 10_000), deep},
		"anchor-in-flow":      {"bodies: " + rep("[&a ", 10_000), deep},
		"after-quote":         {`name: "it's [" ` + "\nbodies: " + rep("[", 10_000), deep},
		"after-apostrophe":    {"name: it's\nbodies: " + rep("[", 10_000), deep},
		"flow-apostrophe":     {"[a'b, " + rep("[", 10_000), deep},
		"after-comment":       {"# ' [\nbodies: " + rep("[", 10_000), deep},
		"after-block-scalar":  {"description: |\n  ' [ {\nbodies: " + rep("[", 10_000), deep},
		"cr-lines":            {"description: x\r" + "bodies: " + rep("[", 10_000), deep},
		"keys-top-25k":        {keys(25_000, ""), many},
		"keys-top-5k":         {keys(5_000, ""), many},
		"keys-nested-5k":      {"a:\n" + keys(5_000, "  "), many},
		"keys-in-item-5k":     {"- a: 1\n" + keys(5_000, "  "), many},
		"keys-cr":             {strings.ReplaceAll(keys(5_000, ""), "\n", "\r"), many},
		"keys-crlf":           {strings.ReplaceAll(keys(5_000, ""), "\n", "\r\n"), many},
		"keys-after-scalar":   {"a: b [\n" + keys(5_000, ""), many},
		"keys-after-flowopen": {"a: 'b\n  c' \n" + keys(5_000, ""), many},
		"too-big":             {"bodies: []\n" + rep("#", MaxFileBytes), "larger than the limit of 2097152 bytes"},
	}
}

// TestHostileInputsBoundedMemory: every hostile input is refused with an error that names
// the file, the line (except for the size) and the limit, and costs the parse less than
// 50 MB of allocation (the inputs above took 112 MB to 6.6 GB before the limits).
func TestHostileInputsBoundedMemory(t *testing.T) {
	for name, c := range hostileInputs() {
		t.Run(name, func(t *testing.T) {
			data := []byte(c.data)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := Parse("h.yaml", data)
			runtime.ReadMemStats(&after)
			// 50 MB: ten times what a 200 KB file of ordinary YAML costs (about 100 bytes
			// per byte); the inputs' sizes are below 1 MB except too-big, refused unread.
			if d := after.TotalAlloc - before.TotalAlloc; d > 50<<20 {
				t.Errorf("parsing allocated %d MB, want < 50 MB", d>>20)
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("Parse returned %v, want an ErrorList", err)
			}
			if e := list[0]; !strings.Contains(e.Error(), c.want) || !strings.HasPrefix(e.Error(), "h.yaml:") {
				t.Errorf("error %q, want it to start with the file and contain %q", e, c.want)
			}
			if name != "too-big" && list[0].Line == 0 {
				t.Errorf("error %q has no line", list[0])
			}
		})
	}
}

// TestLimitsAcceptLegitimate: the scan counts nothing in quoted strings, comments and block
// scalars, and a model at the edge of the limits (MaxNesting levels, MaxMappingKeys keys)
// passes the scan.
func TestLimitsAcceptLegitimate(t *testing.T) {
	okDeep := strings.Repeat("[", MaxNesting-1) + strings.Repeat("]", MaxNesting-1)
	var keys strings.Builder
	for i := range MaxMappingKeys {
		keys.WriteString("k" + strconv.Itoa(i) + ": 1\n")
	}
	for name, data := range map[string]string{
		"quoted":       `description: "` + strings.Repeat("[", 1000) + `"` + "\nname: '" + strings.Repeat("{", 1000) + "'\n",
		"comment":      "# " + strings.Repeat("[", 1000) + "\nname: x # " + strings.Repeat("{", 1000) + "\n",
		"block-scalar": "description: |\n  " + strings.Repeat("[", 1000) + "\n  k: 1\n" + strings.Repeat("  x: 2\n", 2000) + "name: x\n",
		"plain-text":   "description: a [b] c {d " + strings.Repeat("[", 1000) + "\n",
		"deep-flow":    "description: x\nbodies: " + okDeep + "\n",
		"keys":         keys.String(),
	} {
		if err := checkStructure("ok.yaml", []byte(data)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestLoadLimitsRead: Load refuses a file beyond MaxFileBytes with the limit in the message.
func TestLoadLimitsRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(p, []byte(strings.Repeat("# padding\n", MaxFileBytes/10+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	if err == nil || !strings.Contains(err.Error(), p+": file larger than the limit of 2097152 bytes") {
		t.Errorf("Load: %v", err)
	}
}

// TestBOM: a leading UTF-8 byte order mark is not part of the first key.
func TestBOM(t *testing.T) {
	doc, err := Parse("bom.yaml", append([]byte("\ufeff"), pendulumYAML[1:]...))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Model.Name != "pendulum" {
		t.Errorf("name %q, want pendulum", doc.Model.Name)
	}
	if l, c := doc.Line("name"); l != 1 || c != 7 {
		t.Errorf("name at %d:%d, want 1:7", l, c)
	}
}
