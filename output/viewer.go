package output

import (
	"bytes"
	_ "embed" // the viewer's scripts and styles
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
	"text/template"
)

//go:generate bash viewer/fetch.sh

// The viewer's vendored libraries (viewer/fetch.sh says where they come from) and its own
// script and style; all are inlined into the page, which loads nothing at view time.
var (
	//go:embed viewer/three.min.js
	threeJS string
	//go:embed viewer/uPlot.iife.min.js
	uplotJS string
	//go:embed viewer/uPlot.min.css
	uplotCSS string
	//go:embed viewer/LICENSE-three
	threeLicense string
	//go:embed viewer/LICENSE-uplot
	uplotLicense string
	//go:embed viewer/viewer.js
	viewerJS string
	//go:embed viewer/viewer.css
	viewerCSS string
)

// MaxViewerFrames bounds the frames of a viewer page: a run with more output rows is
// decimated to every k-th row (the last row always kept), so that the page stays a few MB
// (a frame of the 20-bar chain is about 600 bytes).
const MaxViewerFrames = 5000

// Scene is what the HTML viewer animates: rigid bodies drawn from their markers (or a
// shape), ground points, joints and springs between markers, trails of points, the body
// poses at the frame times and the plotted channels.
type Scene struct {
	Title   string       `json:"title"`
	Dim     int          `json:"dim"`     // 2: planar (x, y, θ); 3: spatial (x, y, z, p0..p3)
	Gravity [3]float64   `json:"gravity"` // m/s², gives the viewer's "up" in 3D
	Bodies  []SceneBody  `json:"bodies"`
	Ground  [][3]float64 `json:"ground"`  // ground marker points, m
	Joints  []SceneLink  `json:"joints"`  // drawn as a ball at marker J
	Springs []SceneLink  `json:"springs"` // force elements between two markers, drawn as coils
	Trails  []ScenePoint `json:"trails"`  // points whose path is drawn up to the current frame
	// Times are the frame times, s; Poses[k] the pose of every body at Times[k], body after
	// body: x, y, θ (Dim 2) or x, y, z, p0, p1, p2, p3 (Dim 3, Euler parameters).
	Times  []float64   `json:"-"`
	Poses  [][]float64 `json:"-"`
	Panels []Panel     `json:"-"`
}

// SceneBody is one body: its marker points in its centroidal frame, m (bars are drawn
// between them) and an optional shape.
type SceneBody struct {
	Name   string       `json:"name"`
	Points [][3]float64 `json:"points"`
	Shape  *SceneShape  `json:"shape,omitempty"`
}

// SceneShape is a solid drawn at a body's centre of mass, in its frame: a box of Size
// (m along x, y, z), a cylinder of Radius and Length along Axis, or a sphere of Radius.
type SceneShape struct {
	Kind   string     `json:"kind"` // "box", "cylinder", "sphere"
	Size   [3]float64 `json:"size,omitempty"`
	Radius float64    `json:"radius,omitempty"`
	Length float64    `json:"length,omitempty"`
	Axis   [3]float64 `json:"axis,omitempty"`
}

// ScenePoint is a point of a body (Body indexes Scene.Bodies) or of the ground (Body −1),
// in that frame, m.
type ScenePoint struct {
	Body  int        `json:"body"`
	Point [3]float64 `json:"point"`
}

// SceneLink is a joint or force element between two points.
type SceneLink struct {
	Name string     `json:"name"`
	Kind string     `json:"kind"`
	I, J ScenePoint `json:"-"`
}

// MarshalJSON writes the link with its two points.
func (l SceneLink) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name string     `json:"name"`
		Kind string     `json:"kind"`
		I    ScenePoint `json:"i"`
		J    ScenePoint `json:"j"`
	}{l.Name, l.Kind, l.I, l.J})
}

// Panel is one plot panel: channels that share a unit, drawn against time.
type Panel struct {
	Unit   string
	Series []Series // X is time
}

// WriteViewer writes s as one self-contained HTML page: three.js and uPlot inlined, the
// scene as JSON, nothing loaded from the network. Frames beyond MaxViewerFrames are
// decimated.
func WriteViewer(w io.Writer, s *Scene) error {
	if err := s.check(); err != nil {
		return err
	}
	data, err := s.json()
	if err != nil {
		return err
	}
	page := viewerPage{
		Title:   html.EscapeString(s.Title),
		CSS:     uplotCSS + viewerCSS,
		Licence: "three.js " + threeLicense + "\nuPlot " + uplotLicense,
		Scripts: []string{threeJS, uplotJS},
		Scene:   string(data),
		Viewer:  viewerJS,
	}
	if err := page.check(); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := viewerTemplate.Execute(&buf, page); err != nil {
		return fmt.Errorf("output: viewer: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// check refuses a scene the page could not draw, naming what is wrong.
func (s *Scene) check() error {
	if s.Dim != 2 && s.Dim != 3 {
		return fmt.Errorf("output: viewer: dimension %d; want 2 or 3", s.Dim)
	}
	if len(s.Times) == 0 {
		return fmt.Errorf("output: viewer: no frames to show")
	}
	if len(s.Poses) != len(s.Times) {
		return fmt.Errorf("output: viewer: %d poses for %d frame times", len(s.Poses), len(s.Times))
	}
	n := s.poseSize() * len(s.Bodies)
	for k, p := range s.Poses {
		if len(p) != n {
			return fmt.Errorf("output: viewer: frame %d has %d pose values; want %d (%d bodies)", k, len(p), n, len(s.Bodies))
		}
	}
	for _, p := range s.Panels {
		for _, c := range p.Series {
			if len(c.Y) != len(s.Times) {
				return fmt.Errorf("output: viewer: channel %s has %d values for %d frames", c.Name, len(c.Y), len(s.Times))
			}
		}
	}
	return nil
}

func (s *Scene) poseSize() int {
	if s.Dim == 3 {
		return 7
	}
	return 3
}

// json encodes the scene with the frames decimated to at most MaxViewerFrames and numbers
// rounded to 7 significant digits (0.1 µm on a 1 m mechanism), which keeps the page small.
func (s *Scene) json() ([]byte, error) {
	meta, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("output: viewer: %w", err)
	}
	frames := decimate(len(s.Times), MaxViewerFrames)
	var b bytes.Buffer
	b.Write(meta[:len(meta)-1]) // without the closing brace
	b.WriteString(`,"t":`)
	writeNumbers(&b, frames, func(k int) float64 { return s.Times[k] })
	b.WriteString(`,"poses":[`)
	for i, k := range frames {
		if i > 0 {
			b.WriteByte(',')
		}
		writeNumbers(&b, nil, func(j int) float64 { return s.Poses[k][j] }, len(s.Poses[k]))
	}
	b.WriteString(`],"panels":[`)
	for i, p := range s.Panels {
		if i > 0 {
			b.WriteByte(',')
		}
		unit, _ := json.Marshal(p.Unit)
		fmt.Fprintf(&b, `{"unit":%s,"series":[`, unit)
		for j, c := range p.Series {
			if j > 0 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(c.Name)
			fmt.Fprintf(&b, `{"name":%s,"y":`, name)
			writeNumbers(&b, frames, func(k int) float64 { return c.Y[k] })
			b.WriteByte('}')
		}
		b.WriteString("]}")
	}
	b.WriteString("]}")
	return b.Bytes(), nil
}

// decimate returns the indices of n frames kept when at most max are shown: every k-th,
// and the last.
func decimate(n, max int) []int {
	step := (n + max - 1) / max
	var out []int
	for k := 0; k < n; k += step {
		out = append(out, k)
	}
	if out[len(out)-1] != n-1 {
		out = append(out, n-1)
	}
	return out
}

// writeNumbers writes a JSON array of f(k) for k in idx, or for k < n[0] when idx is nil;
// NaN and ±Inf, which JSON cannot hold, are written as null.
func writeNumbers(b *bytes.Buffer, idx []int, f func(int) float64, n ...int) {
	b.WriteByte('[')
	count := len(idx)
	if idx == nil {
		count = n[0]
	}
	var num []byte
	for i := range count {
		k := i
		if idx != nil {
			k = idx[i]
		}
		if i > 0 {
			b.WriteByte(',')
		}
		v := f(k)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			b.WriteString("null")
			continue
		}
		num = strconv.AppendFloat(num[:0], v, 'g', 7, 64)
		b.Write(num)
	}
	b.WriteByte(']')
}

// viewerPage is what the page template fills in, already escaped for where it goes: the
// scripts and styles are inlined verbatim (text/template), so none may close its element.
type viewerPage struct {
	Title, CSS, Licence string
	Scripts             []string
	Scene, Viewer       string
}

// check makes sure no inlined text ends its element early (the scene's JSON escapes '<').
func (p *viewerPage) check() error {
	for _, s := range append([]string{p.Scene, p.Viewer}, p.Scripts...) {
		if strings.Contains(strings.ToLower(s), "</script") {
			return fmt.Errorf("output: viewer: an inlined script contains </script")
		}
	}
	if strings.Contains(strings.ToLower(p.CSS), "</style") || strings.Contains(p.Licence, "-->") {
		return fmt.Errorf("output: viewer: the inlined style or licence text would end its element")
	}
	return nil
}

var viewerTemplate = template.Must(template.New("viewer").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="linkage">
<title>{{.Title}} · linkage viewer</title>
<style>{{.CSS}}</style>
</head><body>
<div id="app"><div id="view"><div id="info"></div></div><div id="side"></div></div>
<div id="controls">
<button id="play" title="play / pause (space)">▶</button>
<input id="slider" type="range" min="0" max="0" value="0" step="1" aria-label="frame">
<span id="time">t = 0 s</span>
<label>speed <select id="speed"><option>0.1</option><option>0.25</option><option>0.5</option><option selected>1</option><option>2</option><option>4</option></select></label>
<label><input id="loop" type="checkbox" checked> loop</label>
<button id="frame" title="frame the model (f)">frame</button>
</div>
<!--
Vendored libraries, inlined below, with their licences:
{{.Licence}}
-->
{{range .Scripts}}<script>{{.}}</script>
{{end}}<script id="scene" type="application/json">{{.Scene}}</script>
<script>{{.Viewer}}</script>
</body></html>
`))
