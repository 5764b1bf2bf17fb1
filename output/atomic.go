package output

import (
	"context"
	"fmt"
	"io"
	"os"
)

// WriteFile writes a file atomically: write receives a temporary file in
// the same directory, which is synced and renamed over path only if write
// returns nil. On any error, or if the process stops midway, path keeps its
// old content (or stays absent) and the temporary file is removed where
// possible. The path "-" writes to standard output directly. It is
// WriteFiles with one file; see there for file modes,
// symbolic links and targets that are not regular files (a device such as
// /dev/null or /dev/stdout, a named pipe), which are written to directly.
func WriteFile(path string, write func(w io.Writer) error) error {
	return WriteFiles(context.Background(), File{Path: path, Write: write})
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
