package modelfile

import (
	"fmt"
	"sort"
	"strings"

	"linkage/output"
)

// PoseChannels returns the channels the viewer needs to place every body: x, y, theta of a
// planar body, x, y, z, p0..p3 of a 3D one, body after body in file order.
func (doc *Document) PoseChannels() []string {
	var out []string
	for _, name := range doc.bodyNames() {
		for _, suffix := range doc.poseSuffixes() {
			out = append(out, name+"."+suffix)
		}
	}
	return out
}

func (doc *Document) poseSuffixes() []string {
	if doc.Spatial != nil {
		return []string{"x", "y", "z", "p0", "p1", "p2", "p3"}
	}
	return []string{"x", "y", "theta"}
}

func (doc *Document) bodyNames() []string {
	var names []string
	if doc.Spatial != nil {
		for _, b := range doc.Spatial.Bodies {
			names = append(names, b.Name)
		}
		return names
	}
	for _, b := range doc.Model.Bodies {
		names = append(names, b.Name)
	}
	return names
}

// SceneOptions choose what the viewer shows besides the mechanism.
type SceneOptions struct {
	// Trails are markers whose path is drawn; nil draws the last marker of the last body
	// (the tip of a chain), an empty non-nil slice none.
	Trails []string
	// Plot are the channels drawn beside the animation, grouped into panels by unit
	// [simulation.plot resolved].
	Plot []string
}

// Scene returns what the HTML viewer (output.WriteViewer) animates for a run of doc: the
// bodies with their markers (and shapes), ground markers, joints, spring-dampers and
// bushings, and the frames read from channel, which returns the samples of a recorded
// channel ("t", the PoseChannels and the plot channels) or nil when it was not recorded.
func (doc *Document) Scene(channel func(name string) []float64, opt SceneOptions) (*output.Scene, error) {
	s := &output.Scene{Title: doc.Model.Name, Dim: 2}
	if s.Title == "" {
		s.Title = doc.File
	}
	markers := doc.sceneMarkers(s)
	for _, l := range doc.sceneLinks() {
		i, okI := markers[l.i]
		j, okJ := markers[l.j]
		if !okI || !okJ {
			continue // a coupler or an rsda on a joint: nothing between two points to draw
		}
		link := output.SceneLink{Name: l.name, Kind: l.kind, I: i, J: j}
		if l.spring {
			s.Springs = append(s.Springs, link)
		} else {
			s.Joints = append(s.Joints, link)
		}
	}
	if err := doc.sceneTrails(s, markers, opt.Trails); err != nil {
		return nil, err
	}
	if err := doc.sceneFrames(s, channel); err != nil {
		return nil, err
	}
	plot := opt.Plot
	if plot == nil {
		plot = doc.PlotChannels()
	}
	for _, name := range plot {
		if channel(name) == nil {
			return nil, fmt.Errorf("%s: viewer: plot channel %s was not recorded", doc.File, name)
		}
	}
	s.Panels = panels(plot, s.Times, channel, doc.ChannelUnit)
	return s, nil
}

// sceneMarkers adds the bodies (with their marker points and shapes) and the ground
// markers to s, and returns every marker as a point of its body.
func (doc *Document) sceneMarkers(s *output.Scene) map[string]output.ScenePoint {
	index := map[string]int{"ground": -1}
	markers := map[string]output.ScenePoint{}
	add := func(name, body string, p [3]float64) {
		b := index[body]
		markers[name] = output.ScenePoint{Body: b, Point: p}
		if b < 0 {
			s.Ground = append(s.Ground, p)
		} else {
			s.Bodies[b].Points = append(s.Bodies[b].Points, p)
		}
	}
	if sp := doc.Spatial; sp != nil {
		s.Dim, s.Gravity = 3, sp.Gravity
		for i, b := range sp.Bodies {
			index[b.Name] = i
			s.Bodies = append(s.Bodies, output.SceneBody{Name: b.Name, Shape: b.Shape.scene(3)})
		}
		for _, m := range sp.Markers {
			add(m.Name, m.Body, m.Point)
		}
		return markers
	}
	m := &doc.Model
	s.Gravity = [3]float64{m.Gravity[0], m.Gravity[1], 0}
	for i, b := range m.Bodies {
		index[b.Name] = i
		s.Bodies = append(s.Bodies, output.SceneBody{Name: b.Name, Shape: b.Shape.scene(2)})
	}
	for _, mk := range m.Markers {
		add(mk.Name, mk.Body, [3]float64{mk.Point[0], mk.Point[1], 0})
	}
	return markers
}

// sceneLink is a joint or force element between markers i and j.
type sceneLink struct {
	name, kind, i, j string
	spring           bool
}

// sceneLinks lists the joints and the force elements between two markers (tsda, bushing).
func (doc *Document) sceneLinks() []sceneLink {
	var out []sceneLink
	spring := func(typ string) bool { return typ == ForceTSDA || typ == ForceBushing }
	if sp := doc.Spatial; sp != nil {
		for _, j := range sp.Joints {
			out = append(out, sceneLink{j.Name, j.Type, j.I, j.J, false})
		}
		for _, f := range sp.Forces {
			if spring(f.Type) {
				out = append(out, sceneLink{f.Name, f.Type, f.I, f.J, true})
			}
		}
		return out
	}
	for _, j := range doc.Model.Joints {
		out = append(out, sceneLink{j.Name, j.Type, j.I, j.J, false})
	}
	for _, f := range doc.Model.Forces {
		if spring(f.Type) {
			out = append(out, sceneLink{f.Name, f.Type, f.I, f.J, true})
		}
	}
	return out
}

// CheckTrails reports a trail marker the file does not have (see SceneOptions.Trails),
// so that a mistyped --trail is refused before the run.
func (doc *Document) CheckTrails(names []string) error {
	s := &output.Scene{}
	return doc.sceneTrails(s, doc.sceneMarkers(s), names)
}

// sceneTrails adds the trails: the named markers, or by default the last marker of the
// last body.
func (doc *Document) sceneTrails(s *output.Scene, markers map[string]output.ScenePoint, names []string) error {
	if names == nil {
		last := len(s.Bodies) - 1
		if last >= 0 && len(s.Bodies[last].Points) > 0 {
			pts := s.Bodies[last].Points
			s.Trails = append(s.Trails, output.ScenePoint{Body: last, Point: pts[len(pts)-1]})
		}
		return nil
	}
	for _, n := range names {
		p, ok := markers[n]
		if !ok {
			return fmt.Errorf("%s: trail: no marker %q; the file's markers are %s", doc.File, n, strings.Join(sortedKeys(markers), ", "))
		}
		s.Trails = append(s.Trails, p)
	}
	return nil
}

// sceneFrames reads the frame times and the body poses.
func (doc *Document) sceneFrames(s *output.Scene, channel func(string) []float64) error {
	t := channel("t")
	if len(t) == 0 {
		return fmt.Errorf("%s: viewer: no samples of t were recorded", doc.File)
	}
	s.Times = t
	var cols [][]float64
	for _, name := range doc.PoseChannels() {
		c := channel(name)
		if c == nil {
			return fmt.Errorf("%s: viewer: channel %s was not recorded; the viewer needs every body's %s",
				doc.File, name, strings.Join(doc.poseSuffixes(), ", "))
		}
		if len(c) != len(t) {
			return fmt.Errorf("%s: viewer: channel %s has %d samples, t has %d", doc.File, name, len(c), len(t))
		}
		cols = append(cols, c)
	}
	s.Poses = make([][]float64, len(t))
	for k := range t {
		row := make([]float64, len(cols))
		for c := range cols {
			row[c] = cols[c][k]
		}
		s.Poses[k] = row
	}
	return nil
}

// PlotChannels returns simulation.plot resolved, for a file of either dimension.
func (doc *Document) PlotChannels() []string {
	if doc.Spatial != nil {
		return doc.Spatial.PlotChannels()
	}
	return doc.Model.PlotChannels()
}

// panels groups the channels by unit, in the order of their first appearance.
func panels(names []string, t []float64, channel func(string) []float64, unit func(string) string) []output.Panel {
	var out []output.Panel
	at := map[string]int{}
	for _, n := range names {
		u := unit(n)
		i, ok := at[u]
		if !ok {
			i = len(out)
			at[u] = i
			out = append(out, output.Panel{Unit: u})
		}
		out[i].Series = append(out[i].Series, output.Series{Name: n, X: t, Y: channel(n)})
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// scene returns the viewer's shape for a body of a model of dimension dim (nil: none). A
// cylinder's axis defaults to the body's x axis in 2D and z axis in 3D; a 2D box without
// a third size is as deep as it is high.
func (sh *Shape) scene(dim int) *output.SceneShape {
	if sh == nil {
		return nil
	}
	out := &output.SceneShape{Kind: sh.Type, Radius: sh.Radius, Length: sh.Length}
	copy(out.Size[:], sh.Size)
	if sh.Type == ShapeBox && len(sh.Size) == 2 {
		out.Size[2] = sh.Size[1]
	}
	out.Axis = [3]float64{0, 0, 1}
	if dim == 2 {
		out.Axis = [3]float64{1, 0, 0}
	}
	if len(sh.Axis) > 0 {
		out.Axis = [3]float64{}
		copy(out.Axis[:], sh.Axis)
	}
	return out
}
