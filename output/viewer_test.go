package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

func testScene(frames int) *Scene {
	s := &Scene{Title: "two bars <&>", Dim: 2, Bodies: []SceneBody{{Name: "a"}, {Name: "b"}}}
	for k := range frames {
		s.Times = append(s.Times, float64(k)*0.01)
		s.Poses = append(s.Poses, []float64{float64(k), 1, 0.1, 2, 3, 0.2})
	}
	s.Panels = []Panel{{Unit: "m", Series: []Series{{Name: "a.x", X: s.Times, Y: make([]float64, frames)}}}}
	return s
}

// sceneJSON returns the JSON embedded in a viewer page.
func sceneJSON(t *testing.T, page string) map[string]any {
	t.Helper()
	const open = `<script id="scene" type="application/json">`
	i := strings.Index(page, open)
	j := strings.Index(page[i:], "</script>")
	if i < 0 || j < 0 {
		t.Fatal("no scene in the page")
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(page[i+len(open):i+j]), &m); err != nil {
		t.Fatalf("scene JSON: %v", err)
	}
	return m
}

// A run with more rows than MaxViewerFrames is decimated to at most that many frames, the
// last row kept; the title is escaped.
func TestViewerDecimates(t *testing.T) {
	n := 3*MaxViewerFrames + 7
	var b bytes.Buffer
	if err := WriteViewer(&b, testScene(n)); err != nil {
		t.Fatal(err)
	}
	m := sceneJSON(t, b.String())
	times := m["t"].([]any)
	if len(times) > MaxViewerFrames || len(times) < MaxViewerFrames/2 {
		t.Errorf("%d frames in the page for %d rows; want at most %d", len(times), n, MaxViewerFrames)
	}
	if last := times[len(times)-1].(float64); last != float64(n-1)*0.01 {
		t.Errorf("last frame at t = %g; want the last row's %g", last, float64(n-1)*0.01)
	}
	if len(m["poses"].([]any)) != len(times) {
		t.Errorf("%d poses for %d frames", len(m["poses"].([]any)), len(times))
	}
	if !strings.Contains(b.String(), "<title>two bars &lt;&amp;&gt; · linkage viewer</title>") {
		t.Errorf("title not escaped")
	}
}

// Scenes the page cannot draw are refused, naming what is wrong.
func TestViewerRefusesBadScenes(t *testing.T) {
	bad := testScene(3)
	bad.Poses[1] = bad.Poses[1][:4]
	empty := testScene(0)
	dim := testScene(2)
	dim.Dim = 4
	for _, c := range []struct {
		s    *Scene
		want string
	}{{bad, "frame 1 has 4 pose values; want 6"}, {empty, "no frames"}, {dim, "dimension 4"}} {
		err := WriteViewer(&bytes.Buffer{}, c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v; want one containing %q", err, c.want)
		}
	}
}

// ReadCSV reads back what CSVWriter writes, skips the failure mark, and names a bad value's
// line and channel.
func TestReadCSV(t *testing.T) {
	var b bytes.Buffer
	w := NewCSVWriter(&b, []string{"t", "a.x"})
	for _, row := range [][]float64{{0, 1.5}, {0.1, -2e-9}} {
		if err := w.Row(row); err != nil {
			t.Fatal(err)
		}
	}
	w.Comment("run failed at t=0.1: whatever")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	c, err := ReadCSV(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Channel("a.x"); len(got) != 2 || got[1] != -2e-9 || len(c.Channel("t")) != 2 {
		t.Errorf("read back %v", c.Data)
	}
	_, err = ReadCSV(strings.NewReader("t,a.x\n0,1\n0.1,oops\n"))
	if err == nil || !strings.Contains(err.Error(), `line 3, column 2 (a.x): "oops" is not a number`) {
		t.Errorf("bad value: error %v", err)
	}
}

// A Parquet file written row by row reads back with the same channels, order and values;
// the failure note is kept in its metadata.
func TestParquetRoundTrip(t *testing.T) {
	names := []string{"t", "rod.x", "a.theta", "energy.kinetic"}
	var b bytes.Buffer
	w, err := NewParquetWriter(&b, names)
	if err != nil {
		t.Fatal(err)
	}
	const n = 2*parquetBatch + 17 // more than one batch, and a partial one
	for k := range n {
		x := float64(k)
		if err := w.Row([]float64{x * 1e-3, -x, x * x, 1 / (x + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	w.Comment("run failed at t=2.07: no convergence")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	c, err := ReadParquet(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Names, ",") != strings.Join(names, ",") {
		t.Errorf("channels %v, want %v", c.Names, names)
	}
	for k := range n {
		x := float64(k)
		want := []float64{x * 1e-3, -x, x * x, 1 / (x + 1)}
		for i, name := range names {
			if got := c.Channel(name); len(got) != n || got[k] != want[i] {
				t.Fatalf("%s[%d] = %v, want %v (%d values)", name, k, got[k], want[i], len(got))
			}
		}
	}
	f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if note, _ := f.Lookup(ParquetFailureKey); note != "run failed at t=2.07: no convergence" {
		t.Errorf("failure note %q", note)
	}
	if err := w.Row([]float64{1}); err == nil {
		t.Errorf("a row of 1 value for 4 channels was accepted")
	}
}
