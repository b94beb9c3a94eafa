package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"linkage/modelfile"
)

const importSynopsis = "import FILE.urdf [-o MODEL.yaml] [-force] [-floating-base]"

// runImport converts a URDF robot description to a model file (modelfile.ConvertURDF):
// to standard output, or to the file of -o, which it does not replace unless -force.
func runImport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("import", importSynopsis, stderr)
	var out string
	var force, floating bool
	fs.StringVar(&out, "o", "", "write the model file to this path (default: standard output); an existing file is kept unless -force")
	fs.BoolVar(&force, "force", false, "replace the file of -o if it exists")
	fs.BoolVar(&floating, "floating-base", false, "the root link floats on a free joint (a mobile robot, a humanoid) instead of being the ground")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one URDF file, got %d; usage: linkage %s", len(pos), importSynopsis)
	}
	if !modelfile.IsURDF(pos[0]) {
		return usagef("%s: want a URDF file (FILE.urdf); linkage imports URDF only", pos[0])
	}
	if out != "" && !force {
		if _, err := os.Lstat(out); err == nil {
			return usagef("-o %s: the file exists; add -force to replace it", out)
		}
	}
	var o *outFile
	if o, err = openOut("-o", out); err != nil { // before the work, as run does
		return err
	}
	defer o.abort()
	_, conv, err := modelfile.LoadURDF(pos[0], &modelfile.URDFOptions{FloatingBase: floating})
	if err != nil {
		return err
	}
	warnIgnored(stderr, pos[0], conv)
	if o == nil {
		_, err = stdout.Write(conv.YAML)
		return err
	}
	if _, err := o.f.Write(conv.YAML); err != nil {
		return err
	}
	_, err = o.finish(nil)
	return err
}

// warnIgnored tells on stderr what of a URDF file the model does not simulate.
func warnIgnored(stderr io.Writer, path string, conv *modelfile.URDFModel) {
	if len(conv.Ignored) > 0 {
		fmt.Fprintf(stderr, "linkage: warning: %s: not simulated (ignored): %s\n", path, strings.Join(conv.Ignored, "; "))
	}
}

// loadModel reads a model file, or converts a URDF file (FILE.urdf) to one, warning on
// stderr about what the conversion ignored.
func loadModel(path string, stderr io.Writer) (*modelfile.Document, error) {
	if !modelfile.IsURDF(path) {
		return modelfile.Load(path)
	}
	doc, conv, err := modelfile.LoadURDF(path, nil)
	if err != nil {
		return nil, err
	}
	warnIgnored(stderr, path, conv)
	return doc, nil
}
