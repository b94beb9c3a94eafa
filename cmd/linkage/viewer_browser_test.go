package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The viewer pages are checked in a real browser: headless Chromium (Debian package
// chromium, installed by .ci/run) driven by chromedp. Without a browser the tests skip,
// saying so, except under CI (CI set), where a missing browser is a failure.

// browserPaths are the executables tried, in order.
var browserPaths = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"}

// newBrowser starts headless Chromium, WebGL through SwiftShader (no GPU here), and returns
// its context.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	var path string
	for _, p := range browserPaths {
		if full, err := exec.LookPath(p); err == nil {
			path = full
			break
		}
	}
	if path == "" {
		msg := "no Chromium found (tried " + strings.Join(browserPaths, ", ") + "): install the Debian package chromium to run the viewer's browser tests"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.WindowSize(1200, 700), chromedp.Flag("use-angle", "swiftshader"), chromedp.Flag("enable-unsafe-swiftshader", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // start the browser now, so its start is not counted per page
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// page is a viewer page loaded in its own tab, with the console messages it wrote.
type page struct {
	ctx  context.Context
	mu   sync.Mutex
	msgs []string
}

// openPage loads the HTML file at path in a new tab of browser and waits until the viewer
// is ready.
func openPage(t *testing.T, browser context.Context, path string) *page {
	t.Helper()
	tab, cancel := chromedp.NewContext(browser)
	// The bound covers the tab's whole life, not one wait: a page that never becomes ready
	// fails within it. 30 s sufficed on an idle machine but not at a load average of 25
	// (a session's helpers), where Chromium's start and rendering take minutes.
	ctx, cancelT := context.WithTimeout(tab, 3*time.Minute)
	t.Cleanup(func() { cancelT(); cancel() })
	p := &page{ctx: ctx}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() || m.Type == chromedp.ConsoleWarning {
				p.mu.Lock()
				p.msgs = append(p.msgs, m.String())
				p.mu.Unlock()
			}
		}
	}()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+abs)); err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("window.linkageViewer !== undefined && window.linkageViewer.ready")); err != nil {
		t.Fatalf("%s: the viewer did not become ready: %v; console: %v", path, err, p.console())
	}
	return p
}

func (p *page) console() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.msgs...)
}

// eval evaluates a JavaScript expression in the page into a T.
func eval[T any](t *testing.T, p *page, expr string) T {
	t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// pose is linkageViewer.bodyPose's answer.
type pose struct {
	Name       string     `json:"name"`
	Position   [3]float64 `json:"position"`
	Quaternion [4]float64 `json:"quaternion"`
	Angle      float64    `json:"angle"`
}

// readCSV returns the columns of a CSV file by name.
func readCSV(t *testing.T, path string) map[string][]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.Comment = '#'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cols := map[string][]float64{}
	for _, row := range rows[1:] {
		for i, name := range rows[0] {
			v, err := strconv.ParseFloat(row[i], 64)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			cols[name] = append(cols[name], v)
		}
	}
	return cols
}

// nonBlank fails unless the screenshot shows a drawing: at least 1 % of the pixels of the
// 3D view (left of the plots, above the controls) differ from its background.
func nonBlank(t *testing.T, shot []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	bg := [3]uint32{0xf4, 0xf6, 0xf8}
	b := img.Bounds()
	view := image.Rect(b.Min.X, b.Min.Y, b.Min.X+b.Dx()*6/10, b.Max.Y-60)
	drawn, all := 0, 0
	for y := view.Min.Y; y < view.Max.Y; y += 2 {
		for x := view.Min.X; x < view.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if absDiff(r>>8, bg[0])+absDiff(g>>8, bg[1])+absDiff(bl>>8, bg[2]) > 24 {
				drawn++
			}
			all++
		}
	}
	if frac := float64(drawn) / float64(all); frac < 0.01 {
		t.Errorf("screenshot is blank: %.2f %% of the view's pixels differ from the background", 100*frac)
	}
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestViewerInBrowser loads the viewer of a 2D and a 3D example, moves the slider and reads
// the bodies' poses back from the page, comparing them with the CSV of the same run.
func TestViewerInBrowser(t *testing.T) {
	browser := newBrowser(t)
	cases := []struct {
		model  string
		bodies int
		body   string // a body whose pose the CSV has
		index  int
	}{
		{"slider-crank", 2, "rod", 1},
		{"spatial-fourbar", 3, "rocker", 2},
	}
	for _, c := range cases {
		t.Run(c.model, func(t *testing.T) {
			dir := t.TempDir()
			html, out := filepath.Join(dir, c.model+".html"), filepath.Join(dir, c.model+".csv")
			code, stdout, stderr := runCLI("run", "../../examples/"+c.model+".yaml", "--html", html, "--out", out)
			if code != 0 {
				t.Fatalf("exit %d: %s%s", code, stdout, stderr)
			}
			cols := readCSV(t, out)
			p := openPage(t, browser, html)
			if n := eval[int](t, p, "linkageViewer.bodies"); n != c.bodies {
				t.Errorf("scene has %d bodies, want %d", n, c.bodies)
			}
			if !eval[bool](t, p, "linkageViewer.webgl") {
				t.Fatalf("the page found no WebGL")
			}
			frames := eval[int](t, p, "linkageViewer.frames")
			if frames != len(cols["t"]) {
				t.Errorf("page has %d frames, the CSV %d rows", frames, len(cols["t"]))
			}
			for _, k := range []int{0, frames / 3, frames - 1} {
				eval[bool](t, p, fmt.Sprintf(`(() => { const s = document.getElementById('slider'); s.value = %d; s.dispatchEvent(new Event('input')); return true })()`, k))
				if got := eval[int](t, p, "linkageViewer.frame()"); got != k {
					t.Fatalf("slider at %d shows frame %d", k, got)
				}
				ps := eval[pose](t, p, fmt.Sprintf("linkageViewer.bodyPose(%d)", c.index))
				checkPose(t, k, c.body, ps, cols)
			}
			shot, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			nonBlank(t, shot)
			if dir := os.Getenv("LINKAGE_SCREENSHOTS"); dir != "" { // to refresh docs/viewer.png by hand
				if err := os.WriteFile(filepath.Join(dir, c.model+".png"), shot, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if msgs := p.console(); len(msgs) > 0 {
				t.Errorf("console errors or warnings: %q", msgs)
			}
		})
	}
}

// checkPose compares the drawn pose of body at frame k with the CSV row k; the page's
// numbers were rounded to 7 digits.
func checkPose(t *testing.T, k int, body string, got pose, cols map[string][]float64) {
	t.Helper()
	const tol = 1e-5
	if got.Name != body {
		t.Fatalf("body %q drawn where %q was expected", got.Name, body)
	}
	for i, axis := range []string{"x", "y", "z"} {
		want, ok := cols[body+"."+axis]
		if !ok {
			continue // a planar model has no z
		}
		if math.Abs(got.Position[i]-want[k]) > tol {
			t.Errorf("frame %d: %s.%s drawn at %.7g, the CSV has %.7g", k, body, axis, got.Position[i], want[k])
		}
	}
	if theta, ok := cols[body+".theta"]; ok && math.Abs(got.Angle-theta[k]) > tol {
		t.Errorf("frame %d: %s drawn at angle %.7g, the CSV has %.7g", k, body, got.Angle, theta[k])
	}
	if _, ok := cols[body+".p0"]; ok {
		dot := 0.0 // q and −q are the same rotation
		for i := range 4 {
			dot += got.Quaternion[i] * cols[fmt.Sprintf("%s.p%d", body, i)][k]
		}
		if math.Abs(math.Abs(dot)-1) > tol {
			t.Errorf("frame %d: %s drawn with quaternion %v, the CSV's differs (|q·p| = %.7g)", k, body, got.Quaternion, math.Abs(dot))
		}
	}
}

// TestEveryExampleRendersInViewer: every model in examples/ (the URDF robot descriptions
// among them, converted) draws in the viewer, with one drawn body per body of the file and
// no console errors. The runs are cut to 0.05 s: the drawing, not the dynamics, is tested
// here.
func TestEveryExampleRendersInViewer(t *testing.T) {
	examples, err := filepath.Glob("../../examples/*.yaml")
	urdfs, _ := filepath.Glob("../../examples/*.urdf")
	examples = append(examples, urdfs...)
	if err != nil || len(examples) == 0 || len(urdfs) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	browser := newBrowser(t)
	dir := t.TempDir()
	for _, ex := range examples {
		name := strings.TrimSuffix(filepath.Base(ex), filepath.Ext(ex))
		t.Run(name, func(t *testing.T) {
			doc, err := loadModel(ex, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			html := filepath.Join(dir, name+".html")
			tEnd := math.Min(doc.Model.Simulation.TEnd, doc.Model.Initial.Time+0.05)
			code, stdout, stderr := runCLI("run", ex, "--html", html, "--t-end", fmt.Sprint(tEnd))
			if code != 0 {
				t.Fatalf("exit %d: %s%s", code, stdout, stderr)
			}
			p := openPage(t, browser, html)
			if got, want := eval[int](t, p, "linkageViewer.bodies"), doc.NumBodies(); got != want {
				t.Errorf("the page draws %d bodies; the file has %d", got, want)
			}
			if eval[int](t, p, "linkageViewer.panels") == 0 {
				t.Errorf("no plot panel")
			}
			if msgs := p.console(); len(msgs) > 0 {
				t.Errorf("console errors or warnings: %q", msgs)
			}
		})
	}
}
