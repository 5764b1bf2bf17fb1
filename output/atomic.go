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
func WriteFile(path string, write func(w io.Writer) error) (err error) {
	if path == "-" || path == "" {
		return write(os.Stdout)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
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
	if err = os.Rename(tmp.Name(), path); err != nil {
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
