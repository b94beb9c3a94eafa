package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// File is an output file written under a temporary name in its directory and renamed to
// its path only by Commit, so that a run that fails never truncates or half-overwrites a
// previous result there. Create checks the path before any work is done: the directory
// exists and is writable (the temporary file is created in it) and the path is not a
// directory or a device.
type File struct {
	path string // where Commit puts the file (symbolic links resolved)
	f    *os.File
	mode fs.FileMode // of the file replaced, else 0644
}

// Create checks path and opens its temporary file (".NAME.tmp-*" beside it). A symbolic
// link is followed, so that Commit replaces the file it points to, not the link.
func Create(path string) (*File, error) {
	if path == "" {
		return nil, errors.New("empty file name")
	}
	target, err := resolve(path)
	if err != nil {
		return nil, err
	}
	mode := fs.FileMode(0o644)
	switch st, err := os.Stat(target); {
	case err == nil && st.IsDir():
		return nil, fmt.Errorf("%s is a directory; want a file name", path)
	case err == nil && !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (%v); want a file name", path, st.Mode().Type())
	case err == nil:
		mode = st.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	dir := filepath.Dir(target)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("directory %s does not exist", dir)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write in directory %s: %w", dir, err)
	}
	return &File{path: target, f: f, mode: mode}, nil
}

// resolve follows path's symbolic links when it is one.
func resolve(path string) (string, error) {
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("%s is a symbolic link that does not resolve: %w", path, err)
	}
	return target, nil
}

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) { return f.f.Write(p) }

// Path returns the path Commit writes.
func (f *File) Path() string { return f.path }

// Commit closes the file and renames it to its path, replacing what was there.
func (f *File) Commit() error { return f.CommitAs(f.path) }

// CommitAs closes the file and renames it to path instead (a partial result kept beside
// the path the complete one would have had).
func (f *File) CommitAs(path string) error {
	tmp := f.f.Name()
	err := f.f.Chmod(f.mode)
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Abort closes and removes the temporary file; the path is left as it was.
func (f *File) Abort() {
	f.f.Close()
	os.Remove(f.f.Name())
}

// PartialPath returns where the partial result of a failed run that was to be written to
// path is kept: NAME.partial.EXT beside it (r.csv → r.partial.csv).
func PartialPath(path string) string {
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + ".partial" + ext
}
