package main

import (
	"os"
	"strings"

	"linkage/output"
)

// outFile is an output file named by a flag. It is checked and opened (under a temporary
// name) before any work, so a bad path costs no run; it replaces the file at its path only
// when the run succeeded, and a failed run's output is kept as output.PartialPath(path).
// Methods on a nil *outFile do nothing (the flag was not given).
type outFile struct {
	flag, path string
	f          *output.File
	done       bool // put in place (or removed): abort does nothing more
}

// openOut checks and opens the file of flag; "" gives nil. A bad path is a usage error.
func openOut(flag, path string) (*outFile, error) {
	if path == "" {
		return nil, nil
	}
	f, err := output.Create(path)
	if err != nil {
		return nil, usagef("%s %s: %v", flag, path, err)
	}
	return &outFile{flag: flag, path: path, f: f}, nil
}

// openPlot is openOut for a plot, whose format must be known; it returns the format too.
func openPlot(flag, path string) (*outFile, string, error) {
	if path == "" {
		return nil, "", nil
	}
	format, err := output.PlotFormat(path)
	if err != nil {
		return nil, "", usagef("%s %v", flag, err)
	}
	o, err := openOut(flag, path)
	return o, format, err
}

// finish puts the file in place: at its path when the run succeeded (runErr == nil), else
// at its partial path, which it returns.
func (o *outFile) finish(runErr error) (partial string, err error) {
	if o == nil {
		return "", nil
	}
	o.done = true
	if runErr == nil {
		return "", o.f.Commit()
	}
	partial = output.PartialPath(o.path)
	return partial, o.f.CommitAs(partial)
}

// abort removes the temporary file unless finish put it in place; the path keeps what it
// had.
func (o *outFile) abort() {
	if o != nil && !o.done {
		o.done = true
		o.f.Abort()
	}
}

// checkOutDir makes sure dir is (or can be made) a directory this process can write in,
// before any work is done.
func checkOutDir(flag, dir string) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return usagef("%s %s: not a directory", flag, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usagef("%s %s: %v", flag, dir, err)
	}
	f, err := os.CreateTemp(dir, ".linkage-check-*")
	if err != nil {
		return usagef("%s %s: cannot write in it: %v", flag, dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// partialNote says where the partial results of a failed run went.
func partialNote(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	return "partial results in " + strings.Join(paths, ", ") + " (rows up to the failure, marked at the end of a CSV; what was at the requested paths is unchanged)"
}
