package modelfile

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"linkage/cputime"
)

// repeatedChain is a planar chain of N bars written with parameters and repeat blocks.
const repeatedChain = `
name: chain
parameters: {N: 3, L: 2, m: 1.5, J: "m*L^2/12"}
gravity: [0, "${-9.81}"]
bodies:
  - repeat: {i: 1..N}
    each: {name: "bar${i}", mass: "${m}", inertia: "${J}"}
markers:
  - {name: O, body: ground}
  - repeat: {i: 1..N}
    each:
      - {name: "bar${i}.A", body: "bar${i}", point: ["${-L/2}", 0]}
      - {name: "bar${i}.B", body: "bar${i}", point: ["${L/2}", 0]}
joints:
  - {name: pin1, type: revolute, i: O, j: bar1.A}
  - repeat: {i: 2..N}
    each: {name: "pin${i}", type: revolute, i: "bar${i-1}.B", j: "bar${i}.A"}
initial:
  bodies:
    - repeat: {i: 1..N}
      each:
        bar${i}: {position: ["${(i-0.5)*L}", 0], angle: "${i*30} deg"}
  keep:
    - repeat: {i: 1..1}
      each: bar${i}.theta
simulation: {t_end: 1}
`

// TestRepeatExpands: names, numbers and expressions of the copies, parameters defined by
// expressions, ${...} outside repeats, list items spliced, initial.bodies as a list.
func TestRepeatExpands(t *testing.T) {
	doc, err := Parse("chain.yaml", []byte(repeatedChain))
	if err != nil {
		t.Fatal(err)
	}
	m := doc.Model
	if got := fmt.Sprint(m.Parameters); got != "map[J:0.5 L:2 N:3 m:1.5]" {
		t.Errorf("parameters %s, want map[J:0.5 L:2 N:3 m:1.5]", got)
	}
	if m.Gravity != (Vec{0, -9.81}) {
		t.Errorf("gravity %v, want [0 -9.81]", m.Gravity)
	}
	var names []string
	for _, b := range m.Bodies {
		names = append(names, b.Name)
		if b.Mass != 1.5 || b.Inertia != 0.5 {
			t.Errorf("body %s: mass %g, inertia %g; want 1.5, 0.5", b.Name, b.Mass, b.Inertia)
		}
	}
	if got := strings.Join(names, " "); got != "bar1 bar2 bar3" {
		t.Errorf("bodies %s, want bar1 bar2 bar3", got)
	}
	names = names[:0]
	for _, mk := range m.Markers {
		names = append(names, fmt.Sprintf("%s@%s%v", mk.Name, mk.Body, mk.Point))
	}
	want := "O@ground[0 0] bar1.A@bar1[-1 0] bar1.B@bar1[1 0] bar2.A@bar2[-1 0] bar2.B@bar2[1 0] bar3.A@bar3[-1 0] bar3.B@bar3[1 0]"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("markers\n  %s\nwant\n  %s", got, want)
	}
	names = names[:0]
	for _, j := range m.Joints {
		names = append(names, j.Name+":"+j.I+"-"+j.J)
	}
	if got, want := strings.Join(names, " "), "pin1:O-bar1.A pin2:bar1.B-bar2.A pin3:bar2.B-bar3.A"; got != want {
		t.Errorf("joints %s, want %s", got, want)
	}
	for i := 1; i <= 3; i++ {
		st, ok := m.Initial.Bodies[fmt.Sprintf("bar%d", i)]
		wantAngle := float64(i) * 30 * math.Pi / 180
		if !ok || st.Position != (Vec{2 * (float64(i) - 0.5), 0}) || math.Abs(float64(st.Angle)-wantAngle) > 1e-15 {
			t.Errorf("initial bar%d: %+v (found %v), want position [%g 0], angle %g", i, st, ok, 2*(float64(i)-0.5), wantAngle)
		}
	}
	if got := strings.Join(m.Initial.Keep, " "); got != "bar1.theta" {
		t.Errorf("keep %q, want bar1.theta", got)
	}
	// Positions of the copies are the template's.
	if l, _ := doc.Line("bodies[2].name"); l != 7 {
		t.Errorf("bodies[2].name on line %d, want the template's line 7", l)
	}
}

// TestRepeatNested: a template holding a repeat block, mixed with plain items, in order;
// embedded numbers in their shortest form; functions of time around ${...}.
func TestRepeatNested(t *testing.T) {
	src := `
parameters: {w: 2}
bodies:
  - repeat: {i: 1..2}
    each:
      - repeat: {j: "0..i"}
        each: {name: "b${i}_${j}", mass: "${10*i+j}", inertia: 1}
      - {name: "half${2*i}", mass: 1, inertia: 1}
markers:
  - {name: M, body: b1_0}
motions: []
forces:
  - repeat: {k: 1..2}
    each: {name: "f${k}", type: torque, body: "b1_${k-1}", torque: "${w*k/8}*sin(t)"}
`
	doc, err := Parse("nested.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range doc.Model.Bodies {
		got = append(got, fmt.Sprintf("%s:%g", b.Name, b.Mass))
	}
	want := "b1_0:10 b1_1:11 half2:1 b2_0:20 b2_1:21 b2_2:22 half4:1"
	if strings.Join(got, " ") != want {
		t.Errorf("bodies\n  %s\nwant\n  %s", strings.Join(got, " "), want)
	}
	f := doc.Model.Forces
	if len(f) != 2 || f[1].Torque == nil || f[1].Torque.Kind != FuncExpr || f[1].Torque.Expr != "0.5*sin(t)" || f[1].Body != "b1_1" {
		t.Errorf("forces %+v, want f2 on b1_1 with torque 0.5*sin(t)", f)
	}
}

// TestRepeatErrors: faults in repeat blocks and in copies, with the template's line and
// the copy's repeat variables.
func TestRepeatErrors(t *testing.T) {
	head := "bodies:\n  - {name: a, mass: 1, inertia: 1}\n"
	for _, c := range []struct {
		name, src string
		line      int
		want      string
	}{
		{"copy 37", head + "  - repeat: {i: 1..40}\n    each: {name: \"b${i}\", mass: \"${37-i}\", inertia: 1}\n", 4,
			"bodies[37].mass: in repeat i=37: mass (kg) = 0; want a positive number"},
		{"nested copy", head + "  - repeat: {i: 1..3}\n    each:\n      - repeat: {j: 1..3}\n        each: {name: \"b${i}${j}\", mass: \"${i-j}\", inertia: 1}\n", 6,
			"bodies[1].mass: in repeat i=1, j=1: mass (kg) = 0"},
		{"duplicate copies", head + "  - repeat: {i: 1..2}\n    each: {name: b, mass: 1, inertia: 1}\n", 4,
			"bodies[2].name: in repeat i=2: duplicate name \"b\""},
		{"unknown variable", head + "  - repeat: {i: 1..2}\n    each: {name: \"b${j}\", mass: 1, inertia: 1}\n", 4,
			"in repeat i=1: in \"j\": column 1 of the expression: unknown name \"j\"; want a parameter or repeat variable (i)"},
		{"no each", head + "  - repeat: {i: 1..2}\n", 3, "repeat block without \"each\""},
		{"two variables", head + "  - repeat: {i: 1..2, j: 1..2}\n    each: {name: a}\n", 3, "want one variable and its range, as repeat: {i: 1..N}, got 2 variables"},
		{"not a range", head + "  - repeat: {i: 5}\n    each: {name: a}\n", 3, "want a range FIRST..LAST of integers, as 1..N, got the number 5"},
		{"fraction", "parameters: {N: 2.5}\n" + head + "  - repeat: {i: 1..N}\n    each: {name: a}\n", 4, "the last value of the range, N = 2.5, is not an integer"},
		{"uses t", head + "  - repeat: {i: 1..2}\n    each: {name: \"b${i*t}\", mass: 1, inertia: 1}\n", 4, "uses t"},
		{"unclosed", head + "  - repeat: {i: 1..2}\n    each: {name: \"b${i\", mass: 1, inertia: 1}\n", 4, "${ without its closing }"},
		{"shadow", "parameters: {i: 1}\n" + head + "  - repeat: {i: 1..2}\n    each: {name: a}\n", 4, "repeat variable name \"i\" is already a parameter"},
		{"reserved", head + "  - repeat: {pi: 1..2}\n    each: {name: a}\n", 3, "repeat variable name \"pi\" is reserved"},
		{"unknown key", head + "  - repeat: {i: 1..2}\n    items: [a]\n", 4, "unknown key \"items\" in a repeat block; valid keys here: repeat, each"},
		{"empty each", head + "  - repeat: {i: 1..2}\n    each: []\n", 4, "each is an empty list"},
		{"not in a list", "bodies:\n  - {name: a, mass: 1, inertia: 1}\ninitial:\n  bodies: {repeat: {i: 1..2}, each: {a: {}}}\n", 4, "a repeat block is an item of a list"},
		{"parameter name", "parameters: {2x: 1}\n" + head, 1, "parameter name \"2x\"; want a letter"},
		{"parameter later", "parameters: {a: \"b+1\", b: 1}\n" + head, 1, "unknown name \"b\""},
		{"division by zero", head + "  - repeat: {i: 0..1}\n    each: {name: \"b${1/i}\", mass: 1, inertia: 1}\n", 4, "in repeat i=0: \"1/i\" evaluates to +Inf"},
		{"initial twice", head + "initial:\n  bodies:\n    - {a: {angle: 1}}\n    - repeat: {i: 1..1}\n      each: {a: {angle: 2}}\n", 7,
			"initial.bodies.a: in repeat i=1: duplicate key \"a\": given in an earlier item of the list too"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("r.yaml", []byte(c.src))
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("Parse returned %v, want an ErrorList", err)
			}
			if e := list[0]; !strings.Contains(e.Error(), c.want) || e.Line != c.line {
				t.Errorf("first error\n  %v\nwant line %d and\n  %s", e, c.line, c.want)
			}
		})
	}
}

// TestRepeatErrorOnce: a fault of a template that does not depend on the repeat variable
// is reported once, not once per copy.
func TestRepeatErrorOnce(t *testing.T) {
	src := "bodies:\n  - repeat: {i: 1..100}\n    each: {name: \"b${i}\", mass: \"${m}\", inertia: 1}\n"
	_, err := Parse("r.yaml", []byte(src))
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("Parse returned %v, want one error", err)
	}
}

// TestRepeatLimit: expansions past MaxRepeatValues are refused with the count, before
// they are made (one repeat block) or as soon as the count passes the limit (nested ones),
// in bounded time and memory.
func TestRepeatLimit(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"one block", "bodies:\n  - repeat: {i: 1..1000000000000}\n    each: {name: \"b${i}\", mass: 1, inertia: 1}\n",
			"i = 1..1000000000000 makes 1000000000000 copies of a template of 4 value(s): 4e+12 values, more than the 1000000 of MaxRepeatValues"},
		{"nested", "bodies:\n  - repeat: {i: 1..100000}\n    each:\n      - repeat: {j: 1..100000}\n        each: {name: \"b${i}_${j}\", mass: 1, inertia: 1}\n",
			"j = 1..100000 makes 100000 copies of a template of 4 value(s): 4e+05 values after the 800000 made by earlier copies, more than the 1000000 of MaxRepeatValues"},
		{"many small", "bodies: [{name: a, mass: 1, inertia: 1}]\nsimulation:\n  outputs:\n    - repeat: {i: 1..150000}\n      each:\n        - repeat: {j: 1..10}\n          each: a\n",
			"in repeat i=100001: j = 1..10 makes 10 copies of a template of 1 value(s): 10 values after the 1000000 made by earlier copies, more than the 1000000 of MaxRepeatValues"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.name != "one block" {
				t.Skip("expands a million values")
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := Parse("r.yaml", []byte(c.src))
			wall := time.Since(start)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse returned %v, want an error containing %q", err, c.want)
			}
			// 600 MB: MaxRepeatValues values at about 400 bytes each (a copied node, its
			// path, its origin; measured 402 MB for "many small"); a runaway expansion
			// costs gigabytes.
			if d := after.TotalAlloc - before.TotalAlloc; d > 600<<20 {
				t.Errorf("Parse allocated %d MB, want < 600 MB", d>>20)
			}
			t.Logf("Parse took %v", wall) // time is bounded by TestRepeatExpansionNotQuadratic
		})
	}
}

// TestRepeatExpansionNotQuadratic: expanding repeat blocks does not cost time quadratic in
// the values made: 20 times the values within 200 times the time (quadratic: 400 times).
// Measured 2026-11-25: 30 000, 100 000, 300 000, 600 000 values in 63 ms, 213 ms, 1.04 s,
// 3.05 s, about n^1.4 (the profile is flat: decoding, map inserts of the channel names
// and the garbage collector's scans of the growing tree, no quadratic loop). A ratio of two
// runs in one test, not a wall-clock bound: a bound of 10 s on TestRepeatLimit's million
// values failed on a loaded 2-core machine (10.3 s there, under 2 s alone). The ratio is
// of the process's CPU time (the tests of this package run one at a time): a ratio of
// wall times failed too at load 35 (12.6 s against 31 ms), the big run sharing the cores
// with other jobs while the small one did not.
func TestRepeatExpansionNotQuadratic(t *testing.T) {
	parse := func(n int) time.Duration {
		src := fmt.Sprintf("bodies: [{name: a, mass: 1, inertia: 1}]\nsimulation:\n  outputs:\n    - repeat: {i: 1..%d}\n      each:\n        - repeat: {j: 1..10}\n          each: a\n", n)
		best := time.Duration(math.MaxInt64)
		for range 3 {
			start := cputime.Process()
			_, _ = Parse("r.yaml", []byte(src)) // the outputs' validity does not matter here
			best = min(best, cputime.Process()-start)
		}
		return best
	}
	small, big := parse(1500), parse(30000)
	if big > 200*small+50*time.Millisecond {
		t.Errorf("expanding 300 000 values took %v, 15 000 took %v: quadratic", big, small)
	}
}

// TestRepeatAtLimit: the largest expansion allowed parses within a memory budget, so that
// a file at the limit cannot exhaust a machine (the fuzzer's workers run under 3 GB).
func TestRepeatAtLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a model of 250 000 bodies")
	}
	n := MaxRepeatValues/4 - 1 // 4 values per copy: the mapping and its three values
	src := fmt.Sprintf("bodies:\n  - repeat: {i: 1..%d}\n    each: {name: \"b${i}\", mass: \"${i}\", inertia: \"${i}\"}\n", n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	doc, err := Parse("r.yaml", []byte(src))
	runtime.GC()
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Model.Bodies) != n || doc.Model.Bodies[n-1].Mass != float64(n) {
		t.Fatalf("%d bodies, want %d", len(doc.Model.Bodies), n)
	}
	// Measured on the test machine: 1.04 GB allocated in all, 160 MB kept by the
	// document. The budgets leave room for the fuzzer's workers (3 GB of address space,
	// half of it mapped by an idle worker).
	total, kept := after.TotalAlloc-before.TotalAlloc, int64(after.HeapAlloc)-int64(before.HeapAlloc)
	if total > 3<<29 || kept > 600<<20 {
		t.Errorf("Parse allocated %d MB and kept %d MB, want < 1536 MB and < 600 MB", total>>20, kept>>20)
	}
	t.Logf("allocated %d MB, kept %d MB", total>>20, kept>>20)
	runtime.KeepAlive(doc)
}

// TestSchemaRepeat: the JSON schema accepts the files with parameters and repeat blocks
// that Parse accepts, and rejects malformed repeat blocks and parameters.
func TestSchemaRepeat(t *testing.T) {
	s := compileSchema(t)
	for name, src := range map[string]string{"repeatedChain": repeatedChain, "bars": fmt.Sprintf(barChainRepeated, 4),
		"rods": fmt.Sprintf(rodChainRepeated, 4)} {
		if _, err := Parse(name, []byte(src)); err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(instance(t, []byte(src))); err != nil {
			t.Errorf("the schema rejects %s, which Parse accepts: %v", name, err)
		}
	}
	for _, name := range []string{"repeat-no-each.yaml", "repeat-two-variables.yaml", "repeat-no-range.yaml", "repeat-unknown-key.yaml",
		"repeat-variable-bad.yaml", "repeat-each-null.yaml", "parameters-list.yaml", "parameters-reserved.yaml", "parameters-bool.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata/bad", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(instance(t, data)); err == nil {
			t.Errorf("the schema accepts %s", name)
		}
	}
}

// TestRepeatBuildErrors: an error found by Build (after Parse accepted the file) in a
// repeated copy names the copy as Parse's errors do: a motion of copy 37 that is not
// finite at the start (log(0)), in a planar and a 3D chain, with the template's line.
func TestRepeatBuildErrors(t *testing.T) {
	planarChain := `parameters: {N: 40}
bodies:
  - repeat: {i: 1..N}
    each: {name: "bar${i}", mass: 1, inertia: 0.1}
markers:
  - {name: O, body: ground}
  - repeat: {i: 1..N}
    each:
      - {name: "bar${i}.A", body: "bar${i}", point: [-0.5, 0]}
      - {name: "bar${i}.B", body: "bar${i}", point: [0.5, 0]}
joints:
  - {name: pin1, type: revolute, i: O, j: bar1.A}
  - repeat: {i: 2..N}
    each: {name: "pin${i}", type: revolute, i: "bar${i-1}.B", j: "bar${i}.A"}
motions:
  - repeat: {i: 2..N}
    each: {name: "drive${i}", joint: "pin${i}", function: "log(${(i-37)^2} + t)"}
initial:
  bodies:
    - repeat: {i: 1..N}
      each: {"bar${i}": {position: ["${i-0.5}", 0]}}
simulation: {t_end: 1}
`
	spatialChain := `dimension: 3
parameters: {N: 40}
bodies:
  - repeat: {i: 1..N}
    each: {name: "rod${i}", mass: 1, inertia: [0.01, 0.1, 0.1]}
markers:
  - {name: O, body: ground}
  - repeat: {i: 1..N}
    each:
      - {name: "rod${i}.A", body: "rod${i}", point: [-0.5, 0, 0]}
      - {name: "rod${i}.B", body: "rod${i}", point: [0.5, 0, 0]}
joints:
  - {name: pin1, type: revolute, i: O, j: rod1.A}
  - repeat: {i: 2..N}
    each: {name: "pin${i}", type: revolute, i: "rod${i-1}.B", j: "rod${i}.A"}
motions:
  - repeat: {i: 2..N}
    each: {name: "drive${i}", joint: "pin${i}", function: "log(${(i-37)^2} + t)"}
initial:
  bodies:
    - repeat: {i: 1..N}
      each: {"rod${i}": {position: ["${i-0.5}", 0, 0]}}
simulation: {t_end: 1}
`
	for _, c := range []struct{ name, src, want string }{
		{"planar", planarChain, `c.yaml:17:59: motions[35].function: in repeat i=37: motion "drive37" = log(0 + t) is not finite at t = 0`},
		{"3D", spatialChain, `c.yaml:18:59: motions[35].function: in repeat i=37: motion "drive37" = log(0 + t) is not finite at t = 0`},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Parse("c.yaml", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Build(doc)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Build: %v\nwant an error containing\n  %s", err, c.want)
			}
		})
	}
}
