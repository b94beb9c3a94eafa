package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"linkage/modelfile"
	"linkage/output"
)

const viewSynopsis = "view MODEL.yaml|FILE.urdf RESULTS.csv|RESULTS.parquet --html view.html [--trail MARKERS]"

// runView writes the viewer page of a finished run from its model file and its CSV results,
// which must hold every body's pose channels.
func runView(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("view", viewSynopsis, stderr)
	var f runFlags
	fs.StringVar(&f.html, "html", "", "the page to write (required)")
	fs.StringVar(&f.trail, "trail", "", "markers whose paths the page draws, comma-separated (default: the last marker of the last body; \"none\": no trail)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("want a MODEL file and its RESULTS.csv, got %d arguments; usage: linkage %s", len(pos), viewSynopsis)
	}
	if f.html == "" {
		return usagef("--html: want the page to write; usage: linkage %s", viewSynopsis)
	}
	doc, err := loadModel(pos[0], stderr)
	if err != nil {
		return err
	}
	cols, err := readResults(pos[1])
	if err != nil {
		return err
	}
	if missing := missingChannels(cols, doc.PoseChannels()); len(missing) > 0 {
		return fmt.Errorf("%s lacks %s: the viewer needs every body's pose; add the bodies to simulation.outputs, or run with --html", pos[1], strings.Join(missing, ", "))
	}
	var plot []string
	for _, name := range doc.PlotChannels() {
		if cols.Channel(name) != nil {
			plot = append(plot, name)
		}
	}
	html, err := openOut("--html", f.html)
	if err != nil {
		return err
	}
	scene, err := doc.Scene(cols.Channel, modelfile.SceneOptions{Trails: f.trails(), Plot: plot})
	if err == nil {
		err = output.WriteViewer(html.f, scene)
	}
	if err != nil {
		html.abort()
		return err
	}
	if _, err := html.finish(nil); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote    %s (%d frames)\n", f.html, len(scene.Times))
	return nil
}

// readResults reads a results file written by linkage run --out: CSV, or Parquet when its
// name ends in .parquet.
func readResults(path string) (*output.Columns, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var cols *output.Columns
	if strings.EqualFold(filepath.Ext(path), ".parquet") {
		var st os.FileInfo
		if st, err = r.Stat(); err == nil {
			cols, err = output.ReadParquet(r, st.Size())
		}
	} else {
		cols, err = output.ReadCSV(r)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cols, nil
}

func missingChannels(cols *output.Columns, names []string) []string {
	var out []string
	for _, n := range names {
		if cols.Channel(n) == nil {
			out = append(out, n)
		}
	}
	return out
}
