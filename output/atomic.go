package output

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes a file atomically: write receives a temporary file in
// the same directory, which is synced and renamed over path only if write
// returns nil. On any error, or if the process stops midway, path keeps its
// old content (or stays absent) and the temporary file is removed where
// possible. The path "-" writes to standard output directly.
//
// A path that names an existing file which is not a regular file (a device
// such as /dev/null or /dev/stdout, a named pipe) cannot be replaced by a
// rename and is written to directly, without atomicity. A symbolic link is
// followed: the file it points to is replaced atomically and the link
// stays.
func WriteFile(path string, write func(w io.Writer) error) (err error) {
	if path == "-" || path == "" {
		return write(os.Stdout)
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("%s: is a directory", path)
		}
		return writeDirect(path, write)
	}
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	addTemp(tmp.Name())
	defer func() {
		dropTemp(tmp.Name())
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && pe.Path == tmp.Name() {
			// Name the target, not the temporary file.
			return fmt.Errorf("%s: %w", path, unwrapPath(pe))
		}
		return err
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err = os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
}

// writeDirect writes to the existing non-regular file path (a device or a
// named pipe) in place.
func writeDirect(path string, write func(w io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
}

// unwrapPath drops the *os.PathError wrapper, whose path is the temporary
// file's, keeping the underlying error.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
