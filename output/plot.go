package output

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
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

// WritePlot draws the series in format (see PlotFormat) to w.
func WritePlot(w io.Writer, format string, spec PlotSpec, series []Series) error {
	p := plot.New()
	p.Title.Text = spec.Title
	p.X.Label.Text = spec.XLabel
	p.Y.Label.Text = spec.YLabel
	if spec.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = powerTicks{}
	}
	if spec.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = powerTicks{}
	}
	p.Add(plotter.NewGrid())
	for i, s := range series {
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
		l, err := plotter.NewLine(xy)
		if err != nil {
			return fmt.Errorf("output: plot %q: %w", s.Name, err)
		}
		l.Color = palette[i%len(palette)]
		l.Width = vg.Points(1.2)
		p.Add(l)
		p.Legend.Add(s.Name, l)
		if spec.Points {
			sc, err := plotter.NewScatter(xy)
			if err != nil {
				return fmt.Errorf("output: plot %q: %w", s.Name, err)
			}
			sc.Color = l.Color
			sc.Shape = draw.CircleGlyph{}
			p.Add(sc)
		}
	}
	p.Legend.Top = true
	c, err := p.WriterTo(16*vg.Centimeter, 11*vg.Centimeter, format)
	if err != nil {
		return fmt.Errorf("output: plot: %w", err)
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("output: writing plot: %w", err)
	}
	return nil
}

// palette is colour-blind safe (Okabe & Ito 2008).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{230, 159, 0, 255}, color.RGBA{86, 180, 233, 255},
	color.RGBA{0, 0, 0, 255},
}

// powerTicks labels the decades of a log axis as 1e-03 ... (gonum's LogTicks prints the
// rounding of math.Pow, 0.0999999...).
type powerTicks struct{}

func (powerTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.LogTicks{Prec: -1}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = fmt.Sprintf("%.0e", ticks[i].Value)
		}
	}
	return ticks
}
