package modelfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// badCase reads the expectation of a malformed file: its first line "# want LINE: TEXT"
// (or, for JSON, the file NAME.want holding "LINE: TEXT"); LINE 0 means the error has no
// line (an empty file). "# want build: TEXT" is a file that Parse accepts and Build
// refuses (a motion not finite on the run, an impossible guess); a leading byte order mark
// is skipped.
func badCase(t *testing.T, path string, data []byte) (build bool, line int, want string) {
	t.Helper()
	spec := strings.TrimPrefix(strings.SplitN(string(data), "\n", 2)[0], "\ufeff")
	if strings.HasSuffix(path, ".json") {
		w, err := os.ReadFile(strings.TrimSuffix(path, ".json") + ".want")
		if err != nil {
			t.Fatal(err)
		}
		spec = "# want " + strings.TrimSpace(string(w))
	}
	m := regexp.MustCompile(`^# want (build|\d+): (.+)$`).FindStringSubmatch(spec)
	if m == nil {
		t.Fatalf("%s: first line %q is not \"# want LINE: TEXT\" or \"# want build: TEXT\"", path, spec)
	}
	if m[1] == "build" {
		return true, 0, m[2]
	}
	line, _ = strconv.Atoi(m[1])
	return false, line, m[2]
}

// TestBadFiles: every malformed or hostile file under testdata/bad gives an error that
// names the file and contains the expected text, never a panic: an ErrorList from Parse
// whose first error is on the expected line, or for "# want build:" files an error from
// Build.
func TestBadFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	jsonFiles, _ := filepath.Glob("testdata/bad/*.json")
	files = append(files, jsonFiles...)
	if len(files) < 150 {
		t.Fatalf("%d malformed files, issue 13 asks for at least 150", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			build, line, want := badCase(t, path, data)
			doc, err := Parse(path, data)
			if build {
				if err != nil {
					t.Fatalf("Parse rejected a file meant to fail at Build: %v", err)
				}
				_, err = Build(doc)
				if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), path) {
					t.Errorf("Build: %v\nwant an error starting with %s and containing\n  %s", err, path, want)
				}
				return
			}
			if err == nil {
				t.Fatalf("Parse accepted a malformed file; want an error containing %q", want)
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v is not an ErrorList", err)
			}
			first := list[0]
			if !strings.Contains(first.Error(), want) {
				t.Errorf("first error\n  %v\nwant it to contain\n  %s", first, want)
			}
			if first.File != path || !strings.HasPrefix(first.Error(), path) {
				t.Errorf("error %q does not start with the file name %s", first, path)
			}
			if first.Line != line {
				t.Errorf("error %q on line %d, want line %d", first, first.Line, line)
			}
		})
	}
}

const pendulumYAML = `
name: pendulum
gravity: [0, -9.81]
bodies:
  - {name: arm, mass: 1, inertia: 0.0833333333333333}
markers:
  - {name: O, body: ground}
  - {name: A, body: arm, point: [-0.5, 0]}
joints:
  - {name: pin, type: revolute, i: O, j: A}
initial:
  bodies:
    arm: {position: [0.5, 0]}
simulation: {t_end: 1, outputs: [arm, pin.fy, energy]}
`

// pendulumJSON is the same document in JSON.
const pendulumJSON = `{
  "name": "pendulum",
  "gravity": [0, -9.81],
  "bodies": [{"name": "arm", "mass": 1, "inertia": 0.0833333333333333}],
  "markers": [{"name": "O", "body": "ground"}, {"name": "A", "body": "arm", "point": [-0.5, 0]}],
  "joints": [{"name": "pin", "type": "revolute", "i": "O", "j": "A"}],
  "initial": {"bodies": {"arm": {"position": [0.5, 0]}}},
  "simulation": {"t_end": 1, "outputs": ["arm", "pin.fy", "energy"]}
}`

// TestYAMLAndJSON: the two syntaxes of one model decode to the same document.
func TestYAMLAndJSON(t *testing.T) {
	y, err := Parse("p.yaml", []byte(pendulumYAML))
	if err != nil {
		t.Fatal(err)
	}
	j, err := Parse("p.json", []byte(pendulumJSON))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := fmt.Sprintf("%+v", y.Model), fmt.Sprintf("%+v", j.Model); a != b {
		t.Errorf("YAML and JSON differ:\n%s\n%s", a, b)
	}
	if l, c := y.Line("joints[0].i"); l != 10 || c != 36 {
		t.Errorf("joints[0].i at %d:%d, want 10:36", l, c)
	}
	got := strings.Join(y.Model.OutputChannels(), " ")
	want := "arm.x arm.y arm.theta arm.vx arm.vy arm.omega arm.ax arm.ay arm.alpha pin.fy energy.kinetic energy.potential energy.work_nc energy.work_driving energy.invariant"
	if got != want {
		t.Errorf("channels\n  %s\nwant\n  %s", got, want)
	}
}

// TestAngles: the deg rule of docs/model-format.md.
func TestAngles(t *testing.T) {
	doc, err := Parse("a.yaml", []byte(`
bodies: [{name: b, mass: 1, inertia: 1}]
markers:
  - {name: m1, body: b, angle: 90 deg}
  - {name: m2, body: b, angle: "pi/4"}
  - {name: m3, body: b, angle: 0.5}
  - {name: m4, body: b, angle: "-30deg"}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1.5707963267948966, 0.7853981633974483, 0.5, -0.5235987755982988}
	for i, mk := range doc.Model.Markers {
		// 1 ulp: a product of exact inputs by π/180 is correctly rounded once more.
		if d := float64(mk.Angle) - want[i]; d > 2e-16 || d < -2e-16 {
			t.Errorf("marker %s angle %.17g, want %.17g", mk.Name, float64(mk.Angle), want[i])
		}
	}
}

// TestAllErrorsReported: several independent problems are all listed, each with its line.
func TestAllErrorsReported(t *testing.T) {
	_, err := Parse("m.yaml", []byte(`bodies:
  - {name: a, mass: -1, inertia: 1}
  - {name: b, mass: 1, inertia: -1}
markers:
  - {name: M, body: c}
`))
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("got %v, want an ErrorList", err)
	}
	var lines []int
	for _, e := range list {
		lines = append(lines, e.Line)
	}
	if fmt.Sprint(lines) != "[2 3 5]" {
		t.Errorf("errors on lines %v, want [2 3 5]:\n%v", lines, err)
	}
}
