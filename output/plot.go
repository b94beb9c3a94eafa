package output

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one named curve of a plot.
type Series struct {
	Name string
	X, Y []float64
	// Marks draws the points alone, hollow, without a line: runs measured elsewhere (the
	// published runs beside a work-precision plot).
	Marks bool
}

// PlotSpec describes a line plot.
type PlotSpec struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool // logarithmic axes (non-positive values are dropped)
	Points                bool // mark the data points
}

// PlotFormats are the extensions Plot understands (gonum/plot's formats).
var PlotFormats = []string{".png", ".svg", ".pdf", ".eps", ".jpg", ".jpeg", ".tif", ".tiff"}

// PlotFormat returns the format of a plot file from its extension ("png"), or an error
// listing the known ones.
func PlotFormat(path string) (string, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if !slices.Contains(PlotFormats, ext) {
		return "", fmt.Errorf("%s: unsupported plot format %q; want %s", path, ext, strings.Join(PlotFormats, ", "))
	}
	return ext[1:], nil
}

// Plot draws the series and saves them to path; the format follows the extension (see
// PlotFormats). The file is written atomically (Create, Commit): a failure leaves what was
// at path.
func Plot(path string, spec PlotSpec, series []Series) error {
	format, err := PlotFormat(path)
	if err != nil {
		return fmt.Errorf("output: %w", err)
	}
	f, err := Create(path)
	if err != nil {
		return fmt.Errorf("output: %w", err)
	}
	if err := WritePlot(f, format, spec, series); err != nil {
		f.Abort()
		return err
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	return nil
}

// WritePlot draws the series in format (see PlotFormat) to w: one panel, the legend to its
// right, outside the curves.
func WritePlot(w io.Writer, format string, spec PlotSpec, series []Series) error {
	return writePanels(w, format, spec, []panel{{ylabel: spec.YLabel, series: series}}, 11*vg.Centimeter)
}

// PanelPlotSpec describes a stack of panels sharing one time (x) axis.
type PanelPlotSpec struct {
	Title, XLabel string
}

// WritePanels draws one panel per Panel, stacked over a shared x axis labelled on the
// bottom panel only; each panel's y axis is labelled with its unit, each curve's legend
// entry ("rod.x [m]") stands to the right of its panel.
func WritePanels(w io.Writer, format string, spec PanelPlotSpec, panels []Panel) error {
	var ps []panel
	for _, p := range panels {
		q := panel{ylabel: p.Unit}
		if p.Unit != "" {
			q.ylabel = "[" + p.Unit + "]"
		}
		for _, s := range p.Series {
			if p.Unit != "" {
				s.Name += " [" + p.Unit + "]"
			}
			q.series = append(q.series, s)
		}
		ps = append(ps, q)
	}
	h := 4.5 * vg.Centimeter * vg.Length(len(ps))
	h = max(h, 7*vg.Centimeter) + 1.5*vg.Centimeter
	return writePanels(w, format, PlotSpec{Title: spec.Title, XLabel: spec.XLabel}, ps, h)
}

// panel is one y axis of a plot and its curves.
type panel struct {
	ylabel string
	series []Series
}

// writePanels draws the panels stacked in a 16 cm wide canvas of height h, the legends in
// a column to the right of the data, x limits shared.
func writePanels(w io.Writer, format string, spec PlotSpec, panels []panel, h vg.Length) error {
	if len(panels) == 0 {
		panels = []panel{{ylabel: spec.YLabel}}
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	plots := make([][]*plot.Plot, len(panels))
	legends := make([]plot.Legend, len(panels))
	legendW := vg.Length(0)
	for i, pn := range panels {
		p, leg, err := drawPanel(spec, pn, i == 0, i == len(panels)-1)
		if err != nil {
			return err
		}
		plots[i] = []*plot.Plot{p}
		legends[i] = leg
		if p.X.Min < p.X.Max {
			xmin, xmax = math.Min(xmin, p.X.Min), math.Max(xmax, p.X.Max)
		}
		legendW = max(legendW, legendWidth(&leg))
	}
	for _, row := range plots {
		if xmin < xmax {
			row[0].X.Min, row[0].X.Max = xmin, xmax
		}
	}
	const width = 16 * vg.Centimeter
	legendW = min(legendW+0.3*vg.Centimeter, 0.45*width)
	c, err := draw.NewFormattedCanvas(width, h, format)
	if err != nil {
		return fmt.Errorf("output: plot: %w", err)
	}
	dc := draw.New(c)
	// The y labels are drawn here, in a strip left of the plots: gonum/plot v0.17 pads the
	// top of a plot by the length of its (rotated) y label, which leaves a gap over the
	// data when the label is long.
	labelStyle := plots[0][0].Y.Label.TextStyle
	labelStyle.Rotation, labelStyle.XAlign, labelStyle.YAlign = math.Pi/2, draw.XCenter, draw.YCenter
	strip := labelStyle.Font.Size * 1.8
	left := draw.Crop(dc, strip, -legendW, 0, 0)
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadY: 0.2 * vg.Centimeter, PadTop: 0.1 * vg.Centimeter, PadBottom: 0.1 * vg.Centimeter}
	// Align lines up the data areas of the panels.
	canvases := plot.Align(plots, tiles, left)
	for i := range plots {
		plots[i][0].Draw(canvases[i][0])
		if lbl := panels[i].ylabel; lbl != "" {
			cv := canvases[i][0]
			dc.FillText(labelStyle, vg.Point{X: dc.Min.X + strip/2, Y: (cv.Min.Y + cv.Max.Y) / 2}, lbl)
		}
		area := canvases[i][0]
		area.Min.X, area.Max.X = dc.Max.X-legendW+0.2*vg.Centimeter, dc.Max.X
		if t := plots[i][0].Title; t.Text != "" { // start level with the data, below the title
			area.Max.Y -= t.TextStyle.Rectangle(t.Text).Size().Y + t.Padding
		}
		legends[i].Draw(area)
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("output: writing plot: %w", err)
	}
	return nil
}

// drawPanel makes the plot of one panel (titled when top, its x axis labelled when
// bottom) and its legend, which the caller draws outside the data area.
func drawPanel(spec PlotSpec, pn panel, top, bottom bool) (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	if top {
		p.Title.Text = spec.Title
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = linearTicks{}, linearTicks{}
	if spec.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	if spec.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	if bottom {
		p.X.Label.Text = spec.XLabel
	} else {
		p.X.Tick.Marker = unlabelled{p.X.Tick.Marker}
	}
	p.Add(plotter.NewGrid())
	for i, s := range pn.series {
		xy := make(plotter.XYs, 0, len(s.X))
		for k := range s.X {
			x, y := s.X[k], s.Y[k]
			if (spec.LogX && x <= 0) || (spec.LogY && y <= 0) || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(y, 0) {
				continue
			}
			xy = append(xy, plotter.XY{X: x, Y: y})
		}
		if len(xy) == 0 {
			continue
		}
		col := palette[i%len(palette)]
		if s.Marks {
			sc, err := plotter.NewScatter(xy)
			if err != nil {
				return nil, leg, fmt.Errorf("output: plot %q: %w", s.Name, err)
			}
			sc.Color, sc.Shape, sc.Radius = col, markGlyphs[i%len(markGlyphs)], vg.Points(3.5)
			p.Add(sc)
			leg.Add(s.Name, sc)
			continue
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, leg, fmt.Errorf("output: plot %q: %w", s.Name, err)
		}
		l.Color = col
		l.Width = vg.Points(1.2)
		p.Add(l)
		thumbs := []plot.Thumbnailer{l}
		if spec.Points {
			sc, err := plotter.NewScatter(xy)
			if err != nil {
				return nil, leg, fmt.Errorf("output: plot %q: %w", s.Name, err)
			}
			sc.Color = l.Color
			sc.Shape = draw.CircleGlyph{}
			p.Add(sc)
			thumbs = append(thumbs, sc)
		}
		leg.Add(s.Name, thumbs...)
	}
	return p, leg, nil
}

// markGlyphs are the hollow marks of Series.Marks.
var markGlyphs = []draw.GlyphDrawer{draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.RingGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

// legendWidth is the width the legend's entries need.
func legendWidth(l *plot.Legend) vg.Length {
	r := l.Rectangle(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 100 * vg.Centimeter, Y: 100 * vg.Centimeter}}})
	return r.Max.X - r.Min.X
}

// unlabelled keeps a ticker's ticks without their labels: the upper panels of a stack share
// the bottom panel's labelled x axis.
type unlabelled struct{ plot.Ticker }

func (u unlabelled) Ticks(min, max float64) []plot.Tick {
	ticks := u.Ticker.Ticks(min, max)
	for i := range ticks {
		ticks[i].Label = ""
	}
	return ticks
}

// palette is colour-blind safe (Okabe & Ito 2008).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{230, 159, 0, 255}, color.RGBA{86, 180, 233, 255},
	color.RGBA{0, 0, 0, 255},
}

// logTicks labels a log axis so that it always has several labels: every decade when
// the axis spans more than 1.5, else also 2 and 5 times each decade ("2e-03"); the other
// multiples are unlabelled minor ticks. (gonum's LogTicks labels decades only, which
// leaves one label on an axis spanning less than a decade, and prints the rounding of
// math.Pow, 0.0999999….)
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) {
		return nil
	}
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		for m := 1; m <= 9; m++ {
			if hi-lo > 8 && m > 1 { // too many decades for minor ticks to be seen
				break
			}
			v, _ := strconv.ParseFloat(fmt.Sprintf("%de%d", m, e), 64) // exact decimal, not m·10^e rounded
			if v >= min*(1-1e-12) && v <= max*(1+1e-12) {
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	// Label the decades; then also 2 and 5 times them (at once when the axis spans less
	// than 1.5 decades), then every tick, until there are two labels.
	levels := [][]int{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}
	if math.Log10(max/min) <= 1.5 {
		levels = levels[1:]
	}
	for _, ms := range levels {
		for i := range ticks {
			ticks[i].Label = ""
			if m := leadingDigit(ticks[i].Value); slices.Contains(ms, m) {
				ticks[i].Label = fmt.Sprintf("%.0e", ticks[i].Value)
			}
		}
		if countLabels(ticks) >= 2 {
			return ticks
		}
	}
	return plot.DefaultTicks{}.Ticks(min, max) // between two multiples: linear ticks read as well here
}

// leadingDigit returns m of v = m·10^e.
func leadingDigit(v float64) int {
	return int(strings.TrimPrefix(strconv.FormatFloat(v, 'e', 0, 64), "-")[0] - '0')
}

func countLabels(ticks []plot.Tick) int {
	n := 0
	for _, t := range ticks {
		if t.Label != "" {
			n++
		}
	}
	return n
}

// linearTicks labels a linear axis at 1, 2 or 5 times a power of ten, the step chosen to
// give 5 to 10 labels (gonum's default gives 3 or 4), with an unlabelled minor tick
// between labels.
type linearTicks struct{}

func (linearTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	span := max - min
	e := math.Pow(10, math.Floor(math.Log10(span/5)))
	step := e
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(m*e) <= 10 {
			step = m * e
			break
		}
	}
	prec := max0(-int(math.Floor(math.Log10(step))), 0)
	var ticks []plot.Tick
	for k := math.Ceil(min/step*2 - 1e-9); k <= math.Floor(max/step*2+1e-9); k++ {
		v := k * step / 2
		t := plot.Tick{Value: v}
		if int(k)%2 == 0 {
			t.Label = strconv.FormatFloat(v, 'f', prec, 64)
			if t.Label == "-"+strconv.FormatFloat(0, 'f', prec, 64) {
				t.Label = t.Label[1:]
			}
		}
		ticks = append(ticks, t)
	}
	return ticks
}

func max0(a, b int) int {
	if a > b {
		return a
	}
	return b
}
