package output

import (
	"bytes"
	"image/png"
	"testing"

	"gonum.org/v1/plot"
)

func labels(ticks []plot.Tick) []string {
	var out []string
	for _, t := range ticks {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

// Log axes are labelled at every decade, and with at least two labels when narrower than
// a decade (gonum's LogTicks left one: issue 20, item 3).
func TestLogTicks(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     []string
	}{
		{1e-9, 1e-3, []string{"1e-09", "1e-08", "1e-07", "1e-06", "1e-05", "1e-04", "1e-03"}},
		{0.0011, 0.09, []string{"2e-03", "5e-03", "1e-02", "2e-02", "5e-02"}},
		{0.3, 0.9, []string{"3e-01", "4e-01", "5e-01", "6e-01", "7e-01", "8e-01", "9e-01"}},
	} {
		got := labels(logTicks{}.Ticks(c.min, c.max))
		if len(got) != len(c.want) {
			t.Errorf("[%g, %g]: labels %v, want %v", c.min, c.max, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("[%g, %g]: labels %v, want %v", c.min, c.max, got, c.want)
				break
			}
		}
	}
	if got := labels(logTicks{}.Ticks(0.31, 0.35)); len(got) < 2 {
		t.Errorf("[0.31, 0.35]: labels %v; want at least two", got)
	}
}

// Linear axes get 5 to 10 labels at round values.
func TestLinearTicks(t *testing.T) {
	for _, r := range [][2]float64{{0, 0.5}, {-0.52, 1.55}, {0.26, 0.39}, {0, 2}, {-3.3, 3.3}, {1e4, 1.2e6}} {
		got := labels(linearTicks{}.Ticks(r[0], r[1]))
		if len(got) < 4 || len(got) > 11 {
			t.Errorf("[%g, %g]: labels %v; want 5 to 10", r[0], r[1], got)
		}
	}
	if got := labels(linearTicks{}.Ticks(0, 0.5)); got[0] != "0.0" || got[len(got)-1] != "0.5" {
		t.Errorf("[0, 0.5]: labels %v; want 0.0 … 0.5", got)
	}
}

// WritePanels stacks one panel per unit: the picture grows with the panels.
func TestWritePanels(t *testing.T) {
	x := []float64{0, 1, 2}
	one := []Panel{{Unit: "m", Series: []Series{{Name: "a.x", X: x, Y: []float64{0, 1, 0}}}}}
	three := append(one, Panel{Unit: "rad", Series: []Series{{Name: "a.theta", X: x, Y: []float64{1, 2, 3}}}},
		Panel{Unit: "J", Series: []Series{{Name: "energy.kinetic", X: x, Y: []float64{3, 2, 1}}, {Name: "pub", X: x, Y: x, Marks: true}}})
	height := func(p []Panel) int {
		var b bytes.Buffer
		if err := WritePanels(&b, "png", PanelPlotSpec{Title: "t", XLabel: "t [s]"}, p); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		return img.Bounds().Dy()
	}
	if h1, h3 := height(one), height(three); !(h3 > 3*h1/2) {
		t.Errorf("three panels %d px high, one %d px: the stack does not grow", h3, h1)
	}
}
